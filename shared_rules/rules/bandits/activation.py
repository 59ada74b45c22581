"""A Bandit group's activation as a rule (FT-BANDIT-02..09): it asks for every die and random pick in the
engine's idiom and returns, for each Bandit, a proposal — its path, where it ends, its target, its line of fire and a
reason in plain words — and the shots to roll, as data. The table confirms or corrects; the caller applies.

    activation = yield from activate(ctx, board, models)                  # inside a command: typed-in or RNG dice
    activation = plan_activation(board, models, dice=[5, 2], picks=["hanzo"])  # the same, from given dice
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ...events import BanditStep
from ...flow import ChoiceRequest, DrawRequest, Request, Requests
from ...frozen import replace
from ...prompts import Asks
from ..board import Board, Model, Pos, Side, Space, drive, has_cover, in_range
from ..board.cover import Cover
from ..board.rolls import Pick, Rolls
from .ai import (
    Scene,
    adjacent_heroes,
    aim,
    ambush_spaces,
    fewest_marked,
    in_sight,
    moved,
    retreat_path,
    rooftop_heroes,
    scene,
    starts_in_cover,
)
from .stats import DEFAULT_SHEET, BanditSheet, Gang, Weapon, weapon_of


class Action(str, Enum):
    RANGED = "ranged"  # a Shootout marker on its target: one Ranged Attack in the Firing step (FT-BANDIT-06)
    MELEE = "melee"  # a Combat Attack on an adjacent Hero instead (FT-BANDIT-04, FT-BOARD-19)
    NONE = "none"  # no Hero in Range and sight: no attack


@dataclass(frozen=True, slots=True)
class Die:
    """One die a Bandit rolled: what for ("retreat" FT-BANDIT-03, "cover" FT-BANDIT-07) and the face."""

    purpose: str
    face: int


@dataclass(frozen=True, slots=True)
class Marks:
    """The Shootout markers on one Hero when the group fires (FT-BANDIT-06)."""

    hero: str
    markers: int


@dataclass(frozen=True, slots=True)
class Proposal:
    """What one Bandit does this activation, for the table to confirm or correct."""

    bandit: str
    start: Pos
    end: Pos
    path: tuple[Space, ...]  # every space it steps through, start first (a Retreat then a targeting move)
    action: Action
    target: str | None  # the Hero it shoots or Melees
    line: tuple[Space, Space] | None  # its line of fire: from its space to the target's
    cover: str  # its own Cover against the target, in words ("behind the door of building 4"), or ""
    rolls: tuple[Die, ...]  # each die it rolled: Die("retreat", 5), Die("cover", 2)
    reason: str  # "Bandit 3: rolled 2, takes cover behind the door of building 4, targets Hanzo"
    retreated: bool = False
    steps: tuple[BanditStep, ...] = ()  # the reason clause by clause, as data for a client to word


@dataclass(frozen=True, slots=True)
class Shot:
    """One Ranged Attack of the Firing step: one per Shootout marker (FT-BANDIT-06)."""

    bandit: str
    target: str
    weapon: Weapon
    line: tuple[Space, Space]
    target_in_cover: bool  # the target makes a Cover Save against each Hit (FT-BOARD-07)


@dataclass(frozen=True, slots=True)
class Shootout:
    """One group's Shootout: the rooftop Bandits resolve theirs before any ground Bandit moves (FT-BANDIT-08)."""

    rooftop: bool
    proposals: tuple[Proposal, ...]
    shots: tuple[Shot, ...]
    markers: tuple[Marks, ...]  # Shootout markers on each Hero before they are removed


@dataclass(frozen=True, slots=True)
class Activation:
    shootouts: tuple[Shootout, ...]
    models: tuple[Model, ...]  # every model after the proposed moves (Shootout markers removed)
    gang: Gang | None = None

    @property
    def proposals(self) -> tuple[Proposal, ...]:
        return tuple(p for s in self.shootouts for p in s.proposals)

    @property
    def shots(self) -> tuple[Shot, ...]:
        return tuple(s for shootout in self.shootouts for s in shootout.shots)


@dataclass(slots=True)
class _Note:
    start: Pos
    path: list[Space] = field(default_factory=list)
    rolls: list[Die] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    steps: list[BanditStep] = field(default_factory=list)
    action: Action = Action.NONE
    target: str | None = None
    retreated: bool = False
    cover: str = ""

    def walk(self, steps: Iterable[Space]) -> None:
        for space in steps:
            if not self.path or self.path[-1] != space:
                self.path.append(space)


Steps = Generator[Request, Any, Any]


def _cover(board: Board, cover: Cover | None) -> dict[str, Any]:
    """A Cover as a step's fields: its kind and Building (and rooftop)."""
    if cover is None:
        return {}
    roof = board.roof_of[cover.building] if cover.kind == "rooftop" else ""
    return {"cover": cover.kind, "building": cover.building, "roof": roof}


