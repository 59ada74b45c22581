"""Buying and selling in town: the Location's wares and the Specialty Town's Extra Options at the pack's prices (or
the card's, typed in), the Blacksmith's Side Bag repair (FT-TRAVEL-D12), Side Bag capacity (FF-HERO-08), and Dark
Stone sold with the Dark Stone Convoy's +$25 a shard (FT-TRAVEL-D24)."""

from __future__ import annotations

from dataclasses import dataclass

from ...commands import Buy, Effect, Sell
from ...content.stay import PRINTED_TOKENS, WARE_KINDS, SaleOffer, Ware
from ...effects import check_effects, item_id
from ...errors import IllegalCommand, InvalidCommand
from ...flow import Ctx, Procedure, apply_effect
from ...prompts import Amount, Option
from ...state import Hero, Item, ItemTag, Session
from .common import BLACKSMITH, active_hero, apply_effects, change, content, day_under_way, price, stay_of
from .days import no_wheel_round

REPAIR = Ware("Repair Side Bag", "service", 500)  # FT-TRAVEL-D12: $500 at a Blacksmith
_REPAIR_EFFECT = Effect("repair_bag")
DARK_STONE = "Dark Stone"
MAX_COUNT = 99


def at_location(state: Session, hero: str) -> str:
    """The Location `hero` is visiting now, or a refusal naming the rule."""
    day_under_way(state)
    active_hero(state, hero)
    visit = stay_of(state).open_visit(hero)
    if visit is None:
        raise IllegalCommand(f"hero: {state.hero(hero).name} is not visiting a Location: buying and selling happen "
                             "on a visit (R-STAY-15)", field="hero", rule="R-STAY-15")  # fmt: skip
    wheel = stay_of(state).wheel
    if wheel is not None and wheel.hero == hero:
        no_wheel_round(state)
    return visit.location


def wares(state: Session, hero: str, location: str) -> list[Ware]:
    """What `hero` can buy at `location`: its card's shop, the Specialty Town's Extra Options sold there or anywhere
    (FT-TOWN-08), and a Blacksmith's repair of a torn Side Bag (FT-TRAVEL-D12)."""
    stay_content = content(state)
    town_type = state.town.town_type if state.town is not None else ""
    out = list(stay_content.location(location).shop)
    out += [w for w in stay_content.town_type(town_type).extra_options if w.location in ("", location)]
    if location == BLACKSMITH and state.hero(hero).bag_torn and all(w.name != REPAIR.name for w in out):
        out.append(REPAIR)
    return out


def pack_lists_shops(state: Session) -> bool:
    """Whether the pack describes what Locations sell: then nothing else is sold."""
    return any(card.shop for card in content(state).locations.values())


def offers(state: Session, hero: str) -> tuple[Option, ...]:
    """The wares `hero` may buy now on their visit, as options with their price and what they give (for the app)."""
    visit = stay_of(state).open_visit(hero)
    if visit is None:
        return ()
    gold = state.hero(hero).gold
    out = []
    for ware in wares(state, hero, visit.location):
        if ware.price <= gold and not _no_room(state, hero, ware):
            gives = Amount("token" if ware.kind == "token" else "item", 1, ware.name) if ware.kind != "service" else None
            out.append(Option(ware.name, f"{ware.name} (${ware.price})", costs=(Amount("gold", ware.price),),
                              gains=(gives,) if gives else ()))  # fmt: skip
    return tuple(out)


def _no_room(state: Session, hero: str, ware: Ware) -> bool:
    sheet = state.hero(hero)
    return ware.kind == "token" and len(sheet.side_bag) >= sheet.side_bag_capacity


@dataclass(frozen=True, slots=True)
class _Deal:
    ware: Ware
    cost: int


