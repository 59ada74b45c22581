"""The board format (docs/board-format.md): a JSON document read, checked and turned into a `Board`.

The rulebooks describe the Town Adventure Board but do not contain the printed map (rules-reference (b) 11), so the
map is data: the default board is drawn from what the rulebooks say, and a table can register a corrected one.
Every problem is a `ContentError` naming where it is (`doors[3]`, `entry_areas.B`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ...codec import decode_content
from ...errors import ContentError, InvalidCommand
from ...meta import meta
from .grid import DIAGONALS, STREET, Board, DiagonalDoor, EntryArea, Space, roof_key

TOWN_ROOFTOPS = ((1,), (2,), (3, 4), (5,), (6,), (7, 8))  # FT-BOARD-12
TOWN_SPACES = {  # special spaces the Missions name, and the Map Tile each must be on (None: the Street)
    "street_centre": None,  # "the center of the street" / "the center of Town" (FT-M4, FT-M6)
    "bank_corner_door": 7,  # the Corner Door space of the Bank, Building 7 (FT-M3)
    "jail_cell": 5,  # the corner space of the Sheriff's Office with the printed 5 (FT-M4)
    "jail_wall_outside": None,  # the outdoor space on the other side of the wall from the Prisoner (FT-M4)
}
MAX_SIDE = 64


class _Check:
    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, where: str, problem: str) -> ContentError:
        return ContentError(f"board {self.name!r}: {where}: {problem}", field=where)


Spaces = tuple[tuple[int, ...], ...]  # [[x, y], ...] as written; `space` checks each is one space on the board


@dataclass(frozen=True, slots=True)
class DiagonalDoorDoc:
    space: tuple[int, ...]
    opens: str = field(metadata=meta(choices=tuple(sorted(DIAGONALS))))


@dataclass(frozen=True, slots=True)
class BuildingDoc:
    name: str = ""


@dataclass(frozen=True, slots=True)
class BoardDoc:
    """A board document as written (docs/board-format.md); `load_board` checks the geometry across its fields."""

    name: str = field(metadata=meta(pattern=r"\S"))
    rows: tuple[str, ...] = field(metadata=meta(min_items=1))  # one string per row of spaces
    version: int = field(default=0, metadata=meta(minimum=0))
    description: str = ""
    doors: tuple[Spaces, ...] = ()  # pairs of side-by-side spaces
    windows: tuple[Spaces, ...] = ()
    walls: tuple[Spaces, ...] = ()
    diagonal_doors: tuple[DiagonalDoorDoc, ...] = ()
    rooftops: tuple[tuple[int, ...], ...] | None = None  # Building groups; None: a rooftop each
    entry_areas: dict[str, Spaces] = field(default_factory=dict)
    spaces: dict[str, Spaces] = field(default_factory=dict)
    buildings: dict[str, BuildingDoc] = field(default_factory=dict)


def load_board(raw: Any, *, town: bool = True) -> Board:
    """Decode and check a board document and build the board. `town=True` also checks what makes it the Town
    Adventure Board (8 Buildings, the rooftops 3+4 and 7+8 shared, 2 Diagonal Doors, Entry Areas A-D on four edges,
    the Missions' spaces); hand-drawn boards for tests pass `town=False`."""
    if not isinstance(raw, dict):
        raise ContentError("a board is a JSON object")
    try:
        doc: BoardDoc = decode_content(BoardDoc, raw, document="(top level)")
    except ContentError as error:
        name = raw.get("name")
        named = f"board {name!r}" if isinstance(name, str) and name.strip() else "board"
        raise ContentError(f"{named}: {error.message}", field=error.field, rule=error.rule) from None
    check = _Check(doc.name)
    rows = doc.rows
    width = len(rows[0])
    if not 2 <= width <= MAX_SIDE or not 2 <= len(rows) <= MAX_SIDE:
        raise check.fail("rows", f"the board must be 2..{MAX_SIDE} spaces each way")
    for y, row in enumerate(rows):
        if len(row) != width:
            raise check.fail(f"rows[{y}]", f"{len(row)} spaces, the first row has {width}")
        for x, ch in enumerate(row):
            if ch != "." and ch not in "12345678":
                raise check.fail(f"rows[{y}]", f"space ({x},{y}) is {ch!r}: '.' for the Street or a Building 1-8")
    height = len(rows)
    tile = {(x, y): (STREET if ch == "." else int(ch)) for y, row in enumerate(rows) for x, ch in enumerate(row)}
    buildings = sorted({t for t in tile.values() if t != STREET})
    for number in buildings:
        _connected(check, tile, number)

    def space(value: tuple[int, ...], where: str) -> Space:
        if len(value) != 2:
            raise check.fail(where, f"a space is [x, y], not {list(value)!r}")
        x, y = value
        if not (0 <= x < width and 0 <= y < height):
            raise check.fail(where, f"({x},{y}) is off the board ({width}x{height})")
        return x, y

    seen: dict[frozenset[Space], str] = {}

    def sides(key: str, pairs: tuple[Spaces, ...], *, on_wall: bool) -> tuple[tuple[Space, Space], ...]:
        out = []
        for n, pair in enumerate(pairs):
            where = f"{key}[{n}]"
            if len(pair) != 2:
                raise check.fail(where, "a pair of spaces [[x, y], [x, y]]")
            a, b = space(pair[0], f"{where}[0]"), space(pair[1], f"{where}[1]")
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                raise check.fail(where, f"({a[0]},{a[1]}) and ({b[0]},{b[1]}) are not side by side")
            edge = frozenset((a, b))
            if edge in seen:
                raise check.fail(where, f"that side is already given in {seen[edge]}")
            seen[edge] = where
            if not on_wall and tile[a] != tile[b]:
                raise check.fail(where, "the spaces are on different Map Tiles: a Wall is there already")
            out.append((a, b))
        return tuple(out)

    walls = sides("walls", doc.walls, on_wall=False)
    doors = sides("doors", doc.doors, on_wall=True)
    windows = sides("windows", doc.windows, on_wall=True)
    for key, pairs in (("doors", doors), ("windows", windows)):
        for n, (a, b) in enumerate(pairs):
            if tile[a] == tile[b] == STREET:
                raise check.fail(f"{key}[{n}]", "both spaces are on the Street: there is no Wall to open")

    diagonal_doors = []
    for n, entry in enumerate(doc.diagonal_doors):
        where = f"diagonal_doors[{n}]"
        at = space(entry.space, f"{where}.space")
        opens = entry.opens
        building = tile[at]
        if building == STREET:
            raise check.fail(where, f"({at[0]},{at[1]}) is on the Street: a Diagonal Door is a Building's corner space")
        dx, dy = DIAGONALS[opens]
        outside = [(at[0] + dx, at[1]), (at[0], at[1] + dy), (at[0] + dx, at[1] + dy)]
        inside = [(at[0] - dx, at[1]), (at[0], at[1] - dy)]
        if any(not (0 <= s[0] < width and 0 <= s[1] < height) or tile[s] != STREET for s in outside):
            raise check.fail(where, f"the spaces on its {opens} side must be on the Street (a corner facing out)")
        if any(not (0 <= s[0] < width and 0 <= s[1] < height) or tile[s] != building for s in inside):
            raise check.fail(where, f"the spaces behind it must be in Building {building} (a corner of the Building)")
        if any(at in pair for pair in (*doors, *windows)):
            raise check.fail(where, "a Diagonal Door space has no other Door or Window on its sides")
        diagonal_doors.append(DiagonalDoor(building, at, opens))

    rooftops = _rooftops(check, doc.rooftops, buildings, tile)
    entry_areas = _entry_areas(check, doc.entry_areas, tile, width, height, space)
    spaces = {}
    for key, value in doc.spaces.items():
        if not value:
            raise check.fail(f"spaces.{key}", "a non-empty list of spaces [[x, y], ...]")
        spaces[key] = tuple(space(v, f"spaces.{key}[{n}]") for n, v in enumerate(value))
    names = {}
    for key, building_doc in doc.buildings.items():
        if not key.isdigit() or int(key) not in buildings:
            raise check.fail(f"buildings.{key}", f"not a Building on this board ({buildings})")
        names[int(key)] = building_doc.name

    if town:
        _check_town(check, buildings, rooftops, diagonal_doors, entry_areas, spaces, tile)
    return Board(
        name=doc.name,
        version=doc.version,
        description=doc.description,
        rows=rows,
        doors=doors,
        windows=windows,
        walls=walls,
        diagonal_doors=diagonal_doors,
        rooftops=rooftops,
        entry_areas=entry_areas,
        spaces=spaces,
        building_names=names,
        document=raw,
    )


def _connected(check: _Check, tile: dict[Space, int], number: int) -> None:
    cells = {s for s, t in tile.items() if t == number}
    start = min(cells)
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    if seen != cells:
        raise check.fail("rows", f"Building {number} is in pieces: its spaces must join side to side")


def _rooftops(check: _Check, raw: tuple[tuple[int, ...], ...] | None, buildings: list[int],
              tile: dict[Space, int]) -> tuple[tuple[int, ...], ...]:  # fmt: skip
    if raw is None:
        return tuple((b,) for b in buildings)
    if not all(raw):
        raise check.fail("rooftops", "a list of Building groups, e.g. [[1], [2], [3, 4]]")
    groups = []
    for n, group in enumerate(raw):
        for b in group:
            if b not in buildings:
                raise check.fail(f"rooftops[{n}]", f"{b!r} is not a Building on this board ({buildings})")
        groups.append(tuple(sorted(group)))
    listed = sorted(b for g in groups for b in g)
    if listed != buildings:
        raise check.fail("rooftops", f"each Building must have exactly one rooftop; listed {listed}, on the board "
                                     f"{buildings}")  # fmt: skip
    for n, group in enumerate(groups):
        if len(group) > 1 and not _joined(tile, group):
            raise check.fail(f"rooftops[{n}]", f"Buildings {list(group)} share a rooftop but do not touch")
    return tuple(groups)


def _joined(tile: dict[Space, int], group: tuple[int, ...]) -> bool:
    cells = {s for s, t in tile.items() if t in group}
    start = min(cells)
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen == cells


def _entry_areas(
    check: _Check, raw: dict[str, Spaces], tile: dict[Space, int], width: int, height: int, space: Any
) -> tuple[EntryArea, ...]:
    areas = []
    for letter, value in raw.items():
        where = f"entry_areas.{letter}"
        if len(letter) != 1 or not letter.isupper():
            raise check.fail(where, "Entry Areas are named by one capital letter (A-D)")
        if len(value) != 3:
            raise check.fail(where, "3 spaces along a board edge (FT-BOARD-22)")
        cells = [space(v, f"{where}[{n}]") for n, v in enumerate(value)]
        edges = {edge for edge, on_edge in (("N", all(s[1] == 0 for s in cells)),
                                            ("S", all(s[1] == height - 1 for s in cells)),
                                            ("W", all(s[0] == 0 for s in cells)),
                                            ("E", all(s[0] == width - 1 for s in cells))) if on_edge}  # fmt: skip
        if not edges:
            raise check.fail(where, "all 3 spaces must lie on one board edge")
        ordered = sorted(cells)
        line = all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(ordered, ordered[1:], strict=False))
        if not line:
            raise check.fail(where, "the 3 spaces must be side by side in a row")
        if any(tile[s] != STREET for s in cells):
            raise check.fail(where, "Entry Area spaces are on the Street")
        centre = ordered[1]
        areas.append(EntryArea(letter, (centre, ordered[0], ordered[2]), sorted(edges)[0]))
    return tuple(sorted(areas, key=lambda a: a.letter))


