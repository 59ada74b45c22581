"""The Bandits' activation as a command on the turn engine, and the table's corrections (FT-BANDIT-03..08 through
`activate_bandits`, FT-BOARD-02/03 through `place_model`), with typed-in dice."""

from __future__ import annotations

import pytest

from shared_rules import IllegalCommand
from shared_rules.commands import (
    Activate,
    ActivateBandits,
    BanditTarget,
    EndActivation,
    HoldBackTheDarkness,
    PlaceModel,
)
from shared_rules.events import FireLine
from shared_rules.state import Place
from tests.rules.missions.helpers import adv, answer, figure, run, town

M1 = "shootout_in_the_streets"


def bandits_up() -> object:
    """Two Heroes; A at (7,12); a Rooftop Bandit joins the three at Entry D; both Heroes pass: the Bandits are next."""
    t = town(M1)
    run(t, PlaceModel("a", Place("street", 7, 12)))
    t.do(HoldBackTheDarkness(dice=((6, 4), (1,), (5,), (1,))))  # D3 = 1; a D6 of 5: a Random Rooftop, D8 1
    for hero in ("a", "b"):
        run(t, Activate(hero, dice=((2,),)))
        run(t, EndActivation(hero))
    return t


def test_the_activation_proposes_each_bandit_as_data_and_resolves_the_shots_FT_BANDIT_05_FT_BANDIT_06_FT_BANDIT_08() -> None:
    t = bandits_up()
    t.do(ActivateBandits(dice=((5,),)))  # Bandit 1's Cover roll, after its target is drawn: it ignores Cover
    answer(t, "a", 5, 5,  # Bandit 1 targets A; the Cover rolls of Bandits 2 and 3
           (5, 5), (2, 2),  # the Rooftop Rifle (2 Shots, first, FT-BANDIT-08): 2 Hits; A's Defense fails twice
           (5,), (6,),  # Bandit 1's Pistol: a Hit, saved
           (2,))  # Bandit 3's Pistol misses
    assert t.prompt is None
    plans = [e.bandit for e in t.events if e.type.value == "bandit"]
    assert [p.bandit for p in plans if p] == ["bandit-4", "bandit-1", "bandit-2", "bandit-3"]  # the rooftop first
    roof, first, second, third = plans
    assert roof is not None and (roof.reason, roof.target, roof.shots) == (
        "rooftop", "a", (FireLine("a", (4, 7), (7, 12), False),))
    assert first is not None and (first.start, first.end, first.path, first.reason, first.dice) == (
        Place("street", 0, 12), Place("street", 1, 11), ((0, 12), (1, 11)), "advance", (5,))
    assert second is not None and (second.reason, second.action, second.shots) == ("no_target", "none", ())
    assert third is not None and third.target == "a" and third.shots[0].frm == (5, 9)
    texts = [e.text for e in t.events if e.type.value == "bandit"]
    assert texts[1] == "Bandit 1: rolled 5, moves 1 space, targets A"
    assert t.state.hero("a").wounds == 8  # 2 Rifle Hits x Damage 4
    assert figure(t, "bandit-1").place == Place("street", 1, 11)
    assert adv(t).turn == 2 and not adv(t).activated  # the group has activated: the turn ends


def test_a_target_corrected_without_line_of_sight_is_refused_nothing_applied_FT_BANDIT_05() -> None:
    t = bandits_up()
    before = t.state
    with pytest.raises(IllegalCommand) as error:
        t.do(ActivateBandits(targets=(BanditTarget("bandit-2", "b"),), dice=((5,),)))
        answer(t, "a", 5, 5, 5)
    assert (error.value.field, error.value.rule) == ("targets", "FT-BANDIT-05")
    assert t.state.adventure == before.adventure


def test_place_model_refuses_a_square_on_another_tile_a_taken_square_and_a_path_through_a_wall_FT_BOARD_02_03() -> None:
    t = town(M1)
    cases = [
        (PlaceModel("a", Place("street", 6, 7)), "to.tile", "FT-BOARD-02"),  # (6,7) is inside Building 2
        (PlaceModel("a", Place("street", 0, 12)), "to", "FF-MOVE-02"),  # Bandit 1 stands there
        (PlaceModel("a", Place("street", 30, 2)), "to", "FT-BOARD-02"),  # off the board
        (PlaceModel("a", Place("roof:9")), "to", "FT-BOARD-12"),
        (PlaceModel("bandit-1", Place("building-1", 1, 4), path=((0, 4), (1, 4))), "path[1]", "FT-BOARD-03"),
        (PlaceModel("bandit-1", Place("building-1", 1, 3), path=((0, 3), (1, 3))), "path[1]", "FT-BOARD-05"),
    ]
    for command, field, rule in cases:
        with pytest.raises(IllegalCommand) as error:
            t.do(command)
        assert (error.value.field, error.value.rule) == (field, rule), command
    run(t, PlaceModel("bandit-1", Place("roof:3+4")))
    assert figure(t, "bandit-1").place == Place("roof:3+4")


