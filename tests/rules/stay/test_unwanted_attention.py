"""Unwanted Attention with typed-in dice (FT-UA-01..06): gained on entering town and from Gold at the Saloon or the
Gambling Hall, the trouble check on a rolled 7, the attack, death in town, and the reset on leaving."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared_rules import Arrive, apply, legal_commands, new_session
from shared_rules.commands import EndTownStay
from shared_rules.state import Carry, Phase, StayStage, TownSize, Travel
from tests.rules.stay.packs import frontier
from tests.rules.stay.town import TownTable, two_d6
from tests.rules.table import hero


def ua(t: TownTable, hero_id: str) -> int:
    return t.hero(hero_id).unwanted_attention


# ---- gaining markers -----------------------------------------------------------------------------------------------
def test_entering_town_gives_a_marker_per_mutation_over_3_and_starts_day_1_FT_UA_01() -> None:
    posse = [hero("a", mutations=("M",) * 5), hero("b", mutations=("M",) * 3)]
    state = new_session(posse, seed=2)
    state = replace(state, phase=Phase.ARRIVAL, travel=Travel(TownSize.SMALL, ("a", "b"), resolved=2))
    outcome = apply(state, Arrive(dice=((3, 4),)))
    after = outcome.state
    assert [h.unwanted_attention for h in after.heroes] == [2, 0]
    assert after.stay is not None and after.stay.day == 1 and after.stay.stage is StayStage.DAWN
    assert [c.type for c in legal_commands(after)][0] == "start_day"


def test_the_dying_marshal_gives_d3_markers_on_arrival_FT_UA_03() -> None:
    state = new_session([hero("a"), hero("b")], seed=2)
    state = replace(state, phase=Phase.ARRIVAL, travel=Travel(TownSize.SMALL, ("a",), resolved=1),
                    carry=Carry(dying_marshal=True))  # fmt: skip
    outcome = apply(state, Arrive(dice=((3, 4), (2,), (6,))))  # the Town type, then a D3 each: 1 and 3
    assert [h.unwanted_attention for h in outcome.state.heroes] == [1, 3]
    assert {e.rule for e in outcome.events if e.roll and "Unwanted" in e.roll.purpose} == {"FT-TRAVEL-D62"}


def test_gold_gained_on_a_saloon_visit_gives_one_marker_when_it_ends_FT_UA_02(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=0, dark_stone=3)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Saloon", (3, 4))  # 7: Cards, +$20 (no markers yet: no trouble check)
    t.sell("a", "Dark Stone", count=2)  # more Gold, for any reason
    t.buy("a", "Tequila")  # spent again: the Gold was still gained
    assert ua(t, "a") == 0  # at the end of the visit, not before
    t.leave("a")
    assert ua(t, "a") == 1  # one marker per visit, however many gains
    assert "FT-UA-02" in t.rules()


def test_no_marker_without_gold_or_away_from_the_saloon_and_gambling_hall_FT_UA_02(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = TownTable.in_town([hero("a", gold=50, dark_stone=2), hero("b", gold=50)], pack=frontier(monkeypatch),
                          day=True)  # fmt: skip
    t.visit("a", "Frontier Outpost", two_d6(5))
    t.sell("a", "Dark Stone", count=2)  # Gold, but at the Outpost
    t.leave("a")
    t.visit("b", "Saloon", two_d6(5))  # a quiet drink: no Gold
    t.buy("b", "Tequila")
    t.end_day()  # the Day's end closes the visit
    assert ua(t, "a") == 0 and ua(t, "b") == 0


def test_the_end_of_the_day_closes_a_saloon_visit_with_its_marker_FT_UA_02(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=0)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Saloon", (3, 4))
    t.end_day()
    assert ua(t, "a") == 1 and t.stay.open_visit("a") is None


# ---- trouble (FT-UA-04/05) -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("markers", "check", "attacked"), [(2, 2, True), (2, 3, False), (1, 1, True), (5, 6, False)])
def test_a_rolled_7_checks_a_d6_against_the_markers_FT_UA_04(monkeypatch: pytest.MonkeyPatch, markers: int,
                                                             check: int, attacked: bool) -> None:  # fmt: skip
    t = TownTable.in_town([hero("a", unwanted_attention=markers, luck=1)], pack=frontier(monkeypatch), day=True)
    luck = ((6,),) if attacked else ()  # Luck 5+ (one die) dodges
    t.visit("a", "Saloon", (3, 4), (check,), *luck)  # the 7; the trouble D6
    texts = " ".join(t.texts())
    assert ("attacked from behind" in texts) is attacked
    assert ("runs off into a back alley" in texts) is attacked
    assert t.hero("a").gold == 20  # the chart's 7 is read after the check


def test_six_markers_mean_an_attack_without_a_roll_FT_UA_04(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", unwanted_attention=6, luck=1)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Saloon", (3, 4), (5,))  # straight to the Luck 5+ test
    assert not any(e.roll and e.roll.purpose.startswith("Unwanted Attention") for e in t.events)
    assert any(e.type == "test" and e.rule == "FT-UA-05" for e in t.events)


def test_no_markers_no_check_and_only_a_rolled_7_counts_FT_UA_04(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a"), hero("b", unwanted_attention=3)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Saloon", (3, 4))  # a 7, but no markers
    t.visit("b", "Saloon", (2, 4))  # markers, but a 6
    assert "trouble" not in t.types()


def test_a_7_made_by_a_modifier_is_not_a_rolled_7_FT_UA_04(monkeypatch: pytest.MonkeyPatch) -> None:
    from shared_rules.state import DailyEvent

    t = TownTable.in_town([hero("a", unwanted_attention=3)], pack=frontier(monkeypatch), day=True)
    t.state = replace(t.state, stay=replace(t.stay, event=DailyEvent("Parade", location_event_modifier=1)))
    t.visit("a", "Saloon", (2, 4))  # 6 + 1: the chart reads 7, the dice did not roll one
    assert "trouble" not in t.types() and t.hero("a").gold == 20


def test_a_failed_luck_test_takes_d6_times_level_wounds_ignoring_defense_FT_UA_05(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = TownTable.in_town([hero("a", unwanted_attention=1, luck=2, level=2, defense=2)], pack=frontier(monkeypatch),
                          day=True)  # fmt: skip
    t.visit("a", "Saloon", (3, 4), (1,), (4, 2), (3,))  # attacked; Luck 4,2 fails; D6 3 x Level 2
    assert t.hero("a").wounds == 6 and not t.hero("a").removed  # no Defense save was rolled
    assert not any(e.roll and "Defense" in e.roll.purpose for e in t.events)
    assert t.hero("a").gold == 20  # still standing: the 7 is read


def test_a_ko_from_the_attack_kills_the_hero_FT_UA_05(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", unwanted_attention=2, luck=1, level=3), hero("b")], pack=frontier(monkeypatch),
                          day=True)  # fmt: skip
    t.visit("a", "Saloon", (3, 4), (2,), (2,), (4,))  # attacked; Luck fails; 4 x 3 = 12 Wounds
    a = t.hero("a")
    assert a.removed and a.knocked_out
    assert any(e.type == "hero_removed" and e.rule == "FT-UA-05" for e in t.events)
    assert t.hero("a").gold == 0  # the visit ended with the hero: the 7 is never read
    assert all(c.hero != "a" for c in legal_commands(t.state))


def test_the_option_reads_the_result_before_the_trouble(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", unwanted_attention=2, luck=1)], pack=frontier(monkeypatch), day=True,
                          trouble_first=False)  # fmt: skip
    t.visit("a", "Saloon", (3, 4), (2,), (6,))
    types = t.types()
    assert any("Cards: you win" in text for text in t.texts())
    assert types.index("town_chart") < types.index("trouble")


# ---- leaving (FT-UA-06) ------------------------------------------------------------------------------------------
def test_leaving_town_removes_every_marker_FT_UA_06(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", unwanted_attention=4, gold=0), hero("b", unwanted_attention=1)],
                          pack=frontier(monkeypatch), day=True)  # fmt: skip
    t.visit("a", "Saloon", two_d6(5))
    t.do(EndTownStay())
    assert [h.unwanted_attention for h in t.state.heroes] == [0, 0]
    assert t.state.phase is Phase.BETWEEN_ADVENTURES and t.state.stay is None and t.state.town is None
