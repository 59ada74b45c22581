"""The Shootout AI's decisions as pure functions of the board, the models and what the dice showed
(FT-BANDIT-02..07). `activation.py` strings them into a rule that asks for the dice.

Readings taken where the rulebook leaves a choice (docs/rules.md, "The Town board and the Bandits"):
- a Bandit's Retreat is a move of up to its Move; if no space adjacent to no Hero is that close, it cannot get away;
- among equally short moves a Bandit ends where the nearest Hero is farthest away ("they stay back"), then in board
  order (the table may correct the position);
- when the target cannot be brought into Range and sight this activation, the Bandit walks the shortest path toward
  the nearest space that would, as far as its Move allows, ending on a space it may end on;
- a Bandit "already in Cover" is one with Cover against at least one Hero who can see it;
- KO'd Heroes are not targets and do not pin a Bandit (A10); Bandits of one group make way for one another, in a
  Retreat as in a targeting move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..board import Board, Cover, Model, Pos, Side, Sight, Space, adjacent, cover, in_range, lean_options, sees
from ..board.grid import DOOR, STREET, WINDOW
from ..board.moves import bfs, path_to, start_spaces
from ..board.sight import chebyshev, roof_trace, trace


@dataclass(frozen=True, slots=True)
class Scene:
    """The board and its models at one moment of an activation, with what the decisions read precomputed."""

    board: Board
    models: tuple[Model, ...]
    blocked: frozenset[int]  # spaces no model enters: the Gallows, Horses, Townsfolk ... (mission obstacles)
    sight_blockers: frozenset[int]  # spaces that block Line of Sight (Hanging High's Gallows and Townsfolk)
    by_id: dict[str, Model]
    heroes: tuple[Model, ...]  # the Heroes Enemies may pick: on the board and not KO'd (A10)
    hero_near: frozenset[int]  # ground spaces holding or adjacent to such a Hero
    taken: dict[int, str]  # ground space -> the model standing in it


def scene(
    board: Board, models: Iterable[Model], *, blocked: Iterable[Space] = (), sight_blockers: Iterable[Space] = ()
) -> Scene:
    models = tuple(models)
    heroes = tuple(m for m in models if m.side is Side.HERO and not m.out and not m.pos.entry)
    near: set[int] = set()
    for hero in heroes:
        for space in hero.pos.spaces:
            c = board.index(space)
            near.add(c)
            near |= board.adjacent[c]
    taken = {board.index(s): m.id for m in models for s in m.pos.spaces}
    return Scene(
        board,
        models,
        frozenset(board.index(s) for s in blocked),
        frozenset(board.index(s) for s in sight_blockers),
        {m.id: m for m in models},
        heroes,
        frozenset(near),
        taken,
    )


def moved(sc: Scene, model: Model) -> Scene:
    """The scene after one model's new position or markers."""
    models = tuple(model if m.id == model.id else m for m in sc.models)
    return scene(sc.board, models, blocked=(sc.board.xy(c) for c in sc.blocked),
                 sight_blockers=(sc.board.xy(c) for c in sc.sight_blockers))  # fmt: skip


def _same_group(bandit: Model, other: Model) -> bool:
    return other.side is Side.ENEMY and other.group == bandit.group


def _impassable(sc: Scene, bandit: Model) -> frozenset[int]:
    """Spaces the Bandit may not move through: other models, except Enemies of its own group (FT-BANDIT-05)."""
    by_id = sc.by_id
    return sc.blocked | {c for c, who in sc.taken.items() if who != bandit.id and not _same_group(bandit, by_id[who])}


def _no_end(sc: Scene, bandit: Model) -> frozenset[int]:
    """Spaces the Bandit may not end a move in: any other model's, a mission obstacle, or adjacent to a Hero."""
    return sc.blocked | sc.hero_near | {c for c, who in sc.taken.items() if who != bandit.id}


def _standoff(sc: Scene) -> Callable[[int], tuple[int, int]]:
    """A tie-break: prefer the space whose nearest Hero is farthest away, then board order."""
    spots = [sc.board.index(s) for h in sc.heroes for s in h.pos.spaces]
    board = sc.board

    def key(c: int) -> tuple[int, int]:
        return (-min((chebyshev(board, c, h) for h in spots), default=0), c)

    return key


