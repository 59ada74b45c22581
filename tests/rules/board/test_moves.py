"""Adjacency and movement on hand-drawn boards: Walls, Doors, Windows, cross points, building corners, Diagonal
Doors, paths around models, XL and flying models, Entry Areas, and refusals that name the step."""

from __future__ import annotations

import pytest

from shared_rules import IllegalCommand, InvalidCommand
from shared_rules.rules.board import (
    Model,
    Pos,
    Side,
    adjacent,
    board_named,
    check_path,
    check_placement,
    check_position,
    edge_spaces,
    entry_front,
    entry_placement,
    fly,
    map_tiles,
    occupied,
    opening_between,
    openings_of,
    reachable,
    shortest_path,
    spaces_adjacent,
    steps_to_exit,
)
from tests.rules.board.boards import at, draw

# y0 .......
# y1 .111...     Building 1 (x1-3, y1-3): a Door on its east side at y2, a Window on its north side at x2,
# y2 .111...     and inside, an interior wall between x1 and x2 on rows 2 and 3.
# y3 .111...
# y4 .......
HOUSE = draw(
    [".......", ".111...", ".111...", ".111...", "......."],
    doors=[((3, 2), (4, 2))],
    windows=[((2, 1), (2, 0))],
    walls=[((1, 2), (2, 2)), ((1, 3), (2, 3))],
)

# A Diagonal Door in the SE corner of Building 1, opening onto the street corner.
CORNER = draw(["111..", "111..", "111..", ".....", "....."], diagonal=[((2, 2), "SE")])


def steps(board: object, space: tuple[int, int]) -> list[tuple[int, int]]:
    from shared_rules.rules.board import Board

    assert isinstance(board, Board)
    return sorted(board.xy(j) for j in board.steps[board.index(space)])


def test_a_wall_between_two_spaces_makes_them_not_adjacent() -> None:
    """FT-BOARD-03: unless a Door or Window is between them; so no Melee through a Wall, only across a Door or Window
    (FT-FAQ-02: Melee is between adjacent models)."""
    assert not spaces_adjacent(HOUSE, (0, 2), (1, 2))
    assert not spaces_adjacent(HOUSE, (4, 1), (3, 1))
    assert spaces_adjacent(HOUSE, (4, 2), (3, 2))  # the Door
    assert spaces_adjacent(HOUSE, (2, 0), (2, 1))  # the Window
    assert opening_between(HOUSE, (4, 2), (3, 2)) == "door"
    assert opening_between(HOUSE, (2, 0), (2, 1)) == "window"
    assert opening_between(HOUSE, (0, 2), (1, 2)) == "wall"


def test_a_door_is_passed_straight_never_diagonally() -> None:
    """FT-BOARD-04: straight through; (4,1) to (3,2) would cut the Door diagonally."""
    assert (3, 2) in steps(HOUSE, (4, 2))
    assert (3, 2) not in steps(HOUSE, (4, 1)) and (3, 2) not in steps(HOUSE, (4, 3))
    assert not spaces_adjacent(HOUSE, (4, 1), (3, 2))


def test_a_window_is_not_a_way_through_except_for_a_hero_jumping_it() -> None:
    """FT-BOARD-05: no movement through a Window; a Hero may spend 1 Grit to jump it (mover "window")."""
    assert (2, 1) not in steps(HOUSE, (2, 0))
    assert shortest_path(HOUSE, at(2, 0), [(2, 1)]) == ((2, 0), (3, 0), (4, 1), (4, 2), (3, 2), (2, 1))
    assert shortest_path(HOUSE, at(2, 0), [(2, 1)], mover="window") == ((2, 0), (2, 1))


def test_diagonal_moves_go_around_a_building_corner() -> None:
    """FT-BOARD-11 (FT-FAQ-01), A37: the outside corner of a Building does not cover the cross point."""
    assert (1, 0) in steps(HOUSE, (0, 1))
    assert spaces_adjacent(HOUSE, (0, 1), (1, 0))
    assert spaces_adjacent(HOUSE, (4, 4), (3, 4)) and (4, 3) in steps(HOUSE, (3, 4))


def test_a_wall_over_a_cross_point_stops_the_diagonal() -> None:
    """FF-MOVE-06: the interior wall runs on past the point between (1,2) and (2,3): no step, not adjacent.
    Where it ends, at the point between (1,1) and (2,2), the diagonal slips by."""
    assert not spaces_adjacent(HOUSE, (1, 2), (2, 3))
    assert (2, 3) not in steps(HOUSE, (1, 2))
    assert spaces_adjacent(HOUSE, (1, 1), (2, 2))


def test_no_diagonal_from_a_building_corner_out_to_the_street() -> None:
    """FT-BOARD-03: the corner space (1,1) and the street space (0,0) are separated by both Walls."""
    assert not spaces_adjacent(HOUSE, (1, 1), (0, 0))


def test_two_building_corners_touching_close_the_diagonal() -> None:
    board = draw(["1..", ".2."], rooftops=[[1], [2]])
    assert not spaces_adjacent(board, (0, 1), (1, 0))


