"""The four Forbidden Fortress Hero Classes with typed-in dice (FF-SAM, FF-ASN, FF-MONK, FF-SORC; A43, A44, A46)."""

from __future__ import annotations

import pytest

from shared_rules import IllegalCommand, InvalidCommand
from shared_rules.commands import (
    Activate,
    ActivateEnemy,
    Attack,
    CastSpell,
    EndActivation,
    EnemyStrike,
    HeroHit,
    Move,
    RingBell,
    SheetEntry,
    SpellCard,
    SpendKi,
    ThrowShuriken,
    UseTactic,
    UseToken,
)
from shared_rules.engine import legal_commands
from tests.rules.adventure.helpers import (
    ASSASSIN,
    MONK,
    SAMURAI,
    SORCERESS,
    adv,
    enemy,
    events,
    legal_types,
    member,
    of,
    on,
    place_enemies,
    run,
    start,
    to_activations,
    with_member,
)
from tests.rules.table import Table


def in_fight(heroes: list, *figures: object, **options: object) -> Table:  # type: ignore[type-arg]
    t = start(heroes, **options)  # type: ignore[arg-type]
    place_enemies(t, *(figures or (enemy("oni-1", health=20),)))  # type: ignore[arg-type]
    to_activations(t)
    t.do(Activate(heroes[0].id, dice=((2,),)))
    return t


# ---- Samurai Warrior --------------------------------------------------------------------------------------------------
def test_fury_per_wounding_combat_hit_not_per_wound_FF_SAM_01() -> None:
    t = in_fight([of("s", SAMURAI)], enemy("oni-1", health=20, defense=2))
    run(t, Attack("s", hits=(HeroHit("oni-1", 6), HeroHit("oni-1", 2), HeroHit("oni-1", 3))))
    assert member(t, "s").fury == 2  # 4 Wounds and 1 Wound: one Fury each; the 2 did no Wound


def test_no_fury_for_hits_that_are_not_combat_hits_FF_SAM_01() -> None:
    t = in_fight([of("s", SAMURAI)])
    run(t, Attack("s", ranged=True, hits=(HeroHit("oni-1", 5),)))
    assert member(t, "s").fury == 0 and adv(t).figure("oni-1").wounds == 5


def test_fury_is_capped_at_max_fury_and_the_excess_lost_FF_SAM_01_A46() -> None:
    t = in_fight([of("s", SAMURAI)])
    with_member(t, "s", fury=2)
    run(t, Attack("s", hits=(HeroHit("oni-1", 3), HeroHit("oni-1", 3))))
    assert member(t, "s").fury == 3 and any(e.rule == "A46" for e in t.events)


def test_battle_tactics_cost_fury_once_per_turn_in_his_activation_FF_SAM_02() -> None:
    t = in_fight([of("s", SAMURAI), of("b")], use_pack=True,
                 sheets=(SheetEntry("s", initiative=9), SheetEntry("b", initiative=1)))
    with_member(t, "s", fury=3)
    run(t, UseTactic("s", "Iron Wall"))
    assert member(t, "s").fury == 1 and "resolve the card" in events(t, "tactic")[0]
    with pytest.raises(IllegalCommand) as error:
        t.do(UseTactic("s", "Iron Wall"))
    assert (error.value.field, error.value.rule) == ("tactic", "FF-SAM-02") and "once per turn" in error.value.message
    run(t, Attack("s", hits=()))
    with_member(t, "s", fury=3)
    with pytest.raises(IllegalCommand) as error:  # outside his activation
        t.do(UseTactic("s", "Iron Wall"))
    assert error.value.rule == "FF-SAM-02"
    run(t, UseTactic("s", "Battle Cry"))  # "unless noted otherwise on the card"


def test_tactic_costs_come_from_the_card_or_the_table_FF_SAM_02() -> None:
    t = in_fight([of("s", SAMURAI)])
    with_member(t, "s", fury=1)
    with pytest.raises(InvalidCommand) as error:
        t.do(UseTactic("s", "Whirlwind"))
    assert error.value.field == "cost"
    with pytest.raises(IllegalCommand) as error:
        t.do(UseTactic("s", "Whirlwind", cost=2))
    assert "costs 2 Fury" in error.value.message
    run(t, UseTactic("s", "Whirlwind", cost=1))


def test_fire_sake_gives_d3_fury_FF_SAM_03() -> None:
    t = start([of("s", SAMURAI, side_bag=("Fire Sake",))])
    assert "use_token" in legal_types(t)
    run(t, UseToken("s", "Fire Sake", dice=((5,),)))
    assert member(t, "s").fury == 3 and t.hero("s").side_bag == ()
    with pytest.raises(IllegalCommand):
        t.do(UseToken("s", "Fire Sake"))


