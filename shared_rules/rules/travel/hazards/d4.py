"""D36 results 41-46 of the Expanded Travel Hazard Chart (FT §Expanded Travel Hazard Chart)."""

from __future__ import annotations

from ....dice import DieKind
from ....flow import Ctx, Procedure
from ....frozen import replace
from ....prompts import Amount, Asks, Option, Part, RollFor, Says, SkillCheck, roll_for
from .common import hazard, takes_part


@hazard(41)
def stampede(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero: Strength 4+; pass +15 XP; fail: an Injury roll on 3D6, lowest die dropped (FT-TRAVEL-D41)."""
    for hero in ctx.heroes():
        test = yield from ctx.skill_test(hero, "strength", 4, "Stampede", rule="FT-TRAVEL-D41", each=True)
        if test.passed:
            ctx.change(hero, "xp", 15, rule="FT-TRAVEL-D41", why="Stampede")
        else:
            yield from ctx.card(hero, "injury", "Roll once on the Injury chart with 3D6, dropping the lowest "
                                "die, and enter what it says", rule="FT-TRAVEL-D41", die=DieKind.INJURY_3D6)


@hazard(42)
def raging_river(ctx: Ctx, roller: str) -> Procedure:
    """The Posse turns back to a Small Town (Travel ends) or fords: Strength 5+ each (FT-TRAVEL-D42)."""
    choice = yield from ctx.choose(
        "Raging River: turn back to the roadside town (a Small Town, Travel ends) or ford the river?",
        [Option("turn_back", "Turn back: Small Town, no more hazards", Part.DECLINE, says=Says.TURN_BACK),
         Option("ford", "Ford the river: Strength 5+ each", Part.JOIN, test=SkillCheck("strength", 5),
                says=Says.FORD)],
        rule="FT-TRAVEL-D42", asks=Asks.RIVER,
    )
    if choice == "turn_back":
        travel = ctx.state.travel
        assert travel is not None
        ctx.update(travel=replace(travel, turned_back=True))
        ctx.emit("carry", "The posse turns back: the destination is now a Small Town and Travel ends",
                 rule="FT-TRAVEL-D42", reason="turned_back")  # fmt: skip
        return
    for hero in ctx.heroes():
        test = yield from ctx.skill_test(hero, "strength", 5, "Raging River", rule="FT-TRAVEL-D42", each=True)
        if test.passed:
            continue
        at_risk = [item for item in ctx.hero(hero).items if item.hourglass >= 1]
        faces = yield from ctx.dice(len(at_risk), "Raging River: a D6 per Item with an hourglass icon",
                                    hero=hero, rule="FT-TRAVEL-D42", asks=Asks.ROLL_FOR,
                                    said=roll_for(RollFor.PER_HOURGLASS_ITEM, "Raging River"))  # fmt: skip
        for item, face in zip(at_risk, faces, strict=True):
            if face == 1:
                ctx.remove_item(hero, item.id, rule="FT-TRAVEL-D42", why="swept away by the river")


@hazard(43)
def flash_flood(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero: Luck 4+; fail: a D6 per Side Bag Token, each 1-3 sweeps that Token away (FT-TRAVEL-D43)."""
    for hero in ctx.heroes():
        test = yield from ctx.skill_test(hero, "luck", 4, "Flash Flood", rule="FT-TRAVEL-D43", each=True)
        if test.passed:
            continue
        bag = ctx.hero(hero).side_bag
        faces = yield from ctx.dice(len(bag), "Flash Flood: a D6 per Side Bag Token", hero=hero,
                                    rule="FT-TRAVEL-D43", asks=Asks.ROLL_FOR,
                                    said=roll_for(RollFor.PER_TOKEN, "Flash Flood"))  # fmt: skip
        swept = [index for index, face in enumerate(faces) if face <= 3]
        for index in reversed(swept):  # from the back, so the earlier indices still point at their tokens
            ctx.remove_token(hero, index, rule="FT-TRAVEL-D43", why="swept away by the flood")


@hazard(44)
def rail_line_construction(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero Heals 2D6 Wounds/Sanity Damage in any mix and Recovers 1 Grit per Mutation (FT-TRAVEL-D44)."""
    for hero in ctx.heroes():
        heal = yield from ctx.two_d6("Rail Line Construction: Heal Wounds/Sanity", hero=hero,
                                     rule="FT-TRAVEL-D44", asks=Asks.ROLL_FOR,
                                     said=roll_for(RollFor.HEAL, "Rail Line Construction"))  # fmt: skip
        wounds, sanity = ctx.hero(hero).wounds, ctx.hero(hero).sanity_damage
        to_wounds = wounds
        if heal < wounds + sanity:
            # Any mix: the hero splits it. Splits that would waste healing while damage is left are not
            # offered, so a hero with only one kind of damage is not asked.
            least, most = max(0, heal - sanity), min(heal, wounds)
            to_wounds = int((yield from ctx.choose(
                f"Rail Line Construction: Heal {heal}: how much goes to Wounds ({wounds}), the rest to Sanity "
                f"Damage ({sanity})?",
                [Option(str(n), f"{n} Wounds, {heal - n} Sanity",
                        gains=(Amount("wounds", -n), Amount("sanity_damage", -(heal - n))), says=Says.HEAL_SPLIT)
                 for n in range(least, most + 1)],
                hero=hero, rule="FT-TRAVEL-D44", asks=Asks.HEAL_SPLIT,
                said=(("value", heal), ("count", wounds), ("number", sanity)))))
        ctx.change(hero, "wounds", -to_wounds, rule="FT-TRAVEL-D44", why="Rail Line Construction")
        ctx.change(hero, "sanity_damage", -(heal - to_wounds), rule="FT-TRAVEL-D44", why="Rail Line Construction")
        mutations = len(ctx.hero(hero).mutations)
        if mutations:  # capped at Max Grit, the rest is lost (FF-GRIT-07)
            ctx.change(hero, "grit", mutations, rule="FT-TRAVEL-D44", why="the Mutant rail workers cheer")


@hazard(45)
def bridge_destroyed(ctx: Ctx, roller: str) -> Procedure:
    """The Town Stay lasts no more than 2 Days before the next Adventure (FT-TRAVEL-D45, FT-TRAVEL-05)."""
    ctx.carry("FT-TRAVEL-D45", "Bridge Destroyed: the Town Stay may last no more than 2 Days", reason="bridge_destroyed",
              count=2, max_days=2)  # fmt: skip

    yield from ()


@hazard(46)
def wrecked_train(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero may search: Cunning 5+; fail discards all Grit; pass rolls what is inside (FT-TRAVEL-D46)."""
    for hero in ctx.heroes():
        searches = yield from takes_part(
            ctx, hero, "Wrecked Train: pass it by, or climb down and search the wreckage (Cunning 5+)?",
            Option("search", "Search the wreck", Part.JOIN, test=SkillCheck("cunning", 5), says=Says.JOIN),
            Option("pass", "Pass it by", Part.DECLINE, says=Says.PASS_BY), name="Wrecked Train", rule="FT-TRAVEL-D46")
        if not searches:
            continue
        test = yield from ctx.skill_test(hero, "cunning", 5, "Wrecked Train", rule="FT-TRAVEL-D46")
        if not test.passed:
            ctx.change(hero, "grit", -ctx.hero(hero).grit, rule="FT-TRAVEL-D46", why="exhausted: discard all Grit")
            continue
        find = yield from ctx.d6("Wrecked Train: what is inside", hero=hero, rule="FT-TRAVEL-D46",
                                 asks=Asks.ROLL_FOR, said=roll_for(RollFor.FOUND, "Wrecked Train"))
        if find == 1:  # No Accident
            yield from ctx.card(hero, "madness", "No Accident: roll once on the Madness Table and enter what "
                                "it says", rule="FT-TRAVEL-D46")
        elif find <= 5:  # Something Shiny
            gold = yield from ctx.d6("Something Shiny: D6 x $50", hero=hero, rule="FT-TRAVEL-D46",
                                     asks=Asks.ROLL_FOR, said=roll_for(RollFor.GOLD, "Something Shiny", count=50))
            ctx.change(hero, "gold", gold * 50, rule="FT-TRAVEL-D46", why="Something Shiny")
        else:  # Precious Find
            yield from ctx.card(hero, "world_artifact", "Draw a World card, then an Artifact from that World's "
                                "deck, and enter it", rule="FT-TRAVEL-D46")
