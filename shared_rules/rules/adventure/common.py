"""Pieces every adventure rule uses: reading and writing the Adventure, class resources, a hero's own rolls with
the Grit re-roll offer, and the refusals every command shares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...dice import DieKind, Roll
from ...errors import IllegalCommand, InvalidCommand
from ...events import Change
from ...flow import Ctx, RerollRequest, Said, Steps
from ...frozen import evolve, replace
from ...prompts import Asks
from ...state import Adventure, Figure, MissionCounter, PartyHero, Session, Side

SAMURAI, ASSASSIN, MONK, SORCERESS = "Samurai Warrior", "Assassin", "Traveling Monk", "Sorceress"
LANTERN_OIL = "Lantern Oil"  # FT-GRIT-03
FIRE_SAKE = "Fire Sake"  # FF-SAM-03
MAX_RESOURCE = 99  # no sheet holds more Fury, Ki or Mana; keeps typed-in values finite
HOUSE = "option:combat"  # the rule a house-procedure roll cites: a RuleOptions choice, not rulebook text


# ---- reading ---------------------------------------------------------------------------------------------------
def adventure(ctx: Ctx) -> Adventure:
    adv = ctx.state.adventure
    assert adv is not None, "an adventure rule ran with no Adventure under way"
    return adv


def put(ctx: Ctx, adv: Adventure) -> None:
    ctx.update(adventure=adv)


def update(ctx: Ctx, **changes: Any) -> None:
    put(ctx, evolve(adventure(ctx), changes))


def member(ctx: Ctx, hero_id: str) -> PartyHero:
    return adventure(ctx).hero(hero_id)


def put_member(ctx: Ctx, new: PartyHero) -> None:
    adv = adventure(ctx)
    put(ctx, evolve(adv, {"heroes": tuple(new if m.id == new.id else m for m in adv.heroes)}))


def put_figure(ctx: Ctx, new: Figure) -> None:
    adv = adventure(ctx)
    put(ctx, evolve(adv, {"figures": tuple(new if f.id == new.id else f for f in adv.figures)}))


def set_counter(ctx: Ctx, name: str, value: int) -> None:
    """Set a mission counter (Clues found, a Countdown ...)."""
    adv = adventure(ctx)
    rest = tuple(c for c in adv.counters if c.name != name)
    put(ctx, replace(adv, counters=(*rest, MissionCounter(name, value))))


def hero_class(ctx: Ctx, hero_id: str) -> str:
    return ctx.hero(hero_id).hero_class


def is_class(state: Session, hero_id: str, name: str) -> bool:
    return state.hero(hero_id).hero_class == name


def party_ids(state: Session) -> list[str]:
    """The heroes in the Adventure, in posse order."""
    adv = state.adventure
    return [] if adv is None else [m.id for m in adv.heroes if not state.hero(m.id).removed]


def standing(state: Session) -> list[str]:
    """The heroes in the Adventure who are not KO'd."""
    adv = state.adventure
    return [] if adv is None else [m.id for m in adv.heroes
                                   if not (hero := state.hero(m.id)).removed and not hero.knocked_out]


# ---- class resources -------------------------------------------------------------------------------------------
_WORDS = {"fury": "Fury", "ki": "Ki", "mana": "Mana", "arcane_powder": "Arcane Powder"}


def change_resource(ctx: Ctx, hero_id: str, field: str, delta: int, *, rule: str, why: str = "",
                    cap: int | None = None) -> int:  # fmt: skip
    """Add `delta` Fury/Ki/Mana/Arcane Powder within 0..cap; what goes past the cap is lost (A46). Returns the change."""
    current = member(ctx, hero_id)
    before: int = getattr(current, field)
    high = MAX_RESOURCE if cap is None else cap
    after = max(0, min(high, before + delta))
    name = ctx.name(hero_id)
    if after != before:
        changes: dict[str, Any] = {field: after}
        put_member(ctx, replace(current, **changes))
        verb = "gains" if after > before else "spends"
        ctx.emit("resource", f"{name} {verb} {abs(after - before)} {_WORDS[field]} ({before} -> {after})"
                 + (f": {why}" if why else ""), hero=hero_id, rule=rule,
                 changes=(Change(field, before, after),), why=why)  # fmt: skip
    if delta > 0 and before + delta > after:
        ctx.emit("resource", f"{name} is at Max {_WORDS[field]}: {before + delta - after} more is lost (A46)",
                 hero=hero_id, rule="A46", reason="at_max", name=field, count=before + delta - after)  # fmt: skip
    return after - before


