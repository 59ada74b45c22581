"""apply() and legal_commands(): which rule a command runs, and what a table may do now."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from . import flow
from .commands import ANSWERS, COMMAND_TYPES, Command
from .content import PACKS
from .dice import seed_state
from .effects import check_hero
from .errors import IllegalCommand, InvalidCommand
from .events import Event
from .flow import Ctx, Policy, drive, run_rule, server
from .frozen import replace
from .legal import LegalCommand
from .prompts import Prompt
from .rules import adjust
from .rules.area import Area, CommandRule
from .rules.stay.days import TOWN_EVENT_MODES
from .state import Hero, Phase, RuleOptions, Session

AREAS: tuple[Area, ...] = ()
"""The rule areas in campaign order; `legal_commands` lists theirs in this order, manual adjustments last. Filled
by `_load_areas` on the first command or legal-commands read (importing the Adventure's and the missions' rules,
boards included, was a tenth of the service's start-up)."""
RULES: Final[dict[str, tuple[CommandRule, ...]]] = {}
"""Each command's rules (one command may mean its thing in several areas, one per phase), filled last by
`_load_areas`: empty until the areas are loaded. Holds no unknown command and no answer to a prompt."""


def _load_areas() -> None:
    """Import the rule areas and index their commands (once; a race builds the same tables twice, harmlessly)."""
    global AREAS
    from .rules import adventure, missions, stay, town, travel

    areas = (travel.AREA, town.AREA, stay.AREA, adventure.AREA, missions.AREA, adjust.AREA)
    rules: dict[str, tuple[CommandRule, ...]] = {}
    for area in areas:
        for type_, rule in area.commands.items():
            claimed = rules.get(type_, ())
            if type_ not in COMMAND_TYPES or type_ in ANSWERS or any(
                not other.phases or not rule.phases or set(other.phases) & set(rule.phases) for other in claimed
            ):
                raise TypeError(f"area {area.name}: command {type_!r} is unknown, an answer, or claimed twice in a phase")
            rules[type_] = (*claimed, rule)
    flow.SKILL_BONUSES[:] = [bonus for area in areas for bonus in area.skill_bonuses]
    AREAS = areas
    RULES.update(rules)  # last: a command finds the areas loaded once it finds RULES filled


def _rule_for(command_type: str, phase: Phase) -> CommandRule | None:
    """The rule a command runs in `phase` (use_token means one thing in town, another in an Adventure)."""
    for rule in RULES.get(command_type, ()):
        if not rule.phases or phase in rule.phases:
            return rule
    return None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a command did: the new state, its events, and the prompt it stopped at (if any)."""

    state: Session
    events: tuple[Event, ...]
    pending: Prompt | None


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
        check_hero(hero, f"heroes[{index}]")
    if pack not in PACKS:
        raise InvalidCommand(f"pack: no content pack {pack!r}; known: {sorted(PACKS)}", field="pack")
    options = options or RuleOptions()
    if options.dice not in ("server", "table"):
        raise InvalidCommand("options.dice: 'server' or 'table'", field="options.dice")
    if options.town_events not in TOWN_EVENT_MODES:
        raise InvalidCommand(f"options.town_events: one of {list(TOWN_EVENT_MODES)}", field="options.town_events")
    if not 1 <= options.wheel_rounds_per_visit <= 9:
        raise InvalidCommand("options.wheel_rounds_per_visit: 1-9", field="options.wheel_rounds_per_visit")
    if options.combat not in ("typed", "house"):
        raise InvalidCommand("options.combat: 'typed' or 'house'", field="options.combat")
    if options.initiative_ties not in ("heroes_first", "enemies_first"):
        raise InvalidCommand("options.initiative_ties: 'heroes_first' or 'enemies_first'", field="options.initiative_ties",
                             rule="A45")  # fmt: skip
    for name, low, high in (("move_boosts", 0, 6), ("ko_back_up_with", 1, 99), ("horror_hit_sanity", 0, 99)):
        if not low <= getattr(options, name) <= high:
            raise InvalidCommand(f"options.{name}: {low}..{high}", field=f"options.{name}")
    return Session(heroes=tuple(heroes), options=options, rng=seed_state(seed), pack=pack)


def apply(state: Session, command: Command, *, policy: Policy | None = None, quiet: bool = False) -> Outcome:
    """Apply one command: the new state, what happened, and what the table must answer next.

    Raises InvalidCommand (malformed) or IllegalCommand (not allowed now); the given state is never changed.
    """
    origin = _check_legal(state, command)
    if state.pending is not None:  # the command answers the prompt of the rule that stopped
        origin = _rule_for(state.pending.command.type, state.pending.checkpoint.phase)
    assert origin is not None  # _check_legal found it
    run = run_rule(state, command, origin.procedure, policy=policy, quiet=quiet)
    new_state = replace(run.ctx.state, rng=run.ctx.rng, step=state.step + 1, pending=run.pending)
    prompt = run.pending.prompt if run.pending is not None else None
    return Outcome(new_state, tuple(run.ctx.events[run.new_events :]), prompt)


def autoplay(ctx: Ctx, command: Command, policy: Policy, *, rng_first: bool = False) -> None:
    """Run `command` on `ctx` through the one driver with two answer sources, `policy` then the session RNG, so
    it never stops at a prompt (a decision the policy leaves is an error): the same rule `apply()` runs.
    `rng_first`: the policy answers no roll and no random draw, so the RNG is asked first (the same answers, and
    most requests are rolls).

    Bulk runs chain commands on one context (the journey's state and RNG live in `ctx`), skipping what only a
    table needs: the pending record, the step counter and the Outcome.
    """
    rule = _check_legal(ctx.state, command)
    assert rule is not None  # no prompt waits in a bulk run
    stopped, _ = drive(ctx, rule.procedure(ctx, command), (server, policy) if rng_first else (policy, server))
    if stopped is not None:
        raise RuntimeError(f"autoplay: the policy left a decision unanswered ({stopped!r})")


def _check_legal(state: Session, command: Command) -> CommandRule | None:
    """Refuse a command not allowed now (IllegalCommand, InvalidCommand naming the field and rule), before anything
    runs; the rule that runs it, or None when it answers the prompt waiting."""
    if not RULES:
        _load_areas()
    kind = command.type
    pending = state.pending
    known = pending is None and kind in RULES  # then it is a known command and no answer: skip those checks
    if not known and kind not in COMMAND_TYPES:
        raise InvalidCommand(f"type: unknown command {kind!r}", field="type")
    if pending is not None:
        prompt = pending.prompt
        if kind != prompt.answer_with:
            raise IllegalCommand(
                f"{kind!r} is not allowed now: prompt {prompt.id} ({prompt.question}) waits for "
                f"{prompt.answer_with!r}",
                field="type",
                rule=prompt.rule,
            )
        given = getattr(command, "prompt", "")
        if given and given != prompt.id:
            raise IllegalCommand(
                f"prompt {given!r} is not the one waiting ({prompt.id})", field="prompt", rule=prompt.rule
            )
        return None
    if not known and kind in ANSWERS:
        raise IllegalCommand(f"{kind!r} answers a prompt, and no prompt is waiting", field="type")
    if not state.anyone_left:
        raise IllegalCommand("no hero is left in the posse", field="type")
    rules = RULES.get(kind, ())
    if not rules:
        raise IllegalCommand(f"{kind!r} is not a command any rule area runs", field="type")
    rule = _rule_for(kind, state.phase)
    if rule is None:
        why = "; ".join(f"{r.why} ({r.rule})" for r in rules)
        raise IllegalCommand(
            f"{kind!r} is not allowed in phase {state.phase.value!r}: {why}", field="type", rule=rules[0].rule
        )
    if rule.check is not None:
        rule.check(state, command)
    return rule


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
    if not state.anyone_left:
        return ()
    if not RULES:
        _load_areas()
    return tuple(item for area in AREAS for item in area.legal(state))


def command_from_type(type_name: str) -> type[Command]:
    return COMMAND_TYPES[type_name]