# ---- who is where ---------------------------------------------------------------------------------------------
def adjacent_heroes(sc: Scene, bandit: Model) -> tuple[Model, ...]:
    """The Heroes a Bandit is adjacent to (a rooftop counts all its models adjacent, FT-BOARD-13)."""
    return tuple(h for h in sc.heroes if adjacent(sc.board, bandit.pos, h.pos))


def rooftop_heroes(sc: Scene, bandit: Model) -> tuple[Model, ...]:
    """Heroes on the Bandit's rooftop: it never Retreats from them and Melees one (FT-BOARD-19)."""
    return tuple(h for h in sc.heroes if bandit.pos.roof and h.pos.roof == bandit.pos.roof)


def fewest_marked(sc: Scene, markers: Mapping[str, int], among: Iterable[str] | None = None) -> tuple[str, ...]:
    """The Heroes a Random Hero is drawn from: those with no Shootout marker, or the fewest (FT-BANDIT-05)."""
    pool = [h.id for h in sc.heroes] if among is None else list(among)
    if not pool:
        return ()
    low = min(markers.get(h, 0) for h in pool)
    return tuple(h for h in pool if markers.get(h, 0) == low)


def in_sight(sc: Scene, pos: Pos, reach: int) -> tuple[str, ...]:
    """The Heroes within Range `reach` and Line of Sight of a model at `pos`."""
    return tuple(
        h.id for h in sc.heroes if in_range(sc.board, pos, h.pos, reach, blockers=sc.sight_blockers) is not None
    )


def starts_in_cover(sc: Scene, bandit: Model) -> Cover | None:
    """A Bandit "already in Cover": Cover against at least one Hero who can see it (FT-BANDIT-07, a reading)."""
    for hero in sc.heroes:
        found = cover(sc.board, bandit.pos, hero.pos, blockers=sc.sight_blockers)
        if found is not None and sees(sc.board, hero.pos, bandit.pos, blockers=sc.sight_blockers):
            return found
    return None


# ---- Retreat (FT-BANDIT-03) -----------------------------------------------------------------------------------
def retreat_path(sc: Scene, bandit: Model, *, move: int) -> tuple[Space, ...] | None:
    """The Free Move of a Retreat: the shortest path to a space adjacent to no Hero, start first, at most `move`
    steps; None when the Bandit cannot get away (FT-BANDIT-03/04)."""
    if not bandit.pos.on_ground:
        return None
    board = sc.board
    no_end = _no_end(sc, bandit)
    dist, parent = bfs(board, start_spaces(board, bandit.pos), blocked=_impassable(sc, bandit), limit=move)
    free = [c for c, d in enumerate(dist) if d > 0 and c not in no_end]
    if not free:
        return None
    low = min(dist[c] for c in free)
    end = min((c for c in free if dist[c] == low), key=_standoff(sc))
    return tuple(board.xy(c) for c in path_to(parent, end))


# ---- Targeting and Cover (FT-BANDIT-05/07) --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Aim:
    """Where a Bandit moves to shoot its target: the spaces it steps through (start first; empty when it stays),
    where it ends, its line of fire (None when the target is still out of Range or sight), and its own Cover
    against the target there."""

    path: tuple[Space, ...]
    end: Pos
    line: Sight | None
    cover: Cover | None
    took_cover: bool
    cost: int


class _View:
    """How a target is seen from ground spaces, fast: Range, then the (memoised) line."""

    __slots__ = ("board", "roof", "spaces", "reach", "blockers")

    def __init__(self, board: Board, target: Pos, reach: int, blockers: frozenset[int]) -> None:
        self.board = board
        self.roof = target.roof
        self.spaces = tuple(board.index(s) for s in target.spaces)
        self.reach = reach
        self.blockers = blockers

    def sees_from(self, c: int) -> bool:
        board = self.board
        if self.roof:
            if c in board.roof_near[self.roof]:
                return False
            start, flags, _ = roof_trace(board, self.roof, c)
            return bool(flags) and chebyshev(board, start, c) <= self.reach
        for t in self.spaces:
            if t == c or chebyshev(board, c, t) > self.reach:
                continue
            flags, between = trace(board, c, t)
            if flags and not (self.blockers and any(b in self.blockers for b in between)):
                return True
        return False


