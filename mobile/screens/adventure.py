"""The Adventure screen: the turn, the Depth Track drawn as a track, Hold Back the Darkness (the table's two dice
typed in the bar, or the app's), the activation order, each hero's figures and class resources, the enemies, and
the big button for the next step (layout in adventure.kv; behaviour in presenters/adventure.py)."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from .. import theme
from ..i18n import _
from ..presenters.adventure import STATE_WORDS, AdventureAction, AdventurePresenter, AdventureView, Setup
from .widgets import Stepper, add_other_actions

PARTY, DARKNESS = "♞", "●"


class TrackCell(Label):
    mark = StringProperty("")  # blood | dread | ""
    party = BooleanProperty(False)
    darkness = BooleanProperty(False)


class TrackButton(ButtonBehavior, TrackCell):
    """A space of the Depth Track being typed in: a tap changes its mark."""


class EnemyPopup(ModalView):
    """Enemies the table puts on the board, as the card says: name, how many, Health, Initiative."""

    presenter: AdventurePresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]

    def add(self) -> None:
        ids = self.ids
        if self.presenter is not None and self.presenter.add_enemies(ids.name.text, ids.count.text, ids.health.text,
                                                                     ids.initiative.text):
            self.dismiss()


class AdventureScreen(Screen):
    presenter: AdventurePresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    vm: AdventureView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    show_prompt: Any = ObjectProperty(None, allownone=True)
    show_odds: Any = ObjectProperty(None, allownone=True)
    odds_fit: Any = ObjectProperty(None, allownone=True)
    open_board: Any = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        p = self.presenter
        if p is None:
            return
        self.vm = vm = p.view()
        ids = self.ids
        for box in (ids.setup, ids.track, ids.heroes, ids.enemies, ids.actions, ids.cards):
            box.clear_widgets()
        for card in (ids.track_card, ids.heroes_card):
            card.opacity = 1 if vm.active else 0
        ids.enemies_card.opacity = 1 if vm.enemies else 0
        ids.cards_card.opacity = 1 if vm.cards else 0
        for action in vm.cards:
            ids.cards.add_widget(Factory.DarkButton(text=action.label, disabled=not action.enabled,
                                                    on_release=lambda *_a, a=action: self._do(a)))
        if vm.setup is not None:
            self._setup(vm.setup)
        if vm.token:
            self._token(vm)
        for space in vm.track:
            marks = (theme.icon(PARTY) if space.party else "") + (theme.icon(DARKNESS) if space.darkness else "")
            ids.track.add_widget(TrackCell(
                text=f"[b]{space.number}[/b] {space.target}+\n{marks or ' '}",
                mark={"blood_spatter": "blood", "growing_dread": "dread"}.get(space.mark, ""),
                party=space.party, darkness=space.darkness))  # fmt: skip
        ids.legend.text = (_("{party} Hero Party · {dark} Darkness · red: Blood Spatter · purple: Growing Dread · "
                             "each space: its number and the roll it needs").format(
            party=theme.icon(PARTY), dark=theme.icon(DARKNESS)))
        ids.legend.markup = True
        ids.order.text = ", ".join(vm.order) if vm.order else _("Everyone has activated this turn")
        for hero in vm.heroes:
            ids.heroes.add_widget(self._hero(hero))
        grid = Factory.ButtonGrid()
        for line in vm.enemies:
            ids.enemies.add_widget(Factory.Body(text=line))
        for line, wound in zip(vm.enemies, vm.wound, strict=False):
            grid.add_widget(Factory.DarkButton(text=f"{wound.label}: {line.split(':')[0]}", disabled=not wound.enabled,
                                               on_release=lambda *_a, a=wound: self._do(a)))
        if vm.wound:
            ids.enemies.add_widget(grid)
        self._bar(vm)

    def _setup(self, setup: Setup) -> None:
        """Between adventures: who holds the Old Lantern, the mission, the Depth Track, the sheet numbers."""
        p = self.presenter
        assert p is not None
        box = self.ids.setup
        for title, group in ((_("Who holds the Old Lantern?"), setup.lantern), (_("Mission"), setup.missions),
                             (_("Depth Track"), setup.tracks)):
            if group:
                box.add_widget(Factory.Section(text=title))
                grid = Factory.ButtonGrid()
                for action in group:
                    text = action.label.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")
                    grid.add_widget(Factory.DarkButton(text=text.replace("●", theme.icon("●")), markup=True,
                                                       on_release=lambda *_a, a=action: self._do(a)))
                box.add_widget(grid)
        track_numbers = [n for n in setup.numbers if "." not in n.key]
        if setup.track:
            box.add_widget(Factory.Section(text=_("The Depth Track, as your board shows it")))
            for number in track_numbers:
                box.add_widget(self._stepper(number.label, number.value, number.key))
            grid = GridLayout(cols=6, spacing=dp(3), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for space in setup.track:
                grid.add_widget(TrackButton(
                    text=f"[b]{space.number}[/b] {space.target}+", party=False, darkness=False,
                    mark={"blood_spatter": "blood", "growing_dread": "dread"}.get(space.mark, ""),
                    on_release=lambda _b, n=space.number: p.cycle_mark(n)))  # fmt: skip
            box.add_widget(grid)
            box.add_widget(Factory.Muted(text=_("Tap a space: Blood Spatter (red), Growing Dread (purple), none.")))
        heroes = [n for n in setup.numbers if "." in n.key]
        if heroes:
            box.add_widget(Factory.Section(text=_("Sheet numbers the content pack lacks")))
            for number in heroes:
                box.add_widget(self._stepper(number.label, number.value, number.key))

    def _token(self, vm: AdventureView) -> None:
        """Room Exploration with no tokens in the pack: the table says what the token it turned up shows."""
        box = self.ids.setup
        box.add_widget(Factory.Section(text=_("What the Exploration Token shows")))
        for number in vm.token:
            box.add_widget(self._stepper(number.label, number.value, number.key))
        grid = Factory.ButtonGrid()
        for action in vm.token_flags:
            grid.add_widget(Factory.DarkButton(text=action.label.replace("●", theme.icon("●")), markup=True,
                                               on_release=lambda *_a, a=action: self._do(a)))
        box.add_widget(grid)

    def _stepper(self, label: str, value: int, key: str) -> Any:
        stepper = Stepper(label=label, value=str(value))
        stepper.bind(on_step=lambda _w, d, k=key: self.presenter.step(k, d) if self.presenter else None)
        return stepper

    def _hero(self, hero: Any) -> Any:
        box = Factory.Column(spacing=dp(2))
        state = STATE_WORDS.get(hero.state, "")
        title = hero.name + (" · " + _("Old Lantern") if hero.lantern else "") + (f" · {_(state)}" if state else "")
        colour = theme.ACCENT if hero.state in ("activating", "next") else theme.DANGER if hero.state == "KO" \
            else theme.TEXT
        box.add_widget(Factory.Body(text=title, bold=True, color=colour))
        box.add_widget(Factory.Muted(text=hero.figures))
        if hero.resources:
            box.add_widget(Factory.Muted(text=hero.resources, color=theme.INFO))
        if hero.actions:
            grid = Factory.ButtonGrid()
            for action in hero.actions:
                grid.add_widget(Factory.DarkButton(text=action.label, disabled=not action.enabled,
                                                   on_release=lambda *_a, a=action: self._do(a)))
            box.add_widget(grid)
        return box

    def _bar(self, vm: AdventureView) -> None:
        p = self.presenter
        assert p is not None
        bar = self.ids.actions
        keep: list[Any] = []
        if vm.prompt and (vm.main is None or vm.main.key != "answer"):
            bar.add_widget(Factory.BarText(text=vm.prompt, color=theme.INFO))
        if vm.dice is not None:
            first = vm.dice[0]
            bar.add_widget(Factory.BarText(text=_("Hold Back the Darkness: tap the first die, then the second")
                                        if first is None else _("First die {a}: now the second").format(a=first),
                                        bold=True))
            pad = GridLayout(cols=6, spacing=dp(6), size_hint_y=None, height=dp(56))
            for face in range(1, 7):
                pad.add_widget(Factory.PadButton(die_colour="white", face=face, size_hint=(1, None), height=dp(56),
                                                 on_release=lambda _b, f=face: p.tap_die(f)))
            bar.add_widget(pad)
            if vm.main is not None and vm.main.key == "hbtd":  # beside "More…" when the bar is full
                keep.append(Factory.DarkButton(text=_("Roll for me"), on_release=lambda *_a: p.act()))
        elif vm.move is not None:  # the next hero's Move die: one tap activates them (and ends the one under way)
            bar.add_widget(Factory.BarText(text=vm.move.label, bold=True))
            pad = GridLayout(cols=6, spacing=dp(6), size_hint_y=None, height=dp(56))
            for face in range(1, 7):
                pad.add_widget(Factory.PadButton(die_colour="white", face=face, size_hint=(1, None), height=dp(56),
                                                 on_release=lambda _b, f=face: p.tap_move(f)))
            bar.add_widget(pad)
            if vm.main is not None:  # the die ends the activation under way: its own button beside "More…" then
                button = Factory.PrimaryButton if vm.main.key == "end_activation" else Factory.DarkButton
                keep.append(button(text=vm.main.label, disabled=not vm.main.enabled,
                                   on_release=lambda *_a, a=vm.main: self._do(a)))
        elif vm.setup is not None and vm.setup.start is not None:
            start = vm.setup.start
            bar.add_widget(Factory.PrimaryButton(text=start.label, on_release=lambda *_a: self._do(start)))
        elif vm.main is not None:
            bar.add_widget(Factory.PrimaryButton(text=vm.main.label, disabled=not vm.main.enabled,
                                                 on_release=lambda *_a, a=vm.main: self._do(a)))
        add_other_actions(bar, Factory.ButtonGrid(), vm.others, self._do, self.odds_fit, self.show_odds, keep)

    def _do(self, action: AdventureAction) -> None:
        if action.key == "answer":
            if self.show_prompt is not None:
                self.show_prompt()
            return
        if action.key == "enemies":
            EnemyPopup(presenter=self.presenter).open()
            return
        if action.key == "board":
            if self.open_board is not None:
                self.open_board()
            return
        if self.presenter is None:
            return
        from .more import ChoicePopup, FormPopup

        if self.presenter.choices(action) is not None:
            ChoicePopup(presenter=self.presenter, action=action).open()
            return
        form = self.presenter.form(action)
        if form is not None:
            FormPopup(presenter=self.presenter, form=form).open()
            return
        self.presenter.do(action)
