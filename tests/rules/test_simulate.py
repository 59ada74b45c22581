"""Bulk journeys (shared_rules.simulate): determinism, chunking, exact percentiles, the summary, FT-TRAVEL-02."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from shared_rules import RuleOptions, new_session
from shared_rules.dice import DieKind, Roll, seed_state
from shared_rules.flow import ChoiceRequest, Ctx, RerollRequest, RollRequest
from shared_rules.prompts import Amount, Option, Part, SkillCheck
from shared_rules.simulate import (
    HERO_METRICS,
    PERCENTILES,
    Tally,
    autoplay_journey,
    default_policy,
    hero_values,
    merge,
    percentile,
    play_journey,
    run_trials,
    sample_heroes,
    split,
    stats,
    summarize,
    trial_seed,
)
from tests.rules.table import hero

HEROES = sample_heroes(4)


def test_same_seed_same_tally_and_another_seed_another() -> None:
    first = run_trials(HEROES, "large", 25, seed=5)
    again = run_trials(HEROES, "large", 25, seed=5)
    other = run_trials(HEROES, "large", 25, seed=6)
    assert first.to_json() == again.to_json()
    assert first.to_json() != other.to_json()


def test_trial_seed_depends_on_seed_and_index_only() -> None:
    seeds = {trial_seed(7, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert trial_seed(7, 3) == trial_seed(7, 3) != trial_seed(8, 3)


def test_three_chunks_merged_equal_one_run_and_survive_json() -> None:
    whole = run_trials(HEROES, "medium", 40, seed=11)
    chunks = split(40, 3)
    assert chunks == [(0, 14), (14, 13), (27, 13)]
    parts = [run_trials(HEROES, "medium", count, seed=11, start=start) for start, count in chunks]
    wire = [Tally.from_json(json.dumps(part.to_json())) for part in parts]
    assert merge(wire).to_json() == whole.to_json()
    assert summarize(merge(parts)) == summarize(whole)


def test_split_covers_every_trial_once() -> None:
    for trials, chunks in ((0, 4), (5, 8), (1000, 7), (3, 1)):
        pieces = split(trials, chunks)
        covered = [i for start, count in pieces for i in range(start, start + count)]
        assert covered == list(range(trials))
        assert all(count > 0 for _, count in pieces) and len(pieces) <= chunks


def test_merge_refuses_tallies_of_different_journeys() -> None:
    large = run_trials(HEROES, "large", 2, seed=1)
    small = run_trials(HEROES, "small", 2, seed=1)
    with pytest.raises(ValueError, match="cannot join"):
        merge([large, small])
    assert merge([]).trials == 0


def test_percentiles_are_nearest_rank_on_a_known_tally() -> None:
    hist = {0: 1, 10: 2, 20: 1, 100: 1}  # the values 0, 10, 10, 20, 100
    values = sorted(v for v, c in hist.items() for _ in range(c))
    for p in PERCENTILES:
        assert percentile(hist, p) == values[math.ceil(p * len(values) / 100) - 1]
    summary = stats(hist)
    assert (summary["p5"], summary["p25"], summary["p50"], summary["p75"], summary["p95"]) == (0, 10, 10, 20, 100)
    assert summary["mean"] == sum(values) / len(values)
    assert (summary["min"], summary["max"]) == (0, 100)
    assert stats({})["p50"] is None


def test_percentiles_stay_exact_after_a_merge() -> None:
    a, b = Tally(size="large", hero_ids=("h1",), trials=3), Tally(size="large", hero_ids=("h1",), trials=2)
    a.posse["xp"], b.posse["xp"] = {0: 2, 50: 1}, {50: 1, 200: 1}
    merged = merge([a, b]).posse["xp"]
    assert merged == {0: 2, 50: 2, 200: 1}
    assert percentile(merged, 50) == 50 and percentile(merged, 25) == 0 and percentile(merged, 95) == 200


def test_summary_has_every_figure_and_each_within_its_bounds() -> None:
    tally = run_trials(HEROES, "large", 120, seed=3)
    summary = summarize(tally)
    assert summary["trials"] == 120 and summary["size"] == "large"
    assert set(summary["posse"]) == set(HERO_METRICS)
    assert set(summary["heroes"]) == {h.id for h in HEROES}
    figures = [summary["hazards"]["count"], summary["hazards"]["met"], summary["buildings_destroyed"],
               *summary["posse"].values()]
    figures += [f for h in summary["heroes"].values() for k, f in h.items() if k != "name"]
    for figure in figures:
        ordered = [figure["min"], figure["p5"], figure["p25"], figure["p50"], figure["p75"], figure["p95"],
                   figure["max"]]
        assert ordered == sorted(ordered), figure
        assert figure["min"] <= figure["mean"] <= figure["max"]
    assert summary["hazards"]["count"]["min"] >= 4 and summary["hazards"]["count"]["max"] <= 8
    results = summary["hazards"]["results"]
    assert len(results) == 36 and results["42"]["name"] == "Raging River"
    met = sum(v * c for v, c in tally.journey["hazards_met"].items())
    assert sum(r["count"] for r in results.values()) == met
    assert sum(summary["town_types"].values()) == 120 and sum(summary["town_sizes"].values()) == 120
    assert 0 <= summary["turned_back"] <= 120
    for metric in ("knocked_out", "removed"):
        for figure in summary["heroes"].values():
            assert 0 <= figure[metric]["min"] <= figure[metric]["max"] <= 1
        assert summary["posse"][metric]["max"] <= 4
    assert summary["posse"]["grit_spent"]["min"] >= 0 and summary["posse"]["items_lost"]["min"] >= 0


def test_a_heros_figures_count_what_was_lost_and_the_posse_adds_the_heroes_up() -> None:
    """A journey's losses are counted as a table would (a token lost twice is two; FF-HERO-08), and the posse's
    figures are its heroes' figures added up, journey by journey."""
    before = HEROES[0]  # a Horse first; Bandages and Whiskey in the Side Bag
    after = replace(before, side_bag=("Whiskey", "Whiskey"), items=before.items[1:], gold=before.gold - 25)
    values = dict(zip(HERO_METRICS, hero_values(before, after, 2), strict=True))
    assert (values["tokens_lost"], values["items_lost"], values["transports_lost"]) == (1, 1, 1)
    assert (values["gold"], values["grit_spent"], values["xp"]) == (-25, 2, 0)
    emptied = dict(zip(HERO_METRICS, hero_values(before, replace(before, side_bag=()), 0), strict=True))
    assert emptied["tokens_lost"] == 2 and emptied["items_lost"] == 0
    tally = run_trials(HEROES, "large", 80, seed=5)
    for metric in HERO_METRICS:
        posse = sum(value * count for value, count in tally.posse[metric].items())
        heroes = sum(value * count for hero in tally.heroes.values() for value, count in hero[metric].items())
        assert posse == heroes and sum(tally.posse[metric].values()) == 80, metric


