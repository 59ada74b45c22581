"""Cover and the Cover Save (FT-BOARD-04..10, FT-BOARD-13, FT-BOARD-07) on hand-drawn boards, with typed-in dice."""

from __future__ import annotations

import pytest

from shared_rules.rules.board import (
    HitKind,
    Pos,
    Requests,
    cover,
    cover_saves,
    drive,
    has_cover,
    lean_options,
)
from tests.rules.board.boards import at, draw

# y0 .......
# y1 .111...     Building 1: a Door on its east side at y2, a Window on its west side at y3
# y2 .111...
# y3 .111...
# y4 .......
HOUSE = draw(
    [".......", ".111...", ".111...", ".111...", "......."],
    doors=[((3, 2), (4, 2))],
    windows=[((1, 3), (0, 3))],
)
CORNER = draw(["111..", "111..", "111..", ".....", "....."], diagonal=[((2, 2), "SE")])


def test_behind_a_door_a_model_has_cover_from_the_other_side() -> None:
    """FT-BOARD-04: a model at a Door is in Cover against Attacks from the other side of it."""
    at_door = at(3, 2)
    found = cover(HOUSE, at_door, at(6, 3))
    assert found is not None and found.describe(HOUSE) == "behind the door of building 1"
    assert not has_cover(HOUSE, at_door, at(1, 1))  # from its own side of the Door
    assert not has_cover(HOUSE, at_door, at(4, 2))  # adjacent: no Cover Save (FT-BOARD-07)
    assert not has_cover(HOUSE, at(4, 2), at(0, 0))  # nothing between them but open street


def test_behind_a_window_too() -> None:
    """FT-BOARD-05: for sight and Cover, Windows work like Doors."""
    assert cover(HOUSE, at(1, 3), at(0, 0)) is None  # (0,0) cannot see (1,3) at all: the Wall
    assert cover(HOUSE, at(1, 3), at(0, 3)) is None  # adjacent through the Window: no Cover Save
    found = cover(HOUSE, at(1, 3), at(0, 4))  # the arc's edge, past the Window's corner
    assert found is not None and found.describe(HOUSE) == "behind the window of building 1"
    found = cover(HOUSE, at(0, 3), at(2, 2))  # a street model at the Window, shot from inside
    assert found is not None and found.describe(HOUSE) == "behind the window of building 1"


def test_leaning_around_a_corner_covers_against_the_far_side_of_the_wall_line() -> None:
    """FT-BOARD-08: at (0,1) beside the west Wall, leaning north into (0,0): Cover against attacks from beyond the
    line extended from that Wall (x >= 1), none from this side of it."""
    lean = Pos((0, 1), lean=(0, 0))
    assert lean in lean_options(HOUSE, (0, 1))
    found = cover(HOUSE, lean, at(4, 0))
    assert found is not None and found.describe(HOUSE) == "leaning around the corner of building 1"
    assert has_cover(HOUSE, lean, at(2, 0))
    assert not has_cover(HOUSE, lean, at(0, 4))  # from this side of the line: no Cover
    assert not has_cover(HOUSE, lean, at(1, 0))  # adjacent


def test_leaning_in_a_doorway_covers_against_the_side_it_faces() -> None:
    """FT-BOARD-09: on the Door's line, facing the Street (0) or the Building (1), Cover from that direction."""
    facing_street = Pos((4, 2), lean=(3, 2), facing=0)
    facing_in = Pos((4, 2), lean=(3, 2), facing=1)
    assert {facing_street, facing_in} <= set(lean_options(HOUSE, (4, 2)))
    assert has_cover(HOUSE, facing_street, at(6, 0)) and not has_cover(HOUSE, facing_street, at(1, 1))
    assert has_cover(HOUSE, facing_in, at(1, 1)) and not has_cover(HOUSE, facing_in, at(6, 0))
    found = cover(HOUSE, facing_in, at(1, 1))
    assert found is not None and found.describe(HOUSE) == "leaning in the doorway of building 1"


def test_no_leaning_at_a_diagonal_door() -> None:
    """FT-BOARD-09 and the FAQ: a Diagonal Door is within one space; no splitting it."""
    assert lean_options(CORNER, (2, 2)) == ()


def test_a_diagonal_door_covers_against_the_direction_faced() -> None:
    """FT-BOARD-06: facing the Street, Cover from the Street; facing in, Cover from inside."""
    out, inward = Pos((2, 2), facing=0), Pos((2, 2), facing=1)
    assert has_cover(CORNER, out, at(4, 4)) and not has_cover(CORNER, out, at(0, 0))
    assert has_cover(CORNER, inward, at(0, 0)) and not has_cover(CORNER, inward, at(4, 4))
    found = cover(CORNER, out, at(4, 4))
    assert found is not None and found.describe(CORNER) == "in the corner door of building 1"


def test_a_rooftop_model_has_cover_from_all_but_its_own_rooftop() -> None:
    """FT-BOARD-13."""
    roof = Pos.on_roof("1")
    assert has_cover(HOUSE, roof, at(6, 0))
    assert not has_cover(HOUSE, roof, Pos.on_roof("1"))


@pytest.mark.parametrize("kind", [HitKind.HORROR, HitKind.CORRUPTION, HitKind.DYNAMITE, HitKind.MARKER])
def test_cover_does_nothing_against_horror_corruption_dynamite_or_markers(kind: HitKind) -> None:
    """FT-BOARD-07: only regular Hits."""
    assert has_cover(HOUSE, at(3, 2), at(6, 3))
    assert not has_cover(HOUSE, at(3, 2), at(6, 3), kind=kind)
    assert not has_cover(HOUSE, Pos.on_roof("1"), at(6, 0), kind=kind)


def test_the_cover_save_ignores_each_hit_on_4_5_or_6() -> None:
    """FT-BOARD-07: a D6 for each Hit, before Defense; 4+ ignores it. Dice typed in: 1, 4, 6 -> 1 Hit left."""
    assert drive(cover_saves(Requests(), 3, who="Bandit 2"), dice=[1, 4, 6]) == 1
    assert drive(cover_saves(Requests(), 2, who="Bandit 2"), dice=[3, 2]) == 2
    assert drive(cover_saves(Requests(), 0, who="Bandit 2")) == 0
