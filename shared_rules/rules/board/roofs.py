"""Rooftops (FT-BOARD-12..20) and the random Building and Rooftop picks (FT-DICE-02).

Five rooftops: Buildings 1, 2, 5 and 6 each have their own, 3+4 and 7+8 share one. A model on a rooftop is on the
whole rooftop (no space), adjacent to every model up there, on the Street Map Tile, and in Cover from everything
not on that rooftop; sight rules are in `sight.py`.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import dataclass
from typing import Any

from ...dice import DieKind
from ...errors import IllegalCommand
from ...flow import Request, Said
from ...prompts import Asks
from .grid import STREET, Board, Space
from .model import Model, Pos, Side
from .rolls import Rolls


# ---- random Building and Rooftop (FT-DICE-02) -------------------------------------------------------------
def random_building(ctx: Rolls, purpose: str, said: Said = ()) -> Generator[Request, Any, int]:
    """Roll the D8 and use the Building with that number (FT-DICE-02, FF-DICE-03); `said` is what for, as the
    prompt's facts (`Asks.BUILDING_ROLL`: reason, name, number)."""
    roll = yield from ctx.roll(DieKind.D8, f"Random Building: {purpose}", chart=True, rule="FT-DICE-02",
                               asks=Asks.BUILDING_ROLL, said=said)  # fmt: skip
    return roll.value


def rooftop_for(board: Board, building: int) -> str:
    """The rooftop of a Building: a D8 of 3 or 4 gives the shared 3+4 rooftop, 7 or 8 the shared 7+8 (FT-DICE-02),
    so those two come up 2 times in 8 and the others once."""
    return board.roof_of[building]


def random_rooftop(ctx: Rolls, board: Board, purpose: str, said: Said = ()) -> Generator[Request, Any, str]:
    """A Random Building's Rooftop (FT-DICE-02)."""
    building = yield from random_building(ctx, purpose, said)
    return rooftop_for(board, building)


# ---- climbing (FT-BOARD-15..17) ---------------------------------------------------------------------------
def climb_up(board: Board, start: Pos) -> Pos:
    """A Hero who starts their Activation inside a Building gives up their movement to go up to its rooftop
    (FT-BOARD-15; no Move roll, A34). Refused from the Street or a rooftop."""
    building = board.tile[board.index(start.space)] if start.space is not None and start.lean is None else STREET
    if building == STREET:
        raise IllegalCommand(
            f"only a Hero who starts the Activation inside a Building climbs to its rooftop; this one is on "
            f"{start.describe()}",
            field="position", rule="FT-BOARD-15",
        )  # fmt: skip
    return Pos.on_roof(board.roof_of[building])


def climb_down_spaces(board: Board, roof: str, *, occupied: Iterable[Space] = ()) -> tuple[Space, ...]:
    """Where a Hero giving up their movement to come down may be placed: any empty space of the Building, or of
    either Building of a shared rooftop (FT-BOARD-15)."""
    taken = {board.index(s) for s in occupied}
    return tuple(board.xy(c) for c in sorted(board.roof_spaces[roof]) if c not in taken)


def must_escape_to_leave(models: Iterable[Model], hero: Model) -> bool:
    """A Hero on a rooftop with one or more Enemies must pass an Escape test to leave it (FT-BOARD-18)."""
    return bool(hero.pos.roof) and any(
        m.side is Side.ENEMY and m.pos.roof == hero.pos.roof for m in models if m.id != hero.id
    )


def enemy_reaches_roof(board: Board, end: Pos, target: Pos, *, flying: bool = False) -> tuple[Pos, bool]:
    """An Enemy moving to Melee a Hero on a rooftop: if it ends its move inside that Building it is put on the
    rooftop and loses its Attack this Activation; a flyer that reaches the rooftop keeps its Attack
    (FT-BOARD-16/17). Returns (where it ends, whether it still attacks)."""
    if not target.roof:
        return end, True
    if end.roof == target.roof:  # already up there (or flown up): it attacks
        return end, True
    if end.space is not None and board.index(end.space) in board.roof_spaces[target.roof]:
        return Pos.on_roof(target.roof), flying
    return end, False


# ---- falls (FT-BOARD-20) ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Fall:
    """A Hero fallen from a rooftop: where they land and the Wounds they take, ignoring Defense (FT-BOARD-20)."""

    hero: str
    space: Space
    wounds: int


def enemy_killed_on_roof(ctx: Rolls, enemy: Model) -> Generator[Request, Any, bool]:
    """When a Hero kills an Enemy on a rooftop, a D6 of 1-3 means it falls screaming and the Hero may Recover
    1 Grit (FT-BOARD-20). Returns whether it fell (the Grit is the caller's `ctx.change`)."""
    face = yield from ctx.d6(f"{enemy.label} falls from the rooftop on 1-3", rule="FT-BOARD-20", asks=Asks.ROOF_FALL,
                             said=(("reason", "falls"), ("name", enemy.label)))  # fmt: skip
    return face <= 3


def fall_spaces(board: Board, roof: str, *, occupied: Iterable[Space] = ()) -> tuple[Space, ...]:
    """The empty ground spaces adjacent to the Building(s) of a rooftop, outside them: where a fallen Hero lands."""
    taken = {board.index(s) for s in occupied}
    inside = board.roof_spaces[roof]
    near = sorted(c for c in board.roof_near[roof] if c not in inside and c not in taken)
    return tuple(board.xy(c) for c in near if board.tile[c] == STREET or c in board.diagonal)


def hero_wounded_on_roof(
    ctx: Rolls, board: Board, models: Iterable[Model], hero: Model
) -> Generator[Request, Any, Fall | None]:
    """A Hero on a rooftop who takes 1 or more Wounds from an Attack rolls a D6 (once per Attack); on 1-3 they fall:
    the players place them in any ground space adjacent to the Building and they take D6 Wounds ignoring Defense
    (FT-BOARD-20)."""
    if not hero.pos.roof:
        return None
    face = yield from ctx.d6(f"{hero.label} falls from the rooftop on 1-3", hero=None, rule="FT-BOARD-20",
                             asks=Asks.ROOF_FALL, said=(("reason", "falls"), ("name", hero.label)))  # fmt: skip
    if face > 3:
        return None
    spaces = fall_spaces(board, hero.pos.roof, occupied=[s for m in models for s in m.pos.spaces])
    if not spaces:
        raise IllegalCommand(f"no empty space beside {hero.pos.describe()} for {hero.label} to land in",
                             rule="FT-BOARD-20")  # fmt: skip
    key = yield from ctx.choose(
        f"Where does {hero.label} land?", [(f"{x},{y}", f"({x},{y})") for x, y in spaces], rule="FT-BOARD-20",
        asks=Asks.LANDING, said=(("name", hero.label),),
    )
    x, y = (int(v) for v in key.split(","))
    wounds = yield from ctx.d6(f"Wounds for {hero.label}'s fall (ignoring Defense)", rule="FT-BOARD-20",
                               asks=Asks.ROOF_FALL, said=(("reason", "wounds"), ("name", hero.label)))  # fmt: skip
    return Fall(hero.id, (x, y), wounds)
