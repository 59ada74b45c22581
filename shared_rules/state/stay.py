"""The Town Stay under way: the Day and its Daily Event, where each hero sleeps and visits, the Devil's Wheel round
being played, and the Bounties posted (FT-DAY, FT-UA, FT-WANTED, FT-BOUNTY, FT-WHEEL).

Owned by `rules/stay`; it exists from arrival in town until the Stay ends. Bounties outlive it: they are carried
(`Carry.bounties`) until the next Adventure settles them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class StayStage(str, Enum):
    """Where the posse is in the current Day (FT-DAY-01)."""

    DAWN = "dawn"  # a new Day: the Daily Event card is drawn next (`start_day`)
    DAY = "day"  # the Daily Event is read and everyone has a bed: heroes visit Locations
    NIGHT = "night"  # the Day is over: another Day (`start_day`) or leave (`end_town_stay`)


class Lodging(str, Enum):
    """Where a hero spends the night: the Hotel (paid) or the Camp Site (free, with its hazards)."""

    HOTEL = "hotel"
    CAMP_SITE = "camp_site"


class DieLie(str, Enum):
    """Where a Devil's Wheel die came to rest, as the table sees it (FT-WHEEL-03, A16)."""

    OFF = "off"  # off the cards: no points
    CARD_EDGE = "card_edge"  # partly on an Artifact card: points = face
    HEAD_EDGE = "head_edge"  # partly on the Devil's Head, not wholly on the cards (A16): face, and a jackpot try
    ON_CARDS = "on_cards"  # entirely on the cards, not touching the Head: 2 x face
    ON_HEAD = "on_head"  # entirely on the cards and/or the Head, touching the Head: 2 x face, and a jackpot try

    @property
    def factor(self) -> int:
        """Points per pip: 0 off the cards, 1 partly on them, 2 entirely on them (FT-WHEEL-03)."""
        return {"off": 0, "card_edge": 1, "head_edge": 1, "on_cards": 2, "on_head": 2}[self.value]

    @property
    def on_head(self) -> bool:
        """At least partly on the Devil's Head: a jackpot may be tried with this die (FT-WHEEL-05)."""
        return self in (DieLie.HEAD_EDGE, DieLie.ON_HEAD)


@dataclass(frozen=True, slots=True)
class DailyEvent:
    """Today's Daily Event card, read at the start of the Day and discarded at its end (FT-DAY-01)."""

    name: str
    text: str = ""
    just_another_day: bool = False  # FT-DAY-02: in a Specialty Town it rolls the town card's chart
    lasting: bool = False  # its effect lasts the whole Day (else immediate)
    closes: tuple[str, ...] = ()  # Locations that may not be visited today
    location_event_modifier: int = 0  # added to today's Location Event rolls
    camp_site_modifier: int = 0  # added to tonight's Camp Site Hazard rolls


@dataclass(frozen=True, slots=True)
class Lodger:
    """Where one hero sleeps this Day."""

    hero: str
    at: Lodging


@dataclass(frozen=True, slots=True)
class Visit:
    """One hero's Location visit of the Day: at most one per hero per Day; open until the hero leaves it."""

    hero: str
    location: str
    open: bool = True
    roll: int = 0  # the Location Event Chart's 2D6 (0: no roll, e.g. paying off warrants)
    gained_gold: bool = False  # gained any Gold during the visit, for any reason (FT-UA-02)
    wheel_rounds: int = 0  # Devil's Wheel rounds played on this visit (FT-WHEEL-02)


@dataclass(frozen=True, slots=True)
class WheelDie:
    """One Devil's Wheel die: its face and where it lies."""

    face: int
    lies: DieLie

    @property
    def points(self) -> int:
        return self.face * self.lies.factor  # FT-WHEEL-03


@dataclass(frozen=True, slots=True)
class Wheel:
    """A round of the Devil's Wheel under way: up to three rolls of three dice (FT-WHEEL-02)."""

    hero: str
    rolls: int = 0
    dice: tuple[WheelDie, ...] = ()

    @property
    def score(self) -> int:
        return sum(die.points for die in self.dice)  # FT-WHEEL-03


@dataclass(frozen=True, slots=True)
class Bounty:
    """A Bounty posted in town, open until the next Adventure settles it (FT-BOUNTY-01..03).

    It covers every Enemy using `enemy`'s Record Sheet (Infamous and OtherWorld versions too, FT-FAQ-05) and pays
    `gold` per model: to the hero who kills it, or to every hero when `all_heroes` (a variable-XP Enemy).
    """

    source: str  # "outpost" (the Frontier Outpost, FT-BOUNTY-01) or "sheriff" (the Sheriff's Bounty, FT-BOUNTY-02)
    enemy: str
    gold: int
    all_heroes: bool = False
    posted_by: str = ""


@dataclass(frozen=True, slots=True)
class Stay:
    """Where the posse is in its Town Stay (FT-DAY-01): the Day, its event, beds, visits and the Devil's Wheel."""

    day: int = 1
    stage: StayStage = StayStage.DAWN
    event: DailyEvent | None = None  # today's Daily Event (discarded at the end of the Day)
    drawn: tuple[str, ...] = ()  # Daily Event cards drawn this Stay: the rest of the shuffled deck is still to come
    lodging: tuple[Lodger, ...] = ()  # where each hero sleeps this Day
    visits: tuple[Visit, ...] = ()  # today's visits, in the order they began
    wheel: Wheel | None = None  # a Devil's Wheel round under way
    camp_site_closed: bool = False  # a Town Event closed it for the rest of the Stay
    hotel_price_factor: int = 1  # a Town Event can raise the Hotel's rate (x2 ...)
    darkness: int = 1  # the Town Darkness marker of the end-of-Day Town Event check (option `town_events`)
    marshal_fought: bool = False  # the escaped prisoner was called out (FT-TRAVEL-D62): never again
    over: bool = False  # a Town Event ended the Stay: only leaving is left

    def visit(self, hero: str) -> Visit | None:
        """`hero`'s visit of the Day, open or over."""
        return next((v for v in self.visits if v.hero == hero), None)

    def open_visit(self, hero: str) -> Visit | None:
        visit = self.visit(hero)
        return visit if visit is not None and visit.open else None

    def lodged(self, hero: str) -> Lodging | None:
        return next((lodger.at for lodger in self.lodging if lodger.hero == hero), None)
