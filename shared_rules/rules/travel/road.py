"""The road to town: choosing the size, counting the hazards, and rolling each one on the D36 chart."""

from __future__ import annotations

from ...commands import ChooseTownSize, RollHazard
from ...content import TOWN_SIZES, TRAVEL_HAZARDS
from ...dice import DieKind
from ...errors import InvalidCommand
from ...flow import Ctx, Procedure
from ...prompts import Asks
from ...state import Phase, TownSize, Travel
from .hazards import HAZARDS

_SIZES = {size.value: size for size in TownSize}


def choose_town_size(ctx: Ctx, command: ChooseTownSize) -> Procedure:
    """Pick the Town size (FT-TRAVEL-01); each hero adds hazards by the size's table (FT-TRAVEL-02)."""
    size = _SIZES.get(command.size)  # not TownSize(...): enum's lookup runs in Python, slow from compiled code
    if size is None:
        raise InvalidCommand(
            f"size: {command.size!r} is not a Town size; one of small, medium, large", field="size", rule="FT-TRAVEL-01"
        )
    table = TOWN_SIZES[size]
    named: str = size._value_  # a plain attribute (`.value` is enum's Python descriptor, slow in compiled code)
    purpose = "" if ctx.quiet else f"Travel Hazards to a {named.capitalize()} Town"  # a table's words only
    automatic, adds_on = table.auto_hazards_per_hero, table.roll_adds_hazard_on  # read once, not per hero
    rollers: list[str] = []
    for hero in ctx.heroes():
        rollers += [hero] * automatic  # Medium and Large: automatic
        if adds_on:
            roll = yield from ctx.roll(
                DieKind.D6,
                purpose,
                hero=hero,
                chart=True,
                rule="FT-TRAVEL-02",
                asks=Asks.HAZARD_COUNT,
                said=(("size", named),),
            )
            if roll.value in adds_on:  # FT-TRAVEL-02: 1, 2 or 3 adds a hazard
                rollers.append(hero)
    count = len(rollers)
    if ctx.tells("hazard_count"):
        ctx.emit(
            "hazard_count",
            f"{count} Travel Hazard{'s' if count != 1 else ''} on the road to a {named.capitalize()} Town",
            rule="FT-TRAVEL-02",
            count=count,
            size=named,
        )
    ctx.update(phase=Phase.TRAVEL if count else Phase.ARRIVAL, travel=Travel(size, tuple(rollers)))


def roll_hazard(ctx: Ctx, command: RollHazard) -> Procedure:
    """The hero who generated the next hazard rolls the D36 chart, then the result is resolved (FT-TRAVEL-03)."""
    travel = ctx.state.travel
    assert travel is not None
    number = travel.resolved + 1
    roller = travel.rollers[travel.resolved]
    if ctx.hero(roller).removed:  # taken by Mr. Scratch: the hazard remains, the first hero left rolls it
        roller = ctx.heroes()[0]
    count = len(travel.rollers)
    roll = yield from ctx.roll(
        DieKind.D36, "" if ctx.quiet else f"Travel Hazard {number} of {count}", hero=roller, chart=True,
        rule="FT-TRAVEL-03", asks=Asks.HAZARD_ROLL, said=(("number", number), ("count", count)),
    )  # fmt: skip
    value = roll.value
    ctx.update(travel=Travel(travel.size, travel.rollers, number, travel.turned_back, (*travel.hazards, value)))
    if ctx.tells("hazard"):
        entry = TRAVEL_HAZARDS[value]
        ctx.emit("hazard", f"Travel Hazard {number}: {value} {entry.name}", hero=roller, rule=entry.rule,
                 number=number, value=value, name=entry.name)  # fmt: skip
    yield from HAZARDS[value](ctx, roller)
    after = ctx.state_but_heroes.travel  # the road as the hazard left it; the heroes are folded in later
    assert after is not None
    if after.remaining <= 0 or not ctx.heroes():
        ctx.update(phase=Phase.ARRIVAL)
        ctx.emit(
            "phase",
            "The posse reaches town" + (" (turned back to a Small Town)" if after.turned_back else ""),
            rule="FT-TRAVEL-04",
            to="town",
            turned_back=bool(after.turned_back),
        )
