"""D36 results 31-36 of the Expanded Travel Hazard Chart (FT §Expanded Travel Hazard Chart)."""

from __future__ import annotations

from ....flow import Ctx, Procedure
from ....prompts import Amount, Asks, Option, Part, RollFor, Says, SkillCheck, roll_for
from .common import choose_item, hazard, lose_grit_or_take, plus_one, willpower_saves


@hazard(31)
def march_of_the_lost_army(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero: Luck 5+; pass +20 XP; fail: lose 1 Item of the Hero's choice (FT-TRAVEL-D31)."""
    for hero in ctx.heroes():
        test = yield from ctx.skill_test(hero, "luck", 5, "March of the Lost Army", rule="FT-TRAVEL-D31", each=True)
        if test.passed:
            ctx.change(hero, "xp", 20, rule="FT-TRAVEL-D31", why="March of the Lost Army")
            continue
        lost = yield from choose_item(ctx, hero, list(ctx.hero(hero).items),
                                      "March of the Lost Army: which Item do the spectral riders pull away?",
                                      name="March of the Lost Army", rule="FT-TRAVEL-D31")
        if lost is not None:
            ctx.remove_item(hero, lost, rule="FT-TRAVEL-D31", why="pulled away by the Lost Army")


@hazard(32)
def plague_church(ctx: Ctx, roller: str) -> Procedure:
    """Helpers pay 1 Grit or take D6 Corruption Hits, then Spirit 5+ (+25 XP); 5+ successes in all: an Artifact.

    FT-TRAVEL-D32: every Hero decides first; the successes of all helpers' tests are summed; the helpers choose
    who keeps the Mine Artifact (the table settles a roll-off, FT-DICE-05, by entering the winner).
    """
    rule = "FT-TRAVEL-D32"
    helpers: list[str] = []
    for hero in ctx.heroes():
        choice = yield from ctx.choose(
            "Plague Church: ride out to help the cursed church, or turn away and keep on the road?",
            [Option("help", "Help: 1 Grit or D6 Corruption Hits, then Spirit 5+", Part.JOIN,
                    test=SkillCheck("spirit", 5), says=Says.HELP_CHURCH),
             Option("turn_away", "Turn away", Part.DECLINE, says=Says.TURN_AWAY)],
            hero=hero, rule=rule, alike="help", each=True, asks=Asks.HELP_CHURCH,
        )
        if choice == "help":
            helpers.append(hero)
    successes = 0
    for hero in helpers:
        cost = "hits"
        if ctx.hero(hero).grit >= 1:
            cost = yield from ctx.choose(
                "Plague Church: spend 1 Grit, or take D6 Corruption Hits (Willpower saves)?",
                [Option("grit", "Spend 1 Grit", costs=(Amount("grit", 1),), says=Says.SPEND),
                 Option("hits", "Take D6 Corruption Hits", costs=(Amount("corruption", 1, dice="d6"),),
                        says=Says.CORRUPTION_HITS)],
                hero=hero, rule=rule, alike="cost", asks=Asks.CHURCH_COST,
            )
        if cost == "grit":
            ctx.change(hero, "grit", -1, rule=rule, why="Plague Church: braving the plague")
        else:
            hits = yield from ctx.d6("Plague Church: Corruption Hits", hero=hero, rule=rule, asks=Asks.ROLL_FOR,
                                     said=roll_for(RollFor.CORRUPTION_HITS, "Plague Church"))
            unsaved = yield from willpower_saves(ctx, hero, hits, purpose="Plague Church Corruption Hits",
                                                 name="Plague Church", rule=rule)
            if unsaved:
                ctx.change(hero, "corruption", unsaved, rule=rule, why="Plague Church: unsaved Corruption Hits")
        test = yield from ctx.skill_test(hero, "spirit", 5, "Plague Church", rule=rule,
                                          counts=True)  # 5 successes between all helpers
        successes += test.successes
        if test.passed:
            ctx.change(hero, "xp", 25, rule=rule, why="Plague Church")
    if not helpers:
        return
    if successes < 5:
        ctx.emit("plague_church", f"Plague Church: {successes} of 5 successes; the plague is not warded off",
                 rule=rule, successes=successes, passed=False)  # fmt: skip
        return
    ctx.emit("plague_church", f"Plague Church: {successes} successes; the grateful Church gives its Artifact",
             rule=rule, successes=successes, passed=True)  # fmt: skip
    keeper = yield from ctx.choose("Plague Church: which helper keeps the Mine Artifact?",
                                   [(hero, ctx.name(hero)) for hero in helpers], rule=rule,
                                   asks=Asks.ARTIFACT_KEEPER)  # fmt: skip
    yield from ctx.card(keeper, "artifact", "Draw a Mine Artifact and enter it", rule=rule)


@hazard(33)
def harried_by_hellbats(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero rolls a D6 per Dark Stone carried (shards, then Items with the icon or Upgrades); 1s are lost.

    FT-TRAVEL-D33.
    """
    rule = "FT-TRAVEL-D33"
    for hero in ctx.heroes():
        shards = ctx.hero(hero).dark_stone
        items = [item for item in ctx.hero(hero).items if item.carries_dark_stone]
        faces = yield from ctx.dice(shards + len(items), "HellBats: a D6 per Dark Stone carried (shards first, "
                                    "then Items)", hero=hero, rule=rule, asks=Asks.ROLL_FOR,
                                    said=roll_for(RollFor.PER_DARK_STONE, "Harried by HellBats"))  # fmt: skip
        snatched = sum(1 for face in faces[:shards] if face == 1)
        if snatched:
            ctx.change(hero, "dark_stone", -snatched, rule=rule, why="snatched by HellBats")
        for item, face in zip(items, faces[shards:], strict=True):
            if face == 1:
                ctx.remove_item(hero, item.id, rule=rule, why="snatched by HellBats")


@hazard(34)
def burning_farmstead(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero may enter: Strength 5+; fail D6 Wounds (carried over); pass +25 XP and a D6 on what is found.

    FT-TRAVEL-D34: 1 Trick (Injury chart), 2-5 Survivor (+D6x10 XP), 6 Hero of the Day (+D6x25 XP, +1 Health,
    +1 Sanity, A41).
    """
    rule = "FT-TRAVEL-D34"
    for hero in ctx.heroes():
        choice = yield from ctx.choose(
            "Burning Farmstead: brave the burning building to look for survivors, or turn away?",
            [Option("enter", "Enter: Strength 5+", Part.JOIN, test=SkillCheck("strength", 5), says=Says.ENTER),
             Option("turn_away", "Turn away", Part.DECLINE, says=Says.TURN_AWAY)], hero=hero, rule=rule,
            alike="enter", each=True, asks=Asks.ENTER_FARMSTEAD,
        )
        if choice != "enter":
            continue
        test = yield from ctx.skill_test(hero, "strength", 5, "Burning Farmstead", rule=rule)
        if not test.passed:
            wounds = yield from ctx.d6("Burning Farmstead: Wounds", hero=hero, rule=rule, asks=Asks.ROLL_FOR,
                                       said=roll_for(RollFor.WOUNDS, "Burning Farmstead"))
            ctx.change(hero, "wounds", wounds, rule=rule,
                       why="singed by the fire, ignoring Defense; carries over to the next Adventure")
            continue
        ctx.change(hero, "xp", 25, rule=rule, why="Burning Farmstead")
        found = yield from ctx.d6("Burning Farmstead: what you find in the fire", hero=hero, rule=rule,
                                  asks=Asks.ROLL_FOR, said=roll_for(RollFor.FOUND, "Burning Farmstead"))
        if found == 1:  # Trick
            yield from ctx.card(hero, "injury", "Trick! Roll once on the Injury chart and enter what it says",
                                rule=rule)
        elif found <= 5:  # Survivor
            xp = yield from ctx.d6("Burning Farmstead, Survivor: XP (x10)", hero=hero, rule=rule,
                                   asks=Asks.ROLL_FOR, said=roll_for(RollFor.XP, "Survivor", count=10))
            ctx.change(hero, "xp", 10 * xp, rule=rule, why="Survivor")
        else:  # Hero of the Day
            xp = yield from ctx.d6("Burning Farmstead, Hero of the Day: XP (x25)", hero=hero, rule=rule,
                                   asks=Asks.ROLL_FOR, said=roll_for(RollFor.XP, "Hero of the Day", count=25))
            ctx.change(hero, "xp", 25 * xp, rule=rule, why="Hero of the Day")
            plus_one(ctx, hero, "health", rule=rule, why="Hero of the Day")
            plus_one(ctx, hero, "sanity", rule=rule, why="Hero of the Day")


@hazard(35)
def ruined_fort(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero loses 1 Grit; one with none takes D3 Sanity Damage ignoring Willpower, carried over (FT-TRAVEL-D35)."""
    for hero in ctx.heroes():
        yield from lose_grit_or_take(ctx, hero, "sanity_damage", purpose="Ruined Fort", rule="FT-TRAVEL-D35")


WARLORD_PRICE = roll_for(RollFor.PRICE, "Mutant Warlord", count=50)


@hazard(36)
def mutant_warlord(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero pays D6x$50 or tests Lore 6+: pass +D6 Dark Stone, fail -D3 Health permanently (FT-TRAVEL-D36).

    With `warlord_price_first` the price is rolled first and paying is offered only if affordable (A8);
    otherwise the Hero chooses first and a payment is floored at $0.
    """
    rule = "FT-TRAVEL-D36"
    for hero in ctx.heroes():
        price: int | None = None
        options = [Option("pay", "Pay D6 x $50", costs=(Amount("gold", 50, dice="d6"),), says=Says.PAY)]
        if ctx.state.options.warlord_price_first:
            price = 50 * (yield from ctx.d6("Mutant Warlord: the price (x $50)", hero=hero, rule=rule,
                                            asks=Asks.ROLL_FOR, said=WARLORD_PRICE))
            options = [Option("pay", f"Pay ${price}", costs=(Amount("gold", price),), says=Says.PAY)
                       ] if ctx.hero(hero).gold >= price else []
            if not options:
                ctx.emit("cannot_pay", f"{ctx.name(hero)} cannot pay ${price} (has ${ctx.hero(hero).gold}): "
                         "the Lore 6+ test it is (A8)", hero=hero, rule=rule, price=price,
                         value=ctx.hero(hero).gold)  # fmt: skip
        options.append(Option("test", "Lore 6+ test: pass +D6 Dark Stone, fail -D3 Health permanently",
                              test=SkillCheck("lore", 6), says=Says.WARLORD_TEST))
        choice = yield from ctx.choose("Mutant Warlord: pay him off, or overcome him?", options, hero=hero,
                                       rule=rule, alike="pay_or_test", each=True, asks=Asks.PAY_OR_TEST)
        if choice == "pay":
            if price is None:
                price = 50 * (yield from ctx.d6("Mutant Warlord: the price (x $50)", hero=hero, rule=rule,
                                                asks=Asks.ROLL_FOR, said=WARLORD_PRICE))
            ctx.change(hero, "gold", -price, rule=rule, why="paid off the Mutant Warlord (Gold floors at $0, A8)")
            continue
        test = yield from ctx.skill_test(hero, "lore", 6, "Mutant Warlord", rule=rule)
        if test.passed:
            stones = yield from ctx.d6("Mutant Warlord: Dark Stone from the Tomb Chest", hero=hero, rule=rule,
                                       asks=Asks.ROLL_FOR, said=roll_for(RollFor.DARK_STONE, "Mutant Warlord"))
            ctx.change(hero, "dark_stone", stones, rule=rule, why="stolen from the Warlord's Tomb Chest")
        else:
            health = yield from ctx.d3("Mutant Warlord: Health lost permanently", hero=hero, rule=rule,
                                       asks=Asks.ROLL_FOR, said=roll_for(RollFor.HEALTH_LOST, "Mutant Warlord"))
            ctx.change(hero, "health_mod", -health, rule=rule, why="rolled over a cliff by the Mutant Warlord")
