"""The Samurai Warrior: Battle Tactics paid with Fury (FF-SAM-02) and Fire Sake (FF-SAM-03).

Fury comes from wounding Combat Hits (fight.py, FF-SAM-01) and is capped at Max Fury; the excess is lost (A46).
"""

from __future__ import annotations

from ....commands import UseTactic, UseToken
from ....content import pack
from ....dice import DieKind
from ....errors import IllegalCommand, InvalidCommand
from ....flow import Ctx, Procedure
from ....frozen import replace
from ....prompts import Asks
from ....state import Session
from ..common import (
    FIRE_SAKE,
    SAMURAI,
    change_resource,
    member,
    need_adventure,
    need_class,
    need_hero,
    need_standing,
    number,
    put_member,
)


def tactic_card(state: Session, command: UseTactic) -> tuple[int, bool]:
    """The Tactic's Fury cost and whether it may be used outside his activation: the pack's card or as typed."""
    card = pack(state.pack).adventure.tactics.get(command.tactic)
    if card is not None:
        cost = card.cost if command.cost is None else command.cost
        if cost != card.cost:
            raise InvalidCommand(f"cost: {command.tactic} costs {card.cost} Fury (the pack's card)", field="cost",
                                 rule="FF-SAM-02")  # fmt: skip
        return card.cost, card.any_time
    if command.cost is None:
        raise InvalidCommand(f"cost: the pack has no Battle Tactic {command.tactic!r}; type its Fury cost",
                             field="cost", rule="FF-SAM-02")  # fmt: skip
    return number(command.cost, "cost", 0, 20, "FF-SAM-02"), command.any_time


def check_tactic(state: Session, command: UseTactic) -> None:
    adv = need_adventure(state)
    need_hero(state, command.hero)
    need_class(state, command.hero, SAMURAI, "FF-SAM-02", "a Battle Tactic")
    need_standing(state, command.hero)
    if not command.tactic.strip():
        raise InvalidCommand("tactic: the Battle Tactic's name", field="tactic")
    cost, any_time = tactic_card(state, command)
    samurai = adv.hero(command.hero)
    if command.tactic in samurai.tactics_used:
        raise IllegalCommand(f"tactic: {command.tactic} was already used this turn: each Battle Tactic once per turn "
                             "(FF-SAM-02)", field="tactic", rule="FF-SAM-02")  # fmt: skip
    act = adv.activation
    if not any_time and (act is None or act.figure != command.hero):
        raise IllegalCommand("tactic: Battle Tactics are used during the Samurai's own activation unless the card says "
                             "otherwise (FF-SAM-02)", field="tactic", rule="FF-SAM-02")  # fmt: skip
    if samurai.fury < cost:
        raise IllegalCommand(f"tactic: {command.tactic} costs {cost} Fury and {state.hero(command.hero).name} has "
                             f"{samurai.fury} (FF-SAM-02)", field="tactic", rule="FF-SAM-02")  # fmt: skip


def use_tactic(ctx: Ctx, command: UseTactic) -> Procedure:
    """Discard Fury equal to the cost, then the card's text is resolved at the table (FF-SAM-02)."""
    cost, _ = tactic_card(ctx.state, command)
    change_resource(ctx, command.hero, "fury", -cost, rule="FF-SAM-02", why=command.tactic)
    samurai = member(ctx, command.hero)
    put_member(ctx, replace(samurai, tactics_used=(*samurai.tactics_used, command.tactic)))
    ctx.emit("tactic", f"{ctx.name(command.hero)} uses {command.tactic}: resolve the card", hero=command.hero,
             rule="FF-SAM-02", name=command.tactic)  # fmt: skip
    yield from ()


def check_token(state: Session, command: UseToken) -> None:
    need_adventure(state)
    need_hero(state, command.hero)
    if command.effects:
        raise InvalidCommand(f"effects: {FIRE_SAKE}'s effect is printed (D3 Fury); send no effects", field="effects",
                             rule="FF-SAM-03")  # fmt: skip
    need_class(state, command.hero, SAMURAI, "FF-SAM-03", "Fire Sake's Fury")
    if FIRE_SAKE not in state.hero(command.hero).side_bag:
        raise IllegalCommand(f"token: {state.hero(command.hero).name} has no {FIRE_SAKE} token", field="token",
                             rule="FF-SAM-03")  # fmt: skip


def use_token(ctx: Ctx, command: UseToken) -> Procedure:
    """Fire Sake: discard it to gain D3 Fury, up to Max Fury (FF-SAM-03)."""
    hero = command.hero
    ctx.remove_token(hero, ctx.hero(hero).side_bag.index(FIRE_SAKE), rule="FF-SAM-03", why="drunk")
    fury = (yield from ctx.roll(DieKind.D3, "Fire Sake: Fury", hero=hero, chart=True, rule="FF-SAM-03",
                                asks=Asks.GAIN, said=(("reason", "fury"), ("count", 1)))).value  # fmt: skip
    change_resource(ctx, hero, "fury", fury, rule="FF-SAM-03", why="Fire Sake", cap=member(ctx, hero).sheet.max_fury)
