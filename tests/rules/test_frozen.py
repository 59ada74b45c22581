"""The fast builders of frozen values (shared_rules.frozen): the same values as the dataclass would build, still
frozen, and refused where they would skip work the dataclass does (issue 19: speed with one source of truth)."""

from __future__ import annotations

import inspect
from dataclasses import FrozenInstanceError, dataclass, field

import pytest

from shared_rules.dice import DieKind, Roll
from shared_rules.events import Event, EventType, Fact
from shared_rules.frozen import quick
from shared_rules.prompts import Amount, Answer, Option, Part


def test_a_quick_init_keeps_the_parameters_the_defaults_and_the_freezing() -> None:
    @dataclass(frozen=True, slots=True, kw_only=True)
    class Plain:
        a: int
        b: str = "b"
        c: tuple[int, ...] = field(default=(), metadata={"api": {}})

    before = inspect.signature(Plain.__init__)
    quick(Plain)
    assert inspect.signature(Plain.__init__) == before  # keyword-only, the same defaults
    value = Plain(a=1)
    assert (value.a, value.b, value.c) == (1, "b", ())
    assert value == Plain(a=1, b="b") and hash(value) == hash(Plain(a=1, b="b"))
    with pytest.raises(FrozenInstanceError):
        value.a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Plain(1)  # type: ignore[misc]  # still keyword-only


def test_quick_refuses_what_it_would_build_wrongly() -> None:
    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            if self.a < 0:
                raise ValueError(self.a)

    @dataclass(frozen=True, slots=True)
    class Listed:
        a: list[int] = field(default_factory=list)

    @dataclass(slots=True)
    class Open:
        a: int

    for cls in (Checked, Listed, Open):
        with pytest.raises(TypeError, match=cls.__name__):
            quick(cls)


def test_the_engine_values_built_quickly_are_the_values_the_rules_read() -> None:
    roll = Roll("Travel Hazard 1 of 3", DieKind.D36, (3, 5), "h1", chart=True)
    assert (roll.value, roll.source, roll.target, roll.rerolled) == (35, "server", 0, ())
    again = roll.with_rerolls((1,), (6,))
    assert (again.faces, again.rerolled, again.purpose) == ((3, 6), (1,), roll.purpose)
    option = Option("help", "Help", Part.JOIN, costs=(Amount("gold", 25),))
    assert option.gains == () and option.test is None and option.costs[0].amount == 25
    assert Answer("roll", roll) == Answer("roll", roll=roll, option="", indices=(), effects=(), text="")
    event = Event(EventType.HAZARD, "x", facts=(Fact("number", 1),))
    assert event.hero is None and event.facts[0].value == 1
