"""The GraphQL views around the engine's values (a table, a write's result, the log, a simulation job), written as
dataclasses and turned into GraphQL types by the same generator as the engine's own (generated.py). Resolvers
return the use cases' JSON as it is; each field reads its key (or `source`).

`state` (one JSON value, as REST returns it) stays for clients that want the whole snapshot; everything in it is
also typed under `game`. Fields of API 1.0 that a typed field replaces are deprecated, not removed (docs/api.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Optional

from services.api.graphql.generated import typed
from services.contract.records import LogCommand
from services.contract.summary import SimulationResult
from shared_rules import state as engine_state
from shared_rules.engine import LegalCommand
from shared_rules.events import Event
from shared_rules.meta import meta
from shared_rules.prompts import Prompt
from shared_rules.state import TownSize

COUNT = meta(minimum=0, maximum=2**31 - 1)  # versions and counts: GraphQL Int


def source(key: str, **info: Any) -> dict[str, Any]:
    """Metadata of a view field that reads another key of the JSON (`game` reads `state`)."""
    return {"source": key, **meta(**info)}


_APPLIED = source("command", enum="LogCommand", description="what made this version: an engine command, the "
                                                            "opening of the table, or an undo (`__typename` says which)")
_DEPRECATED_COMMAND = meta(description="the same as one JSON value", deprecated="Use `applied`: the same command, "
                                                                                "typed. Removed in API 2.0.")


@dataclass(frozen=True)
class Session:
    """A table's latest version: the typed game state (`game`), the prompt waiting and the legal commands."""

    __api_name__ = "Session"
    session_id: str
    version: int = field(metadata=COUNT)
    game: engine_state.Session = field(metadata=source("state", description="the game state, typed: ask only for "
                                                                            "the fields you show"))
    state: Any = field(metadata=meta(description="the same state as one JSON value (the snapshot REST returns)"))
    pending: Prompt | None = field(metadata=meta(description="the question waiting for an answer, or null"))
    legal_commands: tuple[LegalCommand, ...] = field(metadata=meta(description="the commands the engine accepts now"))


@dataclass(frozen=True)
class SessionCreated(Session):
    """A new table: its join code, its table token (send as Authorization: Bearer) and its first state."""

    token: str


@dataclass(frozen=True)
class CommandResult(Session):
    """The version a write produced (applied to `basedOn`), its events and the new state."""

    based_on: int = field(metadata=COUNT)
    events: tuple[Event, ...]
    replayed: bool = field(metadata=meta(description="answered from an earlier request with the same idempotencyKey"))


@dataclass(frozen=True)
class SessionChange(Session):
    """A new version of a table, as it is written."""

    events: tuple[Event, ...]
    command: Any = field(metadata=_DEPRECATED_COMMAND)
    applied: LogCommand = field(metadata=_APPLIED)


@dataclass(frozen=True)
class LegalCommands:
    """What the table may send now and the prompt waiting for an answer."""

    session_id: str
    version: int = field(metadata=COUNT)
    pending: Prompt | None
    legal_commands: tuple[LegalCommand, ...]


@dataclass(frozen=True)
class LogEntry:
    """One entry of the append-only log: the version it made, what made it, what happened, when (Unix time)."""

    version: int = field(metadata=COUNT)
    command: Any = field(metadata=_DEPRECATED_COMMAND)
    applied: LogCommand = field(metadata=_APPLIED)
    events: tuple[Event, ...]
    at: float


@dataclass(frozen=True)
class EventPage:
    """A page of the log, oldest first; pass nextAfter as `after` for the next page."""

    session_id: str
    version: int = field(metadata=COUNT)
    entries: tuple[LogEntry, ...]
    next_after: int | None = field(metadata=COUNT)


@dataclass(frozen=True)
class SessionList:
    """Join codes of the tables (event host only)."""

    sessions: tuple[str, ...]
    next_after: str | None


class SimulationStatus(str, Enum):
    """Where a simulation job is."""

    QUEUED = "queued"
    RUNNING = "running"
    FINISHED = "finished"
    FAILED = "failed"


class SimulationBackend(str, Enum):
    """Where simulations run: rq workers, or the server's own pool."""

    RQ = "rq"
    EMBEDDED = "embedded"


@dataclass(frozen=True)
class SimulationJob:
    """A simulation job: status, progress 0..1 and, once finished, the distributions (`summary`)."""

    job_id: str
    status: SimulationStatus
    progress: float
    trials: int = field(metadata=COUNT)
    chunks: int = field(metadata=COUNT)
    seed: int = field(metadata=meta(minimum=0))
    size: TownSize
    backend: SimulationBackend
    result: Optional[Any] = field(metadata=meta(description="the same as one JSON value",  # noqa: UP045
                                      deprecated="Use `summary`: the same result, typed. Removed in API 2.0."))
    summary: SimulationResult | None = field(metadata=source("result", description="the distributions, once "
                                                                                    "finished"))
    error: str | None


@dataclass(frozen=True)
class Health:
    """The service is up, and which storage and simulation backend it uses."""

    status: str
    storage: str
    simulations: SimulationBackend


SessionType = typed(Session)
SessionCreatedType = typed(SessionCreated)
CommandResultType = typed(CommandResult)
SessionChangeType = typed(SessionChange)
LegalCommandsType = typed(LegalCommands)
EventPageType = typed(EventPage)
SessionListType = typed(SessionList)
SimulationJobType = typed(SimulationJob)
HealthType = typed(Health)