def test_a_diagonal_door_is_left_straight_out_or_straight_in_only() -> None:
    """FT-BOARD-06 with FT-FAQ-03: no diagonal move out around the angled corner of the Wall, and no Leaning."""
    assert steps(CORNER, (2, 2)) == [(1, 1), (1, 2), (2, 1), (2, 3), (3, 2), (3, 3)]
    assert (2, 2) not in steps(CORNER, (3, 1)) and (2, 2) not in steps(CORNER, (1, 3))
    assert not spaces_adjacent(CORNER, (1, 2), (2, 3))  # from the Building past the door to the Street: no
    assert spaces_adjacent(CORNER, (3, 2), (2, 3))  # along the Street around the cut corner: yes
    assert CORNER.tiles_of(CORNER.index((2, 2))) == {0, 1}  # both the Building and the Street
    from shared_rules.rules.board import lean_options

    assert lean_options(CORNER, (2, 2)) == ()  # FT-FAQ-03: no Leaning out of a Diagonal Door


def test_models_adjacent_from_either_space_of_a_split_and_on_one_rooftop() -> None:
    """FT-BOARD-10, FT-FAQ-04: a model splitting a space is adjacent (Melees and is Melee'd) from either space;
    FT-BOARD-13: on one rooftop all are."""
    lean = Pos((0, 1), lean=(0, 0))
    assert adjacent(HOUSE, lean, at(0, 2)) and adjacent(HOUSE, lean, at(1, 0))
    assert not adjacent(HOUSE, lean, at(0, 3))
    assert adjacent(HOUSE, Pos.on_roof("1"), Pos.on_roof("1"))
    assert not adjacent(HOUSE, Pos.on_roof("1"), at(2, 0))


def test_a_split_model_blocks_both_spaces() -> None:
    """FT-BOARD-10, FT-FAQ-04: nothing moves through either space of a model leaning around a corner."""
    leaning = Model("l", Side.HERO, Pos((0, 1), lean=(0, 0)))
    taken = occupied(HOUSE, [leaning])
    assert taken == {HOUSE.index((0, 1)), HOUSE.index((0, 0))}
    blocked = [HOUSE.xy(c) for c in taken]
    assert shortest_path(HOUSE, at(0, 2), [(1, 0)]) == ((0, 2), (0, 1), (1, 0))
    path = shortest_path(HOUSE, at(0, 2), [(1, 0)], blocked=blocked)
    assert path is not None and len(path) == 11  # all the way round the Building
    assert not {(0, 1), (0, 0)} & set(path)


def test_shortest_paths_honour_walls_and_models() -> None:
    open_path = shortest_path(HOUSE, at(0, 2), [(2, 2)])
    assert open_path is not None and len(open_path) == 9  # round the corner and in by the Door, 8 steps
    assert open_path[-3:] == ((4, 2), (3, 2), (2, 2))
    check_path(HOUSE, open_path)
    around = shortest_path(HOUSE, at(0, 2), [(2, 2)], blocked=[(4, 1), (4, 3)])
    assert around is not None and len(around) == 10 and not {(4, 1), (4, 3)} & set(around)
    assert shortest_path(HOUSE, at(0, 2), [(2, 2)], blocked=[(4, 2)]) is None  # the doorway is held


def test_reachable_spaces_with_their_cost() -> None:
    reach = reachable(HOUSE, at(4, 2), 2)
    assert reach[(3, 2)] == 1 and reach[(2, 2)] == 2 and (1, 2) not in reach  # the interior wall
    assert reach[(6, 4)] == 2 and (2, 0) not in reach


def test_xl_models_smash_through_walls() -> None:
    """FT-BOARD-03: XL or larger models ignore Walls when moving."""
    path = shortest_path(HOUSE, at(0, 2), [(2, 2)], mover="xl")
    assert path is not None and len(path) == 3


def test_flyers_pass_over_buildings_but_enter_one_by_a_door() -> None:
    """FT-BOARD-17: over the Building to the far side; onto its rooftop; inside only through the Door."""
    ground, roofs = fly(HOUSE, at(0, 2), 4)
    assert ground[(4, 2)] == 4 and roofs["1"] == 1
    assert (2, 2) not in ground  # inside only on foot, through the Door: too far with 4
    ground, _ = fly(HOUSE, at(0, 2), 6)
    assert ground[(3, 2)] == 5  # over to the Door side (4 steps), land, step in
    assert ground.get((2, 2)) == 6


def test_check_position_refuses_what_cannot_stand_on_the_board() -> None:
    check_position(HOUSE, Pos((0, 1), lean=(0, 0)))
    check_position(CORNER, Pos((2, 2), facing=0))
    with pytest.raises(IllegalCommand, match="off the board") as caught:
        check_position(HOUSE, at(9, 9), field="models[0].pos")
    assert caught.value.field == "models[0].pos"
    with pytest.raises(IllegalCommand, match="is no Lean") as caught:
        check_position(HOUSE, Pos((0, 2), lean=(0, 3)))  # along the Wall, not around its corner
    assert caught.value.rule == "FT-BOARD-08"
    with pytest.raises(IllegalCommand, match="Diagonal Door space faces") as caught:
        check_position(CORNER, Pos((2, 2)))
    assert caught.value.rule == "FT-BOARD-06"
    with pytest.raises(IllegalCommand, match="no rooftop '9'"):
        check_position(HOUSE, Pos.on_roof("9"))
    with pytest.raises(InvalidCommand, match="only a model in a Diagonal Door"):
        check_position(HOUSE, Pos((0, 0), facing=0))


