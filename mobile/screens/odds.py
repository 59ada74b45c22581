"""The odds screen: the question that fits the table now, each option's figures in words with their range
(layout in odds.kv; behaviour in presenters/odds.py)."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen

from .. import theme
from ..i18n import _
from ..presenters.odds import OddsPresenter, OddsView


class OddsScreen(Screen):
    presenter: OddsPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    vm: OddsView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    go_back: Any = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        p = self.presenter
        if p is None:
            return
        self.vm = vm = p.view()
        ids = self.ids
        ids.cards.clear_widgets()
        ids.actions.clear_widgets()
        for card in vm.cards:
            box = Factory.Card()
            box.add_widget(Factory.Body(text=card.label, bold=True, color=theme.ACCENT))
            if card.best:
                box.add_widget(Factory.Body(text=_("Clearly the best for: {figures}").format(
                    figures=", ".join(card.best)), color=theme.OK))
            for line in card.lines:
                box.add_widget(Factory.Body(text=line))
            ids.cards.add_widget(box)
        if vm.can_ask:
            label = _("Work out the odds") if vm.status != "done" else _("Work them out again")
            ids.actions.add_widget(Factory.PrimaryButton(text=label, on_release=lambda *_a: p.ask()))
        if self.go_back is not None:
            ids.actions.add_widget(Factory.DarkButton(text=_("Back to the table"), on_release=lambda *_a: self.go_back()))
