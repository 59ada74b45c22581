"""The town screen: type, Building slots, destroyed slots, what carried over (layout in town.kv)."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen

from .. import theme
from ..presenters.town import TownPresenter, TownView


class TownScreen(Screen):
    presenter: TownPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    vm: TownView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]

    def refresh(self) -> None:
        if self.presenter is None:
            return
        self.vm = vm = self.presenter.view()
        ids = self.ids
        for box in (ids.slots, ids.carry, ids.heroes):
            box.clear_widgets()
        ids.slots_card.opacity = 1 if vm.in_town else 0
        for row in vm.slots:
            ids.slots.add_widget(Factory.SlotLine(number=str(row.number), location=row.location,
                                                  destroyed=row.destroyed))
        for line in vm.carry:
            ids.carry.add_widget(Factory.Body(text=line))
        if not vm.carry:
            ids.carry.add_widget(Factory.Muted(text="Nothing carried over."))
        for hero in vm.heroes:
            tone = theme.WARN if hero.unwanted_attention or hero.wanted != "not wanted" else theme.TEXT
            ids.heroes.add_widget(Factory.Body(text=f"{hero.name}: {hero.unwanted_attention} Unwanted Attention, "
                                                    f"{hero.wanted}", color=tone))
