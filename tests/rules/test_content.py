"""Content is data: the printed charts ship as JSON checked against the rulebook, and packs are validated on load.

A broken pack raises ContentError naming the problem; a chart a pack supplies is rolled by the engine instead of
asking the table what the physical card says (docs/content-packs.md).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from shared_rules import Effect, EnterCard, Hero, InvalidCommand, RollHazard, RuleOptions, Session, apply, new_session
from shared_rules.content import (
    PACKS,
    TOWN_SIZES,
    TOWN_TYPES,
    TRAVEL_HAZARDS,
    ContentError,
    _load_hazards,
    _load_sizes,
    _load_town_types,
    _read,
    load_pack,
    register_pack,
)
from shared_rules.dice import DieKind
from shared_rules.flow import Ctx, Procedure
from shared_rules.rules.travel.hazards import HAZARDS
from shared_rules.state import Phase, TownSize, Travel
from tests.rules.table import hero, item

# FT §Expanded Travel Hazard Chart, as printed (FT-TRAVEL-D11..D66)
CHART = {
    11: "Possession", 12: "Bleached Bones", 13: "Dark Dreams", 14: "Shooting Star", 15: "Devil's Fork",
    16: "Shadows Out of Time", 21: "Mimic Beast", 22: "Blighted Desert", 23: "Living Hills", 24: "Dark Stone Convoy",
    25: "Blood Moon", 26: "Void Storm", 31: "March of the Lost Army", 32: "Plague Church", 33: "Harried by HellBats",
    34: "Burning Farmstead", 35: "Ruined Fort", 36: "Mutant Warlord", 41: "Stampede", 42: "Raging River",
    43: "Flash Flood", 44: "Rail Line Construction", 45: "Bridge Destroyed", 46: "Wrecked Train",
    51: "Sleeping Under the Stars", 52: "Bandits!", 53: "Circling Vultures", 54: "Army Convoy",
    55: "Massacred Wagon Train", 56: "Void Hound Attack", 61: "Indian Curse", 62: "Dying Marshal",
    63: "Snake Oil Salesman", 64: "Search Party", 65: "Gulch Ambush", 66: "Traveler on the Road",
}  # fmt: skip
SCOPES = {11: "R", 14: "R", 16: "R", 66: "R", 21: "P", 24: "P", 25: "P", 26: "P", 42: "P", 45: "P", 54: "P", 62: "P",
          32: "E-opt", 34: "E-opt", 46: "E-opt", 51: "E-opt", 55: "E-opt", 64: "E-opt"}  # fmt: skip

GOOD_PACK: dict[str, Any] = {
    "name": "test-good",
    "version": 2,
    "buildings": [{"location": "Saloon", "tokens": 2}, {"location": "Church"}, {"location": "Blacksmith"}],
    "town_types": {"Mining Town": {"always": ["Blacksmith"], "never": ["Church"]}},
    "hero_classes": {"Assassin": {"skills": {"agility": 4}, "health": 9, "defense": 5, "keywords": ["Outlaw"]}},
    "charts": {
        "injury": {"die": "2d6", "entries": [
            {"low": 2, "high": 4, "text": "Broken Ribs", "effects": [{"op": "change", "field": "health_mod",
                                                                       "amount": -1}]},
            {"low": 5, "high": 11, "text": "Bruised", "effects": [{"op": "change", "field": "wounds", "amount": 2}]},
            {"low": 12, "text": "Lost Hat", "effects": [{"op": "remove_item", "name": "Hat"},
                                                        {"op": "add_token", "name": "Bandages"}]},
        ]},
        "madness": {"die": "d36", "entries": [{"low": 10 * t + 1, "high": 10 * t + 6, "text": f"Row {t}"}
                                              for t in range(1, 7)]},
    },
}  # fmt: skip


def broken(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    pack = copy.deepcopy(GOOD_PACK)
    change(pack)
    return pack


# ---- the shipped charts --------------------------------------------------------------------------------------------
def test_the_d36_chart_is_the_printed_one_FT_DICE_01() -> None:
    assert {roll: entry.name for roll, entry in TRAVEL_HAZARDS.items()} == CHART
    for roll, entry in TRAVEL_HAZARDS.items():
        assert entry.rule == f"FT-TRAVEL-D{roll}"
        assert entry.scope == SCOPES.get(roll, "E")


def test_the_town_table_and_sizes_are_the_printed_ones_FT_TOWN_01_02_FT_TRAVEL_02() -> None:
    assert set(TOWN_TYPES) == set(range(2, 13))
    assert {TOWN_TYPES[t] for t in (6, 7, 8)} == {"Standard Frontier Town"}
    assert len(set(TOWN_TYPES.values())) == 9  # 8 Specialty types plus Standard
    assert {s: TOWN_SIZES[s].locations for s in TownSize} == {TownSize.SMALL: 4, TownSize.MEDIUM: 6,
                                                              TownSize.LARGE: 8}  # fmt: skip
    assert [TOWN_SIZES[s].auto_hazards_per_hero for s in TownSize] == [0, 1, 1]
    assert [TOWN_SIZES[s].roll_adds_hazard_on for s in TownSize] == [{1, 2, 3}, set(), {1, 2, 3}]


def test_the_shipped_files_validate_and_the_default_pack_names_the_rulebook_locations_A15() -> None:
    assert _load_hazards(_read("travel_hazards.json")) == TRAVEL_HAZARDS
    assert _load_town_types(_read("town_types.json")) == TOWN_TYPES
    assert _load_sizes(_read("town_sizes.json")) == TOWN_SIZES
    default = load_pack(_read("default_pack.json"))
    assert default == PACKS["default"]
    names = {location for location, _ in default.buildings}
    new_ones = {"Sheriff's Office", "Smuggler's Den", "Indian Trading Post", "Mutant Quarter", "Gambling Hall",
                "Street Market"}  # FT-TOWN-07  # fmt: skip
    assert new_ones | {"Saloon", "Frontier Outpost", "Blacksmith", "Doc's Office", "Church"} <= names
    assert len(default.building_pool()) >= 8  # enough for a Large Town
    assert not ({"Hotel", "Camp Site"} & names)  # printed on the map, not tokens (FT-TOWN-01)


def test_a_shipped_chart_missing_a_result_is_refused() -> None:
    hazards = _read("travel_hazards.json")
    del hazards["35"]
    with pytest.raises(ContentError, match=r"missing \[35\]"):
        _load_hazards(hazards)
    with pytest.raises(ContentError, match="scope"):
        _load_hazards({**_read("travel_hazards.json"), "35": {"name": "Ruined Fort", "scope": "X"}})
    types = _read("town_types.json")
    del types["7"]
    with pytest.raises(ContentError, match="2..12"):
        _load_town_types(types)
    sizes = _read("town_sizes.json")
    with pytest.raises(ContentError, match="lacks 'large'"):
        _load_sizes({"small": sizes["small"], "medium": sizes["medium"]})
    with pytest.raises(ContentError, match="medium.locations"):
        _load_sizes({**sizes, "medium": {**sizes["medium"], "locations": "6"}})
    with pytest.raises(ContentError, match="small.roll_adds_hazard_on"):
        _load_sizes({**sizes, "small": {**sizes["small"], "roll_adds_hazard_on": [0, 1]}})


# ---- validating packs --------------------------------------------------------------------------------------------------
def test_a_good_pack_loads() -> None:
    pack = load_pack(GOOD_PACK)
    assert pack.name == "test-good" and pack.version == 2
    assert pack.building_pool().count("Saloon") == 2
    assert pack.town_types["Mining Town"].always == ("Blacksmith",)
    injury = pack.charts["injury"]
    assert (
        injury.die is DieKind.TWO_D6 and injury.entry(3).text == "Broken Ribs" and injury.entry(12).text == "Lost Hat"
    )
    assert injury.entry(12).effects == (Effect("remove_item", name="Hat"), Effect("add_token", name="Bandages"))
    assert pack.charts["madness"].entry(35).text == "Row 3"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda p: p.pop("name"), "name: required"),
        (lambda p: p.update(name=""), "name"),
        (lambda p: p.update(name=7), "name"),
        (lambda p: p.pop("version"), "version: required"),
        (lambda p: p.update(version="two"), "version"),
        (lambda p: p.update(version=True), "version"),
        (lambda p: p.pop("buildings"), "buildings: required"),
        (lambda p: p.update(buildings=7), "buildings"),
        (lambda p: p.update(buildings=[]), "buildings"),
        (lambda p: p.update(flavour="spicy"), "flavour"),
        (lambda p: p["buildings"].append({"tokens": 2}), "buildings[3]"),
        (lambda p: p["buildings"].append({"location": "Bank", "tokens": 0}), "buildings[3].tokens"),
        (lambda p: p["buildings"].append({"location": "Bank", "tokens": "2"}), "buildings[3].tokens"),
        (lambda p: p["buildings"].append({"location": "Bank", "tokens": True}), "buildings[3].tokens"),
        (lambda p: p["buildings"].append({"location": "Saloon"}), "listed twice"),
        (lambda p: p.update(town_types=[]), "town_types"),
        (lambda p: p["town_types"].update({"Minng Town": {}}), "Minng Town"),
        (lambda p: p["town_types"]["Mining Town"].update(always=["Bank"]), "town_types.Mining Town.always"),
        (lambda p: p["town_types"]["Mining Town"].update(never=["Bank"]), "town_types.Mining Town.never"),
        (lambda p: p["town_types"]["Mining Town"].update(always="Saloon"), "town_types.Mining Town.always"),
        (lambda p: p["town_types"]["Mining Town"].update(always=["Church"]), "both always and never"),
        (lambda p: p["town_types"]["Mining Town"].update(always=["Blacksmith", "Blacksmith"]), "more often"),
        (lambda p: p["town_types"]["Mining Town"].update(sometimes=["Saloon"]), "sometimes"),
        (lambda p: p["hero_classes"].update(Ninja={"skills": {"stealth": 3}}), "stealth"),
        (lambda p: p["hero_classes"]["Assassin"].update(health="ten"), "hero_classes.Assassin.health"),
        (lambda p: p["hero_classes"]["Assassin"].update(defense=9), "hero_classes.Assassin.defense"),
        (lambda p: p["hero_classes"]["Assassin"]["skills"].update(agility=-1), "skills.agility"),
        (lambda p: p["hero_classes"]["Assassin"].update(keywords="Outlaw"), "keywords"),
        (lambda p: p["hero_classes"]["Assassin"].update(mojo=3), "mojo"),
        (lambda p: p.update(charts={"injury": []}), "charts.injury"),
        (lambda p: p["charts"]["injury"].update(die="d7"), "charts.injury.die"),
        (lambda p: p["charts"]["injury"].pop("die"), "charts.injury.die"),
        (lambda p: p["charts"]["injury"].pop("entries"), "charts.injury.entries"),
        (lambda p: p["charts"]["injury"]["entries"].pop(), "cover each result 2..12"),
        (lambda p: p["charts"]["injury"]["entries"][1].update(high=12), "cover each result 2..12"),
        (lambda p: p["charts"]["injury"]["entries"][0].update(low=1), "cover each result 2..12"),
        (lambda p: p["charts"]["injury"]["entries"][0].pop("low"), "entries[0].low"),
        (lambda p: p["charts"]["injury"]["entries"][0].update(low="2"), "entries[0].low"),
        (lambda p: p["charts"]["injury"]["entries"][0].update(high=1), "entries[0].high"),
        (lambda p: p["charts"]["injury"]["entries"][0].update(page=3), "entries[0]"),
        (lambda p: p["charts"]["madness"]["entries"][0].update(high=17), "cover each result 11..66"),
        (lambda p: p["charts"]["injury"]["entries"][0]["effects"][0].update(op="explode"), "effects[0].op"),
        (lambda p: p["charts"]["injury"]["entries"][0]["effects"][0].update(field="charm"), "effects[0].field"),
        (lambda p: p["charts"]["injury"]["entries"][0]["effects"][0].update(amount="1"), "effects[0].amount"),
        (lambda p: p["charts"]["injury"]["entries"][0]["effects"][0].update(colour=1), "unknown field(s) ['colour']"),
        (lambda p: p["charts"]["injury"]["entries"][0].update(effects={"op": "tear_bag"}), "entries[0].effects"),
        (lambda p: p["charts"]["injury"]["entries"][2]["effects"][0].update(name=""), "effects[0].name"),
        (lambda p: p["charts"]["injury"]["entries"][2]["effects"][0].update(tags=["hat"]), "effects[0].tags"),
    ],
)
def test_a_broken_pack_raises_content_error_naming_the_problem(change: Any, words: str) -> None:
    with pytest.raises(ContentError) as error:
        load_pack(broken(change))
    assert words in error.value.message


@pytest.mark.parametrize("raw", [None, [], "pack", 3])
def test_a_pack_is_an_object(raw: Any) -> None:
    with pytest.raises(ContentError):
        load_pack(raw)


@pytest.fixture
def restore_packs() -> Iterator[None]:
    before = dict(PACKS)
    yield
    PACKS.clear()
    PACKS.update(before)


def test_register_pack_makes_it_usable_by_sessions(restore_packs: None) -> None:
    with pytest.raises(InvalidCommand) as error:
        new_session([hero("a")], pack="test-good")
    assert error.value.field == "pack"
    register_pack(GOOD_PACK)
    assert new_session([hero("a")], pack="test-good").pack == "test-good"


def test_a_broken_pack_is_not_registered(restore_packs: None) -> None:
    with pytest.raises(ContentError):
        register_pack(broken(lambda p: p["charts"]["injury"]["entries"].pop()))
    assert "test-good" not in PACKS


# ---- a pack's chart is rolled by the engine ---------------------------------------------------------------------------
@pytest.fixture
def injury_hazard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Travel Hazard 11 replaced by one Injury chart roll for the roller (the engine's ctx.card)."""

    def injured(ctx: Ctx, roller: str) -> Procedure:
        yield from ctx.card(roller, "injury", "roll once on the Injury chart", rule="TEST")

    monkeypatch.setitem(HAZARDS, 11, injured)


