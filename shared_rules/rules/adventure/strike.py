"""Hits an enemy lands on a hero, and Horror Hits from an event: the saves each hero rolls, then the Damage."""

from __future__ import annotations

from collections.abc import Callable

from ...commands import EnemyStrike
from ...dice import DieKind
from ...flow import Ctx, Steps
from ...prompts import Asks
from ...state import Figure
from .common import HOUSE, member, own_roll
from .ko import harmed

CoverSaves = Callable[[int], Steps[int]]  # the board's Cover Saves on so many Hits: the Hits left (FT-BOARD-07)


def take_strike(ctx: Ctx, figure: Figure, strike: EnemyStrike, *,
                cover_saves: CoverSaves | None = None) -> Steps[None]:  # fmt: skip
    """Hits on one hero: Cover first (the board's Cover Saves when the Mission found the hero in Cover,
    FT-BOARD-07; the Sacred Bell, A35), then a Defense save per Hit (Willpower for Horror and Corruption Hits), each
    the hero's own roll; unsaved Hits do their Damage (FF-HERO-04/05)."""
    hero = strike.hero
    name = ctx.name(hero)
    hits = strike.hits
    if hits is None:  # the enemy's own roll: red dice, no Grit (FF-GRIT-03)
        roll = yield from ctx.roll(DieKind.POOL, f"{figure.name}'s attack on {name}: To Hit {figure.to_hit}+",
                                   pool=figure.combat, target=figure.to_hit, rule=HOUSE, asks=Asks.TO_HIT,
                                   said=(("figure", figure.name), ("name", name),
                                         ("target", figure.to_hit)))  # fmt: skip
        hits = roll.successes
    if hits and cover_saves is not None:
        hits = yield from cover_saves(hits)
    if not hits:
        ctx.emit("hit", f"{figure.name} misses {name}", hero=hero, rule="FF-HERO-04", reason="missed",
                 figure=figure.name)  # fmt: skip
        return
    cover = member(ctx, hero).cover
    if cover:  # FF-MONK-02: a D6 per Hit, on 3+ it is ignored (A35: before Defense, one roll)
        roll = yield from own_roll(ctx, hero, hits, f"Cover {cover}+ against {figure.name}", target=cover,
                                   rule="FF-MONK-02", asks=Asks.SAVE,
                                   said=(("reason", "cover"), ("target", cover), ("name", figure.name)))  # fmt: skip
        hits -= roll.successes
    saving = "defense" if strike.kind == "wound" else "willpower"
    if hits and not (strike.kind == "wound" and strike.ignore_defense):
        value = getattr(ctx.hero(hero), saving)
        rule = "FF-HERO-04" if saving == "defense" else "FF-HERO-05"
        roll = yield from own_roll(ctx, hero, hits, f"{saving.capitalize()} {value}+ saves against {figure.name}",
                                   target=value, rule=rule, asks=Asks.SAVE,
                                   said=(("reason", saving), ("target", value), ("name", figure.name)))  # fmt: skip
        hits -= roll.successes
    armor = member(ctx, hero).armor
    if hits and armor and strike.kind == "wound":  # a Fine Cigar's Armor 3+ after Defense, per Hit (R-ADV-03)
        roll = yield from own_roll(ctx, hero, hits, f"Armor {armor}+ (Fine Cigar) against {figure.name}",
                                   target=armor, rule="FT-BAG-07", asks=Asks.SAVE,
                                   said=(("reason", "armor"), ("target", armor), ("name", figure.name),
                                         ("item", "Fine Cigar")))  # fmt: skip
        hits -= roll.successes
    if not hits:
        ctx.emit("hit", f"{name} saves every Hit from {figure.name}", hero=hero, rule="FF-HERO-04", reason="saved",
                 figure=figure.name)  # fmt: skip
        return
    if strike.kind == "wound":
        damage = figure.damage if strike.damage is None else strike.damage
        ctx.change(hero, "wounds", hits * damage, rule="FF-HERO-02", why=f"{hits} unsaved Hit(s) from {figure.name}")
    elif strike.kind == "horror":
        per = strike.damage if strike.damage is not None else ctx.state.options.horror_hit_sanity
        ctx.change(hero, "sanity_damage", hits * per, rule="FF-HERO-03",
                   why=f"{hits} unsaved Horror Hit(s) from {figure.name}")  # fmt: skip
    else:
        ctx.change(hero, "corruption", hits, rule="FF-HERO-05", why=f"{hits} unsaved Corruption Hit(s)")
    yield from harmed(ctx, hero)


def horror_hits(ctx: Ctx, hero: str, hits: int, *, rule: str, why: str) -> Steps[None]:
    """Horror Hits from an event: Willpower saves, each unsaved one Sanity Damage (option `horror_hit_sanity`)."""
    if not hits:
        return
    willpower = ctx.hero(hero).willpower
    roll = yield from own_roll(ctx, hero, hits, f"{why}: Willpower {willpower}+ saves", target=willpower,
                               rule="FF-HERO-05", asks=Asks.SAVE,
                               said=(("reason", "willpower"), ("target", willpower), ("name", why)))  # fmt: skip
    unsaved = hits - roll.successes
    if unsaved:
        ctx.change(hero, "sanity_damage", unsaved * ctx.state.options.horror_hit_sanity, rule=rule,
                   why=f"{unsaved} unsaved Horror Hit(s): {why}")  # fmt: skip
        yield from harmed(ctx, hero)
