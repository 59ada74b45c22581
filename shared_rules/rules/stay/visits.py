"""Location visits: who may enter where (FT-TOWN-07, FT-WANTED-03), the 2D6 Location Event Chart, trouble with
Unwanted Attention (FT-UA-04/05), the Dying Marshal's call-out (FT-TRAVEL-D62), leaving (FT-UA-02), and paying off
warrants at the Sheriff's Office (FT-WANTED-02)."""

from __future__ import annotations

from ...commands import EndVisit, PayOffWarrants, VisitLocation
from ...dice import DieKind
from ...errors import IllegalCommand
from ...flow import Ctx, Procedure, Steps
from ...prompts import Amount, Asks, Option, Part, RollFor, Says, roll_for
from ...state import Session, Visit
from .common import (
    SHERIFF,
    active_hero,
    barred_by,
    change,
    close_visit,
    closed_reason,
    content,
    day_under_way,
    kill,
    price,
    put_stay,
    put_visit,
    read_chart,
    resolve_entry,
    stay_of,
    unavailable,
)
from .days import no_wheel_round

AUTOMATIC_TROUBLE = 6  # with 6 or more markers the attack needs no roll (FT-UA-04)


def first_visit_today(state: Session, hero: str) -> None:
    visit = stay_of(state).visit(hero)
    if visit is not None:
        raise IllegalCommand(f"hero: {state.hero(hero).name} already visited the {visit.location} on Day "
                             f"{stay_of(state).day}: one Location a Day", field="hero", rule="R-STAY-01")  # fmt: skip


def check_visit(state: Session, command: VisitLocation) -> None:
    day_under_way(state)
    active_hero(state, command.hero)
    first_visit_today(state, command.hero)
    reason = closed_reason(state, command.hero, command.location)
    if reason is not None:
        message, field, rule = reason
        raise IllegalCommand(message, field=field, rule=rule)


def visit_location(ctx: Ctx, command: VisitLocation) -> Procedure:
    """The hero enters the Location and rolls its 2D6 Location Event Chart (FT-TOWN-07)."""
    yield from enter(ctx, command.hero, command.location)


def enter(ctx: Ctx, hero: str, location: str) -> Steps[None]:
    put_stay(ctx, visits=(*stay_of(ctx.state).visits, Visit(hero, location)))
    ctx.emit("visit", f"{ctx.name(hero)} visits the {location}", hero=hero, rule="FT-TOWN-07", location=location)
    yield from location_event(ctx, hero, location)


def location_event(ctx: Ctx, hero: str, location: str) -> Steps[None]:
    """Roll the Location Event Chart: a double may call out the Dying Marshal's prisoner instead (FT-TRAVEL-D62); a 7
    with Unwanted Attention brings the trouble check (FT-UA-04); then the chart's result."""
    event = stay_of(ctx.state).event
    modifier = event.location_event_modifier if event is not None else 0
    marshal = ctx.state.carry.dying_marshal and not stay_of(ctx.state).marshal_fought  # a double calls him out
    chart = content(ctx.state).location(location).events  # None: the table reads the card with these dice
    roll = yield from ctx.roll(DieKind.TWO_D6, f"the {location} Location Event Chart", hero=hero, chart=True,
                               rule="FT-TOWN-07", doubles=marshal, card="" if chart else f"location:{location}",
                               asks=Asks.ROLL_FOR, said=roll_for(RollFor.LOCATION_EVENT, location=location))  # fmt: skip
    put_visit(ctx, hero, roll=roll.value)
    double = roll.faces[0] == roll.faces[1]
    if double and marshal:
        called = yield from call_out(ctx, hero, roll.faces)
        if called:
            return
    trouble = roll.value == 7 and ctx.hero(hero).unwanted_attention >= 1  # the dice rolled, not a modified total
    if trouble and ctx.state.options.trouble_first:
        yield from trouble_check(ctx, hero)
        if ctx.hero(hero).removed:
            return
    _, entry = yield from read_chart(
        ctx, chart, f"location:{location}",
        f"Read the {location}'s Location Event Chart and enter the result", hero=hero, rule="FT-TOWN-07",
        modifier=modifier, rolled=roll, title=f"{location} Location Event")  # fmt: skip
    yield from resolve_entry(ctx, [hero], entry, rule="FT-TOWN-07", location=location)
    if trouble and not ctx.state.options.trouble_first and not ctx.hero(hero).removed:
        yield from trouble_check(ctx, hero)
    if ctx.hero(hero).removed:
        return
    if entry.ends_visit or entry.destroys:
        close_visit(ctx, hero, why=entry.text or "the Location Event")


