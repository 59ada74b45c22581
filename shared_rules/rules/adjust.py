"""Manual adjustments and card effects: whatever the physical game changed, recorded through the engine."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ..commands import Adjust, Effect
from ..errors import IllegalCommand, InvalidCommand
from ..flow import HERO_FIELDS, Ctx, _bounded, bounds
from ..legal import LegalCommand
from ..state import SIDE_BAG_CAPACITY, SKILLS, TORN_BAG_PENALTY, Hero, Item, ItemTag, Session, Skills
from .area import Area, CommandRule

OPS = frozenset({
    "change", "set", "add_item", "remove_item", "add_token", "remove_token", "add_mutation", "remove_mutation",
    "add_keyword", "remove_keyword", "tear_bag", "repair_bag",
})  # fmt: skip
_TAGS = {tag.value for tag in ItemTag}


MAX_AMOUNT = 1_000_000  # no card moves a value by a million; keeps "a D6 per Dark Stone" pools finite
MAX_SKILL = 12


def check_effect(effect: Effect, where: str) -> None:
    """Refuse an effect that is malformed whoever it applies to: the op, the field, the name, the tags, the amounts."""
    if effect.op not in OPS:
        raise InvalidCommand(f"{where}.op: unknown op {effect.op!r}; one of {sorted(OPS)}", field=f"{where}.op")
    if effect.op in ("change", "set") and effect.field not in (*HERO_FIELDS, *SKILLS):
        raise InvalidCommand(
            f"{where}.field: {effect.field!r} is not a hero value; one of {sorted((*HERO_FIELDS, *SKILLS))}",
            field=f"{where}.field",
        )
    if effect.op in ("change", "set") and abs(effect.amount) > MAX_AMOUNT:
        raise InvalidCommand(f"{where}.amount: at most {MAX_AMOUNT} at a time", field=f"{where}.amount")
    if effect.op == "set" and effect.field in SKILLS and not 0 <= effect.amount <= MAX_SKILL:
        raise InvalidCommand(f"{where}.amount: a skill is 0-{MAX_SKILL}", field=f"{where}.amount")
    if effect.op.startswith(("add_", "remove_")) and not effect.name.strip():
        raise InvalidCommand(f"{where}.name: {effect.op} needs a name", field=f"{where}.name")
    bad = [t for t in effect.tags if t not in _TAGS]
    if bad:
        raise InvalidCommand(f"{where}.tags: unknown item tags {bad}; one of {sorted(_TAGS)}", field=f"{where}.tags")
    if effect.hourglass < 0 or effect.dark_stone_upgrades < 0:
        raise InvalidCommand(f"{where}: icon counts cannot be negative", field=where)


def check_effects(state: Session, hero_id: str, effects: Iterable[Effect], field: str = "effects") -> None:
    """Refuse malformed effects before anything is applied (never a half-applied command).

    Effects apply in order, so what an effect removes must be there after the effects before it.
    """
    try:
        hero = state.hero(hero_id)
    except KeyError:
        raise InvalidCommand(f"hero: no hero {hero_id!r} in this posse", field="hero") from None
    items = [(i.id, i.name) for i in hero.items]
    tokens, mutations = list(hero.side_bag), list(hero.mutations)
    capacity = hero.side_bag_capacity
    for index, effect in enumerate(effects):
        where = f"{field}[{index}]"
        check_effect(effect, where)
        if (
            effect.op == "set"
            and effect.field in HERO_FIELDS
            and _bounded(hero, effect.field, effect.amount) != effect.amount
        ):
            raise _out_of_bounds(hero, effect.field, effect.amount, f"{where}.amount")
        if effect.op == "remove_item":
            held = next((i for i in items if effect.name in i), None)
            if held is None:
                raise IllegalCommand(f"{where}.name: {hero.name} has no item {effect.name!r}", field=f"{where}.name")
            items.remove(held)
        elif effect.op == "add_item":
            items.append((_item_id(effect.name), effect.name))
        elif effect.op == "remove_token":
            if effect.name not in tokens:
                raise IllegalCommand(f"{where}.name: {hero.name} has no {effect.name!r} token", field=f"{where}.name")
            tokens.remove(effect.name)
        elif effect.op == "add_token":
            if len(tokens) >= capacity:
                raise IllegalCommand(
                    f"{where}.name: {hero.name}'s Side Bag already holds {len(tokens)} tokens, its limit of {capacity} "
                    f"(FF-HERO-08): no room for {effect.name}; leave one first (a remove_token before this effect)",
                    field=f"{where}.name",
                    rule="FF-HERO-08",
                )
            tokens.append(effect.name)
        elif effect.op in ("tear_bag", "repair_bag"):
            capacity = SIDE_BAG_CAPACITY - (TORN_BAG_PENALTY if effect.op == "tear_bag" else 0)
            del tokens[capacity:]
        elif effect.op == "remove_mutation":
            if effect.name not in mutations:
                raise IllegalCommand(
                    f"{where}.name: {hero.name} has no mutation {effect.name!r}", field=f"{where}.name"
                )
            mutations.remove(effect.name)
        elif effect.op == "add_mutation":
            mutations.append(effect.name)


_WHY_BOUNDED = {
    "wounds": (": Wounds stop at Health (health_base + health_mod), where the Hero is KO'd", "FF-HERO-02"),
    "sanity_damage": (": Sanity Damage stops at Sanity (sanity_base + sanity_mod), where the Hero is KO'd",
                      "FF-HERO-03"),
    "grit": (": Grit stops at max_grit", "FF-GRIT-01"),
    "health_mod": (": Health never drops below 0", "FF-HERO-02"),
    "sanity_mod": (": Sanity never drops below 0", "FF-HERO-03"),
}
"""Why a sheet value is bounded, and the rule (the sheet's fields, FF-HERO-01, for the rest)."""


def _out_of_bounds(hero: Hero, name: str, value: int, field: str) -> InvalidCommand:
    """The refusal of `value` for the hero's counter `name`: the field, the bound, why and the rule."""
    low, high = bounds(hero, name)
    span = f"at least {low}" if high is None else f"{low}..{high}"
    why, rule = _WHY_BOUNDED.get(name, ("", "FF-HERO-01"))
    return InvalidCommand(f"{field}: {name} {value} is outside {span} for {hero.name or hero.id!r}{why} ({rule})",
                          field=field, rule=rule)


def check_hero(hero: Hero, where: str) -> None:
    """Refuse a hero sheet whose values are out of their bounds (the same bounds every change keeps)."""
    for name in HERO_FIELDS:
        value = getattr(hero, name)
        if _bounded(hero, name, value) != value:
            raise _out_of_bounds(hero, name, value, f"{where}.{name}")
    for skill in SKILLS:
        if not 0 <= getattr(hero.skills, skill) <= MAX_SKILL:
            raise InvalidCommand(f"{where}.skills.{skill}: a skill is 0-{MAX_SKILL}", field=f"{where}.skills.{skill}")
    if len(hero.side_bag) > hero.side_bag_capacity:
        raise InvalidCommand(
            f"{where}.side_bag: {len(hero.side_bag)} tokens do not fit a Side Bag of {hero.side_bag_capacity} "
            "(FF-HERO-08)",
            field=f"{where}.side_bag",
            rule="FF-HERO-08",
        )
    ids = [i.id for i in hero.items]
    for index, held in enumerate(hero.items):
        if not held.id or ids.count(held.id) > 1:
            raise InvalidCommand(f"{where}.items[{index}].id: item ids are unique and non-empty",
                                 field=f"{where}.items[{index}].id")  # fmt: skip
        if held.hourglass < 0 or held.dark_stone_upgrades < 0:
            raise InvalidCommand(
                f"{where}.items[{index}]: icon counts cannot be negative", field=f"{where}.items[{index}]"
            )


def apply_effect(ctx: Ctx, hero_id: str, effect: Effect, *, rule: str, field: str = "effects") -> None:
    """Apply one checked effect to a hero, through the same bounded changes the rules use."""
    hero = ctx.hero(hero_id)
    op = effect.op
    if op in ("change", "set") and effect.field in SKILLS:
        value = effect.amount if op == "set" else getattr(hero.skills, effect.field) + effect.amount
        value = max(0, min(MAX_SKILL, value))
        skills = {s: getattr(hero.skills, s) for s in SKILLS} | {effect.field: value}
        ctx.set_value(hero_id, "skills", Skills(**skills), rule=rule, why=f"{effect.field} {value}",
                      skill=effect.field, level=value)  # fmt: skip
    elif op == "change":
        ctx.change(hero_id, effect.field, effect.amount, rule=rule)
    elif op == "set":
        ctx.change(hero_id, effect.field, effect.amount - getattr(hero, effect.field), rule=rule)
    elif op == "add_item":
        item = Item(
            _item_id(effect.name),
            effect.name,
            frozenset(ItemTag(t) for t in effect.tags),
            effect.hourglass,
            effect.dark_stone_upgrades,
        )
        ctx.add_item(hero_id, item, rule=rule)
    elif op in ("remove_item", "remove_token", "remove_mutation") and not _holds(hero, op, effect.name):
        ctx.emit("nothing_lost", f"{hero.name} has no {effect.name} to lose", hero=hero_id, rule=rule)  # a chart
    elif op == "remove_item":
        item = next(i for i in hero.items if effect.name in (i.id, i.name))
        ctx.remove_item(hero_id, item.id, rule=rule)
    elif op == "add_token":
        ctx.add_token(hero_id, effect.name, rule=rule)
    elif op == "remove_token":
        ctx.remove_token(hero_id, hero.side_bag.index(effect.name), rule=rule)
    elif op == "add_mutation":
        ctx.set_value(hero_id, "mutations", (*hero.mutations, effect.name), rule=rule, why=f"+{effect.name}")
    elif op == "remove_mutation":
        rest = list(hero.mutations)
        rest.remove(effect.name)
        ctx.set_value(hero_id, "mutations", tuple(rest), rule=rule, why=f"-{effect.name}")
    elif op == "add_keyword":
        if effect.name not in hero.keywords:
            ctx.set_value(hero_id, "keywords", (*hero.keywords, effect.name), rule=rule)
    elif op == "remove_keyword":
        ctx.set_value(hero_id, "keywords", tuple(k for k in hero.keywords if k != effect.name), rule=rule)
    elif op == "tear_bag":
        ctx.set_value(hero_id, "bag_torn", True, rule="FT-TRAVEL-D12")
        while len(ctx.hero(hero_id).side_bag) > ctx.hero(hero_id).side_bag_capacity:  # newest tokens fall out
            ctx.remove_token(hero_id, len(ctx.hero(hero_id).side_bag) - 1, rule="FF-HERO-08", why="torn Side Bag")
    elif op == "repair_bag":
        ctx.set_value(hero_id, "bag_torn", False, rule="FT-TRAVEL-D12", why="repaired for $500 at a Blacksmith")


def _item_id(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "item"


def _holds(hero: Hero, op: str, name: str) -> bool:
    if op == "remove_item":
        return any(name in (i.id, i.name) for i in hero.items)
    return name in (hero.side_bag if op == "remove_token" else hero.mutations)


def adjust(ctx: Ctx, command: Adjust) -> None:
    """Record a manual adjustment (the physical game changed a value) as events like any other."""
    check_effects(ctx.state, command.hero, command.effects)
    if ctx.hero(command.hero).removed:
        raise IllegalCommand(f"hero: {ctx.name(command.hero)} was taken from the game", field="hero")
    if not command.effects:
        raise InvalidCommand("effects: an adjustment needs at least one effect", field="effects")
    ctx.emit(
        "adjusted",
        f"{ctx.name(command.hero)}: {command.reason or 'adjusted at the table'}",
        hero=command.hero,
        rule="MANUAL",
    )
    for effect in command.effects:
        apply_effect(ctx, command.hero, effect, rule="MANUAL")


def legal(state: Session) -> Iterator[LegalCommand]:
    yield LegalCommand(
        "adjust", options=tuple(h.id for h in state.active_heroes), note="record what the physical game changed"
    )


AREA = Area("table", {"adjust": CommandRule(adjust)}, legal)  # adjustments are legal in every phase
