"""D36 results 11-16 of the Expanded Travel Hazard Chart (FT §Expanded Travel Hazard Chart)."""

from __future__ import annotations

from ....flow import Ctx, Procedure
from ....prompts import Asks, Reads, RollFor, roll_for
from .common import fit_side_bag, hazard


@hazard(11)
def possession(ctx: Ctx, roller: str) -> Procedure:
    """The Hero that rolled loses 1 Sanity permanently; a D6 of 1-3 adds a Madness chart roll (FT-TRAVEL-D11)."""
    ctx.change(roller, "sanity_mod", -1, rule="FT-TRAVEL-D11", why="Possession")
    roll = yield from ctx.d6("Possession: 1-3 means a roll on the Madness chart", hero=roller,
                             rule="FT-TRAVEL-D11", asks=Asks.ROLL_FOR,
                             said=roll_for(RollFor.MADNESS_CHECK, "Possession"))  # fmt: skip
    if roll <= 3:
        yield from ctx.card(roller, "madness", "Roll once on the Madness chart and enter what it says",
                            rule="FT-TRAVEL-D11")


@hazard(12)
def bleached_bones(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero: Agility 5+; pass +10 XP; fail: Side Bag capacity -2 until repaired (FT-TRAVEL-D12)."""
    for hero in ctx.heroes():
        test = yield from ctx.skill_test(hero, "agility", 5, "Bleached Bones", rule="FT-TRAVEL-D12", each=True)
        if test.passed:
            ctx.change(hero, "xp", 10, rule="FT-TRAVEL-D12", why="Bleached Bones")
        else:
            ctx.set_value(hero, "bag_torn", True, rule="FT-TRAVEL-D12", why="Side Bag torn until repaired ($500)")
            yield from fit_side_bag(ctx, hero, rule="FT-TRAVEL-D12")


@hazard(13)
def dark_dreams(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero: Spirit 6+; pass +10 XP and Recover 1 Grit; fail D6 Sanity Damage, no Willpower (FT-TRAVEL-D13)."""
    for hero in ctx.heroes():
        test = yield from ctx.skill_test(hero, "spirit", 6, "Dark Dreams", rule="FT-TRAVEL-D13", each=True)
        if test.passed:
            ctx.change(hero, "xp", 10, rule="FT-TRAVEL-D13", why="Dark Dreams")
            ctx.change(hero, "grit", 1, rule="FT-TRAVEL-D13", why="Dark Dreams: Recover 1 Grit")
        else:
            damage = yield from ctx.d6("Dark Dreams: Sanity Damage", hero=hero, rule="FT-TRAVEL-D13",
                                       asks=Asks.ROLL_FOR, said=roll_for(RollFor.SANITY_DAMAGE, "Dark Dreams"))
            ctx.change(hero, "sanity_damage", damage, rule="FT-TRAVEL-D13",
                       why="Dark Dreams, ignoring Willpower; carries over to the next Adventure")


@hazard(14)
def shooting_star(ctx: Ctx, roller: str) -> Procedure:
    """The Hero that rolled may test Lore 6+; pass: Recover D3 Grit (FT-TRAVEL-D14).

    A failed test costs nothing, so the test is always taken rather than asked about.
    """
    test = yield from ctx.skill_test(roller, "lore", 6, "Shooting Star", rule="FT-TRAVEL-D14")
    if test.passed:
        grit = yield from ctx.d3("Shooting Star: Grit recovered", hero=roller, rule="FT-TRAVEL-D14",
                                 asks=Asks.ROLL_FOR, said=roll_for(RollFor.GRIT, "Shooting Star"))
        ctx.change(roller, "grit", grit, rule="FT-TRAVEL-D14", why=f"Shooting Star: Recover {grit} Grit")


@hazard(15)
def devils_fork(ctx: Ctx, roller: str) -> Procedure:
    """Every Hero rolls a D6 per Corruption Point and Mutation; each 1-2: +1 Corruption Point (FT-TRAVEL-D15)."""
    for hero in ctx.heroes():
        held = ctx.hero(hero).corruption + len(ctx.hero(hero).mutations)
        faces = yield from ctx.dice(held, "Devil's Fork: a D6 per Corruption Point and Mutation", hero=hero,
                                    rule="FT-TRAVEL-D15", asks=Asks.ROLL_FOR,
                                    said=roll_for(RollFor.PER_CORRUPTION, "Devil's Fork"))  # fmt: skip
        gained = sum(1 for face in faces if face <= 2)
        if gained:
            ctx.change(hero, "corruption", gained, rule="FT-TRAVEL-D15", why="Devil's Fork, ignoring Willpower")


@hazard(16)
def shadows_out_of_time(ctx: Ctx, roller: str) -> Procedure:
    """The Hero that rolled tests Cunning 6+: pass, +1 Revive Token next Adventure; each 1 costs 1 Sanity for good.

    FT-TRAVEL-D16; the 1s are counted on the final dice, after any Grit re-rolls.
    """
    test = yield from ctx.skill_test(roller, "cunning", 6, "Shadows Out of Time", rule="FT-TRAVEL-D16",
                                      counts=True, reads=Reads.ONES)  # every 1 rolled costs Sanity
    if test.passed:
        tokens = ctx.state.carry.extra_revive_tokens + 1
        ctx.carry("FT-TRAVEL-D16", f"Shadows Out of Time: the Posse has {tokens} extra Revive Token(s) for the "
                  "next Adventure", reason="revive_tokens", count=tokens, extra_revive_tokens=tokens)

    ones = test.count(1)
    if ones:
        ctx.change(roller, "sanity_mod", -ones, rule="FT-TRAVEL-D16",
                   why=f"Shadows Out of Time: {ones} die/dice showing 1")