def trouble_check(ctx: Ctx, hero: str) -> Steps[None]:
    """A rolled 7 with Unwanted Attention: a D6 equal to or under the markers (automatic at 6+) means an attack; a
    Luck 5+ test dodges it, else D6 x Hero Level Wounds ignoring Defense and Armor, and a KO kills (FT-UA-04/05)."""
    markers = ctx.hero(hero).unwanted_attention
    if markers >= AUTOMATIC_TROUBLE:
        ctx.emit("trouble", f"{ctx.name(hero)} has {markers} Unwanted Attention markers: trouble comes a-callin'",
                 hero=hero, rule="FT-UA-04", reason="automatic", count=markers)  # fmt: skip
    else:
        check = yield from ctx.d6(f"Unwanted Attention: attacked on {markers} or less?", hero=hero, rule="FT-UA-04",
                                  asks=Asks.ROLL_FOR, said=roll_for(RollFor.TROUBLE, count=markers))
        if check > markers:
            ctx.emit("trouble", f"{ctx.name(hero)} rolls {check} against {markers} Unwanted Attention: nobody strikes",
                     hero=hero, rule="FT-UA-04", reason="nobody", count=markers, value=check)  # fmt: skip
            return
        ctx.emit("trouble", f"{ctx.name(hero)} rolls {check} against {markers} Unwanted Attention: attacked from "
                 "behind!", hero=hero, rule="FT-UA-04", reason="attacked", count=markers, value=check)  # fmt: skip
    dodge = yield from ctx.skill_test(hero, "luck", 5, "Attacked from behind", rule="FT-UA-05")
    if dodge.passed:
        ctx.emit("trouble", "The would-be assassin runs off into a back alley", hero=hero, rule="FT-UA-05",
                 reason="dodged")  # fmt: skip
        return
    shot = yield from ctx.d6(f"Shot in the back: D6 x Hero Level {ctx.hero(hero).level}", hero=hero,
                             rule="FT-UA-05", asks=Asks.ROLL_FOR,
                             said=roll_for(RollFor.SHOT_IN_THE_BACK, count=ctx.hero(hero).level))  # fmt: skip
    change(ctx, hero, "wounds", shot * ctx.hero(hero).level, rule="FT-UA-05",
           why="shot in the back, ignoring Defense and Armor")  # fmt: skip
    if ctx.hero(hero).knocked_out:
        kill(ctx, hero, rule="FT-UA-05", why="shot in the back in town (a KO here is death)")


def call_out(ctx: Ctx, hero: str, faces: tuple[int, ...]) -> Steps[bool]:
    """A double spots the escaped prisoner: the hero may ignore the result and the rest of the visit to call him out
    to a High Noon Duel. Won: D6 x $200 bounty; lost: the Injury roll on a single D6; never fought again
    (FT-TRAVEL-D62). The Duel is played at the table, which says how it ended."""
    choice = yield from ctx.choose(
        f"Double {faces[0]}s: you spot the escaped prisoner. Call him out to a High Noon Duel (the rest of this "
        "visit is lost)?",
        [Option("call_out", "Call him out: a High Noon Duel", Part.JOIN, says=Says.CALL_OUT),
         Option("let_go", "Let him go and read the Location Event", Part.DECLINE, says=Says.LET_GO)], hero=hero,
        rule="FT-TRAVEL-D62", asks=Asks.CALL_OUT, said=(("value", faces[0]),))  # fmt: skip
    if choice != "call_out":
        return False
    close_visit(ctx, hero, why="calls out the escaped prisoner")
    put_stay(ctx, marshal_fought=True)
    ctx.emit("duel", f"{ctx.name(hero)} calls out the escaped prisoner: a High Noon Duel", hero=hero,
             rule="FT-TRAVEL-D62", reason="called_out")  # fmt: skip
    result = yield from ctx.choose(
        "Play the High Noon Duel at the table: how did it end?",
        [Option("won", "Won: the prisoner is brought down", gains=(Amount("gold", 200, dice="d6"),),
                says=Says.DUEL_WON),
         Option("lost", "Lost: he fights dirty", costs=(Amount("injury", 1),), says=Says.DUEL_LOST)], hero=hero,
        rule="FT-TRAVEL-D62", asks=Asks.DUEL_RESULT)  # fmt: skip
    if result == "won":
        bounty = yield from ctx.d6("the prisoner's bounty: D6 x $200", hero=hero, rule="FT-TRAVEL-D62",
                                   asks=Asks.ROLL_FOR, said=roll_for(RollFor.BOUNTY, count=200))
        change(ctx, hero, "gold", 200 * bounty, rule="FT-TRAVEL-D62", why="the escaped prisoner's bounty")
    else:
        yield from ctx.card(hero, "injury", "Lost the Duel: roll your Injury on a single D6 and enter it",
                            rule="FT-TRAVEL-D62", die=DieKind.D6)  # fmt: skip
    return True


