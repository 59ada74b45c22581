"""The Town Adventure Board as geometry: a grid of spaces on 9 Map Tiles (the Street and Buildings 1-8), the kind
of every side between two spaces (open, Wall, Door, Window), diagonal doors, rooftops and entry areas.

Inside the engine a space is the integer `y * width + x`; the public functions take and return `(x, y)` pairs.
What queries need often (where a model may step, what is adjacent, who touches which roof) is computed once when
the board is built, so a Bandit's search is a breadth-first walk over small integers (FT-BOARD-02..06, A37).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

Space = tuple[int, int]  # (x, y), x to the right, y down, (0, 0) the top-left space

STREET = 0  # the Street Area's tile number; Buildings are 1..8 (FT-BOARD-02)

# the kind of a side between two spaces
OPEN, WALL, DOOR, WINDOW = 0, 1, 2, 3
KIND_NAMES = ("open", "wall", "door", "window")

# the four sides of a space, and the step across each
N, E, S, W = 0, 1, 2, 3
SIDES = ((0, -1), (1, 0), (0, 1), (-1, 0))
SIDE_NAMES = ("N", "E", "S", "W")
DIAGONALS = {"NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1)}


def side_towards(dx: int, dy: int) -> int:
    """The side of a space crossed by an orthogonal step (dx, dy)."""
    if dx:
        return E if dx > 0 else W
    return S if dy > 0 else N


@dataclass(frozen=True, slots=True)
class DiagonalDoor:
    """A Diagonal Door: a single corner space of a Building, cut by the door, on both the Building and the Street
    (FT-BOARD-06). `opens` is the diagonal it faces out on (toward the intersection), e.g. "SE"."""

    building: int
    space: Space
    opens: str


@dataclass(frozen=True, slots=True)
class EntryArea:
    """An Entry Area on a board edge: 3 spaces, the centre first (FT-BOARD-22)."""

    letter: str
    spaces: tuple[Space, ...]  # centre first, then the two beside it
    edge: str  # "N", "E", "S" or "W"


class Board:
    """A validated board with its adjacency precomputed. Treat it as immutable; build one with `load_board`.

    Every attribute is computed in `__init__` from the validated document; the only thing that grows later is the
    memo of traced lines, a pure cache (the same two spaces always give the same line).
    """

    __slots__ = (
        "name", "version", "description", "width", "height", "size", "tile", "sides", "diagonal", "steps",
        "adjacent", "window_steps", "xl_steps", "buildings", "building_names", "rooftops", "roof_of", "roof_spaces",
        "roof_near", "roof_index", "entry_areas", "spaces", "doors", "windows", "walls", "document", "_sight",
        "_roof_sight", "_roof_closest", "_roof_gap", "memo",
    )  # fmt: skip

    def __init__(
        self,
        *,
        name: str,
        version: int,
        description: str,
        rows: tuple[str, ...],
        doors: Iterable[tuple[Space, Space]] = (),
        windows: Iterable[tuple[Space, Space]] = (),
        walls: Iterable[tuple[Space, Space]] = (),
        diagonal_doors: Iterable[DiagonalDoor] = (),
        rooftops: Iterable[tuple[int, ...]] = (),
        entry_areas: Iterable[EntryArea] = (),
        spaces: dict[str, tuple[Space, ...]] | None = None,
        building_names: dict[int, str] | None = None,
        document: dict[str, object] | None = None,
    ) -> None:
        self.name = name
        self.version = version
        self.description = description
        self.height = len(rows)
        self.width = len(rows[0])
        self.size = self.width * self.height
        width = self.width
        self.tile: tuple[int, ...] = tuple(STREET if ch == "." else int(ch) for row in rows for ch in row)
        self.doors = tuple(doors)
        self.windows = tuple(windows)
        self.walls = tuple(walls)
        self.diagonal: dict[int, DiagonalDoor] = {self.index(d.space): d for d in diagonal_doors}
        self.document = document or {}
        # the kind of each side of each space: a Wall wherever the Map Tile changes, or at the board edge
        sides = []
        for i in range(self.size):
            x, y = i % width, i // width
            row = []
            for dx, dy in SIDES:
                nx, ny = x + dx, y + dy
                inside = 0 <= nx < width and 0 <= ny < self.height
                row.append(OPEN if inside and self.tile[ny * width + nx] == self.tile[i] else WALL)
            sides.append(row)

        def put(a: Space, b: Space, kind: int) -> None:
            i, j = self.index(a), self.index(b)
            side = side_towards(b[0] - a[0], b[1] - a[1])
            sides[i][side] = kind
            sides[j][(side + 2) % 4] = kind

        for a, b in self.walls:
            put(a, b, WALL)
        for a, b in self.doors:
            put(a, b, DOOR)
        for a, b in self.windows:
            put(a, b, WINDOW)
        for door in self.diagonal.values():  # its two street sides open onto the Street (FT-BOARD-06)
            dx, dy = DIAGONALS[door.opens]
            x, y = door.space
            put(door.space, (x + dx, y), OPEN)
            put(door.space, (x, y + dy), OPEN)
        self.sides: tuple[tuple[int, int, int, int], ...] = tuple((r[0], r[1], r[2], r[3]) for r in sides)

        steps: list[tuple[int, ...]] = []
        adjacent: list[frozenset[int]] = []
        window_steps: list[tuple[int, ...]] = []
        xl_steps: list[tuple[int, ...]] = []
        for i in range(self.size):
            x, y = i % width, i // width
            near = [j for j in self._around(x, y)]
            orth = [(j, side_towards(j % width - x, j // width - y)) for j in near if j % width == x or j // width == y]
            stepping = [j for j, side in orth if self.sides[i][side] in (OPEN, DOOR)]
            stepping += [j for j in near if j % width != x and j // width != y and self._diagonal_ok(i, j)]
            through_windows = tuple(j for j, side in orth if self.sides[i][side] == WINDOW)
            steps.append(tuple(sorted(stepping)))
            window_steps.append(through_windows)
            adjacent.append(frozenset(stepping) | frozenset(through_windows))
            xl_steps.append(tuple(near))
        self.steps = tuple(steps)
        self.adjacent = tuple(adjacent)
        self.window_steps = tuple(window_steps)
        self.xl_steps = tuple(xl_steps)

        buildings: dict[int, list[int]] = {}
        for i, t in enumerate(self.tile):
            if t != STREET:
                buildings.setdefault(t, []).append(i)
        self.buildings: dict[int, tuple[int, ...]] = {b: tuple(cells) for b, cells in sorted(buildings.items())}
        self.building_names = dict(building_names or {})
        groups = tuple(tuple(sorted(g)) for g in rooftops) or tuple((b,) for b in self.buildings)
        self.rooftops: dict[str, tuple[int, ...]] = {roof_key(g): g for g in groups}
        self.roof_of: dict[int, str] = {b: roof_key(g) for g in groups for b in g}
        self.roof_index: dict[str, int] = {key: n for n, key in enumerate(self.rooftops)}
        self.roof_spaces: dict[str, frozenset[int]] = {
            key: frozenset(c for b in g for c in self.buildings.get(b, ())) for key, g in self.rooftops.items()
        }
        # spaces inside a roof's Buildings or touching them (corners included): no sight to or from that roof
        self.roof_near: dict[str, frozenset[int]] = {
            key: frozenset(j for c in cells for j in (c, *self.xl_steps[c])) for key, cells in self.roof_spaces.items()
        }
        self.entry_areas: dict[str, EntryArea] = {area.letter: area for area in entry_areas}
        self.spaces: dict[str, tuple[Space, ...]] = dict(spaces or {})
        self._sight: dict[int, tuple[int, tuple[int, ...]]] = {}
        self._roof_sight: dict[int, tuple[int, int, tuple[int, ...]]] = {}
        self._roof_closest: dict[int, int] = {}
        self._roof_gap: dict[tuple[str, str], tuple[int, int, int]] = {}
        self.memo: dict[tuple[str, int], Any] = {}  # per-board caches of pure queries (e.g. the Leans of a space)

    # ---- coordinates ----------------------------------------------------------------------------------------
    def index(self, space: Space) -> int:
        return space[1] * self.width + space[0]

    def xy(self, index: int) -> Space:
        return index % self.width, index // self.width

    def cells(self, spaces: Iterable[Space]) -> frozenset[int]:
        """Spaces as the engine's indices: what `blockers` (spaces that block sight) are given as."""
        return frozenset(self.index(s) for s in spaces)

    def on_board(self, space: Space) -> bool:
        return 0 <= space[0] < self.width and 0 <= space[1] < self.height

    def _around(self, x: int, y: int) -> list[int]:
        """The up-to-8 spaces around (x, y) that are on the board, in index order."""
        out = []
        for ny in (y - 1, y, y + 1):
            for nx in (x - 1, x, x + 1):
                if (nx, ny) != (x, y) and 0 <= nx < self.width and 0 <= ny < self.height:
                    out.append(ny * self.width + nx)
        return out

    # ---- Map Tiles ------------------------------------------------------------------------------------------
    def tiles_of(self, index: int) -> frozenset[int]:
        """The Map Tiles a space is on: its own, plus the Street for a Diagonal Door space (FT-BOARD-06)."""
        own = self.tile[index]
        return frozenset((own, STREET)) if index in self.diagonal else frozenset((own,))

    def building_at(self, space: Space) -> int:
        """The Building number of a space, 0 on the Street."""
        return self.tile[self.index(space)]

    # ---- diagonal steps -------------------------------------------------------------------------------------
    def _diagonal_ok(self, i: int, j: int) -> bool:
        """May a model step diagonally from i to j? Walls over the cross point between them stop it; the outside
        corner of a Building does not (FT-BOARD-11, FT-FAQ-01, A37); nothing passes a Door or Window diagonally (FT-BOARD-04);
        a Diagonal Door space is left or entered diagonally only straight through its door (FT-BOARD-06, FT-FAQ-03)."""
        width = self.width
        x, y = i % width, i // width
        dx, dy = j % width - x, j // width - y
        for cell, sx, sy in ((i, dx, dy), (j, -dx, -dy)):
            door = self.diagonal.get(cell)
            if door is not None:
                ox, oy = DIAGONALS[door.opens]
                if (sx, sy) not in ((ox, oy), (-ox, -oy)):
                    return False
        if not self.tiles_of(i) & self.tiles_of(j):
            return False
        side_x, side_y = side_towards(dx, 0), side_towards(0, dy)
        via_x, via_y = i + dx, i + dy * width
        sides = self.sides
        return (sides[i][side_x] == OPEN and sides[via_x][side_y] == OPEN) or (
            sides[i][side_y] == OPEN and sides[via_y][side_x] == OPEN
        )


def roof_key(group: Iterable[int]) -> str:
    """A rooftop's name: its Buildings joined with '+', e.g. "3+4" (FT-BOARD-12)."""
    return "+".join(str(b) for b in sorted(group))
