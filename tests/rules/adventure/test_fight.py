"""Fights with typed-in dice: enemies, Hits, saves, KO, Revive Tokens, the Fight's end (FF-TURN-05, FF-HERO-02..05/11/13,
FF-END-02), and the house combat procedure (option `combat`)."""

from __future__ import annotations

import pytest

from shared_rules import Effect, IllegalCommand, InvalidCommand
from shared_rules.commands import (
    Activate,
    ActivateEnemy,
    AddEnemies,
    Attack,
    EnemyStrike,
    HeroHit,
    NewEnemy,
    StopBleeding,
    WoundEnemy,
)
from shared_rules.state import Phase
from tests.rules.adventure.helpers import (
    adv,
    enemy,
    events,
    of,
    place_enemies,
    run,
    set_hero,
    start,
    to_activations,
    with_adventure,
)
from tests.rules.table import Table


def fighting(heroes: list, *figures: object, roll: int = 2, **options: object) -> Table:  # type: ignore[type-arg]
    t = start(heroes, **options)  # type: ignore[arg-type]
    place_enemies(t, *figures)  # type: ignore[arg-type]
    to_activations(t)
    t.do(Activate(heroes[0].id, dice=((roll,),)))
    return t


# ---- enemies on the board ---------------------------------------------------------------------------------------------
def test_enemies_put_on_the_board_begin_a_fight_with_health_and_wounds_FF_TURN_05() -> None:
    t = start([of("a")])
    run(t, AddEnemies((NewEnemy("Oni", health=8, defense=4, count=2), NewEnemy("Tengu", health=3))))
    assert [(f.id, f.health, f.wounds, f.side.value) for f in adv(t).enemies] == [
        ("oni-1", 8, 0, "enemy"), ("oni-2", 8, 0, "enemy"), ("tengu-1", 3, 0, "enemy")]
    assert adv(t).in_fight and adv(t).fights == 1 and "A Fight begins" in events(t, "enemies_arrived")[0]


def test_pack_enemy_sheets_and_typed_numbers_FF_TURN_05() -> None:
    t = start([of("a")], use_pack=True)
    run(t, AddEnemies((NewEnemy(kind="oni"), NewEnemy(kind="tengu", health=5))))
    oni, tengu = adv(t).enemies
    assert (oni.name, oni.health, oni.armor, oni.size) == ("Oni", 8, 5, "large")
    assert tengu.health == 5 and tengu.defense == 3
    with pytest.raises(InvalidCommand) as error:
        t.do(AddEnemies((NewEnemy(kind="dragon"),)))
    assert error.value.field == "enemies[0].kind"
    with pytest.raises(InvalidCommand) as error:
        t.do(AddEnemies((NewEnemy("Oni", health=0),)))
    assert error.value.field == "enemies[0].health"


# ---- hero attacks (typed) ----------------------------------------------------------------------------------------------
def test_typed_hits_less_defense_are_wounds_and_a_kill_ends_the_fight_FF_TURN_05() -> None:
    t = fighting([of("a")], enemy("oni-1", health=5, defense=2))
    run(t, Attack("a", hits=(HeroHit("oni-1", 4), HeroHit("oni-1", 1))))
    assert adv(t).figure("oni-1").wounds == 2  # 4-2, then 1-2 is nothing
    run(t, ActivateEnemy("oni-1"))  # its turn: it does nothing
    to_activations(t)
    run(t, Activate("a", dice=((2,),)))
    run(t, Attack("a", hits=(HeroHit("oni-1", 6),)))
    assert not adv(t).in_fight and adv(t).figures == ()
    assert "is killed" in events(t, "killed")[0] and events(t, "fight_over")


def test_an_attack_ends_the_activation_and_a_miss_is_no_hits_FF_TURN_05() -> None:
    t = fighting([of("a"), of("b")], enemy())
    run(t, Attack("a"))
    assert adv(t).activated == ("a",) and "misses" in events(t, "hit")[-1]


def test_hits_on_a_dead_enemy_are_lost() -> None:
    t = fighting([of("a")], enemy("oni-1", health=2))
    run(t, Attack("a", hits=(HeroHit("oni-1", 3), HeroHit("oni-1", 3))))
    assert "finds no target" in events(t, "hit")[-1]


def test_typed_hits_name_enemies_on_the_board() -> None:
    t = fighting([of("a")], enemy())
    with pytest.raises(InvalidCommand) as error:
        t.do(Attack("a", hits=(HeroHit("tengu-9", 3),)))
    assert error.value.field == "hits[0].target"