def check_end_visit(state: Session, command: EndVisit) -> None:
    day_under_way(state)
    active_hero(state, command.hero)
    if stay_of(state).open_visit(command.hero) is None:
        raise IllegalCommand(f"hero: {state.hero(command.hero).name} is not visiting a Location (R-STAY-01)",
                             field="hero", rule="R-STAY-01")  # fmt: skip
    wheel = stay_of(state).wheel
    if wheel is not None and wheel.hero == command.hero:
        no_wheel_round(state)


def end_visit(ctx: Ctx, command: EndVisit) -> Procedure:
    close_visit(ctx, command.hero)
    yield from ()


# ---- Pay Off Your Warrants -------------------------------------------------------------------------------------
def warrant_price(state: Session, hero: str, typed: int | None) -> int:
    listed = content(state).location(SHERIFF).warrants
    level = state.hero(hero).wanted
    what = "Paying Off Most Wanted! warrants" if level >= 2 else "Paying Off Wanted! warrants"
    return price(None if listed is None else listed[min(level, 2) - 1], typed, what, rule="FT-WANTED-02")


def check_pay_off(state: Session, command: PayOffWarrants) -> None:
    day_under_way(state)
    active_hero(state, command.hero)
    hero = state.hero(command.hero)
    if not hero.wanted:
        raise IllegalCommand(f"hero: {hero.name} is not Wanted!: there are no warrants to pay off", field="hero",
                             rule="FT-WANTED-02")  # fmt: skip
    visit = stay_of(state).visit(command.hero)
    if visit is not None and not (visit.open and visit.location == SHERIFF):
        first_visit_today(state, command.hero)
    if visit is None:  # the Sheriff's Office must be open; its door stays open to a Wanted! hero who pays up
        reason = unavailable(state, SHERIFF)
        if reason is not None:
            raise IllegalCommand(reason[0].replace("location: ", "hero: ", 1), field="hero", rule=reason[2])
    cost = warrant_price(state, command.hero, command.price)
    if hero.gold < cost:
        raise IllegalCommand(f"price: paying off {hero.name}'s warrants costs ${cost} and they have ${hero.gold}",
                             field="price", rule="A8")  # fmt: skip


def pay_off_warrants(ctx: Ctx, command: PayOffWarrants) -> Procedure:
    """Visit the Sheriff's Office to Pay Off Your Warrants: Wanted! (or Most Wanted!, A17) ends, and the Outlaw keyword
    it gave with it (FT-WANTED-02/03). A hero whose own keywords keep them out leaves; anyone else's visit goes on."""
    hero = command.hero
    cost = warrant_price(ctx.state, hero, command.price)
    entering = stay_of(ctx.state).open_visit(hero) is None
    if entering:
        put_stay(ctx, visits=(*stay_of(ctx.state).visits, Visit(hero, SHERIFF)))
        ctx.emit("visit", f"{ctx.name(hero)} walks into the {SHERIFF} to settle up", hero=hero, rule="FT-WANTED-02",
                 location=SHERIFF, reason="warrants")  # fmt: skip
    change(ctx, hero, "gold", -cost, rule="FT-WANTED-02", why="Pay Off Your Warrants")
    ctx.change(hero, "wanted", -ctx.hero(hero).wanted, rule="FT-WANTED-02", why="warrants paid off")
    ctx.emit("warrants_paid", f"{ctx.name(hero)} is no longer Wanted!", hero=hero, rule="FT-WANTED-02",
             reason="paid")  # fmt: skip
    if barred_by(ctx.state, hero, SHERIFF) is not None:
        close_visit(ctx, hero, why="not welcome here even with the warrants paid")
    elif entering:
        yield from location_event(ctx, hero, SHERIFF)

