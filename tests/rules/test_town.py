"""Arriving in town and leaving it: the Specialty Town type, construction, destroyed slots and Unwanted Attention.

FT-TRAVEL-04, FT-TOWN-01..05 (A14, A15), FT-UA-01, FT-UA-06, FT-TRAVEL-D26/D42/D62.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from shared_rules import (
    Arrive,
    Choose,
    ChooseTownSize,
    EndTownStay,
    IllegalCommand,
    InvalidCommand,
    RollDice,
    RollHazard,
    RuleOptions,
    Session,
    apply,
    new_session,
)
from shared_rules.content import PACKS, ContentPack, load_pack
from shared_rules.state import Carry, Phase, Town, TownSize, Travel
from tests.rules.table import Table, hero

# FT-TOWN-02, the Specialty Town table as printed
TOWN_TABLE = {
    2: "Town Ruins", 3: "Haunted Town", 4: "Plague Town", 5: "Rail Town", 6: "Standard Frontier Town",
    7: "Standard Frontier Town", 8: "Standard Frontier Town", 9: "Mining Town", 10: "River Town", 11: "Mutant Town",
    12: "Outlaw Town",
}  # fmt: skip
SLOTS = {TownSize.SMALL: 4, TownSize.MEDIUM: 6, TownSize.LARGE: 8}  # FT-TOWN-01
PRINTED = ("Hotel", "Camp Site")  # on every Town Map, never a numbered slot (FT-TOWN-06, A14)


def arriving(size: TownSize = TownSize.LARGE, *, heroes: list[Any] | None = None, seed: int = 3,
             pack: str = "default", carry: Carry | None = None, **options: Any) -> Session:  # fmt: skip
    """A posse whose travel to a `size` town is over."""
    posse = heroes or [hero("a"), hero("b")]
    state = new_session(posse, options=RuleOptions(**options), seed=seed, pack=pack)
    travel = Travel(size, tuple(h.id for h in posse), resolved=len(posse))
    return replace(state, phase=Phase.ARRIVAL, travel=travel, carry=carry or Carry())


def town_of(state: Session) -> Town:
    assert state.town is not None
    return state.town


@pytest.fixture
def use_pack(monkeypatch: pytest.MonkeyPatch) -> Callable[[dict[str, Any]], ContentPack]:
    """Load a content pack for one test (restored afterwards)."""

    def install(raw: dict[str, Any]) -> ContentPack:
        pack = load_pack(raw)
        monkeypatch.setitem(PACKS, pack.name, pack)
        return pack

    return install


# ---- the Specialty Town type ------------------------------------------------------------------------------------
@pytest.mark.parametrize("total", range(2, 13))
def test_town_type_from_2d6_for_every_total_FT_TOWN_02(total: int) -> None:
    for tens in range(1, 7):
        ones = total - tens
        if not 1 <= ones <= 6:
            continue
        outcome = apply(arriving(), Arrive(dice=((tens, ones),)))
        town = town_of(outcome.state)
        assert (town.type_roll, town.town_type) == (total, TOWN_TABLE[total])
        assert any(e.type == "town_type" and e.rule == "FT-TOWN-02" for e in outcome.events)


def test_the_town_type_is_rolled_after_travel_FT_TRAVEL_04() -> None:
    state = replace(arriving(), phase=Phase.TRAVEL, travel=Travel(TownSize.LARGE, ("a",)))
    with pytest.raises(IllegalCommand) as error:
        apply(state, Arrive())
    assert error.value.rule == "FT-TRAVEL-04"
    outcome = apply(arriving(), Arrive())
    assert outcome.state.phase is Phase.TOWN
    assert [e.type for e in outcome.events].index("town_type") < [e.type for e in outcome.events].index("town_built")


# ---- construction ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", list(TownSize))
def test_slots_by_size_are_numbered_and_drawn_without_repeats_FT_TOWN_01_03(size: TownSize) -> None:
    pool = Counter(PACKS["default"].building_pool())
    for seed in range(30):
        town = town_of(apply(arriving(size, seed=seed), Arrive()).state)
        assert town.size is size
        assert [s.number for s in town.slots] == list(range(1, SLOTS[size] + 1))
        drawn = Counter(s.location for s in town.slots)
        assert all(drawn[name] <= pool[name] for name in drawn)  # one token, one slot
        assert not any(s.location in PRINTED for s in town.slots)


def test_several_tokens_of_a_location_can_fill_several_slots_but_no_more_FT_TOWN_03(use_pack: Any) -> None:
    use_pack({"name": "saloons", "version": 1,
              "buildings": [{"location": "Saloon", "tokens": 3}, {"location": "Church", "tokens": 2},
                            {"location": "Blacksmith", "tokens": 1}, {"location": "Doc's Office", "tokens": 4}]})  # fmt: skip
    seen: Counter[str] = Counter()
    for seed in range(40):
        town = town_of(apply(arriving(TownSize.LARGE, seed=seed, pack="saloons"), Arrive()).state)
        counts = Counter(s.location for s in town.slots)
        assert len(town.slots) == 8
        assert counts["Saloon"] <= 3 and counts["Church"] <= 2 and counts["Blacksmith"] <= 1
        assert counts["Doc's Office"] <= 4
        seen.update(counts)
    assert seen["Saloon"] > 40  # more than one Saloon per town on average: every token is in the pool


def test_a_location_with_more_tokens_is_the_likelier_draw_FT_TOWN_03(use_pack: Any) -> None:
    """The tokens are shuffled and each slot takes a random one: 9 Saloon tokens among 12 fill the first slot with
    a Saloon about three times in four, not one time in four as a draw among the Location names would."""
    use_pack({"name": "saloon-town", "version": 1,
              "buildings": [{"location": "Saloon", "tokens": 9}, {"location": "Church"}, {"location": "Blacksmith"},
                            {"location": "Street Market"}]})  # fmt: skip
    first = Counter(town_of(apply(arriving(TownSize.SMALL, seed=seed, pack="saloon-town"), Arrive()).state)
                    .slots[0].location for seed in range(200))
    assert 120 <= first["Saloon"] <= 180, first  # 150 expected; a draw among names would give about 50


def test_the_table_draws_tokens_and_a_used_up_location_is_no_longer_offered_FT_TOWN_03(use_pack: Any) -> None:
    use_pack({"name": "two-saloons", "version": 1,
              "buildings": [{"location": "Saloon", "tokens": 2}, {"location": "Church"}, {"location": "Blacksmith"},
                            {"location": "Street Market"}]})  # fmt: skip
    state = arriving(TownSize.SMALL, pack="two-saloons", dice="table")
    outcome = apply(state, Arrive(dice=((3, 4),)))
    offered = []
    for _ in range(4):
        prompt = outcome.pending
        assert prompt is not None and prompt.kind == "choice" and prompt.rule == "FT-TOWN-03"
        keys = [o.key for o in prompt.options]
        assert len(keys) == len(set(keys))
        offered.append(keys)
        outcome = apply(outcome.state, Choose("Saloon" if "Saloon" in keys else keys[0]))
    assert offered[0] == offered[1] == ["Blacksmith", "Church", "Saloon", "Street Market"]
    assert "Saloon" not in offered[2]
    assert outcome.pending is None
    assert [s.location for s in town_of(outcome.state).slots] == ["Saloon", "Saloon", "Blacksmith", "Church"]


def test_always_locations_come_first_and_never_locations_are_left_out_FT_TOWN_03(use_pack: Any) -> None:
    use_pack({"name": "mining", "version": 1,
              "buildings": [{"location": n} for n in ("Saloon", "Church", "Blacksmith", "Doc's Office", "Street Market",
                                                      "Frontier Outpost", "Gambling Hall", "Sheriff's Office")],
              "town_types": {"Mining Town": {"always": ["Blacksmith", "Frontier Outpost"], "never": ["Church"]}}})  # fmt: skip
    churches = 0
    for seed in range(30):
        mining = town_of(apply(arriving(TownSize.MEDIUM, seed=seed, pack="mining"), Arrive(dice=((4, 5),))).state)
        assert mining.town_type == "Mining Town"
        assert [s.location for s in mining.slots[:2]] == ["Blacksmith", "Frontier Outpost"]
        assert "Church" not in {s.location for s in mining.slots}
        assert len(mining.slots) == 6
        other = town_of(apply(arriving(TownSize.LARGE, seed=seed, pack="mining"), Arrive(dice=((3, 4),))).state)
        churches += "Church" in {s.location for s in other.slots}
    assert churches == 30  # a Large Standard Town uses all 8 tokens: never lists apply to their type only


def test_a_small_pool_leaves_slots_empty_and_says_so_FT_TOWN_03(use_pack: Any) -> None:
    use_pack({"name": "tiny", "version": 1, "buildings": [{"location": "Saloon"}, {"location": "Church"}]})
    outcome = apply(arriving(TownSize.SMALL, pack="tiny"), Arrive())
    assert [s.number for s in town_of(outcome.state).slots] == [1, 2]
    assert any(e.type == "town_short" for e in outcome.events)


# ---- destroyed slots ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("storms", "extra", "size"), [(1, 0, TownSize.LARGE), (2, 0, TownSize.LARGE),
                                                       (0, 3, TownSize.MEDIUM), (1, 1, TownSize.SMALL),
                                                       (2, 1, TownSize.SMALL)])  # fmt: skip
def test_void_storms_and_arrive_destroy_distinct_numbered_slots_FT_TOWN_05_A14(storms: int, extra: int,
                                                                              size: TownSize) -> None:  # fmt: skip
    for seed in range(15):
        state = new_session([hero("a"), hero("b")], seed=seed)
        state = replace(state, phase=Phase.TRAVEL, travel=Travel(size, ("a",) * storms))
        for _ in range(storms):
            state = apply(state, RollHazard(dice=((2, 6),))).state  # 26 Void Storm
        assert state.phase is Phase.ARRIVAL or storms == 0
        assert state.carry.destroyed_on_arrival == 2 * storms  # FT-TRAVEL-D26: 2 Random Buildings per storm
        outcome = apply(replace(state, phase=Phase.ARRIVAL), Arrive(destroyed_slots=extra))
        town = town_of(outcome.state)
        destroyed = [s for s in town.slots if s.destroyed]
        assert len(destroyed) == min(2 * storms + extra, SLOTS[size])
        assert len({s.number for s in destroyed}) == len(destroyed)
        assert not any(s.location in PRINTED for s in town.slots)
        assert [e.type for e in outcome.events].count("building_destroyed") == len(destroyed)
        assert outcome.state.carry.destroyed_on_arrival == 0  # the storm is spent on this town


def test_the_town_is_built_first_then_slots_are_destroyed_FT_TOWN_05() -> None:
    outcome = apply(arriving(carry=Carry(destroyed_on_arrival=2)), Arrive())
    types = [e.type for e in outcome.events]
    assert types.index("town_built") < types.index("building_destroyed")


def test_the_table_picks_destroyed_slots_among_the_standing_ones_A14() -> None:
    state = arriving(TownSize.SMALL, dice="table", carry=Carry(destroyed_on_arrival=2))
    outcome = apply(state, Arrive(dice=((3, 4),)))
    while outcome.pending is not None and outcome.pending.rule == "FT-TOWN-03":
        outcome = apply(outcome.state, Choose(outcome.pending.options[0].key))
    prompt = outcome.pending
    assert prompt is not None and prompt.rule == "FT-TOWN-05"
    assert [o.key for o in prompt.options] == ["1", "2", "3", "4"]
    outcome = apply(outcome.state, Choose("3"))
    prompt = outcome.pending
    assert prompt is not None and [o.key for o in prompt.options] == ["1", "2", "4"]
    outcome = apply(outcome.state, Choose("1"))
    assert outcome.pending is None
    assert [s.number for s in town_of(outcome.state).slots if s.destroyed] == [1, 3]


@pytest.mark.parametrize("count", [-1, 9])
def test_destroyed_slots_given_at_arrival_are_0_to_8_FT_TOWN_05(count: int) -> None:
    with pytest.raises(InvalidCommand) as error:
        apply(arriving(), Arrive(destroyed_slots=count))
    assert error.value.field == "destroyed_slots"


def test_raging_river_turn_back_builds_a_small_town_FT_TRAVEL_D42() -> None:
    t = Table.travelling([hero("a"), hero("b")], hazards=4)
    t.hazard(42)
    t.choose("turn_back")
    assert t.state.phase is Phase.ARRIVAL
    t.do(Arrive(dice=((3, 4),)))
    while t.prompt is not None:
        t.choose(t.prompt.options[0].key)
    town = town_of(t.state)
    assert town.size is TownSize.SMALL and len(town.slots) == 4


# ---- Unwanted Attention ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("mutations", "markers"), [(0, 0), (3, 0), (4, 1), (6, 3), (9, 6)])
def test_ua_on_entering_town_is_mutations_over_3_FT_UA_01_FT_HERO_03(mutations: int, markers: int) -> None:
    posse = [hero("a", mutations=("M",) * mutations, unwanted_attention=0), hero("b", mutations=("M",) * 4)]
    outcome = apply(arriving(heroes=posse), Arrive())
    assert outcome.state.hero("a").unwanted_attention == markers
    assert outcome.state.hero("b").unwanted_attention == 1
    ua_events = [e for e in outcome.events if e.rule == "FT-UA-01"]
    assert [e.hero for e in ua_events] == (["a", "b"] if markers else ["b"])


def test_dying_marshal_gives_each_hero_d3_ua_on_arrival_FT_TRAVEL_D62() -> None:
    posse = [hero("a", mutations=("M",) * 5), hero("b"), hero("c")]
    state = arriving(heroes=posse, carry=Carry(dying_marshal=True))
    outcome = apply(state, Arrive(dice=((3, 4), (1,), (4,), (6,))))  # the 2D6, then a D3 for a, b and c
    assert [h.unwanted_attention for h in outcome.state.heroes] == [2 + 1, 2, 3]
    rolls = [e.roll for e in outcome.events if e.rule == "FT-TRAVEL-D62" and e.roll is not None]
    assert [r.hero for r in rolls] == ["a", "b", "c"]


def test_dying_marshal_from_the_road_reaches_the_town_FT_TRAVEL_D62() -> None:
    state = new_session([hero("a")], seed=8)
    state = replace(state, phase=Phase.TRAVEL, travel=Travel(TownSize.MEDIUM, ("a",)))
    state = apply(state, RollHazard(dice=((6, 2),))).state
    assert state.carry.dying_marshal and state.phase is Phase.ARRIVAL
    outcome = apply(state, Arrive(dice=((3, 4), (5,))))
    assert outcome.state.hero("a").unwanted_attention == 3


def test_dying_marshal_roll_can_be_asked_of_the_table_FT_TRAVEL_D62() -> None:
    state = arriving(heroes=[hero("a")], carry=Carry(dying_marshal=True), dice="table")
    outcome = apply(state, Arrive(dice=((3, 4),)))
    while outcome.pending is not None and outcome.pending.kind == "choice":
        outcome = apply(outcome.state, Choose(outcome.pending.options[0].key))
    prompt = outcome.pending
    assert prompt is not None and prompt.kind == "roll" and prompt.hero == "a" and prompt.rule == "FT-TRAVEL-D62"
    done = apply(outcome.state, RollDice((3,)))
    assert done.state.hero("a").unwanted_attention == 2


def test_end_of_the_town_stay_clears_ua_and_town_flags_FT_UA_06() -> None:
    posse = [hero("a", mutations=("M",) * 6), hero("b")]
    carry = Carry(dark_stone_bonus=25, max_days=2, army_convoy=True, dying_marshal=True, extra_revive_tokens=1,
                  blood_moon=True)  # fmt: skip
    in_town = apply(arriving(heroes=posse, carry=carry), Arrive(dice=((3, 4), (6,), (6,)))).state
    assert [h.unwanted_attention for h in in_town.heroes] == [6, 3]
    outcome = apply(in_town, EndTownStay())
    after = outcome.state
    assert [h.unwanted_attention for h in after.heroes] == [0, 0]
    assert {e.rule for e in outcome.events if e.type == "changed"} == {"FT-UA-06"}
    assert after.phase is Phase.BETWEEN_ADVENTURES and after.town is None and after.travel is None
    assert after.carry == Carry(extra_revive_tokens=1, blood_moon=True, last_town=in_town.town)  # these last on
    assert apply(after, ChooseTownSize("medium")).state.phase is Phase.TRAVEL
