"""The Days of a Town Stay: entering town, the Daily Event at the start of each Day (FT-DAY-01/02), the Hotel or the
Camp Site, the end of the Day with its Town Event check, and leaving town (FT-UA-06)."""

from __future__ import annotations

from collections import Counter

from ...commands import EndDay, EndTownStay, StartDay
from ...dice import DieKind
from ...errors import IllegalCommand
from ...flow import Ctx, Procedure, Steps
from ...prompts import Amount, Asks, Option, RollFor, Says, roll_for
from ...state import Carry, DailyEvent, Lodger, Lodging, Phase, Session, Stay, StayStage
from .common import (
    STANDARD,
    apply_effects,
    change,
    close_visit,
    content,
    first_hero,
    put_stay,
    read_chart,
    resolve_entry,
    stay_of,
)

TOWN_EVENT_MODES = ("darkness", "every_day", "off")
JUST_ANOTHER_DAY = "Just Another Day on the Frontier"
DARKNESS_TOP = 6  # the Town Darkness marker's last space


def begin_stay(ctx: Ctx) -> Steps[None]:
    """The posse enters town: Day 1 dawns, and each hero gains 1 Unwanted Attention per Mutation over 3 (FT-UA-01)
    and, after the Dying Marshal, D3 more (FT-TRAVEL-D62, FT-UA-03)."""
    ctx.update(stay=Stay())
    for hero in ctx.heroes():
        markers = max(0, len(ctx.hero(hero).mutations) - 3)  # FT-UA-01: 1 per Mutation over 3
        if markers:
            ctx.change(hero, "unwanted_attention", markers, rule="FT-UA-01", why="Mutations over 3")
        if ctx.state.carry.dying_marshal:  # FT-TRAVEL-D62: D3 markers each on arrival
            extra = yield from ctx.d3("Dying Marshal: Unwanted Attention", hero=hero, rule="FT-TRAVEL-D62",
                                      asks=Asks.ROLL_FOR, said=roll_for(RollFor.UNWANTED_ATTENTION, "Dying Marshal"))
            ctx.change(hero, "unwanted_attention", extra, rule="FT-TRAVEL-D62", why="the escaped prisoner watches")


# ---- the start of a Day -----------------------------------------------------------------------------------------
def check_start_day(state: Session, command: StartDay) -> None:
    stay = stay_of(state)
    if stay.over:
        raise IllegalCommand("the Town Stay is over (a Town Event ended it, R-STAY-03): the posse must leave "
                             "(end_town_stay)", field="type", rule="R-STAY-03")  # fmt: skip
    if stay.stage is StayStage.DAY:
        raise IllegalCommand(f"Day {stay.day} is under way: end it first (end_day) (R-STAY-02)", field="type",
                             rule="R-STAY-02")  # fmt: skip
    cap = state.carry.max_days
    if stay.stage is StayStage.NIGHT and cap and stay.day >= cap:
        raise IllegalCommand(f"the Town Stay may last no more than {cap} Days (Bridge Destroyed): the posse must "
                             "leave", field="type", rule="FT-TRAVEL-D45")  # fmt: skip


def start_day(ctx: Ctx, command: StartDay) -> Procedure:
    """Dawn: draw and read the Daily Event (FT-DAY-01, before the beds are chosen), then the Hotel or the Camp Site."""
    stay = stay_of(ctx.state)
    day = stay.day + 1 if stay.stage is StayStage.NIGHT else stay.day
    put_stay(ctx, day=day, stage=StayStage.DAY, event=None, lodging=(), visits=(), wheel=None)
    ctx.emit("day_begun", f"Day {day} in town" + (f" (of at most {ctx.state.carry.max_days})"
                                                   if ctx.state.carry.max_days else ""), rule="FT-DAY-01",
             day=day, max_days=ctx.state.carry.max_days)  # fmt: skip
    yield from daily_event(ctx)
    yield from lodge_posse(ctx)


