"""The town the posse reached: its type, the Buildings in their slots, what is destroyed, what came from the road.

The Hotel and the Camp Site are on every Town Map and are never a Random Building (FT-TOWN-01, FT-TOWN-06, A14);
Carry lists the travel results that last into this Stay or the next Adventure (FT-TRAVEL-05).
"""

from __future__ import annotations

from dataclasses import dataclass

from shared_rules import Phase
from shared_rules.content import TOWN_SIZES
from shared_rules.state import Carry

from ..i18n import _
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
        lines.append(_("Dark Stone Convoy: each Dark Stone shard sold is worth +${n}").format(n=carry.dark_stone_bonus))
    if carry.destroyed_on_arrival:
        n = carry.destroyed_on_arrival
        lines.append((_("Void Storm: {n} random Building destroyed on arrival") if n == 1 else
                      _("Void Storm: {n} random Buildings destroyed on arrival")).format(n=n))
    if carry.max_days:
        lines.append(_("Bridge Destroyed: at most {n} Days in this town").format(n=carry.max_days))
    if carry.army_convoy:
        lines.append(_("Army Convoy: +1 on Camp Site Hazard and Town Event rolls"))
    if carry.dying_marshal:
        lines.append(_("Dying Marshal: D3 Unwanted Attention each on arrival; the duel awaits"))
    if carry.extra_revive_tokens:
        n = carry.extra_revive_tokens
        lines.append((_("Shadows Out of Time: +{n} Revive Token next Adventure") if n == 1 else
                      _("Shadows Out of Time: +{n} Revive Tokens next Adventure")).format(n=n))
    if carry.blood_moon:
        lines.append(_("Blood Moon: +1 Spirit; Depth Events add Growing Dread until the next Adventure ends"))
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
                Phase.BETWEEN_ADVENTURES: _("No town yet: choose a town size on the Travel screen."),
                Phase.TRAVEL: _("No town yet: the posse is still on the road."),
                Phase.ARRIVAL: _("The road is behind you: arrive on the Travel screen to build the town."),
            }.get(state.phase, _("No town yet."))
            return TownView(False, _("No town yet"), "", (), (), 0, carry, heroes, waiting)
        rows = tuple(SlotRow(s.number, s.location, s.destroyed,
                             f"{s.number}  {s.location}" + ("  " + _("(destroyed)") if s.destroyed else ""))
                     for s in town.slots)
        destroyed = sum(1 for s in town.slots if s.destroyed)
        slots_total = TOWN_SIZES[town.size].locations
        size = {"small": _("Small town"), "medium": _("Medium town"), "large": _("Large town")}[town.size.value]
        subtitle = _("{size} · {n} Building Slots · type roll 2D6 = {roll}").format(
            size=size, n=slots_total, roll=town.type_roll)
        if state.session.stay is not None:
            subtitle += " · " + _("Day {day}").format(day=state.session.stay.day)
        return TownView(True, town.town_type, subtitle, rows, ALWAYS_THERE, destroyed, carry, heroes, "")
