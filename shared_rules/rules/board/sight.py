"""Line of Sight and Range on the Town board (FT-BOARD-03..06, FT-BOARD-08..10, FT-BOARD-13/14).

A line runs from the centre of one space to the centre of the other (integer arithmetic on doubled coordinates).
It is stopped by a Wall; a Door or Window lets it through only when the viewer or the target stands in one of the two
spaces touching it (a door is shut otherwise); where the line passes exactly through a cross point it slips by unless
Walls there separate the two spaces (FF-MOVE-06). Models do not block sight (a reading: the rulebooks name only the
Gallows and Hanging High's Townsfolk as blocking, given here as `blockers`: `board.cells(spaces)`).

Range counts spaces with a diagonal as 1 (Chebyshev distance, as ambiguity A22 reads "within 3 spaces").
"""

from __future__ import annotations

from dataclasses import dataclass

from .grid import DOOR, OPEN, STREET, WINDOW, Board, E, N, S, Space, W
from .model import Pos

VISIBLE = 1
OPENING_AT_FROM = 2  # the line passes a Door or Window touching the viewer's space
OPENING_AT_TO = 4  # ... touching the target's space: the target has Cover from this line (FT-BOARD-04/05)
_OPENINGS = OPENING_AT_FROM | OPENING_AT_TO
_BLOCKED = -1
_NOTHING: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Sight:
    """A line of sight found from a viewer to a target: the spaces it runs between, its Range, and whether it
    passes a Door or Window touching either end. A rooftop model's line starts at its Building space closest to
    the other model (FT-BOARD-14)."""

    frm: Space
    to: Space
    range: int
    through: int = 0  # OPENING_AT_FROM | OPENING_AT_TO

    @property
    def covered(self) -> bool:
        """The target stands behind a Door or Window this line passes (FT-BOARD-04/05)."""
        return bool(self.through & OPENING_AT_TO)