def test_the_table_retargets_a_bandit_that_has_range_and_sight_FT_BANDIT_05() -> None:
    t = bandits_up()
    t.do(ActivateBandits(targets=(BanditTarget("bandit-3", "a"),), dice=((5,),)))
    answer(t, "a", 5, 5, (1, 1), (1,), (1,))  # the same draws; every shot misses
    third = [e for e in t.events if e.type.value == "bandit"][3]
    assert third.bandit is not None and (third.bandit.target, third.bandit.action) == ("a", "ranged")
    assert third.text.endswith("the table says: targets a")


def test_rooftop_falls_a_bandit_killed_there_and_a_hero_wounded_there_FT_BOARD_20() -> None:
    from shared_rules.commands import Attack, HeroHit

    t = town(M1, 1)  # Ann starts with 1 Grit of 2
    run(t, PlaceModel("bandit-1", Place("roof:3+4")))
    t.do(HoldBackTheDarkness(dice=((6, 4), (1,), (2,))))
    run(t, Activate("a", dice=((2,),)))
    t.do(Attack("a", hits=(HeroHit("bandit-1", 9),), dice=((2,),)))  # a 2: it falls; Ann Recovers 1 Grit
    assert t.state.hero("a").grit == 2 and any("falls screaming" in x for x in t.texts())
    t = town(M1, 1)
    run(t, PlaceModel("a", Place("roof:3+4")))
    run(t, PlaceModel("bandit-1", Place("roof:1")))  # a Rifle across the rooftops (every rooftop sees every other)
    t.do(HoldBackTheDarkness(dice=((6, 4), (1,), (2,))))
    run(t, Activate("a", dice=((2,),)))
    run(t, EndActivation("a"))
    t.do(ActivateBandits(dice=((5,), (5,), (5,))))  # the ground Bandits' Cover rolls: they move on
    answer(t, (6, 6), (1, 1),  # the Rifle: 2 Hits; Ann has Cover on her rooftop (FT-BOARD-13) and fails both saves
           (1, 1),  # her Defense fails too: 2 x Damage 4
           2, "15,2", 1)  # a 2: she falls, lands at (15,2) beside Buildings 3+4, D6 1 Wound ignoring Defense
    assert adv(t).hero("a").place == Place("street", 15, 2) and t.state.hero("a").wounds == 9


def test_activate_enemy_on_a_rooftop_hero_makes_cover_saves_and_the_fall_roll_FT_BOARD_13_FT_BOARD_07_FT_BOARD_20() -> None:
    """Issue 20: any Enemy's Hits (`activate_enemy`) on a Hero on a Rooftop go through the Bandits' own path: Cover
    Saves before Defense (a Rooftop is Cover from every attacker not on it), then the fall roll when wounded."""
    from shared_rules.commands import ActivateEnemy, EnemyStrike
    from tests.rules.adventure.helpers import enemy, place_enemies

    t = town(M1, 1)
    run(t, PlaceModel("a", Place("roof:3+4")))
    place_enemies(t, enemy("oni-1", initiative=12, place=Place("street", 7, 12)))
    t.do(HoldBackTheDarkness(dice=((6, 4), (1,), (2,))))
    t.do(ActivateEnemy("oni-1", strikes=(EnemyStrike("a", hits=3, damage=3),),
                       dice=((1, 2, 5),)))  # Cover Saves: the 5 saves one Hit (FT-BOARD-07)  # fmt: skip
    answer(t, (1, 1),  # Defense fails both Hits left: 2 x 3 Wounds
           2, "15,2", 1)  # wounded on the Rooftop: a 2 is a fall, onto (15,2), 1 Wound ignoring Defense
    assert adv(t).hero("a").place == Place("street", 15, 2) and t.state.hero("a").wounds == 7
    rules = [e.rule for e in t.events if e.type.value == "rolled"]
    assert rules.index("FT-BOARD-07") < rules.index("FF-HERO-04") < rules.index("FT-BOARD-20")


def test_activate_enemy_on_the_same_rooftop_gets_no_cover_save_FT_BOARD_13() -> None:
    from shared_rules.commands import ActivateEnemy, EnemyStrike
    from tests.rules.adventure.helpers import enemy, place_enemies

    t = town(M1, 1)
    run(t, PlaceModel("a", Place("roof:3+4")))
    place_enemies(t, enemy("oni-1", initiative=12, place=Place("roof:3+4")))
    t.do(HoldBackTheDarkness(dice=((6, 4), (1,), (2,))))
    t.do(ActivateEnemy("oni-1", strikes=(EnemyStrike("a", hits=1, damage=3),), dice=((6,),)))  # Defense saves it
    assert t.prompt is None and t.state.hero("a").wounds == 0
    assert "FT-BOARD-07" not in [e.rule for e in t.events if e.type.value == "rolled"]
