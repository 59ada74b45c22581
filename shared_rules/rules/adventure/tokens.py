"""Side Bag tokens used during an Adventure: Fire Sake is the Samurai's Fury (FF-SAM-03); the others whose effect is
known out of a fight (Exotic Herbs, Tequila, a pack's or the table's) work exactly as in town (FT-BAG, FF-BAG-02)."""

from __future__ import annotations

from ...commands import UseToken
from ...flow import Ctx, Procedure
from ...state import Session
from ..stay import tokens as town
from .classes import samurai
from .common import FIRE_SAKE, SAMURAI, need_adventure


def usable(state: Session, hero: str) -> tuple[str, ...]:
    """The tokens `hero` may use now: Fire Sake for a Samurai who has it, and those usable out of a fight."""
    me = state.hero(hero)
    sake = (FIRE_SAKE,) if me.hero_class == SAMURAI and FIRE_SAKE in me.side_bag else ()
    return (*sake, *town.usable(state, hero))


def check_use_token(state: Session, command: UseToken) -> None:
    if command.token == FIRE_SAKE:
        samurai.check_token(state, command)
    else:
        need_adventure(state)
        town.check_use_token(state, command)


def use_token(ctx: Ctx, command: UseToken) -> Procedure:
    if command.token == FIRE_SAKE:
        yield from samurai.use_token(ctx, command)
    else:
        yield from town.use_token(ctx, command)