def chebyshev(board: Board, a: int, b: int) -> int:
    width = board.width
    return max(abs(a % width - b % width), abs(a // width - b // width))


# ---- tracing one line between two spaces ------------------------------------------------------------------
def trace(board: Board, a: int, b: int) -> tuple[int, tuple[int, ...]]:
    """The line from space a to space b: (flags, the spaces strictly between) — flags 0 when a Wall stops it.
    Memoised on the board: the same two spaces always give the same line."""
    key = a * board.size + b
    hit = board._sight.get(key)
    if hit is None:
        hit = _trace(board, a, b, _NOTHING)
        board._sight[key] = hit
        flags = hit[0]
        back = (flags & VISIBLE) | ((flags & OPENING_AT_FROM) << 1) | ((flags & OPENING_AT_TO) >> 1)
        board._sight[b * board.size + a] = (back if flags else 0, tuple(reversed(hit[1])))
    return hit


def roof_trace(board: Board, roof: str, b: int) -> tuple[int, int, tuple[int, ...]]:
    """The line from a rooftop to ground space b: (its Building space closest to b, flags, spaces between).
    No line reaches a space inside the rooftop's Buildings or touching them; the line looks over the rooftop's own
    Walls but not through any other Building's (FT-BOARD-14)."""
    key = board.roof_index[roof] * board.size + b
    hit = board._roof_sight.get(key)
    if hit is None:
        start = closest_roof_space(board, roof, b)
        flags, between = (0, ()) if b in board.roof_near[roof] else _trace(board, start, b, board.roof_spaces[roof])
        hit = (start, flags, between)
        board._roof_sight[key] = hit
    return hit


def closest_roof_space(board: Board, roof: str, b: int) -> int:
    """The rooftop's Building space closest to space b (Chebyshev, then straight-line distance, then board order)."""
    key = board.roof_index[roof] * board.size + b
    hit = board._roof_closest.get(key)
    if hit is None:
        width = board.width
        bx, by = b % width, b // width
        hit = min(
            board.roof_spaces[roof],
            key=lambda c: (
                max(abs(c % width - bx), abs(c // width - by)),
                (c % width - bx) ** 2 + (c // width - by) ** 2,
                c,
            ),
        )
        board._roof_closest[key] = hit
    return hit


def roof_gap(board: Board, one: str, other: str) -> tuple[int, int, int]:
    """Range between two rooftops and the closest pair of their spaces: (range, space of one, space of other)."""
    known = board._roof_gap.get((one, other))
    if known is not None:
        return known
    best: tuple[int, int, int] | None = None
    for a in sorted(board.roof_spaces[one]):
        b = closest_roof_space(board, other, a)
        gap = chebyshev(board, a, b)
        if best is None or gap < best[0]:
            best = (gap, a, b)
    assert best is not None
    board._roof_gap[(one, other)] = best
    return best


def _trace(board: Board, a: int, b: int, own: frozenset[int]) -> tuple[int, tuple[int, ...]]:
    width, sides, tile, diagonal = board.width, board.sides, board.tile, board.diagonal
    ax, ay, bx, by = a % width, a // width, b % width, b // width
    nx, ny = abs(bx - ax), abs(by - ay)
    step_x, side_x = (1, E) if bx > ax else (-1, W)
    step_y, side_y = (width, S) if by > ay else (-width, N)
    big = 4 * (nx + ny + 1) ** 2

    def cross(p: int, side: int, q: int) -> int:
        kind = sides[p][side]
        if kind == OPEN:
            return 0
        if own and (p in own or q in own) and (p in own or tile[p] == STREET) and (q in own or tile[q] == STREET):
            return 0  # a rooftop viewer looks over its own Building's Walls
        if kind in (DOOR, WINDOW) and (p in (a, b) or q in (a, b)):
            return (OPENING_AT_FROM if a in (p, q) else 0) | (OPENING_AT_TO if b in (p, q) else 0)
        return _BLOCKED

    flags = VISIBLE
    between: list[int] = []
    i = j = 0
    before, cur = -1, a
    while cur != b:
        tx = (2 * i + 1) * ny if nx else big
        ty = (2 * j + 1) * nx if ny else big
        if tx < ty:
            nxt = cur + step_x
            got = cross(cur, side_x, nxt)
            i += 1
        elif ty < tx:
            nxt = cur + step_y
            got = cross(cur, side_y, nxt)
            j += 1
        else:  # exactly through a cross point: it slips by on either side unless Walls there separate the spaces
            nxt = cur + step_x + step_y
            one, two = cur + step_x, cur + step_y
            first = cross(cur, side_x, one)
            if first != _BLOCKED:
                then = cross(one, side_y, nxt)
                first = _BLOCKED if then == _BLOCKED else first | then
            second = cross(cur, side_y, two)
            if second != _BLOCKED:
                then = cross(two, side_x, nxt)
                second = _BLOCKED if then == _BLOCKED else second | then
            if first == _BLOCKED:
                got = second
            elif second == _BLOCKED:
                got = first
            else:
                got = first & second
            i += 1
            j += 1
        if got == _BLOCKED:
            return 0, ()
        flags |= got
        if (
            cur != a and cur in diagonal and cur not in own and before not in diagonal and nxt not in diagonal
            and tile[before] != tile[nxt]
        ):  # through a Diagonal Door space from the Street into the Building: the door is shut  # fmt: skip
            return 0, ()
        before, cur = cur, nxt
        if cur != b:
            between.append(cur)
    return flags, tuple(between)


# ---- sight between models -----------------------------------------------------------------------------------
def sights(board: Board, viewer: Pos, target: Pos, *, blockers: frozenset[int] = _NOTHING) -> list[Sight]:
    """Every line of sight from viewer to target (a model splitting a space sees from either space), shortest
    Range first. Off-board models see nothing and are not seen (FT-M5: they must come on to shoot)."""
    if viewer.entry or target.entry:
        return []
    index = board.index
    if viewer.roof and target.roof:
        if viewer.roof == target.roof:  # all models on one rooftop are adjacent (FT-BOARD-13)
            centre = board.xy(min(board.roof_spaces[viewer.roof]))
            return [Sight(centre, centre, 1)]
        gap, a, b = roof_gap(board, viewer.roof, target.roof)
        return [Sight(board.xy(a), board.xy(b), gap)]  # a rooftop always sees every other rooftop (FT-BOARD-14)
    found = []
    if viewer.roof or target.roof:
        roof, ground = (viewer.roof, target) if viewer.roof else (target.roof, viewer)
        for space in ground.spaces:
            t = index(space)
            origin, flags, _ = roof_trace(board, roof, t)
            if flags:
                reach = chebyshev(board, origin, t)
                if viewer.roof:
                    found.append(Sight(board.xy(origin), space, reach, flags & OPENING_AT_TO))
                else:
                    found.append(Sight(space, board.xy(origin), reach, (flags & OPENING_AT_TO) >> 1))
    else:
        for mine in viewer.spaces:
            for theirs in target.spaces:
                a, b = index(mine), index(theirs)
                if a == b:
                    continue
                flags, between = trace(board, a, b)
                if flags and not (blockers and any(c in blockers for c in between)):
                    found.append(Sight(mine, theirs, chebyshev(board, a, b), flags & _OPENINGS))
    found.sort(key=lambda s: s.range)
    return found


def sight(board: Board, viewer: Pos, target: Pos, *, blockers: frozenset[int] = _NOTHING) -> Sight | None:
    """The shortest line of sight from viewer to target, or None."""
    found = sights(board, viewer, target, blockers=blockers)
    return found[0] if found else None


def sees(board: Board, viewer: Pos, target: Pos, *, blockers: frozenset[int] = _NOTHING) -> bool:
    return bool(sights(board, viewer, target, blockers=blockers))


def in_range(
    board: Board, shooter: Pos, target: Pos, reach: int, *, blockers: frozenset[int] = _NOTHING
) -> Sight | None:
    """The line a shooter with this Range would fire along at the target, or None (out of Range or sight)."""
    found = sight(board, shooter, target, blockers=blockers)
    return found if found is not None and found.range <= reach else None


def distance(board: Board, a: Pos, b: Pos) -> int:
    """Range between two models, sight aside: spaces counted with diagonals as 1, from either space of a model
    splitting a space, from a rooftop's closest Building space; models on the same rooftop are 1 apart."""
    if a.entry or b.entry:
        raise ValueError("a model off the board has no Range")
    if a.roof and b.roof:
        return 1 if a.roof == b.roof else roof_gap(board, a.roof, b.roof)[0]
    if a.roof or b.roof:
        roof, ground = (a.roof, b) if a.roof else (b.roof, a)
        return min(
            chebyshev(board, closest_roof_space(board, roof, board.index(s)), board.index(s)) for s in ground.spaces
        )
    return min(chebyshev(board, board.index(x), board.index(y)) for x in a.spaces for y in b.spaces)
