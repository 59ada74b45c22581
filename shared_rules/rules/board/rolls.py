"""The requests the board and Bandit rules make, and a driver that answers them from given dice.

The rules are generators in the engine's idiom (`yield from ctx.d6(...)`): inside a command the engine's `Ctx`
answers them (typed-in dice, the session RNG, or a prompt). `Requests` (flow) yields the same requests without a session,
and `drive` answers them from a list of dice and picks, so the same rule runs as a pure function of its dice.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from ...dice import DieKind, Roll, die_count, validate_faces
from ...flow import ChoiceRequest, DrawRequest, Request, RollRequest
from ...prompts import Option

T = TypeVar("T")


class Rolls(Protocol):
    """What a board rule asks of its context: the engine's `Ctx` is one (structurally)."""

    def roll(
        self,
        kind: DieKind,
        purpose: str,
        *,
        hero: str | None = None,
        pool: int = 1,
        target: int = 0,
        chart: bool = False,
        rule: str = "",
    ) -> Generator[Request, Any, Roll]: ...

    def d6(self, purpose: str, *, hero: str | None = None, rule: str = "") -> Generator[Request, Any, int]: ...

    def dice(
        self, count: int, purpose: str, *, hero: str | None = None, rule: str = ""
    ) -> Generator[Request, Any, tuple[int, ...]]: ...

    def draw(self, purpose: str, options: list[tuple[str, str]], *, rule: str = "") -> Generator[Request, Any, str]: ...

    def choose(
        self, question: str, options: Sequence[Option | tuple[str, str]], *, hero: str | None = None, rule: str = ""
    ) -> Generator[Request, Any, str]: ...


Pick = str | int  # an option's key, or its index among the options offered


def drive(
    steps: Generator[Request, Any, T],
    dice: Iterable[int] = (),
    picks: Iterable[Pick] | Callable[[DrawRequest | ChoiceRequest], str] = (),
) -> T:
    """Run a rule to its end, answering each roll from `dice` (one face per physical die, validated as a table's
    dice are) and each random draw or choice from `picks` (a key, an index, or a function of the request).
    Raises ValueError when the rule asks for more than was given."""
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

    value: Any = None
    while True:
        try:
            request = steps.send(value)
        except StopIteration as done:
            result: T = done.value
            return result
        if isinstance(request, RollRequest):
            count = die_count(request.kind, request.pool)
            try:
                shown = tuple(next(faces) for _ in range(count))
            except (StopIteration, RuntimeError):
                raise ValueError(f"no dice given for {request.purpose!r}") from None
            checked = validate_faces(request.kind, shown, request.pool, field="dice", purpose=request.purpose)
            value = Roll(request.purpose, request.kind, checked, request.hero, "table", request.target, request.chart)
        elif isinstance(request, (DrawRequest, ChoiceRequest)):
            value = chooser(request)
        else:
            raise ValueError(f"drive answers rolls, draws and choices, not {type(request).__name__}")
