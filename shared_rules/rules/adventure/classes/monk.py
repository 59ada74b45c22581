"""The Traveling Monk: Ki spent on Healing (FF-MONK-01) and the Sacred Bell (FF-MONK-02).

Ki is gained at the start of each turn (turn.py) and spent on Combat Hits with an Attack's `ki` (fight.py).
"""

from __future__ import annotations

from ....commands import RingBell, SpendKi
from ....errors import IllegalCommand, InvalidCommand
from ....flow import Ctx, Procedure
from ....frozen import replace
from ....state import Session
from ..common import (
    MONK,
    change_resource,
    member,
    need_adventure,
    need_class,
    need_hero,
    need_standing,
    number,
    party_ids,
    put_member,
)

BELL_COVER = 3  # FF-MONK-02: Cover 3+


def bell_heroes(state: Session, command: RingBell) -> list[str]:
    """The heroes on the Monk's Map Tile, himself included: as named, or read from where they stand (FF-MOVE-04)."""
    if command.heroes:
        return list(dict.fromkeys([command.hero, *command.heroes]))
    adv = state.adventure
    assert adv is not None
    here = adv.hero(command.hero).place
    if here is None:
        return [command.hero]
    tiles = {t for t in (here.tile, here.also) if t}
    return [h for h in party_ids(state) if (p := adv.hero(h).place) is not None and ({p.tile, p.also} & tiles)]


def check_bell(state: Session, command: RingBell) -> None:
    adv = need_adventure(state)
    need_hero(state, command.hero)
    need_class(state, command.hero, MONK, "FF-MONK-02", "the Sacred Bell")
    need_standing(state, command.hero)
    if adv.hero(command.hero).bell_rung:
        raise IllegalCommand("hero: the Sacred Bell was already rung this Adventure: once per Adventure (FF-MONK-02)",
                             field="hero", rule="FF-MONK-02")  # fmt: skip
    for index, hero in enumerate(command.heroes):
        if hero not in party_ids(state):
            raise InvalidCommand(f"heroes[{index}]: no hero {hero!r} in this Adventure", field=f"heroes[{index}]")


def ring_bell(ctx: Ctx, command: RingBell) -> Procedure:
    """Every hero on the Monk's Map Tile has Cover 3+ against all damage until the end of the turn (FF-MONK-02)."""
    heroes = bell_heroes(ctx.state, command)
    put_member(ctx, replace(member(ctx, command.hero), bell_rung=True))
    for hero in heroes:
        current = member(ctx, hero)
        put_member(ctx, replace(current, cover=BELL_COVER if not current.cover else min(current.cover, BELL_COVER)))
    ctx.emit("bell", f"{ctx.name(command.hero)} rings the Sacred Bell: Cover {BELL_COVER}+ until the end of the turn "
             f"for {', '.join(ctx.name(h) for h in heroes)}", hero=command.hero, rule="FF-MONK-02", target=BELL_COVER,
             count=len(heroes))  # fmt: skip
    yield from ()


def check_ki(state: Session, command: SpendKi) -> None:
    adv = need_adventure(state)
    need_hero(state, command.hero)
    need_class(state, command.hero, MONK, "FF-MONK-01", "Ki")
    number(command.ki, "ki", 1, 99, "FF-MONK-01")
    if command.ki > adv.hero(command.hero).ki:
        raise IllegalCommand(f"ki: {state.hero(command.hero).name} has {adv.hero(command.hero).ki} Ki (FF-MONK-01)",
                             field="ki", rule="FF-MONK-01")  # fmt: skip
    number(command.base, "base", 0, 99)
    if command.target not in party_ids(state):
        raise InvalidCommand(f"target: no hero {command.target!r} in this Adventure", field="target")
    if command.heal not in ("wounds", "sanity"):
        raise InvalidCommand("heal: 'wounds' or 'sanity'", field="heal", rule="FF-MONK-01")
    damage = state.hero(command.target).wounds if command.heal == "wounds" else state.hero(command.target).sanity_damage
    if not damage:
        raise IllegalCommand(f"target: {state.hero(command.target).name} has no {command.heal} to heal (FF-MONK-01)",
                             field="target", rule="FF-MONK-01")  # fmt: skip


def spend_ki(ctx: Ctx, command: SpendKi) -> Procedure:
    """Ki adds to Healing the Monk does: `base` + Ki x the sheet's rate (FF-MONK-01)."""
    rate = member(ctx, command.hero).sheet.ki_heal
    change_resource(ctx, command.hero, "ki", -command.ki, rule="FF-MONK-01", why="Healing")
    field = "wounds" if command.heal == "wounds" else "sanity_damage"
    ctx.change(command.target, field, -(command.base + command.ki * rate), rule="FF-MONK-01",
               why=f"{ctx.name(command.hero)}'s Healing with {command.ki} Ki")  # fmt: skip
    yield from ()
