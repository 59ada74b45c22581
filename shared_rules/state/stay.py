"""The Town Stay under way: the days, who visited where, the Daily Event (FT-DAY, FT-UA, FT-WANTED, FT-BOUNTY).

Owned by `rules/stay`; it exists from arrival in town until the Stay ends.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Stay:
    """Where the posse is in its Town Stay (FT-DAY-01)."""

    day: int = 1
