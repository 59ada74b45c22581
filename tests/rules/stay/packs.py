"""A made-up content pack for the Town Stay tests (none of it is card text): Location Event Charts, shops, what the
Locations buy, warrant prices, the Devil's Wheel payouts, Low Threat cards and core token effects."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.stay.town import BUILDINGS, chart, flat, gold, install

WANTED = {"op": "change", "field": "wanted", "amount": 1}
WOUND = {"op": "change", "field": "wounds", "amount": 1}

SALOON = chart(flat("A quiet drink", low=2, high=6), flat("Cards: you win", gold(20), low=7, high=7),
               flat("A brawl: thrown out", WOUND, low=8, high=9, ends_visit=True),
               flat("Fire! The Saloon burns", low=10, high=10, destroys=True),
               flat("Mistaken for a rustler", WANTED, low=11, high=11),
               flat("Arm wrestling", low=12, high=12, test={"skill": "strength", "target": 5, "pass": [gold(50)],
                                                             "fail": [WOUND]}))  # fmt: skip
QUIET = chart(flat("Nothing happens"))
WHEEL_PAYOUTS = [{"low": 0, "high": 9, "gold": 0, "text": "The house wins"},
                 {"low": 10, "high": 19, "gold": 25}, {"low": 20, "high": 29, "gold": 100},
                 {"low": 30, "high": 36, "gold": 300}]  # fmt: skip

FRONTIER: dict[str, Any] = {
    "name": "frontier",
    "version": 1,
    "buildings": BUILDINGS,
    "town": {"hotel_price": 15},
    "locations": {
        "Saloon": {"events": SALOON, "shop": [{"name": "Tequila", "kind": "token", "price": 40}],
                   "buys": [{"kind": "dark_stone", "price": 50}]},
        "Gambling Hall": {"events": QUIET, "devils_wheel": {"stake": 10, "payouts": WHEEL_PAYOUTS}},
        "Frontier Outpost": {"events": QUIET, "buys": [{"kind": "dark_stone", "price": 50},
                                                        {"kind": "item", "name": "Lucky Charm", "price": 30}]},
        "Sheriff's Office": {"events": QUIET, "bars": ["Outlaw"], "warrants": {"wanted": 100, "most_wanted": 300}},
        "Smuggler's Den": {"events": QUIET, "bars": ["Law"]},
        "Street Market": {"events": QUIET, "shop": [
            {"name": "Exotic Herbs", "kind": "token", "price": 35}, {"name": "Spice", "kind": "token", "price": 20},
            {"name": "Rifle", "kind": "item", "price": 300, "tags": ["gear"], "hourglass": 1},
            {"name": "Hot Bath", "kind": "service", "price": 5, "effects": [{"op": "change", "field": "sanity_damage",
                                                                               "amount": -2}]}]},
        "Blacksmith": {"events": QUIET},
        "Camp Site": {"events": QUIET},
    },
    "tokens": {"Bandages": {"effects": [{"op": "change", "field": "wounds", "amount": -2}]},
               "Bomb": {"fight_only": True}},
    "low_threats": [{"name": "Bandit Gang", "enemies": [{"enemy": "Bandit", "health": 4}]},
                    {"name": "Void Swarm", "enemies": [{"enemy": "Void Spider", "health": 2},
                                                       {"enemy": "Stranglers", "health": 6, "variable_xp": True}]}],
    "town_types": {"Outlaw Town": {"special_rules": ["Everyone is armed"], "extra_options": [
        {"name": "Fine Cigar", "kind": "token", "price": 15},
        {"name": "Moonshine", "kind": "token", "price": 5, "location": "Smuggler's Den"}]}},
}  # fmt: skip


def frontier(monkeypatch: pytest.MonkeyPatch) -> str:
    return install(monkeypatch, FRONTIER)
