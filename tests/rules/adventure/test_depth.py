"""Hold Back the Darkness and the Depth Track with typed-in dice (FF-DEPTH-01..09, FT-DEPTH-01, FT-GRIT-03)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared_rules import Effect, IllegalCommand
from shared_rules.commands import (
    Activate,
    HoldBackTheDarkness,
    MoveMarker,
    RerollWithGrit,
    Search,
)
from shared_rules.engine import legal_commands
from shared_rules.state import Carry, Phase, TurnStep
from tests.rules.adventure.helpers import adv, events, layout, of, run, start, with_adventure


def hbtd(t: object, a: int, b: int) -> None:
    t.do(HoldBackTheDarkness(dice=((a, b),)))  # type: ignore[attr-defined]


# ---- the roll ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("party", "target"), [(11, 7), (8, 7), (7, 8), (4, 8), (3, 9), (0, 9)])
def test_the_target_is_the_stage_of_the_hero_party_marker_FF_DEPTH_01_04(party: int, target: int) -> None:
    t = start([of("a")])
    with_adventure(t, party=party, darkness=1)
    hbtd(t, 6, target - 6 - 1) if target - 7 > 0 else hbtd(t, 5, target - 6)
    assert adv(t).darkness == 2  # one short of the target: the Darkness moves one step
    t = start([of("a")])
    with_adventure(t, party=party, darkness=1)
    hbtd(t, 6, target - 6) if target > 7 else hbtd(t, 4, 3)
    assert adv(t).darkness == 1  # the target exactly holds it


def test_the_darkness_markers_stage_does_not_matter_FF_DEPTH_04() -> None:
    t = start([of("a")])
    with_adventure(t, darkness=9)  # deep in Stage 1 territory; the party is on the Entrance (7+)
    hbtd(t, 4, 3)
    assert adv(t).darkness == 9


def test_hold_back_the_darkness_then_activations_FF_TURN_01() -> None:
    t = start([of("a")])
    assert adv(t).step is TurnStep.START
    hbtd(t, 6, 2)
    assert adv(t).step is TurnStep.ACTIVATIONS and adv(t).last_hbtd is not None
    with pytest.raises(IllegalCommand) as error:
        hbtd(t, 6, 2)
    assert error.value.rule == "FF-DEPTH-04"


# ---- natural doubles -------------------------------------------------------------------------------------------------
def test_natural_doubles_are_a_depth_event_and_the_darkness_stays_even_on_1_1_FF_DEPTH_05_FF_DICE_07() -> None:
    t = start([of("a")])
    hbtd(t, 1, 1)
    assert adv(t).darkness == 0
    assert t.prompt is not None and t.prompt.kind == "card" and t.prompt.chart == "depth_event"
    assert "Depth Event 1" in t.prompt.question and t.prompt.hero == "a"
    t.card("A chill", Effect("change", "sanity_damage", 1))
    assert t.hero("a").sanity_damage == 1 and adv(t).step is TurnStep.ACTIVATIONS


def test_doubles_that_pass_trigger_the_event_too_FF_DEPTH_05() -> None:
    t = start([of("a")])
    hbtd(t, 5, 5)
    assert t.prompt is not None and "Depth Event 5" in t.prompt.question


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_the_pack_chart_entry_is_the_face_of_the_double_FF_DEPTH_05(face: int) -> None:
    t = start([of("a"), of("b")], use_pack=True)
    hbtd(t, face, face)
    if face == 5:  # Ambush!: a Low Threat card from the pack
        assert [f.kind for f in adv(t).enemies] == ["tengu", "tengu"]
    assert events(t, "depth_event")[-1].startswith(f"Depth Event {face}:")
    effects = {1: lambda: t.hero("a").sanity_damage == 1 == t.hero("b").sanity_damage,
               2: lambda: adv(t).darkness == 1, 3: lambda: adv(t).growing_dread == 1,
               4: lambda: adv(t).darkness_cards == 1, 5: lambda: adv(t).in_fight,
               6: lambda: t.hero("a").wounds == 2 and t.hero("b").wounds == 0}  # fmt: skip
    assert effects[face]()


def test_blood_moon_turns_a_depth_event_into_growing_dread_FT_DEPTH_01() -> None:
    t = start([of("a")])
    t.state = replace(t.state, carry=Carry(blood_moon=True))
    hbtd(t, 3, 3)
    assert t.prompt is None and adv(t).growing_dread == 1 and adv(t).darkness == 0
    assert any(e.rule == "FT-DEPTH-01" for e in t.events)


def test_blood_moon_gives_plus_1_spirit_during_the_adventure_FT_DEPTH_01() -> None:
    from shared_rules.flow import Ctx

    t = start([of("a", spirit=2)])
    t.state = replace(t.state, carry=Carry(blood_moon=True))
    assert Ctx(t.state, 0).skill("a", "spirit") == 3


# ---- no Grit; Lantern Oil ------------------------------------------------------------------------------------------
def test_grit_may_not_reroll_hold_back_the_darkness_FF_DEPTH_06_FF_GRIT_04() -> None:
    t = start([of("a", grit=2, max_grit=2)])
    hbtd(t, 2, 3)
    with pytest.raises(IllegalCommand) as error:
        t.do(RerollWithGrit("a", "hold_back_the_darkness", (0,)))
    assert (error.value.field, error.value.rule) == ("roll", "FF-DEPTH-06")
    with pytest.raises(IllegalCommand) as error:
        t.do(RerollWithGrit("a", "depth_event", (0,)))
    assert error.value.rule == "FF-GRIT-04"
    assert t.hero("a").grit == 1  # nothing spent (the adventure reset it to 1)


def test_lantern_oil_rerolls_one_die_once_per_die_FT_GRIT_03_FF_GRIT_02() -> None:
    t = start([of("a", side_bag=("Lantern Oil", "Lantern Oil")), of("b", side_bag=("Lantern Oil",))])
    hbtd(t, 2, 3)
    assert t.prompt is not None and t.prompt.rule == "FT-GRIT-03"
    keys = [o.key for o in t.prompt.options]
    assert keys == ["a:0", "b:0", "a:1", "b:1", "keep"]  # the lower die first
    assert all(o.costs[0].name == "Lantern Oil" for o in t.prompt.options[:-1])
    t.choose("b:0")
    t.roll(3)  # 3,3: now doubles, so another offer: the other die only, and b has no Oil left
    assert [o.key for o in t.prompt.options] == ["a:1", "keep"]
    t.choose("a:1")
    t.roll(5)  # 3,5 = 8: held; die 0 and die 1 were each re-rolled once: no more offers
    assert t.prompt is None and adv(t).darkness == 0
    assert t.hero("a").side_bag == ("Lantern Oil",) and t.hero("b").side_bag == ()


def test_no_lantern_oil_offer_when_the_roll_holds_without_doubles_FT_GRIT_03() -> None:
    t = start([of("a", side_bag=("Lantern Oil",))])
    hbtd(t, 6, 3)
    assert t.prompt is None and t.hero("a").side_bag == ("Lantern Oil",)


# ---- the markers ----------------------------------------------------------------------------------------------------
def test_blood_spatter_draws_a_darkness_card_FF_DEPTH_07() -> None:
    t = start([of("a")])
    with_adventure(t, darkness=2)
    hbtd(t, 1, 2)
    assert adv(t).darkness == 3 and adv(t).darkness_cards == 1
    assert any(e.rule == "FF-DEPTH-07" for e in t.events)


def test_growing_dread_space_adds_to_the_stack_FF_DEPTH_08() -> None:
    t = start([of("a")])
    with_adventure(t, darkness=4)
    hbtd(t, 1, 2)
    assert adv(t).darkness == 5 and adv(t).growing_dread == 1


def test_the_hero_party_marker_never_triggers_special_spaces_FF_DEPTH_07_08() -> None:
    t = start([of("a")], use_pack=True)
    with_adventure(t, party=6)  # the next tile moves it onto 5, a Growing Dread space
    hbtd(t, 6, 2)
    run(t, Activate("a", dice=((1,),)))
    run(t, Search("a", "door", placed="passage"))
    assert adv(t).party == 5 and adv(t).growing_dread == 0 and adv(t).darkness_cards == 0


def test_every_marked_space_entered_counts_when_the_darkness_moves_several_A5() -> None:
    t = start([of("a")])
    t.do(MoveMarker("darkness", 5, reason="a card"))
    assert adv(t).darkness == 5
    assert adv(t).darkness_cards == 1 and adv(t).growing_dread == 1  # 3 blood spatter, 5 growing dread


def test_moving_the_darkness_back_triggers_nothing() -> None:
    t = start([of("a")])
    with_adventure(t, darkness=6)
    t.do(MoveMarker("darkness", -3))
    assert adv(t).darkness == 3 and adv(t).darkness_cards == 0


def test_the_party_marker_moves_per_tile_and_stops_on_darkness_start_FF_DEPTH_03() -> None:
    t = start([of("a")])
    with_adventure(t, party=1)
    t.do(MoveMarker("party", 1))
    assert adv(t).party == 0
    t.do(MoveMarker("party", 1))
    assert adv(t).party == 0 and "moves no further" in events(t, "party_moved")[-1]


def test_the_darkness_reaching_the_entrance_fails_the_mission_FF_DEPTH_09_FF_END_03() -> None:
    t = start([of("a", wounds=2)], track=layout(6, blood=(), dread=()))
    with_adventure(t, darkness=4)
    hbtd(t, 1, 3)
    assert t.state.adventure is None and t.state.phase is Phase.BETWEEN_ADVENTURES
    ended = [e for e in t.events if e.type.value == "adventure_ended"]
    assert ended[0].rule == "FF-DEPTH-09" and ended[0].changes[0].after == "darkness"
    assert [c.type for c in legal_commands(t.state)][0] == "choose_town_size"  # back to the road