def test_large_town_hazard_count_is_n_plus_a_coin_per_hero_FT_TRAVEL_02() -> None:
    trials = 480
    count = run_trials(HEROES, "large", trials, seed=2).journey["hazards"]
    assert min(count) >= 4 and max(count) <= 8  # N..2N for N = 4
    expected = {4 + k: trials * math.comb(4, k) / 16 for k in range(5)}  # each D6 1-3 adds one: p = 1/2
    chi2 = sum((count.get(v, 0) - e) ** 2 / e for v, e in expected.items())
    assert chi2 < 23.5, (count, expected)  # df 4: p < 0.0001 to fail by chance


def test_the_fast_path_ends_in_the_same_states_as_plain_apply() -> None:
    base = new_session(HEROES)
    for index in range(40):
        start = replace(base, rng=seed_state(trial_seed(9, index)))
        for size in ("small", "large"):
            plain = play_journey(start, size)
            fast = autoplay_journey(start, size)
            assert fast.state == plain.state and fast.grit_spent == plain.grit_spent
    assert run_trials(HEROES, "large", 30, seed=9, fast=True).to_json() == \
        run_trials(HEROES, "large", 30, seed=9, fast=False).to_json()


def test_table_dice_option_still_runs_on_the_rng_and_progress_is_reported() -> None:
    seen: list[int] = []
    tally = run_trials(HEROES[:2], "small", 10, seed=4, options=RuleOptions(dice="table"), progress=seen.append)
    assert tally.trials == 10
    assert seen == sorted(seen) and seen[-1] == 10


# ---- the default policy -------------------------------------------------------------------------------------------
def _ctx(*heroes: object) -> Ctx:
    return Ctx(new_session(list(heroes)), 0)  # type: ignore[arg-type]


def _choice(*options: Option, hero_id: str | None = "a") -> ChoiceRequest:
    return ChoiceRequest("?", options, hero_id, "")


def test_policy_rerolls_the_failed_dice_of_a_failed_test_only_FF_GRIT_01() -> None:
    ctx = _ctx(hero("a", grit=1))
    failed = Roll("t", DieKind.POOL, (1, 4, 2), "a", target=5, rerolled=(2,))
    passed = Roll("t", DieKind.POOL, (1, 5), "a", target=5)
    answer = default_policy(ctx, RerollRequest(failed, "a"))
    assert answer is not None and answer.indices == (0, 1)  # die 2 was re-rolled already (FF-GRIT-02)
    answer = default_policy(ctx, RerollRequest(passed, "a"))
    assert answer is not None and answer.indices == ()


