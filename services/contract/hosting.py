"""What an event's host sees and gets back (issue 13), as dataclasses the API model walks like the engine's own, so
the OpenAPI components and the GraphQL types are generated from these very classes (services/contract/model.py).

A table at a glance (`TableSummary`): its join code and number in the event, whether it plays, is paused or closed,
the posse's numbers, where it is (the road and its hazard, the town and its Day, the Adventure's turn and depth
track, the mission), its last activity and the alerts a host acts on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from services.contract.records import LogCommand
from shared_rules.events import Event
from shared_rules.meta import meta

COUNT = meta(minimum=0, maximum=2**31 - 1)  # GraphQL Int


class TableStatus(str, Enum):
    """Whether a table was never played yet (`not_started`: no move since it was opened), plays (`playing`), was
    paused by its host (readable, not writable) or closed (archived)."""

    NOT_STARTED = "not_started"
    PLAYING = "playing"
    PAUSED = "paused"
    CLOSED = "closed"


class AlertKind(str, Enum):
    """What a host acts on: the table called the host over, a hero died, a table went quiet for 20 minutes, a
    prompt waits for 5 minutes or more. A table never played (`not_started`) raises none."""

    HOST_CALLED = "host_called"
    HERO_DIED = "hero_died"
    IDLE = "idle"
    STUCK = "stuck"


class TokenRole(str, Enum):
    """The tokens a table has: `player` writes; `spectator` reads (for a judge or a stream)."""

    PLAYER = "player"
    SPECTATOR = "spectator"


@dataclass(frozen=True, slots=True)
class Alert:
    """Something the host should look at, with the time it began (Unix time)."""

    kind: AlertKind
    text: str  # in the host's words, e.g. "Hanzo died", "stuck on a question for 6 min", "idle: no move for 23 min"
    since: float


@dataclass(frozen=True, slots=True)
class HostCall:
    """The table called its event's host over: since when and why (in the table's words; may be empty)."""

    at: float
    reason: str


@dataclass(frozen=True, slots=True)
class HeroGlance:
    """A hero's numbers as the host sees them: Health and Sanity left of their maximum, level, down or dead."""

    id: str
    name: str
    level: int = field(metadata=COUNT)
    health: int = field(metadata=meta(minimum=-999, maximum=999))  # Health left (max Health less Wounds)
    max_health: int = field(metadata=COUNT)
    sanity: int = field(metadata=meta(minimum=-999, maximum=999))  # Sanity left (max Sanity less Sanity Damage)
    max_sanity: int = field(metadata=COUNT)
    knocked_out: bool
    dead: bool  # taken from the game for good


@dataclass(frozen=True, slots=True)
class Whereabouts:
    """Where a posse is: the phase and one line saying it, with the numbers behind it (null where they do not
    apply): the road's hazards, the town and its Day, the Adventure's turn, depth track and mission."""

    phase: str  # between_adventures, travel, arrival, town, adventure
    text: str  # e.g. "Road to a Medium Town: hazard 2 of 3 (Possession)"
    hazards_done: int | None = field(metadata=COUNT)
    hazards_total: int | None = field(metadata=COUNT)
    hazard: str | None  # the last Travel Hazard met (its D36 result's name)
    town: str | None  # size and type of the town reached
    day: int | None = field(metadata=COUNT)  # the Town Stay's Day
    turn: int | None = field(metadata=COUNT)  # the Adventure's turn
    mission: str | None
    mission_status: str | None  # the mission's counters, e.g. "clues 2"
    party: int | None = field(metadata=COUNT)  # the Hero Party marker's space on the depth track
    darkness: int | None = field(metadata=COUNT)  # the Darkness marker's space
    track_length: int | None = field(metadata=COUNT)


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One table of an event at a glance."""

    session_id: str
    number: int = field(metadata=COUNT)  # its number in the event (0: not in an event)
    status: TableStatus
    version: int = field(metadata=COUNT)
    last_activity: float  # Unix time of its last write
    posse: tuple[HeroGlance, ...]
    where: Whereabouts
    waiting_for: str | None  # the question a prompt waits on
    host_call: HostCall | None  # the table called its host over (until the host or the table clears it)
    alerts: tuple[Alert, ...]


@dataclass(frozen=True, slots=True)
class EventBoard:
    """An event and every table in it, at a glance (the host's dashboard as data)."""

    event_id: str
    name: str
    created_at: float
    now: float  # the server's clock when this was read (alerts are measured against it)
    tables: tuple[TableSummary, ...]


@dataclass(frozen=True, slots=True)
class EventCreated:
    """A new event: its id and its host token (shown once: keep it; a new one can be issued)."""

    event_id: str
    name: str
    created_at: float
    host_token: str


@dataclass(frozen=True, slots=True)
class EventList:
    """Event ids (the deployment's admin only)."""

    events: tuple[str, ...]
    next_after: str | None


@dataclass(frozen=True, slots=True)
class HostToken:
    """An event's new host token (the old one stopped working)."""

    event_id: str
    host_token: str


@dataclass(frozen=True, slots=True)
class NewTable:
    """A table the host opened: its join code, number, player token (shown once) and join link for a QR code."""

    session_id: str
    number: int = field(metadata=COUNT)
    token: str
    join_link: str  # brimstone://join?server=...&code=...&token=... (the phone app opens it)


@dataclass(frozen=True, slots=True)
class TablesCreated:
    """The tables the host opened, in number order."""

    event_id: str
    tables: tuple[NewTable, ...]


@dataclass(frozen=True, slots=True)
class TableToken:
    """A token a table was given: the new player token (the old one stopped working) or its spectator token."""

    session_id: str
    role: TokenRole
    token: str
    join_link: str


@dataclass(frozen=True, slots=True)
class TableStanding:
    """A table after its host paused or resumed it."""

    session_id: str
    status: TableStatus
    paused_at: float | None


@dataclass(frozen=True, slots=True)
class HostCallStanding:
    """A table's call for its host after it was raised or cleared (`host_call` null: no call)."""

    session_id: str
    host_call: HostCall | None


@dataclass(frozen=True, slots=True)
class ExportedEntry:
    """One version of a table's log: what made it, what happened and when."""

    version: int = field(metadata=COUNT)
    command: LogCommand = field(metadata=meta(enum="LogCommand", description=(
        "what made this version, as the log keeps it: an engine command, the opening of the table or an undo "
        "(`type` says which)")))
    events: tuple[Event, ...]
    at: float


@dataclass(frozen=True, slots=True)
class ExportedTable:
    """A table's whole log and a readable summary of its posse's evening."""

    session_id: str
    number: int = field(metadata=COUNT)
    table: TableSummary
    summary: str  # a few lines for people: the posse, where it got, what happened
    log: tuple[ExportedEntry, ...]


@dataclass(frozen=True, slots=True)
class EventExport:
    """After the event: every table's log and summary."""

    event_id: str
    name: str
    exported_at: float
    tables: tuple[ExportedTable, ...]


ROOTS = (EventBoard, EventCreated, EventList, HostToken, TablesCreated, TableToken, TableStanding, HostCallStanding,
         EventExport)
"""The output objects the API documents (and everything they contain)."""
