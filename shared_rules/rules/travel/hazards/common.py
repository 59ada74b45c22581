"""Pieces several Travel Hazards share: the registry, Grit losses, Willpower saves, losing items and tokens."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ....dice import DieKind, Roll
from ....events import Fact
from ....flow import Ctx, Procedure, Steps
from ....prompts import Asks, Option, RollFor, Says, SkillCheck, roll_for
from ....state import Item, ItemTag

Hazard = Callable[[Ctx, str], Procedure]
HAZARDS: Final[dict[int, Hazard]] = {}


def hazard(roll: int) -> Callable[[Hazard], Hazard]:
    """Register the rule for one D36 result of the Expanded Travel Hazard Chart."""

    def register(rule: Hazard) -> Hazard:
        HAZARDS[roll] = rule
        return rule

    return register


_TAKEN = {"wounds": RollFor.WOUNDS, "sanity_damage": RollFor.SANITY_DAMAGE}  # what the D3 without Grit is


def lose_grit_or_take(ctx: Ctx, hero: str, field: str, *, purpose: str, rule: str) -> Procedure:
    """Lose 1 Grit; a hero with none takes D3 of `field` instead (22 Blighted Desert, 35 Ruined Fort)."""
    if ctx.hero(hero).grit >= 1:
        ctx.change(hero, "grit", -1, rule=rule, why=purpose)
    else:
        amount = yield from ctx.d3(f"{purpose}: no Grit to lose", hero=hero, rule=rule, asks=Asks.ROLL_FOR,
                                   said=roll_for(_TAKEN[field], purpose))  # fmt: skip
        ctx.change(hero, field, amount, rule=rule, why=f"{purpose}, carries over to the next Adventure")


def willpower_saves(ctx: Ctx, hero: str, hits: int, *, purpose: str, name: str, rule: str) -> Procedure:
    """Roll a Willpower save for each Hit (FF-HERO-05); returns how many were not saved. `name` is the hazard's."""
    willpower = ctx.hero(hero).willpower
    roll = yield from ctx.roll(DieKind.POOL, f"{purpose}: Willpower {willpower}+ saves", hero=hero, pool=hits,
                               target=willpower, chart=True, rule="FF-HERO-05", asks=Asks.ROLL_FOR,
                               said=roll_for(RollFor.WILLPOWER_SAVES, name, target=willpower))  # fmt: skip
    return hits - roll.successes


def choose_item(ctx: Ctx, hero: str, items: list[Item], question: str, *, name: str, rule: str) -> Procedure:
    """The hero picks one of `items` (returns its id), or None when there is nothing to pick; `name` is the
    hazard's, for the prompt's words."""
    if not items:
        return None
    return (yield from ctx.choose(question, [(i.id, i.name) for i in items], hero=hero, rule=rule,
                                  asks=Asks.WHICH_ITEM, said=(("name", name),)))  # fmt: skip


def fit_side_bag(ctx: Ctx, hero: str, *, rule: str) -> Procedure:
    """While the Side Bag holds more than its capacity, the hero discards a token of their choice (FF-HERO-08)."""
    while len(ctx.hero(hero).side_bag) > ctx.hero(hero).side_bag_capacity:
        bag = ctx.hero(hero).side_bag
        options = [(str(i), token) for i, token in enumerate(bag)]
        index = yield from ctx.choose("Your Side Bag is over capacity: discard which token?", options, hero=hero,
                                      rule="FF-HERO-08", asks=Asks.DISCARD_TOKEN)  # fmt: skip
        ctx.remove_token(hero, int(index), rule=rule, why="no room in the torn Side Bag")


def discard_transport(ctx: Ctx, hero: str, *, rule: str, why: str) -> list[Item]:
    """Discard every Transport Item the hero has (21 Mimic Beast, 23 Living Hills); returns what was lost."""
    lost = [item for item in ctx.hero(hero).items if ItemTag.TRANSPORT in item.tags]
    for item in lost:
        ctx.remove_item(hero, item.id, rule=rule, why=why)
    return lost


def plus_one(ctx: Ctx, hero: str, stat: str, *, rule: str, why: str) -> None:
    """"+1 Health" / "+1 Sanity" (34, 51): a permanent max increase (A41); with the option off, Heal 1."""
    if stat not in ("health", "sanity"):
        raise ValueError(f"stat: {stat!r} is not 'health' or 'sanity'")
    if ctx.state.options.plus_one_is_permanent:
        ctx.change(hero, f"{stat}_mod", 1, rule=rule, why=why)
    else:
        damage = "wounds" if stat == "health" else "sanity_damage"
        ctx.change(hero, damage, -1, rule=rule, why=f"{why} (heal 1)")


def takes_part(ctx: Ctx, hero: str, question: str, join: Option, skip: Option, *, name: str,
               rule: str) -> Steps[bool]:  # fmt: skip
    """An optional hazard (46, 55, 64) named `name`: the hero chooses to take part (`join`) or pass it by (`skip`);
    every Hero is asked in turn."""
    choice = yield from ctx.choose(question, [join, skip], hero=hero, rule=rule, alike="take_part", each=True,
                                   asks=Asks.TAKE_PART, said=(("name", name),))  # fmt: skip
    return choice == join.key


def either_test(
    ctx: Ctx, hero: str, skills: tuple[str, str], target: int, purpose: str, *, rule: str, each: bool = False
) -> Steps[Roll]:
    """"A <Skill> N+ or <Skill> N+ test" (56, 65, 66): the hero picks the skill, then tests it; `each` when every
    Hero takes it in turn (56, 65)."""
    options = []
    for skill in skills:
        n = ctx.skill(hero, skill)
        label = "" if ctx.quiet else f"{skill.capitalize()} {target}+ ({n} dice)"  # words for a table's prompt only
        options.append(Option(skill, label, test=SkillCheck(skill, target), says=Says.SKILL,
                              facts=(Fact("count", n),)))  # fmt: skip
    skill = yield from ctx.choose("" if ctx.quiet else f"{purpose}: which test?", options, hero=hero, rule=rule,
                                  alike="which_test", each=each, asks=Asks.WHICH_TEST,
                                  said=(("name", purpose),))  # fmt: skip
    return (yield from ctx.skill_test(hero, skill, target, purpose, rule=rule))
