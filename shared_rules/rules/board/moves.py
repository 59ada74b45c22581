"""Adjacency and movement on the Town board: who is adjacent, where a model may step, shortest paths that honour
models and Walls, Entry Areas, and checks that refuse a model placed in a Wall or moved through one.

Steps come from the board's precomputed neighbour lists (FT-BOARD-03/04/06/11): straight through a Door, never
through a Wall or Window (a Hero may jump a Window for 1 Grit: mover "window", FT-BOARD-05), diagonally around a
Building's outside corner but not over Walls that cover the cross point (A37). XL models ignore Walls ("xl",
FT-BOARD-03); flyers pass over Buildings but enter one only through a Door ("fly", FT-BOARD-17).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from ...errors import IllegalCommand, InvalidCommand
from .grid import DOOR, OPEN, SIDES, STREET, WINDOW, Board, Space, side_towards
from .model import Model, Pos

MOVERS = ("walk", "window", "xl", "fly")


def neighbour_lists(board: Board, mover: str = "walk") -> tuple[tuple[int, ...], ...]:
    """The spaces each space may step to, for a kind of mover."""
    if mover == "walk":
        return board.steps
    if mover == "xl":
        return board.xl_steps
    if mover == "window":
        return tuple(s + w for s, w in zip(board.steps, board.window_steps, strict=True))
    raise ValueError(f"mover {mover!r}: one of walk, window, xl (fly has its own search)")


# ---- adjacency ------------------------------------------------------------------------------------------------
def spaces_adjacent(board: Board, a: Space, b: Space) -> bool:
    """Two spaces are adjacent unless a Wall with no Door or Window separates them (FT-BOARD-03, FF-MOVE-06)."""
    return board.index(b) in board.adjacent[board.index(a)]


def adjacent(board: Board, a: Pos, b: Pos) -> bool:
    """Two models are adjacent: on the same rooftop (FT-BOARD-13), or in adjacent spaces, a model splitting a space
    counting from either space (FT-BOARD-10, FT-FAQ-04). A rooftop model is adjacent to no ground model. Melee is
    between adjacent models, so never through a Wall, only across a Door or Window (FT-FAQ-02)."""
    if a.entry or b.entry:
        return False
    if a.roof or b.roof:
        return a.roof == b.roof
    near = board.adjacent
    return any(board.index(y) in near[board.index(x)] for x in a.spaces for y in b.spaces)


def adjacent_spaces(board: Board, pos: Pos) -> frozenset[int]:
    """Every ground space adjacent to a model (the spaces a Bandit must not end in, FT-BANDIT-05)."""
    out: set[int] = set()
    for space in pos.spaces:
        out |= board.adjacent[board.index(space)]
    return frozenset(out)


def map_tiles(board: Board, pos: Pos) -> frozenset[int]:
    """The Map Tiles a model is on (FT-BOARD-02): its space's Building or the Street (0); a Diagonal Door space is on
    both (FT-BOARD-06), a split model on those of both spaces, a rooftop model on the Street (FT-BOARD-13); a model off
    the board is on none. What Terror, Desperation or "a Building with no Enemies" read."""
    if pos.roof:
        return frozenset((STREET,))
    out: set[int] = set()
    for space in pos.spaces:
        out |= board.tiles_of(board.index(space))
    return frozenset(out)


# ---- occupancy ------------------------------------------------------------------------------------------------
def occupied(board: Board, models: Iterable[Model], *, but: Iterable[str] = ()) -> frozenset[int]:
    """The ground spaces models stand in (both spaces of a model splitting a space, FT-BOARD-10)."""
    skip = set(but)
    return frozenset(board.index(s) for m in models if m.id not in skip for s in m.pos.spaces)


# ---- searching ------------------------------------------------------------------------------------------------
def bfs(
    board: Board,
    sources: Iterable[int],
    *,
    blocked: frozenset[int] | set[int] = frozenset(),
    limit: int | None = None,
    mover: str = "walk",
) -> tuple[list[int], list[int]]:
    """Steps from the nearest source to every space (-1: unreachable) and each space's previous space on a
    shortest path. `blocked` spaces are never entered; sources cost 0."""
    size = board.size
    dist = [-1] * size
    parent = [-1] * size
    queue = []
    for s in sources:
        if dist[s] < 0:
            dist[s] = 0
            queue.append(s)
    steps = neighbour_lists(board, mover)
    head = 0
    while head < len(queue):
        cur = queue[head]
        head += 1
        d = dist[cur]
        if limit is not None and d >= limit:
            continue
        for nxt in steps[cur]:
            if dist[nxt] < 0 and nxt not in blocked:
                dist[nxt] = d + 1
                parent[nxt] = cur
                queue.append(nxt)
    return dist, parent


def path_to(parent: Sequence[int], end: int) -> list[int]:
    """The spaces from a search's source to `end`, both included."""
    out = [end]
    while parent[out[-1]] >= 0:
        out.append(parent[out[-1]])
    out.reverse()
    return out