def _spaces(n: int) -> str:
    return f"{n} space" + ("" if n == 1 else "s")


def activate(
    ctx: Rolls,
    board: Board,
    models: Iterable[Model],
    *,
    group: str | None = None,
    sheet: BanditSheet = DEFAULT_SHEET,
    gang: Gang | None = None,
    blocked: Iterable[Space] = (),
    sight_blockers: Iterable[Space] = (),
) -> Generator[Request, Any, Activation]:
    """Activate the Bandits of `group` (every Enemy model when None): the rooftop Bandits first, as a group, then
    those on the ground (FT-BANDIT-08). Each group: Retreats (FT-BANDIT-03), Melee for those who stay adjacent
    (FT-BANDIT-04, FT-BOARD-19), targeting with the Cover roll one Bandit at a time (FT-BANDIT-05/07), then one
    Ranged Attack per Shootout marker (FT-BANDIT-06). With a Gang card in play every Bandit is one of that Gang
    (FT-BANDIT-09)."""
    sc = scene(board, models, blocked=blocked, sight_blockers=sight_blockers)
    bandits = [m for m in sc.models if m.side is Side.ENEMY and not m.out and (group is None or m.group == group)]
    shootouts = []
    for ids, on_roof in (([b.id for b in bandits if b.pos.roof], True), ([b.id for b in bandits if not b.pos.roof], False)):
        if ids:
            shootout, sc = yield from _shootout(ctx, sc, ids, on_roof, sheet, gang)
            shootouts.append(shootout)
    heroes = tuple(replace(m, markers=0) if m.side is Side.HERO and m.markers else m for m in sc.models)
    return Activation(tuple(shootouts), heroes, gang)


