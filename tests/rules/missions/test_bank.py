"""Mission 3, Bank Robbery, with typed-in dice (FT-M3-01..10)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared_rules import IllegalCommand
from shared_rules.commands import (
    Activate,
    ActivateBandits,
    Attack,
    EndActivation,
    HeroHit,
    HoldBackTheDarkness,
    Move,
    MoveMarker,
    PlaceModel,
)
from shared_rules.state import Place
from tests.rules.adventure.helpers import with_adventure
from tests.rules.missions.helpers import adv, answer, bandits, figure, run, town

M3 = "bank_robbery"


def bank(**kw: object) -> object:
    return town(M3, 1, answers=(7, 2), **kw)  # type: ignore[arg-type]  # a 7 is re-rolled: Building 2


def robbers_out(t: object) -> None:
    """A at the centre of the Street; the Bank Bandit fires at her, then 3 Robbers come out and run for Entry A."""
    run(t, PlaceModel("a", Place("street", 12, 12)))  # type: ignore[arg-type]
    t.do(HoldBackTheDarkness(dice=((6, 4),)))  # type: ignore[attr-defined]
    run(t, Activate("a", dice=((2,),)))  # type: ignore[arg-type]
    run(t, EndActivation("a"))  # type: ignore[arg-type]
    t.do(ActivateBandits(dice=((2,), (6,))))  # type: ignore[attr-defined]  # the Bank's shot misses; D3 = 3
    answer(t, "A", 5, "A", 5, "A", 5,  # type: ignore[arg-type]  # each Robber's Exit and its Peril Die run
           (1, 1), (1, 1), (1, 1))  # each Robber's 2 Shots miss


def test_set_up_heroes_in_random_buildings_never_the_bank_bags_hostages_a_bandit_inside_FT_M3_01() -> None:
    t = bank()
    assert adv(t).hero("a").place is not None and adv(t).hero("a").place.tile == "building-2"
    assert (adv(t).counter("bags"), adv(t).counter("hostages")) == (8, 3)
    assert [(f.id, f.place.tile if f.place else "") for f in adv(t).figures] == [("bandit-1", "building-7")]


def test_heroes_may_never_enter_the_bank_FT_M3_01() -> None:
    t = bank()
    run(t, PlaceModel("a", Place("street", 14, 16)))
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((3,),)))
    with pytest.raises(IllegalCommand) as error:
        t.do(Move("a", 1, to=Place("building-7", 15, 16)))
    assert (error.value.field, error.value.rule) == ("to", "FT-M3-01")


def test_the_bank_fires_then_d3_robbers_spawn_run_p_spaces_then_fire_FT_M3_03_FT_M3_04_FT_M3_05_FT_M3_06() -> None:
    t = bank()
    robbers_out(t)
    texts = [e.text for e in t.events]
    assert any("The Bandit inside the Bank fires through the diagonal door" in x for x in texts)
    robbers = [figure(t, b) for b in bandits(t) if b != "bandit-1"]
    assert [(r.id, r.heading) for r in robbers] == [("bandit-2", "A"), ("bandit-3", "A"), ("bandit-4", "A")]
    assert all(r.combat == 2 for r in robbers)  # +1 Shot with 1-2 Heroes (FT-M3-02)
    assert [r.place for r in robbers] == [Place("street", 11, 10), Place("street", 12, 10), Place("street", 13, 10)]
    assert adv(t).turn == 2 and t.state.hero("a").wounds == 0


def test_a_robber_off_the_board_moves_the_darkness_2_a_marked_space_kills_a_hostage_FT_M3_09() -> None:
    t = bank()
    robbers_out(t)
    for n, x in ((2, 11), (3, 12), (4, 13)):  # the table puts them 2 squares from Entry A
        run(t, PlaceModel(f"bandit-{n}", Place("street", x, 2)))
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    run(t, EndActivation("a"))
    t.do(ActivateBandits(dice=((1,), (1,))))  # the Bank misses; D3 = 1
    answer(t, "B", 3,  # the new Robber runs 3 for Entry B
           3, 3, 3,  # the three run 3: 2 squares and off the board at Entry A (the Darkness +2 each: to 6)
           (1, 1))  # the new Robber's Shots miss
    assert adv(t).darkness == 6
    assert adv(t).counter("hostages") == 1  # Blood Spatter 3 and Growing Dread 5 each killed a Hostage


def test_all_hostages_killed_fails_no_town_and_no_grit_next_FT_M3_09_FT_M3_10() -> None:
    t = bank()
    t.do(MoveMarker("darkness", 9))  # 3, 5, 7: three Hostages
    assert t.state.adventure is None and t.state.carry.no_grit_next_adventure
    assert t.state.carry.no_town == "FT-M3-10"


def test_the_bank_bandit_is_replaced_a_killed_robber_drops_a_bag_picked_up_kills_and_bags_move_the_marker_FT_M3_05_07_08() -> None:
    t = bank()
    robbers_out(t)
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    run(t, Attack("a", hits=(HeroHit("bandit-1", 3), HeroHit("bandit-3", 3))))
    assert "bandit-1" in bandits(t) and adv(t).party == 11  # replaced at once, both kills count
    bag = next(f for f in adv(t).figures if f.kind == "money_bag")
    assert bag.place == Place("street", 12, 10) and adv(t).counter("bags") == 7
    with_adventure(t, activation=None, activated=())
    run(t, Activate("a", dice=((2,),)))
    t.do(Move("a", 2, to=Place("street", 12, 10)))
    answer(t, "pick", "3")  # the Bag shows 3: $60
    assert t.state.hero("a").gold == 60 and adv(t).party == 10 and adv(t).counter("bags") == 8


def test_a_total_at_or_above_the_posse_marker_ends_it_reward_d6_x_50_and_25_xp_per_hostage_FT_M3_08_FT_M3_10_A3() -> None:
    t = bank()
    with_adventure(t, party=10)
    t.do(HoldBackTheDarkness(dice=((6, 4), (4,))))  # 10 >= 10: the Robbers give up; D6 4 x $50
    assert t.state.adventure is None
    assert (t.state.hero("a").gold, t.state.hero("a").xp) == (200, 75)
    assert replace(t.state.carry, last_town=None).may_stay


def test_the_robbers_give_up_at_once_before_the_darkness_would_move_FT_M3_08() -> None:
    t = bank()
    with_adventure(t, party=5, darkness=2)  # 6 is at least 5, but fails the Stage's 9+ at space 5
    t.do(HoldBackTheDarkness(dice=((2, 4), (1,))))  # the Darkness would enter space 3 (a Hostage): it does not
    assert t.state.adventure is None and t.state.hero("a").xp == 75  # all 3 Hostages alive
