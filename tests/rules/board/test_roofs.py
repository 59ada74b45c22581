"""Rooftops (FT-BOARD-12..20), the random Building and Rooftop (FT-DICE-02) and Dynamite (FT-BOARD-21), with
typed-in dice."""

from __future__ import annotations

from collections import Counter

import pytest

from shared_rules import IllegalCommand
from shared_rules.rules.board import (
    Fall,
    Model,
    Pos,
    Requests,
    Side,
    blast_spaces,
    board_named,
    bounce,
    climb_down_spaces,
    climb_up,
    drive,
    dynamite_hits,
    enemy_killed_on_roof,
    enemy_reaches_roof,
    fall_spaces,
    has_cover,
    hero_wounded_on_roof,
    must_escape_to_leave,
    random_building,
    random_rooftop,
    roof_throw_spaces,
    rooftop_for,
    throw_targets,
)
from tests.rules.board.boards import at, draw

TOWN = board_named("default")
HOUSE = draw(
    [".......", ".111...", ".111...", ".111...", "......."],
    doors=[((3, 2), (4, 2))],
    windows=[((1, 3), (0, 3))],
)
PAIR = draw(["......", ".1122.", ".1122.", "......"], rooftops=[[1, 2]])


def test_five_rooftops_with_3_4_and_7_8_shared() -> None:
    """FT-BOARD-12."""
    assert sorted(TOWN.rooftops.values()) == [(1,), (2,), (3, 4), (5,), (6,), (7, 8)]
    assert TOWN.roof_spaces["3+4"] == frozenset(TOWN.index(TOWN.xy(c)) for b in (3, 4) for c in TOWN.buildings[b])


@pytest.mark.parametrize(("d8", "roof"), [(1, "1"), (2, "2"), (3, "3+4"), (4, "3+4"), (5, "5"), (6, "6"),
                                          (7, "7+8"), (8, "7+8")])  # fmt: skip
def test_a_random_rooftop_is_the_rooftop_of_the_d8_building(d8: int, roof: str) -> None:
    """FT-DICE-02: roll the D8; the shared rooftops answer to either of their Buildings."""
    assert drive(random_building(Requests(), "reinforcement"), dice=[d8]) == d8
    assert drive(random_rooftop(Requests(), TOWN, "reinforcement"), dice=[d8]) == roof


def test_the_shared_rooftops_come_up_twice_as_often() -> None:
    """FT-DICE-02: 3+4 and 7+8 each 2 in 8; 1, 2, 5 and 6 each 1 in 8."""
    counts = Counter(rooftop_for(TOWN, d8) for d8 in range(1, 9))
    assert counts == {"3+4": 2, "7+8": 2, "1": 1, "2": 1, "5": 1, "6": 1}


def test_a_d8_face_outside_1_to_8_is_refused() -> None:
    from shared_rules import InvalidCommand

    with pytest.raises(InvalidCommand, match="d8 die cannot show 9"):
        drive(random_building(Requests(), "reinforcement"), dice=[9])


def test_a_hero_inside_climbs_to_the_rooftop_and_comes_down_into_either_building() -> None:
    """FT-BOARD-15: from inside a Building (giving up the move, no Move roll: A34); down into any space of the
    Building, or of either Building of a shared rooftop."""
    assert climb_up(PAIR, at(3, 1)) == Pos.on_roof("1+2")
    with pytest.raises(IllegalCommand, match="starts the Activation inside a Building") as caught:
        climb_up(PAIR, at(0, 0))
    assert caught.value.rule == "FT-BOARD-15"
    spaces = climb_down_spaces(PAIR, "1+2", occupied=[(1, 1)])
    assert len(spaces) == 7 and (4, 2) in spaces and (1, 1) not in spaces


def test_an_enemy_ending_in_the_building_goes_up_and_loses_its_attack() -> None:
    """FT-BOARD-16/17: an Enemy reaching a rooftop Hero's Building is moved up but loses its Attack; a flyer keeps
    it."""
    hero_up = Pos.on_roof("1+2")
    assert enemy_reaches_roof(PAIR, at(4, 2), hero_up) == (Pos.on_roof("1+2"), False)
    assert enemy_reaches_roof(PAIR, at(4, 2), hero_up, flying=True) == (Pos.on_roof("1+2"), True)
    assert enemy_reaches_roof(PAIR, at(0, 0), hero_up) == (at(0, 0), False)
    assert enemy_reaches_roof(PAIR, Pos.on_roof("1+2"), hero_up) == (Pos.on_roof("1+2"), True)


def test_a_hero_leaves_a_rooftop_with_enemies_only_by_an_escape_test() -> None:
    """FT-BOARD-18."""
    hero = Model("h", Side.HERO, Pos.on_roof("3+4"))
    bandit = Model("b", Side.ENEMY, Pos.on_roof("3+4"))
    elsewhere = Model("c", Side.ENEMY, Pos.on_roof("5"))
    assert must_escape_to_leave([hero, bandit], hero)
    assert not must_escape_to_leave([hero, elsewhere], hero)


