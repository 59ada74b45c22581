"""The game turn with typed-in dice: its steps, the flee window, Initiative order (FF-TURN-01..04, FF-END-04)."""

from __future__ import annotations

import pytest

from shared_rules import Effect, IllegalCommand, InvalidCommand
from shared_rules.commands import (
    Activate,
    ActivateEnemy,
    AddEnemies,
    EndActivation,
    Flee,
    HoldBackTheDarkness,
    NewEnemy,
    RevealToken,
    Search,
    SheetEntry,
)
from shared_rules.engine import legal_commands
from shared_rules.rules.adventure import order, up_next
from shared_rules.state import ExplorationToken, Phase, TurnStep
from tests.rules.adventure.helpers import (
    MONK,
    SORCERESS,
    adv,
    enemy,
    events,
    legal_types,
    member,
    of,
    place_enemies,
    run,
    start,
    to_activations,
    with_member,
)


def three() -> object:
    return start([of("a"), of("b"), of("c")], sheets=(SheetEntry("a", initiative=4), SheetEntry("b", initiative=6),
                                                       SheetEntry("c", initiative=4)))  # fmt: skip


# ---- the steps --------------------------------------------------------------------------------------------------------
def test_a_turn_runs_hbtd_activations_exploration_end_then_a_new_turn_FF_TURN_01() -> None:
    t = start([of("a"), of("b")])
    assert legal_types(t)[:2] == ["flee", "hold_back_the_darkness"]
    to_activations(t)
    assert adv(t).step is TurnStep.ACTIVATIONS
    run(t, Activate("a", dice=((3,),)))
    run(t, EndActivation("a"))
    assert adv(t).turn == 1
    run(t, Activate("b", dice=((3,),)))
    run(t, EndActivation("b"))  # the last activation: no token to reveal, the End of the Turn, a new turn
    assert (adv(t).turn, adv(t).step, adv(t).activated) == (2, TurnStep.START, ())
    assert events(t, "turn_started")[-1] == "Turn 2 begins"


def test_start_of_turn_refills_mana_and_gives_ki_FF_SORC_03_FF_MONK_01() -> None:
    t = start([of("m", MONK), of("w", SORCERESS)], dice=((3,),))
    with_member(t, "w", mana=0)
    to_activations(t)
    run(t, Activate("m", dice=((2,),)))
    run(t, EndActivation("m"))
    run(t, Activate("w", dice=((2,),)))
    run(t, EndActivation("w"))
    assert member(t, "w").mana == 3 and member(t, "m").ki == 2
    for _ in range(3):  # Ki is capped at Max Ki (3)
        to_activations(t)
        run(t, Activate("m", dice=((2,),)))
        run(t, EndActivation("m"))
        run(t, Activate("w", dice=((2,),)))
        run(t, EndActivation("w"))
    assert member(t, "m").ki == 3


# ---- the flee window (FF-TURN-02, FF-END-04) ---------------------------------------------------------------------------
def test_flee_is_declared_before_hold_back_the_darkness_only_FF_TURN_02() -> None:
    t = start([of("a")])
    to_activations(t)
    with pytest.raises(IllegalCommand) as error:
        t.do(Flee(("a",)))
    assert error.value.rule == "FF-TURN-02"
    assert "flee" not in legal_types(t)


def test_every_hero_not_kod_must_agree_to_flee_FF_END_04() -> None:
    t = start([of("a"), of("b"), of("c", wounds=10)])
    assert legal_commands(t.state)[0].options == ("a", "b")
    with pytest.raises(IllegalCommand) as error:
        t.do(Flee(("a",)))
    assert (error.value.field, error.value.rule) == ("heroes", "FF-END-04")
    with pytest.raises(InvalidCommand):
        t.do(Flee(("a", "b", "zz")))


def test_fleeing_fails_the_mission_and_the_kod_roll_injury_or_madness_FF_END_04() -> None:
    t = start([of("a"), of("b", wounds=10), of("c", sanity_damage=10)])
    t.do(Flee(("a",)))
    assert t.prompt is not None and (t.prompt.chart, t.prompt.hero) == ("injury", "b")
    t.card("Broken arm", Effect("change", "health_mod", -1))
    assert t.prompt is not None and (t.prompt.chart, t.prompt.hero) == ("madness", "c")
    t.card("Night terrors")
    assert t.prompt is None and t.state.phase is Phase.BETWEEN_ADVENTURES and t.state.adventure is None
    assert t.hero("b").health_mod == -1
    assert [e.changes[0].after for e in t.events if e.type.value == "adventure_ended" and e.changes] == ["fled"]


# ---- Initiative order (FF-TURN-03) -------------------------------------------------------------------------------------
def test_models_activate_from_highest_initiative_and_tied_heroes_choose_FF_TURN_03() -> None:
    t = three()
    to_activations(t)
    assert up_next(t.state) == ("b",)
    with pytest.raises(IllegalCommand) as error:
        t.do(Activate("a", dice=((3,),)))
    assert (error.value.field, error.value.rule) == ("hero", "FF-TURN-03")
    assert "out of Initiative order" in error.value.message
    run(t, Activate("b", dice=((3,),)))
    run(t, EndActivation("b"))
    assert up_next(t.state) == ("a", "c")  # tied: the heroes choose, this turn c first
    run(t, Activate("c", dice=((3,),)))
    run(t, EndActivation("c"))
    run(t, Activate("a", dice=((3,),)))
    run(t, EndActivation("a"))
    to_activations(t)
    run(t, Activate("b", dice=((3,),)))
    run(t, EndActivation("b"))
    run(t, Activate("a", dice=((3,),)))  # and may change it the next turn
    assert [c.hero for c in legal_commands(t.state) if c.type == "move"] == ["a"]


