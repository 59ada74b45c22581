"""A scripted table for rules tests: every die is typed in, every prompt answered explicitly.

t = Table.travelling([hero("a", agility=3)])
t.hazard(12)            # the D36 shows 1,2
t.roll(5, 1, 2)         # Ann's Agility 5+ test
assert t.hero("a").xp == 10
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from shared_rules import (
    Choose,
    Effect,
    EnterCard,
    Event,
    Hero,
    Item,
    ItemTag,
    Prompt,
    Reroll,
    RollDice,
    RollHazard,
    RuleOptions,
    Session,
    Skills,
    apply,
    new_session,
)
from shared_rules.commands import Command
from shared_rules.state import Phase, TownSize, Travel


def docstring(rule: Callable[..., Any]) -> str:
    """A rule function's docstring, read from its source when the compiled build kept none (mypyc drops them)."""
    if rule.__doc__:
        return rule.__doc__
    compiled = Path(str(sys.modules[rule.__module__].__file__))
    tree = ast.parse(compiled.with_name(compiled.name.split(".")[0] + ".py").read_text())
    found = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == rule.__name__]
    return (ast.get_docstring(found[0]) or "") if found else ""


def hero(hero_id: str = "a", name: str | None = None, **values: Any) -> Hero:
    """A hero with 2 in every skill unless given (`agility=3`), other fields by keyword."""
    skills = {k: values.pop(k) for k in ("agility", "cunning", "spirit", "strength", "lore", "luck") if k in values}
    return Hero(hero_id, name or hero_id.capitalize(), skills=replace(Skills(), **skills), **values)


def item(name: str, *tags: str, hourglass: int = 0, upgrades: int = 0) -> Item:
    ident = name.lower().replace(" ", "-")
    return Item(ident, name, frozenset(ItemTag(t) for t in tags), hourglass, upgrades)


class Table:
    """Drives the engine the way a table with physical dice does (dice option "table")."""

    def __init__(self, state: Session) -> None:
        self.state = state
        self.events: list[Event] = []
        self.prompt: Prompt | None = None

    @classmethod
    def new(cls, heroes: list[Hero], *, rerolls: bool = False, **options: Any) -> Table:
        opts = RuleOptions(dice="table", offer_grit_rerolls=rerolls, **options)
        return cls(new_session(heroes, options=opts, seed=1))

    @classmethod
    def travelling(cls, heroes: list[Hero], *, hazards: int = 1, rerolls: bool = False, **options: Any) -> Table:
        """A posse on the road to a Large Town with `hazards` hazards, all rolled by the first hero."""
        table = cls.new(heroes, rerolls=rerolls, **options)
        travel = Travel(TownSize.LARGE, (heroes[0].id,) * hazards)
        table.state = replace(table.state, phase=Phase.TRAVEL, travel=travel)
        return table

    def do(self, command: Command) -> Prompt | None:
        outcome = apply(self.state, command)
        self.state = outcome.state
        self.events.extend(outcome.events)
        self.prompt = outcome.pending
        return self.prompt

    def hazard(self, d36: int) -> Prompt | None:
        """Roll the next Travel Hazard with the D36 showing `d36` (tens, ones)."""
        return self.do(RollHazard(dice=((d36 // 10, d36 % 10),)))

    def roll(self, *faces: int) -> Prompt | None:
        assert self.prompt is not None and self.prompt.kind == "roll", self.prompt
        return self.do(RollDice(tuple(faces)))

    def choose(self, option: str) -> Prompt | None:
        assert self.prompt is not None and self.prompt.kind == "choice", self.prompt
        return self.do(Choose(option))

    def reroll(self, *indices: int) -> Prompt | None:
        assert self.prompt is not None and self.prompt.kind == "reroll", self.prompt
        return self.do(Reroll(tuple(indices)))

    def keep(self) -> Prompt | None:
        return self.reroll()

    def card(self, text: str, *effects: Effect) -> Prompt | None:
        assert self.prompt is not None and self.prompt.kind == "card", self.prompt
        return self.do(EnterCard(text, tuple(effects)))

    def hero(self, hero_id: str) -> Hero:
        return self.state.hero(hero_id)

    def texts(self) -> list[str]:
        return [event.text for event in self.events]

    def rules(self) -> set[str]:
        return {event.rule for event in self.events}
