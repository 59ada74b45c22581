"""The town screen: type, Buildings in their slots, destroyed slots, and what carried over from the road."""

from __future__ import annotations

from pathlib import Path

from mobile.presenters.town import ALWAYS_THERE, TownPresenter, carry_lines
from mobile.presenters.travel import TravelPresenter
from shared_rules import RollHazard
from shared_rules.content import TOWN_SIZES
from shared_rules.state import Carry, TownSize
from tests.mobile.helpers import hero, offline_table


def test_before_town_the_screen_says_where_the_posse_is(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")], dice="server")
    view = TownPresenter(table).view()
    assert not view.in_town and "choose a town size" in view.empty_text and view.slots == ()
    TravelPresenter(table).choose_size("medium")
    assert "on the road" in TownPresenter(table).view().empty_text


def test_a_built_town_lists_its_slots_and_the_void_storm_destroys_FT_TOWN_05(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann", mutations=("a", "b", "c", "d", "e"))], dice="server")
    travel = TravelPresenter(table)
    travel.choose_size("medium")  # one hero: one hazard
    table.submit(RollHazard(dice=((2, 6),)))  # typed in: 26 Void Storm, 2 Random Buildings on arrival (D26)
    assert any("Void Storm" in line for line in TownPresenter(table).view().carry)
    travel.step_destroyed(+1)  # and one more for a reason the players give
    travel.act()
    view = TownPresenter(table).view()
    town = table.snapshot.state.town
    assert view.in_town and town is not None and view.title == town.town_type
    assert [row.number for row in view.slots] == list(range(1, TOWN_SIZES[TownSize.MEDIUM].locations + 1))
    assert view.destroyed_count == sum(1 for s in town.slots if s.destroyed) == 3
    assert all(row.text.endswith("(destroyed)") == row.destroyed for row in view.slots)
    assert view.always == ALWAYS_THERE and not any("Void Storm" in line for line in view.carry)  # used up
    assert view.heroes[0].unwanted_attention == 2  # FT-UA-01: 5 Mutations, 2 over 3


def test_every_carried_result_has_a_line_in_player_words() -> None:
    every = Carry(dark_stone_bonus=25, destroyed_on_arrival=2, max_days=2, army_convoy=True, dying_marshal=True,
                  extra_revive_tokens=1, blood_moon=True)
    lines = carry_lines(every)
    assert len(lines) == 7 and not any("FT-" in line for line in lines)  # rule ids stay behind "why?" in the log
    names = ("Dark Stone Convoy", "Void Storm", "Bridge Destroyed", "Army Convoy", "Dying Marshal",
             "Shadows Out of Time", "Blood Moon")
    assert [line.split(":")[0] for line in lines] == list(names)
    assert carry_lines(Carry()) == ()
