"""D36 results 21-26 of the Expanded Travel Hazard Chart (FT §Expanded Travel Hazard Chart)."""

from __future__ import annotations

from ....flow import Ctx, Procedure, SkillBonus
from ....prompts import Asks, RollFor, roll_for
from ....state import Session
from .common import discard_transport, hazard, lose_grit_or_take


@hazard(21)
def mimic_beast(ctx: Ctx, roller: str) -> Procedure:
    """A Random Hero discards any Transport; another Random Hero takes D6 Wounds and loses D6x25 XP (FT-TRAVEL-D21).

    With a single Hero there is no "other" Hero: that part is skipped (A11), unless the option says otherwise.
    """
    rule = "FT-TRAVEL-D21"
    first = yield from ctx.random_hero("Mimic Beast: the Hero whose Transport is eaten", rule=rule)
    assert first is not None
    discard_transport(ctx, first, rule=rule, why="devoured by the Mimic Beast")
    missing = yield from ctx.random_hero("Mimic Beast: the missing Hero", exclude=(first,), rule=rule)
    if missing is None:
        if ctx.state.options.mimic_beast_solo_skips_second:
            ctx.emit("skipped", "Mimic Beast: no other Hero to go missing (A11)", rule=rule, reason="no_other_hero",
                     name="Mimic Beast")  # fmt: skip

            return
        missing = first
    wounds = yield from ctx.d6("Mimic Beast: Wounds", hero=missing, rule=rule, asks=Asks.ROLL_FOR,
                               said=roll_for(RollFor.WOUNDS, "Mimic Beast"))
    ctx.change(missing, "wounds", wounds, rule=rule,
               why="Mimic Beast, ignoring Defense; carries over to the next Adventure")
    xp = yield from ctx.d6("Mimic Beast: XP lost (x25)", hero=missing, rule=rule, asks=Asks.ROLL_FOR,
                           said=roll_for(RollFor.XP_LOST, "Mimic Beast", count=25))
    ctx.change(missing, "xp", -25 * xp, rule=rule, why="Mimic Beast")


@hazard(22)
def blighted_desert(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero loses 1 Grit; one with none takes D3 Wounds ignoring Defense, carried over (FT-TRAVEL-D22)."""
    for hero in ctx.heroes():
        yield from lose_grit_or_take(ctx, hero, "wounds", purpose="Blighted Desert", rule="FT-TRAVEL-D22")


@hazard(23)
def living_hills(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero: Agility 5+; pass +15 XP; fail: the Transport ridden is eaten, -1 Sanity for good (FT-TRAVEL-D23)."""
    for hero in ctx.heroes():
        test = yield from ctx.skill_test(hero, "agility", 5, "Living Hills", rule="FT-TRAVEL-D23", each=True)
        if test.passed:
            ctx.change(hero, "xp", 15, rule="FT-TRAVEL-D23", why="Living Hills")
        else:
            discard_transport(ctx, hero, rule="FT-TRAVEL-D23", why="devoured by the Living Hills")
            ctx.change(hero, "sanity_mod", -1, rule="FT-TRAVEL-D23", why="Living Hills")


@hazard(24)
def dark_stone_convoy(ctx: Ctx, roller: str) -> Procedure:
    """During this Town Stay each Dark Stone shard sold is worth +$25 (FT-TRAVEL-D24, FT-TRAVEL-05)."""
    ctx.carry("FT-TRAVEL-D24", "Dark Stone Convoy: each shard sold in this Town is worth +$25",
              reason="dark_stone_convoy", count=25, dark_stone_bonus=25)  # fmt: skip
    yield from ()


@hazard(25)
def blood_moon(ctx: Ctx, roller: str) -> Procedure:
    """Until the end of the next Adventure: +1 Spirit, Depth Events add Growing Dread (FT-TRAVEL-D25)."""
    ctx.carry("FT-TRAVEL-D25", "Blood Moon: all Heroes +1 Spirit and Depth Events add a Growing Dread card, "
              "until the end of the next Adventure", reason="blood_moon", blood_moon=True)
    yield from ()


def under_blood_moon(state: Session) -> bool:
    """Whether a Blood Moon rose on the road and the next Adventure has not ended (FT-TRAVEL-D25)."""
    return state.carry.blood_moon


BLOOD_MOON_SPIRIT = SkillBonus("spirit", 1, under_blood_moon)
"""A skill bonus (`Area.skill_bonuses`): under a Blood Moon all Heroes test Spirit at +1 until the end of the next
Adventure (FT-TRAVEL-D25)."""


@hazard(26)
def void_storm(ctx: Ctx, roller: str) -> Procedure:
    """On arrival 2 Random Buildings are Destroyed (per storm); every Hero +1 Corruption Point (FT-TRAVEL-D26)."""
    destroyed = ctx.state.carry.destroyed_on_arrival + 2
    ctx.carry("FT-TRAVEL-D26", f"Void Storm: {destroyed} Random Buildings will be Destroyed on arrival",
              reason="void_storm", count=destroyed, destroyed_on_arrival=destroyed)
    for hero in ctx.heroes():
        ctx.change(hero, "corruption", 1, rule="FT-TRAVEL-D26", why="Void Storm, ignoring Willpower")
    yield from ()
