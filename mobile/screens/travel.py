"""The travel screen: town size, the D36 typed here for each hazard, the hazards one by one, and what the last one
did, on top (layout in travel.kv). The main action sits in a bar pinned above the tabs."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import ObjectProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from .. import theme
from ..i18n import _
from ..presenters.travel import TravelPresenter, TravelView
from .widgets import Stepper


class TravelScreen(Screen):
    presenter: TravelPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    vm: TravelView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    show_prompt: Any = ObjectProperty(None, allownone=True)
    show_odds: Any = ObjectProperty(None, allownone=True)
    odds_fit: Any = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        p = self.presenter
        if p is None:
            return
        self.vm = vm = p.view()
        ids = self.ids
        for box in (ids.sizes, ids.hazards, ids.waiting, ids.actions, ids.result):
            box.clear_widgets()
        if vm.phase == "between_adventures":
            for option in vm.sizes:
                ids.sizes.add_widget(Factory.DarkButton(text=f"{_(option.label)}\n{option.note}",
                                                        disabled=not option.enabled,
                                                        on_release=lambda _b, s=option.size: p.choose_size(s)))
        ids.hazard_card.opacity = 1 if vm.hazards else 0
        for row in vm.hazards:
            ids.hazards.add_widget(Factory.HazardLine(number=str(row.number), roller=row.roller, result=row.result,
                                                      state=row.state))
        self._result(vm)
        if vm.prompt_waiting:
            ids.waiting.add_widget(Factory.Body(text=_("Waiting for the table: {question}").format(
                question=vm.prompt_waiting), color=theme.WARN))
            if self.show_prompt is not None:
                ids.actions.add_widget(Factory.PrimaryButton(text=_("Answer it"),
                                                             on_release=lambda *_a: self.show_prompt()))
        if vm.hazard_dice is not None:
            self._d36(vm)
        if vm.action == "arrive":
            stepper = Stepper(label=_("Buildings destroyed from the start (a failed Mission, a card)"),
                              value=str(vm.destroyed_slots))
            stepper.bind(on_step=lambda _w, d: p.step_destroyed(d))
            ids.waiting.add_widget(stepper)
        if vm.action and vm.hazard_dice is None:
            ids.actions.add_widget(Factory.PrimaryButton(text=vm.action_label, on_release=lambda *_a: p.act()))
        if vm.phase == "between_adventures" and self.odds_fit is not None and self.odds_fit() \
                and self.show_odds is not None:  # which size? the odds of each, beside the sizes
            ids.actions.add_widget(Factory.DarkButton(text=_("Our odds?"), on_release=lambda *_a: self.show_odds()))

    def _result(self, vm: TravelView) -> None:
        box = self.ids.result
        if vm.result:
            box.add_widget(Factory.Heading(text=vm.result, color=theme.ACCENT))
            box.add_widget(Factory.Muted(text=vm.effect))
        if vm.todo:
            box.add_widget(Factory.Section(text=_("On the table")))
            for line in vm.todo:
                box.add_widget(Factory.Body(text="• " + line))
        for group in vm.changes:
            box.add_widget(Factory.Body(text=group.who, bold=True,
                                        color=theme.ACCENT if group.who != "Posse" else theme.INFO))
            for line in group.lines:
                box.add_widget(Factory.Body(text=line, font_size=f"{15}sp"))
        if not vm.changes and not vm.result:
            box.add_widget(Factory.Muted(text=_("Each hazard's result appears here: what it does, and what to "
                                               "take or put back on the table.")))

    def _d36(self, vm: TravelView) -> None:
        """The D36 for the next hazard, typed in the pinned bar: the red tens die, then the white ones die
        (FT-DICE-01); the ones die sends it."""
        p = self.presenter
        assert p is not None and vm.hazard_dice is not None
        tens, ones = vm.hazard_dice
        bar = self.ids.actions
        reading = f" · D36 = {10 * tens + ones}" if tens is not None and ones is not None else ""
        bar.add_widget(Factory.BarText(text=vm.action_label + reading, bold=True))
        dice = Factory.Row()
        dice.add_widget(Factory.DieButton(die_colour="red", face=tens or 0, selected=tens is None,
                                          on_release=lambda *_a: p.clear_hazard_dice()))
        dice.add_widget(Factory.DieButton(die_colour="white", face=ones or 0,
                                          selected=tens is not None and ones is None,
                                          on_release=lambda *_a: p.clear_hazard_dice()))
        if vm.sending:  # beside the dice: the bar keeps to a third of the screen
            dice.add_widget(Factory.DarkButton(text=_("Wait, fix it"), on_release=lambda *_a: p.hold(),
                                               pos_hint={"center_y": 0.5}))
        else:
            dice.add_widget(Factory.DarkButton(text=_("Roll for me"), on_release=lambda *_a: p.roll_hazard(),
                                               pos_hint={"center_y": 0.5}))
        bar.add_widget(dice)
        colour = "white" if tens is not None and ones is None else "red"
        pad = GridLayout(cols=6, spacing=dp(6), size_hint_y=None, height=dp(56))
        for face in range(1, 7):
            pad.add_widget(Factory.PadButton(die_colour=colour, face=face, size_hint=(1, None), height=dp(56),
                                             on_release=lambda _b, f=face: p.tap_hazard_die(f)))
        bar.add_widget(pad)