def test_a_hero_may_not_activate_twice_FF_TURN_03() -> None:
    t = three()
    to_activations(t)
    run(t, Activate("b", dice=((3,),)))
    with pytest.raises(IllegalCommand) as error:
        t.do(Activate("b", dice=((3,),)))
    assert "under way" in error.value.message and error.value.rule == "FF-TURN-03"
    run(t, EndActivation("b"))
    with pytest.raises(IllegalCommand) as error:
        t.do(Activate("b", dice=((3,),)))
    assert "already activated" in error.value.message


def test_the_next_model_activating_ends_the_hero_activation_under_way_R_ADV_05() -> None:
    t = three()
    place_enemies(t, enemy("oni-1", initiative=5))
    to_activations(t)
    run(t, Activate("b", dice=((4,),)))
    legal = {c.type: c for c in legal_commands(t.state)}
    assert legal["end_activation"].hero == "b"
    assert (legal["activate_enemy"].options, "ends B's activation (R-ADV-05)" in legal["activate_enemy"].note) == (
        ("oni-1",), True)  # the Oni (Initiative 5) is next once B is done
    with pytest.raises(IllegalCommand) as error:  # still in Initiative order: the Oni before A and C
        t.do(Activate("a", dice=((3,),)))
    assert (error.value.rule, "out of Initiative order" in error.value.message) == ("FF-TURN-03", True)
    run(t, ActivateEnemy("oni-1"))
    assert adv(t).activated == ("b", "oni-1") and adv(t).activation is None
    assert [e.text for e in t.events if e.type.value == "activated"][-2] == "B's activation ends (the next model " \
        "activates)"
    run(t, Activate("c", dice=((2,),)))  # A and C tied: either
    assert {c.hero for c in legal_commands(t.state) if c.type == "activate"} == {"a"}
    run(t, Activate("a", dice=((6,),)))  # one command: C's activation ends, A's begins with its Move roll
    assert adv(t).activated == ("b", "oni-1", "c") and adv(t).activation is not None
    assert adv(t).activation.figure == "a" and adv(t).activation.move.faces == (6,)
    assert not [c for c in legal_commands(t.state) if c.type in ("activate", "activate_enemy")]  # the last: ends


def test_enemies_take_their_place_in_initiative_order_FF_TURN_03() -> None:
    t = three()
    place_enemies(t, enemy("oni-1", initiative=5), enemy("tengu-1", initiative=7))
    to_activations(t)
    assert order(t.state) == ("tengu-1", "b", "oni-1", "a", "c")
    assert [(c.type, c.options) for c in legal_commands(t.state)][0] == ("activate_enemy", ("tengu-1",))
    run(t, ActivateEnemy("tengu-1"))
    assert up_next(t.state) == ("b",)


@pytest.mark.parametrize(("ties", "first"), [("heroes_first", "b"), ("enemies_first", "oni-1")])
def test_a_hero_and_an_enemy_tied_go_by_the_option_A45(ties: str, first: str) -> None:
    t = start([of("a"), of("b")], sheets=(SheetEntry("a", initiative=3), SheetEntry("b", initiative=6)),
              initiative_ties=ties)  # fmt: skip
    place_enemies(t, enemy("oni-1", initiative=6))
    to_activations(t)
    assert up_next(t.state) == (first,)


def test_ambushers_get_plus_2_initiative_on_their_first_turn_only_A13() -> None:
    t = three()
    to_activations(t)
    run(t, AddEnemies((NewEnemy("Tengu", health=2, initiative=5),), ambush=True))
    assert up_next(t.state) == ("tengu-1",)  # 5 + 2 beats b's 6
    run(t, ActivateEnemy("tengu-1"))
    for hero in ("b", "a", "c"):
        run(t, Activate(hero, dice=((3,),)))
        run(t, EndActivation(hero))
    to_activations(t)
    assert up_next(t.state) == ("b",)  # 5 now


def test_enemies_arriving_after_the_activations_act_from_the_next_turn() -> None:
    t = start([of("a")], use_pack=True)
    to_activations(t)
    run(t, Activate("a", dice=((3,),)))
    t.do(Search("a", "door", name="Room 1"))  # a Room: its token is revealed in Room Exploration
    assert adv(t).step is TurnStep.EXPLORATION and legal_types(t)[0] == "reveal_token"
    t.do(RevealToken("tile-1", ExplorationToken(doors=1, attack=True), dice=((2,),)))  # the exit die
    assert [f.arrived for f in adv(t).enemies] == [2, 2]  # the Low Threat's two Tengu
    assert adv(t).turn == 2 and adv(t).step is TurnStep.START
    to_activations(t)
    assert order(t.state) == ("a", "tengu-1", "tengu-2")


def test_kod_heroes_do_not_activate_FF_TURN_03_FF_HERO_02() -> None:
    t = start([of("a"), of("b", wounds=10)])
    to_activations(t)
    assert up_next(t.state) == ("a",)
    with pytest.raises(IllegalCommand) as error:
        t.do(Activate("b", dice=((3,),)))
    assert error.value.rule == "FF-HERO-02"


def test_hold_back_the_darkness_is_refused_after_it_was_rolled() -> None:
    t = start([of("a")])
    t.do(HoldBackTheDarkness(dice=((4, 4),)))  # a Depth Event: a card prompt waits
    assert t.prompt is not None
    with pytest.raises(IllegalCommand):
        t.do(HoldBackTheDarkness(dice=((4, 3),)))