def travelling(pack: str, *heroes: Hero, **options: Any) -> Session:
    posse = heroes or (hero("a", items=(item("Hat", "clothing"),)),)
    state = new_session(posse, options=RuleOptions(**options), pack=pack)
    return replace(state, phase=Phase.TRAVEL, travel=Travel(TownSize.MEDIUM, ("a",)))


def hazard_roll(d36: int, *rest: tuple[int, ...]) -> RollHazard:
    """Roll Travel Hazard `d36`, then the dice in `rest`."""
    return RollHazard(dice=((d36 // 10, d36 % 10), *rest))


@pytest.mark.parametrize(("total", "check"), [
    ((1, 2), lambda h: h.health_mod == -1),
    ((3, 4), lambda h: h.wounds == 2),
    ((6, 6), lambda h: [i.name for i in h.items] == [] and h.side_bag == ("Bandages",)),
])  # fmt: skip
def test_a_pack_chart_is_rolled_by_the_engine_instead_of_prompting(restore_packs: None, injury_hazard: None,
                                                                   total: tuple[int, int], check: Any) -> None:  # fmt: skip
    register_pack(GOOD_PACK)
    outcome = apply(travelling("test-good", dice="table"), hazard_roll(11, total))
    assert outcome.pending is None  # no card prompt: the chart is the pack's
    assert check(outcome.state.hero("a"))
    rolled = [e.roll for e in outcome.events if e.roll is not None and e.roll.purpose == "injury chart"]
    assert len(rolled) == 1 and rolled[0] is not None and rolled[0].chart and rolled[0].kind is DieKind.TWO_D6


def test_a_pack_chart_roll_is_a_roll_prompt_at_a_table_with_dice(restore_packs: None, injury_hazard: None) -> None:
    register_pack(GOOD_PACK)
    outcome = apply(travelling("test-good", dice="table"), hazard_roll(11))
    assert outcome.pending is not None and outcome.pending.kind == "roll" and outcome.pending.die is DieKind.TWO_D6


def test_a_chart_entry_losing_what_the_hero_lacks_loses_nothing(restore_packs: None, injury_hazard: None) -> None:
    register_pack(GOOD_PACK)
    state = travelling("test-good", hero("a"))
    outcome = apply(state, hazard_roll(11, (6, 6)))
    assert outcome.state.hero("a").side_bag == ("Bandages",)
    assert any(e.type == "nothing_lost" for e in outcome.events)


def test_without_the_chart_the_table_enters_the_card(injury_hazard: None) -> None:
    outcome = apply(travelling("default"), hazard_roll(11))
    prompt = outcome.pending
    assert prompt is not None and prompt.kind == "card" and prompt.chart == "injury" and prompt.hero == "a"
    done = apply(outcome.state, EnterCard("Broken Arm", (Effect("change", "strength", -1),)))
    assert done.pending is None and done.state.hero("a").skills.strength == 1
