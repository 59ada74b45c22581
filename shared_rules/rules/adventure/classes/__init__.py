"""The four Forbidden Fortress Hero Classes' own rules (§20): what they spend and when.

The Assassin's Nimble, Deadly and Shuriken live with movement and Fights (activation.py, fight.py); the Samurai's
Fury gain with the Hits that earn it (fight.py); the Monk's Ki and the Sorceress's Mana refill with the turn (turn.py).
"""

from __future__ import annotations

from ....commands import AdjustResource
from ....errors import InvalidCommand
from ....flow import Ctx, Procedure
from ....state import Session
from ..common import change_resource, need_hero, number

RESOURCES = ("fury", "ki", "mana", "arcane_powder")


def cap(state: Session, hero: str, resource: str) -> int | None:
    """The most of a resource the hero may hold: Max Fury, Max Ki, the Mana level; Arcane Powder has none."""
    adv = state.adventure
    assert adv is not None
    sheet = adv.hero(hero).sheet
    return {"fury": sheet.max_fury, "ki": sheet.max_ki, "mana": sheet.mana}.get(resource)


def check_adjust_resource(state: Session, command: AdjustResource) -> None:
    need_hero(state, command.hero)
    if command.resource not in RESOURCES:
        raise InvalidCommand(f"resource: one of {list(RESOURCES)} (FF-HERO-09)", field="resource", rule="FF-HERO-09")
    number(command.amount, "amount", -99, 99)
    if not command.amount:
        raise InvalidCommand("amount: a change, not 0", field="amount")


def adjust_resource(ctx: Ctx, command: AdjustResource) -> Procedure:
    """A card or ability gave or took Ability Tokens; the cap still holds, the excess is lost (A46)."""
    change_resource(ctx, command.hero, command.resource, command.amount, rule="FF-HERO-09",
                    why=command.reason or "as the card says", cap=cap(ctx.state, command.hero, command.resource))

    yield from ()