def start_spaces(board: Board, pos: Pos) -> tuple[int, ...]:
    """Where a move starts: the model's space(s), or the 3 spaces of its Entry Area when it comes on from off the
    board (its move is counted from any of them, FT-BOARD-22). A rooftop model has no ground start."""
    if pos.entry:
        return tuple(board.index(s) for s in board.entry_areas[pos.entry].spaces)
    return tuple(board.index(s) for s in pos.spaces)


def shortest_path(
    board: Board,
    start: Pos,
    goals: Iterable[Space],
    *,
    blocked: Iterable[Space] = (),
    mover: str = "walk",
) -> tuple[Space, ...] | None:
    """A shortest path from a model's position to the nearest goal space, through no blocked space (other models,
    the Gallows ...), start and goal included; None if no goal can be reached."""
    wanted = {board.index(g) for g in goals}
    stop = frozenset(board.index(b) for b in blocked) - wanted
    dist, parent = bfs(board, start_spaces(board, start), blocked=stop, mover=mover)
    reached = [g for g in wanted if dist[g] >= 0]
    if not reached:
        return None
    end = min(reached, key=lambda g: (dist[g], g))
    return tuple(board.xy(c) for c in path_to(parent, end))


def reachable(
    board: Board, start: Pos, move: int, *, blocked: Iterable[Space] = (), mover: str = "walk"
) -> dict[Space, int]:
    """Every space a model can end a move of `move` steps in, with its cost (occupied spaces excluded)."""
    stop = frozenset(board.index(b) for b in blocked)
    dist, _ = bfs(board, start_spaces(board, start), blocked=stop, limit=move, mover=mover)
    return {board.xy(c): d for c, d in enumerate(dist) if d >= 0 and c not in stop}


def fly(
    board: Board, start: Pos, move: int, *, blocked: Iterable[Space] = ()
) -> tuple[dict[Space, int], dict[str, int]]:
    """Where a flyer can end a move (FT-BOARD-17): ground spaces with their cost, and rooftops with theirs.

    In the air it passes over Walls, Buildings and models; it lands or takes off only on the Street, so it gets
    inside a Building on foot, through a Door; over a Building's spaces it is on that rooftop.
    """
    size = board.size
    stop = frozenset(board.index(b) for b in blocked)
    best = [-1] * (2 * size)  # [0, size): walking; [size, 2 size): in the air
    todo: deque[int] = deque()
    for s in start_spaces(board, start):
        best[s] = 0
        todo.append(s)
    street = [board.tile[c] == STREET or c in board.diagonal for c in range(size)]
    while todo:
        state = todo.popleft()
        cost = best[state]
        cell, air = state % size, state >= size
        if street[cell]:  # take off or land at no cost
            other = cell if air else cell + size
            if (best[other] < 0 or best[other] > cost) and (air is False or cell not in stop):
                best[other] = cost
                todo.appendleft(other)
        if cost >= move:
            continue
        if air:
            for nxt in board.xl_steps[cell]:
                if best[nxt + size] < 0 or best[nxt + size] > cost + 1:
                    best[nxt + size] = cost + 1
                    todo.append(nxt + size)
        else:
            for nxt in board.steps[cell]:
                if (best[nxt] < 0 or best[nxt] > cost + 1) and nxt not in stop:
                    best[nxt] = cost + 1
                    todo.append(nxt)
    ground = {board.xy(c): best[c] for c in range(size) if best[c] >= 0 and c not in stop}
    roofs: dict[str, int] = {}
    for key, cells in board.roof_spaces.items():
        costs = [best[c + size] for c in cells if best[c + size] >= 0]
        if costs:
            roofs[key] = min(costs)
    return ground, roofs


