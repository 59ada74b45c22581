"""A hero's activation with typed-in dice: the Move roll, Grit, moving (FF-MOVE-01..07, FF-GRIT-01..07, FF-ASN-01)."""

from __future__ import annotations

import pytest

from shared_rules import IllegalCommand, InvalidCommand
from shared_rules.commands import Activate, BoostMove, EndActivation, Move, RerollWithGrit, Search
from shared_rules.engine import legal_commands
from shared_rules.state import Place
from tests.rules.adventure.helpers import (
    ASSASSIN,
    adv,
    enemy,
    events,
    legal_types,
    of,
    on,
    place_enemies,
    run,
    set_hero,
    start,
    to_activations,
    with_member,
)
from tests.rules.table import Table


def activated(heroes: list, roll: int, **options: object) -> Table:  # type: ignore[type-arg]
    t = start(heroes, **options)  # type: ignore[arg-type]
    to_activations(t)
    t.do(Activate(heroes[0].id, dice=((roll,),)))
    return t


def allowance(t: Table) -> int:
    from shared_rules.rules.adventure.activation import allowance as left

    act = adv(t).activation
    assert act is not None
    return left(t.state, act)


# ---- the Move roll ------------------------------------------------------------------------------------------------------
def test_the_move_roll_is_one_die_and_the_hero_moves_up_to_it_FF_MOVE_01() -> None:
    t = activated([of("a")], 4)
    assert t.prompt is None and allowance(t) == 4
    assert events(t, "moved")[-1] == "A may move up to 4 spaces"
    run(t, Move("a", 3))
    with pytest.raises(IllegalCommand) as error:
        t.do(Move("a", 2))
    assert (error.value.field, error.value.rule) == ("spaces", "FF-MOVE-01")
    run(t, Move("a", 1))
    assert "move" not in legal_types(t)


def test_a_move_roll_of_1_recovers_a_grit_FF_GRIT_06() -> None:
    t = activated([of("a", max_grit=2)], 1)
    assert t.hero("a").grit == 2 and allowance(t) == 1
    assert any(e.rule == "FF-GRIT-06" for e in t.events)


def test_at_max_grit_the_recovered_grit_may_be_spent_at_once_on_move_FF_GRIT_07() -> None:
    t = activated([of("a", max_grit=1)], 1)
    assert t.prompt is not None and t.prompt.rule == "FF-GRIT-07"
    assert [(o.key, o.part) for o in t.prompt.options] == [("boost", "join"), ("lose", "decline")]
    assert t.prompt.options[0].gains[0].field == "move"
    t.choose("boost")
    t.roll(5)
    assert t.prompt is None and allowance(t) == 6 and t.hero("a").grit == 1


def test_at_max_grit_a_declined_grit_is_lost_FF_GRIT_07() -> None:
    t = activated([of("a", max_grit=1)], 1)
    t.choose("lose")
    assert allowance(t) == 1 and t.hero("a").grit == 1
    assert any(e.type.value == "grit_lost" and e.rule == "FF-GRIT-07" for e in t.events)


# ---- more Move ----------------------------------------------------------------------------------------------------------
def test_1_grit_adds_a_d6_to_the_move_and_its_1_recovers_nothing_FF_MOVE_03_FF_GRIT_06() -> None:
    t = activated([of("a", max_grit=3)], 3)
    run(t, BoostMove("a", dice=((1,),)))
    assert allowance(t) == 4 and t.hero("a").grit == 0  # 1 spent, nothing recovered for the extra die's 1
    assert not any(e.rule == "FF-GRIT-06" for e in t.events)


def test_the_once_per_activation_limit_of_plus_d6_move_is_the_options_not_rulebook_text_FF_MOVE_03() -> None:
    """Issue 20: FF-MOVE-03 prints no limit; the refusal names option `move_boosts`."""
    t = activated([of("a", max_grit=3)], 3)
    set_hero(t, "a", grit=2)
    run(t, BoostMove("a", dice=((2,),)))
    with pytest.raises(IllegalCommand) as error:
        t.do(BoostMove("a", dice=((2,),)))
    assert error.value.rule == "option:move_boosts"


