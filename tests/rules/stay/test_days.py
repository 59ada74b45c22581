"""The Days of a Town Stay with typed-in dice: the Daily Event deck and Just Another Day on the Frontier (FT-DAY-01/02),
the Hotel or the Camp Site and its hazards (Army Convoy +1, FT-TRAVEL-D54), Bridge Destroyed's 2 Days (FT-TRAVEL-D45),
and the end-of-Day Town Event check."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from shared_rules import apply, legal_commands
from shared_rules.commands import EndTownStay, StartDay, VisitLocation
from shared_rules.dice import seed_state
from shared_rules.state import Carry, Lodging, StayStage
from tests.rules.stay.town import BUILDINGS, TownTable, chart, effect, flat, gold, illegal, install, two_d6
from tests.rules.table import hero

DECK = [
    {"name": "Just Another Day on the Frontier", "copies": 3, "just_another_day": True},
    {"name": "Payday", "text": "The mine pays out", "effects": [gold(10)]},
    {"name": "Parade", "text": "Saloon closed for the parade", "lasting": True, "closes": ["Saloon"],
     "location_event_modifier": 1, "camp_site_modifier": -1},
]  # fmt: skip


def deck_pack(monkeypatch: pytest.MonkeyPatch, **town: Any) -> str:
    return install(monkeypatch, {"name": "days", "version": 1, "buildings": BUILDINGS,
                                 "town": {"daily_events": DECK, **town},
                                 "town_types": {"Mining Town": {"daily_events": chart(
                                     flat("Cave-in", {"op": "change", "field": "wounds", "amount": 1}, low=1, high=3),
                                     flat("Strike it rich", gold(30), low=4, high=6), die="d6")}}})  # fmt: skip


# ---- the Daily Event (FT-DAY-01/02) ------------------------------------------------------------------------------
def test_without_a_deck_the_table_types_the_card_and_it_applies_to_every_hero_FT_DAY_01() -> None:
    t = TownTable.in_town([hero("a", gold=50), hero("b", gold=0)])
    t.start_day((3, 4))  # the dice typed in ahead: b's Camp Site Hazard 2D6
    assert t.prompt is not None and t.prompt.rule == "FT-DAY-01" and t.prompt.hero is None
    assert [o.key for o in t.prompt.options] == ["just_another_day", "other"]
    t.choose("other")
    assert t.prompt is not None and t.prompt.kind == "card" and t.prompt.chart == "daily_event"
    t.card("Boom town: everyone finds a little work", effect("xp", 5))
    assert [h.xp for h in t.state.heroes] == [5, 5]  # "applies to all Heroes in Town"
    assert t.stay.event is not None and t.stay.event.text.startswith("Boom town")
    t.choose("hotel")  # a: the Hotel, $10
    assert t.prompt is not None and t.prompt.kind == "card" and t.prompt.chart == "Camp Site Hazard"
    assert t.prompt.roll is not None and t.prompt.roll.faces == (3, 4)  # b cannot pay: the Camp Site, no question
    t.card("An uneventful night")
    assert t.prompt is None
    assert t.stay.stage is StayStage.DAY and t.stay.day == 1
    assert [(lodger.hero, lodger.at) for lodger in t.stay.lodging] == [("a", Lodging.HOTEL), ("b", Lodging.CAMP_SITE)]
    assert t.hero("a").gold == 40
    types = t.types()
    assert types.index("daily_event") < types.index("lodging")  # the card is read before beds are chosen


def test_the_deck_is_drawn_without_replacement_and_its_cards_act_FT_DAY_01(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=100)], pack=deck_pack(monkeypatch))
    t.start_day()
    assert t.prompt is not None and [o.key for o in t.prompt.options] == [
        "Just Another Day on the Frontier", "Parade", "Payday"]  # the table says which card it drew
    t.choose("Payday")
    t.choose("hotel")
    assert t.hero("a").gold == 100 + 10 - 10 and t.stay.event is not None and t.stay.event.name == "Payday"
    t.end_day()
    assert t.stay.event is None  # discarded at the end of the Day
    t.start_day()
    assert t.prompt is not None and "Payday" not in [o.key for o in t.prompt.options]
    t.choose("Parade")
    t.choose("hotel")
    with illegal(field="location", rule="R-STAY-09", table=t):  # closed for the Day (the card, a reading)
        t.visit("a", "Saloon", (3, 4))
    assert t.legal("visit_location", "a") is not None and "Saloon" not in (t.legal("visit_location", "a") or ())
    t.end_day()
    t.start_day()  # only Just Another Day is left (3 copies): nothing to ask, the beds come next
    assert t.stay.event is not None and t.stay.event.just_another_day
    assert t.prompt is not None and t.prompt.options[0].key == "hotel"


def test_a_spent_deck_is_shuffled_again_FT_DAY_01(monkeypatch: pytest.MonkeyPatch) -> None:
    name = install(monkeypatch, {"name": "two-cards", "version": 1, "buildings": BUILDINGS,
                                 "town": {"daily_events": [{"name": "Rain"}, {"name": "Sun"}]}})  # fmt: skip
    t = TownTable.in_town([hero("a", gold=100)], pack=name)
    t.start_day()
    t.choose("Rain")
    t.choose("hotel")
    t.end_day()
    t.start_day()  # one card left: no question
    assert t.stay.event is not None and t.stay.event.name == "Sun"
    t.choose("hotel")
    t.end_day()
    t.start_day()
    assert any("shuffled" in text for text in t.texts())
    assert t.prompt is not None and [o.key for o in t.prompt.options] == ["Rain", "Sun"]


def test_the_rng_draws_cards_by_their_copies_FT_DAY_01(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=0)], pack=deck_pack(monkeypatch), dice="server")
    counts: Counter[str] = Counter()
    for seed in range(200):
        state = replace(t.state, rng=seed_state(seed))
        outcome = apply(state, StartDay())
        assert outcome.state.stay is not None and outcome.state.stay.event is not None
        counts[outcome.state.stay.event.name] += 1
    assert 0.45 < counts["Just Another Day on the Frontier"] / 200 < 0.75  # 3 copies of 5 cards: 60%


def test_just_another_day_does_nothing_in_a_standard_town_FT_DAY_02() -> None:
    t = TownTable.in_town([hero("a", gold=20)])
    t.start_day()
    t.choose("just_another_day")
    assert any("no effect" in text for text in t.texts())
    assert t.prompt is not None and t.prompt.rule == "FT-DAY-01"  # straight to the beds


def test_just_another_day_rolls_the_specialty_towns_chart_FT_DAY_02(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=20), hero("b", gold=0)], pack=deck_pack(monkeypatch),
                          town_type="Mining Town")  # fmt: skip
    t.start_day((5,), (2, 2))  # the Mining Town's D6 shows 5; b's Camp Site 2D6
    t.choose("Just Another Day on the Frontier")
    assert [h.gold for h in t.state.heroes] == [50, 30]  # Strike it rich, for every hero
    assert "FT-DAY-02" in t.rules()


def test_without_the_town_card_the_table_enters_its_daily_event_FT_DAY_02() -> None:
    t = TownTable.in_town([hero("a", gold=20)], town_type="Haunted Town")
    t.start_day()
    t.choose("just_another_day")
    assert t.prompt is not None and t.prompt.kind == "card" and t.prompt.rule == "FT-DAY-02"
    assert t.prompt.roll is None  # the card's own die is rolled at the table
    t.card("Whispers in the walls", effect("sanity_damage", 1))
    assert t.hero("a").sanity_damage == 1


# ---- Hotel or Camp Site -------------------------------------------------------------------------------------------
def test_the_posse_chooses_its_beds_once_when_everyone_can_pay_the_hotel_R_STAY_18() -> None:
    t = TownTable.in_town([hero("a", gold=50), hero("b", gold=30), hero("c", gold=10)])
    t.start_day()
    t.choose("just_another_day")
    assert t.prompt is not None and (t.prompt.rule, t.prompt.hero) == ("R-STAY-18", None)
    assert [(o.key, [(c.field, c.amount) for c in o.costs]) for o in t.prompt.options] == [
        ("hotel", [("gold", 10)]), ("camp_site", []), ("each", [])]  # the price each hero pays, as data
    t.choose("hotel")
    assert t.prompt is None and [h.gold for h in t.state.heroes] == [40, 20, 0]
    assert [(lodger.hero, lodger.at) for lodger in t.stay.lodging] == [("a", Lodging.HOTEL), ("b", Lodging.HOTEL),
                                                                        ("c", Lodging.HOTEL)]  # fmt: skip


def test_each_hero_may_still_choose_their_own_bed_FT_DAY_01() -> None:
    t = TownTable.in_town([hero("a", gold=50), hero("b", gold=30)])
    t.start_day((2, 5))  # b's Camp Site Hazard
    t.choose("just_another_day")
    t.choose("each")
    assert t.prompt is not None and (t.prompt.rule, t.prompt.hero) == ("FT-DAY-01", "a")
    t.choose("hotel")
    assert t.prompt is not None and t.prompt.hero == "b"
    t.choose("camp_site")
    t.card("A quiet night")
    assert [(lodger.hero, lodger.at) for lodger in t.stay.lodging] == [("a", Lodging.HOTEL), ("b", Lodging.CAMP_SITE)]


def test_everyone_at_the_camp_site_rolls_each_hazard_and_no_posse_question_when_one_cannot_pay_FT_TOWN_06() -> None:
    t = TownTable.in_town([hero("a", gold=50), hero("b", gold=30)])
    t.start_day((2, 5), (6, 6))
    t.choose("just_another_day")
    t.choose("camp_site")
    assert t.prompt is not None and t.prompt.chart == "Camp Site Hazard" and t.prompt.hero == "a"
    t.card("A quiet night")
    assert t.prompt is not None and t.prompt.chart == "Camp Site Hazard" and t.prompt.hero == "b"
    t.card("Coyotes")
    assert [h.gold for h in t.state.heroes] == [50, 30]
    poor = TownTable.in_town([hero("a", gold=50), hero("b", gold=0)])
    poor.start_day((3, 4))
    poor.choose("just_another_day")
    assert poor.prompt is not None and (poor.prompt.rule, poor.prompt.hero) == ("FT-DAY-01", "a")  # each their own


def test_the_hotel_is_offered_only_to_a_hero_who_can_pay_A8() -> None:
    t = TownTable.in_town([hero("a", gold=9)])
    t.start_day((6, 5))
    t.choose("just_another_day")
    assert t.prompt is not None and t.prompt.chart == "Camp Site Hazard"  # no choice to make: the Camp Site
    t.card("Cold night")
    assert t.stay.lodged("a") is Lodging.CAMP_SITE and t.hero("a").gold == 9


def test_the_hotel_option_carries_its_price_as_data() -> None:
    t = TownTable.in_town([hero("a", gold=50)])
    t.start_day()
    t.choose("just_another_day")
    assert t.prompt is not None
    hotel, camp = t.prompt.options
    assert hotel.key == "hotel" and [(c.field, c.amount) for c in hotel.costs] == [("gold", 10)]
    assert camp.key == "camp_site" and not camp.costs


CAMP = chart(flat("Quiet", low=0, high=7), flat("Robbed", gold(-20), low=8, high=13))


@pytest.mark.parametrize(("convoy", "faces", "text", "lost"), [(False, (3, 4), "Quiet", 0), (True, (3, 4), "Robbed", 20),
                                                              (True, (2, 4), "Quiet", 0)])  # fmt: skip
def test_army_convoy_adds_1_to_the_camp_site_hazard_roll_FT_TRAVEL_D54(
    monkeypatch: pytest.MonkeyPatch, convoy: bool, faces: tuple[int, int], text: str, lost: int
) -> None:
    name = install(monkeypatch, {"name": "camp", "version": 1, "buildings": BUILDINGS,
                                 "town": {"camp_site_hazards": CAMP}})  # fmt: skip
    t = TownTable.in_town([hero("a", gold=50)], pack=name, carry=Carry(army_convoy=convoy))
    t.start_day(faces)
    t.choose("just_another_day")
    t.choose("camp_site")
    assert t.prompt is None
    assert t.hero("a").gold == 50 - lost
    assert any(text in e for e in t.texts())
    assert ("FT-TRAVEL-D54" in t.rules()) is convoy


def test_a_daily_event_can_change_the_camp_site_roll(monkeypatch: pytest.MonkeyPatch) -> None:
    name = install(monkeypatch, {"name": "camp2", "version": 1, "buildings": BUILDINGS,
                                 "town": {"camp_site_hazards": CAMP, "daily_events": DECK}})  # fmt: skip
    t = TownTable.in_town([hero("a", gold=50)], pack=name, carry=Carry(army_convoy=True))
    t.start_day((4, 4))
    t.choose("Parade")  # camp_site_modifier -1 cancels the Convoy's +1: 8
    t.choose("camp_site")
    assert t.hero("a").gold == 30


# ---- how long the Stay lasts ---------------------------------------------------------------------------------------
def test_bridge_destroyed_allows_two_days_FT_TRAVEL_D45() -> None:
    t = TownTable.in_town([hero("a", gold=100)], carry=Carry(max_days=2))
    for day in (1, 2):
        assert "start_day" in [c.type for c in legal_commands(t.state)]
        t.start_day()
        t.choose("just_another_day")
        t.choose("hotel")
        assert t.stay.day == day
        t.end_day()
    assert "start_day" not in [c.type for c in legal_commands(t.state)]
    with illegal(field="type", rule="FT-TRAVEL-D45", table=t):
        t.start_day()
    t.do(EndTownStay())
    assert t.state.stay is None


def test_without_a_cap_days_go_on() -> None:
    t = TownTable.in_town([hero("a", gold=100)])
    for _ in range(4):
        t.start_day()
        t.choose("just_another_day")
        t.choose("hotel")
        t.end_day()
    assert t.stay.day == 4 and t.stay.stage is StayStage.NIGHT


def test_a_day_is_begun_and_ended_in_order_FT_DAY_01() -> None:
    t = TownTable.in_town([hero("a", gold=100)])
    with illegal(field="type", rule="R-STAY-02", table=t):
        t.end_day()
    with illegal(field="type", rule="R-STAY-02", table=t):
        t.do(VisitLocation("a", "Saloon", dice=((3, 4),)))
    t.start_day()
    t.choose("just_another_day")
    t.choose("hotel")
    with illegal(field="type", rule="R-STAY-02", table=t):
        t.start_day()


# ---- the end-of-Day Town Event check (option town_events) ---------------------------------------------------------
EVENTS = chart(flat("Fire!", low=0, high=4, destroy_random=1), flat("Calm", low=5, high=9),
               flat("Prices soar", low=10, high=11, hotel_price_factor=2),
               flat("Void Twister", low=12, high=13, ends_stay=True, closes_camp_site=True))  # fmt: skip


def town(monkeypatch: pytest.MonkeyPatch, mode: str, **carry: Any) -> TownTable:
    name = install(monkeypatch, {"name": "events", "version": 1, "buildings": BUILDINGS,
                                 "town": {"town_events": EVENTS}})  # fmt: skip
    t = TownTable.in_town([hero("a", gold=200)], pack=name, carry=Carry(**carry), town_events=mode)
    t.start_day()
    t.choose("just_another_day")
    t.choose("hotel")
    return t


def test_the_town_darkness_marker_climbs_until_a_roll_is_at_or_under_it(monkeypatch: pytest.MonkeyPatch) -> None:
    t = town(monkeypatch, "darkness")
    t.end_day((4,))  # 4 > 1: no event, the marker climbs
    assert t.stay.darkness == 2 and "town_chart" not in t.types()
    t.start_day()
    t.choose("just_another_day")
    t.choose("hotel")
    t.end_day((2,), two_d6(7))  # 2 <= 2: a Town Event (Calm), the marker back to 1
    assert t.stay.darkness == 1 and any("Calm" in text for text in t.texts())


def test_army_convoy_adds_1_to_the_town_event_chart_FT_TRAVEL_D54(monkeypatch: pytest.MonkeyPatch) -> None:
    t = town(monkeypatch, "every_day", army_convoy=True)
    t.end_day((5, 6))  # 11 + 1 = 12: the Void Twister
    assert t.stay.over and t.stay.camp_site_closed
    assert [c.type for c in legal_commands(t.state) if c.type != "adjust"] == ["end_town_stay"]
    with illegal(field="type", table=t):
        t.start_day()


def test_town_events_raise_the_hotel_rate_and_close_buildings(monkeypatch: pytest.MonkeyPatch) -> None:
    t = town(monkeypatch, "every_day")
    t.end_day((4, 6))  # 10: Prices soar
    t.start_day()
    t.choose("just_another_day")
    hotel = t.prompt.options[0] if t.prompt else None
    assert hotel is not None and hotel.costs[0].amount == 20
    t.choose("hotel")
    t.end_day((1, 2))  # 3: Fire! a Random Building is closed; the table says which it drew
    assert t.prompt is not None and t.prompt.rule == "FT-TOWN-04"
    t.choose("1")
    assert t.state.town is not None and t.state.town.slots[0].destroyed
    t.start_day()
    t.choose("just_another_day")
    t.choose("hotel")
    with illegal(field="location", rule="FT-TOWN-04", table=t):
        t.visit("a", t.state.town.slots[0].location, (3, 4))


def test_town_events_off_asks_nothing_at_the_end_of_the_day() -> None:
    t = TownTable.in_town([hero("a", gold=100)], town_events="off")
    t.start_day()
    t.choose("just_another_day")
    t.choose("hotel")
    t.end_day()
    assert t.prompt is None and t.stay.stage is StayStage.NIGHT
