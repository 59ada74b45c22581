"""Mission 4, Jail Break, with typed-in dice (FT-M4-01..09)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared_rules import IllegalCommand
from shared_rules.commands import (
    Activate,
    Attack,
    EndActivation,
    HeroHit,
    HoldBackTheDarkness,
    StartAdventure,
    WoundEnemy,
)
from shared_rules.state import MissionCounter, Place
from tests.rules.adventure.helpers import legal_types, with_adventure
from tests.rules.missions.helpers import adv, answer, bandits, figure, layout, posse, run, town
from tests.rules.table import Table

M4 = "jail_break"


def jail(heroes: int = 1, *, keep: int = 0, **kw: object) -> Table:
    """A Jail Break with the heroes' Buildings rolled 2, 3 ...; only `keep` of the 3 Bandits left on the board."""
    t = town(M4, heroes, answers=tuple(2 + n for n in range(heroes)), **kw)  # type: ignore[arg-type]
    kept = tuple(replace(f, arrived=99) if f.kind == "bandit" else f  # they stand by (not this test's business)
                 for f in adv(t).figures if f.kind != "bandit" or int(f.id[-1]) <= keep)  # fmt: skip
    with_adventure(t, figures=kept)
    return t


def quiet_turn(t: Table, hbtd: tuple[int, int] | None = (6, 4)) -> None:
    t.do(HoldBackTheDarkness(dice=(hbtd,) if hbtd else ()))
    run(t, Activate("a", dice=((2,),)))
    t.do(EndActivation("a"))


def test_set_up_law_heroes_in_the_sheriffs_office_prisoner_dynamite_horses_3_bandits_FT_M4_01() -> None:
    t = Table.new([replace(h, keywords=("Law",)) if h.id == "a" else h for h in posse(2)])
    t.do(StartAdventure("a", M4, layout=layout(14), sheets=tuple(
        __import__("shared_rules.commands", fromlist=["SheetEntry"]).SheetEntry(h, initiative=9) for h in "ab")))
    answer(t, 3)  # only B rolls a Building
    assert adv(t).hero("a").place is not None and adv(t).hero("a").place.tile == "building-5"
    assert adv(t).hero("b").place is not None and adv(t).hero("b").place.tile == "building-3"
    assert figure(t, "prisoner").place == Place("building-5", 9, 19) and adv(t).counter("dynamite") == 2
    assert [f.id for f in adv(t).figures if f.kind == "horse"] == ["horse-1", "horse-2", "horse-3"]
    assert len(bandits(t)) == 3


def test_the_darkness_counts_the_bandits_remaining_5_8_11_kills_move_it_back_FT_M4_06() -> None:
    assert [jail(n, length=16).state.adventure.darkness for n in (1, 3, 5)] == [5, 8, 11]  # type: ignore[union-attr]
    t = jail(keep=1)
    t.do(HoldBackTheDarkness(dice=((2, 3),)))  # fails 7+: toward the Mine Entrance
    assert adv(t).darkness == 6
    run(t, Activate("a", dice=((2,),)))
    run(t, Attack("a", hits=(HeroHit("bandit-1", 9),)))
    assert adv(t).darkness == 5


def test_blood_spatter_and_growing_dread_spaces_are_ignored_FT_M4_06() -> None:
    t = jail(keep=1)
    with_adventure(t, darkness=6)
    t.do(HoldBackTheDarkness(dice=((2, 3),)))  # into space 7, Blood Spatter in this layout: nothing drawn
    assert adv(t).darkness == 7 and adv(t).darkness_cards == 0


def test_hbtd_needs_7_then_8_once_escaped_and_none_at_darkness_start_FT_M4_07() -> None:
    from shared_rules.rules.missions.jail import JAIL_BREAK

    t = jail(keep=1)
    assert JAIL_BREAK.hbtd_target(t.state) == 7
    with_adventure(t, counters=(*adv(t).counters, MissionCounter("escaped", 1)))
    assert JAIL_BREAK.hbtd_target(t.state) == 8
    with_adventure(t, darkness=0)
    assert JAIL_BREAK.hbtd_target(t.state) is None