def _deal(state: Session, command: Buy) -> _Deal:
    location = at_location(state, command.hero)
    listed = next((w for w in wares(state, command.hero, location) if w.name == command.ware), None)
    if listed is not None:
        if command.kind or command.tags or command.effects:
            raise InvalidCommand(f"ware: the content pack says what {command.ware} is; give only its name (and price)",
                                 field="kind" if command.kind else "tags" if command.tags else "effects")  # fmt: skip
        return _Deal(listed, price(listed.price, command.price, command.ware, rule="R-STAY-15"))
    if pack_lists_shops(state) or not command.ware.strip():
        sold = [w.name for w in wares(state, command.hero, location)]
        raise IllegalCommand(f"ware: the {location} does not sell {command.ware!r} here; it sells {sold} (the content "
                             "pack's shop, R-STAY-15)", field="ware", rule="R-STAY-15")  # fmt: skip
    kind = command.kind or ("token" if command.ware in PRINTED_TOKENS or command.ware in content(state).tokens
                            else "")  # fmt: skip
    if kind not in WARE_KINDS:
        raise InvalidCommand(f"kind: the content pack does not list {command.ware!r}: say whether it is a token, an "
                             "item or a service", field="kind")  # fmt: skip
    bad = [t for t in command.tags if t not in {tag.value for tag in ItemTag}]
    if bad or (command.tags and kind != "item"):
        raise InvalidCommand(f"tags: only items have tags, among {sorted(t.value for t in ItemTag)}", field="tags")
    if command.effects and kind != "service":
        raise InvalidCommand("effects: only a service has effects on the buyer", field="effects")
    check_effects(state, command.hero, command.effects)
    cost = price(None, command.price, command.ware, rule="R-STAY-15")
    return _Deal(Ware(command.ware, kind, cost, command.tags, 0, command.effects), cost)


def check_buy(state: Session, command: Buy) -> None:
    deal = _deal(state, command)
    hero = state.hero(command.hero)
    if hero.gold < deal.cost:
        raise IllegalCommand(f"price: {command.ware} costs ${deal.cost} and {hero.name} has ${hero.gold}",
                             field="price", rule="A8")  # fmt: skip
    if _no_room(state, command.hero, deal.ware):
        raise IllegalCommand(f"ware: {hero.name}'s Side Bag is full ({len(hero.side_bag)} of "
                             f"{hero.side_bag_capacity})", field="ware", rule="FF-HERO-08")  # fmt: skip


def buy(ctx: Ctx, command: Buy) -> Procedure:
    """Pay and take the ware: a token into the Side Bag, an item card, or a service's effects."""
    deal = _deal(ctx.state, command)
    hero, ware = command.hero, deal.ware
    change(ctx, hero, "gold", -deal.cost, rule="FT-TOWN-07", why=f"buys {ware.name}")
    ctx.emit("purchase", f"{ctx.name(hero)} buys {ware.name} for ${deal.cost}", hero=hero, rule="FT-TOWN-07",
             item=ware.name, price=deal.cost)  # fmt: skip
    if ware is REPAIR:
        apply_effect(ctx, hero, _REPAIR_EFFECT, rule="FT-TRAVEL-D12")
    elif ware.kind == "token":
        ctx.add_token(hero, ware.name, rule="FT-TOWN-07")
    elif ware.kind == "item":
        tags = frozenset(ItemTag(t) for t in ware.tags)
        ctx.add_item(hero, Item(item_id(ware.name), ware.name, tags, ware.hourglass), rule="FT-TOWN-07")
    else:
        apply_effects(ctx, hero, ware.effects, rule="FT-TOWN-07")
    yield from ()


# ---- selling -----------------------------------------------------------------------------------------------------
def _what(state: Session, command: Sell) -> tuple[str, str]:
    """(kind, name) of what is sold: Dark Stone shards, an item (by id or name) or a token."""
    if command.ware.replace("_", " ").lower() == DARK_STONE.lower():
        return "dark_stone", DARK_STONE
    hero = state.hero(command.hero)
    item = _item(hero, command.ware)
    if item is not None and ItemTag.STARTING not in item.tags:
        return "item", item.name
    if command.ware in hero.side_bag:  # a token, even when a Starting Item bears the same name
        return "token", command.ware
    if item is not None:
        return "item", item.name  # a Starting Item: refused below (FF-HERO-07)
    raise IllegalCommand(f"ware: {hero.name} has no {command.ware!r} to sell", field="ware", rule="R-STAY-15")


