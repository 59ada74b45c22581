"""Arriving in town: the Specialty Town type, building the town, destroyed slots (FT-TOWN); the Stay is rules/stay."""

from __future__ import annotations

from collections.abc import Iterator

from ...legal import LegalCommand
from ...state import Phase, Session
from ..area import Area, CommandRule
from .arrival import arrive, stay_again


def legal(state: Session) -> Iterator[LegalCommand]:
    if state.phase is Phase.ARRIVAL:
        yield LegalCommand("arrive", note="roll the Town type and build the town")


AREA = Area(
    "town",
    {
        "arrive": CommandRule(arrive, (Phase.ARRIVAL,), "FT-TRAVEL-04", "the posse arrives once every hazard is resolved"),
    },
    legal,
)

__all__ = ["AREA", "stay_again"]
