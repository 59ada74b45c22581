"""Tables already in town or in an Adventure, for the Town Stay, Adventure and Odds presenter tests: a real offline
table on the engine whose first state is crafted (as tests/rules/stay/town.py and tests/rules/adventure do)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from mobile.client import OfflineBackend
from mobile.presenters.table import TableSession
from shared_rules import Hero, RuleOptions, apply, new_session
from shared_rules.commands import SheetEntry, StartAdventure
from shared_rules.state import Carry, Phase, Session, Slot, SpaceMark, Stay, Town, TownSize, TrackSpace
from tests.mobile.helpers import Clock

SLOTS = ("Saloon", "Gambling Hall", "Frontier Outpost", "Sheriff's Office")


def table_from(directory: Path, state: Session) -> TableSession:
    """An offline table on this 'phone' whose first version is `state`."""
    backend = OfflineBackend(directory)
    backend.create(state.heroes, state.options, seed=1)
    backend._entries[0].state = state  # the crafted start, as if the table had played up to here
    backend._head = state
    backend._write_all()
    table = TableSession(backend, backend.load(), schedule=Clock())
    table.start()
    return table


def in_town(directory: Path, heroes: Sequence[Hero], *, slots: tuple[str, ...] = SLOTS, dice: str = "table",
            carry: Carry | None = None, town_events: str = "off") -> TableSession:
    """The posse at dawn of Day 1 in a Standard Frontier Town of `slots` (Town Events off unless said)."""
    state = new_session(tuple(heroes), options=RuleOptions(dice=dice, town_events=town_events), seed=1)
    town = Town(TownSize.LARGE, "Standard Frontier Town", 7, tuple(Slot(i, n) for i, n in enumerate(slots, 1)))
    return table_from(directory, replace(state, phase=Phase.TOWN, town=town, stay=Stay(), carry=carry or Carry()))


def track(length: int = 12, blood: tuple[int, ...] = (3, 7), dread: tuple[int, ...] = (5, 9)) -> tuple[TrackSpace,
                                                                                                         ...]:
    """A typed Depth Track (test data: Stages by thirds), space 0 Darkness Start ... the Entrance."""
    return tuple(TrackSpace(n, 3 if n < length // 3 else 2 if n < 2 * length // 3 else 1,
                            SpaceMark.BLOOD_SPATTER if n in blood else SpaceMark.GROWING_DREAD if n in dread
                            else SpaceMark.NONE) for n in range(length))  # fmt: skip


def in_adventure(directory: Path, heroes: Sequence[Hero], *, dice: str = "table", mission: str = "lost_contact",
                 initiative: Sequence[int] = (6, 5, 4, 3), sheet: dict[str, dict[str, int]] | None = None,
                 ) -> TableSession:
    """The posse at the start of turn 1 of `mission`, the first hero holding the Old Lantern."""
    state = new_session(tuple(heroes), options=RuleOptions(dice=dice), seed=1)
    sheets = tuple(SheetEntry(h.id, initiative=i, **(sheet or {}).get(h.id, {}))
                   for h, i in zip(heroes, initiative, strict=False))
    state = apply(state, StartAdventure(heroes[0].id, mission, "", track(), sheets)).state
    return table_from(directory, state)
