"""A scripted table in town: a posse at dawn of Day 1 in a town of the test's choosing, every die typed in.

t = TownTable.new([hero("a", gold=100)], slots=("Saloon", "Gambling Hall"))
t.start_day(...)               # the Daily Event and the beds (answer prompts with t.choose / t.roll / t.card)
t.visit("a", "Saloon", (3, 4)) # the Location Event Chart's 2D6 typed in
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from shared_rules import Effect, IllegalCommand, InvalidCommand, RuleOptions, RulesError, legal_commands, new_session
from shared_rules.commands import (
    Buy,
    EndDay,
    EndVisit,
    PlayDevilsWheel,
    Sell,
    StartDay,
    VisitLocation,
    WheelRoll,
    WheelStop,
)
from shared_rules.content import PACKS, load_pack
from shared_rules.state import Carry, DieLie, Hero, Phase, Slot, Stay, StayStage, Town, TownSize
from tests.rules.table import Table

Faces = tuple[int, ...]
STANDARD = "Standard Frontier Town"


class TownTable(Table):
    """`Table` with the Town Stay's commands."""

    @classmethod
    def in_town(cls, heroes: list[Hero], *, slots: tuple[str, ...] = ("Saloon", "Gambling Hall", "Frontier Outpost",
                                                                       "Sheriff's Office"),
                town_type: str = STANDARD, pack: str = "default", carry: Carry | None = None, day: bool = False,
                rerolls: bool = False, **options: Any) -> TownTable:  # fmt: skip
        """The posse in a town of `slots` at dawn of Day 1 (or, with `day`, with Day 1 under way and no beds)."""
        opts = RuleOptions(offer_grit_rerolls=rerolls, **{"dice": "table", "town_events": "off", **options})
        state = new_session(heroes, options=opts, seed=1, pack=pack)
        town = Town(TownSize.LARGE, town_type, 7, tuple(Slot(i, name) for i, name in enumerate(slots, start=1)))
        stay = Stay(stage=StayStage.DAY) if day else Stay()
        table = cls(replace(state, phase=Phase.TOWN, town=town, stay=stay, carry=carry or Carry()))
        return table

    @property
    def stay(self) -> Stay:
        assert self.state.stay is not None
        return self.state.stay

    def start_day(self, *dice: Faces) -> Any:
        return self.do(StartDay(dice=dice))

    def visit(self, hero: str, location: str, *dice: Faces) -> Any:
        return self.do(VisitLocation(hero, location, dice=dice))

    def leave(self, hero: str) -> Any:
        return self.do(EndVisit(hero))

    def end_day(self, *dice: Faces) -> Any:
        return self.do(EndDay(dice=dice))

    def buy(self, hero: str, ware: str, **fields: Any) -> Any:
        return self.do(Buy(hero, ware, **fields))

    def sell(self, hero: str, ware: str, **fields: Any) -> Any:
        return self.do(Sell(hero, ware, **fields))

    def wheel(self, hero: str, faces: Faces, lies: str, **fields: Any) -> Any:
        """Play the Devil's Wheel: the first roll's faces, and where they lie as letters (o c h C H)."""
        return self.do(PlayDevilsWheel(hero, lies=_lies(lies), dice=(faces,), **fields))

    def reroll_wheel(self, hero: str, pick_up: tuple[int, ...], faces: Faces, lies: str) -> Any:
        return self.do(WheelRoll(hero, pick_up, lies=_lies(lies), dice=(faces,)))

    def stop_wheel(self, hero: str) -> Any:
        return self.do(WheelStop(hero))

    def legal(self, kind: str, hero: str | None = None) -> tuple[str, ...] | None:
        """The options of the legal command `kind` (for `hero`), or None when it is not legal now."""
        for item in legal_commands(self.state):
            if item.type == kind and (hero is None or item.hero == hero):
                return item.options
        return None

    def types(self) -> list[str]:
        return [event.type for event in self.events]


LIES = {"o": DieLie.OFF, "c": DieLie.CARD_EDGE, "h": DieLie.HEAD_EDGE, "C": DieLie.ON_CARDS, "H": DieLie.ON_HEAD}


def _lies(letters: str) -> tuple[DieLie, ...]:
    return tuple(LIES[letter] for letter in letters)


@contextmanager
def refused(kind: type[RulesError], *, field: str | None = None, rule: str | None = None,
            table: Table | None = None) -> Iterator[pytest.ExceptionInfo[RulesError]]:  # fmt: skip
    """The block raises `kind` naming `field` and `rule`, and leaves `table`'s state as it was (nothing half-applied)."""
    before = table.state if table is not None else None
    with pytest.raises(kind) as error:
        yield error
    if field is not None:
        assert error.value.field == field, error.value
    if rule is not None:
        assert error.value.rule == rule, error.value
    if table is not None:
        assert table.state == before


def illegal(**kw: Any) -> Any:
    return refused(IllegalCommand, **kw)


def invalid(**kw: Any) -> Any:
    return refused(InvalidCommand, **kw)


def effect(field: str, amount: int) -> Effect:
    return Effect("change", field, amount)


def two_d6(total: int) -> Faces:
    """Two faces that are not a double (a double may call out the Dying Marshal's prisoner)."""
    first = max(1, total - 6)
    second = total - first
    if first == second:
        first, second = first - 1, second + 1
    assert 1 <= first <= 6 and 1 <= second <= 6, total
    return (first, second)


def install(monkeypatch: pytest.MonkeyPatch, raw: dict[str, Any]) -> str:
    """Register a content pack for one test."""
    loaded = load_pack(raw)
    monkeypatch.setitem(PACKS, loaded.name, loaded)
    return loaded.name


BUILDINGS = [{"location": n} for n in ("Saloon", "Gambling Hall", "Frontier Outpost", "Sheriff's Office", "Blacksmith",
                                        "Smuggler's Den", "Street Market", "Church", "Doc's Office")]  # fmt: skip


def chart(*entries: dict[str, Any], die: str = "2d6") -> dict[str, Any]:
    return {"die": die, "entries": list(entries)}


def flat(text: str, *effects: dict[str, Any], low: int = 2, high: int = 12, **flags: Any) -> dict[str, Any]:
    return {"low": low, "high": high, "text": text, "effects": list(effects), **flags}


def gold(amount: int) -> dict[str, Any]:
    return {"op": "change", "field": "gold", "amount": amount}
