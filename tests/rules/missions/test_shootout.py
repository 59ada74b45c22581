"""Mission 1, Shootout in the Streets, and what every Town Mission shares, with typed-in dice (FT-M1, FT-MIS)."""

from __future__ import annotations

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
    RollMission,
    StayInTown,
)
from shared_rules.engine import legal_commands
from shared_rules.rules.missions import MISSION_TABLE
from shared_rules.state import Place, Town, TownSize
from tests.rules.adventure.helpers import legal_types, with_adventure
from tests.rules.missions.helpers import adv, at, bandits, figure, layout, posse, run, town
from tests.rules.table import Table

M1 = "shootout_in_the_streets"


def test_the_mission_table_FT_MIS_00() -> None:
    t = Table.new(posse(2))
    assert "roll_mission" in legal_types(t)
    t.do(RollMission(dice=((3,),)))
    assert [c.after for e in t.events for c in e.changes if c.field == "mission"] == ["bank_robbery"]
    assert MISSION_TABLE == {1: M1, 2: "hanging_high", 3: "bank_robbery", 4: "jail_break", 5: "town_overrun",
                             6: "high_noon_duel"}  # fmt: skip


def test_a_six_is_the_duel_for_a_random_hero_then_another_mission_rolled_until_1_to_5_FT_MIS_00_A32() -> None:
    t = Table.new(posse(2))
    t.do(RollMission(dice=((6,),)))
    t.choose("b")  # the Random Hero who duels
    t.roll(6)  # another 6 is rolled again (A32)
    t.roll(2)
    changes = [(c.field, c.after) for e in t.events for c in e.changes]
    assert changes == [("mission", "high_noon_duel"), ("duelist", "b"), ("mission", "hanging_high")]


def test_a_lone_hero_rolling_6_only_duels_FT_MIS_00() -> None:
    t = Table.new(posse(1))
    t.do(RollMission(dice=((6,),)))
    assert [c.after for e in t.events for c in e.changes if c.field == "mission"] == ["high_noon_duel"]


def test_set_up_heroes_at_entry_b_three_bandits_at_entry_d_one_grit_damage_kept_FT_M1_01_FT_MIS_GEN_01() -> None:
    t = town(M1, values={"wounds": 2, "grit": 2})
    assert [at(m.place) for m in adv(t).heroes] == [(24, 12, "street"), (24, 11, "street")]
    assert [at(figure(t, b).place) for b in bandits(t)] == [(0, 12, "street"), (0, 11, "street"), (0, 13, "street")]
    assert [(h.grit, h.wounds) for h in t.state.heroes] == [(1, 2), (1, 2)]  # 1 Grit, Damage from Town kept
    assert adv(t).party == 13 and {tile.id for tile in adv(t).tiles} >= {"street", "building-7"}


def test_reinforcements_after_hbtd_d3_each_entering_by_a_d6_and_acting_this_turn_FT_M1_03_FT_M1_04() -> None:
    t = town(M1)
    # 2D6 = 5 fails 7+: the Darkness moves; D3 = 3 (a D6 of 5-6); entries 1 (C), 3 (A), 5 (a Rooftop: D8 4)
    t.do(HoldBackTheDarkness(dice=((2, 3), (6,), (1,), (3,), (5,), (4,))))
    new = {b: figure(t, b).place for b in bandits(t)[3:]}
    assert new == {"bandit-4": Place("street", 12, 24), "bandit-5": Place("street", 12, 0), "bandit-6": Place("roof:3+4")}
    assert adv(t).darkness == 1
    assert all(figure(t, b).arrived == 1 for b in new)  # they Activate in this same turn


def test_d6_bandits_when_none_is_on_the_board_FT_M1_03() -> None:
    t = town(M1)
    with_adventure(t, figures=())
    t.do(HoldBackTheDarkness(dice=((6, 4), (2,), (2,), (2,))))  # D6 = 2 (not a D3): two Bandits at Entry D
    assert [at(figure(t, b).place) for b in bandits(t)] == [(0, 12, "street"), (0, 11, "street")]


def test_unplaceable_bandits_move_the_darkness_one_or_two_each_FT_M1_05() -> None:
    t = town(M1)
    t.do(HoldBackTheDarkness(dice=((6, 4), (6,), (1,), (1,), (1,))))  # D3 = 3: 6 models on the board now
    assert len(bandits(t)) == 6 and adv(t).darkness == 0
    t.do(MoveMarker("darkness", 1))
    t = town(M1, 5)
    t.do(HoldBackTheDarkness(dice=((6, 4), (6,), (1,), (1,), (1,))))
    t2 = town(M1, 5, track=layout(14, blood=(), dread=()))
    with_adventure(t2, figures=tuple(adv(t).figures))  # all 6 on the board: 5 Heroes, +2 each
    t2.do(HoldBackTheDarkness(dice=((6, 4), (3,), (1,), (1,))))  # D3 = 2: neither can be placed
    assert adv(t2).darkness == 4


def test_kills_move_the_posse_marker_2_steps_for_1_2_heroes_FT_M1_06_and_the_strict_break_check_A3() -> None:
    t = town(M1)
    t.do(HoldBackTheDarkness(dice=((6, 4), (1,), (2,))))  # 10 > 13? no; a Bandit enters at Entry D
    run(t, Activate("a", dice=((2,),)))
    run(t, Attack("a", hits=(HeroHit("bandit-1", 9),)))
    assert adv(t).party == 11  # 2 steps (FT-M1-06)
    t3 = town(M1, 3)
    t3.do(HoldBackTheDarkness(dice=((6, 4), (1,), (2,))))
    run(t3, Activate("a", dice=((2,),)))
    run(t3, Attack("a", hits=(HeroHit("bandit-1", 9),)))
    assert adv(t3).party == 12  # 1 step with 3 Heroes
    with_adventure(t, party=10, turn=2, step=adv(t).step.__class__("start"), activated=())
    t.do(HoldBackTheDarkness(dice=((6, 4), (1,), (2,))))  # 10 is not higher than 10: reinforcements still come
    assert adv(t).counter("broken") == 0
    with_adventure(t, step=adv(t).step.__class__("start"), activated=())
    t.do(HoldBackTheDarkness(dice=((5, 6),)))  # 11 > 10: broken, no reinforcements
    assert adv(t).counter("broken") == 1 and len(bandits(t)) == 4


