"""The Town Stay as a screen would show it: the Day, its event, and for each hero their markers, bed, visit, where they
may go (and why not elsewhere), what they may buy at what price, sell and use. Derived from the state and the pack,
for presenters; the legal commands stay the authority on what is accepted."""

from __future__ import annotations

from dataclasses import dataclass

from ...legal import LegalCommand
from ...prompts import Option
from ...state import Bounty, DailyEvent, Lodging, Phase, Session, StayStage, Wheel
from .common import closed_reason, content, known_locations, stay_of
from .shop import offers, saleable
from .tokens import usable


@dataclass(frozen=True, slots=True)
class HeroInTown:
    """One hero's standing in town today."""

    hero: str
    name: str
    unwanted_attention: int
    wanted: int  # 0, 1 Wanted!, 2 Most Wanted!
    lodging: Lodging | None
    location: str  # today's visit ("" before it)
    visiting: bool  # still at `location`
    may_visit: tuple[str, ...]
    closed: tuple[tuple[str, str], ...]  # (Location, why not) for the others
    wares: tuple[Option, ...]  # what they can buy now: `costs` holds the price
    sells: tuple[str, ...]
    tokens: tuple[str, ...]  # Side Bag tokens usable now
    actions: tuple[str, ...]  # the command types this hero may send now


@dataclass(frozen=True, slots=True)
class StayView:
    day: int
    stage: StayStage
    max_days: int  # 0: no cap
    event: DailyEvent | None
    town_type: str
    special_rules: tuple[str, ...]  # the Specialty Town card's, when the pack has them (FT-TOWN-08)
    hotel_price: int
    heroes: tuple[HeroInTown, ...]
    bounties: tuple[Bounty, ...]
    wheel: Wheel | None
    over: bool


def stay_view(state: Session, legal: tuple[LegalCommand, ...] = ()) -> StayView | None:
    """The stay for a screen, or None out of town; pass `legal_commands(state)` to fill each hero's `actions`."""
    if state.phase is not Phase.TOWN or state.town is None:
        return None
    stay = stay_of(state)
    stay_content = content(state)
    heroes = []
    for hero in state.active_heroes:
        visit = stay.visit(hero.id)
        may, closed = [], []
        for place in known_locations(state):
            reason = closed_reason(state, hero.id, place)
            if reason is None:
                may.append(place)
            else:
                closed.append((place, reason[0].split(": ", 1)[-1]))
        heroes.append(HeroInTown(
            hero.id, hero.name, hero.unwanted_attention, hero.wanted, stay.lodged(hero.id),
            visit.location if visit else "", bool(visit and visit.open),
            tuple(may) if visit is None and stay.stage is StayStage.DAY else (), tuple(closed),
            offers(state, hero.id), saleable(state, hero.id), usable(state, hero.id),
            tuple(dict.fromkeys(c.type for c in legal if c.hero == hero.id)),
        ))  # fmt: skip
    return StayView(
        stay.day, stay.stage, state.carry.max_days, stay.event, state.town.town_type,
        stay_content.town_type(state.town.town_type).special_rules, stay_content.hotel_price * stay.hotel_price_factor,
        tuple(heroes), state.carry.bounties, stay.wheel, stay.over,
    )  # fmt: skip
