"""Mission 5, Town Overrun (FT-M5-01..11), and Mission 6, the High Noon Duel (FT-M6-01..06), with typed-in dice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared_rules import IllegalCommand
from shared_rules.commands import (
    Activate,
    ActivateBandits,
    AddEnemies,
    Attack,
    Desperation,
    EndActivation,
    Flee,
    HeroHit,
    HoldBackTheDarkness,
    Move,
    MoveTownsfolk,
    NewEnemy,
)
from shared_rules.state import MissionCounter, Place
from tests.rules.adventure.helpers import legal_types, with_adventure
from tests.rules.missions.helpers import adv, answer, figure, run, town
from tests.rules.table import Table

M5, M6 = "town_overrun", "high_noon_duel"
QUIET = (3, 1, 2, 3, 3, 6, 6, 6, 6)  # [P] 3 indoors (D8 1, 2, 3), [P] 3 outdoors; no Entry Point rolls a 1


def overrun(heroes: int = 1, answers: tuple[object, ...] = QUIET, **kw: object) -> Table:
    return town(M5, heroes, answers=answers, values={"max_grit": 3}, **kw)  # type: ignore[arg-type]


def test_set_up_townsfolk_by_peril_dice_heroes_at_max_grit_entry_points_FT_M5_01() -> None:
    t = overrun(answers=(3, 1, 2, 3, 4, 1, 6, 6, 6))  # Entry A rolls a 1 (only a 1 with 1-2 Heroes)
    folk = [f for f in adv(t).figures if f.kind == "townsfolk"]
    assert [f.place.tile for f in folk if f.place] == ["building-1", "building-2", "building-3"] + ["street"] * 4
    assert t.state.hero("a").grit == 3  # Grit = Max Grit
    assert any("Draw a Low Threat card" in x for x in t.texts())  # the pack has no deck: the table draws it
    assert "flee" not in legal_types(t)  # FT-M5-08
    with pytest.raises(IllegalCommand) as error:
        t.do(Flee(("a",)))
    assert error.value.rule == "FF-END-04"


def test_townsfolk_share_the_hbtd_total_as_movement_never_onto_rooftops_FT_M5_02() -> None:
    t = overrun()
    t.do(HoldBackTheDarkness(dice=((2, 2), )))  # doubles: a Depth Event; the pool is still the total, 4 (A4)
    t.card("Nothing happens")
    assert adv(t).counter("townsfolk_moves") == 4 and "move_townsfolk" in legal_types(t)
    folk = figure(t, "townsfolk-4").place
    assert folk is not None and folk.x is not None and folk.y is not None
    with pytest.raises(IllegalCommand) as error:
        t.do(MoveTownsfolk("townsfolk-4", Place("roof:3+4"), 1))
    assert error.value.rule == "FT-M5-02"
    with pytest.raises(IllegalCommand) as error:
        t.do(MoveTownsfolk("townsfolk-4", Place("street", folk.x, folk.y - 1), 5))
    assert error.value.rule == "FT-M5-02"
    run(t, MoveTownsfolk("townsfolk-4", Place("street", folk.x, folk.y - 3), 3))
    assert adv(t).counter("townsfolk_moves") == 1


def test_entry_points_a_1_or_2_places_an_approaching_marker_then_a_threat_off_board_FT_M5_05_FT_M5_06() -> None:
    t = overrun()
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    t.do(EndActivation("a", dice=((2,), (3,), (6,), (6,))))  # A: a 2 (no Hero near) places a marker
    assert adv(t).counter("approaching_A") == 1
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    t.do(EndActivation("a", dice=((1,), (6,), (6,), (6,))))  # A again: the marker goes, a Threat card is drawn
    assert adv(t).counter("approaching_A") == 0 and any("Draw a Low Threat" in x for x in t.texts())
    t.do(AddEnemies((NewEnemy("Void Hound", health=2, initiative=3, place=Place("entry:A")),)))
    with pytest.raises(IllegalCommand) as error:  # off the board: it cannot be targeted
        t.do(HoldBackTheDarkness(dice=((6, 4),)))
        run(t, Activate("a", dice=((2,),)))
        t.do(Attack("a", hits=(HeroHit("void-hound-1", 2),)))
    assert error.value.rule == "FT-M5-06"


def test_a_hero_near_an_entry_area_makes_it_need_a_1_FT_M5_05_A22() -> None:
    t = overrun()
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    from shared_rules.commands import PlaceModel

    run(t, PlaceModel("a", Place("street", 12, 3)))  # within 3 of Entry A
    t.do(EndActivation("a", dice=((2,), (6,), (6,), (6,))))
    assert adv(t).counter("approaching_A") == 0


def test_kills_three_small_or_one_large_move_the_posse_marker_and_the_break_wins_FT_M5_10_FT_M5_11() -> None:
    t = overrun()
    t.do(AddEnemies((NewEnemy("Tengu", health=1, count=3, initiative=1), NewEnemy("Oni", health=1, size="large"))))
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    run(t, Attack("a", hits=(HeroHit("tengu-1", 1), HeroHit("tengu-2", 1), HeroHit("oni-1", 1))))
    assert adv(t).party == 11 and adv(t).counter("small_kills") == 2  # the Large one: 2 steps, not counted
    with_adventure(t, party=10, figures=tuple(f for f in adv(t).figures if f.kind == "townsfolk")[:1])
    from shared_rules.state import TurnStep

    with_adventure(t, step=TurnStep.START, activation=None, activated=())
    t.do(HoldBackTheDarkness(dice=((6, 4),)))  # 10 >= 10: broken, no Enemy left: the town is saved
    answer(t, "gold", 4)  # one Townsfolk alive: D6 4 x $25
    assert t.state.adventure is None and t.state.hero("a").gold == 100


def test_desperation_gives_up_the_attack_with_no_enemy_on_the_map_tile_FT_M5_07() -> None:
    t = overrun()
    t.state = replace(t.state, heroes=(replace(t.state.hero("a"), grit=1, wounds=3),))
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    t.do(Desperation("a", "catch_breath", dice=((6,),)))  # Heal D3 = 3; the activation ends
    assert t.state.hero("a").wounds == 0 and adv(t).activation is None
    assert t.prompt is not None and "Entry Point A" in t.prompt.purpose  # on to the End of the Turn


def test_failure_the_town_is_destroyed_and_every_hero_rolls_injury_or_madness_FT_M5_11() -> None:
    t = overrun()
    with_adventure(t, darkness=12)
    t.do(HoldBackTheDarkness(dice=((1, 2),)))
    assert t.prompt is not None and t.prompt.rule == "FT-M5-11"  # the Hero standing chooses Injury or Madness
    t.choose("madness")
    assert t.prompt is not None and t.prompt.chart == "madness"
    t.card("Night terrors")
    assert t.state.adventure is None and t.state.carry.no_town == "FT-M5-11"


# ---- Mission 6 --------------------------------------------------------------------------------------------------
def duel(level: int = 1) -> Table:
    t = town(M6, 2, values={"level": level}, dice=((4,), (2,)))  # the Initiative D6s of turn 1: +4 and +2
    return t


def test_the_duel_one_hero_one_bandit_5_apart_no_hbtd_no_fleeing_FT_M6_01_FT_M6_02() -> None:
    t = duel()
    assert [m.id for m in adv(t).heroes] == ["a"] and adv(t).hero("a").place == Place("street", 12, 15)
    assert figure(t, "bandit-1").place == Place("street", 12, 10)
    assert adv(t).step.value == "activations"  # no flee window, no Hold Back the Darkness: straight to the Duel
    assert "flee" not in legal_types(t) and "hold_back_the_darkness" not in legal_types(t)


def test_each_turn_both_add_a_d6_to_initiative_FT_M6_03() -> None:
    from shared_rules.rules.adventure.turn import initiative

    t = duel()
    assert (initiative(t.state, "a"), initiative(t.state, "bandit-1")) == (10 + 4, 4 + 2)


def test_draw_no_model_moves_on_turn_1_the_move_roll_still_recovers_grit_FT_M6_04() -> None:
    t = duel()
    t.state = replace(t.state, heroes=tuple(replace(h, grit=0) for h in t.state.heroes))
    run(t, Activate("a", dice=((1,),)))  # a 1 Recovers Grit
    assert t.state.hero("a").grit == 1
    with pytest.raises(IllegalCommand) as error:
        t.do(Move("a", 1, to=Place("street", 12, 14)))
    assert error.value.rule == "FT-M6-04"
    run(t, EndActivation("a"))
    t.do(ActivateBandits(dice=((5,), (1,))))  # the opponent stays put (Draw!) and fires: a miss
    assert figure(t, "bandit-1").place == Place("street", 12, 10)


def test_the_opponent_x_level_health_and_damage_the_win_25_xp_x_level_FT_M6_05_FT_M6_06() -> None:
    t = duel(level=3)
    opponent = figure(t, "bandit-1")
    assert (opponent.health, opponent.damage) == (3 * 3, 2 * 3)
    run(t, Activate("a", dice=((3,),)))
    t.do(Attack("a", hits=(HeroHit("bandit-1", 9),)))
    assert t.state.adventure is None and t.state.hero("a").xp == 75 and t.state.hero("b").xp == 0


def test_losing_the_duel_means_no_grit_next_adventure_FT_M6_06() -> None:
    t = duel()
    t.state = replace(t.state, heroes=tuple(replace(h, wounds=h.max_health - 1) if h.id == "a" else h
                                            for h in t.state.heroes))  # fmt: skip
    with_adventure(t, revive_tokens=0, counters=(MissionCounter("hero_initiative", 0),
                                                 MissionCounter("opponent_initiative", 9)))
    t.do(ActivateBandits(dice=((5,), (6,), (1,))))  # Cover roll 5; a Hit; Defense fails: KO'd
    assert t.state.adventure is None or t.prompt is not None
    while t.prompt is not None:  # the Injury Chart at the table
        t.card("A scar")
    assert t.state.carry.no_grit_next_adventure


def test_the_townsfolk_are_one_more_hero_in_a_random_hero_roll_the_closest_marker_FT_M5_03() -> None:
    from shared_rules.commands import RandomTarget

    t = overrun()
    t.do(AddEnemies((NewEnemy("Tengu", health=2, initiative=1, place=Place("street", 12, 20)),)))
    prompt = t.do(RandomTarget("tengu-1"))
    assert prompt is not None and [o.key for o in prompt.options] == ["a", "townsfolk"]
    t.choose("townsfolk")
    picked = [c.after for e in t.events for c in e.changes if c.field == "target"]
    folk = {f.id: f.place for f in adv(t).figures if f.kind == "townsfolk"}
    distance = {k: max(abs(p.x - 12), abs(p.y - 20)) for k, p in folk.items() if p and p.x is not None and p.y is not None}
    assert picked == [min(distance, key=lambda k: (distance[k], k))]


def test_an_ambush_on_the_townsfolk_falls_on_the_marker_the_heroes_choose_FT_M5_09() -> None:
    from shared_rules.commands import RandomTarget

    t = overrun()
    t.do(AddEnemies((NewEnemy("Tengu", health=2, initiative=1, place=Place("street", 12, 20)),), ambush=True))
    t.do(RandomTarget("tengu-1", ambush=True))
    t.choose("townsfolk")
    t.choose("townsfolk-2")
    assert [c.after for e in t.events for c in e.changes if c.field == "target"] == ["townsfolk-2"]
    assert figure(t, "tengu-1").ambush  # +2 Initiative on its first turn (A13)


def test_a_townsfolk_marker_saves_on_4_has_1_health_ignores_sanity_an_adjacent_hero_may_take_the_hits_FT_M5_04() -> None:
    from shared_rules.commands import PlaceModel, StrikeTownsfolk

    t = overrun()
    t.do(AddEnemies((NewEnemy("Tengu", health=2, initiative=1, place=Place("street", 12, 20)),)))
    folk = figure(t, "townsfolk-4").place
    assert folk is not None and folk.x is not None and folk.y is not None
    run(t, StrikeTownsfolk("tengu-1", "townsfolk-4", 2, kind="horror"))
    assert "townsfolk-4" in {f.id for f in adv(t).figures}
    run(t, PlaceModel("a", Place("street", folk.x + 1, folk.y)))
    t.do(StrikeTownsfolk("tengu-1", "townsfolk-4", 1, damage=2))
    t.choose("a")  # Ann takes the Hit: her Defense roll
    t.roll(1)
    assert t.state.hero("a").wounds == 2 and "townsfolk-4" in {f.id for f in adv(t).figures}
    t.do(StrikeTownsfolk("tengu-1", "townsfolk-4", 2, dice=((4, 1),)))
    t.choose("none")
    assert "townsfolk-4" not in {f.id for f in adv(t).figures}  # one save on 4+, the other Hit kills it