def _shootout(
    ctx: Rolls, sc: Scene, ids: list[str], on_roof: bool, sheet: BanditSheet, gang: Gang | None
) -> Generator[Request, Any, tuple[Shootout, Scene]]:
    board = sc.board
    markers = {h.id: h.markers for h in sc.heroes}
    marks: list[tuple[str, str]] = []
    notes = {bid: _Note(sc.by_id[bid].pos) for bid in ids}

    def name(bid: str) -> str:
        label = sc.by_id[bid].label
        return f"{label} ({gang.name})" if gang is not None else label

    def hero_name(hid: str) -> str:
        return sc.by_id[hid].label

    # Retreat, or stay and Melee (FT-BANDIT-03/04, FT-BOARD-19)
    for bid in ids:
        bandit, note = sc.by_id[bid], notes[bid]
        up_there = rooftop_heroes(sc, bandit)
        if up_there:
            hero = yield from ctx.draw(
                f"{name(bid)}'s Melee target (a Random Hero on its rooftop)",
                [(h.id, h.label) for h in up_there],
                rule="FT-BOARD-19", asks=Asks.TARGET_HERO, said=(("figure", name(bid)), ("reason", "rooftop")),
            )
            note.action, note.target = Action.MELEE, hero
            note.parts.append(f"on the rooftop with {hero_name(hero)}, never retreats: fights hand to hand")
            note.steps.append(BanditStep("rooftop_melee", target=hero))
            continue
        near = adjacent_heroes(sc, bandit)
        if not near:
            continue
        roll = yield from ctx.d6(f"Retreat roll for {name(bid)} (4+ retreats)", rule="FT-BANDIT-03",
                                 asks=Asks.BANDIT_ROLL, said=(("figure", name(bid)), ("reason", "retreat")))  # fmt: skip
        note.rolls.append(Die("retreat", roll))
        who = " and ".join(h.label for h in near)
        path = retreat_path(sc, bandit, move=sheet.move) if roll >= 4 else None
        if path is not None:
            note.walk(path)
            note.retreated = True
            note.parts.append(f"next to {who}, rolled {roll}, retreats {_spaces(len(path) - 1)}")
            note.steps.append(BanditStep("retreats", roll, len(path) - 1, tuple(h.id for h in near)))
            sc = moved(sc, replace(bandit, pos=Pos(path[-1])))
            continue
        hero = yield from ctx.draw(
            f"{name(bid)}'s Melee target (a Random adjacent Hero)", [(h.id, h.label) for h in near],
            rule="FT-BANDIT-04", asks=Asks.TARGET_HERO, said=(("figure", name(bid)), ("reason", "melee")),
        )
        note.action, note.target = Action.MELEE, hero
        stuck = " but cannot get away" if roll >= 4 else ", stays"
        note.parts.append(f"next to {who}, rolled {roll}{stuck}: fights {hero_name(hero)} hand to hand")
        note.steps.append(BanditStep("stuck_melee" if roll >= 4 else "stays_melee", roll,
                                     heroes=tuple(h.id for h in near), target=hero))  # fmt: skip

    # Targeting, one Bandit at a time (FT-BANDIT-05/07)
    for bid in ids:
        note = notes[bid]
        if note.action is Action.MELEE:
            continue
        bandit = sc.by_id[bid]
        weapon = weapon_of(bandit, sheet)
        settled = starts_in_cover(sc, bandit) if not on_roof and not note.retreated else None  # at its start
        if on_roof or settled is not None:
            pool = fewest_marked(sc, markers, in_sight(sc, bandit.pos, weapon.range))
            if on_roof and not pool:
                note.parts.append(f"{weapon.name} from {bandit.pos.describe()}: no Hero in range and sight, no attack")
                note.steps.append(BanditStep("rooftop_no_target", roof=bandit.pos.roof, weapon=weapon.name))
                continue
            if pool:
                hero = yield from ctx.draw(
                    f"{name(bid)}'s target (a Random Hero in Range and sight, fewest Shootout markers)",
                    [(h, hero_name(h)) for h in pool],
                    rule="FT-BANDIT-07" if settled is not None else "FT-BANDIT-05",
                    asks=Asks.TARGET_HERO, said=(("figure", name(bid)), ("reason", "in_sight_fewest")),
                )
                line = in_range(board, bandit.pos, sc.by_id[hero].pos, weapon.range, blockers=sc.sight_blockers)
                assert line is not None
                markers[hero] += 1
                marks.append((bid, hero))
                note.action, note.target = Action.RANGED, hero
                if on_roof:
                    note.parts.append(f"{weapon.name} from the rooftop, targets {hero_name(hero)}")
                    note.steps.append(BanditStep("rooftop_targets", target=hero, roof=bandit.pos.roof,
                                                 weapon=weapon.name))  # fmt: skip
                else:
                    assert settled is not None
                    note.cover = settled.describe(board)
                    note.parts.append(f"stays in cover {note.cover}, targets {hero_name(hero)}")
                    note.steps.append(BanditStep("stays_in_cover_targets", target=hero, **_cover(board, settled)))
                continue
        pool = fewest_marked(sc, markers)
        if not pool:
            note.parts.append("no Hero to target")
            note.steps.append(BanditStep("no_target"))
            continue
        target = yield from ctx.draw(
            f"{name(bid)}'s target (a Random Hero with the fewest Shootout markers)",
            [(h, hero_name(h)) for h in pool],
            rule="FT-BANDIT-05", asks=Asks.TARGET_HERO, said=(("figure", name(bid)), ("reason", "fewest_markers")),
        )
        roll = yield from ctx.d6(f"Cover roll for {name(bid)} (1-3 takes Cover)", rule="FT-BANDIT-07",
                                 asks=Asks.BANDIT_ROLL, said=(("figure", name(bid)), ("reason", "cover")))  # fmt: skip
        note.rolls.append(Die("cover", roll))
        plan = aim(sc, bandit, sc.by_id[target], reach=weapon.range, move=sheet.move, seek_cover=roll <= 3)
        note.walk(plan.path)
        where = plan.cover.describe(board) if plan.cover is not None else ""
        if plan.took_cover:
            note.parts.append(f"rolled {roll}, " + (f"takes cover {where}" if plan.path else f"stays in cover {where}"))
            note.steps.append(BanditStep("takes_cover" if plan.path else "stays_in_cover", roll,
                                         **_cover(board, plan.cover)))  # fmt: skip
        else:
            moving = f"moves {_spaces(plan.cost)}" if plan.cost else "stays"
            if plan.path and bandit.pos.entry:
                moving = f"comes on at Entry Area {bandit.pos.entry} and " + moving
            seeking = "finds no cover in reach, " if roll <= 3 else ""
            note.parts.append(f"rolled {roll}, {seeking}{moving}")
            note.steps.append(BanditStep("no_cover_moves" if roll <= 3 else "moves", roll, plan.cost,
                                         entry=bandit.pos.entry if plan.path else ""))  # fmt: skip
        sc = moved(sc, replace(bandit, pos=plan.end))
        bandit = sc.by_id[bid]
        if plan.line is not None:
            hero = target
            note.cover = where
            note.parts.append(f"targets {hero_name(hero)}")
            note.steps.append(BanditStep("targets", target=hero))
        else:
            others = fewest_marked(sc, markers, [h for h in in_sight(sc, bandit.pos, weapon.range) if h != target])
            if not others:
                note.parts.append(f"cannot get {hero_name(target)} in range and sight: no attack")
                note.steps.append(BanditStep("no_attack", heroes=(target,)))
                continue
            hero = yield from ctx.draw(
                f"{name(bid)}'s new target (a Random Hero in Range and sight, fewest Shootout markers)",
                [(h, hero_name(h)) for h in others],
                rule="FT-BANDIT-05", asks=Asks.TARGET_HERO, said=(("figure", name(bid)), ("reason", "new_target")),
            )
            note.parts.append(f"cannot get {hero_name(target)} in range and sight, targets {hero_name(hero)}")
            note.steps.append(BanditStep("new_target", heroes=(target,), target=hero))
        markers[hero] += 1
        marks.append((bid, hero))
        note.action, note.target = Action.RANGED, hero

    # Firing: one Ranged Attack per Shootout marker, then the markers are removed (FT-BANDIT-06)
    shots = []
    order = {h.id: n for n, h in enumerate(sc.heroes)}
    for bid, hid in sorted(marks, key=lambda mark: order[mark[1]]):
        shooter, aimed_at = sc.by_id[bid], sc.by_id[hid]
        weapon = weapon_of(shooter, sheet)
        line = in_range(board, shooter.pos, aimed_at.pos, weapon.range, blockers=sc.sight_blockers)
        assert line is not None
        covered = has_cover(board, aimed_at.pos, shooter.pos, blockers=sc.sight_blockers)
        shots.append(Shot(bid, hid, weapon, (line.frm, line.to), covered))

    proposals = []
    for bid in ids:
        note, bandit = notes[bid], sc.by_id[bid]
        line_of_fire = None
        if note.target is not None and note.action is Action.RANGED:
            found = in_range(board, bandit.pos, sc.by_id[note.target].pos, weapon_of(bandit, sheet).range,
                             blockers=sc.sight_blockers)  # fmt: skip
            line_of_fire = (found.frm, found.to) if found is not None else None
        reason = f"{name(bid)}: " + ", ".join(note.parts) if note.parts else f"{name(bid)}: nothing to do"
        proposals.append(
            Proposal(bid, note.start, bandit.pos, tuple(note.path), note.action, note.target, line_of_fire,
                     note.cover, tuple(note.rolls), reason, note.retreated, tuple(note.steps))  # fmt: skip
        )
    snapshot = tuple(Marks(hero, count) for hero, count in sorted(markers.items()))
    return Shootout(on_roof, tuple(proposals), tuple(shots), snapshot), sc