def test_blood_spatter_rooftop_bandits_fire_or_d3_climb_growing_dread_elite_no_cards_FT_M1_07() -> None:
    t = town(M1)
    # space 3 is Blood Spatter: no Bandit on a Rooftop, so D3 = 2 (a D6 of 3) climb Random Rooftops (D8 1, 1)
    t.do(MoveMarker("darkness", 3, dice=((3,), (4,), (1,), (6,), (1,))))
    assert [figure(t, b).place for b in bandits(t)[3:]] == [Place("roof:1"), Place("roof:1")]
    assert adv(t).darkness_cards == 0
    t.do(MoveMarker("darkness", 2))  # space 5: Growing Dread, an Elite ability instead of a card
    assert adv(t).counter("elite") == 1


def test_the_win_and_the_reward_FT_M1_02_FT_M1_08_and_staying_in_town_FT_MIS_AFTER_01() -> None:
    t = town(M1)
    with_adventure(t, figures=(figure(t, "bandit-1"),), party=3)
    t.state = t.state.__class__(**{**{f: getattr(t.state, f) for f in t.state.__dataclass_fields__},
                                   "carry": t.state.carry.__class__(last_town=Town(TownSize.SMALL, "Standard Frontier Town", 7))})  # fmt: skip
    t.do(HoldBackTheDarkness(dice=((2, 5),)))  # 7 > 3: broken
    run(t, Activate("a", dice=((2,),)))
    run(t, Attack("a", hits=(HeroHit("bandit-1", 9),)))
    assert t.state.adventure is None
    assert [(h.xp, h.gold) for h in t.state.heroes] == [(50, 100), (50, 100)]
    assert t.state.carry.may_stay and "stay_in_town" in legal_types(t)
    t.do(StayInTown())  # a fresh Small Standard Frontier Town: its Building tokens are drawn anew
    assert t.prompt is not None and "Building token" in t.prompt.purpose and not t.state.carry.may_stay


def test_the_failure_costs_d6_x_50_gold_each_and_no_town_FT_M1_08_A33() -> None:
    t = town(M1, values={"gold": 200})
    with_adventure(t, darkness=12)
    t.do(HoldBackTheDarkness(dice=((1, 2), (3,), (4,))))  # fails: the Darkness escapes; D6 3 and 4 x $50
    assert t.state.adventure is None and [h.gold for h in t.state.heroes] == [50, 0]
    assert "choose_town_size" not in legal_types(t) and "start_adventure" in legal_types(t)
    with pytest.raises(IllegalCommand) as error:
        from shared_rules.commands import ChooseTownSize

        t.do(ChooseTownSize("small"))
    assert error.value.rule == "FT-M1-08"


def test_a_hero_move_through_a_wall_is_refused_FT_BOARD_03() -> None:
    t = town(M1)
    t.do(HoldBackTheDarkness(dice=((6, 4), (1,), (2,))))
    run(t, Activate("a", dice=((2,),)))
    with pytest.raises(IllegalCommand) as error:  # (24,12) to (22,9): Building 4's corner is in the way
        t.do(Move("a", 2, to=Place("building-4", 22, 9)))
    assert (error.value.field, error.value.rule) == ("to", "FT-BOARD-03")
    run(t, Move("a", 2, to=Place("street", 22, 12)))
    assert at(adv(t).hero("a").place) == (22, 12, "street")


def test_activate_bandits_is_offered_when_the_bandits_are_next_FF_TURN_03() -> None:
    t = town(M1)
    t.do(HoldBackTheDarkness(dice=((6, 4), (1,), (2,))))
    assert "activate_bandits" not in legal_types(t)
    with pytest.raises(IllegalCommand) as error:
        t.do(ActivateBandits())
    assert error.value.rule == "FF-TURN-03"
    run(t, Activate("a", dice=((2,),)))
    run(t, EndActivation("a"))
    run(t, Activate("b", dice=((2,),)))
    run(t, EndActivation("b"))
    assert [c.options for c in legal_commands(t.state) if c.type == "activate_bandits"] == [
        ("bandit-1", "bandit-2", "bandit-3", "bandit-4")]


def test_an_infamous_gang_drawn_at_the_start_rides_the_whole_mission_FT_MIS_GEN_01_FT_BANDIT_09() -> None:
    from shared_rules.commands import PlayGang

    t = town(M1)
    assert "play_gang" in legal_types(t)
    run(t, PlayGang("Hitchcock Gang", xp_per_kill=10, bounty_per_kill=25, dynamite=True))
    assert adv(t).gang is not None and "play_gang" not in legal_types(t)
    with pytest.raises(IllegalCommand) as error:
        t.do(PlayGang("Other Gang"))
    assert error.value.rule == "FT-BANDIT-09"
    t.do(HoldBackTheDarkness(dice=((6, 4), (1,), (2,))))
    run(t, Activate("a", dice=((2,),)))
    run(t, Attack("a", hits=(HeroHit("bandit-1", 9),)))
    assert (t.state.hero("a").xp, t.state.hero("a").gold) == (10, 25)  # the card's bonus to the killer
