"""Cover on the Town board (FT-BOARD-04..10, FT-BOARD-13, FT-BOARD-07): behind a Door or Window, in a Diagonal Door
facing the attack, Leaning around a corner or in a doorway, on a rooftop — and when the Cover Save does not apply."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ...flow import Request
from ...prompts import Asks
from .grid import DOOR, SIDES, STREET, WINDOW, Board, Space, side_towards
from .model import Pos
from .moves import adjacent, corner_walls
from .rolls import Rolls
from .sight import OPENING_AT_TO, sights


class HitKind(str, Enum):
    HIT = "hit"  # a regular Hit from an Attack
    HORROR = "horror"  # Horror Hits and Corruption Hits ignore Cover (FT-BOARD-07)
    CORRUPTION = "corruption"
    DYNAMITE = "dynamite"  # Dynamite Hits ignore Cover
    MARKER = "marker"  # a marker placed in the model's own space (Hellfire) ignores Cover


@dataclass(frozen=True, slots=True)
class Cover:
    """Why a model has Cover against an attack: `kind` is "door", "window", "doorway" (leaning in a doorway),
    "corner" (leaning around a corner), "diagonal door" or "rooftop"; `building` is the Building it is at."""

    kind: str
    building: int

    def describe(self, board: Board) -> str:
        if self.kind == "rooftop":
            from .format import roof_name

            return "on " + roof_name(board, board.roof_of[self.building])
        where = f"building {self.building}"
        return {
            "door": f"behind the door of {where}",
            "window": f"behind the window of {where}",
            "doorway": f"leaning in the doorway of {where}",
            "corner": f"leaning around the corner of {where}",
            "diagonal door": f"in the corner door of {where}",
        }[self.kind]


def _tiles(board: Board, pos: Pos) -> frozenset[int]:
    """The Map Tiles an attack comes from: a rooftop is on the Street (FT-BOARD-13)."""
    if pos.roof:
        return frozenset((STREET,))
    out: set[int] = set()
    for space in pos.spaces:
        out |= board.tiles_of(board.index(space))
    return frozenset(out)


def _building_of(board: Board, a: int, b: int) -> int:
    return board.tile[a] or board.tile[b]


def cover(
    board: Board, target: Pos, attacker: Pos, *, kind: HitKind = HitKind.HIT, blockers: frozenset[int] = frozenset()
) -> Cover | None:
    """The Cover `target` has against a Hit from `attacker`, or None (FT-BOARD-07): never against Horror,
    Corruption or Dynamite Hits or markers in its space, never against an adjacent attacker. An attacker splitting a
    space fires from whichever of its spaces denies Cover, if any does."""
    if kind is not HitKind.HIT or adjacent(board, target, attacker):
        return None
    if target.roof:  # Cover against all but models on the same rooftop (FT-BOARD-13)
        return Cover("rooftop", board.rooftops[target.roof][0])
    if target.space is None:
        return None
    at = board.index(target.space)
    if target.lean is not None:
        lean = board.index(target.lean)
        if board.sides[at][side_towards(target.lean[0] - target.space[0], target.lean[1] - target.space[1])] == DOOR:
            if target.facing in _tiles(board, attacker):  # FT-BOARD-09
                return Cover("doorway", _building_of(board, at, lean))
            return None
        walls = corner_walls(board, target.space, target.lean)
        lines = sights(board, attacker, target, blockers=blockers)
        if not walls or not lines:
            return None
        sx, sy = target.space
        for line in lines:  # every line the attacker could fire along must come from beyond the Wall's line
            ax, ay = line.frm
            if not any(
                (px > 0 and ax >= sx + 1) or (px < 0 and ax <= sx - 1) or (py > 0 and ay >= sy + 1)
                or (py < 0 and ay <= sy - 1)
                for px, py in walls
            ):  # fmt: skip
                return None
        px, py = walls[0]
        return Cover("corner", board.tile[board.index((sx + px, sy + py))])
    if at in board.diagonal:  # FT-BOARD-06: Cover against attacks from the direction it faces
        if target.facing is not None and target.facing in _tiles(board, attacker):
            return Cover("diagonal door", board.tile[at])
        return None
    lines = sights(board, attacker, target, blockers=blockers)
    if not lines or not all(line.through & OPENING_AT_TO for line in lines):
        return None
    return _opening_cover(board, at, lines[0].frm)


def _opening_cover(board: Board, at: int, frm: Space) -> Cover:
    """The Door or Window touching the target's space that the line from `frm` enters by (FT-BOARD-04/05): the
    line leaves the target's centre first across the side of its larger step."""
    x, y = board.xy(at)
    dx, dy = frm[0] - x, frm[1] - y
    crossed = []
    if dx and abs(dx) >= abs(dy):
        crossed.append(side_towards(dx, 0))
    if dy and abs(dy) >= abs(dx):
        crossed.append(side_towards(0, dy))
    others = [side for side in range(4) if side not in crossed]
    for side in crossed + others:
        kind = board.sides[at][side]
        if kind in (DOOR, WINDOW):
            sx, sy = SIDES[side]
            other = board.index((x + sx, y + sy))
            return Cover("door" if kind == DOOR else "window", _building_of(board, at, other))
    raise AssertionError("a covered line passes a Door or Window touching the target")


def has_cover(
    board: Board, target: Pos, attacker: Pos, *, kind: HitKind = HitKind.HIT, blockers: frozenset[int] = frozenset()
) -> bool:
    """Whether `target` makes a Cover Save against a Hit from `attacker` (FT-BOARD-07)."""
    return cover(board, target, attacker, kind=kind, blockers=blockers) is not None


def cover_saves(ctx: Rolls, hits: int, *, who: str) -> Generator[Request, Any, int]:
    """A model in Cover rolls a D6 for each Hit it takes, before Defense; each 4, 5 or 6 ignores that Hit
    (FT-BOARD-07). Returns the Hits left."""
    if hits <= 0:
        return 0
    faces = yield from ctx.dice(hits, f"Cover Saves for {who}", rule="FT-BOARD-07", asks=Asks.SAVE,
                                said=(("reason", "cover"), ("target", 4), ("figure", who)))  # fmt: skip
    return sum(1 for face in faces if face <= 3)
