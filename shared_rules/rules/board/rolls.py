"""The requests the board and Bandit rules make, and the one driver fed given dice.

The rules are generators in the engine's idiom (`yield from ctx.d6(...)`): inside a command the engine's driver
answers them (typed-in dice, a policy, the session RNG, or a prompt). `Requests` (flow) yields the same requests
without a session, and `drive` runs the same driver (`flow.drive`) with a list of dice and picks as its sources,
so the same rule runs as a pure function of its dice.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TypeVar

from ...dice import Roll, die_count, validate_faces
from ...flow import ChoiceRequest, DrawRequest, Request, Requests, RollRequest
from ...flow import drive as run
from ...prompts import Answer

T = TypeVar("T")


Rolls = Requests
"""What a board rule asks of its context: the request API itself (the engine's `Ctx` is one, with a session)."""

Pick = str | int  # an option's key, or its index among the options offered


def drive(
    steps: Generator[Request, Any, T],
    dice: Iterable[int] = (),
    picks: Iterable[Pick] | Callable[[DrawRequest | ChoiceRequest], str] = (),
) -> T:
    """Run a rule to its end through the engine's one driver (`flow.drive`) with two answer sources: each roll
    from `dice` (one face per physical die, validated as a table's dice are), each random draw or choice from
    `picks` (a key, an index, or a function of the request). Raises ValueError when the rule asks for more than
    was given."""
    faces: Iterator[int] = iter(dice)
    chooser: Callable[[DrawRequest | ChoiceRequest], str]
    if callable(picks):
        chooser = picks
    else:
        given: Iterator[Pick] = iter(picks)

        def chooser(request: DrawRequest | ChoiceRequest) -> str:
            what = request.purpose if isinstance(request, DrawRequest) else request.question
            try:
                pick = next(given)
            except StopIteration:
                raise ValueError(f"no pick given for {what!r}") from None
            keys = [o.key for o in request.options]
            if isinstance(pick, int):
                return keys[pick]
            if pick not in keys:
                raise ValueError(f"{pick!r} is not one of {keys} for {what!r}")
            return pick

    def rolled(ctx: Requests, request: Request) -> Answer | None:
        if not isinstance(request, RollRequest):
            return None
        count = die_count(request.kind, request.pool)
        try:
            shown = tuple(next(faces) for _ in range(count))
        except (StopIteration, RuntimeError):
            raise ValueError(f"no dice given for {request.purpose!r}") from None
        checked = validate_faces(request.kind, shown, request.pool, field="dice", purpose=request.purpose)
        roll = Roll(request.purpose, request.kind, checked, request.hero, "table", request.target, request.chart)
        return Answer("roll", roll=roll)

    def picked(ctx: Requests, request: Request) -> Answer | None:
        if isinstance(request, (DrawRequest, ChoiceRequest)):
            return Answer("choice", option=chooser(request))
        return None

    stopped, result = run(Requests(), steps, (rolled, picked))
    if stopped is not None:
        raise ValueError(f"drive answers rolls, draws and choices, not {type(stopped).__name__}")
    return result  # type: ignore[return-value]  # the rule ran to its end: its own value
