"""The posse screen: a row per hero that opens into the hero's card (layout in posse.kv, behaviour in
PossePresenter); two columns on a wide screen."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from .. import theme
from ..i18n import _
from ..presenters.posse import HeroRow, PossePresenter


def _hex(colour: tuple[float, ...]) -> str:
    return "".join(f"{round(c * 255):02x}" for c in colour[:3])


class ListEditorPopup(ModalView):
    """Side Bag tokens or Mutations of one hero: remove one, add a suggested or typed one."""

    editor = ObjectProperty(None, allownone=True)
    presenter = ObjectProperty(None, allownone=True)
    content_height = NumericProperty(0)

    def on_editor(self, *_args: Any) -> None:
        editor = self.editor
        items, suggestions = self.ids.entries, self.ids.picks
        items.clear_widgets()
        suggestions.clear_widgets()
        if editor is None:
            return
        for name in editor.items:
            items.add_widget(Factory.DarkButton(text=_("Remove") + f" {name}",
                                                on_release=lambda _b, n=name: self.presenter.remove(n)))
        for name in editor.suggestions:
            suggestions.add_widget(Factory.DarkButton(text=name, disabled=not editor.can_add, font_size="14sp",
                                                      on_release=lambda _b, n=name: self.presenter.add(n)))

    def add(self, name: str) -> None:
        self.presenter.add(name)

    def on_dismiss(self) -> None:
        if self.presenter is not None:
            self.presenter.close_list()


class StatTileWidget(BoxLayout):
    """One number on a hero card: tap the number to type it, or -/+."""

    tile = ObjectProperty(None, allownone=True)
    hero_id = StringProperty("")
    presenter = ObjectProperty(None, allownone=True)
    locked = BooleanProperty(False)
    ask_number = ObjectProperty(None, allownone=True)

    def step(self, direction: int) -> None:
        if self.presenter is not None and self.tile is not None:
            self.presenter.adjust(self.hero_id, self.tile.key, direction)

    def type_value(self) -> None:
        if self.presenter is None or self.tile is None or self.ask_number is None:
            return
        tile, hero_id, presenter = self.tile, self.hero_id, self.presenter
        self.ask_number(tile.label, tile.value, lambda text: presenter.set_value(hero_id, tile.key, text))


class HeroCardWidget(BoxLayout):
    """The opened card: the stat tiles (kept and updated in place), the Side Bag and Mutations rows."""

    card = ObjectProperty(None, allownone=True)
    presenter = ObjectProperty(None, allownone=True)
    on_list = ObjectProperty(None, allownone=True)
    locked = BooleanProperty(False)
    ask_number = ObjectProperty(None, allownone=True)

    def on_card(self, *_args: Any) -> None:
        grid = self.ids.tiles
        card = self.card
        if card is None:
            grid.clear_widgets()
            return
        tiles = list(reversed(grid.children))
        if len(tiles) != len(card.tiles):
            grid.clear_widgets()
            tiles = []
            for _tile in card.tiles:
                widget = StatTileWidget(presenter=self.presenter)
                grid.add_widget(widget)
                tiles.append(widget)
        for widget, tile in zip(tiles, card.tiles, strict=True):
            widget.hero_id = card.hero_id
            widget.presenter = self.presenter
            widget.locked = self.locked
            widget.ask_number = self.ask_number
            widget.tile = tile

    def open_list(self, kind: str) -> None:
        if self.on_list is not None and self.card is not None:
            self.on_list(self.card.hero_id, kind)


class HeroRowWidget(BoxLayout):
    """A hero at a glance; a tap opens the card below the row."""

    row: HeroRow | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    presenter = ObjectProperty(None, allownone=True)
    head_markup = StringProperty("")

    def on_row(self, *_args: Any) -> None:
        row = self.row
        if row is None:
            return
        icon, nb = theme.icon, theme.NBSP
        arrow = icon("▾" if row.expanded else "▸")
        mine = f"  [color={_hex(theme.ACCENT)}]{icon('●')}{nb}{_('this phone')}[/color]" if row.mine else ""
        self.head_markup = (f"[b][size={round(Factory.Heading().font_size)}]{arrow} {escape_markup(row.name)}"
                            f"[/size][/b]\n[color={_hex(theme.MUTED)}]{escape_markup(row.subtitle)}[/color]{mine}")
        tone = {"danger": theme.DANGER, "warn": theme.WARN, "normal": theme.TEXT, "info": theme.INFO}

        def chip(mark: str, words: str, shade: str = "normal", **kwargs: Any) -> Any:
            """One number or badge as its own label: it wraps to the next line whole, never in the middle."""
            return Factory.Chip(text=f"[color={_hex(tone[shade])}]{icon(mark)} {escape_markup(words)}[/color]",
                                **kwargs)

        numbers, marks = self.ids.numbers, self.ids.badges
        numbers.clear_widgets()
        marks.clear_widgets()
        for widget in (chip("♥", f"{_('Health')} {row.health}", row.health_tone),
                       chip("✦", f"{_('Sanity')} {row.sanity}", row.sanity_tone),
                       chip("◆", f"{_('Grit')} {row.grit}"), chip("●", row.money)):
            numbers.add_widget(widget)
        for badge in row.badges:
            marks.add_widget(chip(badge.icon, _(badge.text), badge.tone, bold=True, font_size=Factory.Muted().font_size))

    def toggle(self) -> None:
        if self.presenter is not None and self.row is not None:
            self.presenter.toggle(self.row.hero_id)


class PosseScreen(Screen):
    presenter: PossePresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    ask_number = ObjectProperty(None, allownone=True)
    popup: ListEditorPopup | None = None

    def refresh(self) -> None:
        if self.presenter is None:
            return
        view = self.presenter.view()
        self.ids.locked.markup = True
        self.ids.locked.text = (theme.icon("⏸ ") + escape_markup(view.locked)) if view.locked else ""
        box = self.ids.rows
        widgets = list(reversed(box.children))
        if [w.row.hero_id for w in widgets if w.row] != [r.hero_id for r in view.rows]:
            box.clear_widgets()
            widgets = [HeroRowWidget(presenter=self.presenter) for _row in view.rows]
            for widget in widgets:
                box.add_widget(widget)
        cards = {c.hero_id: c for c in view.cards}
        for widget, row in zip(widgets, view.rows, strict=True):
            widget.row = row
            holder = widget.ids.card
            card = cards.get(row.hero_id)
            if card is None:
                holder.clear_widgets()
                continue
            if not holder.children:
                holder.add_widget(HeroCardWidget(presenter=self.presenter, on_list=self.open_list))
            shown = holder.children[0]
            shown.locked = bool(view.locked)
            shown.ask_number = self.ask_number
            shown.card = None
            shown.card = card
        self.presenter.sync()
        if self.popup is not None:
            self.popup.editor = self.presenter.editor

    def open_list(self, hero_id: str, kind: str) -> None:
        assert self.presenter is not None
        editor = self.presenter.open_list(hero_id, kind)
        self.popup = ListEditorPopup(presenter=self.presenter)
        self.popup.editor = editor
        self.popup.bind(on_dismiss=lambda *_a: setattr(self, "popup", None))
        self.popup.open()
