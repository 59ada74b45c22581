"""The town the posse reached: its type, the Buildings in their slots, what is destroyed, what came from the road.

The Hotel and the Camp Site are on every Town Map and are never a Random Building (FT-TOWN-01, FT-TOWN-06, A14);
Carry lists the travel results that last into this Stay or the next Adventure (FT-TRAVEL-05).
"""

from __future__ import annotations

from dataclasses import dataclass

from shared_rules import Phase
from shared_rules.content import TOWN_SIZES
from shared_rules.state import Carry

from .table import TableSession

ALWAYS_THERE = ("Hotel", "Camp Site")  # FT-TOWN-01: printed on the map, no token, no slot number


@dataclass(frozen=True, slots=True)
class SlotRow:
    number: int
    location: str
    destroyed: bool
    text: str


@dataclass(frozen=True, slots=True)
class HeroInTown:
    name: str
    unwanted_attention: int
    wanted: str


@dataclass(frozen=True, slots=True)
class TownView:
    in_town: bool
    title: str
    subtitle: str
    slots: tuple[SlotRow, ...]
    always: tuple[str, ...]
    destroyed_count: int
    carry: tuple[str, ...]
    heroes: tuple[HeroInTown, ...]
    empty_text: str


def carry_lines(carry: Carry) -> tuple[str, ...]:
    """Each carried travel result in plain words (the rule ids are in the log, behind "why?")."""
    lines = []
    if carry.dark_stone_bonus:
        lines.append(f"Dark Stone Convoy: each Dark Stone shard sold is worth +${carry.dark_stone_bonus}")
    if carry.destroyed_on_arrival:
        lines.append(f"Void Storm: {carry.destroyed_on_arrival} random Building(s) destroyed on arrival")
    if carry.max_days:
        lines.append(f"Bridge Destroyed: at most {carry.max_days} Days in this town")
    if carry.army_convoy:
        lines.append("Army Convoy: +1 on Camp Site Hazard and Town Event rolls")
    if carry.dying_marshal:
        lines.append("Dying Marshal: D3 Unwanted Attention each on arrival; the duel awaits")
    if carry.extra_revive_tokens:
        lines.append(f"Shadows Out of Time: +{carry.extra_revive_tokens} Revive Token(s) next Adventure")
    if carry.blood_moon:
        lines.append("Blood Moon: +1 Spirit; Depth Events add Growing Dread until the next Adventure ends")
    return tuple(lines)


class TownPresenter:
    def __init__(self, table: TableSession) -> None:
        self.table = table

    def view(self) -> TownView:
        from .posse import WANTED_WORDS

        state = self.table.read
        heroes = tuple(HeroInTown(h.name, h.unwanted_attention, WANTED_WORDS[h.wanted])
                       for h in state.heroes if not h.removed)
        carry = carry_lines(state.carry)
        town = state.town
        if town is None or state.phase is not Phase.TOWN:
            waiting = {
                Phase.BETWEEN_ADVENTURES: "No town yet: choose a town size on the Travel screen.",
                Phase.TRAVEL: "No town yet: the posse is still on the road.",
                Phase.ARRIVAL: "The road is behind you: arrive on the Travel screen to build the town.",
            }.get(state.phase, "No town yet.")
            return TownView(False, "No town yet", "", (), (), 0, carry, heroes, waiting)
        rows = tuple(SlotRow(s.number, s.location, s.destroyed,
                             f"{s.number}  {s.location}" + ("  (destroyed)" if s.destroyed else ""))
                     for s in town.slots)
        destroyed = sum(1 for s in town.slots if s.destroyed)
        slots_total = TOWN_SIZES[town.size].locations
        subtitle = (f"{town.size.value.capitalize()} town · {slots_total} Building Slots · type roll 2D6 = "
                    f"{town.type_roll}" + (f" · Day {state.session.stay.day}" if state.session.stay is not None else ""))
        return TownView(True, town.town_type, subtitle, rows, ALWAYS_THERE, destroyed, carry, heroes, "")
