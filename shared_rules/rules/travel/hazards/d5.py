"""D36 results 51-56 of the Expanded Travel Hazard Chart (FT §Expanded Travel Hazard Chart)."""

from __future__ import annotations

from ....events import Fact
from ....flow import Ctx, Procedure
from ....prompts import Amount, Asks, Option, Part, RollFor, Says, SkillCheck, roll_for
from ....state import ItemTag
from .common import either_test, hazard, plus_one, takes_part

BANDITS_PER_HERO = 5  # FT-TRAVEL-D52
BANDITS_TAKE = frozenset({ItemTag.GEAR, ItemTag.ARTIFACT})  # the items a Bandit may take (FT-TRAVEL-D52)


@hazard(51)
def sleeping_under_the_stars(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero may test Lore 6+; each 6+ rolled gives +1 Health or +1 Sanity, the hero's pick (FT-TRAVEL-D51).

    The test has no downside, so every hero takes it. "+1" raises the max (A41, `plus_one_is_permanent`).
    """
    for hero in ctx.heroes():
        test = yield from ctx.skill_test(hero, "lore", 6, "Sleeping Under the Stars", rule="FT-TRAVEL-D51",
                                          counts=True)  # each 6+ is +1 Health or Sanity
        for n in range(1, test.successes + 1):
            stat = yield from ctx.choose(
                f"Sleeping Under the Stars: 6+ number {n} of {test.successes}: +1 Health or +1 Sanity?",
                [Option("health", "+1 Health", gains=(Amount("health_mod"),), says=Says.GAIN),
                 Option("sanity", "+1 Sanity", gains=(Amount("sanity_mod"),), says=Says.GAIN)], hero=hero,
                rule="FT-TRAVEL-D51", alike="stat", asks=Asks.PLUS_ONE,
                said=(("number", n), ("count", test.successes)))
            plus_one(ctx, hero, stat, rule="FT-TRAVEL-D51", why="Sleeping Under the Stars")


@hazard(52)
def bandits(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero faces 5 Bandits and defeats a D6 of them (+10 XP each); each one left takes $25, 1 Dark Stone,
    or 1 Gear/Artifact, the hero's pick among what they have (FT-TRAVEL-D52, A8: Gold floors at $0)."""
    for hero in ctx.heroes():
        roll = yield from ctx.d6("Bandits!: Bandits defeated", hero=hero, rule="FT-TRAVEL-D52", asks=Asks.ROLL_FOR,
                                 said=roll_for(RollFor.BANDITS_DEFEATED, "Bandits!"))
        defeated = min(roll, BANDITS_PER_HERO)
        ctx.change(hero, "xp", 10 * defeated, rule="FT-TRAVEL-D52", why=f"{defeated} Bandits defeated")
        left = BANDITS_PER_HERO - defeated
        for n in range(1, left + 1):
            sheet = ctx.hero(hero)
            options = [Option("gold", f"Lose $25 (has ${sheet.gold})", costs=(Amount("gold", 25),), says=Says.LOSE,
                              facts=(Fact("value", sheet.gold),))] if sheet.gold > 0 else []  # fmt: skip
            if sheet.dark_stone > 0:
                options.append(Option("dark_stone", f"Lose 1 Dark Stone (has {sheet.dark_stone})",
                                      costs=(Amount("dark_stone", 1),), says=Says.LOSE,
                                      facts=(Fact("value", sheet.dark_stone),)))  # fmt: skip
            options += [Option(f"item:{item.id}", f"Lose {item.name}", costs=(Amount("item", 1, item.id),),
                               says=Says.LOSE, facts=(Fact("item", item.name),))
                        for item in sheet.items if not item.tags.isdisjoint(BANDITS_TAKE)]
            if not options:
                ctx.emit("nothing_to_lose", f"{sheet.name} has nothing left for the Bandits to take "
                         f"({left - n + 1} Bandit(s) leave empty-handed)", hero=hero, rule="FT-TRAVEL-D52",
                         reason="bandits", count=left - n + 1)  # fmt: skip
                break
            loss = yield from ctx.choose(f"Bandits!: Bandit {n} of {left} not defeated: what do you lose?",
                                         options, hero=hero, rule="FT-TRAVEL-D52", alike="loss",
                                         asks=Asks.BANDIT_LOSS, said=(("number", n), ("count", left)))
            if loss == "gold":
                ctx.change(hero, "gold", -25, rule="FT-TRAVEL-D52", why="robbed by a Bandit")
            elif loss == "dark_stone":
                ctx.change(hero, "dark_stone", -1, rule="FT-TRAVEL-D52", why="robbed by a Bandit")
            else:
                ctx.remove_item(hero, loss.removeprefix("item:"), rule="FT-TRAVEL-D52", why="robbed by a Bandit")


@hazard(53)
def circling_vultures(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero: Spirit 5+; pass +10 XP and Heal D3 Sanity; fail D3 Sanity Damage ignoring Willpower, carried
    over to the next Adventure (FT-TRAVEL-D53)."""
    for hero in ctx.heroes():
        test = yield from ctx.skill_test(hero, "spirit", 5, "Circling Vultures", rule="FT-TRAVEL-D53", each=True)
        if test.passed:
            ctx.change(hero, "xp", 10, rule="FT-TRAVEL-D53", why="Circling Vultures")
            heal = yield from ctx.d3("Circling Vultures: Heal Sanity", hero=hero, rule="FT-TRAVEL-D53",
                                     asks=Asks.ROLL_FOR, said=roll_for(RollFor.HEAL_SANITY, "Circling Vultures"))
            ctx.change(hero, "sanity_damage", -heal, rule="FT-TRAVEL-D53", why="Circling Vultures")
        else:
            damage = yield from ctx.d3("Circling Vultures: Sanity Damage", hero=hero, rule="FT-TRAVEL-D53",
                                       asks=Asks.ROLL_FOR, said=roll_for(RollFor.SANITY_DAMAGE, "Circling Vultures"))
            ctx.change(hero, "sanity_damage", damage, rule="FT-TRAVEL-D53",
                       why="ignoring Willpower, carries over to the next Adventure")


@hazard(54)
def army_convoy(ctx: Ctx, roller: str) -> Procedure:
    """In this Town, +1 to every Camp Site Hazard and Town Event roll (FT-TRAVEL-D54, FT-TRAVEL-05)."""
    ctx.carry("FT-TRAVEL-D54", "Army Convoy: +1 to Camp Site Hazard and Town Event rolls in this Town",
              reason="army_convoy", count=1, army_convoy=True)

    yield from ()


@hazard(55)
def massacred_wagon_train(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero may search: Luck 5+; fail -1 Sanity permanently; pass: D6 1-4 Gear, 5 Mine Artifact,
    6 +1 Max Grit (FT-TRAVEL-D55)."""
    for hero in ctx.heroes():
        searches = yield from takes_part(
            ctx, hero, "Massacred Wagon Train: pass it by, or search the massacre (Luck 5+)?",
            Option("search", "Search the massacre", Part.JOIN, test=SkillCheck("luck", 5), says=Says.JOIN),
            Option("pass", "Pass it by", Part.DECLINE, says=Says.PASS_BY), name="Massacred Wagon Train",
            rule="FT-TRAVEL-D55")
        if not searches:
            continue
        test = yield from ctx.skill_test(hero, "luck", 5, "Massacred Wagon Train", rule="FT-TRAVEL-D55")
        if not test.passed:
            ctx.change(hero, "sanity_mod", -1, rule="FT-TRAVEL-D55", why="scarred by the horror: permanently")
            continue
        find = yield from ctx.d6("Massacred Wagon Train: what you find", hero=hero, rule="FT-TRAVEL-D55",
                                 asks=Asks.ROLL_FOR, said=roll_for(RollFor.FOUND, "Massacred Wagon Train"))
        if find <= 4:  # Gear
            yield from ctx.card(hero, "gear", "Draw a Gear card and enter it", rule="FT-TRAVEL-D55")
        elif find == 5:  # Artifact
            yield from ctx.card(hero, "artifact", "Draw an Artifact card from the Mines and enter it",
                                rule="FT-TRAVEL-D55")
        else:  # Survivor!
            ctx.change(hero, "max_grit", 1, rule="FT-TRAVEL-D55", why="Survivor! carried back to Town")


@hazard(56)
def void_hound_attack(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero: Cunning 5+ or Strength 5+ (their pick); pass +25 XP; fail: a D6 per Clothing Item (not the
    Personal Item), each 1-2 destroys it (FT-TRAVEL-D56)."""
    for hero in ctx.heroes():
        test = yield from either_test(ctx, hero, ("cunning", "strength"), 5, "Void Hound Attack",
                                      rule="FT-TRAVEL-D56", each=True)
        if test.passed:
            ctx.change(hero, "xp", 25, rule="FT-TRAVEL-D56", why="Void Hound Attack")
            continue
        clothing = [item for item in ctx.hero(hero).items
                    if ItemTag.CLOTHING in item.tags and ItemTag.PERSONAL not in item.tags]
        faces = yield from ctx.dice(len(clothing), "Void Hound Attack: a D6 per Clothing Item", hero=hero,
                                    rule="FT-TRAVEL-D56", asks=Asks.ROLL_FOR,
                                    said=roll_for(RollFor.PER_CLOTHING, "Void Hound Attack"))  # fmt: skip
        for item, face in zip(clothing, faces, strict=True):
            if face <= 2:
                ctx.remove_item(hero, item.id, rule="FT-TRAVEL-D56", why="torn apart by the Void Hounds")
