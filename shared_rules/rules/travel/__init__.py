"""The road to town: choosing the Town size, counting the Travel Hazards, and resolving each one (FT-TRAVEL)."""

from __future__ import annotations

from collections.abc import Iterator

from ...errors import IllegalCommand
from ...legal import LegalCommand
from ...state import Phase, Session
from ..area import Area, CommandRule
from .hazards.d2 import BLOOD_MOON_SPIRIT
from .road import choose_town_size, roll_hazard


def _hazard_left(state: Session, command: object) -> None:
    if state.travel is None or state.travel.remaining <= 0:
        raise IllegalCommand("no Travel Hazard is left to roll (FT-TRAVEL-03)", field="type", rule="FT-TRAVEL-03")


def _town_allowed(state: Session, command: object) -> None:
    """A failed Town Mission that says so forbids Town: the next Adventure begins directly (A33)."""
    if state.carry.no_town:
        raise IllegalCommand(f"the Heroes may not visit Town after that failure: start the next Adventure "
                             f"({state.carry.no_town})", field="type", rule=state.carry.no_town)  # fmt: skip


def legal(state: Session) -> Iterator[LegalCommand]:
    if state.phase is Phase.BETWEEN_ADVENTURES and not state.carry.no_town:
        yield LegalCommand(
            "choose_town_size",
            options=("small", "medium", "large"),
            note="Small: 1-3 on a D6 per hero adds a hazard; Medium: 1 each; Large: 1 each + 1-3",
        )
    elif state.phase is Phase.TRAVEL and state.travel is not None and state.travel.remaining > 0:
        roller = state.travel.rollers[state.travel.resolved]
        if state.hero(roller).removed:  # as roll_hazard does: the first hero left rolls it
            roller = state.active_heroes[0].id
        yield LegalCommand(
            "roll_hazard", hero=roller, note=f"hazard {state.travel.resolved + 1} of {len(state.travel.rollers)}"
        )


AREA = Area(
    "travel",
    {
        "choose_town_size": CommandRule(
            choose_town_size, (Phase.BETWEEN_ADVENTURES,), "FT-TRAVEL-01", "a Town size is chosen after an Adventure",
            _town_allowed,
        ),
        "roll_hazard": CommandRule(
            roll_hazard, (Phase.TRAVEL,), "FT-TRAVEL-03", "hazards are rolled while travelling", _hazard_left
        ),
    },
    legal,
    (BLOOD_MOON_SPIRIT,),
)
