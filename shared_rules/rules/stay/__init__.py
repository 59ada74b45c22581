"""The Town Stay (rules-reference sections 10-15): the Days and their Daily Events, Hotel or Camp Site, Location
visits, Unwanted Attention, Wanted!, Bounties, the Devil's Wheel, Side Bag tokens, and leaving town.

A Day: `start_day` (the Daily Event, then beds), then each hero's `visit_location` (or `pay_off_warrants`) with
`buy`, `sell`, `set_bounty`, the Devil's Wheel and `end_visit`, and `end_day`; then another Day or `end_town_stay`.
`use_token` works at any time in town.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...legal import LegalCommand
from ...state import Phase, Session, StayStage
from ..area import Area, CommandRule
from .bounty import METHODS, bounty_payouts, check_set_bounty, close_bounties, set_bounty, settle_kill
from .common import GAMBLING_HALL, SHERIFF, open_locations, stay_of, unavailable
from .days import (
    begin_stay,
    check_end_day,
    check_end_town_stay,
    check_start_day,
    end_day,
    end_town_stay,
    start_day,
)
from .shop import buy, check_buy, check_sell, offers, pack_lists_shops, saleable, sell
from .tokens import check_use_token, usable, use_token
from .visits import check_end_visit, check_pay_off, check_visit, end_visit, pay_off_warrants, visit_location
from .wheel import ROLLS, check_play, check_roll, check_stop, play_devils_wheel, wheel_roll, wheel_stop

__all__ = ["AREA", "begin_stay", "bounty_payouts", "close_bounties", "settle_kill"]

TOWN = (Phase.TOWN,)
UNLISTED_WARES = ("the content pack lists no wares here: give the one on the Location's card as `ware` (its name) "
                  "with `price` (its $ cost) and, unless it is a Side Bag token the rules print (Spice, Potion ...), "
                  "`kind`: token, item (with its `tags`) or service (with its `effects`) (FT-TOWN-07)")
"""What `buy` takes when the pack does not say what a Location sells (its legal command then lists no wares)."""


def legal(state: Session) -> Iterator[LegalCommand]:
    """What each hero may do now in town: who may visit where today, what they may do on their visit."""
    if state.phase is not Phase.TOWN:
        return
    stay = stay_of(state)
    cap = state.carry.max_days
    if stay.stage is StayStage.DAY:
        for hero in state.active_heroes:
            yield from _hero(state, hero.id)
        if stay.wheel is None:
            yield LegalCommand("end_day", note=f"end Day {stay.day}")
    elif not stay.over and not (stay.stage is StayStage.NIGHT and cap and stay.day >= cap):
        day = stay.day + (stay.stage is StayStage.NIGHT)
        yield LegalCommand("start_day", note=f"Day {day}" + (f" of at most {cap}" if cap else "")
                           + ": draw the Daily Event, then the Hotel or the Camp Site")  # fmt: skip
    for hero in state.active_heroes:
        tokens = usable(state, hero.id)
        if tokens:
            yield LegalCommand("use_token", hero=hero.id, options=tokens, note="discard a token for its effect")
    if stay.wheel is None:
        yield LegalCommand("end_town_stay", note="leave town: Unwanted Attention is removed")


def _hero(state: Session, hero: str) -> Iterator[LegalCommand]:
    stay = stay_of(state)
    wheel = stay.wheel
    if wheel is not None and wheel.hero == hero:
        yield LegalCommand("wheel_roll", hero=hero, options=tuple(str(i) for i in range(3)),
                           note=f"roll {wheel.rolls + 1} of {ROLLS}: pick up any dice and roll them again")  # fmt: skip
        yield LegalCommand("wheel_stop", hero=hero, note=f"score {wheel.score} points now")
        return
    visit = stay.visit(hero)
    sheet = state.hero(hero)
    if visit is None:
        places = open_locations(state, hero)
        if places:
            yield LegalCommand("visit_location", hero=hero, options=tuple(places), note=f"Day {stay.day}: one visit")
        if sheet.wanted and unavailable(state, SHERIFF) is None:
            yield LegalCommand("pay_off_warrants", hero=hero, note="visit the Sheriff's Office to pay them off")
        return
    if not visit.open:
        return
    if sheet.wanted and visit.location == SHERIFF:
        yield LegalCommand("pay_off_warrants", hero=hero)
    wares = offers(state, hero)
    if wares or not pack_lists_shops(state):
        yield LegalCommand("buy", hero=hero, options=tuple(o.key for o in wares),
                           note=", ".join(o.label for o in wares) or UNLISTED_WARES)  # fmt: skip
    goods = saleable(state, hero)
    if goods:
        yield LegalCommand("sell", hero=hero, options=goods)
    methods = tuple(m for m, where in METHODS.items() if where == visit.location)
    if methods:
        yield LegalCommand("set_bounty", hero=hero, options=methods)
    if (visit.location == GAMBLING_HALL and wheel is None
            and visit.wheel_rounds < state.options.wheel_rounds_per_visit):  # fmt: skip
        yield LegalCommand("play_devils_wheel", hero=hero, note="up to three rolls of three dice")
    yield LegalCommand("end_visit", hero=hero, note=f"leave the {visit.location}")


AREA = Area(
    "stay",
    {
        "start_day": CommandRule(start_day, TOWN, "FT-DAY-01", "Days are spent in town", check_start_day),
        "visit_location": CommandRule(visit_location, TOWN, "FT-TOWN-07", "Locations are visited in town",
                                      check_visit),
        "end_visit": CommandRule(end_visit, TOWN, "FT-UA-02", "a visit ends in town", check_end_visit),
        "buy": CommandRule(buy, TOWN, "FT-TOWN-07", "wares are bought on a visit in town", check_buy),
        "sell": CommandRule(sell, TOWN, "FT-TOWN-07", "things are sold on a visit in town", check_sell),
        "pay_off_warrants": CommandRule(pay_off_warrants, TOWN, "FT-WANTED-02", "warrants are paid off in town",
                                        check_pay_off),
        "set_bounty": CommandRule(set_bounty, TOWN, "FT-BOUNTY-01", "Bounties are posted in town", check_set_bounty),
        "play_devils_wheel": CommandRule(play_devils_wheel, TOWN, "FT-WHEEL-01", "the Devil's Wheel is in town",
                                         check_play),
        "wheel_roll": CommandRule(wheel_roll, TOWN, "FT-WHEEL-02", "the Devil's Wheel is in town", check_roll),
        "wheel_stop": CommandRule(wheel_stop, TOWN, "FT-WHEEL-03", "the Devil's Wheel is in town", check_stop),
        "use_token": CommandRule(use_token, TOWN, "FT-BAG-05", "tokens are used here out of a fight in town",
                                 check_use_token),
        "end_day": CommandRule(end_day, TOWN, "FT-DAY-01", "Days are spent in town", check_end_day),
        "end_town_stay": CommandRule(end_town_stay, TOWN, "FT-UA-06", "a Town Stay can only end in town",
                                     check_end_town_stay),
    },
    legal,
)
