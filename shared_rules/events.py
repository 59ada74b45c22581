"""What happened, for the log and the screens: each event says what changed, for whom, and which roll led there."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .dice import Roll
from .frozen import quick
from .meta import meta
from .state.adventure import Place


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
    # the adventure (rules/adventure)
    ADVENTURE_STARTED = "adventure_started"  # set up: mission, track, scaling (FF-SETUP-01, FF-SCALE-01)
    TURN_STARTED = "turn_started"  # a new game turn and its start-of-turn effects (FF-TURN-01)
    DARKNESS_HELD = "darkness_held"  # Hold Back the Darkness passed (FF-DEPTH-04)
    DARKNESS_MOVED = "darkness_moved"  # the Darkness marker moved (FF-DEPTH-04, A5)
    PARTY_MOVED = "party_moved"  # the Hero Party marker moved (FF-DEPTH-03)
    DEPTH_EVENT = "depth_event"  # natural doubles (FF-DEPTH-05)
    DARKNESS_CARD = "darkness_card"  # a Blood Spatter space (FF-DEPTH-07)
    GROWING_DREAD = "growing_dread"  # a Growing Dread card added (FF-DEPTH-08, FF-EXPL-05, FT-DEPTH-01)
    ACTIVATED = "activated"  # a figure's activation began or ended (FF-TURN-03)
    MOVED = "moved"  # a hero moved, or bought more Move (FF-MOVE-01/03)
    TILE_PLACED = "tile_placed"  # Look Through a Door placed a Map Tile (FF-EXPL-01)
    SCAVENGED = "scavenged"  # a Scavenge succeeded (FF-SCAV-01)
    TOKEN_REVEALED = "token_revealed"  # Room Exploration (FF-EXPL-02..06)
    ENCOUNTER = "encounter"  # an Encounter or Attack! to resolve (FF-EXPL-04)
    OBJECTIVE = "objective"  # the mission's Objective found (FF-EXPL-06)
    ENEMIES_ARRIVED = "enemies_arrived"  # enemies put on the board: a Fight is on
    HIT = "hit"  # a Hit and the Wounds it did, or a save
    KILLED = "killed"  # an enemy's Wounds reached its Health
    FIGHT_OVER = "fight_over"  # no enemy is left on the board
    RESOURCE = "resource"  # Fury, Ki, Mana, Arcane Powder moved (§20)
    SPELL = "spell"  # a Spell cast or failed (FF-SORC-04/05)
    TACTIC = "tactic"  # a Battle Tactic used (FF-SAM-02)
    BELL = "bell"  # the Sacred Bell rung (FF-MONK-02)
    REVIVED = "revived"  # a Revive Token used, or a KO'd hero back up (FF-HERO-13)
    END_OF_TURN = "end_of_turn"  # an End of the Turn effect resolved (FF-TURN-04)
    FLED = "fled"  # the posse ran away (FF-END-04)
    ADVENTURE_ENDED = "adventure_ended"  # won or failed, and what the end of an Adventure clears (FF-END-01..05)
    MISSION = "mission"  # a mission's own rule resolved
    # the Town Missions (rules/missions)
    BANDIT = "bandit"  # one Bandit's proposed move, target and line of fire (FT-BANDIT-03..08)
    SHOT = "shot"  # a Bandit's Ranged Attack resolved (FT-BANDIT-06, FT-BOARD-07)
    PLACED = "placed"  # the table put a model where it really stands (the physical board wins)
    # the service (not rules): a table opened, steps undone
    SESSION_CREATED = "session_created"
    UNDONE = "undone"


@quick
@dataclass(frozen=True, slots=True)
class Change:
    """One value that moved: a hero field (`xp`, `wounds`, ...), an item or token (name in before/after)."""

    field: str
    before: int | str | bool
    after: int | str | bool


FACTS = (
    "skill", "target", "passed", "successes", "purpose", "why", "item", "token", "reason", "number", "value",
    "name", "count", "size", "hits", "hit_kind", "chart", "card_text", "location", "price", "to", "turned_back",
    "town_type", "day", "max_days", "where", "turn", "before", "after", "toward", "figure", "ends", "first",
    "second", "max_before", "max_after", "mission", "asks",
    "reroll",  # a roll prompt: the dice re-rolled (for Grit, Lantern Oil) of the roll its key and facts name
)  # fmt: skip

"""The names an event's facts may have; what each means for a kind is in docs/api.md ("Event facts")."""


@quick
@dataclass(frozen=True, slots=True)
class Fact:
    """One value an event's words are made from (`skill` "agility", `target` 5, `passed` true): a client words
    the event in its own language from its `type` and these, and falls back to `text` for a kind it does not know.
    Names of things (items, hazards, Locations, cards) are the content's own; `why` and `card_text` are English."""

    name: str = field(metadata=meta(choices=FACTS, enum="FactName"))
    value: int | str | bool


@dataclass(frozen=True, slots=True)
class FireLine:
    """One Shootout marker: the Ranged Attack a Bandit makes at a Hero, from and to which squares, and whether the
    Hero makes Cover Saves against it (FT-BANDIT-06, FT-BOARD-07)."""

    target: str
    frm: tuple[int, int]
    to: tuple[int, int]
    target_in_cover: bool = False


@dataclass(frozen=True, slots=True)
class BanditStep:
    """One clause of a Bandit's proposal, as data a client words in its own language (the engine's `text` is the
    English): `what` is rooftop_melee, retreats, stuck_melee, stays_melee, rooftop_no_target, rooftop_targets,
    stays_in_cover_targets, no_target, takes_cover, stays_in_cover, moves, no_cover_moves, targets, no_attack or
    new_target; `roll` the D6 it rolled for it, `count` the spaces it moves, `heroes` the Heroes it is next to (or
    the target it cannot reach), `target` the Hero it targets or fights, `cover` and `building` its Cover (door,
    window, doorway, corner, diagonal door, rooftop) and where, `roof` a rooftop, `entry` the Entry Area it comes on
    at, `weapon` its weapon's name."""

    what: str
    roll: int = 0
    count: int = 0
    heroes: tuple[str, ...] = ()
    target: str = ""
    cover: str = ""
    building: int = 0
    roof: str = ""
    entry: str = ""
    weapon: str = ""


@dataclass(frozen=True, slots=True)
class BanditPlan:
    """What one Bandit does in its group's activation, as data for the table and the board on screen: where it
    starts, the squares it steps through, where it ends, why (`reason`: retreat, melee, cover, advance, stay,
    rooftop, no_target), its target, its Cover, the dice it rolled (retreat/cover) and its shots."""

    bandit: str
    start: Place
    path: tuple[tuple[int, int], ...]
    end: Place
    reason: str
    action: str  # ranged, melee or none
    target: str = ""
    cover: str = ""
    dice: tuple[int, ...] = ()
    shots: tuple[FireLine, ...] = ()
    steps: tuple[BanditStep, ...] = ()  # what it does, clause by clause, for a client to word


@quick
@dataclass(frozen=True, slots=True)
class Event:
    """One line of the log, in plain words, with the rule id and the structured change, roll and facts behind it
    (`text` is the English line; `facts` what it says, for clients that word it themselves)."""

    type: EventType
    text: str
    hero: str | None = None
    rule: str = ""
    changes: tuple[Change, ...] = ()
    roll: Roll | None = None
    bandit: BanditPlan | None = None  # a Bandit's proposal (type "bandit")
    facts: tuple[Fact, ...] = ()
