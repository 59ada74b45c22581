"""The posse screen: a scrolling list of hero cards (layout in posse.kv, behaviour in PossePresenter)."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import NumericProperty, ObjectProperty
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from ..presenters.posse import PossePresenter
from .widgets import HeroCardWidget


class ListEditorPopup(ModalView):
    """Side Bag tokens or Mutations of one hero: remove one, add a suggested or typed one."""

    editor = ObjectProperty(None, allownone=True)
    presenter = ObjectProperty(None, allownone=True)
    content_height = NumericProperty(0)

    def on_editor(self, *_: Any) -> None:
        editor = self.editor
        items, suggestions = self.ids.entries, self.ids.picks
        items.clear_widgets()
        suggestions.clear_widgets()
        if editor is None:
            return
        for name in editor.items:
            items.add_widget(Factory.DarkButton(text=f"Remove {name}",
                                                on_release=lambda _b, n=name: self.presenter.remove(n)))
        for name in editor.suggestions:
            suggestions.add_widget(Factory.DarkButton(text=name, disabled=not editor.can_add, font_size="14sp",
                                                      on_release=lambda _b, n=name: self.presenter.add(n)))

    def add(self, name: str) -> None:
        self.presenter.add(name)

    def on_dismiss(self) -> None:
        if self.presenter is not None:
            self.presenter.close_list()


class PosseScreen(Screen):
    presenter: PossePresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    popup: ListEditorPopup | None = None

    def refresh(self) -> None:
        if self.presenter is None:
            return
        cards = self.presenter.cards()
        box = self.ids.cards
        widgets = list(reversed(box.children))
        if [w.card.hero_id for w in widgets if w.card] != [c.hero_id for c in cards]:
            box.clear_widgets()
            widgets = [HeroCardWidget(presenter=self.presenter, on_list=self.open_list) for _ in cards]
            for widget in widgets:
                box.add_widget(widget)
        for widget, card in zip(widgets, cards, strict=True):
            widget.card = card
        self.presenter.sync()
        if self.popup is not None:
            self.popup.editor = self.presenter.editor

    def open_list(self, hero_id: str, kind: str) -> None:
        assert self.presenter is not None
        editor = self.presenter.open_list(hero_id, kind)
        self.popup = ListEditorPopup(presenter=self.presenter)
        self.popup.editor = editor
        self.popup.bind(on_dismiss=lambda *_: setattr(self, "popup", None))
        self.popup.open()