# ---- Entry Areas ----------------------------------------------------------------------------------------------
def entry_placement(board: Board, letter: str, count: int, *, occupied: Iterable[Space] = ()) -> tuple[Space, ...]:
    """Where `count` new models go at an Entry Area: the centre space first, then the two beside it (FT-BOARD-22);
    beyond those, the nearest empty spaces (A47)."""
    area = board.entry_areas[letter]
    taken = {board.index(s) for s in occupied}
    order = [board.index(s) for s in area.spaces]
    dist, _ = bfs(board, [order[0]])
    rest = sorted((c for c in range(board.size) if dist[c] > 0 and c not in order), key=lambda c: (dist[c], c))
    out = [c for c in order + rest if c not in taken][:count]
    return tuple(board.xy(c) for c in out)


def entry_front(board: Board, letter: str) -> tuple[Space, ...]:
    """The 3 spaces directly in front of an Entry Area, one step in from the edge (Mission 1's start, FT-M1)."""
    area = board.entry_areas[letter]
    dx, dy = {"N": (0, 1), "S": (0, -1), "W": (1, 0), "E": (-1, 0)}[area.edge]
    return tuple((x + dx, y + dy) for x, y in area.spaces)


def edge_spaces(board: Board, letter: str) -> tuple[Space, ...]:
    """Every Street space along the board edge that holds an Entry Area (Hanging High's start, FT-M2)."""
    edge = board.entry_areas[letter].edge
    last_x, last_y = board.width - 1, board.height - 1
    cells = [(x, y) for y in range(board.height) for x in range(board.width)
             if {"N": y == 0, "S": y == last_y, "W": x == 0, "E": x == last_x}[edge]]  # fmt: skip
    return tuple(c for c in cells if board.tile[board.index(c)] == STREET)


def steps_to_exit(board: Board, start: Pos, letter: str, *, blocked: Iterable[Space] = ()) -> int | None:
    """Steps to move off the board at an Entry Area: into any of its spaces, then 1 more (FT-BOARD-22)."""
    path = shortest_path(board, start, board.entry_areas[letter].spaces, blocked=blocked)
    return None if path is None else len(path)


# ---- splitting a space: Leaning (FT-BOARD-08/09) -------------------------------------------------------------
def _perpendiculars(dx: int, dy: int) -> tuple[tuple[int, int], tuple[int, int]]:
    return ((0, 1), (0, -1)) if dx else ((1, 0), (-1, 0))


def corner_walls(board: Board, space: Space, lean: Space) -> tuple[tuple[int, int], ...]:
    """For a model in `space` leaning toward `lean`: the directions (from `space`) of the Building Walls whose
    outside corner it leans around. A wall at the side of `space` that ends at the line between the two spaces and
    turns the Building's corner there (FT-BOARD-08)."""
    sides = board.sides
    s, f = board.index(space), board.index(lean)
    dx, dy = lean[0] - space[0], lean[1] - space[1]
    facing_side = side_towards(dx, dy)
    out = []
    for px, py in _perpendiculars(dx, dy):
        wall = side_towards(px, py)
        corner = (space[0] + px, space[1] + py)
        if (
            board.on_board(corner)
            and sides[s][wall] != OPEN
            and sides[f][wall] == OPEN
            and sides[board.index(corner)][facing_side] != OPEN
        ):
            out.append((px, py))
    return tuple(out)