def test_town_tokens_work_the_same_in_an_adventure_FT_BAG_06() -> None:
    t = start([of("s", SAMURAI, side_bag=("Tequila", "Spice"), sanity_damage=5)])
    use = next(c for c in legal_commands(t.state) if c.type == "use_token")
    assert use.options == ("Tequila",)  # Spice is used in a Fight's attack (FT-BAG-01), not on its own
    run(t, UseToken("s", "Tequila", dice=((1, 2),)))  # Heal 2D6 Sanity Damage
    assert t.hero("s").sanity_damage == 2 and t.hero("s").side_bag == ("Spice",)
    with pytest.raises(IllegalCommand) as error:
        t.do(UseToken("s", "Spice"))
    assert error.value.rule == "FT-BAG-01"


def test_only_the_samurai_uses_tactics_and_fire_sake() -> None:
    t = start([of("a", side_bag=("Fire Sake",))])
    for command in (UseTactic("a", "Iron Wall", cost=0), UseToken("a", "Fire Sake")):
        with pytest.raises(IllegalCommand) as error:
            t.do(command)
        assert error.value.field == "hero"


# ---- Assassin ---------------------------------------------------------------------------------------------------------
def test_deadly_adds_damage_against_an_isolated_enemy_FF_ASN_02() -> None:
    t = in_fight([of("k", ASSASSIN)], enemy("oni-1", health=20, defense=3))
    run(t, Attack("k", hits=(HeroHit("oni-1", 3),), isolated=True))
    assert adv(t).figure("oni-1").wounds == 2  # 3 + Deadly 2 - Defense 3


def test_deadly_bypasses_armor_FF_ASN_02() -> None:
    from shared_rules.state import ClassSheet

    t = in_fight([of("k", ASSASSIN)], enemy("oni-1", health=20, armor=4), combat="house")
    with_member(t, "k", sheet=ClassSheet(initiative=9, combat=1, melee_to_hit=4))
    run(t, Attack("k", target="oni-1", dice=((5,), (3,))))  # no Armor roll asked for
    assert adv(t).figure("oni-1").wounds == 3


def test_the_shuriken_is_a_free_ranged_attack_once_per_fight_during_her_move_FF_ASN_03() -> None:
    t = in_fight([of("k", ASSASSIN)], enemy("oni-1", health=20), enemy("tengu-1", health=1))
    run(t, Move("k", 1))
    run(t, ThrowShuriken("k", hits=(HeroHit("tengu-1", 2),)))
    run(t, Move("k", 1))  # her move goes on
    assert adv(t).activation is not None and member(t, "k").shuriken_thrown
    assert "throw_shuriken" not in legal_types(t)
    with pytest.raises(IllegalCommand) as error:
        t.do(ThrowShuriken("k", hits=(HeroHit("oni-1", 2),)))
    assert error.value.rule == "FF-ASN-03" and "once per Fight" in error.value.message
    run(t, Attack("k", hits=(HeroHit("oni-1", 3),)))  # and she still has her Attack


def test_the_shuriken_comes_back_for_the_next_fight_FF_ASN_03() -> None:
    t = in_fight([of("k", ASSASSIN)], enemy("oni-1", health=2))
    run(t, ThrowShuriken("k", hits=(HeroHit("oni-1", 2),)))
    assert not adv(t).in_fight and not member(t, "k").shuriken_thrown


def test_no_shuriken_outside_a_fight_or_for_other_classes_FF_ASN_03() -> None:
    t = start([of("k", ASSASSIN), of("a")])
    to_activations(t)
    run(t, Activate("k", dice=((2,),)))
    with pytest.raises(IllegalCommand):
        t.do(ThrowShuriken("k", hits=()))
    t = in_fight([of("a")])
    with pytest.raises(IllegalCommand) as error:
        t.do(ThrowShuriken("a", hits=()))
    assert error.value.rule == "FF-ASN-03"


# ---- Traveling Monk ---------------------------------------------------------------------------------------------------
def test_ki_adds_damage_to_one_combat_hit_FF_MONK_01() -> None:
    t = in_fight([of("m", MONK)], enemy("oni-1", health=20, defense=3))
    with_member(t, "m", ki=3)
    run(t, Attack("m", hits=(HeroHit("oni-1", 3), HeroHit("oni-1", 3)), ki=2))
    assert adv(t).figure("oni-1").wounds == 2 and member(t, "m").ki == 1  # 3+2-3, then 3-3