def test_reinforcements_at_the_end_of_the_turn_by_their_own_entry_table_in_the_heroes_order_FT_M4_02_A31() -> None:
    t = jail(keep=1)
    quiet_turn(t)
    assert t.prompt is not None and [o.key for o in t.prompt.options] == ["reinforcements", "fuse"]
    t.choose("reinforcements")
    answer(t, 6, 1, 2, 5, 8)  # D3 = 3: a D6 1 is Entry A, 2 Entry B, 5 a Random Rooftop (D8 8)
    new = [figure(t, b).place for b in bandits(t)[1:]]
    assert new == [Place("street", 12, 0), Place("street", 24, 12), Place("roof:7+8")]
    assert adv(t).counter("dynamite") == 1  # then the fuse


def test_the_fuse_blows_the_wall_at_the_end_of_turn_2_FT_M4_03() -> None:
    t = jail(keep=1)
    with_adventure(t, darkness=0)  # no more reinforcements: the fuse is the only End of the Turn effect
    quiet_turn(t, None)  # no roll at Darkness Start
    assert adv(t).counter("dynamite") == 1 and not adv(t).counter("escaped")
    quiet_turn(t, None)
    assert adv(t).counter("escaped") == 1


def test_the_prisoner_runs_through_the_hole_to_a_horse_mounts_and_rides_for_entry_b_FT_M4_04_FT_M4_05() -> None:
    t = jail(keep=1)
    with_adventure(t, darkness=0, counters=(MissionCounter("dynamite", 0), MissionCounter("escaped", 1)))
    t.do(HoldBackTheDarkness())
    run(t, Activate("a", dice=((2,),)))
    t.do(EndActivation("a", dice=((6,),)))  # the Peril Die shows 6: out through the hole, 5 more toward a Horse
    prisoner = figure(t, "prisoner").place
    assert prisoner is not None and prisoner.tile == "street" and not adv(t).counter("mounted")
    t.do(HoldBackTheDarkness())
    run(t, Activate("a", dice=((2,),)))
    t.do(EndActivation("a", dice=((6,),)))
    assert adv(t).counter("mounted") == 1 and sum(1 for f in adv(t).figures if f.kind == "horse") == 2
    t.do(HoldBackTheDarkness())
    run(t, Activate("a", dice=((2,),)))
    t.do(EndActivation("a", dice=((6, 6),)))  # 2D6 = 12 toward Entry B
    assert t.state.adventure is not None and adv(t).counter("got_away") == 0
    t.do(HoldBackTheDarkness())
    run(t, Activate("a", dice=((2,),)))
    t.do(EndActivation("a", dice=((1, 2),)))  # 3 more: off the board at Entry B, he got away
    assert t.state.adventure is None and t.state.carry.growing_dread_next == 1 and t.state.carry.no_town == "FT-M4-09"


def test_horses_cannot_be_attacked_FT_M4_05() -> None:
    t = jail(keep=1)
    with pytest.raises(IllegalCommand) as error:
        t.do(WoundEnemy("horse-1", 1))
    assert error.value.rule == "FT-M4-05"


def test_the_darkness_on_darkness_start_and_no_bandit_left_wins_25_xp_and_d6_x_50_FT_M4_08_FT_M4_09() -> None:
    t = jail(keep=1)
    with_adventure(t, darkness=1)
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    t.do(Attack("a", hits=(HeroHit("bandit-1", 9),), dice=((3,),)))  # the Darkness to 0; D6 3 x $50
    assert t.state.adventure is None and (t.state.hero("a").xp, t.state.hero("a").gold) == (25, 150)


def test_a_failed_jail_break_adds_growing_dread_at_the_next_adventures_start_FT_M4_09() -> None:
    t = jail(keep=1)
    with_adventure(t, darkness=13)
    t.do(HoldBackTheDarkness(dice=((2, 3),)))  # the Darkness reaches the Mine Entrance
    assert t.state.adventure is None and "choose_town_size" not in legal_types(t)
    t.do(StartAdventure("a", "shootout_in_the_streets", layout=layout(14), sheets=(
        __import__("shared_rules.commands", fromlist=["SheetEntry"]).SheetEntry("a", initiative=9),)))
    assert any("the Jail Break failed" in e.text and e.type.value == "growing_dread" for e in t.events)
    assert t.state.carry.growing_dread_next == 0 and t.state.carry.no_town == ""
