"""A whole Town Stay played by `autoplay.stay.play_stay` with `simulate.default_policy` answering every prompt: it ends
out of town every time, keeps every value in bounds, is the same run for the same state, and is the same quiet."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from shared_rules import Arrive, apply, new_session
from shared_rules.autoplay.stay import StayPlan, play_stay
from shared_rules.commands import Command, EndVisit, PlayDevilsWheel, VisitLocation, WheelRoll, WheelStop
from shared_rules.dice import seed_state
from shared_rules.simulate import play_journey, sample_heroes
from shared_rules.state import Carry, Phase, Session, TownSize, Travel
from tests.rules.stay.packs import FRONTIER
from tests.rules.stay.town import BUILDINGS, chart, flat, gold, install
from tests.rules.table import hero

RICH: dict[str, Any] = {
    **copy.deepcopy(FRONTIER), "name": "rich",
    "town": {"hotel_price": 15,
             "daily_events": [{"name": "Just Another Day on the Frontier", "copies": 4, "just_another_day": True},
                              {"name": "Payday", "effects": [gold(10)]},
                              {"name": "Parade", "lasting": True, "closes": ["Saloon"]}],
             "camp_site_hazards": chart(flat("Robbed", gold(-15), low=0, high=4), flat("Quiet", low=5, high=13)),
             "town_events": chart(flat("Fire", low=0, high=3, destroy_random=1), flat("Calm", low=4, high=11),
                                  flat("Void Twister", low=12, high=13, ends_stay=True))},
    "buildings": BUILDINGS,
}  # fmt: skip


def in_town(pack: str, seed: int, **carry: Any) -> Session:
    posse = tuple(replace(h, gold=h.gold + 40 * i, wanted=i % 2, unwanted_attention=i) for i, h in
                  enumerate(sample_heroes(4)))  # fmt: skip
    state = new_session(posse, seed=seed, pack=pack)
    state = replace(state, phase=Phase.ARRIVAL, travel=Travel(TownSize.LARGE, (), 0), carry=Carry(**carry))
    return apply(state, Arrive()).state


def check(run_state: Session) -> None:
    assert run_state.phase is Phase.BETWEEN_ADVENTURES and run_state.stay is None
    for h in run_state.heroes:
        assert h.gold >= 0 and h.unwanted_attention == 0 and 0 <= h.wounds <= h.max_health
        assert len(h.side_bag) <= h.side_bag_capacity and 0 <= h.wanted <= 2


@pytest.mark.parametrize("seed", range(12))
def test_the_default_policy_plays_whole_stays_with_a_full_pack(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    pack = install(monkeypatch, RICH)
    start = in_town(pack, seed, army_convoy=seed % 2 == 0, dying_marshal=seed % 3 == 0, dark_stone_bonus=25)
    run = play_stay(start, days=3)
    check(run.state)
    assert 1 <= run.days <= 3
    assert any(isinstance(c, VisitLocation) for c in run.commands)


def test_a_stay_with_the_default_pack_asks_the_table_nothing_the_policy_cannot_answer() -> None:
    journey = play_journey(replace(new_session(sample_heroes(4), seed=11), rng=seed_state(11)), "medium")
    run = play_stay(journey.state, days=2)
    check(run.state)
    hotel = [a.gold - b.gold for a, b in zip(journey.state.heroes, run.state.heroes, strict=True)]
    assert all(cost >= 0 for cost in hotel)  # nothing is earned without cards: beds cost $10 a night


def test_the_same_state_gives_the_same_stay_and_quiet_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    pack = install(monkeypatch, RICH)
    start = in_town(pack, 7, army_convoy=True)
    loud, again, quiet = play_stay(start, days=2), play_stay(start, days=2), play_stay(start, days=2, quiet=True)
    assert loud.state == again.state == quiet.state and loud.commands == again.commands == quiet.commands


def test_bridge_destroyed_cuts_the_stay_to_two_days(monkeypatch: pytest.MonkeyPatch) -> None:
    pack = install(monkeypatch, RICH)
    run = play_stay(in_town(pack, 3, max_days=2), days=5)
    assert run.days == 2 and run.state.phase is Phase.BETWEEN_ADVENTURES


def test_the_wheel_is_played_with_pick_ups_and_a_plan_can_be_given(monkeypatch: pytest.MonkeyPatch) -> None:
    pack = install(monkeypatch, RICH)
    start = in_town(pack, 5)

    def gamble(state: Session, hero_id: str, day: int, places: Any) -> Command | None:
        return VisitLocation(hero_id, "Gambling Hall") if "Gambling Hall" in places else None

    run = play_stay(start, days=1, plan=StayPlan(visit=gamble))
    kinds = [type(c) for c in run.commands]
    assert kinds.count(PlayDevilsWheel) >= 3 and (WheelRoll in kinds or WheelStop in kinds)
    assert kinds.count(EndVisit) >= 3
    check(run.state)


def test_autoplay_starts_in_town() -> None:
    with pytest.raises(ValueError):
        play_stay(new_session([hero("a")]))
