"""Pieces the Town Stay's rules share: the stay and visit records, which Locations stand, prices from the pack or the
table, reading town charts, resolving their entries, Gold gained on a visit (FT-UA-02) and death in town (FT-UA-05)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...commands import Effect
from ...content import pack
from ...content.stay import CAMP_SITE, StayContent, TownChart, TownEntry
from ...dice import DieKind, Roll
from ...errors import IllegalCommand, InvalidCommand
from ...flow import CardRequest, Ctx, Said, Steps, apply_effect
from ...frozen import replace
from ...prompts import Answer, Asks
from ...state import Session, Slot, Stay, StayStage, Visit

SALOON = "Saloon"
GAMBLING_HALL = "Gambling Hall"
SHERIFF = "Sheriff's Office"
OUTPOST = "Frontier Outpost"
BLACKSMITH = "Blacksmith"
GOLD_VENUES = (SALOON, GAMBLING_HALL)  # a visit that gained Gold gives 1 Unwanted Attention (FT-UA-02)
STANDARD = "Standard Frontier Town"


# ---- reading the state -----------------------------------------------------------------------------------------
def stay_of(state: Session) -> Stay:
    """The Stay under way (a town reached before stays were recorded starts at dawn of Day 1)."""
    return state.stay if state.stay is not None else Stay()


def content(state: Session) -> StayContent:
    return pack(state.pack).stay


def standing(state: Session) -> list[str]:
    """The Locations still standing this Stay, in slot order, and the Camp Site unless closed (FT-TOWN-04/06)."""
    slots: tuple[Slot, ...] = state.town.slots if state.town is not None else ()
    names: list[str] = []
    for slot in slots:
        if not slot.destroyed and slot.location not in names:
            names.append(slot.location)
    if not stay_of(state).camp_site_closed:
        names.append(CAMP_SITE)
    return names


def known_locations(state: Session) -> list[str]:
    """Every Location of this town, standing or not, and the Camp Site."""
    slots = state.town.slots if state.town is not None else ()
    return list(dict.fromkeys([*(s.location for s in slots), CAMP_SITE]))


def barred_by(state: Session, hero_id: str, location: str) -> str | None:
    """The keyword that keeps `hero_id` out of `location` (the card's restriction, FT-TOWN-07), read on the hero's
    keywords as they stand now: Wanted! gives Outlaw in place of Law (FT-WANTED-03)."""
    hero = state.hero(hero_id)
    return next((word for word in content(state).location(location).bars if hero.has_keyword(word)), None)


def unavailable(state: Session, location: str) -> tuple[str, str, str] | None:
    """Why nobody may visit `location` today, as (message, field, rule), or None when it is open."""
    if location not in known_locations(state):
        return (f"location: {location!r} is not in this town; its Locations are {known_locations(state)}",
                "location", "FT-TOWN-03")  # fmt: skip
    if location not in standing(state):
        if location == CAMP_SITE:
            return (f"location: the {CAMP_SITE} is closed for the rest of this Stay (a Town Event, R-STAY-04)",
                    "location", "R-STAY-04")  # fmt: skip
        return f"location: the {location} was Destroyed and may no longer be visited", "location", "FT-TOWN-04"
    event = stay_of(state).event
    if event is not None and location in event.closes:
        return f"location: the {location} is closed today ({event.name}, R-STAY-09)", "location", "R-STAY-09"
    return None


def closed_reason(state: Session, hero_id: str, location: str) -> tuple[str, str, str] | None:
    """Why `hero_id` may not visit `location` today, as (message, field, rule), or None when they may."""
    reason = unavailable(state, location)
    if reason is not None:
        return reason
    word = barred_by(state, hero_id, location)
    if word is not None:
        hero = state.hero(hero_id)
        if location == SHERIFF and hero.wanted:
            return (f"hero: {hero.name} is Wanted! and so an Outlaw (FT-WANTED-03): a Wanted! hero comes to the "
                    f"{SHERIFF} only to Pay Off Their Warrants (pay_off_warrants) (R-STAY-06)", "hero",
                    "R-STAY-06")  # fmt: skip
        why = " (Wanted! gives Outlaw, FT-WANTED-03)" if hero.wanted and word.lower() == "outlaw" else ""
        return (f"hero: {word} heroes may not visit the {location} ({hero.name} is {word}{why}; the card's "
                "restriction as the content pack gives it, R-STAY-06)", "hero", "R-STAY-06")  # fmt: skip
    return None


def open_locations(state: Session, hero_id: str) -> list[str]:
    return [name for name in standing(state) if closed_reason(state, hero_id, name) is None]


def day_under_way(state: Session) -> None:
    """Refuse what only happens during a Day (visits and what is done on them) at dawn or at night."""
    stay = stay_of(state)
    if stay.stage is not StayStage.DAY:
        raise IllegalCommand(f"heroes visit Locations during a Day: start Day {stay.day + (stay.stage is StayStage.NIGHT)}"
                             " first (start_day) (R-STAY-02)", field="type", rule="R-STAY-02")  # fmt: skip


def active_hero(state: Session, hero_id: str) -> None:
    """Refuse a hero who is not in the posse, or was taken from the game."""
    try:
        hero = state.hero(hero_id)
    except KeyError:
        raise InvalidCommand(f"hero: no hero {hero_id!r} in this posse", field="hero") from None
    if hero.removed:
        raise IllegalCommand(f"hero: {hero.name} was taken from the game", field="hero")


def price(listed: int | None, typed: int | None, what: str, *, rule: str) -> int:
    """The price of `what`: the pack's, or the one the table typed from the card when the pack has none."""
    if typed is not None and not 0 <= typed <= 1_000_000:
        raise InvalidCommand(f"price: ${typed} is not a price (0-1000000)", field="price", rule=rule)
    if listed is not None:
        if typed is not None and typed != listed:
            raise InvalidCommand(f"price: the content pack prices {what} at ${listed}, not ${typed}", field="price",
                                 rule=rule)  # fmt: skip
        return listed
    if typed is None:
        raise InvalidCommand(f"price: the content pack has no price for {what}; give the card's price", field="price",
                             rule=rule)  # fmt: skip
    return typed


# ---- changing the stay -----------------------------------------------------------------------------------------
def put_stay(ctx: Ctx, **changes: Any) -> None:
    ctx.update(stay=replace(stay_of(ctx.state), **changes))


def put_visit(ctx: Ctx, hero: str, **changes: Any) -> None:
    stay = stay_of(ctx.state)
    put_stay(ctx, visits=tuple(replace(v, **changes) if v.hero == hero else v for v in stay.visits))


def gained(ctx: Ctx, hero: str, before: int) -> None:
    """Note Gold gained on `hero`'s open visit (for any reason) since they had `before` (FT-UA-02)."""
    visit = stay_of(ctx.state).open_visit(hero)
    if visit is not None and not visit.gained_gold and ctx.hero(hero).gold > before:
        put_visit(ctx, hero, gained_gold=True)


def change(ctx: Ctx, hero: str, field: str, delta: int, *, rule: str, why: str = "") -> int:
    """`Ctx.change`, noting Gold gained on a visit (FT-UA-02)."""
    before = ctx.hero(hero).gold
    made = ctx.change(hero, field, delta, rule=rule, why=why)
    gained(ctx, hero, before)
    return made


def apply_effects(ctx: Ctx, hero: str, effects: Iterable[Effect], *, rule: str) -> None:
    """A card's or chart's effects on one hero, noting Gold gained on a visit (FT-UA-02)."""
    for effect in effects:
        if ctx.hero(hero).removed:
            return
        before = ctx.hero(hero).gold
        apply_effect(ctx, hero, effect, rule=rule)
        gained(ctx, hero, before)


def close_visit(ctx: Ctx, hero: str, *, why: str = "") -> None:
    """End `hero`'s open visit: at the Saloon or Gambling Hall, Gold gained gives 1 Unwanted Attention (FT-UA-02)."""
    visit = stay_of(ctx.state).open_visit(hero)
    if visit is None:
        return
    put_visit(ctx, hero, open=False)
    ctx.emit("visit_ended", f"{ctx.name(hero)} leaves the {visit.location}" + (f" ({why})" if why else ""), hero=hero,
             rule="FT-UA-02" if visit.location in GOLD_VENUES else "", location=visit.location, why=why)  # fmt: skip
    if visit.location in GOLD_VENUES and visit.gained_gold and not ctx.hero(hero).removed:
        ctx.change(hero, "unwanted_attention", 1, rule="FT-UA-02", why=f"Gold gained at the {visit.location}")


def kill(ctx: Ctx, hero: str, *, rule: str, why: str) -> None:
    """A hero killed in town (FT-UA-05) is taken from the campaign: no Injury roll, their visit ends."""
    visit = stay_of(ctx.state).open_visit(hero)
    if visit is not None:
        put_visit(ctx, hero, open=False)
    wheel = stay_of(ctx.state).wheel
    if wheel is not None and wheel.hero == hero:
        put_stay(ctx, wheel=None)
    ctx.set_value(hero, "removed", True, rule=rule, why=why)
    ctx.emit("hero_removed", f"{ctx.name(hero)} is killed: {why}", hero=hero, rule=rule, why=why)


def destroy(ctx: Ctx, location: str, *, rule: str, why: str) -> None:
    """Flip every token of `location` black side up: it may no longer be visited this Stay (FT-TOWN-04)."""
    town = ctx.state.town
    if town is None:
        return
    if location == CAMP_SITE:
        put_stay(ctx, camp_site_closed=True)
    else:
        ctx.update(town=replace(town, slots=tuple(replace(s, destroyed=True) if s.location == location else s
                                                   for s in town.slots)))  # fmt: skip
    ctx.emit("location_closed", f"The {location} is closed for the rest of the Stay: {why}", rule=rule,
             location=location, why=why)  # fmt: skip


# ---- town charts ---------------------------------------------------------------------------------------------
def read_chart(
    ctx: Ctx, chart: TownChart | None, name: str, question: str, *, hero: str, rule: str, die: DieKind | None = None,
    modifier: int = 0, purpose: str = "", rolled: Roll | None = None, title: str = "", said: Said = (),
) -> Steps[tuple[int, TownEntry]]:
    """Roll a town chart and read its entry: the pack's chart, or the card the table reads (with the roll shown).

    `die` is the roll the rules name when the pack has no chart (2D6 for Location Events); None when the physical
    card's own die is rolled at the table; `rolled` a roll already made; `said` what the roll is for, as the facts
    of an `Asks.ROLL_FOR` roll. Returns the modified total (0 when the table rolled) and the entry.
    """
    die = chart.die if chart is not None else die
    total, roll = (rolled.value + modifier, rolled) if rolled is not None else (0, None)
    if die is not None and rolled is None:
        roll = yield from ctx.roll(die, purpose or name, hero=hero, chart=True, rule=rule,
                                   card=name if chart is None else "", asks=Asks.ROLL_FOR if said else Asks.ROLL,
                                   said=said)  # fmt: skip
        total = roll.value + modifier
        if modifier:
            ctx.emit("town_chart", f"{purpose or name}: {roll.value} {'+' if modifier > 0 else '-'} {abs(modifier)} = "
                     f"{total}", hero=hero, rule=rule, reason="modified", chart=title or name, value=roll.value,
                     number=modifier)  # fmt: skip
    if chart is not None:
        entry = chart.entry(total)
        ctx.emit("town_chart", f"{title or name} {total}: {entry.text}", hero=hero, rule=rule, reason="entry",
                 chart=title or name, value=total, card_text=entry.text)  # fmt: skip
        return total, entry
    shown = f" (rolled {total})" if roll is not None else ""
    answer: Answer = yield CardRequest(name, question + shown, hero, rule, roll)
    ctx.emit("town_chart", f"{title or name}{' ' + str(total) if roll is not None else ''}: {answer.text or 'entered'}",
             hero=hero, rule=rule, reason="entry", chart=title or name, card_text=answer.text,
             value=total if roll is not None else "")  # fmt: skip
    return total, TownEntry(total, total, answer.text, answer.effects)


def resolve_entry(ctx: Ctx, heroes: list[str], entry: TownEntry, *, rule: str, location: str = "") -> Steps[None]:
    """Apply a town chart entry: its effects and test to each of `heroes`, then what it does to the town."""
    for hero in heroes:
        if ctx.hero(hero).removed:
            continue
        apply_effects(ctx, hero, entry.effects, rule=rule)
        if entry.test is not None and not ctx.hero(hero).removed:
            test = yield from ctx.skill_test(hero, entry.test.skill, entry.test.target, entry.text or "Town chart",
                                             rule=rule)  # fmt: skip
            apply_effects(ctx, hero, entry.test.passed if test.passed else entry.test.failed, rule=rule)
    if entry.destroys and location:
        destroy(ctx, location, rule="FT-TOWN-04", why=entry.text or "the Location Event")
    for _ in range(entry.destroy_random):
        standing_slots = [s for s in (ctx.state.town.slots if ctx.state.town else ()) if not s.destroyed]
        if not standing_slots:
            break
        number = yield from ctx.draw("a Random Building to close", [(str(s.number), f"{s.number} {s.location}")
                                                                    for s in standing_slots], rule="FT-TOWN-04",
                                     asks=Asks.RANDOM_BUILDING)  # fmt: skip
        town = ctx.state.town
        assert town is not None
        ctx.update(town=replace(town, slots=tuple(replace(s, destroyed=True) if str(s.number) == number else s
                                                   for s in town.slots)))  # fmt: skip
        ctx.emit("building_destroyed", f"Building slot {number} may not be visited for the rest of the Stay",
                 rule="FT-TOWN-04", number=int(number))  # fmt: skip
    if entry.closes_camp_site and not stay_of(ctx.state).camp_site_closed:
        destroy(ctx, CAMP_SITE, rule="FT-TOWN-06", why=entry.text or "a Town Event")
    if entry.hotel_price_factor > 1:
        put_stay(ctx, hotel_price_factor=stay_of(ctx.state).hotel_price_factor * entry.hotel_price_factor)
        ctx.emit("town_chart", f"The Hotel's rate is now x{stay_of(ctx.state).hotel_price_factor}", rule=rule,
                 reason="hotel_rate", count=stay_of(ctx.state).hotel_price_factor)  # fmt: skip
    if entry.ends_stay:
        put_stay(ctx, over=True)
        ctx.emit("town_chart", "The Town Stay is over: the posse must leave", rule=rule, reason="stay_over")



def first_hero(ctx: Ctx) -> str:
    """Who answers a town-wide card prompt (it applies to every hero)."""
    return ctx.heroes()[0]


def visits_at(state: Session, location: str) -> list[Visit]:
    return [v for v in stay_of(state).visits if v.open and v.location == location]
