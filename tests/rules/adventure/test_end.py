"""Winning and what the end of every Adventure clears (FF-END-01, FF-END-05, FF-GRIT-05, FT-DEPTH-01, FT-TRAVEL-D16)."""

from __future__ import annotations

from dataclasses import replace

from shared_rules.commands import (
    Activate,
    AddEnemies,
    Attack,
    Flee,
    HeroHit,
    NewEnemy,
    RevealToken,
    Search,
)
from shared_rules.engine import legal_commands
from shared_rules.state import Carry, ExplorationToken, Phase, TurnStep
from tests.rules.adventure.helpers import adv, events, of, run, start, to_activations


def test_lost_contact_is_won_by_defeating_the_objectives_guards_FF_END_01_FF_END_05() -> None:
    t = start([of("a", xp=0, dark_stone=0, wounds=2), of("b", xp=0, dark_stone=0)])
    to_activations(t)
    run(t, Activate("a", dice=((2,),)))
    run(t, Search("a", "door", placed="room"))
    run(t, Activate("b", dice=((2,),)))
    from shared_rules.commands import EndActivation

    run(t, EndActivation("b"))
    run(t, RevealToken("tile-1", ExplorationToken(doors=1, clue=True), dice=((4,),)))  # Clue 1
    to_activations(t)
    run(t, Activate("a", dice=((2,),)))
    run(t, Search("a", "door", placed="room"))
    run(t, Activate("b", dice=((2,),)))
    run(t, EndActivation("b"))
    run(t, RevealToken("tile-2", ExplorationToken(doors=2, clue=True)))  # the Objective: a High Threat
    assert adv(t).counter("objective") == 1 and not adv(t).in_fight
    run(t, AddEnemies((NewEnemy("Oni", health=3),)))  # the table drew the High Threat card
    assert adv(t).counter("final_fight") == 1
    to_activations(t)
    run(t, Activate("a", dice=((2,),)))
    t.do(Attack("a", hits=(HeroHit("oni-1", 3),)))
    assert t.prompt is not None and t.prompt.rule == "FF-END-05"  # a's D3 Dark Stone
    t.roll(5)
    t.roll(2)
    assert t.state.adventure is None and t.state.phase is Phase.BETWEEN_ADVENTURES
    ended = [e for e in t.events if e.type.value == "adventure_ended"][0]
    assert ended.rule == "FF-END-01" and ended.changes[1].after is True
    assert (t.hero("a").xp, t.hero("a").dark_stone, t.hero("b").xp, t.hero("b").dark_stone) == (35, 3, 25, 1)
    assert t.hero("a").wounds == 0  # fully healed after the Mission (FT-MIS-AFTER-01)


def test_the_end_clears_blood_moon_and_travel_16s_revive_token_FT_DEPTH_01_FT_TRAVEL_D16() -> None:
    t = start([of("a"), of("b")])
    t.state = replace(t.state, carry=Carry(blood_moon=True, extra_revive_tokens=1, army_convoy=False))
    run(t, Flee(("a", "b")))
    assert t.state.carry == Carry()
    assert [c.type for c in legal_commands(t.state)][0] == "choose_town_size"


def test_grit_returns_to_1_after_the_mission_FF_GRIT_05() -> None:
    t = start([of("a", max_grit=3)])
    t.state = replace(t.state, heroes=(replace(t.hero("a"), grit=3),))
    run(t, Flee(("a",)))
    assert t.hero("a").grit == 1


def test_class_resources_do_not_outlive_the_adventure() -> None:
    t = start([of("a")])
    run(t, Flee(("a",)))
    assert t.state.adventure is None


def test_kills_can_end_a_fight_but_not_the_adventure_without_the_objective_FF_END_01() -> None:
    t = start([of("a")])
    to_activations(t)
    run(t, AddEnemies((NewEnemy("Oni", health=1, initiative=1),)))
    run(t, Activate("a", dice=((2,),)))
    run(t, Attack("a", hits=(HeroHit("oni-1", 1),)))
    assert t.state.adventure is not None and adv(t).step is TurnStep.START and not events(t, "adventure_ended")


def test_the_end_heals_to_the_max_left_after_permanent_losses_FT_HERO_01() -> None:
    t = start([of("a", health_mod=-2, sanity_mod=1, wounds=5)])
    assert t.hero("a").max_health == 8
    run(t, Flee(("a",)))
    assert (t.hero("a").wounds, t.hero("a").max_health, t.hero("a").max_sanity) == (0, 8, 11)