def test_check_path_names_the_step_through_a_wall() -> None:
    """A move through a Wall, a Window, a Door taken diagonally or another model is refused naming the step."""
    check_path(HOUSE, [(4, 2), (3, 2), (2, 2)])
    with pytest.raises(IllegalCommand, match=r"goes through a Wall") as caught:
        check_path(HOUSE, [(0, 2), (1, 2)], field="path")
    assert (caught.value.field, caught.value.rule) == ("path[1]", "FT-BOARD-03")
    with pytest.raises(IllegalCommand, match="through a Window") as caught:
        check_path(HOUSE, [(2, 0), (2, 1)])
    assert caught.value.rule == "FT-BOARD-05"
    with pytest.raises(IllegalCommand, match="no diagonal step") as caught:
        check_path(HOUSE, [(4, 3), (4, 2), (3, 1)])
    assert caught.value.field == "path[2]"
    with pytest.raises(IllegalCommand, match="holds another model"):
        check_path(HOUSE, [(4, 2), (5, 2)], blocked=[(5, 2)])
    with pytest.raises(IllegalCommand, match="not one step"):
        check_path(HOUSE, [(4, 2), (6, 2)])


def test_entry_areas_fill_the_centre_first_then_beside_it() -> None:
    """FT-BOARD-22: new Enemies go in the centre space, then the two beside it; more go to the nearest empty
    spaces (A47)."""
    board = board_named("default")
    area = board.entry_areas["D"]
    assert entry_placement(board, "D", 1) == (area.spaces[0],) == ((0, 12),)
    assert set(entry_placement(board, "D", 3)) == set(area.spaces)
    four = entry_placement(board, "D", 4, occupied=[(0, 12)])
    assert four[:2] == ((0, 11), (0, 13)) and four[2] in {(1, 11), (1, 12), (1, 13)}
    assert entry_front(board, "B") == ((23, 12), (23, 11), (23, 13))  # Mission 1's start spaces
    assert len(edge_spaces(board, "C")) == board.width  # Hanging High starts anywhere along edge C


def test_a_model_leaves_the_board_into_an_entry_space_then_one_more() -> None:
    """FT-BOARD-22: moving off the board costs the steps to any Entry space, then 1."""
    board = board_named("default")
    assert steps_to_exit(board, at(0, 12), "D") == 1
    assert steps_to_exit(board, at(3, 12), "D") == 4
    assert steps_to_exit(board, Pos.off_board("A"), "A") == 1


def test_each_building_and_the_street_is_a_map_tile() -> None:
    """FT-BOARD-02: a model is on its Building's tile or the Street's; a Diagonal Door space is on both
    (FT-BOARD-06), a rooftop model on the Street (FT-BOARD-13), a model leaning in a doorway on both sides."""
    assert map_tiles(HOUSE, at(2, 2)) == {1} and map_tiles(HOUSE, at(5, 2)) == {0}
    assert map_tiles(CORNER, Pos((2, 2), facing=0)) == {0, 1}
    assert map_tiles(HOUSE, Pos.on_roof("1")) == {0}
    assert map_tiles(HOUSE, Pos((4, 2), lean=(3, 2), facing=0)) == {0, 1}
    assert map_tiles(HOUSE, Pos.off_board("A")) == frozenset()


def test_a_corrected_position_is_refused_on_a_taken_space() -> None:
    """The physical board wins, but a model is not put in a Wall or on another model (FF-MOVE-02, FT-BOARD-10)."""
    models = [Model("a", Side.HERO, Pos((0, 1), lean=(0, 0))), Model("b", Side.ENEMY, at(5, 2))]
    check_placement(HOUSE, models, "b", at(6, 2))
    check_placement(HOUSE, models, "b", at(5, 2))  # where it already is
    with pytest.raises(IllegalCommand, match=r"\(0,0\) is already taken") as caught:
        check_placement(HOUSE, models, "b", at(0, 0), field="position")
    assert (caught.value.field, caught.value.rule) == ("position", "FF-MOVE-02")
    with pytest.raises(IllegalCommand, match="already taken"):
        check_placement(HOUSE, models, "b", at(6, 0), blocked=[(6, 0)])


def test_the_doors_and_windows_of_a_building() -> None:
    """Where Bank Robbers inside fire from (FT-M3, A30): the Bank's Doors, Windows and its Corner Door."""
    assert openings_of(HOUSE, 1) == (((3, 2), (4, 2), "door"), ((2, 1), (2, 0), "window"))
    bank = openings_of(board_named("default"), 7)
    assert ((15, 15), (15, 15), "diagonal door") in bank and len(bank) == 4
