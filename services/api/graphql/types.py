"""GraphQL types: the same JSON the REST door returns, typed where a client reads fields (events, prompts, legal
commands) and a JSON scalar where the engine's value is the contract (state, commands, rolls, results).
"""

from __future__ import annotations

from typing import Any, NewType

import strawberry
from strawberry.scalars import JSON

MAX_LONG = 2**53

Long = NewType("Long", int)
LONG = strawberry.scalar(
    name="Long",
    description="A whole number within +-2^53 (seeds); GraphQL's Int stops at 2^31-1.",
    serialize=int,
    parse_value=lambda value: _long(value),
)
SCALARS: dict[object, Any] = {Long: LONG}


def _long(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not -MAX_LONG <= value <= MAX_LONG:
        raise ValueError(f"Long: expected a whole number within +-2^53, got {value!r}")
    return value


@strawberry.type(description="One value that moved: a hero field, an item or a token.")
class Change:
    field: str
    before: JSON
    after: JSON


@strawberry.type(description="One line of the log: what happened, to whom, by which rule and roll.")
class Event:
    type: str
    text: str
    hero: str | None
    rule: str
    changes: list[Change]
    roll: JSON | None = strawberry.field(description="the roll behind it (purpose, kind, faces ...), or null")

    @classmethod
    def of(cls, data: dict[str, Any]) -> Event:
        changes = [Change(field=c["field"], before=c["before"], after=c["after"]) for c in data["changes"]]
        return cls(type=data["type"], text=data["text"], hero=data["hero"], rule=data["rule"], changes=changes,
                   roll=data["roll"])


@strawberry.type
class Option:
    key: str
    label: str


@strawberry.type(description="A question waiting for the table; `answerWith` is the command type that answers it.")
class Prompt:
    id: str
    kind: str
    question: str
    answer_with: str
    hero: str | None
    rule: str
    options: list[Option]
    purpose: str
    die: str | None
    dice_count: int
    chart: str
    roll: JSON | None

    @classmethod
    def of(cls, data: dict[str, Any] | None) -> Prompt | None:
        if data is None:
            return None
        return cls(id=data["id"], kind=data["kind"], question=data["question"], answer_with=data["answer_with"],
                   hero=data["hero"], rule=data["rule"], options=[Option(key=o["key"], label=o["label"])
                                                                   for o in data["options"]],
                   purpose=data["purpose"], die=data["die"], dice_count=data["dice_count"], chart=data["chart"],
                   roll=data["roll"])


@strawberry.type(description="A command the engine accepts now, with the values it may take.")
class LegalCommand:
    type: str
    prompt: str
    hero: str | None
    options: list[str]
    note: str

    @classmethod
    def many(cls, items: list[dict[str, Any]]) -> list[LegalCommand]:
        return [cls(type=i["type"], prompt=i["prompt"], hero=i["hero"], options=list(i["options"]), note=i["note"])
                for i in items]


@strawberry.type(description="A table's latest version.")
class Session:
    session_id: str
    version: int
    state: JSON = strawberry.field(description="shared_rules.encode_state(state): the whole game state")
    pending: Prompt | None
    legal_commands: list[LegalCommand]

    @classmethod
    def of(cls, data: dict[str, Any]) -> Session:
        return cls(session_id=data["session_id"], version=data["version"], state=data["state"],
                   pending=Prompt.of(data["pending"]), legal_commands=LegalCommand.many(data["legal_commands"]))


@strawberry.type(description="A new table: its join code, its table token (send as Authorization: Bearer) and state.")
class SessionCreated(Session):
    token: str

    @classmethod
    def of(cls, data: dict[str, Any]) -> SessionCreated:
        base = Session.of(data)
        return cls(token=data["token"], session_id=base.session_id, version=base.version, state=base.state,
                   pending=base.pending, legal_commands=base.legal_commands)


@strawberry.type(description="The version a write produced (applied to `basedOn`), its events and the new state.")
class CommandResult(Session):
    based_on: int
    events: list[Event]
    replayed: bool = strawberry.field(description="answered from an earlier request with the same idempotencyKey")

    @classmethod
    def of(cls, data: dict[str, Any], replayed: bool = False) -> CommandResult:
        base = Session.of(data)
        return cls(based_on=data["based_on"], events=[Event.of(e) for e in data["events"]], replayed=replayed,
                   session_id=base.session_id, version=base.version, state=base.state, pending=base.pending,
                   legal_commands=base.legal_commands)


@strawberry.type(description="A new version of a table, as it is written.")
class SessionChange(Session):
    events: list[Event]
    command: JSON = strawberry.field(description="the command that produced it (or the undo request)")

    @classmethod
    def of(cls, data: dict[str, Any]) -> SessionChange:
        base = Session.of(data)
        return cls(events=[Event.of(e) for e in data["events"]], command=data["command"],
                   session_id=base.session_id, version=base.version, state=base.state, pending=base.pending,
                   legal_commands=base.legal_commands)


@strawberry.type(description="What the table may send now and the prompt waiting for an answer.")
class LegalCommands:
    session_id: str
    version: int
    pending: Prompt | None
    legal_commands: list[LegalCommand]

    @classmethod
    def of(cls, data: dict[str, Any]) -> LegalCommands:
        return cls(session_id=data["session_id"], version=data["version"], pending=Prompt.of(data["pending"]),
                   legal_commands=LegalCommand.many(data["legal_commands"]))


@strawberry.type(description="One entry of the append-only log.")
class LogEntry:
    version: int
    command: JSON
    events: list[Event]
    at: float


@strawberry.type(description="A page of the log, oldest first; pass nextAfter as `after` for the next page.")
class EventPage:
    session_id: str
    version: int
    entries: list[LogEntry]
    next_after: int | None

    @classmethod
    def of(cls, data: dict[str, Any]) -> EventPage:
        entries = [LogEntry(version=e["version"], command=e["command"], events=[Event.of(x) for x in e["events"]],
                            at=e["at"]) for e in data["entries"]]
        return cls(session_id=data["session_id"], version=data["version"], entries=entries,
                   next_after=data["next_after"])


@strawberry.type(description="Join codes of the tables (event host only).")
class SessionList:
    sessions: list[str]
    next_after: str | None


@strawberry.type(description="A simulation job: status, progress 0..1 and, once finished, the distribution.")
class SimulationJob:
    job_id: str
    status: str
    progress: float
    trials: int
    chunks: int
    seed: Long
    size: str
    backend: str
    result: JSON | None = strawberry.field(description="shared_rules.simulate.summarize() once finished")
    error: str | None

    @classmethod
    def of(cls, data: dict[str, Any]) -> SimulationJob:
        return cls(**{key: data[key] for key in ("job_id", "status", "progress", "trials", "chunks", "seed",
                                                 "size", "backend", "result", "error")})


@strawberry.type
class Health:
    status: str
    storage: str
    simulations: str
