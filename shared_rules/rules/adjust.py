"""Manual adjustments: whatever the physical game changed, recorded through the engine (effects.py checks them,
`flow.apply_effect` applies them)."""

from __future__ import annotations

from collections.abc import Iterator

from ..commands import Adjust
from ..effects import check_effects
from ..errors import IllegalCommand, InvalidCommand
from ..flow import Ctx, apply_effect, value_words
from ..legal import LegalCommand
from ..state import Session
from .area import Area, CommandRule


def adjust(ctx: Ctx, command: Adjust) -> None:
    """Record a manual adjustment (the physical game changed a value) as events like any other."""
    check_effects(ctx.state, command.hero, command.effects)
    if ctx.hero(command.hero).removed:
        raise IllegalCommand(f"hero: {ctx.name(command.hero)} was taken from the game", field="hero")
    if not command.effects:
        raise InvalidCommand("effects: an adjustment needs at least one effect", field="effects")
    moved = [e for e in command.effects if e.op == "change"]
    one = moved[0] if len(moved) == 1 == len(command.effects) else None  # one value moved: say which, by how much
    if one is None:
        ctx.emit("adjusted", f"{ctx.name(command.hero)}: {command.reason or 'adjusted at the table'}",
                 hero=command.hero, rule="MANUAL", why=command.reason)  # fmt: skip
    else:
        amount = f"{'+' if one.amount > 0 else '-'}{'$' if one.field == 'gold' else ''}{abs(one.amount)}"
        ctx.emit("adjusted", f"{ctx.name(command.hero)}: "
                 f"{command.reason or f'{value_words(one.field)} {amount} at the table'}", hero=command.hero,
                 rule="MANUAL", why=command.reason, name=one.field, count=one.amount)  # fmt: skip
    for effect in command.effects:
        apply_effect(ctx, command.hero, effect, rule="MANUAL")


def legal(state: Session) -> Iterator[LegalCommand]:
    yield LegalCommand(
        "adjust", options=tuple(h.id for h in state.active_heroes), note="record what the physical game changed"
    )


AREA = Area("table", {"adjust": CommandRule(adjust)}, legal)  # adjustments are legal in every phase