def test_wounds_from_a_card_FF_TURN_05() -> None:
    t = start([of("a")])
    place_enemies(t, enemy("oni-1", health=3))
    run(t, WoundEnemy("oni-1", 3, reason="a Bomb"))
    assert not adv(t).in_fight


# ---- enemies strike ---------------------------------------------------------------------------------------------------
def enemy_turn(heroes: list, figure: object, **options: object) -> Table:  # type: ignore[type-arg]
    t = start(heroes, **options)  # type: ignore[arg-type]
    place_enemies(t, figure)  # type: ignore[arg-type]
    to_activations(t)
    return t


def test_each_hit_gets_a_defense_save_and_unsaved_hits_do_their_damage_FF_HERO_04() -> None:
    t = enemy_turn([of("a", defense=4)], enemy("oni-1", initiative=20, damage=2))
    run(t, ActivateEnemy("oni-1", strikes=(EnemyStrike("a", hits=3),), dice=((4, 3, 1),)))
    assert t.hero("a").wounds == 4  # the 4 saves; the 3 and the 1 do 2 Wounds each


def test_ignoring_defense_skips_the_save_FF_HERO_04() -> None:
    t = enemy_turn([of("a")], enemy("oni-1", initiative=20))
    run(t, ActivateEnemy("oni-1", strikes=(EnemyStrike("a", hits=2, damage=1, ignore_defense=True),)))
    assert t.hero("a").wounds == 2


def test_grit_may_reroll_failed_saves_FF_HERO_04_FF_GRIT_01() -> None:
    t = enemy_turn([of("a", defense=4, max_grit=2)], enemy("oni-1", initiative=20, damage=3), rerolls=True)
    t.do(ActivateEnemy("oni-1", strikes=(EnemyStrike("a", hits=2),), dice=((2, 5),)))
    assert t.prompt is not None and t.prompt.kind == "reroll" and t.prompt.hero == "a"
    t.reroll(0)
    t.roll(6)
    assert t.prompt is None and t.hero("a").wounds == 0 and t.hero("a").grit == 0


def test_horror_and_corruption_hits_are_saved_with_willpower_FF_HERO_03_FF_HERO_05() -> None:
    t = enemy_turn([of("a", willpower=5)], enemy("oni-1", initiative=20))
    run(t, ActivateEnemy("oni-1", strikes=(EnemyStrike("a", hits=2, kind="horror"),
                                           EnemyStrike("a", hits=2, kind="corruption")),
                         dice=((5, 1), (6, 2))))  # fmt: skip
    assert (t.hero("a").sanity_damage, t.hero("a").corruption) == (1, 1)


def test_the_enemy_strikes_only_in_its_turn_FF_TURN_03() -> None:
    t = enemy_turn([of("a")], enemy("oni-1", initiative=1))
    with pytest.raises(IllegalCommand) as error:
        t.do(ActivateEnemy("oni-1"))
    assert error.value.rule == "FF-TURN-03" and error.value.field == "enemy"


# ---- KO, Revive Tokens, all KO'd ----------------------------------------------------------------------------------------
def test_a_kod_hero_may_use_a_revive_token_FF_HERO_02_FF_HERO_13() -> None:
    t = enemy_turn([of("a", health_base=5), of("b")], enemy("oni-1", initiative=20, damage=5))
    assert adv(t).revive_tokens == 1
    t.do(ActivateEnemy("oni-1", strikes=(EnemyStrike("a", hits=1),), dice=((1,),)))
    assert t.prompt is not None and t.prompt.rule == "FF-HERO-13"
    assert t.prompt.options[0].costs[0].field == "revive_token"
    t.choose("revive")
    assert not t.hero("a").knocked_out and t.hero("a").health_left == 1 and adv(t).revive_tokens == 0


def test_a_kod_hero_who_stays_down_recovers_when_the_fight_ends() -> None:
    t = enemy_turn([of("a", health_base=5), of("b")], enemy("oni-1", initiative=20, damage=5, health=2))
    t.do(ActivateEnemy("oni-1", strikes=(EnemyStrike("a", hits=1),), dice=((1,),)))
    t.choose("stay_down")
    assert t.hero("a").knocked_out
    run(t, Activate("b", dice=((2,),)))
    t.do(Attack("b", hits=(HeroHit("oni-1", 2),)))
    assert t.prompt is not None and (t.prompt.chart, t.prompt.hero) == ("injury", "a")
    t.card("Scar")
    assert not t.hero("a").knocked_out and t.hero("a").health_left == 1


