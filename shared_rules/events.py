"""What happened, for the log and the screens: each event says what changed, for whom, and which roll led there."""

from __future__ import annotations

from dataclasses import dataclass

from .dice import Roll


@dataclass(frozen=True, slots=True)
class Change:
    """One value that moved: a hero field (`xp`, `wounds`, ...), an item or token (name in before/after)."""

    field: str
    before: int | str | bool
    after: int | str | bool


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the log, in plain words, with the rule id and the structured change or roll behind it."""

    type: str  # rolled, changed, hazard, prompt, answered, town_built, phase, ...
    text: str
    hero: str | None = None
    rule: str = ""
    changes: tuple[Change, ...] = ()
    roll: Roll | None = None
