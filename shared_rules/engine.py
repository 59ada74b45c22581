"""apply() and legal_commands(): which rule a command runs, and what a table may do now."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .commands import ANSWERS, COMMAND_TYPES, Command
from .content import PACKS
from .dice import seed_state
from .errors import IllegalCommand, InvalidCommand
from .events import Event
from .flow import Ctx, Policy, Procedure, run_rule
from .prompts import Prompt
from .rules import adjust, town, travel
from .state import Hero, Phase, RuleOptions, Session

PROCEDURES: dict[str, Callable[[Ctx, Any], Procedure | None]] = {
    "choose_town_size": travel.choose_town_size,
    "roll_hazard": travel.roll_hazard,
    "arrive": town.arrive,
    "end_town_stay": town.end_town_stay,
    "adjust": adjust.adjust,
}

_PHASE_OF = {
    "choose_town_size": (Phase.BETWEEN_ADVENTURES, "FT-TRAVEL-01", "a Town size is chosen after an Adventure"),
    "roll_hazard": (Phase.TRAVEL, "FT-TRAVEL-03", "hazards are rolled while travelling"),
    "arrive": (Phase.ARRIVAL, "FT-TRAVEL-04", "the posse arrives once every hazard is resolved"),
    "end_town_stay": (Phase.TOWN, "FT-UA-06", "a Town Stay can only end in town"),
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a command did: the new state, its events, and the prompt it stopped at (if any)."""

    state: Session
    events: tuple[Event, ...]
    pending: Prompt | None


@dataclass(frozen=True, slots=True)
class LegalCommand:
    """A command a client may send now, with the values it may take."""

    type: str
    prompt: str = ""
    hero: str | None = None
    options: tuple[str, ...] = ()
    note: str = ""


def new_session(
    heroes: list[Hero] | tuple[Hero, ...], *, options: RuleOptions | None = None, seed: int = 0, pack: str = "default"
) -> Session:
    """A table's first state: a posse of 1-6 heroes after an Adventure, ready to choose a Town size."""
    if not 1 <= len(heroes) <= 6:
        raise InvalidCommand(f"heroes: a posse has 1-6 heroes, got {len(heroes)}", field="heroes", rule="A48")
    ids = [hero.id for hero in heroes]
    for index, hero in enumerate(heroes):
        if not hero.id or ids.count(hero.id) > 1:
            raise InvalidCommand(
                f"heroes[{index}].id: hero ids must be unique and non-empty", field=f"heroes[{index}].id"
            )
        if not hero.name.strip():
            raise InvalidCommand(f"heroes[{index}].name: a hero needs a name", field=f"heroes[{index}].name")
        adjust.check_hero(hero, f"heroes[{index}]")
    if pack not in PACKS:
        raise InvalidCommand(f"pack: no content pack {pack!r}; known: {sorted(PACKS)}", field="pack")
    options = options or RuleOptions()
    if options.dice not in ("server", "table"):
        raise InvalidCommand("options.dice: 'server' or 'table'", field="options.dice")
    return Session(heroes=tuple(heroes), options=options, rng=seed_state(seed), pack=pack)


def apply(state: Session, command: Command, *, policy: Policy | None = None, quiet: bool = False) -> Outcome:
    """Apply one command: the new state, what happened, and what the table must answer next.

    Raises InvalidCommand (malformed) or IllegalCommand (not allowed now); the given state is never changed.
    """
    _check_legal(state, command)
    origin = state.pending.command.type if state.pending is not None else command.type
    run = run_rule(state, command, PROCEDURES[origin], policy=policy, quiet=quiet)
    new_state = replace(run.ctx.state, rng=run.ctx.rng, step=state.step + 1, pending=run.pending)
    prompt = run.pending.prompt if run.pending is not None else None
    return Outcome(new_state, tuple(run.ctx.events[run.new_events :]), prompt)


def _check_legal(state: Session, command: Command) -> None:
    if command.type not in COMMAND_TYPES:
        raise InvalidCommand(f"type: unknown command {command.type!r}", field="type")
    pending = state.pending
    if pending is not None:
        prompt = pending.prompt
        if command.type != prompt.answer_with:
            raise IllegalCommand(
                f"{command.type!r} is not allowed now: prompt {prompt.id} ({prompt.question}) waits for "
                f"{prompt.answer_with!r}",
                field="type",
                rule=prompt.rule,
            )
        given = getattr(command, "prompt", "")
        if given and given != prompt.id:
            raise IllegalCommand(
                f"prompt {given!r} is not the one waiting ({prompt.id})", field="prompt", rule=prompt.rule
            )
        return
    if command.type in ANSWERS:
        raise IllegalCommand(f"{command.type!r} answers a prompt, and no prompt is waiting", field="type")
    if not state.active_heroes:
        raise IllegalCommand("no hero is left in the posse", field="type")
    if command.type in _PHASE_OF:
        phase, rule, why = _PHASE_OF[command.type]
        if state.phase is not phase:
            raise IllegalCommand(
                f"{command.type!r} is not allowed in phase {state.phase.value!r}: {why} ({rule})",
                field="type",
                rule=rule,
            )
        if command.type == "roll_hazard" and (state.travel is None or state.travel.remaining <= 0):
            raise IllegalCommand("no Travel Hazard is left to roll (FT-TRAVEL-03)", field="type", rule="FT-TRAVEL-03")


def legal_commands(state: Session) -> tuple[LegalCommand, ...]:
    """Every command the engine would accept now; while a prompt waits, only its answer."""
    pending = state.pending
    if pending is not None:
        prompt = pending.prompt
        return (
            LegalCommand(
                prompt.answer_with, prompt.id, prompt.hero, tuple(o.key for o in prompt.options), prompt.question
            ),
        )
    if not state.active_heroes:
        return ()
    legal: list[LegalCommand] = []
    if state.phase is Phase.BETWEEN_ADVENTURES:
        legal.append(
            LegalCommand(
                "choose_town_size",
                options=("small", "medium", "large"),
                note="Small: 1-3 on a D6 per hero adds a hazard; Medium: 1 each; Large: 1 each + 1-3",
            )
        )
    elif state.phase is Phase.TRAVEL and state.travel is not None and state.travel.remaining > 0:
        roller = state.travel.rollers[state.travel.resolved]
        if state.hero(roller).removed:  # as roll_hazard does: the first hero left rolls it
            roller = state.active_heroes[0].id
        legal.append(
            LegalCommand(
                "roll_hazard", hero=roller, note=f"hazard {state.travel.resolved + 1} of {len(state.travel.rollers)}"
            )
        )
    elif state.phase is Phase.ARRIVAL:
        legal.append(LegalCommand("arrive", note="roll the Town type and build the town"))
    elif state.phase is Phase.TOWN:
        legal.append(LegalCommand("end_town_stay"))
    legal.append(
        LegalCommand(
            "adjust", options=tuple(h.id for h in state.active_heroes), note="record what the physical game changed"
        )
    )
    return tuple(legal)


def command_from_type(type_name: str) -> type[Command]:
    return COMMAND_TYPES[type_name]
