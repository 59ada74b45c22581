"""Arriving in town: the Specialty Town type, building the town, destroyed slots, and Unwanted Attention."""

from __future__ import annotations

from dataclasses import replace

from ...commands import Arrive, EndTownStay
from ...content import TOWN_SIZES, TOWN_TYPES, TownTypeRules, pack
from ...errors import InvalidCommand
from ...flow import Ctx, Procedure, Steps
from ...state import Carry, Phase, Slot, Town, TownSize

STANDARD = "Standard Frontier Town"


def arrive(ctx: Ctx, command: Arrive) -> Procedure:
    """Reach town: roll its type (FT-TOWN-02), construct it (FT-TOWN-03/05), then each hero gains UA (FT-UA-01)."""
    if not 0 <= command.destroyed_slots <= 8:
        raise InvalidCommand(
            "destroyed_slots: 0-8 Buildings destroyed from the start of the Stay",
            field="destroyed_slots",
            rule="FT-TOWN-05",
        )
    travel = ctx.state.travel
    size = TownSize.SMALL if travel is None or travel.turned_back else travel.size  # FT-TRAVEL-D42
    type_roll = yield from ctx.two_d6("the Specialty Town type", rule="FT-TOWN-02")
    town_type = TOWN_TYPES[type_roll]
    ctx.emit("town_type", f"The posse finds a {town_type} (2D6 = {type_roll})", rule="FT-TOWN-02")
    slots = yield from construct(ctx, size, town_type)
    destroyed = ctx.state.carry.destroyed_on_arrival + command.destroyed_slots
    slots = yield from destroy_random_buildings(ctx, slots, destroyed)
    ctx.update(
        town=Town(size, town_type, type_roll, slots, day=0),
        phase=Phase.TOWN,
        carry=replace(ctx.state.carry, destroyed_on_arrival=0),
    )
    for hero in ctx.heroes():
        markers = max(0, len(ctx.hero(hero).mutations) - 3)  # FT-UA-01: 1 per Mutation over 3
        if markers:
            ctx.change(hero, "unwanted_attention", markers, rule="FT-UA-01", why="Mutations over 3")
        if ctx.state.carry.dying_marshal:  # FT-TRAVEL-D62: D3 markers each on arrival
            extra = yield from ctx.d3("Dying Marshal: Unwanted Attention", hero=hero, rule="FT-TRAVEL-D62")
            ctx.change(hero, "unwanted_attention", extra, rule="FT-TRAVEL-D62", why="the escaped prisoner watches")


def construct(ctx: Ctx, size: TownSize, town_type: str) -> Steps[tuple[Slot, ...]]:
    """Fill the numbered slots: 'always' Locations first, 'never' ones out of the pool, the rest drawn (FT-TOWN-03)."""
    content = pack(ctx.state.pack)
    rules = content.town_types.get(town_type, TownTypeRules())
    pool = content.building_pool()
    count = TOWN_SIZES[size].locations
    placed: list[str] = []
    for location in rules.always[:count]:
        placed.append(location)
        pool.remove(location)
    pool = [location for location in pool if location not in rules.never]
    while len(placed) < count and pool:
        options = sorted({(location, location) for location in pool})
        drawn = yield from ctx.draw(f"the Building token for slot {len(placed) + 1}", options, rule="FT-TOWN-03")
        placed.append(drawn)
        pool.remove(drawn)
    if len(placed) < count:
        ctx.emit(
            "town_short", f"The Building pool ran out: {count - len(placed)} slot(s) stay empty", rule="FT-TOWN-03"
        )
    slots = tuple(Slot(number, location) for number, location in enumerate(placed, start=1))
    ctx.emit(
        "town_built",
        f"{size.value.capitalize()} {town_type}: "
        + ", ".join(f"{s.number} {s.location}" for s in slots)
        + "; plus the Hotel and the Camp Site",
        rule="FT-TOWN-03",
    )
    return slots


def destroy_random_buildings(ctx: Ctx, slots: tuple[Slot, ...], count: int) -> Steps[tuple[Slot, ...]]:
    """Flip `count` random numbered slots black side up; never the Hotel or Camp Site (FT-TOWN-05, A14)."""
    for _ in range(count):
        standing = [slot for slot in slots if not slot.destroyed]
        if not standing:
            break
        number = yield from ctx.draw(
            "a Random Building Slot to destroy",
            [(str(s.number), f"{s.number} {s.location}") for s in standing],
            rule="FT-TOWN-05",
        )
        slots = tuple(replace(s, destroyed=True) if str(s.number) == number else s for s in slots)
        ctx.emit("building_destroyed", f"Building slot {number} is Destroyed for this Town Stay", rule="FT-TOWN-04")
    return slots


def end_town_stay(ctx: Ctx, command: EndTownStay) -> None:
    """Leave town: every Unwanted Attention marker is removed (FT-UA-06); the town-stay flags end (FT-TRAVEL-05)."""
    for hero in ctx.heroes():
        ctx.change(
            hero, "unwanted_attention", -ctx.hero(hero).unwanted_attention, rule="FT-UA-06", why="the Town Stay is over"
        )
    carry = ctx.state.carry
    ctx.update(
        phase=Phase.BETWEEN_ADVENTURES,
        town=None,
        travel=None,
        carry=Carry(extra_revive_tokens=carry.extra_revive_tokens, blood_moon=carry.blood_moon),
    )
    ctx.emit("phase", "The Town Stay ends; on to the next Adventure", rule="FT-UA-06")