def test_policy_choices_ford_pay_best_skill_and_help_when_able() -> None:
    ctx = _ctx(hero("a", gold=200, spirit=3, cunning=4, strength=2, luck=2))

    def pick(request: ChoiceRequest) -> str:
        answer = default_policy(ctx, request)
        assert answer is not None
        return answer.option

    join, decline = Part.JOIN, Part.DECLINE
    # the policy reads each option's meaning, never its words: the labels here are deliberately unhelpful
    assert pick(_choice(Option("x", "?", decline), Option("y", "?", join, test=SkillCheck("cunning", 5)),
                        hero_id=None)) == "y"  # Raging River: ford when a hero has the Strength ...
    assert pick(_choice(Option("x", "?", decline), Option("y", "?", join, test=SkillCheck("strength", 5)),
                        hero_id=None)) == "x"  # ... and turn back when none has
    pay = Option("test", "?", test=SkillCheck("lore", 6))
    assert pick(_choice(Option("pay", "?", costs=(Amount("gold", 150),)), pay)) == "pay"  # Mutant Warlord (A8)
    assert pick(_choice(Option("pay", "?", costs=(Amount("gold", 250),)), pay)) == "test"
    assert pick(_choice(Option("pay", "?", costs=(Amount("gold", 50, dice="d6"),)), pay)) == "test"  # up to $300
    assert pick(_choice(Option("s", "?", test=SkillCheck("strength", 5)),
                        Option("c", "?", test=SkillCheck("cunning", 5)))) == "c"  # Void Hounds: the better skill
    assert pick(_choice(Option("h", "?", join, test=SkillCheck("spirit", 6)), Option("p", "?", decline))) == "h"
    assert pick(_choice(Option("s", "?", join, test=SkillCheck("luck", 5)), Option("p", "?", decline))) == "p"
    assert pick(_choice(Option("gold", "?", costs=(Amount("gold", 25),)),
                        Option("dark_stone", "?", costs=(Amount("dark_stone", 1),)))) == "gold"  # a loss: the first
    assert default_policy(ctx, RollRequest(DieKind.D6, "x")) is None  # the RNG rolls


def test_the_fast_copy_of_frozen_values_equals_dataclasses_replace() -> None:
    from shared_rules.flow import _reclamp
    from shared_rules.frozen import evolve

    posse = sample_heroes(2)
    state = new_session(posse, seed=3)
    assert evolve(state, {"step": 4, "rng": 9}) == replace(state, step=4, rng=9)
    assert evolve(posse[0], {"xp": 10, "items": ()}) == replace(posse[0], xp=10, items=())
    assert evolve(posse[0], {}) == posse[0] and evolve(posse[0], {}) is not posse[0]
    with pytest.raises(TypeError, match="max_health"):
        evolve(posse[0], {"max_health": 3})  # a property, not a field: refused like replace() does
    hurt = replace(posse[0], wounds=9, health_mod=-4, grit=2, max_grit=1)
    assert _reclamp(hurt) == replace(hurt, wounds=6, grit=1)
    assert _reclamp(posse[0]) is posse[0]


def test_grit_spent_counts_the_grit_the_log_shows_spent_on_rerolls_and_plague_church() -> None:
    from shared_rules import Arrive, ChooseTownSize, RollHazard, apply
    from shared_rules.state import Phase

    base = new_session(HEROES)
    total = 0
    for index in range(25):
        start = replace(base, rng=seed_state(trial_seed(4, index)))
        journey = play_journey(start, "large")
        state, events = start, []
        for command in (ChooseTownSize("large"), *([RollHazard()] * 20), Arrive()):
            if isinstance(command, RollHazard) and state.phase is not Phase.TRAVEL:
                continue
            outcome = apply(state, command, policy=default_policy)
            state, events = outcome.state, [*events, *outcome.events]
        assert state == journey.state
        spent = {h.id: 0 for h in HEROES}
        for event in events:
            for change in event.changes:
                if change.field == "grit" and event.rule in ("FF-GRIT-01", "FT-TRAVEL-D32") and \
                        int(change.after) < int(change.before) and event.hero is not None:
                    spent[event.hero] += int(change.before) - int(change.after)
        assert tuple(spent[h.id] for h in HEROES) == journey.grit_spent
        total += sum(journey.grit_spent)
    assert total > 0