def plan_activation(
    board: Board,
    models: Iterable[Model],
    *,
    dice: Iterable[int] = (),
    picks: Iterable[Pick] | Callable[[DrawRequest | ChoiceRequest], str] = (),
    group: str | None = None,
    sheet: BanditSheet = DEFAULT_SHEET,
    gang: Gang | None = None,
    blocked: Iterable[Space] = (),
    sight_blockers: Iterable[Space] = (),
) -> Activation:
    """The same activation as a pure function of the dice and picks given (in the order the rule asks for them)."""
    steps = activate(Requests(), board, models, group=group, sheet=sheet, gang=gang, blocked=blocked,
                     sight_blockers=sight_blockers)  # fmt: skip
    return drive(steps, dice, picks)


# ---- Ambush (FT-BANDIT-02) ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Placed:
    bandit: str
    space: Space


@dataclass(frozen=True, slots=True)
class Ambush:
    """Where an ambushing Shootout group is placed: around which Hero, each Bandit's space, and who did not fit.
    Ambushers get +2 Initiative on their first turn (A13)."""

    hero: str
    placed: tuple[Placed, ...]
    unplaced: tuple[str, ...]
    initiative_bonus: int = 2


def ambush(ctx: Rolls, board: Board, models: Iterable[Model], bandits: Iterable[str]) -> Generator[Request, Any, Ambush]:
    """Place a Shootout group in Ambush: a Random Hero (A10: not KO'd), then its Bandits as far from the Heroes as
    possible on that Hero's Map Tile, never adjacent, the rest on the Map Tiles next to it (FT-BANDIT-02)."""
    models = tuple(models)
    ids = list(bandits)
    pool = [m for m in models if m.side is Side.HERO and not m.out and not m.pos.entry]
    if not pool:
        return Ambush("", (), tuple(ids))
    picked = yield from ctx.draw("the Hero the Bandits ambush (a Random Hero)", [(h.id, h.label) for h in pool],
                                 rule="FT-BANDIT-02", asks=Asks.TARGET_HERO, said=(("reason", "ambush"),))  # fmt: skip
    focus = next(h for h in pool if h.id == picked)
    spaces, _ = ambush_spaces(board, [m for m in models if m.id not in ids], focus, len(ids))
    placed = tuple(Placed(bandit, space) for bandit, space in zip(ids, spaces, strict=False))
    return Ambush(picked, placed, tuple(ids[len(placed):]))