def daily_event(ctx: Ctx) -> Steps[None]:
    """Draw the Daily Event (the pack's deck, shuffled when the town was built: the cards not yet drawn), read it to
    every hero; Just Another Day on the Frontier rolls a Specialty Town's Daily Event Chart (FT-DAY-01/02)."""
    stay_content = content(ctx.state)
    deck = stay_content.deck()
    if deck:
        left = Counter(deck) - Counter(stay_of(ctx.state).drawn)
        if not left:  # every card drawn: the discards are shuffled into a new deck (a reading, docs/rules.md)
            put_stay(ctx, drawn=())
            left = Counter(deck)
            ctx.emit("daily_event", "The Daily Event deck is spent: the discards are shuffled", rule="FT-DAY-01",
                     reason="shuffled")  # fmt: skip
        names = sorted(left)
        name = yield from ctx.draw("the Daily Event card", [(n, n) for n in names], rule="FT-DAY-01",
                                   weights=[left[n] for n in names], asks=Asks.DAILY_EVENT_CARD)  # fmt: skip
        card = stay_content.daily_card(name)
        assert card is not None
        event = DailyEvent(card.name, card.text, card.just_another_day, card.lasting, card.closes,
                           card.location_event_modifier, card.camp_site_modifier)  # fmt: skip
        put_stay(ctx, event=event, drawn=(*stay_of(ctx.state).drawn, name))
        ctx.emit("daily_event", f"Daily Event: {name}" + (f": {card.text}" if card.text else ""), rule="FT-DAY-01",
                 name=name, card_text=card.text)  # fmt: skip
        for hero in ctx.heroes():
            apply_effects(ctx, hero, card.effects, rule="FT-DAY-01")
    else:
        kind = yield from ctx.choose(
            "Draw the Daily Event card: which is it?",
            [Option("just_another_day", JUST_ANOTHER_DAY),
             Option("other", "Another card: enter what it says", says=Says.OTHER_CARD)],
            rule="FT-DAY-01", asks=Asks.DAILY_EVENT)  # fmt: skip
        if kind == "other":
            _, entry = yield from read_chart(
                ctx, None, "daily_event", "Read the Daily Event card aloud and enter it (its effects apply to every "
                "Hero in town; its words stay up for the Day)", hero=first_hero(ctx), rule="FT-DAY-01")  # fmt: skip
            event = DailyEvent(entry.text or "Daily Event", entry.text)
            put_stay(ctx, event=event)
            ctx.emit("daily_event", f"Daily Event: {event.name}", rule="FT-DAY-01", name=event.name)
            for hero in ctx.heroes():
                apply_effects(ctx, hero, entry.effects, rule="FT-DAY-01")
        else:
            event = DailyEvent(JUST_ANOTHER_DAY, just_another_day=True)
            put_stay(ctx, event=event)
            ctx.emit("daily_event", f"Daily Event: {JUST_ANOTHER_DAY}", rule="FT-DAY-01", name=JUST_ANOTHER_DAY)
    if event.just_another_day:
        yield from just_another_day(ctx)


def just_another_day(ctx: Ctx) -> Steps[None]:
    """No effect in a Standard Frontier Town; in a Specialty Town, roll its card's Daily Event Chart (FT-DAY-02)."""
    town_type = ctx.state.town.town_type if ctx.state.town is not None else STANDARD
    if town_type == STANDARD:
        ctx.emit("daily_event", "Just a normal day on the frontier: no effect", rule="FT-DAY-02", reason="normal")
        return
    chart = content(ctx.state).town_type(town_type).daily_events
    _, entry = yield from read_chart(
        ctx, chart, f"{town_type} Daily Event", f"There are no normal Days in a {town_type}: roll the Daily Event "
        "Chart on its card and enter the result (it applies to every Hero)", hero=first_hero(ctx), rule="FT-DAY-02",
        purpose=f"the {town_type}'s Daily Event Chart", said=roll_for(RollFor.TOWN_DAILY_EVENT,
                                                                      town_type=town_type))  # fmt: skip
    yield from resolve_entry(ctx, ctx.heroes(), entry, rule="FT-DAY-02")


EACH_CHOOSES = "each"  # the posse's bed question: every hero answers their own (R-STAY-18)


