"""Play a whole Town Stay through `apply()`: each Day's Daily Event and beds, a visit for every hero, what they do
there, the end of the Day, and leaving town. A policy answers every prompt (by default `simulate.default_policy`)
and the session RNG rolls every die, so the result is the rules' own answer to "what does a town stay cost".

    run = play_stay(state_after_arrival, days=2)
    gold_spent = [b.gold - a.gold for a, b in zip(run.start.heroes, run.state.heroes)]

The commands are chosen by a `StayPlan` (where each hero goes, what they buy and use); the default is a plain
table's: a Wanted! hero pays off their warrants when they can, everyone else takes the open Locations in turn; at
the Gambling Hall they play one round of the Devil's Wheel, picking up dice worth less than 4 points; a torn Side
Bag is mended at a Blacksmith; Exotic Herbs and Tequila are bought when offered and needed, and used when they help.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from ..commands import (
    Buy,
    Command,
    EndDay,
    EndTownStay,
    EndVisit,
    PayOffWarrants,
    PlayDevilsWheel,
    StartDay,
    UseToken,
    VisitLocation,
    WheelRoll,
    WheelStop,
)
from ..engine import apply, legal_commands
from ..errors import RulesError
from ..flow import Policy
from ..frozen import replace
from ..legal import LegalCommand
from ..rules.stay.visits import check_pay_off
from ..rules.stay.wheel import check_play
from ..simulate import default_policy
from ..state import Phase, Session

_C = TypeVar("_C", bound=Command)

KEEP_POINTS = 4  # a Devil's Wheel die worth this many points or more stays in the box


def _allowed(check: Callable[[Session, _C], None], state: Session, command: _C) -> bool:
    """Whether the rules would take `command` as it stands (a price the pack knows and the hero can pay)."""
    try:
        check(state, command)
    except RulesError:
        return False
    return True


def _legal(state: Session, kind: str, hero: str | None = None) -> LegalCommand | None:
    return next((c for c in legal_commands(state) if c.type == kind and (hero is None or c.hero == hero)), None)


def default_visit(state: Session, hero: str, day: int, places: Sequence[str]) -> Command | None:
    """Where `hero` goes today: pay off warrants when Wanted! and able, else the open Locations in turn."""
    if _legal(state, "pay_off_warrants", hero) is not None and _allowed(check_pay_off, state, PayOffWarrants(hero)):
        return PayOffWarrants(hero)  # the pack knows the price and the hero has the Gold
    if not places:
        return None
    index = [h.id for h in state.heroes].index(hero)
    return VisitLocation(hero, places[(index + day) % len(places)])


def default_errands(state: Session, hero: str) -> Command | None:
    """The next thing `hero` does on their visit, or None to leave: the Devil's Wheel once, a Side Bag repair, Exotic
    Herbs or Tequila when needed and offered."""
    sheet = state.hero(hero)
    stay = state.stay
    wheel = stay.wheel if stay is not None else None
    if wheel is not None and wheel.hero == hero:
        low = tuple(i for i, die in enumerate(wheel.dice) if die.points < KEEP_POINTS)
        return WheelRoll(hero, low) if low else WheelStop(hero)
    if _legal(state, "play_devils_wheel", hero) is not None and _allowed(check_play, state, PlayDevilsWheel(hero)):
        return PlayDevilsWheel(hero)
    buy = _legal(state, "buy", hero)
    offered = buy.options if buy is not None else ()
    wanted = [("Repair Side Bag", sheet.bag_torn), ("Exotic Herbs", sheet.corruption >= 2),
              ("Tequila", sheet.sanity_damage >= 4)]  # fmt: skip
    for ware, need in wanted:
        if need and ware in offered and ware not in sheet.side_bag:
            return Buy(hero, ware)
    return None


def default_tokens(state: Session, hero: str) -> Command | None:
    """Use Exotic Herbs while Corrupted and Tequila with 2 or more Sanity Damage (FT-BAG-05/06)."""
    usable = _legal(state, "use_token", hero)
    tokens = usable.options if usable is not None else ()
    sheet = state.hero(hero)
    if "Exotic Herbs" in tokens and sheet.corruption >= 1:
        return UseToken(hero, "Exotic Herbs")
    if "Tequila" in tokens and sheet.sanity_damage >= 2:
        return UseToken(hero, "Tequila")
    return None


@dataclass(frozen=True, slots=True)
class StayPlan:
    """The table's decisions that are commands, not prompts: where each hero goes, what they do there."""

    visit: Callable[[Session, str, int, Sequence[str]], Command | None] = default_visit
    errands: Callable[[Session, str], Command | None] = default_errands
    tokens: Callable[[Session, str], Command | None] = default_tokens


@dataclass(frozen=True, slots=True)
class StayRun:
    """A finished Town Stay: the state it started from, the state after leaving town, the Days spent, the commands."""

    start: Session
    state: Session
    days: int
    commands: tuple[Command, ...] = field(default=())


MAX_ERRANDS = 20  # commands one hero may issue on one visit (a plan that never leaves is a bug)


def play_stay(
    state: Session,
    *,
    days: int = 1,
    policy: Policy | None = None,
    plan: StayPlan | None = None,
    quiet: bool = False,
) -> StayRun:
    """Play a Town Stay of `days` Days (fewer if Bridge Destroyed or a Town Event cuts it short) and leave town.

    `state` is in town (after `arrive`); dice are rolled by the session RNG whatever its dice option, and every
    prompt is answered by `policy` (RuntimeError if one is left unanswered). Pure: same state, same run.
    """
    if state.phase is not Phase.TOWN:
        raise ValueError(f"state: a Town Stay starts in town, not in phase {state.phase.value!r}")
    if days < 1:
        raise ValueError(f"days: at least 1, got {days}")
    if policy is None:
        policy = default_policy
    plan = plan or StayPlan()
    start = state
    state = replace(state, options=replace(state.options, dice="server"))
    done: list[Command] = []

    def step(command: Command) -> None:
        nonlocal state
        outcome = apply(state, command, policy=policy, quiet=quiet)
        if outcome.pending is not None:
            raise RuntimeError(f"the stay stopped at prompt {outcome.pending.question!r} after {command.type}")
        state = outcome.state
        done.append(command)

    played = 0
    while played < days and state.phase is Phase.TOWN and _legal(state, "start_day") is not None:
        step(StartDay())
        played += 1
        day = state.stay.day if state.stay is not None else played
        for hero in [h.id for h in state.active_heroes]:
            if state.hero(hero).removed:
                continue
            listed = _legal(state, "visit_location", hero)
            command = plan.visit(state, hero, day, listed.options if listed is not None else ())
            if command is not None:
                step(command)
            for _ in range(MAX_ERRANDS):
                if state.stay is None or state.stay.open_visit(hero) is None or state.hero(hero).removed:
                    break
                errand = plan.errands(state, hero) or plan.tokens(state, hero)
                step(errand if errand is not None else EndVisit(hero))
            else:
                raise RuntimeError(f"{hero} never left their visit: the plan keeps issuing errands")
            while state.phase is Phase.TOWN and not state.hero(hero).removed:
                use = plan.tokens(state, hero)
                if use is None:
                    break
                step(use)
        if _legal(state, "end_day") is not None:
            step(EndDay())
    if state.phase is Phase.TOWN and state.active_heroes:
        step(EndTownStay())
    return StayRun(start, state, played, tuple(done))
