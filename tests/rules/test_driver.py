"""The one driver (`flow.drive`): a rule's requests are answered from an ordered list of sources, the same for a
table (`apply`), autoplay (`engine.autoplay`) and the board's given dice (`rules.board.drive`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared_rules import ChooseTownSize, RollHazard, apply, new_session
from shared_rules.dice import DieKind, Roll, seed_state
from shared_rules.engine import autoplay
from shared_rules.errors import IllegalCommand
from shared_rules.flow import ChoiceRequest, Ctx, Request, Requests, RollRequest, drive, server
from shared_rules.prompts import Answer, Asks
from shared_rules.simulate import GritCounter, sample_heroes
from shared_rules.state import Phase

_ROLL = Roll("", DieKind.D6, (6,), None, "table")


def _rule(ctx: Requests):  # type: ignore[no-untyped-def]
    first = yield from ctx.d6("first")
    pick = yield from ctx.choose("Which?", [("a", "A"), ("b", "B")], asks=Asks.MAP_CARD)
    return first, pick


def test_the_first_source_that_answers_wins_and_an_unanswered_request_stops_the_rule() -> None:
    def sixes(ctx: Requests, request: Request) -> Answer | None:
        return (
            Answer("roll", roll=replace(_ROLL, purpose=request.purpose)) if isinstance(request, RollRequest) else None
        )

    def b(ctx: Requests, request: Request) -> Answer | None:
        return Answer("choice", option="b") if isinstance(request, ChoiceRequest) else None

    assert drive(Requests(), _rule(Requests()), (sixes, b)) == (None, (6, "b"))
    stopped, value = drive(Requests(), _rule(Requests()), (sixes,))
    assert isinstance(stopped, ChoiceRequest) and stopped.question == "Which?" and value is None


def test_the_rng_source_rolls_as_the_session_dice_option_server_does() -> None:
    start = new_session(sample_heroes(2), seed=4)
    ctx = Ctx(start, start.rng)
    stopped, value = drive(ctx, ctx.roll(DieKind.D6, "check"), (server,))
    assert stopped is None and value is not None and 1 <= value.value <= 6 and ctx.rng != start.rng


def test_same_state_command_and_seed_give_the_same_outcome_through_apply_and_autoplay() -> None:
    """A seeded journey's hazard through apply() and through autoplay: the same driver, the same state."""
    for index in range(20):
        start = replace(new_session(sample_heroes(4)), rng=seed_state(index))
        policy = GritCounter(start.heroes)
        state = apply(start, ChooseTownSize("large"), policy=policy, quiet=True).state
        ctx = Ctx(start, start.rng, quiet=True)
        autoplay(ctx, ChooseTownSize("large"), GritCounter(start.heroes))
        while state.phase is Phase.TRAVEL:
            state = apply(state, RollHazard(), policy=policy, quiet=True).state
            autoplay(ctx, RollHazard(), GritCounter(start.heroes))
            assert replace(ctx.state, rng=ctx.rng, step=state.step) == state, index


def test_autoplay_refuses_an_illegal_command_and_a_decision_its_policy_leaves() -> None:
    start = new_session(sample_heroes(2))
    with pytest.raises(IllegalCommand):
        autoplay(Ctx(start, start.rng), RollHazard(), GritCounter(start.heroes))
    ctx = Ctx(start, start.rng)
    for index in range(40):  # some seed meets a choice the silent policy leaves unanswered
        ctx = Ctx(replace(start, rng=seed_state(index)), seed_state(index))
        try:
            autoplay(ctx, ChooseTownSize("large"), lambda c, r: None)
            while ctx.state.phase is Phase.TRAVEL:
                autoplay(ctx, RollHazard(), lambda c, r: None)
        except RuntimeError as error:
            assert "left a decision unanswered" in str(error)
            return
    raise AssertionError("no seed met a decision")


def test_a_commands_hero_changes_reach_the_state_through_reads_and_updates() -> None:
    """Ctx keeps a command's hero changes aside: `state` folds them in, `update` carries them into its own copy of the
    Session, and `state_but_heroes` reads the other fields without them. No change is lost either way."""
    start = new_session(sample_heroes(2))
    ctx = Ctx(start, start.rng, quiet=True)
    assert ctx.change("h1", "gold", -25, rule="A8") == -25 and ctx.hero("h1").gold == 125
    assert ctx.state_but_heroes.hero("h1").gold == 150  # not folded in: the other fields only
    ctx.update(phase=Phase.TRAVEL)
    assert ctx.state_but_heroes.phase is Phase.TRAVEL and ctx.state_but_heroes.hero("h1").gold == 125
    ctx.change("h2", "xp", 10, rule="FT-TRAVEL-D52")
    assert [h.gold for h in ctx.state.heroes] == [125, 150] and ctx.state.hero("h2").xp == 10
    with pytest.raises(KeyError):
        ctx.hero("nobody")