def test_ki_only_on_melee_and_no_more_than_he_has_FF_MONK_01() -> None:
    t = in_fight([of("m", MONK)])
    with pytest.raises(IllegalCommand) as error:
        t.do(Attack("m", hits=(), ki=2))  # he has 1 (the start of turn 1)
    assert (error.value.field, error.value.rule) == ("ki", "FF-MONK-01")
    with pytest.raises(IllegalCommand):
        t.do(Attack("m", ranged=True, hits=(), ki=1))


def test_ki_adds_to_his_healing_FF_MONK_01() -> None:
    t = start([of("m", MONK), of("a", wounds=5)])
    with_member(t, "m", ki=2)
    run(t, SpendKi("m", 2, "a", base=1))
    assert t.hero("a").wounds == 5 - (1 + 2 * 1) and member(t, "m").ki == 0
    with_member(t, "m", ki=1)
    with pytest.raises(IllegalCommand):
        t.do(SpendKi("m", 1, "a", heal="sanity"))


def test_the_sacred_bell_gives_cover_3_on_his_tile_once_per_adventure_FF_MONK_02() -> None:
    t = start([of("m", MONK), of("a", defense=6), of("b", defense=6)])
    with_member(t, "b", place=on("tile-9"))
    run(t, RingBell("m"))
    assert (member(t, "m").cover, member(t, "a").cover, member(t, "b").cover) == (3, 3, 0)
    with pytest.raises(IllegalCommand) as error:
        t.do(RingBell("m"))
    assert error.value.rule == "FF-MONK-02" and "once per Adventure" in error.value.message
    place_enemies(t, enemy("oni-1", initiative=20, damage=2))
    to_activations(t)
    run(t, ActivateEnemy("oni-1", strikes=(EnemyStrike("a", hits=3),), dice=((3, 2, 6), (1,))))
    assert t.hero("a").wounds == 2  # Cover ignores the 3 and the 6, Defense 6+ misses the third
    for hero in ("m", "a", "b"):
        run(t, Activate(hero, dice=((2,),)))
        run(t, EndActivation(hero))
    assert member(t, "a").cover == 0  # until the end of the turn


def test_the_bell_covers_every_damage_source_even_adjacent_A35() -> None:
    t = start([of("m", MONK, defense=6)])
    run(t, RingBell("m"))
    place_enemies(t, enemy("oni-1", initiative=20))
    to_activations(t)
    run(t, ActivateEnemy("oni-1", strikes=(EnemyStrike("m", hits=1, damage=1, ignore_defense=True),), dice=((4,),)))
    assert t.hero("m").wounds == 0


# ---- Sorceress --------------------------------------------------------------------------------------------------------
def sorceress(**options: object) -> Table:
    return start([of("w", SORCERESS, xp=0), of("a")], dice=((2,),), **options)  # type: ignore[arg-type]


def test_a_casting_roll_uses_the_best_two_dice_plus_focus_FF_SORC_02_FF_SORC_05() -> None:
    t = sorceress(use_pack=True)
    run(t, CastSpell("w", "Fire Lash", extra_mana=1, dice=((1, 5, 1),)))  # 5+1 +1 Focus = 7: Fire Lash 7+
    assert member(t, "w").mana == 3 - 1 - 1 and t.hero("w").xp == 5
    assert "takes effect" in events(t, "spell")[-1]


def test_each_spell_at_most_once_per_turn_even_after_a_failure_FF_SORC_04() -> None:
    t = sorceress(use_pack=True)
    with_member(t, "w", arcane_powder=0)
    t.do(CastSpell("w", "Fire Lash", dice=((1, 2),)))
    t.choose("accept")  # let it fail
    assert "fails" in events(t, "spell")[-1]
    with pytest.raises(IllegalCommand) as error:
        t.do(CastSpell("w", "Fire Lash"))
    assert (error.value.field, error.value.rule) == ("spell", "FF-SORC-04")


def test_mana_is_paid_first_and_wasted_on_a_failure_FF_SORC_05() -> None:
    t = sorceress()
    with pytest.raises(IllegalCommand) as error:
        t.do(CastSpell("w", "Storm", SpellCard(cost=4, casting=6)))
    assert error.value.rule == "FF-SORC-05"
    with pytest.raises(InvalidCommand) as error:
        t.do(CastSpell("w", "Storm"))
    assert error.value.field == "card"
    with_member(t, "w", arcane_powder=0)
    t.do(CastSpell("w", "Storm", SpellCard(cost=3, casting=12), dice=((2, 3),)))
    assert t.prompt is None and member(t, "w").mana == 0  # nothing left to add: it fails


