"""The travel screen: town size, the hazards one by one, and what each changed (layout in travel.kv)."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen

from .. import theme
from ..presenters.travel import TravelPresenter, TravelView
from .widgets import Stepper


class TravelScreen(Screen):
    presenter: TravelPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    vm: TravelView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    show_prompt: Any = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        p = self.presenter
        if p is None:
            return
        self.vm = vm = p.view()
        ids = self.ids
        for box in (ids.sizes, ids.hazards, ids.waiting, ids.actions, ids.changes):
            box.clear_widgets()
        if vm.phase == "between_adventures":
            for option in vm.sizes:
                ids.sizes.add_widget(Factory.DarkButton(text=f"{option.label}\n{option.note}", disabled=not option.enabled,
                                                        on_release=lambda _b, s=option.size: p.choose_size(s)))
        ids.hazard_card.opacity = 1 if vm.hazards else 0
        for row in vm.hazards:
            ids.hazards.add_widget(Factory.HazardLine(number=str(row.number), roller=row.roller, result=row.result,
                                                      state=row.state))
        if vm.prompt_waiting:
            ids.waiting.add_widget(Factory.Body(text=f"Waiting for the table: {vm.prompt_waiting}", color=theme.WARN))
            if self.show_prompt is not None:
                ids.waiting.add_widget(Factory.PrimaryButton(text="Answer it", on_release=lambda *_: self.show_prompt()))
        if vm.action == "arrive":
            stepper = Stepper(label="Buildings destroyed from the start (a failed Mission, a card)",
                              value=str(vm.destroyed_slots))
            stepper.bind(on_step=lambda _w, d: p.step_destroyed(d))
            ids.actions.add_widget(stepper)
        if vm.action:
            ids.actions.add_widget(Factory.PrimaryButton(text=vm.action_label, on_release=lambda *_: p.act()))
        for group in vm.changes:
            ids.changes.add_widget(Factory.Body(text=group.who, bold=True, color=theme.ACCENT if group.who != "Posse"
                                                else theme.INFO))
            for line in group.lines:
                ids.changes.add_widget(Factory.Body(text=line, font_size="15sp"))
        if not vm.changes:
            ids.changes.add_widget(Factory.Muted(text="Each hazard's effects appear here, hero by hero."))