def _facing(board: Board, c: int, target: Pos) -> int | None:
    """A model ending in a Diagonal Door space faces the side its target is on (for the Cover it gives)."""
    if c not in board.diagonal:
        return None
    sides = {STREET} if target.roof else {t for s in target.spaces for t in board.tiles_of(board.index(s))}
    toward = sorted(sides & board.tiles_of(c))
    return toward[0] if toward else board.tile[c]


def _could_cover(board: Board, c: int) -> bool:
    """A space where a model may have Cover standing still: touching a Door or Window, or a Diagonal Door."""
    return c in board.diagonal or any(kind in (DOOR, WINDOW) for kind in board.sides[c])


def aim(sc: Scene, bandit: Model, target: Model, *, reach: int, move: int, seek_cover: bool) -> Aim:
    """Move a Bandit the shortest distance that brings `target` within Range `reach` and Line of Sight, never ending
    adjacent to a Hero, passing through its own group (FT-BANDIT-05). With `seek_cover` (a 1-3 on the Cover roll)
    it first looks for the closest Cover position within its Move from which it still has the target in Range and
    sight — a space behind a Door or Window, a Diagonal Door facing the target, or a Lean for 1 more movement point
    (FT-BANDIT-07, FT-BOARD-04..09) — and takes it. A rooftop Bandit never moves (FT-BANDIT-08)."""
    board, blockers = sc.board, sc.sight_blockers
    here = in_range(board, bandit.pos, target.pos, reach, blockers=blockers)
    if bandit.pos.roof:
        return Aim((), bandit.pos, here, cover(board, bandit.pos, target.pos, blockers=blockers), False, 0)
    no_end = _no_end(sc, bandit)
    impassable = _impassable(sc, bandit)
    starts = start_spaces(board, bandit.pos)
    order = _standoff(sc)

    def finish(c: int, end: Pos, parent: list[int], cost: int, took: bool) -> Aim:
        path = tuple(board.xy(s) for s in path_to(parent, c))
        line = in_range(board, end, target.pos, reach, blockers=blockers)
        return Aim(path, end, line, cover(board, end, target.pos, blockers=blockers), took, cost)

    if seek_cover:
        already = cover(board, bandit.pos, target.pos, blockers=blockers) if here is not None else None
        if already is not None:
            return Aim((), bandit.pos, here, already, True, 0)
        dist, parent = bfs(board, starts, blocked=impassable, limit=move)
        view = _View(board, target.pos, reach, blockers)
        best: tuple[int, tuple[int, int], int, Pos] | None = None
        for c in range(board.size):
            d = dist[c]
            if d < 0 or c in no_end:
                continue
            options: list[tuple[int, Pos]] = []
            if _could_cover(board, c):
                options.append((d, Pos(board.xy(c), facing=_facing(board, c, target.pos))))
            if d + 1 <= move:
                for lean in lean_options(board, board.xy(c)):
                    assert lean.lean is not None
                    other = board.index(lean.lean)
                    if other not in no_end and other not in impassable:
                        options.append((d + 1, lean))
            for cost, pos in options:
                if best is not None and (cost, order(c)) >= best[:2]:
                    continue
                if pos.lean is None and not view.sees_from(c):
                    continue
                if pos.lean is not None and in_range(board, pos, target.pos, reach, blockers=blockers) is None:
                    continue
                if cover(board, pos, target.pos, blockers=blockers) is None:
                    continue
                best = (cost, order(c), c, pos)
        if best is not None:
            cost, _, c, pos = best
            return finish(c, pos, parent, cost, True)

    if here is not None and not bandit.pos.entry:
        return Aim((), bandit.pos, here, cover(board, bandit.pos, target.pos, blockers=blockers), False, 0)
    view = _View(board, target.pos, reach, blockers)
    goals, dist, parent = _nearest(board, starts, impassable, lambda c: c not in no_end and view.sees_from(c))
    if not goals:
        return Aim((), bandit.pos, here, None, False, 0)
    goal = min(goals, key=order)
    if dist[goal] <= move:
        return finish(goal, Pos(board.xy(goal), facing=_facing(board, goal, target.pos)), parent, dist[goal], False)
    path = path_to(parent, goal)[: move + 1]
    while path and path[-1] in no_end:
        path.pop()
    if not path:
        return Aim((), bandit.pos, here, None, False, 0)
    end = path[-1]
    return finish(end, Pos(board.xy(end), facing=_facing(board, end, target.pos)), parent, dist[end], False)


