"""The board format: the default Town board loads and satisfies every fact the rulebooks give about the printed map;
a broken document is refused with a ContentError naming where; a table registers a corrected board."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from importlib import resources
from typing import Any

import pytest

from shared_rules import ContentError, InvalidCommand
from shared_rules.rules.board import BOARDS, STREET, board_named, load_board, register_board, roof_name


def default_doc() -> dict[str, Any]:
    text = resources.files("shared_rules.content").joinpath("boards/default.json").read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


def test_the_default_board_is_the_town_the_rulebooks_describe() -> None:
    """FT-BOARD-02/06/12/22: 8 numbered Buildings and one Street, 2 Diagonal Doors, rooftops 3+4 and 7+8 shared
    (5 rooftops), Entry Areas A-D of 3 spaces on the 4 edges with B opposite D (Mission 1 puts them on far sides)."""
    board = board_named("default")
    assert sorted(board.buildings) == list(range(1, 9))
    assert sorted(set(board.tile)) == [STREET, *range(1, 9)]
    assert sorted(board.rooftops) == ["1", "2", "3+4", "5", "6", "7+8"]
    assert len(board.diagonal) == 2
    assert {a.edge for a in board.entry_areas.values()} == {"N", "E", "S", "W"}
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}
    assert opposite[board.entry_areas["B"].edge] == board.entry_areas["D"].edge
    assert all(len(a.spaces) == 3 for a in board.entry_areas.values())
    bank = board.spaces["bank_corner_door"][0]
    assert board.building_at(bank) == 7 and board.index(bank) in board.diagonal  # the Bank's Corner Door (FT-M3)
    cell, outside = board.spaces["jail_cell"][0], board.spaces["jail_wall_outside"][0]
    assert board.building_at(cell) == 5 and board.building_at(outside) == STREET  # Jail Break (FT-M4)


def test_the_default_file_says_the_printed_map_is_not_in_the_rulebooks() -> None:
    assert "NOT in the rulebooks" in default_doc()["description"]


def test_rooftop_names_read_like_the_book() -> None:
    board = board_named("default")
    assert roof_name(board, "3+4") == "the rooftop of Buildings 3 and 4"
    assert roof_name(board, "5") == "the rooftop of Building 5"


def broken(path: list[Any], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(default_doc())
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "where", "words"),
    [
        (["rows", 3], "." * 24, "rows[3]", "24 spaces"),
        (["rows", 0], "x" + "." * 24, "rows[0]", "'.' for the Street"),
        (["doors", 0], [[4, 5], [6, 5]], "doors[0]", "not side by side"),
        (["doors", 0], [[4, 5], [99, 5]], "doors[0][1]", "off the board"),
        (["doors", 1], [[4, 5], [5, 5]], "doors[1]", "already given in doors[0]"),
        (["doors", 0], [[12, 12], [12, 13]], "doors[0]", "no Wall to open"),
        (["walls"], [[[0, 0], [1, 1]]], "walls[0]", "not side by side"),
        (["walls"], [[[4, 5], [5, 5]]], "walls[0]", "a Wall is there already"),
        (["diagonal_doors", 0, "opens"], "NE", "diagonal_doors[0]", "must be on the Street"),
        (["diagonal_doors", 0, "space"], [12, 12], "diagonal_doors[0]", "on the Street"),
        (["rooftops"], [[1], [2], [3], [4], [5], [6], [7, 8]], "rooftops", "FT-BOARD-12"),
        (["rooftops"], [[1], [2], [3, 4], [5], [6], [7]], "rooftops", "exactly one rooftop"),
        (["rooftops"], [[1, 2], [3, 4], [5], [6], [7, 8]], "rooftops[0]", "do not touch"),
        (["entry_areas", "B"], [[24, 11], [24, 12], [23, 13]], "entry_areas.B", "one board edge"),
        (["entry_areas", "B"], [[24, 10], [24, 12], [24, 13]], "entry_areas.B", "side by side"),
        (["entry_areas", "D"], _DELETE, "entry_areas", "one on each board edge"),
        (["spaces", "jail_cell"], _DELETE, "spaces.jail_cell", "required on the Town board"),
        (["spaces", "bank_corner_door"], [[12, 12]], "spaces.bank_corner_door", "in Building 7"),
        (["spaces", "jail_wall_outside"], [[12, 12]], "spaces.jail_wall_outside", "other side of the wall"),
        (["buildings", "9"], {"name": "Mill"}, "buildings.9", "not a Building"),
        (["colour"], "red", "colour", "unknown field(s) ['colour']"),
    ],
)
def test_a_broken_board_is_refused_naming_where(path: list[Any], value: Any, where: str, words: str) -> None:
    with pytest.raises(ContentError) as caught:
        load_board(broken(path, value))
    assert caught.value.field == where
    assert words in caught.value.message and where in caught.value.message


def test_a_building_in_pieces_is_refused() -> None:
    doc = default_doc()
    doc["rows"][23] = "1" + "." * 24  # a stray space of Building 1 far from the rest
    with pytest.raises(ContentError, match="Building 1 is in pieces"):
        load_board(doc)


def test_the_town_checks_want_8_buildings() -> None:
    doc = default_doc()
    doc["rows"] = [row.replace("8", "7") for row in doc["rows"]]
    doc["rooftops"] = [[1], [2], [3, 4], [5], [6], [7]]
    with pytest.raises(ContentError, match="Buildings 1-8"):
        load_board(doc)


def test_a_table_registers_a_corrected_board_and_names_it() -> None:
    """The printed map is not in the rulebooks: a table loads its own (rules-reference (b) 11)."""
    doc = default_doc()
    doc["name"] = "our-printed-board"
    doc["windows"] = doc["windows"][:-1]
    board = register_board(doc)
    try:
        assert board_named("our-printed-board") is board
        assert len(board.windows) == len(board_named("default").windows) - 1
    finally:
        BOARDS.pop("our-printed-board")
    with pytest.raises(InvalidCommand, match="no board named 'nowhere'") as caught:
        board_named("nowhere")
    assert caught.value.field == "board"


def test_a_hand_drawn_board_skips_the_town_checks() -> None:
    board = load_board({"name": "tiny", "rows": ["..", ".1"]}, town=False)
    assert board.rooftops == {"1": (1,)} and board.building_at((1, 1)) == 1
    with pytest.raises(ContentError, match="Buildings 1-8"):
        load_board({"name": "tiny", "rows": ["..", ".1"]})


def test_the_board_and_bandit_packages_load_only_the_standard_library() -> None:
    """shared_rules imports only the standard library (the engine-wide probe does not import these packages)."""
    probe = (
        "import json, sys\n"
        "before = set(sys.modules)\n"
        "import shared_rules.rules.board, shared_rules.rules.bandits\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    loaded = json.loads(result.stdout)
    assert "shared_rules.rules.bandits.ai" in loaded
    outside = [n for n in loaded if n.split(".")[0] not in sys.stdlib_module_names and n.split(".")[0] != "shared_rules"]
    assert outside == []


def test_every_space_of_the_default_board_can_be_walked_to_but_the_jail_cell() -> None:
    """Each Building has a way in (a Door); the jail cell is shut behind barred Windows (our drawing)."""
    from shared_rules.rules.board.moves import bfs

    board = board_named("default")
    dist, _ = bfs(board, [board.index(board.spaces["street_centre"][0])])
    unreachable = [board.xy(c) for c, d in enumerate(dist) if d < 0]
    assert unreachable == [board.spaces["jail_cell"][0]]
