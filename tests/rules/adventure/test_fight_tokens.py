"""The fight Side Bag tokens in an Adventure's Fight, with typed-in dice (issue 20: they were refused everywhere):
Spice (FT-BAG-01), Hatchet (FT-BAG-03), Fine Cigar (FT-BAG-07); readings R-ADV-01..03."""

from __future__ import annotations

import pytest

from shared_rules import IllegalCommand, InvalidCommand
from shared_rules.commands import (
    Activate,
    ActivateEnemy,
    Attack,
    EndActivation,
    EnemyStrike,
    HeroHit,
    SheetEntry,
    UseToken,
)
from shared_rules.engine import legal_commands
from tests.rules.adventure.helpers import adv, enemy, member, of, place_enemies, run, start, to_activations
from tests.rules.table import Table


def fighting(*, side_bag: tuple[str, ...], combat: str = "typed", **values: object) -> Table:
    t = start([of("a", side_bag=side_bag, **values)], combat=combat)  # type: ignore[arg-type]
    place_enemies(t, enemy("oni-1", health=9, defense=1))
    to_activations(t)
    t.do(Activate("a", dice=((2,),)))
    return t


def tokens_offered(t: Table) -> tuple[str, ...]:
    return next((c.options for c in legal_commands(t.state) if c.type == "use_token"), ())


# ---- Hatchet (FT-BAG-03) -------------------------------------------------------------------------------------------
def test_a_hatchet_is_a_ranged_free_attack_with_2_more_damage_FT_BAG_03() -> None:
    t = fighting(side_bag=("Hatchet",))
    assert "Hatchet" in tokens_offered(t)
    run(t, UseToken("a", "Hatchet", hits=(HeroHit("oni-1", 3),)))  # the damage die's 3, +2, less Defense 1
    assert adv(t).figure("oni-1").wounds == 4 and t.hero("a").side_bag == ()
    assert adv(t).activation is not None and adv(t).activation.figure == "a"  # a Free Attack: she may still Attack
    run(t, Attack("a", hits=(HeroHit("oni-1", 2),)))
    assert adv(t).figure("oni-1").wounds == 5


def test_the_hatchet_has_shots_1_and_is_thrown_in_a_fight_in_the_heros_own_activation_FT_BAG_03_R_ADV_01() -> None:
    t = fighting(side_bag=("Hatchet",))
    with pytest.raises(InvalidCommand) as error:
        t.do(UseToken("a", "Hatchet", hits=(HeroHit("oni-1", 3), HeroHit("oni-1", 3))))
    assert error.value.rule == "FT-BAG-03"
    t = start([of("a", side_bag=("Hatchet",))])
    with pytest.raises(IllegalCommand) as error:  # no enemy on the board
        t.do(UseToken("a", "Hatchet", hits=(HeroHit("oni-1", 3),)))
    assert error.value.rule == "FT-BAG-03" and "Hatchet" not in tokens_offered(t)
    t = start([of("a", side_bag=("Hatchet",))])
    place_enemies(t, enemy("oni-1", initiative=20))
    to_activations(t)
    with pytest.raises(IllegalCommand) as error:  # the enemy's turn, not hers
        t.do(UseToken("a", "Hatchet", target="oni-1"))
    assert error.value.rule == "R-ADV-01"


def test_the_house_hatchet_rolls_one_die_against_melee_to_hit_and_a_damage_die_plus_2_FT_BAG_03() -> None:
    t = start([of("a", side_bag=("Hatchet",))], combat="house",
              sheets=(SheetEntry("a", initiative=10, melee_to_hit=4, ranged_to_hit=6, combat=2, shots=3),))  # fmt: skip
    place_enemies(t, enemy("oni-1", health=9, defense=1))
    to_activations(t)
    t.do(Activate("a", dice=((2,),)))
    run(t, UseToken("a", "Hatchet", target="oni-1", dice=((4,), (5,))))  # 4 hits Melee To Hit 4+; 5 + 2 - 1
    assert adv(t).figure("oni-1").wounds == 6


# ---- Spice (FT-BAG-01) ---------------------------------------------------------------------------------------------
def test_spice_adds_d3_damage_to_one_hit_and_costs_a_wound_ignoring_defense_FT_BAG_01_R_ADV_02() -> None:
    t = fighting(side_bag=("Spice",))
    run(t, UseToken("a", "Spice"))
    assert t.hero("a").wounds == 1 and member(t, "a").spice
    t.do(Attack("a", hits=(HeroHit("oni-1", 2), HeroHit("oni-1", 3))))
    assert t.prompt is not None and t.prompt.rule == "FT-BAG-01"  # which Hit?
    t.choose("1")
    t.roll(5)  # D3 of 3 (a D6 of 5)
    assert adv(t).figure("oni-1").wounds == (2 - 1) + (3 + 3 - 1) and not member(t, "a").spice


def test_a_second_spice_waits_for_the_first_FT_BAG_01() -> None:
    t = fighting(side_bag=("Spice", "Spice"))
    run(t, UseToken("a", "Spice"))
    with pytest.raises(IllegalCommand) as error:
        t.do(UseToken("a", "Spice"))
    assert error.value.rule == "FT-BAG-01"


# ---- Fine Cigar (FT-BAG-07) ----------------------------------------------------------------------------------------
def test_a_fine_cigar_gives_armor_3_after_defense_until_the_end_of_the_turn_FT_BAG_07_R_ADV_03() -> None:
    t = start([of("a", side_bag=("Fine Cigar",), defense=5)])
    place_enemies(t, enemy("oni-1", initiative=20, damage=2))
    to_activations(t)
    run(t, UseToken("a", "Fine Cigar"))  # at any time in a Fight: the enemy's turn too
    assert member(t, "a").armor == 3
    run(t, ActivateEnemy("oni-1", strikes=(EnemyStrike("a", hits=3),), dice=((6, 1, 1), (3, 2))))
    assert t.hero("a").wounds == 2  # Defense saves one; Armor 3+ saves one of the two left
    run(t, Activate("a", dice=((2,),)))
    run(t, EndActivation("a"))
    assert adv(t).turn == 2 and member(t, "a").armor == 0  # until the end of the turn



def test_a_hero_sitting_out_the_duel_is_refused_not_crashed_R_MIS_11() -> None:
    from tests.rules.missions.helpers import town

    t = town("high_noon_duel", 2, answers=(4, 2))  # the Initiative D6s (FT-M6-03)
    with pytest.raises(IllegalCommand) as error:
        t.do(UseToken("b", "Fine Cigar"))
    assert error.value.rule == "R-MIS-11"