def _nearest(
    board: Board, starts: Iterable[int], impassable: frozenset[int], goal: Callable[[int], bool]
) -> tuple[list[int], list[int], list[int]]:
    """Breadth-first from `starts` until the first layer holding goal spaces: (those goals, dist, parent)."""
    size = board.size
    dist = [-1] * size
    parent = [-1] * size
    layer = []
    for s in starts:
        if dist[s] < 0:
            dist[s] = 0
            layer.append(s)
    steps = board.steps
    while layer:
        found = [c for c in layer if goal(c)]
        if found:
            return found, dist, parent
        nxt = []
        for cur in layer:
            d = dist[cur] + 1
            for n in steps[cur]:
                if dist[n] < 0 and n not in impassable:
                    dist[n] = d
                    parent[n] = cur
                    nxt.append(n)
        layer = nxt
    return [], dist, parent


# ---- Ambush (FT-BANDIT-02) ------------------------------------------------------------------------------------
def ambush_spaces(board: Board, models: Iterable[Model], hero: Model, count: int) -> tuple[tuple[Space, ...], int]:
    """Where a Shootout group ambushing `hero` goes: on the Hero's Map Tile, each as far from any Hero as possible
    and never adjacent; what does not fit goes as far away as possible on the Map Tiles next to it (FT-BANDIT-02).
    Distance counts spaces with diagonals as 1 (A22); a rooftop Hero is on the Street tile (FT-BOARD-13).
    Returns the spaces, in placing order, and how many could not be placed."""
    models = tuple(models)
    sc = scene(board, models)
    tiles = {STREET} if not hero.pos.spaces else {t for s in hero.pos.spaces for t in board.tiles_of(board.index(s))}
    nearby = _touching_tiles(board, tiles) - tiles
    taken = set(sc.taken) | set(sc.hero_near)
    spots = [board.index(s) for h in sc.heroes for s in h.pos.spaces]
    placed: list[int] = []
    for ring in (tiles, nearby):
        free = [c for c in range(board.size) if board.tiles_of(c) & ring and c not in taken]

        def far(c: int) -> tuple[int, int, int]:
            cx, cy = c % board.width, c // board.width
            nearest = min((chebyshev(board, c, h) for h in spots), default=0)
            spread = min(((cx - h % board.width) ** 2 + (cy - h // board.width) ** 2 for h in spots), default=0)
            return (-nearest, -spread, c)

        for c in sorted(free, key=far):
            if len(placed) == count:
                break
            if c not in taken:
                placed.append(c)
                taken.add(c)
    return tuple(board.xy(c) for c in placed), count - len(placed)


def _touching_tiles(board: Board, tiles: set[int]) -> set[int]:
    """The Map Tiles that share a side (a Wall, Door or Window) with any of `tiles`."""
    out = set(tiles)
    width = board.width
    for c in range(board.size):
        if not board.tiles_of(c) & tiles:
            continue
        x, y = c % width, c // width
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < width and 0 <= ny < board.height:
                out |= board.tiles_of(ny * width + nx)
    return out


__all__ = [
    "Aim", "Scene", "adjacent_heroes", "aim", "ambush_spaces", "fewest_marked",
    "in_sight", "moved", "retreat_path", "rooftop_heroes", "scene", "starts_in_cover",
]  # fmt: skip