def lean_options(board: Board, space: Space) -> tuple[Pos, ...]:  # none in a Diagonal Door (FT-FAQ-03)
    """The ways a model in `space` may split the space for 1 movement point: onto a Door's line facing either side
    (FT-BOARD-09), or around the outside corner of a Building Wall (FT-BOARD-08); never at a Diagonal Door (FAQ)."""
    s = board.index(space)
    known: tuple[Pos, ...] | None = board.memo.get(("leans", s))
    if known is None:
        known = _leans(board, space, s)
        board.memo[("leans", s)] = known
    return known


def _leans(board: Board, space: Space, s: int) -> tuple[Pos, ...]:
    if s in board.diagonal:
        return ()
    out = []
    for side, (dx, dy) in enumerate(SIDES):
        other = (space[0] + dx, space[1] + dy)
        if not board.on_board(other):
            continue
        o = board.index(other)
        if o in board.diagonal:
            continue
        kind = board.sides[s][side]
        if kind == DOOR:
            for facing in sorted({board.tile[s], board.tile[o]}):
                out.append(Pos(space, lean=other, facing=facing))
        elif kind == OPEN and corner_walls(board, space, other):
            out.append(Pos(space, lean=other))
    return tuple(out)


# ---- checking what the table says -----------------------------------------------------------------------------
def check_position(board: Board, pos: Pos, *, field: str = "position") -> None:
    """Refuse a position that cannot exist on this board: off the board, a split that is no Lean, a facing where
    none is chosen, an unknown rooftop or Entry Area (IllegalCommand naming the field and rule)."""
    kinds = sum(1 for part in (pos.space is not None, bool(pos.roof), bool(pos.entry)) if part)
    if kinds != 1:
        raise InvalidCommand(f"{field}: a model is in one space, on one rooftop or off the board at one Entry Area",
                             field=field)  # fmt: skip
    if pos.roof:
        if pos.roof not in board.rooftops:
            raise IllegalCommand(f"{field}: no rooftop {pos.roof!r} on this board ({sorted(board.rooftops)})",
                                 field=field, rule="FT-BOARD-12")  # fmt: skip
        return
    if pos.entry:
        if pos.entry not in board.entry_areas:
            raise IllegalCommand(f"{field}: no Entry Area {pos.entry!r}", field=field, rule="FT-BOARD-22")
        return
    for space in pos.spaces:
        if not board.on_board(space):
            raise IllegalCommand(f"{field}: ({space[0]},{space[1]}) is off the board", field=field,
                                 rule="FT-BOARD-02")  # fmt: skip
    assert pos.space is not None
    at = board.index(pos.space)
    if pos.lean is not None:
        if pos not in lean_options(board, pos.space):
            raise IllegalCommand(
                f"{field}: {pos.describe()} is no Lean: a model splits a space only at the outside corner of a "
                "Building Wall or on a Door's line, facing one side (not at a Diagonal Door)",
                field=field, rule="FT-BOARD-08",
            )  # fmt: skip
        return
    if at in board.diagonal:
        if pos.facing not in board.tiles_of(at):
            raise IllegalCommand(f"{field}: a model in a Diagonal Door space faces the Street (0) or the Building "
                                 f"({board.tile[at]})", field=field, rule="FT-BOARD-06")  # fmt: skip
    elif pos.facing is not None:
        raise InvalidCommand(f"{field}: only a model in a Diagonal Door space or leaning in a doorway has a facing",
                             field=field)  # fmt: skip


