"""Line of Sight and Range on hand-drawn boards: Walls, shut Doors, the arc of an open Door or Window, Diagonal
Doors, leaning models, blockers, and the rooftop rules (FT-BOARD-03..06, FT-BOARD-08/09, FT-BOARD-14)."""

from __future__ import annotations

from shared_rules.rules.board import Pos, distance, in_range, sees, sight
from tests.rules.board.boards import at, draw

HOUSE = draw(
    [".......", ".111...", ".111...", ".111...", "......."],
    doors=[((3, 2), (4, 2))],
    windows=[((1, 3), (0, 3))],
)
CORNER = draw(["111..", "111..", "111..", ".....", "....."], diagonal=[((2, 2), "SE")])
#               x 0123456789AB
ROOFS = draw(["............",  # y0
              ".11...22....",  # y1
              ".11...22....",  # y2
              "............",  # y3
              "....33......",  # y4
              "....33......",  # y5
              "............"])  # fmt: skip


def test_walls_block_sight() -> None:
    """FT-BOARD-03."""
    assert not sees(HOUSE, at(0, 1), at(2, 1))
    assert sees(HOUSE, at(0, 0), at(6, 0)) and sees(HOUSE, at(1, 1), at(3, 3))


def test_a_shut_door_blocks_sight_unless_a_model_stands_at_it() -> None:
    """FT-BOARD-04: the Door is shut unless the viewer or the target is in one of the two spaces touching it."""
    assert not sees(HOUSE, at(6, 2), at(2, 2))  # neither at the Door: it is shut
    assert sees(HOUSE, at(6, 2), at(3, 2))  # the target inside stands at the Door
    assert sees(HOUSE, at(4, 2), at(1, 2))  # the viewer outside stands at the Door
    assert sees(HOUSE, at(3, 2), at(6, 4))  # inside the arc
    assert not sees(HOUSE, at(3, 2), at(4, 4))  # outside the arc: the line meets the Wall
    assert not sees(HOUSE, at(6, 2), at(1, 2)) and not sees(HOUSE, at(1, 2), at(6, 2))


def test_a_window_works_like_a_door_for_sight() -> None:
    """FT-BOARD-05."""
    assert sees(HOUSE, at(1, 3), at(0, 4)) and sees(HOUSE, at(0, 3), at(2, 2))
    assert sees(HOUSE, at(2, 3), at(0, 3))  # the target stands at the Window
    assert not sees(HOUSE, at(2, 3), at(0, 4))  # nobody at it: it blocks like the Wall


def test_a_diagonal_door_space_sees_into_the_building_and_the_street() -> None:
    """FT-BOARD-06: the space is on both Map Tiles; a line passing through it from the Street into the Building meets
    the shut door."""
    assert sees(CORNER, at(2, 2), at(4, 3)) and sees(CORNER, at(2, 2), at(0, 1))
    assert not sees(CORNER, at(0, 1), at(4, 3))
    assert sees(CORNER, at(3, 2), at(2, 4))  # along the Street past the cut corner


def test_a_leaning_model_sees_from_either_space_and_range_counts_from_either() -> None:
    """FT-BOARD-08: it counts as being in both spaces; Range from either."""
    lean = Pos((0, 1), lean=(0, 0))
    assert sees(HOUSE, lean, at(5, 0))  # from (0,0), along the north face
    assert not sees(HOUSE, at(0, 1), at(5, 0))  # not without leaning
    found = sight(HOUSE, lean, at(0, 4))
    assert found is not None and (found.frm, found.range) == ((0, 1), 3)
    assert distance(HOUSE, lean, at(0, 4)) == 3


def test_leaning_in_a_doorway_sees_out_and_in() -> None:
    """FT-BOARD-09: a model on the Door line is in both spaces touching it."""
    lean = Pos((4, 2), lean=(3, 2), facing=0)
    assert sees(HOUSE, lean, at(1, 1)) and sees(HOUSE, lean, at(6, 0))


def test_blockers_stop_sight_but_touching_corners_let_it_pass() -> None:
    """FT-BOARD-23 (Hanging High): Townsfolk block Line of Sight through their space; a line passing diagonally
    between two that touch corners is not blocked."""
    open_ground = draw(["......", "......", "......", "......"])
    crowd = open_ground.cells([(2, 1)])
    assert not sees(open_ground, at(0, 1), at(4, 1), blockers=crowd)
    assert sees(open_ground, at(0, 1), at(4, 1))
    corners = open_ground.cells([(1, 2), (2, 1)])
    assert sees(open_ground, at(0, 0), at(3, 3), blockers=corners)
    assert not sees(open_ground, at(0, 3), at(3, 0), blockers=corners)  # straight through both crowds


def test_range_counts_diagonals_as_one() -> None:
    """A22: spaces counted with diagonals as 1; Range 6 reaches 6 spaces away and no further."""
    open_ground = draw(["." * 9] * 9)
    assert distance(open_ground, at(0, 0), at(6, 3)) == 6
    assert in_range(open_ground, at(0, 0), at(6, 3), 6) is not None
    assert in_range(open_ground, at(0, 0), at(7, 3), 6) is None


def test_a_rooftop_sees_every_other_rooftop() -> None:
    """FT-BOARD-14: always, whatever stands between."""
    found = sight(ROOFS, Pos.on_roof("1"), Pos.on_roof("2"))
    assert found is not None and found.range == 4
    assert sees(ROOFS, Pos.on_roof("2"), Pos.on_roof("3"))


def test_rooftop_sight_is_traced_from_the_closest_building_space() -> None:
    """FT-BOARD-14: to (8,4) the line starts at (2,2), the space of Building 1 closest to it; Range from there."""
    found = sight(ROOFS, Pos.on_roof("1"), at(8, 4))
    assert found is not None and (found.frm, found.range) == ((2, 2), 6)
    back = sight(ROOFS, at(8, 4), Pos.on_roof("1"))
    assert back is not None and (back.frm, back.to) == ((8, 4), (2, 2))
    assert distance(ROOFS, Pos.on_roof("1"), at(8, 4)) == 6


def test_no_rooftop_sight_into_its_own_building_or_beside_it() -> None:
    """FT-BOARD-14: not to or from spaces inside the Building below, nor spaces touching its Walls (its corners
    too, a reading)."""
    roof = Pos.on_roof("1")
    for space in [(1, 1), (0, 0), (3, 1), (0, 2), (3, 3)]:
        assert not sees(ROOFS, roof, at(*space)) and not sees(ROOFS, at(*space), roof), space
    assert sees(ROOFS, roof, at(4, 1)) and sees(ROOFS, roof, at(4, 3))


def test_rooftop_sight_does_not_pass_other_buildings_walls() -> None:
    """FT-BOARD-14: from the rooftop of 1, Building 2 hides the street behind it."""
    assert not sees(ROOFS, Pos.on_roof("1"), at(10, 1))
    assert sees(ROOFS, Pos.on_roof("1"), at(10, 5))


def test_off_board_models_neither_see_nor_are_seen() -> None:
    """FT-M5: Enemies off the board must move on to shoot."""
    assert not sees(HOUSE, Pos.off_board("A"), at(0, 0))
