"""The content-pack schema for the Town Stay (docs/content-packs.md): what loads, and every problem refused with a
ContentError naming where it is."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from shared_rules import ContentError
from shared_rules.content import PACKS, load_pack
from shared_rules.dice import DieKind
from tests.rules.stay.packs import FRONTIER


def test_the_test_pack_loads_with_everything_in_place() -> None:
    stay = load_pack(FRONTIER).stay
    assert stay.hotel_price == 15
    saloon = stay.location("Saloon")
    assert saloon.events is not None and saloon.events.die is DieKind.TWO_D6
    assert saloon.events.entry(7).text == "Cards: you win" and saloon.events.entry(99).text == "Arm wrestling"
    assert saloon.events.entry(12).test is not None and saloon.events.entry(12).test.skill == "strength"
    assert stay.location("Sheriff's Office").warrants == (100, 300)
    wheel = stay.location("Gambling Hall").devils_wheel
    assert wheel is not None and wheel.stake == 10 and wheel.payout(36) is not None
    assert stay.location("Church").events is None  # not in the pack: asked of the table
    assert stay.tokens["Bomb"].fight_only and stay.low_threats[1].enemies[1].all_heroes
    assert stay.town_type("Outlaw Town").extra_options[1].location == "Smuggler's Den"


def test_the_default_pack_holds_the_hotel_rate_and_the_two_restrictions() -> None:
    stay = PACKS["default"].stay
    assert stay.hotel_price == 10 and stay.daily_events == () and stay.camp_site_hazards is None
    assert stay.location("Sheriff's Office").bars == ("Outlaw",) and stay.location("Smuggler's Den").bars == ("Law",)


def broken(path: str, value: Any) -> dict[str, Any]:
    """FRONTIER with the value at `path` (dotted; [n] for list items; `-` deletes) replaced."""
    raw = copy.deepcopy(FRONTIER)
    keys = path.split(".")
    target: Any = raw
    for key in keys[:-1]:
        target = target[int(key[1:-1])] if key.startswith("[") else target[key]
    last = keys[-1]
    index: Any = int(last[1:-1]) if last.startswith("[") else last
    if value == "-":
        del target[index]
    else:
        target[index] = value
    return raw


CASES = [
    ("towns", {}, "content pack: unknown field(s) ['towns']"),
    ("locations.Bank", {}, "locations.Bank: not a Location of this pack"),
    ("locations.Saloon.events.die", "d36", "locations.Saloon.events.die"),
    ("locations.Saloon.events", {"die": "d6", "entries": [{"low": 1, "high": 6}]}, "rolled on 2d6"),
    ("locations.Saloon.events.entries.[2].low", 9, "locations.Saloon.events.entries: in order"),
    ("locations.Saloon.events.entries.[1].low", 8, "locations.Saloon.events.entries[1].high: 7 is not within 8..40"),
    ("locations.Saloon.events.entries.[0].low", 3, "must cover every result 2..12"),
    ("locations.Saloon.events.entries.[0].boom", 1, "locations.Saloon.events.entries[0]: unknown keys ['boom']"),
    ("locations.Saloon.events.entries.[5].test.skill", "charm", "locations.Saloon.events.entries[5].test.skill"),
    ("locations.Saloon.events.entries.[1].effects.[0].op", "boom", "locations.Saloon.events.entries[1].effects[0].op"),
    ("locations.Saloon.events.entries.[2].ends_visit", "yes", "entries[2].ends_visit: true or false"),
    ("locations.Saloon.shop.[0].kind", "pet", "locations.Saloon.shop[0].kind"),
    ("locations.Saloon.shop.[0].price", -1, "locations.Saloon.shop[0].price"),
    ("locations.Saloon.shop.[0].tags", ["gear"], "locations.Saloon.shop[0]: only an item has tags"),
    ("locations.Saloon.buys.[0].kind", "horse", "locations.Saloon.buys[0].kind"),
    ("locations.Sheriff's Office.warrants", {"wanted": 100}, "locations.Sheriff's Office.warrants: lacks 'most_wanted'"),
    ("locations.Gambling Hall.devils_wheel.payouts.[3].high", 35, "cover each score 0..36"),
    ("town.daily_events", [{"name": "Rain"}, {"name": "Rain"}], "listed twice"),
    ("town.daily_events", [{"name": "Rain", "closes": ["Bank"]}], "town.daily_events[0].closes"),
    ("town.daily_events", [{"name": "Rain", "copies": 0}], "town.daily_events[0].copies"),
    ("town.hotel_price", True, "town.hotel_price"),
    ("tokens.Tequila", {"effects": []}, "tokens.Tequila: its effect is printed"),
    ("low_threats.[0].enemies", [], "low_threats[0].enemies: a non-empty list"),
    ("low_threats.[0].enemies.[0].health", 0, "low_threats[0].enemies[0].health"),
    ("town_types.Outlaw Town.extra_options.[1].location", "Bank", "extra_options[1].location"),
    ("town_types.Outlaw Town.motto", "x", "town_types.Outlaw Town: unknown field(s) ['motto']"),
    ("town_types.Outlaw Town.daily_events", {"die": "d6", "entries": [{"low": 1, "high": 5}]}, "1..6 of the d6"),
]


@pytest.mark.parametrize(("path", "value", "message"), CASES)
def test_a_broken_pack_is_refused_naming_where(path: str, value: Any, message: str) -> None:
    with pytest.raises(ContentError) as error:
        load_pack(broken(path, value))
    assert message in error.value.message, error.value.message


def test_charts_may_reach_past_the_die_for_modified_rolls() -> None:
    raw = broken("town", {"camp_site_hazards": {"die": "2d6", "entries": [{"low": 0, "high": 1, "text": "Cutthroat"},
                                                                           {"low": 2, "high": 13, "text": "Quiet"}]}})
    camp = load_pack(raw).stay.camp_site_hazards
    assert camp is not None and camp.entry(-3).text == "Cutthroat" and camp.entry(14).text == "Quiet"