# ---- a hero's own rolls ----------------------------------------------------------------------------------------
def own_roll(ctx: Ctx, hero_id: str, count: int, purpose: str, *, target: int, rule: str, asks: Asks,
             said: Said = (), worth: Callable[[Roll], bool] | None = None) -> Steps[Roll]:  # fmt: skip
    """A roll made for the hero (not a chart, not Hold Back the Darkness): after it, a hero with Grit is offered a
    re-roll of any of the dice that missed `target`, 1 Grit, never a die twice (FF-GRIT-01..04). `asks` and `said`
    say what it is for (the re-roll asks the same, with `reroll`).

    The offer is made while it can change the outcome (`worth`, by default: some die missed).
    """
    roll = yield from ctx.roll(DieKind.POOL, purpose, hero=hero_id, pool=count, target=target, rule=rule,
                               grit=ctx.grit_offered(hero_id), asks=asks, said=said)  # fmt: skip
    while (
        ctx.state.options.offer_grit_rerolls
        and ctx.hero(hero_id).grit >= 1
        and any(f < target and i not in roll.rerolled for i, f in enumerate(roll.faces))
        and (worth is None or worth(roll))
    ):
        indices: tuple[int, ...] = yield RerollRequest(roll, hero_id, "FF-GRIT-01")
        if not indices:
            break
        ctx.change(hero_id, "grit", -1, rule="FF-GRIT-01", why=f"re-roll for {purpose}")
        again = yield from ctx.roll(DieKind.POOL, f"{purpose} (re-roll)", hero=hero_id, pool=len(indices),
                                    rule="FF-GRIT-02", asks=asks, said=(*said, ("reroll", True)))  # fmt: skip
        roll = roll.with_rerolls(indices, again.faces)
    return roll


# ---- refusals --------------------------------------------------------------------------------------------------
def need_adventure(state: Session) -> Adventure:
    """The Adventure under way, or an IllegalCommand naming `type` (nothing runs)."""
    if state.adventure is None:
        raise IllegalCommand("no Adventure is under way (start_adventure first)", field="type", rule="FF-SETUP-01")
    return state.adventure


def need_hero(state: Session, hero_id: str, field: str = "hero") -> PartyHero:
    """A hero of this Adventure, or an error naming `field`."""
    adv = need_adventure(state)
    try:
        hero = state.hero(hero_id)
    except KeyError:
        raise InvalidCommand(f"{field}: no hero {hero_id!r} in this posse", field=field) from None
    if hero.removed:
        raise IllegalCommand(f"{field}: {hero.name} was taken from the game", field=field)
    if hero_id not in {m.id for m in adv.heroes}:
        raise IllegalCommand(f"{field}: {hero.name} does not play this Mission (R-MIS-11: the Duel's other Heroes sit "
                             "it out)", field=field, rule="R-MIS-11")  # fmt: skip
    return adv.hero(hero_id)


def need_class(state: Session, hero_id: str, name: str, rule: str, what: str) -> None:
    if not is_class(state, hero_id, name):
        raise IllegalCommand(f"hero: {what} is the {name}'s, and {state.hero(hero_id).name} is a "
                             f"{state.hero(hero_id).hero_class or 'hero of no class'} ({rule})",
                             field="hero", rule=rule)  # fmt: skip


def need_standing(state: Session, hero_id: str, field: str = "hero") -> None:
    if state.hero(hero_id).knocked_out:
        raise IllegalCommand(f"{field}: {state.hero(hero_id).name} is KO'd (FF-HERO-02)", field=field,
                             rule="FF-HERO-02")  # fmt: skip


def need_enemy(state: Session, figure_id: str, field: str, *, target: bool = True) -> Figure:
    """An Enemy on the board; as a `target`, not one off the board (FT-M5-06)."""
    adv = need_adventure(state)
    try:
        figure = adv.figure(figure_id)
    except KeyError:
        on_board = [f.id for f in adv.enemies]
        raise InvalidCommand(f"{field}: no enemy {figure_id!r} on the board; enemies: {on_board}",
                             field=field) from None  # fmt: skip
    if figure.side is not Side.ENEMY:  # Townsfolk, a Prisoner, Horses: never attacked (FT-M2-06, FT-M4-05)
        rule = "FT-M2-06" if figure.kind == "townsfolk" else "FT-M4-05" if figure.kind == "horse" else "FF-TURN-05"
        raise IllegalCommand(f"{field}: {figure.name} ({figure.id}) cannot be attacked or targeted ({rule})",
                             field=field, rule=rule)  # fmt: skip
    if target and figure.place is not None and figure.place.tile.startswith("entry:"):
        raise IllegalCommand(f"{field}: {figure.name} ({figure.id}) is off the board and cannot be targeted "
                             "(FT-M5-06)", field=field, rule="FT-M5-06")  # fmt: skip
    return figure


def number(value: int, field: str, low: int, high: int, rule: str = "") -> int:
    if not low <= value <= high:
        raise InvalidCommand(f"{field}: {value} is not within {low}..{high}", field=field, rule=rule)
    return value