def test_plus_d6_move_once_per_activation_and_only_with_grit_FF_MOVE_03() -> None:
    t = activated([of("a", max_grit=3)], 3)
    with_grit = t.state
    run(t, BoostMove("a", dice=((2,),)))
    with pytest.raises(IllegalCommand) as error:
        t.do(BoostMove("a", dice=((2,),)))
    assert error.value.rule == "FF-MOVE-03"  # no Grit left
    t.state = with_grit
    set_hero(t, "a", grit=0)
    with pytest.raises(IllegalCommand):
        t.do(BoostMove("a"))


def test_more_move_boosts_with_the_option_FF_MOVE_03() -> None:
    t = activated([of("a", grit=2, max_grit=3)], 2, move_boosts=2)
    run(t, BoostMove("a", dice=((2,),)))
    set_hero(t, "a", grit=1)  # Grit was reset to 1 at the start: give one back to spend again
    run(t, BoostMove("a", dice=((3,),)))
    assert allowance(t) == 7


def test_grit_rerolls_move_dice_once_each_FF_GRIT_01_FF_GRIT_02() -> None:
    t = activated([of("a", max_grit=3)], 2)
    set_hero(t, "a", grit=3)
    run(t, RerollWithGrit("a", "move", (0,), dice=((5,),)))
    assert allowance(t) == 5 and t.hero("a").grit == 2
    with pytest.raises(IllegalCommand) as error:
        t.do(RerollWithGrit("a", "move", (0,)))
    assert (error.value.field, error.value.rule) == ("indices", "FF-GRIT-02")
    run(t, BoostMove("a", dice=((1,),)))
    run(t, RerollWithGrit("a", "move", (1,), dice=((6,),)))  # the extra die may be re-rolled once too
    assert allowance(t) == 11 and t.hero("a").grit == 0


def test_a_rerolled_move_of_1_recovers_no_more_grit() -> None:
    t = activated([of("a", max_grit=3)], 1)  # 1: Recover 1 (now 2)
    run(t, RerollWithGrit("a", "move", (0,), dice=((1,),)))
    assert t.hero("a").grit == 1  # 2 - 1 spent; the second 1 gives nothing


def test_move_dice_may_not_be_rerolled_after_moving_FF_GRIT_01() -> None:
    t = activated([of("a", max_grit=3)], 2)
    run(t, Move("a", 1))
    with pytest.raises(IllegalCommand) as error:
        t.do(RerollWithGrit("a", "move", (0,)))
    assert error.value.rule == "R-ADV-04"  # issue 20: a reading, not FF-GRIT-01's text


def test_unknown_rolls_and_indices_are_refused() -> None:
    t = activated([of("a", max_grit=3)], 2)
    for command, error_type in [(RerollWithGrit("a", "casting"), InvalidCommand),
                                (RerollWithGrit("a", "move", (3,)), InvalidCommand),
                                (RerollWithGrit("a", "move", (0, 0)), InvalidCommand)]:  # fmt: skip
        with pytest.raises(error_type):
            t.do(command)


# ---- moving on the board ----------------------------------------------------------------------------------------------
def test_no_facing_diagonals_count_one_and_no_ending_in_a_models_space_FF_MOVE_02() -> None:
    t = start([of("a"), of("b")])
    with_member(t, "a", place=on("entrance", x=0, y=0))
    with_member(t, "b", place=on("entrance", x=2, y=2))
    to_activations(t)
    run(t, Activate("a", dice=((3,),)))
    with pytest.raises(IllegalCommand) as error:
        t.do(Move("a", 3, to=on("entrance", x=2, y=2)))
    assert error.value.rule == "FF-MOVE-02"
    with pytest.raises(IllegalCommand) as error:
        t.do(Move("a", 2, to=on("entrance", x=3, y=1)))  # 3 spaces away
    assert error.value.rule == "FF-MOVE-02"
    run(t, Move("a", 2, to=on("entrance", x=2, y=1)))  # two diagonal steps... (2,1) is 2 away
    assert adv(t).hero("a").place == Place("entrance", 2, 1)


@pytest.mark.parametrize(("thing", "rule"), [("model", "FF-MOVE-02"), ("barrier", "FF-MOVE-05"),
                                             ("wall", "FF-MOVE-06")])  # fmt: skip