def lodge_posse(ctx: Ctx) -> Steps[None]:
    """The beds, once for the whole posse when every hero can pay the Hotel: everyone at the Hotel, everyone at the
    Camp Site, or each hero their own choice (R-STAY-18, a reading: the same choice each hero makes, FT-DAY-01,
    answered once for all); otherwise each hero chooses."""
    heroes = [h for h in ctx.heroes() if not ctx.hero(h).removed]
    stay = stay_of(ctx.state)
    rate = content(ctx.state).hotel_price * stay.hotel_price_factor
    where = EACH_CHOOSES
    if len(heroes) > 1 and all(ctx.hero(h).gold >= rate for h in heroes):
        options = [Option(Lodging.HOTEL.value, f"Everyone at the Hotel (${rate} each)", costs=(Amount("gold", rate),),
                          says=Says.ALL_HOTEL)]  # fmt: skip
        if not stay.camp_site_closed:
            options.append(Option(Lodging.CAMP_SITE.value, "Everyone at the Camp Site (free; each rolls its Hazard "
                                  "chart)", says=Says.ALL_CAMP))  # fmt: skip
        options.append(Option(EACH_CHOOSES, "Each hero chooses", says=Says.EACH_CHOOSES))
        where = yield from ctx.choose(f"Day {stay.day}: where does the posse spend the night?", options,
                                      rule="R-STAY-18", asks=Asks.POSSE_LODGING, said=(("day", stay.day),))  # fmt: skip
    for hero in heroes:
        yield from lodge(ctx, hero, None if where == EACH_CHOOSES else where)


def lodge(ctx: Ctx, hero: str, chosen: str | None = None) -> Steps[None]:
    """The Hotel, paid for the night (a price that cannot be paid cannot be chosen, A8), or the Camp Site, free, whose
    Hazard chart is rolled with +1 after the Army Convoy (FT-TRAVEL-D54); `chosen` when the posse chose for all."""
    if ctx.hero(hero).removed:
        return
    stay = stay_of(ctx.state)
    rate = content(ctx.state).hotel_price * stay.hotel_price_factor
    options = []
    if ctx.hero(hero).gold >= rate:
        options.append(Option(Lodging.HOTEL.value, f"The Hotel (${rate})", costs=(Amount("gold", rate),),
                              says=Says.HOTEL))  # fmt: skip
    if not stay.camp_site_closed:
        options.append(Option(Lodging.CAMP_SITE.value, "The Camp Site (free; roll its Hazard chart)", says=Says.CAMP))
    if not options:
        ctx.emit("lodging", f"{ctx.name(hero)} cannot pay the Hotel and the Camp Site is closed: a night in the "
                 "street", hero=hero, rule="FT-TOWN-06", where="street")  # fmt: skip
        return
    where = chosen if chosen is not None else (
        yield from ctx.choose(f"Day {stay.day}: where do you spend the night?", options, hero=hero, rule="FT-DAY-01",
                              asks=Asks.LODGING, said=(("day", stay.day),)))  # fmt: skip
    put_stay(ctx, lodging=(*stay_of(ctx.state).lodging, Lodger(hero, Lodging(where))))
    if where == Lodging.HOTEL.value:
        change(ctx, hero, "gold", -rate, rule="FT-DAY-01", why="a room at the Hotel")
        ctx.emit("lodging", f"{ctx.name(hero)} takes a room at the Hotel", hero=hero, rule="FT-DAY-01", where="hotel")
        return
    ctx.emit("lodging", f"{ctx.name(hero)} camps at the Camp Site", hero=hero, rule="FT-TOWN-06", where="camp")
    event = stay_of(ctx.state).event
    modifier = (1 if ctx.state.carry.army_convoy else 0) + (event.camp_site_modifier if event else 0)
    _, entry = yield from read_chart(
        ctx, content(ctx.state).camp_site_hazards, "Camp Site Hazard", "Roll the Camp Site Hazard chart: what "
        "happens?", hero=hero, rule="FT-TRAVEL-D54" if ctx.state.carry.army_convoy else "FT-TOWN-06",
        die=DieKind.TWO_D6, modifier=modifier, purpose="the Camp Site Hazard chart",
        said=roll_for(RollFor.CAMP_SITE_HAZARD))  # fmt: skip
    yield from resolve_entry(ctx, [hero], entry, rule="FT-TOWN-06")


# ---- the end of a Day ----------------------------------------------------------------------------------------
def check_end_day(state: Session, command: EndDay) -> None:
    stay = stay_of(state)
    if stay.stage is not StayStage.DAY:
        raise IllegalCommand("no Day is under way: start one (start_day) or leave (R-STAY-02)", field="type",
                             rule="R-STAY-02")  # fmt: skip
    no_wheel_round(state)


