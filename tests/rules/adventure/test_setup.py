"""Setting up an Adventure: FF-SETUP-01, scaling (FF-SCALE-01), starting Grit (FF-GRIT-05, A6), class resources,
the Depth Track markers (FF-DEPTH-02) and the Old Lantern (FF-HERO-14)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared_rules import IllegalCommand, InvalidCommand
from shared_rules.commands import HoldBackTheDarkness, SheetEntry, StartAdventure
from shared_rules.state import Carry, Phase, SpaceMark, TrackSpace, TurnStep
from tests.rules.adventure.helpers import (
    MONK,
    SAMURAI,
    SORCERESS,
    adv,
    events,
    layout,
    legal_types,
    member,
    of,
    start,
)
from tests.rules.table import Table


def test_setup_runs_in_the_rulebook_order_and_places_heroes_by_initiative_FF_SETUP_01() -> None:
    t = start([of("a"), of("b"), of("c")], sheets=(SheetEntry("a", initiative=3), SheetEntry("b", initiative=6),
                                                   SheetEntry("c", initiative=4)))  # fmt: skip
    assert t.state.phase is Phase.ADVENTURE and t.prompt is None
    text = events(t, "adventure_started")[0]
    order = ["3 Hero", "shuffled", "Old Lantern", "Darkness Start", "Entrance tile", "Initiative order: B, C, A"]
    positions = [text.index(part) for part in order]
    assert positions == sorted(positions)  # FF-SETUP-01 steps 1, 2-3, 4, 6, 7, 8 in that order
    assert all(m.place is not None and m.place.tile == "entrance" for m in adv(t).heroes)
    assert [tile.id for tile in adv(t).tiles] == ["entrance"]
    assert adv(t).turn == 1 and adv(t).step is TurnStep.START


def test_markers_start_on_darkness_start_and_the_entrance_FF_DEPTH_02() -> None:
    t = start([of("a")], track=layout(10))
    assert adv(t).darkness == 0  # Darkness Start is space 0 (A2)
    assert adv(t).party == 9 == adv(t).track.entrance


@pytest.mark.parametrize(("heroes", "threat", "revive"),
                         [(1, "low", 2), (2, "low", 1), (3, "med", 1), (4, "med", 0), (5, "high", 1), (6, "high", 0)])
def test_threat_deck_and_revive_tokens_by_posse_size_FF_SCALE_01(heroes: int, threat: str, revive: int) -> None:
    t = start([of(chr(ord("a") + i)) for i in range(heroes)])
    assert (adv(t).threat, adv(t).revive_tokens) == (threat, revive)


def test_shadows_out_of_time_adds_its_revive_tokens_FT_TRAVEL_D16_FF_SCALE_01() -> None:
    t = Table.new([of("a"), of("b")])
    t.state = replace(t.state, carry=Carry(extra_revive_tokens=2))
    t.do(StartAdventure("a", layout=layout(), sheets=(SheetEntry("a", initiative=2), SheetEntry("b", initiative=3))))
    assert adv(t).revive_tokens == 1 + 2


def test_every_hero_starts_with_1_grit_whatever_the_road_gave_FF_GRIT_05_A6_FT_GRIT_04() -> None:
    t = start([of("a", grit=0), of("b", grit=2, max_grit=3), of("c", grit=1)])
    assert [t.hero(h).grit for h in "abc"] == [1, 1, 1]


def test_a_failed_mission_that_says_so_starts_the_next_with_no_grit_FF_GRIT_05_A42() -> None:
    t = Table.new([of("a", grit=2)])
    t.state = replace(t.state, carry=Carry(no_grit_next_adventure=True))
    t.do(StartAdventure("a", layout=layout(), sheets=(SheetEntry("a", initiative=2),)))
    assert t.hero("a").grit == 0
    assert not t.state.carry.no_grit_next_adventure  # paid once


def test_damage_from_the_road_carries_into_the_adventure_FT_HERO_02() -> None:
    t = start([of("a", wounds=3, sanity_damage=2)])
    assert (t.hero("a").wounds, t.hero("a").sanity_damage) == (3, 2)


def test_the_old_lantern_holder_is_chosen_and_rolls_hold_back_the_darkness_FF_HERO_14() -> None:
    t = start([of("a"), of("b")], lantern="b")
    assert adv(t).lantern == "b"
    t.do(HoldBackTheDarkness(dice=((6, 2),)))
    assert t.events[-1].hero is None and any(e.hero == "b" and e.type.value == "rolled" for e in t.events)


def test_class_resources_start_fury_0_ki_1_mana_full_FF_HERO_09_FF_SAM_01_FF_MONK_01_FF_SORC_03() -> None:
    t = start([of("s", SAMURAI), of("m", MONK), of("w", SORCERESS)], dice=((4,),))
    assert member(t, "s").fury == 0
    assert member(t, "m").ki == 1  # 0 at the start, +1 at the start of turn 1
    assert member(t, "w").mana == 3


def test_the_roku_demon_bag_is_refilled_to_d6_arcane_powder_FF_SORC_08() -> None:
    t = start([of("w", SORCERESS)], dice=((5,),))
    assert member(t, "w").arcane_powder == 5
    assert any("Roku Demon Bag" in e.text and e.rule == "FF-SORC-08" for e in t.events)


def test_sheets_come_from_the_content_pack_when_it_has_them_FF_HERO_01() -> None:
    t = start([of("s", SAMURAI), of("w", SORCERESS)], use_pack=True, dice=((2,),))
    assert member(t, "s").sheet.initiative == 4 and member(t, "s").sheet.max_fury == 3
    assert member(t, "w").sheet.focus == "fire" and member(t, "w").mana == 3


def test_typed_sheet_numbers_win_over_the_pack() -> None:
    t = start([of("s", SAMURAI)], use_pack=True, sheets=(SheetEntry("s", initiative=7, max_fury=5),))
    assert (member(t, "s").sheet.initiative, member(t, "s").sheet.max_fury) == (7, 5)


@pytest.mark.parametrize(("hero_class", "missing", "rule"),
                         [("", "initiative", "FF-TURN-03"), (SAMURAI, "max_fury", "FF-SAM-01"),
                          (MONK, "max_ki", "FF-MONK-01"), (SORCERESS, "mana", "FF-SORC-03")])  # fmt: skip
def test_sheet_numbers_the_rules_need_must_be_given(hero_class: str, missing: str, rule: str) -> None:
    t = Table.new([of("a", hero_class)])
    entry = SheetEntry("a", initiative=None if missing == "initiative" else 3)
    with pytest.raises(InvalidCommand) as error:
        t.do(StartAdventure("a", layout=layout(), sheets=(entry,)))
    assert error.value.field.endswith(missing) and error.value.rule == rule
    assert t.state.adventure is None


def test_the_depth_track_layout_must_be_given_FF_DEPTH_01() -> None:
    t = Table.new([of("a")])
    with pytest.raises(InvalidCommand) as error:
        t.do(StartAdventure("a", sheets=(SheetEntry("a", initiative=3),)))
    assert error.value.field == "track" and error.value.rule == "FF-DEPTH-01"


@pytest.mark.parametrize("bad", [
    (TrackSpace(0, 3), TrackSpace(1, 2)),  # too short
    (TrackSpace(0, 3), TrackSpace(2, 2), TrackSpace(2, 1)),  # numbering (A2)
    (TrackSpace(0, 3), TrackSpace(1, 1), TrackSpace(2, 2), TrackSpace(3, 1)),  # a Stage rises toward the Entrance
    (TrackSpace(0, 2), TrackSpace(1, 2), TrackSpace(2, 1)),  # Darkness Start not in Stage 3
    (TrackSpace(0, 3), TrackSpace(1, 2), TrackSpace(2, 1, SpaceMark.BLOOD_SPATTER)),  # the Entrance marked
])  # fmt: skip
def test_a_typed_layout_is_checked(bad: tuple[TrackSpace, ...]) -> None:
    t = Table.new([of("a")])
    with pytest.raises(InvalidCommand) as error:
        t.do(StartAdventure("a", layout=bad, sheets=(SheetEntry("a", initiative=3),)))
    assert error.value.field.startswith("layout")


def test_unknown_lantern_mission_or_hero_sheet_are_refused() -> None:
    t = Table.new([of("a")])
    sheet = (SheetEntry("a", initiative=3),)
    for command, field in [(StartAdventure("zz", layout=layout(), sheets=sheet), "lantern"),
                           (StartAdventure("a", "nope", layout=layout(), sheets=sheet), "mission"),
                           (StartAdventure("a", layout=layout(), sheets=(*sheet, SheetEntry("q"))), "sheets[1].hero"),
                           (StartAdventure("a", layout=layout(), sheets=(*sheet, *sheet)), "sheets[1].hero")]:
        with pytest.raises(InvalidCommand) as error:
            t.do(command)
        assert error.value.field == field


def test_start_adventure_is_legal_between_adventures_only() -> None:
    t = Table.new([of("a")])
    assert "start_adventure" in legal_types(t)
    t = start([of("a")])
    assert "start_adventure" not in legal_types(t)
    with pytest.raises(IllegalCommand):
        t.do(StartAdventure("a", layout=layout(), sheets=(SheetEntry("a", initiative=3),)))


def test_travel_hazards_scale_per_hero_as_the_adventure_does_FT_SCALE_01() -> None:
    from shared_rules.commands import ChooseTownSize

    for heroes in (1, 3, 6):
        t = Table.new([of(chr(ord("a") + i)) for i in range(heroes)])
        t.do(ChooseTownSize("medium"))  # Medium: one hazard per Hero (FT-TRAVEL-02)
        assert t.state.travel is not None and len(t.state.travel.rollers) == heroes


@pytest.mark.parametrize(("option", "value"), [("combat", "dice"), ("initiative_ties", "coin"), ("move_boosts", 9),
                                               ("ko_back_up_with", 0)])  # fmt: skip
def test_rule_options_are_checked_when_a_table_opens(option: str, value: object) -> None:
    from shared_rules import RuleOptions, new_session

    with pytest.raises(InvalidCommand) as error:
        new_session([of("a")], options=RuleOptions(**{option: value}))  # type: ignore[arg-type]
    assert error.value.field == f"options.{option}"