def test_kod_heroes_outside_a_fight_recover_at_the_end_of_the_turn() -> None:
    t = start([of("a"), of("b", sanity_damage=10)])
    to_activations(t)
    run(t, Activate("a", dice=((2,),)))
    from shared_rules.commands import EndActivation

    t.do(EndActivation("a"))
    assert t.prompt is not None and (t.prompt.chart, t.prompt.hero) == ("madness", "b")
    t.card("Twitch")
    assert not t.hero("b").knocked_out and adv(t).turn == 2


def test_every_hero_kod_at_once_fails_the_mission_FF_END_02() -> None:
    t = enemy_turn([of("a", health_base=3)], enemy("oni-1", initiative=20, damage=3))
    with_adventure(t, revive_tokens=0)
    t.do(ActivateEnemy("oni-1", strikes=(EnemyStrike("a", hits=1),), dice=((1,),)))
    assert t.prompt is not None and t.prompt.chart == "injury"  # the Heroes escape but roll Injury (FF-END-02)
    t.card("Limp")
    assert t.state.phase is Phase.BETWEEN_ADVENTURES and t.state.adventure is None
    assert [e.rule for e in t.events if e.type.value == "adventure_ended"][0] == "FF-END-02"
    assert t.hero("a").wounds == 0 and t.hero("a").grit == 1  # healed and Grit back to 1 after the Mission


def test_bleeding_markers_lower_health_by_3_and_grit_removes_one_FF_HERO_11() -> None:
    t = start([of("a", health_base=10, wounds=5, max_grit=2)])
    t.do(__import__("shared_rules").Adjust("a", (Effect("change", "bleeding", 1),)))
    assert t.hero("a").max_health == 7 and t.hero("a").health_left == 2
    run(t, StopBleeding("a"))
    assert t.hero("a").bleeding == 0 and t.hero("a").max_health == 10 and t.hero("a").grit == 0
    with pytest.raises(IllegalCommand) as error:
        t.do(StopBleeding("a"))
    assert error.value.rule == "FF-HERO-11"


# ---- the house procedure ------------------------------------------------------------------------------------------------
def test_house_combat_rolls_to_hit_and_a_damage_die_per_hit() -> None:
    t = fighting([of("a")], enemy("oni-1", health=9, defense=3), combat="house", use_pack=False)
    from shared_rules.state import ClassSheet
    from tests.rules.adventure.helpers import with_member

    with_member(t, "a", sheet=ClassSheet(initiative=9, combat=3, melee_to_hit=4, damage_bonus=1))
    run(t, Attack("a", target="oni-1", dice=((4, 2, 6), (5,), (2,))))  # 2 Hits: 5+1-3 and 2+1-3
    assert adv(t).figure("oni-1").wounds == 3
    assert any(e.rule == "option:combat" for e in t.events)


def test_house_combat_needs_the_sheet_numbers() -> None:
    t = fighting([of("a")], enemy(), combat="house")
    with pytest.raises(InvalidCommand) as error:
        t.do(Attack("a", target="oni-1"))
    assert error.value.field == "combat"
    with pytest.raises(InvalidCommand):
        t.do(Attack("a", hits=(HeroHit("oni-1", 3),)))


def test_house_combat_rolls_the_enemys_hits() -> None:
    t = enemy_turn([of("a", defense=5)], enemy("oni-1", initiative=20, combat=3, to_hit=4, damage=2), combat="house")
    run(t, ActivateEnemy("oni-1", strikes=(EnemyStrike("a"),), dice=((4, 4, 1), (6, 2))))
    assert t.hero("a").wounds == 2


def test_typed_combat_needs_the_number_of_hits() -> None:
    t = enemy_turn([of("a")], enemy("oni-1", initiative=20, damage=2))
    with pytest.raises(InvalidCommand) as error:
        t.do(ActivateEnemy("oni-1", strikes=(EnemyStrike("a"),)))
    assert error.value.field == "strikes[0].hits"


def test_the_armor_save_in_the_house_procedure() -> None:
    t = fighting([of("a")], enemy("oni-1", health=9, armor=5), combat="house")
    from shared_rules.state import ClassSheet
    from tests.rules.adventure.helpers import with_member

    with_member(t, "a", sheet=ClassSheet(initiative=9, combat=1, melee_to_hit=4))
    run(t, Attack("a", target="oni-1", dice=((4,), (6,), (5,))))  # a Hit, damage 6, Armor 5+ saves it
    assert adv(t).figure("oni-1").wounds == 0


def test_set_up_helpers_are_not_rules() -> None:
    t = start([of("a")])
    set_hero(t, "a", gold=3)
    assert t.hero("a").gold == 3
