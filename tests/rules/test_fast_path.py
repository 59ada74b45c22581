"""The fast path is the same rules: thousands of seeded journeys through `apply()` and through autoplay
(`engine.autoplay`, `simulate.autoplay_journey`) give identical per-trial tallies, states and event logs."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared_rules import Arrive, ChooseTownSize, RollHazard, apply, new_session
from shared_rules.dice import seed_state
from shared_rules.engine import autoplay
from shared_rules.events import Event
from shared_rules.flow import Ctx
from shared_rules.simulate import (
    GritCounter,
    autoplay_journey,
    journey_row,
    play_journey,
    run_trials,
    sample_heroes,
    trial_seed,
)
from shared_rules.state import Hero, Item, ItemTag, Phase, Session

SIZES = ("small", "medium", "large")


def _posses() -> list[tuple[Hero, ...]]:
    """The sample posse of 4, a lone hero, and a posse of 6 with Mutations, Outlaws and a Scratch deal."""
    six = list(sample_heroes(6))
    six[0] = replace(six[0], mutations=("Tentacle", "Extra Eye", "Scales", "Horns"), corruption=5)
    six[1] = replace(six[1], keywords=("Outlaw",), grit=0, gold=0)
    six[2] = replace(six[2], scratch_deal=True, dark_stone=4, items=(
        *six[2].items, Item("mule", "Mule", frozenset({ItemTag.TRANSPORT}), hourglass=2)))
    return [sample_heroes(4), sample_heroes(1), tuple(six)]


def _compare(posse: tuple[Hero, ...], seeds: int, seed: int) -> int:
    base = new_session(posse)
    hazards = 0
    for index in range(seeds):
        start = replace(base, rng=seed_state(trial_seed(seed, index)))
        size = SIZES[index % 3]
        plain, fast = play_journey(start, size), autoplay_journey(start, size)
        assert journey_row(fast) == journey_row(plain), (seed, index, size)
        assert fast.state == plain.state, (seed, index, size)
        hazards += journey_row(plain)[1]
    return hazards


@pytest.mark.parametrize("posse", _posses(), ids=("four", "one", "six"))
def test_a_few_hundred_seeds_each_posse_give_identical_trials(posse: tuple[Hero, ...]) -> None:
    assert _compare(posse, 300, seed=21) > 150  # hazards were met (the comparison was not vacuous)


@pytest.mark.slow
@pytest.mark.parametrize("posse", _posses(), ids=("four", "one", "six"))
def test_thousands_of_seeds_give_identical_per_trial_tallies(posse: tuple[Hero, ...]) -> None:
    assert _compare(posse, 3000, seed=7) > 1500


def test_the_tallies_of_both_paths_are_equal_for_every_size() -> None:
    heroes = _posses()[2]
    for size in SIZES:
        assert run_trials(heroes, size, 150, seed=3, fast=True).to_json() == \
            run_trials(heroes, size, 150, seed=3, fast=False).to_json()


def _autoplay_events(start: Session, size: str) -> list[Event]:
    ctx = Ctx(start, start.rng, auto=GritCounter(start.heroes))
    autoplay(ctx, ChooseTownSize(size))
    while ctx.state.phase is Phase.TRAVEL:
        autoplay(ctx, RollHazard())
    autoplay(ctx, Arrive())
    return list(ctx.events)


def test_autoplay_writes_the_same_log_as_apply_when_not_quiet() -> None:
    base = new_session(_posses()[0])
    for index in range(120):
        start = replace(base, rng=seed_state(trial_seed(5, index)))
        size = SIZES[index % 3]
        policy = GritCounter(start.heroes)
        state, events = start, list[Event]()
        for command in (ChooseTownSize(size), *([RollHazard()] * 20), Arrive()):
            if isinstance(command, RollHazard) and state.phase is not Phase.TRAVEL:
                continue
            outcome = apply(state, command, policy=policy)
            state, events = outcome.state, [*events, *outcome.events]
        assert _autoplay_events(start, size) == events, index


def test_autoplay_needs_a_policy_and_a_legal_command() -> None:
    from shared_rules.errors import IllegalCommand

    start = new_session(sample_heroes(2))
    with pytest.raises(ValueError, match="policy"):
        autoplay(Ctx(start, start.rng), ChooseTownSize("large"))
    with pytest.raises(IllegalCommand):
        autoplay(Ctx(start, start.rng, auto=GritCounter(start.heroes)), Arrive())