def test_only_the_nimble_cross_models_and_barriers_and_nobody_walls_FF_MOVE_02_05_06(thing: str, rule: str) -> None:
    t = activated([of("a")], 3)
    with pytest.raises(IllegalCommand) as error:
        t.do(Move("a", 2, through=(thing,)))
    assert (error.value.field, error.value.rule) == ("through[0]", rule)


def test_nimble_moves_one_more_space_and_through_models_and_barriers_FF_ASN_01() -> None:
    t = activated([of("k", ASSASSIN)], 3)
    assert allowance(t) == 4
    run(t, Move("k", 2, through=("model", "barrier")))
    with pytest.raises(IllegalCommand):
        t.do(Move("k", 1, through=("wall",)))


def test_windows_are_on_the_town_board_only_FT_GRIT_01() -> None:
    t = activated([of("a")], 3)
    with pytest.raises(IllegalCommand) as error:
        t.do(Move("a", 1, through=("window",)))
    assert error.value.rule == "FT-GRIT-01"


def test_a_hero_on_a_puzzle_connection_is_on_both_tiles_FF_MOVE_04() -> None:
    t = activated([of("a"), of("b")], 3)
    run(t, Search("a", "door", placed="room"))
    assert adv(t).hero("a").place == Place("tile-1", also="entrance")
    run(t, Activate("b", dice=((2,),)))
    run(t, Move("b", 1, to=on("tile-1", also="entrance")))
    with pytest.raises(IllegalCommand) as error:  # tile-1's token is still face down: no Search on either tile
        t.do(Search("b", "scavenge"))
    assert error.value.rule == "FF-SRCH-01"


def test_moves_to_unknown_tiles_are_refused() -> None:
    t = activated([of("a")], 3)
    with pytest.raises(InvalidCommand) as error:
        t.do(Move("a", 1, to=on("tile-9")))
    assert error.value.field == "to.tile"


def test_voices_in_the_dark_d6_horror_hits_willpower_saves_FF_MOVE_07() -> None:
    t = start([of("a", willpower=4)])
    to_activations(t)
    t.do(Activate("a", in_the_dark=True, dice=((3,), (4, 1, 2), (5,))))  # 3 Hits, one saved; then the Move
    assert t.hero("a").sanity_damage == 2 and allowance(t) == 5


def test_only_the_active_hero_acts_and_legal_commands_say_whose_activation_it_is() -> None:
    t = activated([of("a"), of("b")], 3)
    moves = [c for c in legal_commands(t.state) if c.type in ("move", "search", "end_activation")]
    assert {c.hero for c in moves} == {"a"} and moves[0].note == "up to 3 more space(s)"
    for command in (Move("b", 1), EndActivation("b"), Search("b", "scavenge")):
        with pytest.raises(IllegalCommand) as error:
            t.do(command)
        assert error.value.field == "hero"


def test_attack_needs_an_enemy_and_search_is_offered_outside_a_fight_FF_TURN_05() -> None:
    t = activated([of("a")], 3)
    assert [c.options for c in legal_commands(t.state) if c.type == "search"] == [("scavenge", "door")]
    assert "attack" not in legal_types(t)
    place_enemies(t, enemy())
    assert "search" not in legal_types(t) and "attack" in legal_types(t)


def test_grit_rerolls_only_your_own_heros_dice_FF_GRIT_03() -> None:
    t = activated([of("a"), of("b")], 2)
    with pytest.raises(IllegalCommand) as error:
        t.do(RerollWithGrit("b", "move", (0,)))
    assert (error.value.field, error.value.rule) == ("hero", "FF-GRIT-03")


def test_an_enemys_roll_is_never_offered_for_a_grit_reroll_FF_GRIT_03() -> None:
    from shared_rules.commands import ActivateEnemy, EnemyStrike

    t = start([of("a", defense=6, max_grit=2)], rerolls=True, combat="house")
    place_enemies(t, enemy("oni-1", initiative=20, combat=2, to_hit=4, damage=1))
    to_activations(t)
    t.do(ActivateEnemy("oni-1", strikes=(EnemyStrike("a"),), dice=((1, 2),)))  # both miss: no offer to anyone
    assert t.prompt is None and t.hero("a").grit == 1