def check_placement(
    board: Board, models: Iterable[Model], model_id: str, pos: Pos, *, blocked: Iterable[Space] = (),
    field: str = "position",
) -> None:
    """Refuse putting a model where it cannot stand (the table correcting a proposed position): a position the board
    does not have, or a space another model or an obstacle holds (FF-MOVE-02, FT-BOARD-10)."""
    check_position(board, pos, field=field)
    held = occupied(board, models, but=[model_id]) | {board.index(b) for b in blocked}
    for space in pos.spaces:
        if board.index(space) in held:
            raise IllegalCommand(f"{field}: ({space[0]},{space[1]}) is already taken", field=field,
                                 rule="FF-MOVE-02")  # fmt: skip


def openings_of(board: Board, building: int) -> tuple[tuple[Space, Space, str], ...]:
    """A Building's Doors and Windows as (its space, the space outside, "door" or "window"), Diagonal Doors as
    (the door space, the same space, "diagonal door"): where Bank Robbers fire from (FT-M3, A30)."""
    out = []
    for kind, pairs in (("door", board.doors), ("window", board.windows)):
        for a, b in pairs:
            tiles = (board.building_at(a), board.building_at(b))
            if building in tiles and tiles[0] != tiles[1]:
                inside, outside = (a, b) if tiles[0] == building else (b, a)
                out.append((inside, outside, kind))
    out += [(d.space, d.space, "diagonal door") for d in board.diagonal.values() if d.building == building]
    return tuple(out)


def check_path(
    board: Board,
    path: Sequence[Space],
    *,
    blocked: Iterable[Space] = (),
    mover: str = "walk",
    field: str = "path",
) -> None:
    """Refuse a move the board does not allow, naming the step: through a Wall or Window, diagonally through a
    Door or over a Wall corner, or into a space another model holds (FT-BOARD-03/04/05, FF-MOVE-02)."""
    stop = {board.index(b) for b in blocked}
    steps = neighbour_lists(board, mover)
    for n, (a, b) in enumerate(zip(path, path[1:], strict=False)):
        where = f"{field}[{n + 1}]"
        if not board.on_board(b):
            raise IllegalCommand(f"{where}: ({b[0]},{b[1]}) is off the board", field=where, rule="FT-BOARD-02")
        i, j = board.index(a), board.index(b)
        if j not in steps[i]:
            dx, dy = b[0] - a[0], b[1] - a[1]
            if max(abs(dx), abs(dy)) != 1:
                raise IllegalCommand(f"{where}: ({a[0]},{a[1]}) to ({b[0]},{b[1]}) is not one step", field=where,
                                     rule="FF-MOVE-02")  # fmt: skip
            if dx and dy:
                raise IllegalCommand(f"{where}: no diagonal step from ({a[0]},{a[1]}) to ({b[0]},{b[1]}): a Wall "
                                     "covers the corner, or a Door is passed only straight", field=where,
                                     rule="FT-BOARD-04")  # fmt: skip
            kind = board.sides[i][side_towards(dx, dy)]
            what, rule = {WINDOW: ("a Window (a Hero jumps one for 1 Grit)", "FT-BOARD-05")}.get(
                kind, ("a Wall", "FT-BOARD-03")
            )
            raise IllegalCommand(f"{where}: ({a[0]},{a[1]}) to ({b[0]},{b[1]}) goes through {what}", field=where,
                                 rule=rule)  # fmt: skip
        if j in stop:
            raise IllegalCommand(f"{where}: ({b[0]},{b[1]}) holds another model", field=where, rule="FF-MOVE-02")


def opening_between(board: Board, a: Space, b: Space) -> str:
    """What is between two side-by-side spaces: "open", "wall", "door" or "window"."""
    kind = board.sides[board.index(a)][side_towards(b[0] - a[0], b[1] - a[1])]
    return {OPEN: "open", DOOR: "door", WINDOW: "window"}.get(kind, "wall")
