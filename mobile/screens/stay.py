"""The Town Stay screen: the Day, its event, each hero's visit (one tap on a place), what they may buy and sell,
and the big button for the common next step (layout in stay.kv; behaviour in presenters/stay.py)."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from .. import theme
from ..i18n import _
from ..presenters.stay import StayAction, StayPresenter, StayScreenView
from .widgets import add_other_actions


def marked(text: str) -> str:
    """Markup-safe text with the badge marks drawn in the icon font (Roboto lacks them)."""
    safe = text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")
    for mark in ("◉", "★", "✖"):
        safe = safe.replace(mark, theme.icon(mark))
    return safe


class BuyPopup(ModalView):
    """A purchase the pack does not list: what it is, the card's price, and its kind; "Buy" sends it."""

    presenter: StayPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    hero = StringProperty("")
    place = StringProperty("")
    kind = StringProperty("item")

    def buy(self) -> None:
        if self.presenter is not None and self.presenter.buy_typed(self.hero, self.ids.ware.text,
                                                                   self.ids.price.text, self.kind):
            self.dismiss()


class BountyPopup(ModalView):
    """A Bounty posted from the card or the chart: the Enemy, its Health (a Low Threat card) or the Gold, and for a
    card whether every hero collects."""

    presenter: StayPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    hero = StringProperty("")
    method = StringProperty("threat_card")
    all_heroes = BooleanProperty(False)
    title = StringProperty("")

    def on_open(self) -> None:
        if self.method != "threat_card" and self.ids.every.parent is not None:  # only a card's XP may vary
            self.ids.box.remove_widget(self.ids.every)

    def post(self) -> None:
        if self.presenter is not None and self.presenter.post_bounty(self.hero, self.method, self.ids.enemy.text,
                                                                     self.ids.number.text, self.all_heroes):
            self.dismiss()


class StayScreen(Screen):
    presenter: StayPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    vm: StayScreenView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    show_prompt: Any = ObjectProperty(None, allownone=True)
    show_odds: Any = ObjectProperty(None, allownone=True)
    odds_fit: Any = ObjectProperty(None, allownone=True)  # () -> bool: an odds question fits the table now

    def refresh(self) -> None:
        p = self.presenter
        if p is None:
            return
        self.vm = vm = p.view()
        ids = self.ids
        for box in (ids.event, ids.heroes, ids.extra, ids.actions):
            box.clear_widgets()
        ids.event_card.opacity = 1 if vm.in_town else 0
        if vm.event:
            ids.event.add_widget(Factory.Body(text=vm.event, bold=True))
        for line in vm.event_text + vm.rules:
            ids.event.add_widget(Factory.Muted(text=line))
        for hero in vm.heroes:
            ids.heroes.add_widget(self._hero(hero, vm.main))
        extra = [*((_("Bounties"), vm.bounties),), *((_("The Devil's Wheel"), vm.wheel),)]
        for title, lines in extra:
            if lines:
                ids.extra.add_widget(Factory.Section(text=title))
                for line in lines:
                    ids.extra.add_widget(Factory.Body(text=line))
        ids.extra_card.opacity = 1 if ids.extra.children else 0
        bar = ids.actions
        if vm.prompt and (vm.main is None or vm.main.key != "answer"):
            bar.add_widget(Factory.Body(text=vm.prompt, color=theme.INFO))
        keep: list[Any] = []
        if vm.end_die and vm.main is not None:  # the Town Darkness die typed here ends the Day in one tap
            bar.add_widget(Factory.BarText(text=vm.end_die, bold=True))
            pad = GridLayout(cols=6, spacing=dp(6), size_hint_y=None, height=dp(56))
            for face in range(1, 7):
                pad.add_widget(Factory.PadButton(die_colour="white", face=face, size_hint=(1, None), height=dp(56),
                                                 on_release=lambda _b, f=face: p.end_day_with(f)))
            bar.add_widget(pad)
            keep.append(Factory.DarkButton(text=vm.main.label,  # the die then on the Dice screen ("Roll for me")
                                           on_release=lambda *_a, a=vm.main: self._do(a)))
        elif vm.main is not None:
            bar.add_widget(Factory.PrimaryButton(text=vm.main.label, disabled=not vm.main.enabled,
                                                 on_release=lambda *_a, a=vm.main: self._do(a)))
        add_other_actions(bar, Factory.Row(), vm.others, self._do, self.odds_fit, self.show_odds, keep)

    def _hero(self, hero: Any, main: StayAction | None) -> Any:
        card = Factory.Card()
        card.add_widget(Factory.Body(text=hero.name, bold=True, color=theme.ACCENT if hero.mine else theme.TEXT))
        if hero.badges:
            card.add_widget(Factory.Muted(text=marked(hero.badges), markup=True))
        if hero.status:
            card.add_widget(Factory.Body(text=hero.status))
        if hero.trouble:
            card.add_widget(Factory.Body(text=marked("◉ " + hero.trouble), markup=True, color=theme.WARN))
        for group in (hero.places, tuple(a for a in hero.actions if a != main)):  # the big button is not repeated
            if group:
                grid = Factory.ButtonGrid()
                for action in group:
                    grid.add_widget(Factory.DarkButton(text=action.label, disabled=not action.enabled,
                                                       on_release=lambda *_a, a=action: self._do(a)))
                card.add_widget(grid)
        for line in hero.closed:
            card.add_widget(Factory.Muted(text=marked("✖ " + line), markup=True))
        return card

    def _do(self, action: StayAction) -> None:
        if action.key == "bounty":
            BountyPopup(presenter=self.presenter, hero=action.hero, method=action.arg, title=action.label).open()
            return
        if action.key == "buy_typed":
            BuyPopup(presenter=self.presenter, hero=action.hero, place=action.arg).open()
            return
        if action.key == "answer":
            if self.show_prompt is not None:
                self.show_prompt()
            return
        if self.presenter is not None:
            self.presenter.do(action)
