"""Arriving in town: the Specialty Town type, building the town, destroyed slots (FT-TOWN), and leaving it."""

from __future__ import annotations

from collections.abc import Iterator

from ...legal import LegalCommand
from ...state import Phase, Session
from ..area import Area, CommandRule
from .arrival import arrive, end_town_stay


def legal(state: Session) -> Iterator[LegalCommand]:
    if state.phase is Phase.ARRIVAL:
        yield LegalCommand("arrive", note="roll the Town type and build the town")
    elif state.phase is Phase.TOWN:
        yield LegalCommand("end_town_stay")


AREA = Area(
    "town",
    {
        "arrive": CommandRule(arrive, (Phase.ARRIVAL,), "FT-TRAVEL-04", "the posse arrives once every hazard is resolved"),
        "end_town_stay": CommandRule(end_town_stay, (Phase.TOWN,), "FT-UA-06", "a Town Stay can only end in town"),
    },
    legal,
)
