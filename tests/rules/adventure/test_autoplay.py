"""The adventure driver: the default policy answers every adventure prompt and the turn loop plays to its end, so
odds can estimate the chance the Darkness escapes within N turns for a posse and a Depth Track layout."""

from __future__ import annotations

import pytest

from shared_rules.autoplay.adventure import darkness_odds, next_command, play_adventure, start
from shared_rules.commands import SheetEntry
from shared_rules.engine import apply
from shared_rules.simulate import default_policy, sample_heroes
from shared_rules.state import Session
from tests.rules.adventure import pack
from tests.rules.adventure.helpers import layout

SHEETS = (SheetEntry("h1", initiative=4, max_fury=3), SheetEntry("h2", initiative=6, deadly_bonus=2),
          SheetEntry("h3", initiative=5, max_ki=3), SheetEntry("h4", initiative=3, mana=3, blast_cost=1))  # fmt: skip


@pytest.mark.parametrize("seed", range(8))
def test_the_default_policy_plays_adventures_with_fights_to_their_end(seed: int) -> None:
    state = start(sample_heroes(4), track="fortress", pack_name=pack.register(), seed=seed)
    run = play_adventure(state, max_turns=60)
    assert run.ending in ("objective", "darkness", "all_ko") and run.state.adventure is None
    assert run.won == (run.ending == "objective")


def _through_apply(state: Session, max_turns: int) -> Session:
    """The reference: every command through apply(), as a table plays it."""
    while state.adventure is not None and state.adventure.turn <= max_turns:
        outcome = apply(state, next_command(state), policy=default_policy, quiet=True)
        assert outcome.pending is None
        state = outcome.state
    return state


@pytest.mark.parametrize("seed", range(6))
def test_the_bulk_run_plays_the_very_adventure_apply_plays(seed: int) -> None:
    """play_adventure runs its commands on one autoplay context: the same end state, dice for dice (rng, step)."""
    fights = start(sample_heroes(4), track="fortress", pack_name=pack.register(), seed=seed)
    assert play_adventure(fights, max_turns=60).state == _through_apply(fights, 60)
    darkness = start(sample_heroes(4), layout=layout(8, blood=(2,), dread=(4,)), sheets=SHEETS, seed=seed)
    assert play_adventure(darkness, max_turns=12).state == _through_apply(darkness, 12)


def test_darkness_odds_for_a_posse_and_a_typed_layout() -> None:
    odds = darkness_odds(sample_heroes(4), layout=layout(8, blood=(2,), dread=(4,)), sheets=SHEETS, turns=12,
                         trials=40, seed=5)  # fmt: skip
    assert odds["trials"] == 40 and 0 < odds["escaped"] <= 40
    assert odds["escaped_within"] == odds["escaped"] / 40
    assert all(7 <= turn <= 12 for turn in odds["escape_turns"])  # the Darkness needs 7 steps to escape
    assert sum(odds["endings"].values()) == 40
    assert darkness_odds(sample_heroes(4), layout=layout(8, blood=(2,), dread=(4,)), sheets=SHEETS, turns=12,
                         trials=40, seed=5) == odds  # same seed, same odds


def test_a_longer_track_lets_the_darkness_escape_less_often() -> None:
    short = darkness_odds(sample_heroes(2), layout=layout(6, blood=(), dread=()), sheets=SHEETS[:2], turns=10,
                          trials=60, seed=1)  # fmt: skip
    long = darkness_odds(sample_heroes(2), layout=layout(12), sheets=SHEETS[:2], turns=10, trials=60, seed=1)
    assert short["escaped_within"] > long["escaped_within"]


def test_odds_refuse_nonsense() -> None:
    with pytest.raises(ValueError):
        darkness_odds(sample_heroes(1), layout=layout(), sheets=SHEETS[:1], turns=0, trials=5)
