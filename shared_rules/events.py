"""What happened, for the log and the screens: each event says what changed, for whom, and which roll led there."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .dice import Roll


class EventType(str, Enum):
    """Every kind of log line, so clients can switch on it; a rule area adds its own kinds here."""

    # the engine core (flow.py)
    ROLLED = "rolled"  # a roll landed, with its purpose
    TEST = "test"  # a skill test passed or failed
    ANSWERED = "answered"  # a choice or a random draw was made
    PROMPT = "prompt"  # the rules wait for the table
    CARD = "card"  # a chart or card was resolved
    CHANGED = "changed"  # a hero value moved
    KNOCKED_OUT = "knocked_out"
    GRIT_LOST = "grit_lost"  # Recovered Grit past Max Grit is lost (FF-GRIT-07)
    ITEM_GAINED = "item_gained"
    ITEM_LOST = "item_lost"
    TOKEN_GAINED = "token_gained"
    TOKEN_LOST = "token_lost"
    NOTHING_LOST = "nothing_lost"  # a loss that found nothing to take
    CARRY = "carry"  # a flag carried into the Town Stay or the next Adventure
    PHASE = "phase"  # the posse moved on (to town, to the next Adventure ...)
    ADJUSTED = "adjusted"  # a manual adjustment at the table
    # the road (rules/travel)
    HAZARD_COUNT = "hazard_count"
    HAZARD = "hazard"
    HITS = "hits"
    NOTHING_TO_LOSE = "nothing_to_lose"
    CANNOT_PAY = "cannot_pay"
    SKIPPED = "skipped"
    SEARCH = "search"
    PLAGUE_CHURCH = "plague_church"
    HERO_REMOVED = "hero_removed"
    # arriving in town (rules/town)
    TOWN_TYPE = "town_type"
    TOWN_BUILT = "town_built"
    TOWN_SHORT = "town_short"
    BUILDING_DESTROYED = "building_destroyed"
    # the Town Stay (rules/stay)
    DAY_BEGUN = "day_begun"  # a new Day in town (FT-DAY-01)
    DAILY_EVENT = "daily_event"  # the Daily Event card read (FT-DAY-01/02)
    LODGING = "lodging"  # Hotel or Camp Site for the night
    TOWN_CHART = "town_chart"  # an entry of a town chart (Camp Site Hazard, Town Event, Location Event ...) read
    VISIT = "visit"  # a hero begins a Location visit
    VISIT_ENDED = "visit_ended"
    TROUBLE = "trouble"  # Unwanted Attention: the trouble check and the attack (FT-UA-04/05)
    DUEL = "duel"  # the Dying Marshal's escaped prisoner called out (FT-TRAVEL-D62)
    PURCHASE = "purchase"
    SALE = "sale"
    WARRANTS_PAID = "warrants_paid"  # FT-WANTED-02
    BOUNTY_POSTED = "bounty_posted"  # FT-BOUNTY-01/02
    BOUNTY_PAID = "bounty_paid"  # a kill settled against the open Bounties (FT-BOUNTY-03)
    WHEEL = "wheel"  # a Devil's Wheel roll landed and was scored (FT-WHEEL-02/03)
    JACKPOT = "jackpot"  # a Devil's Head jackpot try (FT-WHEEL-05)
    TOKEN_USED = "token_used"  # a Side Bag token discarded for its effect (FT-BAG)
    TOWN_EVENT = "town_event"  # the end-of-Day Town Event check
    DAY_ENDED = "day_ended"
    LOCATION_CLOSED = "location_closed"  # a Location that can no longer be visited this Stay
    # the service (not rules): a table opened, steps undone
    SESSION_CREATED = "session_created"
    UNDONE = "undone"


@dataclass(frozen=True, slots=True)
class Change:
    """One value that moved: a hero field (`xp`, `wounds`, ...), an item or token (name in before/after)."""

    field: str
    before: int | str | bool
    after: int | str | bool


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the log, in plain words, with the rule id and the structured change or roll behind it."""

    type: EventType
    text: str
    hero: str | None = None
    rule: str = ""
    changes: tuple[Change, ...] = ()
    roll: Roll | None = None