def _check_town(
    check: _Check,
    buildings: list[int],
    rooftops: tuple[tuple[int, ...], ...],
    diagonal_doors: list[DiagonalDoor],
    entry_areas: tuple[EntryArea, ...],
    spaces: dict[str, tuple[Space, ...]],
    tile: dict[Space, int],
) -> None:
    if buildings != list(range(1, 9)):
        raise check.fail("rows", f"the Town board has Buildings 1-8 (FT-BOARD-02); found {buildings}")
    if sorted(rooftops) != sorted(TOWN_ROOFTOPS):
        raise check.fail("rooftops", "Buildings 3+4 and 7+8 share a rooftop, the others have their own "
                                     f"(FT-BOARD-12): {[list(g) for g in TOWN_ROOFTOPS]}")  # fmt: skip
    if len(diagonal_doors) != 2 or len({d.building for d in diagonal_doors}) != 2:
        raise check.fail("diagonal_doors", "two Buildings have a Diagonal Door (FT-BOARD-06)")
    if [a.letter for a in entry_areas] != ["A", "B", "C", "D"] or len({a.edge for a in entry_areas}) != 4:
        raise check.fail("entry_areas", "Entry Areas A, B, C and D, one on each board edge (FT-BOARD-22)")
    for key, building in TOWN_SPACES.items():
        if key not in spaces or len(spaces[key]) != 1:
            raise check.fail(f"spaces.{key}", "one space the Missions name; required on the Town board")
        at = spaces[key][0]
        if building is None and tile[at] != STREET:
            raise check.fail(f"spaces.{key}", f"({at[0]},{at[1]}) must be on the Street")
        if building is not None and tile[at] != building:
            raise check.fail(f"spaces.{key}", f"({at[0]},{at[1]}) must be in Building {building}")
    cell, outside = spaces["jail_cell"][0], spaces["jail_wall_outside"][0]
    if abs(cell[0] - outside[0]) + abs(cell[1] - outside[1]) != 1:
        raise check.fail("spaces.jail_wall_outside", "just on the other side of the wall from the jail cell (FT-M4)")


# ---- the registry -------------------------------------------------------------------------------------------
def _read(name: str) -> Any:
    text = resources.files("shared_rules.content").joinpath("boards").joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


BOARDS: dict[str, Board] = {"default": load_board(_read("default.json"))}


def register_board(raw: Any) -> Board:
    """Check a (corrected) Town board document and register it under its name, so sessions can name it."""
    board = load_board(raw, town=True)
    BOARDS[board.name] = board
    return board


def board_named(name: str) -> Board:
    """The registered board of that name (a table's corrected board, or "default")."""
    if name not in BOARDS:
        raise InvalidCommand(f"board: no board named {name!r}; registered: {sorted(BOARDS)}", field="board")
    return BOARDS[name]


def roof_name(board: Board, key: str) -> str:
    """A rooftop in words: "the rooftop of Buildings 3 and 4"."""
    group = board.rooftops[key]
    if len(group) == 1:
        return f"the rooftop of Building {group[0]}"
    return "the rooftop of Buildings " + " and ".join(str(b) for b in group)


__all__ = ["BOARDS", "board_named", "load_board", "register_board", "roof_key", "roof_name"]