def _sale(state: Session, command: Sell) -> tuple[str, str, int]:
    location = at_location(state, command.hero)
    if not 1 <= command.count <= MAX_COUNT:
        raise InvalidCommand(f"count: sell 1-{MAX_COUNT} at a time", field="count")
    kind, name = _what(state, command)
    hero = state.hero(command.hero)
    if kind == "dark_stone" and command.count > hero.dark_stone:
        raise IllegalCommand(f"count: {hero.name} has {hero.dark_stone} Dark Stone", field="count", rule="R-STAY-15")
    if kind == "item":
        item = _item(hero, command.ware)
        assert item is not None
        if ItemTag.STARTING in item.tags:
            raise IllegalCommand(f"ware: {item.name} is a Starting Item: never traded", field="ware",
                                 rule="FF-HERO-07")  # fmt: skip
    if kind != "dark_stone" and command.count != 1:
        raise InvalidCommand("count: items and tokens are sold one at a time", field="count")
    offers: tuple[SaleOffer, ...] = content(state).location(location).buys
    listed = next((o for o in offers if o.kind == kind and o.name == name), None)
    if listed is None and any(card.buys for card in content(state).locations.values()):
        raise IllegalCommand(f"ware: the {location} does not buy {name} (the content pack's `buys`, R-STAY-15)",
                             field="ware", rule="R-STAY-15")  # fmt: skip
    each = price(listed.price if listed else None, command.price, name, rule="R-STAY-15")
    return kind, name, each


def _item(hero: Hero, ware: str) -> Item | None:
    """The item `ware` names (by id or name), one that may be traded first (FF-HERO-07)."""
    named = [i for i in hero.items if ware in (i.id, i.name)]
    return next((i for i in named if ItemTag.STARTING not in i.tags), named[0] if named else None)


def check_sell(state: Session, command: Sell) -> None:
    _sale(state, command)


def sell(ctx: Ctx, command: Sell) -> Procedure:
    """Sell: each Dark Stone shard is worth $25 more with the Dark Stone Convoy (FT-TRAVEL-D24)."""
    kind, name, each = _sale(ctx.state, command)
    hero = command.hero
    bonus = ctx.state.carry.dark_stone_bonus if kind == "dark_stone" else 0
    if kind == "dark_stone":
        ctx.change(hero, "dark_stone", -command.count, rule="FT-TOWN-07", why="sold")
    elif kind == "item":
        item = _item(ctx.hero(hero), command.ware)
        assert item is not None
        ctx.remove_item(hero, item.id, rule="FT-TOWN-07", why="sold")
    else:
        ctx.remove_token(hero, ctx.hero(hero).side_bag.index(name), rule="FT-TOWN-07", why="sold")
    total = (each + bonus) * command.count
    change(ctx, hero, "gold", total, rule="FT-TRAVEL-D24" if bonus else "FT-TOWN-07",
           why=f"{command.count} x {name} at ${each}" + (f" + ${bonus} Dark Stone Convoy" if bonus else ""))  # fmt: skip
    ctx.emit("sale", f"{ctx.name(hero)} sells {command.count} x {name} for ${total}", hero=hero,
             rule="FT-TRAVEL-D24" if bonus else "FT-TOWN-07", item=name, count=command.count, price=total)  # fmt: skip
    yield from ()


def saleable(state: Session, hero: str) -> tuple[str, ...]:
    """What `hero` could offer for sale where they are (what the Location buys, when the pack says)."""
    visit = stay_of(state).open_visit(hero)
    if visit is None:
        return ()
    sheet = state.hero(hero)
    things = ([DARK_STONE] if sheet.dark_stone else []) + [i.id for i in sheet.items if ItemTag.STARTING not in i.tags]
    things += list(dict.fromkeys(sheet.side_bag))
    if not any(card.buys for card in content(state).locations.values()):
        return tuple(things)
    buys = content(state).location(visit.location).buys
    names = {(o.kind, o.name) for o in buys}
    out = [DARK_STONE] if sheet.dark_stone and ("dark_stone", DARK_STONE) in names else []
    out += [i.id for i in sheet.items if ("item", i.name) in names and ItemTag.STARTING not in i.tags]
    out += [t for t in dict.fromkeys(sheet.side_bag) if ("token", t) in names]
    return tuple(out)
