"""Location visits with typed-in dice: one visit a Day (R-STAY-01), who may enter where (FT-TOWN-07, FT-WANTED-03,
FT-FAQ-09), closed and Destroyed Locations (FT-TOWN-04/06), the 2D6 Location Event Chart from a pack or typed in, and
the Dying Marshal's call-out on a double (FT-TRAVEL-D62)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared_rules import Effect, RollDice, legal_commands
from shared_rules.commands import CardEntry
from shared_rules.rules.stay.view import stay_view
from shared_rules.state import Carry, Phase, Slot
from tests.rules.stay.packs import frontier
from tests.rules.stay.town import TownTable, effect, illegal, invalid, two_d6
from tests.rules.table import hero


def visiting(t: TownTable, hero_id: str) -> str | None:
    visit = t.stay.open_visit(hero_id)
    return visit.location if visit else None


# ---- one visit a Day -------------------------------------------------------------------------------------------------
def test_a_hero_visits_one_location_a_day_R_STAY_01(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=99), hero("b", gold=99)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Saloon", two_d6(5))
    assert visiting(t, "a") == "Saloon"
    with illegal(field="hero", rule="R-STAY-01", table=t):
        t.visit("a", "Gambling Hall", two_d6(5))
    t.leave("a")
    with illegal(field="hero", rule="R-STAY-01", table=t):  # a visit that ended still counts
        t.visit("a", "Gambling Hall", two_d6(5))
    assert t.legal("visit_location", "a") is None
    assert t.legal("visit_location", "b") == ("Saloon", "Gambling Hall", "Frontier Outpost", "Sheriff's Office",
                                              "Camp Site")  # fmt: skip
    t.visit("b", "Saloon", two_d6(6))  # several heroes may be at one Location
    t.end_day()
    t.start_day()
    t.choose("just_another_day")
    t.choose("hotel")  # everyone at the Hotel (R-STAY-18)
    t.visit("a", "Gambling Hall", two_d6(5))  # a new Day, a new visit
    assert visiting(t, "a") == "Gambling Hall"


def test_what_a_visiting_hero_may_do_is_listed_FT_TOWN_07(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=100, dark_stone=2)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Saloon", two_d6(5))
    listed = {c.type: c for c in legal_commands(t.state) if c.hero == "a"}
    assert set(listed) == {"buy", "sell", "end_visit"}
    assert listed["buy"].options == ("Tequila",) and "$40" in listed["buy"].note
    assert listed["sell"].options == ("Dark Stone",)
    assert "end_day" in [c.type for c in legal_commands(t.state)]


# ---- closed Locations ------------------------------------------------------------------------------------------------
def test_a_destroyed_building_cannot_be_visited_FT_TOWN_04() -> None:
    t = TownTable.in_town([hero("a")], day=True)
    assert t.state.town is not None
    slots = (Slot(1, "Saloon", destroyed=True), Slot(2, "Church"))
    t.state = replace(t.state, town=replace(t.state.town, slots=slots))
    with illegal(field="location", rule="FT-TOWN-04", table=t):
        t.visit("a", "Saloon", two_d6(5))
    assert t.legal("visit_location", "a") == ("Church", "Camp Site")


def test_a_location_event_can_burn_the_building_down_FT_TOWN_04(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a"), hero("b")], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Saloon", (4, 6))  # 10: Fire!
    assert visiting(t, "a") is None and "location_closed" in t.types()
    with illegal(field="location", rule="FT-TOWN-04", table=t):
        t.visit("b", "Saloon", two_d6(5))


def test_unknown_places_and_the_hotel_are_not_locations_FT_TOWN_03() -> None:
    t = TownTable.in_town([hero("a")], day=True)
    for place in ("Bank", "Hotel"):
        with illegal(field="location", rule="FT-TOWN-03", table=t):
            t.visit("a", place, two_d6(5))


def test_the_camp_site_is_always_a_location_FT_TOWN_06() -> None:
    t = TownTable.in_town([hero("a")], slots=("Church",), day=True)
    assert t.legal("visit_location", "a") == ("Church", "Camp Site")
    t.visit("a", "Camp Site", two_d6(8))
    assert t.prompt is not None and t.prompt.chart == "location:Camp Site"


# ---- who may enter where ------------------------------------------------------------------------------------------
def test_outlaws_are_kept_out_of_the_sheriffs_office_and_law_out_of_the_smugglers_den_FT_TOWN_07() -> None:
    t = TownTable.in_town([hero("o", keywords=("Outlaw",)), hero("l", keywords=("Law",))],
                          slots=("Sheriff's Office", "Smuggler's Den"), day=True)  # fmt: skip
    assert t.legal("visit_location", "o") == ("Smuggler's Den", "Camp Site")
    assert t.legal("visit_location", "l") == ("Sheriff's Office", "Camp Site")
    with illegal(field="hero", rule="R-STAY-06", table=t):  # the pack's restriction (a reading, issue 20)
        t.visit("o", "Sheriff's Office", two_d6(5))
    with illegal(field="hero", rule="R-STAY-06", table=t):
        t.visit("l", "Smuggler's Den", two_d6(5))


def test_a_wanted_law_hero_is_an_outlaw_FT_WANTED_03_FT_FAQ_09_FF_HERO_06() -> None:
    t = TownTable.in_town([hero("l", keywords=("Law",), wanted=1)], slots=("Sheriff's Office", "Smuggler's Den"),
                          day=True)  # fmt: skip
    assert t.hero("l").effective_keywords == ("Outlaw",)
    assert t.legal("visit_location", "l") == ("Smuggler's Den", "Camp Site")  # Outlaw replaces Law
    with illegal(field="hero", rule="R-STAY-06", table=t) as error:  # a Wanted! hero at the Sheriff: a reading
        t.visit("l", "Sheriff's Office", two_d6(5))
    assert "Pay Off" in error.value.message
    t.visit("l", "Smuggler's Den", two_d6(5))
    assert t.prompt is not None and t.prompt.kind == "card"


# ---- the Location Event Chart ----------------------------------------------------------------------------------------
def test_the_pack_chart_is_rolled_on_2d6_and_applied_FT_TOWN_07(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=0)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Saloon", (3, 4))  # 7: Cards, you win $20
    assert t.prompt is None and t.hero("a").gold == 20 and visiting(t, "a") == "Saloon"
    assert any("Cards: you win" in text for text in t.texts())  # "location:Saloon 7: Cards: you win"
    roll = next(e.roll for e in t.events if e.type == "rolled")
    assert roll is not None and roll.purpose == "the Saloon Location Event Chart" and roll.chart


def test_a_chart_entry_can_end_the_visit_or_call_for_a_test(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a"), hero("b", strength=2)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Saloon", (4, 4))  # 8: a brawl, thrown out
    assert t.hero("a").wounds == 1 and visiting(t, "a") is None
    t.visit("b", "Saloon", (6, 6), (5, 1))  # 12: arm wrestling, Strength 5+ passes
    assert t.hero("b").gold == 50


def test_without_a_chart_the_table_enters_the_result_for_the_rolled_total_FT_TOWN_07() -> None:
    t = TownTable.in_town([hero("a")], slots=("Church",), day=True)
    t.visit("a", "Church", (2, 6))
    assert t.prompt is not None and t.prompt.kind == "card" and t.prompt.chart == "location:Church"
    assert t.prompt.roll is not None and t.prompt.roll.value == 8 and "8" in t.prompt.question
    t.card("Blessed", effect("sanity_damage", 0), Effect("add_keyword", name="Holy"))
    assert t.hero("a").keywords == ("Holy",) and visiting(t, "a") == "Church"


def test_the_card_may_come_with_the_dice_it_is_read_with_FT_TOWN_07() -> None:
    t = TownTable.in_town([hero("a")], slots=("Church",), day=True)
    t.visit("a", "Church")
    assert t.prompt is not None and t.prompt.kind == "roll" and t.prompt.card == "location:Church"
    steps = t.state.step
    assert t.do(RollDice((2, 6), card=CardEntry("Blessed", (Effect("add_keyword", name="Holy"),)))) is None
    assert t.hero("a").keywords == ("Holy",) and visiting(t, "a") == "Church"  # read and applied: no card prompt
    assert t.state.step == steps + 1  # one answer, one step to undo
    assert any("Blessed" in text for text in t.texts())


def test_a_card_with_dice_no_card_is_read_with_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=0)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Saloon")
    assert t.prompt is not None and t.prompt.card == ""  # the pack's chart is read: no card to type
    with invalid(field="card", table=t):
        t.do(RollDice((3, 4), card=CardEntry("Cards")))
    assert t.hero("a").gold == 0 and t.prompt is not None and t.prompt.kind == "roll"


def test_a_bad_effect_typed_with_the_dice_refuses_the_dice_too() -> None:
    t = TownTable.in_town([hero("a")], slots=("Church",), day=True)
    t.visit("a", "Church")
    waiting = t.prompt
    with illegal(table=t) as error:
        t.do(RollDice((2, 6), card=CardEntry("Lost", (Effect("remove_item", name="Horse"),))))
    assert error.value.field.startswith("card.effects[0]")
    assert t.state.pending is not None and t.state.pending.prompt == waiting  # nothing applied, the roll waits


def test_a_card_typed_with_a_double_is_not_read_when_the_prisoner_is_called_out_FT_TRAVEL_D62() -> None:
    t = TownTable.in_town([hero("a")], slots=("Church",), day=True, carry=Carry(dying_marshal=True))
    t.visit("a", "Church")
    t.do(RollDice((2, 2), card=CardEntry("Blessed", (Effect("add_keyword", name="Holy"),))))
    t.choose("call_out")  # the result and the rest of the visit are ignored: the card with them
    t.choose("won")
    assert t.hero("a").keywords == () and visiting(t, "a") is None and t.stay.marshal_fought


def test_a_bad_typed_effect_is_refused_and_the_prompt_still_waits() -> None:
    t = TownTable.in_town([hero("a")], slots=("Church",), day=True)
    t.visit("a", "Church", (2, 6))
    waiting = t.prompt
    with illegal(field="effects[0].name", table=t):
        t.card("Lost", Effect("remove_item", name="Horse"))
    assert t.state.pending is not None and t.state.pending.prompt == waiting


# ---- the Dying Marshal (FT-TRAVEL-D62) -----------------------------------------------------------------------------
def test_a_double_may_call_out_the_prisoner_and_win_his_bounty_FT_TRAVEL_D62(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=0), hero("b")], pack=frontier(monkeypatch), day=True,
                          carry=Carry(dying_marshal=True))  # fmt: skip
    t.visit("a", "Saloon", (3, 3), (4,))  # a double: he is spotted; the bounty D6 shows 4
    assert t.prompt is not None and [o.key for o in t.prompt.options] == ["call_out", "let_go"]
    t.choose("call_out")
    assert visiting(t, "a") is None  # the result and the rest of the visit are ignored
    assert t.prompt is not None and [o.key for o in t.prompt.options] == ["won", "lost"]
    t.choose("won")
    assert t.hero("a").gold == 800 and t.stay.marshal_fought
    assert t.hero("a").unwanted_attention == 0  # the bounty is not Gold gained on the (ended) visit
    t.visit("b", "Saloon", (5, 5))  # he cannot be fought again: the chart is read (10: Fire!)
    assert t.prompt is None and any("Fire!" in text for text in t.texts())


def test_a_lost_duel_rolls_the_injury_on_one_d6_FT_TRAVEL_D62() -> None:
    t = TownTable.in_town([hero("a")], slots=("Church",), day=True, carry=Carry(dying_marshal=True))
    t.visit("a", "Church", (2, 2))
    t.choose("call_out")
    t.choose("lost")
    assert t.prompt is not None and t.prompt.kind == "card" and t.prompt.chart == "injury"
    assert "single D6" in t.prompt.question
    t.card("Broken ribs", effect("health_mod", -1))
    assert t.hero("a").max_health == 9


def test_letting_him_go_reads_the_chart_and_no_double_asks_without_the_marshal(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a"), hero("b")], pack=frontier(monkeypatch), day=True,
                          carry=Carry(dying_marshal=True))  # fmt: skip
    t.visit("a", "Saloon", (2, 2))
    t.choose("let_go")
    assert t.prompt is None and not t.stay.marshal_fought and visiting(t, "a") == "Saloon"
    plain = TownTable.in_town([hero("a")], pack="frontier", day=True)
    plain.visit("a", "Saloon", (2, 2))
    assert plain.prompt is None  # no Dying Marshal: a double is just a 4


# ---- the view for screens --------------------------------------------------------------------------------------
def test_the_stay_view_says_what_each_hero_may_do_and_why_not(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=100, keywords=("Outlaw",)), hero("b", gold=5, wanted=1)],
                          pack=frontier(monkeypatch), day=True)  # fmt: skip
    t.visit("a", "Saloon", two_d6(5))
    view = stay_view(t.state, legal_commands(t.state))
    assert view is not None and view.day == 1 and view.hotel_price == 15
    a, b = view.heroes
    assert a.visiting and a.location == "Saloon" and a.may_visit == ()
    assert [(o.key, o.costs[0].amount) for o in a.wares] == [("Tequila", 40)]
    assert set(a.actions) == {"buy", "end_visit"}
    assert b.wanted == 1 and "Sheriff's Office" not in b.may_visit and "Saloon" in b.may_visit
    why = dict(b.closed)["Sheriff's Office"]
    assert "Pay Off" in why and not why.startswith("hero:")  # the game's words, no field path
    assert set(b.actions) == {"visit_location", "pay_off_warrants"}
    assert stay_view(replace(t.state, phase=Phase.BETWEEN_ADVENTURES)) is None
