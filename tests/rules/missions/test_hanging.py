"""Mission 2, Hanging High, with typed-in dice (FT-M2-01..11)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared_rules import IllegalCommand
from shared_rules.commands import Activate, Attack, EndActivation, HeroHit, HoldBackTheDarkness, Move, PlaceModel
from shared_rules.state import MissionCounter, Place, TurnStep
from tests.rules.adventure.helpers import legal_types, with_adventure
from tests.rules.missions.helpers import adv, bandits, figure, run, town

M2 = "hanging_high"


def hanging(heroes: int = 1, **kw: object) -> object:
    return town(M2, heroes, answers=(3, 8) if heroes >= 3 else (), **kw)  # type: ignore[arg-type]


def countdown(t: object, value: int) -> None:
    with_adventure(t, counters=tuple(c for c in adv(t).counters if c.name != "countdown")  # type: ignore[arg-type]
                   + (MissionCounter("countdown", value),))  # fmt: skip


def test_set_up_gallows_four_brutal_marshals_ten_townsfolk_heroes_on_the_c_edge_FT_M2_01_FT_M2_02() -> None:
    t = hanging(1)
    marshals = [figure(t, b) for b in bandits(t)]
    assert len(marshals) == 4 and all(m.brutal and m.health == 2 * 3 for m in marshals)  # 2x Health (1-2 Heroes)
    assert sum(1 for f in adv(t).figures if f.kind == "townsfolk") == 10
    assert figure(t, "prisoner").place == Place("street", 12, 6)  # the centre of the Gallows
    assert adv(t).hero("a").place == Place("street", 12, 24) and adv(t).counter("countdown") == 8
    t3 = hanging(3)  # 2 more on Random Rooftops (D8 3 and 8), with Rifles (A21)
    assert [figure(t3, b).place for b in bandits(t3)[4:]] == [Place("roof:3+4"), Place("roof:7+8")]
    t5 = hanging(5, length=14)
    assert all(figure(t5, b).health == 3 * 3 for b in bandits(t5))  # 3x Health with 5-6 Heroes


def test_the_countdown_a_failed_roll_and_each_end_of_turn_take_a_counter_doubles_do_not_FT_M2_07_A4() -> None:
    t = hanging()
    t.do(HoldBackTheDarkness(dice=((2, 3),)))  # 5 fails 7+: a counter comes off; the Darkness is not used
    assert adv(t).counter("countdown") == 7 and adv(t).darkness == 0
    run(t, Activate("a", dice=((2,),)))
    run(t, EndActivation("a"))  # the Marshals are not Alerted: nobody else acts; the End of the Turn takes one
    assert adv(t).turn == 2 and adv(t).counter("countdown") == 6
    t.do(HoldBackTheDarkness(dice=((2, 2),)))  # doubles: a Depth Event instead (the Town chart), no counter
    assert t.prompt is not None and t.prompt.chart == "town_depth_event"
    t.card("Nothing happens")
    assert adv(t).counter("countdown") == 6


def test_the_marshals_wait_until_the_turn_after_they_are_alerted_by_an_attack_FT_M2_03() -> None:
    t = hanging()
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    assert "activate_bandits" not in legal_types(t)
    run(t, Activate("a", dice=((2,),)))
    run(t, Attack("a", hits=(HeroHit("bandit-4", 2),)))
    assert adv(t).counter("alerted") == 1 and all(figure(t, b).arrived == 2 for b in bandits(t))
    scatter = [e for e in t.events if e.rule == "FT-M2-05"]  # the crowd scatters in a random direction: the
    assert scatter and "FT-DICE-04" in scatter[-1].text  # Bounce chart is not in the rulebooks (FT-DICE-04)
    assert adv(t).turn == 2
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    assert "activate_bandits" not in legal_types(t)  # the Hero is first (Initiative 10)
    run(t, Activate("a", dice=((2,),)))
    run(t, EndActivation("a"))
    assert "activate_bandits" in legal_types(t)


def test_a_hero_ending_a_move_within_3_spaces_in_sight_of_a_marshal_rolls_1_2_alerts_FT_M2_03_A22() -> None:
    t = hanging()
    run(t, PlaceModel("a", Place("street", 12, 0)))
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    run(t, Move("a", 1, to=Place("street", 11, 0)))  # 4 spaces from every Marshal: no roll
    t.do(Move("a", 1, to=Place("street", 12, 1), dice=((3,),)))  # 3 from Marshal 2 at (12,4), in sight: a 3 does not
    assert adv(t).counter("alerted") == 0
    t.do(EndActivation("a"))
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    t.do(Move("a", 1, to=Place("street", 13, 1), dice=((2,),)))  # a 2 Alerts them all (on turn 2)
    assert adv(t).counter("alerted") == 2


def test_the_gallows_block_movement_and_townsfolk_cannot_be_attacked_FT_M2_04_FT_M2_06() -> None:
    t = hanging()
    with pytest.raises(IllegalCommand) as error:
        t.do(PlaceModel("a", Place("street", 11, 5)))  # a square of the Gallows
    assert error.value.rule == "FF-MOVE-02"
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    with pytest.raises(IllegalCommand) as error:
        t.do(Attack("a", hits=(HeroHit("townsfolk-1", 2),)))
    assert (error.value.field, error.value.rule) == ("hits[0].target", "FT-M2-06")


def test_shooting_the_rope_a_hit_of_6_wounds_frees_the_prisoner_who_runs_for_entry_c_FT_M2_08_FT_M2_09() -> None:
    t = hanging()
    countdown(t, 1)
    t.do(HoldBackTheDarkness(dice=((2, 3),)))  # the last counter: the trap opens
    assert t.prompt is not None and t.prompt.rule == "FT-M2-08"  # no Ranged numbers on the sheet: the table says
    t.choose("cut")
    before = figure(t, "prisoner").place
    assert adv(t).counter("freed") == 1 and before is not None and before.y is not None and before != Place("street", 12, 6)
    run(t, Activate("a", dice=((2,),)))
    t.do(EndActivation("a", dice=((4,),)))  # not in the turn he was freed: at the start of turn 2, [P] toward C
    assert adv(t).turn == 2
    after = figure(t, "prisoner").place
    assert after is not None and after.y is not None and after.y > before.y


def test_the_prisoner_leaving_at_entry_c_wins_100_xp_FT_M2_10_FT_M2_11() -> None:
    t = hanging()
    with_adventure(t, counters=(*adv(t).counters, MissionCounter("freed", 1)), turn=2, step=TurnStep.ACTIVATIONS)
    prisoner = replace(figure(t, "prisoner"), place=Place("street", 12, 23))
    with_adventure(t, figures=tuple(prisoner if f.id == "prisoner" else f for f in adv(t).figures))
    run(t, Activate("a", dice=((2,),)))
    t.do(EndActivation("a", dice=((3,),)))  # turn 3 starts: 2 steps off at Entry C
    assert t.state.adventure is None and t.state.hero("a").xp == 100 and t.state.hero("a").gold == 0


def test_every_marshal_killed_wins_d6_x_100_each_FT_M2_10_FT_M2_11() -> None:
    t = hanging()
    with_adventure(t, figures=tuple(f for f in adv(t).figures if f.id != "bandit-1" and f.kind != "bandit")
                   + (replace(figure(t, "bandit-1"), health=1),))  # fmt: skip
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    t.do(Attack("a", hits=(HeroHit("bandit-1", 2),), dice=((4,),)))
    assert t.state.adventure is None and (t.state.hero("a").xp, t.state.hero("a").gold) == (100, 400)


def test_the_prisoner_hanged_fails_d3_corruption_and_no_town_FT_M2_10_FT_M2_11() -> None:
    t = hanging()
    countdown(t, 1)
    t.do(HoldBackTheDarkness(dice=((2, 3),)))
    t.choose("missed")
    t.roll(5)  # D3 = 3 Corruption Points (a D6 of 5), Willpower ignored
    assert t.state.adventure is None and t.state.hero("a").corruption == 3
    assert t.state.carry.no_town == "FT-M2-11"


def test_the_prisoner_killed_while_escaping_fails_FT_M2_10() -> None:
    t = hanging()
    with_adventure(t, counters=(*adv(t).counters, MissionCounter("freed", 1)))
    from shared_rules.commands import WoundEnemy

    with pytest.raises(IllegalCommand):  # the heroes never attack him
        t.do(WoundEnemy("prisoner", 5))
    from shared_rules.rules.missions.hanging import HANGING_HIGH

    assert HANGING_HIGH.targets(t.state) == ("prisoner",)  # the Marshals may roll him as a Random Hero


def test_playing_the_mission_to_rescue_a_hero_from_the_hanging_FT_M2_12() -> None:
    from shared_rules.commands import RescueHero
    from shared_rules.rules.adventure import order

    t = hanging(2)
    with pytest.raises(IllegalCommand) as error:
        t.do(RescueHero("a"))  # the Old Lantern holder
    assert error.value.rule == "R-MIS-07"  # issue 20: a reading of FT-M2-12
    run(t, RescueHero("b"))
    assert "prisoner" not in {f.id for f in adv(t).figures} and adv(t).hero("b").place == Place("captive")
    countdown(t, 1)
    t.do(HoldBackTheDarkness(dice=((2, 3),)))
    t.choose("cut")  # only A can shoot the rope
    assert adv(t).hero("b").place is not None and adv(t).hero("b").place.tile == "street"
    assert order(t.state) == ("a",)  # B takes no part until the turn after release
    run(t, Activate("a", dice=((2,),)))
    run(t, EndActivation("a"))
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    assert order(t.state) == ("a", "b")
    run(t, PlaceModel("b", Place("entry:C")))  # B leaves the board at Entry C
    assert t.state.adventure is None and t.state.hero("a").xp == 100


def test_the_captive_kod_fails_the_mission_with_a_single_d6_injury_FT_M2_12() -> None:
    from shared_rules.commands import Adjust, Effect, RescueHero

    t = hanging(2)
    run(t, RescueHero("b"))
    t.do(Adjust("b", (Effect("change", "wounds", 99),)))  # a card KOs the captive
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    assert t.prompt is not None and t.prompt.chart == "injury" and t.prompt.rule == "FT-M2-12"


def test_the_marshals_may_shoot_the_escaped_prisoner_and_a_hero_may_spend_grit_on_his_defense_FT_M2_09() -> None:
    from shared_rules.commands import ActivateBandits

    t = hanging()
    marshal = replace(figure(t, "bandit-4"), place=Place("street", 12, 12), arrived=1)
    prisoner = replace(figure(t, "prisoner"), place=Place("street", 16, 12))
    with_adventure(t, figures=(marshal, prisoner), counters=(MissionCounter("freed", 1), MissionCounter("alerted", 1)))
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    run(t, EndActivation("a"))
    t.do(ActivateBandits())
    t.choose("prisoner")  # the Random Hero: the Prisoner counts
    t.roll(5)  # the Cover roll: it stays and shoots
    t.roll(6)  # a Hit
    t.roll(1)  # his Defense 4+ fails
    assert t.prompt is not None and t.prompt.rule == "FT-M2-09" and t.prompt.hero == "a"
    t.choose("reroll")  # Ann spends her Grit
    t.roll(5)  # saved
    assert t.state.hero("a").grit == 0 and figure(t, "prisoner").wounds == 0
