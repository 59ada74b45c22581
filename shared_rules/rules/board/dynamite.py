"""Dynamite and Buildings (FT-BOARD-21, A36).

Dynamite is not thrown or Bounced through Walls; through a Door or Window only at the space directly on the other
side. It blasts its space and all 8 around it, through Walls too, but never the rooftop above. Thrown onto a rooftop,
it hits every model up there unless it Bounces out of that Building. The Bounce chart is not in the rulebooks, so the
table says the direction and distance it shows.
"""

from __future__ import annotations

from collections.abc import Iterable

from .grid import DIAGONALS, DOOR, OPEN, SIDE_NAMES, SIDES, WINDOW, Board, Space
from .model import Model, Pos
from .sight import OPENING_AT_FROM, OPENING_AT_TO, chebyshev, sights

DIRECTIONS = {**dict(zip(SIDE_NAMES, SIDES, strict=True)), **DIAGONALS}


def throw_targets(board: Board, thrower: Pos, reach: int) -> tuple[Space, ...]:
    """The ground spaces Dynamite may be thrown at from `thrower` with this Range (FT-BOARD-21)."""
    out = []
    for c in range(board.size):
        space = board.xy(c)
        target = Pos(space)
        if space in thrower.spaces:
            continue
        for line in sights(board, thrower, target):
            if line.range > reach:
                break
            through = line.through & (OPENING_AT_FROM | OPENING_AT_TO)
            across = abs(line.frm[0] - space[0]) + abs(line.frm[1] - space[1]) == 1
            if not through or through == OPENING_AT_TO or (through == OPENING_AT_FROM | OPENING_AT_TO and across):
                out.append(space)
                break
    return tuple(out)


def roof_throw_spaces(board: Board, thrower: Pos, roof: str, reach: int) -> tuple[Space, ...]:
    """Dynamite thrown onto a rooftop: the spaces of its Building(s) within Range where it may be placed, when the
    thrower can see that rooftop (FT-BOARD-21, FT-BOARD-14)."""
    if not sights(board, thrower, Pos.on_roof(roof)):
        return ()
    on_roof = thrower.roof
    starts = list(board.roof_spaces[on_roof]) if on_roof else [board.index(s) for s in thrower.spaces]
    return tuple(
        board.xy(c) for c in sorted(board.roof_spaces[roof]) if min(chebyshev(board, s, c) for s in starts) <= reach
    )


def bounce(board: Board, start: Space, direction: str, spaces: int) -> Space:
    """Where Dynamite ends after Bouncing `spaces` in `direction` (N, NE, E ... as the table's Bounce chart shows):
    it stops at a Wall or the board edge, and through a Door or Window goes no further than the space beyond."""
    dx, dy = DIRECTIONS[direction]
    here = start
    for _ in range(spaces):
        nxt = (here[0] + dx, here[1] + dy)
        if not board.on_board(nxt):
            break
        i, j = board.index(here), board.index(nxt)
        if dx and dy:
            if j not in board.steps[i]:
                break
            here = nxt
            continue
        side = SIDES.index((dx, dy))
        kind = board.sides[i][side]
        if kind == OPEN:
            here = nxt
        elif kind in (DOOR, WINDOW):
            here = nxt
            break
        else:
            break
    return here


def blast_spaces(board: Board, centre: Space) -> tuple[Space, ...]:
    """The space Dynamite goes off in and every space around it, even through a Wall (FT-BOARD-21, A36)."""
    x, y = centre
    return tuple(
        (x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if board.on_board((x + dx, y + dy))
    )


def dynamite_hits(board: Board, models: Iterable[Model], landing: Space, *, roof: str = "") -> tuple[str, ...]:
    """The models a blast hits. Thrown at rooftop `roof` and still in a space of its Building(s): every model on that
    rooftop; otherwise the ground models in the blast, never a model on a rooftop (FT-BOARD-21)."""
    if roof and board.index(landing) in board.roof_spaces[roof]:
        return tuple(m.id for m in models if m.pos.roof == roof)
    blast = set(blast_spaces(board, landing))
    return tuple(m.id for m in models if any(s in blast for s in m.pos.spaces))
