"""D36 results 61-66 of the Expanded Travel Hazard Chart (FT §Expanded Travel Hazard Chart)."""

from __future__ import annotations

from ....events import Fact
from ....flow import Ctx, Procedure
from ....prompts import Amount, Asks, Option, Part, RollFor, Says, SkillCheck, roll_for
from ....state import ItemTag
from .common import either_test, hazard, takes_part, willpower_saves


@hazard(61)
def indian_curse(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero takes 3 Horror Hits per Mutation, Corruption Point and Dark Stone shard they have; Willpower
    saves each, and each unsaved Hit is `horror_hit_sanity` Sanity Damage (FT-TRAVEL-D61)."""
    for hero in ctx.heroes():
        sheet = ctx.hero(hero)
        hits = 3 * (len(sheet.mutations) + sheet.corruption + sheet.dark_stone)
        if not hits:
            continue
        ctx.emit("hits", f"{sheet.name} takes {hits} Horror Hits from the vengeful spirits", hero=hero,
                 rule="FT-TRAVEL-D61", hits=hits, hit_kind="horror")
        unsaved = yield from willpower_saves(ctx, hero, hits, purpose="Indian Curse", name="Indian Curse",
                                             rule="FT-TRAVEL-D61")
        if unsaved:
            ctx.change(hero, "sanity_damage", unsaved * ctx.state.options.horror_hit_sanity,
                       rule="FT-TRAVEL-D61", why=f"{unsaved} unsaved Horror Hits")


@hazard(62)
def dying_marshal(ctx: Ctx, roller: str) -> Procedure:
    """On arrival each Hero gains D3 Unwanted Attention, and a Location Event double may start a Duel with the
    escaped prisoner (FT-TRAVEL-D62, FT-TRAVEL-05; the markers are rolled in rules/town.py)."""
    ctx.carry("FT-TRAVEL-D62", "Dying Marshal: on arrival each Hero gains D3 Unwanted Attention; a double on a "
              "Location Event chart may start a High Noon Duel with the escaped prisoner", reason="dying_marshal",
              dying_marshal=True)  # fmt: skip

    yield from ()


@hazard(63)
def snake_oil_salesman(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero: Cunning 5+; fail: lose D6 x $25 (A8: down to $0), then a D6: on a 6 gain a Tonic Token
    (FT-TRAVEL-D63)."""
    for hero in ctx.heroes():
        test = yield from ctx.skill_test(hero, "cunning", 5, "Snake Oil Salesman", rule="FT-TRAVEL-D63", each=True)
        if test.passed:
            continue
        price = yield from ctx.d6("Snake Oil Salesman: D6 x $25", hero=hero, rule="FT-TRAVEL-D63",
                                  asks=Asks.ROLL_FOR, said=roll_for(RollFor.GOLD_LOST, "Snake Oil Salesman", count=25))
        ctx.change(hero, "gold", -25 * price, rule="FT-TRAVEL-D63", why="flavored water and pungent herbs")
        elixir = yield from ctx.d6("Snake Oil Salesman: is one elixir worthwhile?", hero=hero,
                                   rule="FT-TRAVEL-D63", asks=Asks.ROLL_FOR,
                                   said=roll_for(RollFor.ELIXIR, "Snake Oil Salesman"))  # fmt: skip
        if elixir == 6:
            yield from ctx.gain_token(hero, "Tonic", rule="FT-TRAVEL-D63")


@hazard(64)
def search_party(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero may help: Spirit 6+ each; 3+ successes among the helpers: each gains D6 x $100 and removes D3
    Corruption; otherwise each helper loses 1 Sanity permanently (FT-TRAVEL-D64)."""
    helpers = []
    for hero in ctx.heroes():  # everyone decides before the search starts
        helps = yield from takes_part(
            ctx, hero, "Search Party: press on, or stop and help search for the missing child (Spirit 6+)?",
            Option("help", "Help search", Part.JOIN, test=SkillCheck("spirit", 6), says=Says.JOIN),
            Option("press_on", "Press on", Part.DECLINE, says=Says.PASS_BY), name="Search Party",
            rule="FT-TRAVEL-D64")
        if helps:
            helpers.append(hero)
    successes = 0
    for hero in helpers:
        test = yield from ctx.skill_test(hero, "spirit", 6, "Search Party", rule="FT-TRAVEL-D64",
                                          counts=True)  # the helpers' successes are summed
        successes += test.successes
    if not helpers:
        return
    found = successes >= 3
    ctx.emit("search", f"Search Party: {successes} successes among the helpers: the child is "
             + ("found and rescued" if found else "lost for good"), rule="FT-TRAVEL-D64", successes=successes,
             passed=found)  # fmt: skip
    for hero in helpers:
        if not found:
            ctx.change(hero, "sanity_mod", -1, rule="FT-TRAVEL-D64", why="the child is lost: permanently")
            continue
        reward = yield from ctx.d6("Search Party: D6 x $100 reward", hero=hero, rule="FT-TRAVEL-D64",
                                   asks=Asks.ROLL_FOR, said=roll_for(RollFor.GOLD, "Search Party", count=100))
        ctx.change(hero, "gold", 100 * reward, rule="FT-TRAVEL-D64", why="reward for the rescue")
        yield from remove_d3_corruption(ctx, hero, "Search Party", rule="FT-TRAVEL-D64")


@hazard(65)
def gulch_ambush(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero: Agility 5+ or Lore 5+ (their pick); pass +25 XP; fail: lose D3 Dark Stone or one Item with a
    Dark Stone icon, and lose all Grit (FT-TRAVEL-D65)."""
    for hero in ctx.heroes():
        test = yield from either_test(ctx, hero, ("agility", "lore"), 5, "Gulch Ambush", rule="FT-TRAVEL-D65",
                                      each=True)
        if test.passed:
            ctx.change(hero, "xp", 25, rule="FT-TRAVEL-D65", why="Gulch Ambush")
            continue
        sheet = ctx.hero(hero)
        options = [Option("shards", f"Lose D3 Dark Stone (has {sheet.dark_stone})",
                          costs=(Amount("dark_stone", 1, dice="d3"),), says=Says.LOSE,
                          facts=(Fact("value", sheet.dark_stone),))] if sheet.dark_stone else []  # fmt: skip
        options += [Option(item.id, f"Lose {item.name}", costs=(Amount("item", 1, item.id),), says=Says.LOSE,
                           facts=(Fact("item", item.name),))
                    for item in sheet.items if ItemTag.DARK_STONE in item.tags]
        if options:
            loss = yield from ctx.choose("Gulch Ambush: the Black Fang take D3 Dark Stone or one Item with a "
                                         "Dark Stone icon: which?", options, hero=hero, rule="FT-TRAVEL-D65",
                                         alike="loss", asks=Asks.BLACK_FANG_LOSS)  # fmt: skip
            if loss == "shards":
                shards = yield from ctx.d3("Gulch Ambush: Dark Stone lost", hero=hero, rule="FT-TRAVEL-D65",
                                           asks=Asks.ROLL_FOR, said=roll_for(RollFor.DARK_STONE_LOST, "Gulch Ambush"))
                ctx.change(hero, "dark_stone", -shards, rule="FT-TRAVEL-D65", why="scavenged by the Black Fang")
            else:
                ctx.remove_item(hero, loss, rule="FT-TRAVEL-D65", why="scavenged by the Black Fang")
        else:
            ctx.emit("nothing_to_lose", f"{sheet.name} carries no Dark Stone for the Black Fang", hero=hero,
                     rule="FT-TRAVEL-D65", reason="black_fang")  # fmt: skip
        ctx.change(hero, "grit", -ctx.hero(hero).grit, rule="FT-TRAVEL-D65", why="bumps and bruises: all Grit")


@hazard(66)
def traveler_on_the_road(ctx: Ctx, roller: str) -> Procedure:
    """The rolling Hero meets a stranger: a D6 on the sub-table, never re-rolled or canceled (FT-TRAVEL-D66)."""
    stranger = yield from ctx.d6("Traveler on the Road: who is the stranger?", hero=roller, rule="FT-TRAVEL-D66",
                                 asks=Asks.ROLL_FOR, said=roll_for(RollFor.STRANGER, "Traveler on the Road"))
    if stranger <= 2:
        yield from scarlet_shadow(ctx)
    elif stranger <= 5:
        yield from traveling_missionary(ctx)
    else:
        yield from shadowy_traveler(ctx, roller)


def scarlet_shadow(ctx: Ctx) -> Procedure:
    """Every Outlaw (a Wanted hero counts, A18) or hero with 4+ Corruption loses D6 x $50; if no Gold was lost
    this way (A51, `scarlet_shadow_literal`), every Hero Recovers up to Max Grit (FT-TRAVEL-D66, 1-2)."""
    targets = [hero for hero in ctx.heroes()
               if ctx.hero(hero).has_keyword("Outlaw") or ctx.hero(hero).corruption >= 4]
    lost = 0
    for hero in targets:
        robbed = yield from ctx.d6("The Scarlet Shadow: D6 x $50", hero=hero, rule="FT-TRAVEL-D66",
                                   asks=Asks.ROLL_FOR, said=roll_for(RollFor.GOLD_LOST, "The Scarlet Shadow", count=50))
        lost -= ctx.change(hero, "gold", -50 * robbed, rule="FT-TRAVEL-D66", why="robbed by The Scarlet Shadow")
    nobody_robbed = lost == 0 if ctx.state.options.scarlet_shadow_literal else not targets
    if not nobody_robbed:
        return
    for hero in ctx.heroes():
        ctx.change(hero, "grit", ctx.hero(hero).max_grit - ctx.hero(hero).grit, rule="FT-TRAVEL-D66",
                   why="The Scarlet Shadow took no Gold: Recover up to Max Grit")


def traveling_missionary(ctx: Ctx) -> Procedure:
    """Every Hero fully heals their Sanity and removes D3 Corruption Points (FT-TRAVEL-D66, 3-5)."""
    for hero in ctx.heroes():
        ctx.change(hero, "sanity_damage", -ctx.hero(hero).sanity_damage, rule="FT-TRAVEL-D66",
                   why="Traveling Missionary")
        yield from remove_d3_corruption(ctx, hero, "Traveling Missionary", rule="FT-TRAVEL-D66")


def shadowy_traveler(ctx: Ctx, roller: str) -> Procedure:
    """Mr. Scratch: a hero who took his deal is taken for good (A50); otherwise take the deal (D6 x 100 XP and
    D6 x $100) or refuse with a Spirit 6+ or Cunning 6+ test (FT-TRAVEL-D66, 6)."""
    name = ctx.name(roller)
    if ctx.hero(roller).scratch_deal:
        ctx.set_value(roller, "removed", True, rule="FT-TRAVEL-D66", why="Mr. Scratch collects")
        ctx.emit("hero_removed", f"Mr. Scratch has returned to collect: {name} is taken off into the night, "
                 "never to be heard from again", hero=roller, rule="FT-TRAVEL-D66", why="Mr. Scratch collects")

        return
    deal = yield from ctx.choose(
        "Shadowy Traveler: take Mr. Scratch's deal (D6 x 100 XP and D6 x $100, but if you roll this again he "
        "takes you) or refuse (Spirit 6+ or Cunning 6+)?",
        [Option("accept", "Take the deal", Part.JOIN, gains=(Amount("xp", 100, dice="d6"), Amount("gold", 100, dice="d6")),
                says=Says.TAKE_DEAL),
         Option("refuse", "Refuse the deal", Part.DECLINE, says=Says.REFUSE_DEAL)], hero=roller, rule="FT-TRAVEL-D66",
        asks=Asks.SCRATCH_DEAL)  # fmt: skip
    if deal == "accept":
        xp = yield from ctx.d6("Mr. Scratch's deal: D6 x 100 XP", hero=roller, rule="FT-TRAVEL-D66",
                               asks=Asks.ROLL_FOR, said=roll_for(RollFor.XP, "Mr. Scratch", count=100))
        ctx.change(roller, "xp", 100 * xp, rule="FT-TRAVEL-D66", why="Mr. Scratch's deal")
        gold = yield from ctx.d6("Mr. Scratch's deal: D6 x $100", hero=roller, rule="FT-TRAVEL-D66",
                                 asks=Asks.ROLL_FOR, said=roll_for(RollFor.GOLD, "Mr. Scratch", count=100))
        ctx.change(roller, "gold", 100 * gold, rule="FT-TRAVEL-D66", why="Mr. Scratch's deal")
        ctx.set_value(roller, "scratch_deal", True, rule="FT-TRAVEL-D66", why="Mr. Scratch will return")
        return
    test = yield from either_test(ctx, roller, ("spirit", "cunning"), 6, "Refusing Mr. Scratch",
                                  rule="FT-TRAVEL-D66")
    if test.passed:
        ctx.change(roller, "xp", 50, rule="FT-TRAVEL-D66", why="found a way out of the deal")
    else:
        corruption = yield from ctx.d6("Mr. Scratch: D6+1 Corruption Points", hero=roller, rule="FT-TRAVEL-D66",
                                       asks=Asks.ROLL_FOR, said=roll_for(RollFor.CORRUPTION_PLUS_ONE, "Mr. Scratch"))
        ctx.change(roller, "corruption", corruption + 1, rule="FT-TRAVEL-D66", why="ignoring Willpower")


def remove_d3_corruption(ctx: Ctx, hero: str, purpose: str, *, rule: str) -> Procedure:
    """Remove D3 Corruption Points (64, 66); a hero with none has nothing to roll for."""
    if not ctx.hero(hero).corruption:
        return
    amount = yield from ctx.d3(f"{purpose}: Corruption Points removed", hero=hero, rule=rule, asks=Asks.ROLL_FOR,
                               said=roll_for(RollFor.CORRUPTION_REMOVED, purpose))
    ctx.change(hero, "corruption", -amount, rule=rule, why=purpose)