def test_extra_mana_dice_and_arcane_powder_after_the_roll_FF_SORC_05_FF_SORC_08() -> None:
    t = sorceress()
    with_member(t, "w", arcane_powder=2)
    t.do(CastSpell("w", "Storm", SpellCard(cost=1, casting=11, element="wind"), dice=((4, 3),)))
    assert [o.key for o in t.prompt.options] == ["mana", "powder", "accept"]  # type: ignore[union-attr]
    t.choose("mana")
    t.roll(6)  # 6,4,3: the best two are 10
    t.choose("powder")  # 11
    assert t.prompt is None and member(t, "w").mana == 1 and member(t, "w").arcane_powder == 1
    assert "takes effect" in events(t, "spell")[-1]


def test_grit_may_reroll_casting_dice_A44() -> None:
    t = sorceress(rerolls=True)
    with_member(t, "w", arcane_powder=0, mana=1)
    t.do(CastSpell("w", "Storm", SpellCard(cost=1, casting=9), dice=((1, 4),)))
    assert [o.key for o in t.prompt.options] == ["grit", "accept"]  # type: ignore[union-attr]
    t.choose("grit")
    t.reroll(0)
    t.roll(5)
    assert t.prompt is None and t.hero("w").grit == 0 and "takes effect" in events(t, "spell")[-1]


def test_dangerous_spells_give_a_corruption_hit_on_any_doubles_FF_SORC_06_A43() -> None:
    t = sorceress(use_pack=True)
    run(t, CastSpell("w", "Stone Skin", extra_mana=1, dice=((2, 6, 2), (1,))))  # doubles among all 3 dice
    assert t.hero("w").corruption == 1 and "takes effect" in events(t, "spell")[-1]  # 6+2 = 8 still succeeds
    assert t.hero("w").xp == 10


def test_xp_only_the_first_time_when_the_card_says_so_FF_SORC_04() -> None:
    t = sorceress(use_pack=True)
    with_member(t, "w", spells_with_xp=("Stone Skin",))
    run(t, CastSpell("w", "Stone Skin", dice=((5, 6),)))
    assert t.hero("w").xp == 0


def test_mana_refills_to_full_each_turn_FF_SORC_03() -> None:
    t = sorceress(use_pack=True)
    run(t, CastSpell("w", "Fire Lash", dice=((5, 6),)))
    assert member(t, "w").mana == 2
    to_activations(t)
    for hero in ("a", "w"):  # the pack's Sorceress has Initiative 3
        run(t, Activate(hero, dice=((2,),)))
        run(t, EndActivation(hero))
    assert member(t, "w").mana == 3 and member(t, "w").spells_cast == ()


def test_the_elemental_blast_always_succeeds_once_a_turn_for_its_mana_FF_SORC_01() -> None:
    t = in_fight([of("w", SORCERESS), of("a")], enemy("oni-1", health=20), dice=((2,),))
    run(t, Attack("w", blast=True, hits=(HeroHit("oni-1", 4),)))
    assert member(t, "w").mana == 2 and adv(t).figure("oni-1").wounds == 4
    assert member(t, "w").spells_cast == ("Elemental Blast",)
    with pytest.raises(IllegalCommand) as error:
        t.do(CastSpell("w", "Elemental Blast"))
    assert error.value.rule == "FF-SORC-01"


def test_only_the_sorceress_casts_FF_SORC_04() -> None:
    t = start([of("a")])
    with pytest.raises(IllegalCommand) as error:
        t.do(CastSpell("a", "Storm", SpellCard(cost=0, casting=2)))
    assert error.value.field == "hero"
    assert [c.hero for c in legal_commands(sorceress().state) if c.type == "cast_spell"] == ["w"]


def test_a_card_gives_or_takes_ability_tokens_within_the_cap_FF_HERO_09_A46() -> None:
    from shared_rules.commands import AdjustResource

    t = start([of("s", SAMURAI), of("w", SORCERESS)], dice=((2,),))
    run(t, AdjustResource("s", "fury", 5, reason="a Battle Cry"))
    assert member(t, "s").fury == 3 and any(e.rule == "A46" for e in t.events)
    run(t, AdjustResource("w", "arcane_powder", 4))
    assert member(t, "w").arcane_powder == 6  # the bag has no cap
    with pytest.raises(InvalidCommand) as error:
        t.do(AdjustResource("s", "rage", 1))
    assert error.value.field == "resource"
