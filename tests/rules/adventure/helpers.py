"""Adventure tables for rules tests: every die typed in (dice option "table"), every prompt answered explicitly."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from shared_rules.commands import Command, SheetEntry, StartAdventure
from shared_rules.engine import legal_commands
from shared_rules.state import (
    Adventure,
    Figure,
    Hero,
    PartyHero,
    Place,
    Side,
    SpaceMark,
    TrackSpace,
    TurnStep,
)
from tests.rules.adventure import pack
from tests.rules.table import Table, hero

SAMURAI, ASSASSIN, MONK, SORCERESS = "Samurai Warrior", "Assassin", "Traveling Monk", "Sorceress"


def layout(length: int = 12, *, blood: tuple[int, ...] = (3, 7), dread: tuple[int, ...] = (5, 9)) -> tuple[
        TrackSpace, ...]:  # fmt: skip
    """A typed-in Depth Track: space 0 Darkness Start ... the Entrance; Stages by thirds (9+, 8+, 7+)."""
    return tuple(
        TrackSpace(s["number"], s["stage"], SpaceMark(s["mark"])) for s in pack.track(length, blood=blood, dread=dread)
    )


def of(hero_id: str, hero_class: str = "", **values: Any) -> Hero:
    return replace(hero(hero_id, **values), hero_class=hero_class)


def start(heroes: list[Hero], *, lantern: str | None = None, sheets: tuple[SheetEntry, ...] | None = None,
          track: tuple[TrackSpace, ...] | None = None, use_pack: bool = False, rerolls: bool = False,
          mission: str = "lost_contact", dice: tuple[tuple[int, ...], ...] = (), **options: Any) -> Table:  # fmt: skip
    """A table with an Adventure set up: the typed layout (12 spaces) and Initiative 10, 9, 8 ... unless given."""
    t = Table.new(heroes, rerolls=rerolls, **options)
    if use_pack:
        t.state = replace(t.state, pack=pack.register())
    if sheets is None:
        sheets = tuple(_sheet(h, 10 - i) for i, h in enumerate(heroes) if not use_pack or not h.hero_class)
    command = StartAdventure(lantern or heroes[0].id, mission, "fortress" if use_pack and track is None else "",
                             () if use_pack and track is None else (track or layout()), sheets, dice=dice)  # fmt: skip
    t.do(command)
    return t


def _sheet(h: Hero, initiative: int) -> SheetEntry:
    extra: dict[str, Any] = {}
    if h.hero_class == SAMURAI:
        extra["max_fury"] = 3
    if h.hero_class == MONK:
        extra["max_ki"] = 3
    if h.hero_class == SORCERESS:
        extra.update(mana=3, focus="fire", blast_cost=1)
    if h.hero_class == ASSASSIN:
        extra["deadly_bonus"] = 2
    return SheetEntry(h.id, initiative=initiative, **extra)


def adv(t: Table) -> Adventure:
    assert t.state.adventure is not None
    return t.state.adventure


def member(t: Table, hero_id: str) -> PartyHero:
    return adv(t).hero(hero_id)


def with_adventure(t: Table, **changes: Any) -> None:
    t.state = replace(t.state, adventure=replace(adv(t), **changes))


def with_member(t: Table, hero_id: str, **changes: Any) -> None:
    new = replace(member(t, hero_id), **changes)
    with_adventure(t, heroes=tuple(new if m.id == hero_id else m for m in adv(t).heroes))


def set_hero(t: Table, hero_id: str, **changes: Any) -> None:
    """Change a hero's sheet values directly (a test's set-up, not a rule)."""
    t.state = replace(t.state, heroes=tuple(replace(h, **changes) if h.id == hero_id else h for h in t.state.heroes))


def enemy(figure_id: str = "oni-1", *, health: int = 6, defense: int = 0, initiative: int = 1,
          **values: Any) -> Figure:  # fmt: skip
    return Figure(figure_id, figure_id.split("-")[0].capitalize(), Side.ENEMY, health, initiative=initiative,
                  defense=defense, **values)  # fmt: skip


def place_enemies(t: Table, *figures: Figure) -> None:
    with_adventure(t, figures=(*adv(t).figures, *figures), fights=adv(t).fights + 1)


def to_activations(t: Table, faces: tuple[int, int] = (5, 3)) -> None:
    """Hold Back the Darkness with `faces` (a pass, no doubles, by default): the activations begin."""
    from shared_rules.commands import HoldBackTheDarkness

    t.do(HoldBackTheDarkness(dice=(faces,)))
    assert adv(t).step is TurnStep.ACTIVATIONS, t.prompt


def legal_types(t: Table) -> list[str]:
    return [c.type for c in legal_commands(t.state)]


def events(t: Table, kind: str) -> list[str]:
    return [e.text for e in t.events if e.type.value == kind]


def on(tile: str, *, also: str = "", x: int | None = None, y: int | None = None) -> Place:
    return Place(tile, x, y, also)


def run(t: Table, command: Command) -> None:
    """Apply a command that must finish without a prompt."""
    t.do(command)
    assert t.prompt is None, t.prompt
