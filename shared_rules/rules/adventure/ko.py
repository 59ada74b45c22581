"""KO'd heroes in an Adventure: Revive Tokens (FF-HERO-13) and getting back up after a Fight.

The rulebooks say a Revive Token lets a Hero "who was just KO'd get back up without long-lasting effects" and
leave the procedure, Recovery and Injury/Madness to the base game; the readings here are options (docs/rules.md).
"""

from __future__ import annotations

from ...commands import StopBleeding
from ...errors import IllegalCommand
from ...flow import Ctx, Procedure, Steps
from ...prompts import Amount, Asks, Option, Part, Says
from ...state import Session
from .common import adventure, need_hero, party_ids, update


def back_up(ctx: Ctx, hero_id: str, *, rule: str, why: str) -> None:
    """Heal the damage that KO'd the hero down to leave `ko_back_up_with` Health and Sanity (option)."""
    left = max(1, ctx.state.options.ko_back_up_with)
    hero = ctx.hero(hero_id)
    if hero.health_left < left and hero.wounds:
        ctx.change(hero_id, "wounds", -min(hero.wounds, left - hero.health_left), rule=rule, why=why)
    hero = ctx.hero(hero_id)
    if hero.sanity_left < left and hero.sanity_damage:
        ctx.change(hero_id, "sanity_damage", -min(hero.sanity_damage, left - hero.sanity_left), rule=rule, why=why)
    if not ctx.hero(hero_id).knocked_out:
        ctx.emit("revived", f"{ctx.name(hero_id)} is back up ({why})", hero=hero_id, rule=rule, why=why)


def harmed(ctx: Ctx, hero_id: str) -> Steps[None]:
    """After damage: a hero just KO'd may use one of the posse's Revive Tokens (FF-HERO-13, FF-SCALE-01)."""
    if not ctx.hero(hero_id).knocked_out or ctx.state.adventure is None:
        return
    tokens = adventure(ctx).revive_tokens
    if tokens <= 0:
        return
    choice = yield from ctx.choose(
        f"{ctx.name(hero_id)} is KO'd: use a Revive Token ({tokens} left)?",
        [Option("revive", "Use a Revive Token: get back up, no Injury or Madness", part=Part.JOIN,
                costs=(Amount("revive_token", 1),), says=Says.REVIVE),
         Option("stay_down", "Stay down", part=Part.DECLINE, says=Says.STAY_DOWN)],
        hero=hero_id, rule="FF-HERO-13", asks=Asks.REVIVE, said=(("count", tokens),),
    )  # fmt: skip
    if choice == "revive":
        update(ctx, revive_tokens=tokens - 1)
        back_up(ctx, hero_id, rule="FF-HERO-13", why="a Revive Token")


def injury_or_madness(ctx: Ctx, hero_id: str, *, rule: str) -> Steps[None]:
    """A KO'd hero rolls on the Injury chart (Health at 0) and/or the Madness chart (Sanity at 0) (FF-END-02/04)."""
    hero = ctx.hero(hero_id)
    if hero.health_left <= 0:
        yield from ctx.card(hero_id, "injury", "KO'd: roll on the Injury chart and enter what it says", rule=rule)
    if ctx.hero(hero_id).sanity_left <= 0:
        yield from ctx.card(hero_id, "madness", "KO'd: roll on the Madness chart and enter what it says", rule=rule)


def recover_all(ctx: Ctx, *, why: str) -> Steps[None]:
    """Every KO'd hero Recovers: Injury/Madness, then back up (option `recover_after_fight`; a house procedure)."""
    if not ctx.state.options.recover_after_fight:
        return
    for hero_id in party_ids(ctx.state):
        if ctx.hero(hero_id).knocked_out:
            yield from injury_or_madness(ctx, hero_id, rule="option:recover_after_fight")
            back_up(ctx, hero_id, rule="option:recover_after_fight", why=why)


def check_stop_bleeding(state: Session, command: StopBleeding) -> None:
    need_hero(state, command.hero)
    hero = state.hero(command.hero)
    if not hero.bleeding:
        raise IllegalCommand(f"hero: {hero.name} has no Bleeding marker (FF-HERO-11)", field="hero", rule="FF-HERO-11")
    if hero.grit < 1:
        raise IllegalCommand(f"hero: removing a Bleeding marker costs 1 Grit and {hero.name} has none (FF-HERO-11)",
                             field="hero", rule="FF-HERO-11")  # fmt: skip


def stop_bleeding(ctx: Ctx, command: StopBleeding) -> Procedure:
    """Spend a Grit to remove a Bleeding marker: total Health +3 again (FF-HERO-11; one marker per Grit, a reading)."""
    ctx.change(command.hero, "grit", -1, rule="FF-GRIT-01", why="stop the bleeding")
    ctx.change(command.hero, "bleeding", -1, rule="FF-HERO-11", why="1 Grit")
    yield from ()