def no_wheel_round(state: Session) -> None:
    wheel = stay_of(state).wheel
    if wheel is not None:
        raise IllegalCommand(f"{state.hero(wheel.hero).name}'s Devil's Wheel round is under way: roll or stop first "
                             "(R-STAY-12)", field="type", rule="R-STAY-12")  # fmt: skip


def end_day(ctx: Ctx, command: EndDay) -> Procedure:
    yield from day_ends(ctx)


def day_ends(ctx: Ctx) -> Steps[None]:
    """Every visit ends (FT-UA-02), the Town Event check is made, the Daily Event is discarded (FT-DAY-01)."""
    stay = stay_of(ctx.state)
    for visit in stay.visits:
        if visit.open:
            close_visit(ctx, visit.hero, why="the Day is over")
    yield from town_event(ctx)
    put_stay(ctx, stage=StayStage.NIGHT, event=None)
    ctx.emit("day_ended", f"Day {stay.day} ends" + (f"; {stay.event.name} is discarded" if stay.event else ""),
             rule="FT-DAY-01", day=stay.day, name=stay.event.name if stay.event else "")  # fmt: skip


def town_event(ctx: Ctx) -> Steps[None]:
    """The end-of-Day Town Event check (option `town_events`, the base game's rule): "darkness" rolls a D6 against the
    Town Darkness marker (higher moves it up; equal or lower brings a Town Event and resets it to 1), "every_day"
    rolls the chart each Day. The Town Event Chart is 2D6, +1 after the Army Convoy (FT-TRAVEL-D54)."""
    mode = ctx.state.options.town_events
    if mode == "off" or not ctx.heroes():
        return
    stay = stay_of(ctx.state)
    if mode == "darkness":
        roll = yield from ctx.d6(f"the Town Darkness check (marker on {stay.darkness})", rule="FT-TRAVEL-D54",
                                 asks=Asks.ROLL_FOR, said=roll_for(RollFor.TOWN_DARKNESS, value=stay.darkness))
        if roll > stay.darkness:
            put_stay(ctx, darkness=min(DARKNESS_TOP, stay.darkness + 1))
            ctx.emit("town_event", f"No Town Event tonight; the Town Darkness marker moves to "
                     f"{stay_of(ctx.state).darkness}", rule="FT-TRAVEL-D54", reason="none",
                     value=stay_of(ctx.state).darkness)  # fmt: skip
            return
        put_stay(ctx, darkness=1)
    convoy = ctx.state.carry.army_convoy
    _, entry = yield from read_chart(
        ctx, content(ctx.state).town_events, "Town Event", "Roll the Town Event Chart: what happens (to every Hero)?",
        hero=first_hero(ctx), rule="FT-TRAVEL-D54", die=DieKind.TWO_D6, modifier=1 if convoy else 0,
        purpose="the Town Event Chart", said=roll_for(RollFor.TOWN_EVENT))  # fmt: skip
    ctx.emit("town_event", f"Town Event: {entry.text or 'entered'}", rule="FT-TRAVEL-D54", card_text=entry.text)
    yield from resolve_entry(ctx, ctx.heroes(), entry, rule="FT-TRAVEL-D54")


# ---- leaving --------------------------------------------------------------------------------------------------
def check_end_town_stay(state: Session, command: EndTownStay) -> None:
    no_wheel_round(state)


def end_town_stay(ctx: Ctx, command: EndTownStay) -> Procedure:
    """Leave town (a Day under way ends first): every Unwanted Attention marker is removed (FT-UA-06), the town-stay
    flags end (FT-TRAVEL-05); Bounties posted stay open until the next Adventure settles them (FT-BOUNTY)."""
    if stay_of(ctx.state).stage is StayStage.DAY:
        yield from day_ends(ctx)
    for hero in ctx.heroes():
        ctx.change(hero, "unwanted_attention", -ctx.hero(hero).unwanted_attention, rule="FT-UA-06",
                   why="the Town Stay is over")  # fmt: skip
    carry = ctx.state.carry
    ctx.update(
        phase=Phase.BETWEEN_ADVENTURES,
        town=None,
        travel=None,
        stay=None,
        carry=Carry(extra_revive_tokens=carry.extra_revive_tokens, blood_moon=carry.blood_moon,
                    bounties=carry.bounties, last_town=ctx.state.town),
    )  # fmt: skip
    ctx.emit("phase", "The Town Stay ends; on to the next Adventure", rule="FT-UA-06", to="adventure")