def test_a_rooftop_counts_as_the_street_for_facing_and_cover() -> None:
    """FT-BOARD-13: in the Diagonal Door facing the Street, a model has Cover against a rooftop rifle."""
    door = TOWN.spaces["bank_corner_door"][0]
    assert has_cover(TOWN, Pos(door, facing=0), Pos.on_roof("1"))
    assert not has_cover(TOWN, Pos(door, facing=7), Pos.on_roof("1"))


def test_an_enemy_killed_on_a_rooftop_falls_on_1_to_3() -> None:
    """FT-BOARD-20: the Hero who killed it may Recover 1 Grit when it falls."""
    bandit = Model("b", Side.ENEMY, Pos.on_roof("5"), "Bandit 1")
    assert drive(enemy_killed_on_roof(Requests(), bandit), dice=[3]) is True
    assert drive(enemy_killed_on_roof(Requests(), bandit), dice=[4]) is False


def test_a_wounded_hero_falls_on_1_to_3_and_takes_d6_wounds() -> None:
    """FT-BOARD-20: a D6 once per Attack that Wounded them; on 1-3 the players put them in a ground space beside
    the Building and they take D6 Wounds ignoring Defense."""
    hero = Model("h", Side.HERO, Pos.on_roof("1"), "Hanzo")
    landing = fall_spaces(HOUSE, "1")
    assert (0, 0) in landing and (4, 2) in landing and (5, 2) not in landing and (2, 2) not in landing
    fall = drive(hero_wounded_on_roof(Requests(), HOUSE, [hero], hero), dice=[2, 5], picks=["4,2"])
    assert fall == Fall("h", (4, 2), 5)
    assert drive(hero_wounded_on_roof(Requests(), HOUSE, [hero], hero), dice=[4]) is None
    on_ground = Model("g", Side.HERO, at(0, 0))
    assert drive(hero_wounded_on_roof(Requests(), HOUSE, [on_ground], on_ground)) is None


def test_dynamite_is_not_thrown_through_walls_and_through_a_door_only_to_the_space_beyond() -> None:
    """FT-BOARD-21."""
    outside = throw_targets(HOUSE, at(6, 2), 6)
    assert (3, 2) in outside  # directly on the other side of the Door
    assert (2, 2) not in outside and (1, 1) not in outside and (0, 0) not in outside
    at_door = throw_targets(HOUSE, at(4, 2), 6)
    assert (3, 2) in at_door and (2, 2) not in at_door
    inside = throw_targets(HOUSE, at(1, 1), 6)
    assert set(inside) == {(x, y) for x in (1, 2, 3) for y in (1, 2, 3)} - {(1, 1)} | {(4, 2)}


def test_a_blast_hits_through_walls_but_not_the_rooftop() -> None:
    """FT-BOARD-21, A36: every space around, Walls or not; never a model on the rooftop above."""
    assert set(blast_spaces(HOUSE, (0, 2))) == {(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3)}
    inside = Model("in", Side.HERO, at(1, 2))
    up = Model("up", Side.HERO, Pos.on_roof("1"))
    street = Model("st", Side.ENEMY, at(0, 4))
    assert dynamite_hits(HOUSE, [inside, up, street], (0, 3)) == ("in", "st")


def test_dynamite_thrown_onto_a_rooftop() -> None:
    """FT-BOARD-21: placed on a space of the Building within Range; if it stays in the Building it hits every model
    up there; bounced out, it lands on the ground and hits only ground models there."""
    assert len(roof_throw_spaces(HOUSE, at(6, 0), "1", 6)) == 9
    assert roof_throw_spaces(HOUSE, at(6, 0), "1", 3) == ((3, 1), (3, 2), (3, 3))
    assert roof_throw_spaces(HOUSE, at(4, 2), "1", 6) == ()  # beside the Building: no sight of its rooftop
    up = Model("up", Side.HERO, Pos.on_roof("1"))
    below = Model("below", Side.HERO, at(2, 2))
    street = Model("st", Side.ENEMY, at(4, 4))
    assert dynamite_hits(HOUSE, [up, below, street], (2, 2), roof="1") == ("up",)
    landing = bounce(HOUSE, (3, 3), "SE", 2)  # the table's Bounce chart says SE 2: out of the Building?
    assert landing == (3, 3)  # no: a Wall stops it at once
    assert dynamite_hits(HOUSE, [up, below, street], (4, 3), roof="1") == ("st",)


def test_a_bounce_stops_at_walls_and_goes_no_further_than_past_a_door() -> None:
    """FT-BOARD-03/21: Walls stop a Bounce; through a Door or Window only into the space beyond."""
    assert bounce(HOUSE, (6, 2), "W", 5) == (3, 2)
    assert bounce(HOUSE, (6, 1), "W", 5) == (4, 1)
    assert bounce(HOUSE, (6, 4), "W", 3) == (3, 4)
    assert bounce(HOUSE, (5, 3), "NW", 3) == (4, 2)
