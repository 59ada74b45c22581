"""Arriving in town: the Specialty Town type, building the town and its destroyed slots; the Stay then begins
(rules/stay). Also a fresh town of the same size and type after a successful Town Mission (FT-TOWN-09)."""

from __future__ import annotations

from ...commands import Arrive
from ...content import TOWN_SIZES, TOWN_TYPES, TownTypeRules, pack
from ...errors import IllegalCommand, InvalidCommand
from ...flow import Ctx, Procedure, Steps
from ...frozen import replace
from ...prompts import Asks
from ...state import Phase, Slot, Town, TownSize
from ..stay import begin_stay

STANDARD = "Standard Frontier Town"
_NO_RULES = TownTypeRules()  # a Town type the pack says nothing of: no Location always or never present


def arrive(ctx: Ctx, command: Arrive) -> Procedure:
    """Reach town: roll its type (FT-TOWN-02), construct it (FT-TOWN-03/05), then the Stay begins at dawn of Day 1
    with each hero's Unwanted Attention (FT-UA-01, FT-TRAVEL-D62)."""
    if not 0 <= command.destroyed_slots <= 8:
        raise InvalidCommand(
            "destroyed_slots: 0-8 Buildings destroyed from the start of the Stay",
            field="destroyed_slots",
            rule="FT-TOWN-05",
        )
    travel = ctx.state_but_heroes.travel  # the heroes the road changed are folded in by the update below
    size = TownSize.SMALL if travel is None or travel.turned_back else travel.size  # FT-TRAVEL-D42
    type_roll = yield from ctx.two_d6("the Specialty Town type", rule="FT-TOWN-02", asks=Asks.TOWN_TYPE)
    town_type = TOWN_TYPES[type_roll]
    if ctx.tells("town_type"):
        ctx.emit("town_type", f"The posse finds a {town_type} (2D6 = {type_roll})", rule="FT-TOWN-02",
                 town_type=town_type, value=type_roll)  # fmt: skip
    slots = yield from construct(ctx, size, town_type)
    carry = ctx.state_but_heroes.carry
    slots = yield from destroy_random_buildings(ctx, slots, carry.destroyed_on_arrival + command.destroyed_slots)
    ctx.update(
        town=Town(size, town_type, type_roll, slots),
        phase=Phase.TOWN,
        carry=replace(carry, destroyed_on_arrival=0),
    )
    yield from begin_stay(ctx)


def stay_again(ctx: Ctx, town: Town | None = None) -> Steps[None]:
    """After a Town Mission that was not failed, the posse may stay instead of travelling: a fresh town of the same
    Size and Specialty Type (no re-roll), everything else set up anew, random Locations included (FT-TOWN-09,
    FT-MIS-AFTER-01). For the missions area; `town` defaults to the town the posse is in."""
    town = town or ctx.state.town
    if town is None:
        raise IllegalCommand("no town to stay in: the posse must travel (FT-TOWN-09)", field="type", rule="FT-TOWN-09")
    slots = yield from construct(ctx, town.size, town.town_type)
    ctx.update(town=Town(town.size, town.town_type, town.type_roll, slots), phase=Phase.TOWN, travel=None)
    ctx.emit("phase", f"The posse stays in the {town.town_type}: a fresh Town Stay", rule="FT-TOWN-09", to="stay",
             town_type=town.town_type)  # fmt: skip
    yield from begin_stay(ctx)


def construct(ctx: Ctx, size: TownSize, town_type: str) -> Steps[tuple[Slot, ...]]:
    """Fill the numbered slots: 'always' Locations first, 'never' ones out of the pool, the rest drawn (FT-TOWN-03)."""
    content = pack(ctx.state_but_heroes.pack)
    rules = content.town_types.get(town_type) or _NO_RULES
    count = TOWN_SIZES[size].locations
    pool: dict[str, int] = {}  # the Building tokens, by Location (the pack names which; never fewer than `always`)
    for location, tokens_of in content.buildings:
        pool[location] = pool.get(location, 0) + tokens_of
    placed: list[str] = []
    for location in rules.always[:count]:
        placed.append(location)
        pool[location] -= 1
    # the tokens left in the shuffled pool, by Location
    tokens = {location: left for location, left in pool.items() if left > 0 and location not in rules.never}
    names = sorted(tokens)  # the Locations with tokens left, in the order the draw counts them
    picks = [(n, n) for n in names]
    weights = [tokens[n] for n in names]  # each one's tokens left, beside it
    while len(placed) < count and names:  # a random token: a Location with more tokens is the likelier draw
        drawn = yield from ctx.draw("" if ctx.quiet else f"the Building token for slot {len(placed) + 1}", picks,
                                    rule="FT-TOWN-03", weights=weights, asks=Asks.BUILDING_TOKEN,
                                    said=(("number", len(placed) + 1),))  # fmt: skip
        placed.append(drawn)
        at = names.index(drawn)
        weights[at] -= 1
        if not weights[at]:  # its last token is on the board
            names.pop(at)  # pop, not del: the compiled build pops in place, a del goes through Python's slices
            picks.pop(at)
            weights.pop(at)
    if len(placed) < count:
        ctx.emit(
            "town_short", f"The Building pool ran out: {count - len(placed)} slot(s) stay empty", rule="FT-TOWN-03",
            count=count - len(placed),
        )
    slots = tuple(Slot(number, location) for number, location in enumerate(placed, start=1))
    if ctx.tells("town_built"):  # every Location named twice: words a quiet run does not build
        named = ", ".join(f"{s.number} {s.location}" for s in slots)
        ctx.emit("town_built", f"{size.value.capitalize()} {town_type}: {named}; plus the Hotel and the Camp Site",
                 rule="FT-TOWN-03", size=size.value, town_type=town_type, name=named)  # fmt: skip
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
            asks=Asks.RANDOM_BUILDING,
        )
        slots = tuple(replace(s, destroyed=True) if str(s.number) == number else s for s in slots)
        ctx.emit("building_destroyed", f"Building slot {number} is Destroyed for this Town Stay", rule="FT-TOWN-04",
                 number=int(number))  # fmt: skip
    return slots
