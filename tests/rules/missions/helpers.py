"""Town Mission tables for rules tests: every die typed in, every random pick answered, on the default board."""

from __future__ import annotations

from typing import Any

from shared_rules.commands import Command
from shared_rules.state import Adventure, Figure, Place
from tests.rules.adventure.helpers import adv, layout, of, start
from tests.rules.table import Table

__all__ = ["adv", "answer", "bandits", "figure", "layout", "of", "posse", "town"]


def posse(n: int, **values: Any) -> list[Any]:
    return [of(chr(ord("a") + i), **{"max_grit": 2, **values}) for i in range(n)]


def town(mission: str, heroes: int = 2, *, length: int = 14, dice: tuple[tuple[int, ...], ...] = (),
         answers: tuple[Any, ...] = (), values: dict[str, Any] | None = None, track: Any = None, **options: Any) -> Table:  # fmt: skip
    """A Town Mission set up: Initiative 10, 9, 8 ... for the heroes; `answers` answer the set-up's prompts."""
    t = start(posse(heroes, **(values or {})), mission=mission, track=track or layout(length), dice=dice, **options)
    answer(t, *answers)
    return t


def answer(t: Table, *answers: Any) -> None:
    """Answer prompts in order: an int or tuple is a roll, a str a choice or draw."""
    for item in answers:
        assert t.prompt is not None, f"no prompt for {item!r}"
        if isinstance(item, str):
            t.choose(item)
        else:
            t.roll(*(item if isinstance(item, tuple) else (item,)))


def run(t: Table, command: Command, *answers: Any) -> None:
    t.do(command)
    answer(t, *answers)


def figure(t: Table, figure_id: str) -> Figure:
    return adv(t).figure(figure_id)


def bandits(t: Table) -> list[str]:
    return [f.id for f in adv(t).figures if f.kind == "bandit"]


def at(place: Place | None) -> tuple[int | None, int | None, str]:
    assert place is not None
    return place.x, place.y, place.tile


def counter(t: Table, name: str) -> int:
    a: Adventure = adv(t)
    return a.counter(name)
