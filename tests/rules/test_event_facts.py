"""Events carry what they say as data (`facts`), so a client words them in its own language; `text` stays the
English line for clients that do not (issue 19). Quiet runs build no events, facts included."""

from __future__ import annotations

import inspect

from shared_rules.commands import Arrive, ChooseTownSize, Command, RollHazard, StartDay
from shared_rules.engine import apply, new_session
from shared_rules.events import FACTS, Event
from shared_rules.simulate import default_policy, sample_heroes
from shared_rules.state import Phase
from tests.rules.table import Table, hero


def facts(event: Event) -> dict[str, object]:
    return {fact.name: fact.value for fact in event.facts}


def journey_events(seed: int) -> list[Event]:
    """A journey to a Large Town and the first Day of the Town Stay, every choice by the default policy."""
    state, seen = new_session(list(sample_heroes(4)), seed=seed), []
    commands: list[Command] = [ChooseTownSize("large")]
    while commands:
        outcome = apply(state, commands.pop(0), policy=default_policy)
        assert outcome.pending is None
        state, seen = outcome.state, [*seen, *outcome.events]
        if not commands and state.phase is Phase.TRAVEL:
            commands.append(RollHazard())
        elif not commands and state.phase is Phase.ARRIVAL and state.active_heroes:
            commands.append(Arrive())
    if state.phase is Phase.TOWN:
        outcome = apply(state, StartDay(), policy=default_policy)
        seen += outcome.events
    return seen


def test_every_fact_is_named_in_the_contract_and_holds_a_plain_value() -> None:
    seen = [event for seed in (1, 2, 3) for event in journey_events(seed)]
    named = {fact.name for event in seen for fact in event.facts}
    assert named and named <= set(FACTS)
    assert all(isinstance(f.value, (int, str, bool)) for e in seen for f in e.facts)
    kinds = {e.type.value for e in seen if e.facts}
    assert {"hazard_count", "hazard", "phase", "test", "day_begun", "lodging"} <= kinds, kinds


def test_a_skill_test_says_its_skill_target_and_outcome_FF_DICE_06() -> None:
    t = Table.travelling([hero("a", agility=3)])
    t.hazard(12)  # Bleached Bones: Agility 5+ (FT-TRAVEL-D12)
    t.roll(5, 1, 2)
    test = next(e for e in t.events if e.type == "test")
    assert facts(test) == {"skill": "agility", "target": 5, "passed": True, "successes": 1,
                           "purpose": "Bleached Bones"}  # fmt: skip
    hazard = next(e for e in t.events if e.type == "hazard")
    assert facts(hazard) == {"number": 1, "value": 12, "name": "Bleached Bones"}


def test_a_change_says_why_and_the_max_it_moved_FF_HERO_02() -> None:
    t = Table.travelling([hero("a", agility=1, grit=1)], rerolls=False)
    t.hazard(12)
    t.roll(1)  # a fail: Bleached Bones costs a permanent Max Health
    changed = [e for e in t.events if e.type == "changed"]
    assert changed and all(e.changes for e in changed)


def emit_sites() -> list[tuple[str, str, dict[str, object]]]:
    """Every `ctx.emit(kind, ...)` and `ctx.carry(...)` in the engine's source: where, its kind, and the facts it
    passes by name (a constant's value, else None); a Mission's `_hanged`/`_alert` pass theirs as `key`."""
    import ast
    from pathlib import Path

    import shared_rules

    own = {"hero", "rule", "changes", "roll", "bandit"}
    found = []
    for path in sorted(Path(shared_rules.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            named = {k.arg: k.value.value if isinstance(k.value, ast.Constant) else None for k in node.keywords
                     if k.arg is not None and k.arg not in own}  # fmt: skip
            where = f"{path.name}:{node.lineno}"
            if node.func.attr == "emit" and node.args and isinstance(node.args[0], ast.Constant):
                found.append((where, str(node.args[0].value), named))
            elif node.func.attr == "carry" and node.args:  # its other keywords are the flags it sets
                found.append((where, "carry", {k: v for k, v in named.items() if k in ("reason", "count")}))
            elif node.func.attr in ("_hanged", "_alert") and "key" in named:
                found.append((where, "mission", {"reason": named["key"]}))
    return found


def test_every_event_the_engine_emits_carries_facts_but_a_roll_and_a_ko() -> None:
    """A client words every kind from its facts (issue 18): no emit site leaves it only the English line. `rolled`
    says it all in its `roll`, `knocked_out` in its `hero`."""
    sites = emit_sites()
    assert len(sites) > 150
    bare = [(where, kind) for where, kind, named in sites if not named and kind not in ("rolled", "knocked_out")]
    assert not bare, bare
    assert {k for _w, _k, named in sites for k in named} <= set(FACTS)


def test_no_fact_name_is_one_of_emits_own_arguments() -> None:
    from shared_rules.flow import Ctx

    assert not set(FACTS) & set(inspect.signature(Ctx.emit).parameters)


def test_a_quiet_run_builds_no_events_and_ends_where_the_logged_run_does() -> None:
    state = new_session(list(sample_heroes(4)), seed=5)
    loud = apply(state, ChooseTownSize("large"), policy=default_policy)
    quiet = apply(state, ChooseTownSize("large"), policy=default_policy, quiet=True)
    assert quiet.events == () or not quiet.events
    assert quiet.state == loud.state and any(e.facts for e in loud.events)
