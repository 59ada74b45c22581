"""One interface to a table, two ways to reach it: the service over GraphQL, or the rules engine in the app.

`TableBackend` is what the presenters use: create, join, load, submit(command, idempotency_key), undo(n),
subscribe(callback). `GraphQLBackend` speaks to `services/api/graphql` (gql: HTTP for queries and mutations, a
websocket for the `sessionUpdates` subscription); `OfflineBackend` runs `shared_rules` on the phone and keeps the
session, every state it passed through (for undo) and its event log in one local JSON file.

Both hand back a `Snapshot`: the decoded state, its version and the log of applied steps. Errors are sorted into
what a table can act on: `ConnectionLost` (resend later, same idempotency key), `VersionConflict` (the table moved
on), `CommandRejected` (the rules refused it; message, field and rule from the engine), `TableNotFound`,
`NotAuthorized`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import functools
import json
import os
import re
import secrets
import threading
import time
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, Union

from shared_rules import (
    Command,
    Event,
    EventType,
    Hero,
    LegalCommand,
    Prompt,
    RuleOptions,
    RulesError,
    Session,
    apply,
    decode_command,
    decode_event,
    decode_state,
    encode,
    encode_event,
    encode_state,
    legal_commands,
    new_session,
)
from shared_rules.events import Fact

UNDO_RULE = "SVC-UNDO"  # the service's exact undo (services/use_cases.py)
OFFLINE_FORMAT = "brimstone-offline"
OFFLINE_SCHEMA = 2  # 1: one JSON object holding every version's full state
LOG_LIMIT = 500  # steps of history a client keeps and shows


# ---- what a backend hands back ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LogStep:
    """One applied step of a table's history: the version it made, which command made it, what happened."""

    version: int
    command: str  # the command type, "create" or "undo"
    events: tuple[Event, ...] = ()
    at: float = 0.0
    undo_to: int | None = None  # an undo: the version whose state it wrote again
    command_data: Mapping[str, Any] | None = None  # the command as the codec writes it, when this phone knows it
    # (offline: every step; live: the steps this phone sent): what redo applies again


def history(log: Sequence[LogStep], version: int) -> list[int]:
    """The versions whose steps are in effect at `version`, oldest first (undone steps are left out).

    An undo to T has T's state, so its history is T's; any other step adds itself to its predecessor's.
    Steps older than the log the client holds count as a root.
    """
    by_version = {step.version: step for step in log}
    canon: dict[int, int] = {}
    parent: dict[int, int | None] = {}
    for step in sorted(log, key=lambda s: s.version):
        if step.command == "undo" and step.undo_to is not None:
            canon[step.version] = canon.get(step.undo_to, step.undo_to)
        else:
            canon[step.version] = step.version
            before = step.version - 1
            parent[step.version] = canon.get(before, before) if before in by_version else None
    path: list[int] = []
    node: int | None = canon.get(version, version)
    while node is not None and node in by_version:
        path.append(node)
        node = parent.get(node)
    return path[::-1]


@dataclass(frozen=True, slots=True)
class TableInfo:
    """How to reach a table again: its id, the short code players read out, and the secret token."""

    session_id: str
    token: str = ""
    code: str = ""
    server: str = ""  # "" when the table lives on this phone


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table as one client sees it: the state at `version` and the steps that led there (oldest first)."""

    table: TableInfo
    version: int
    state: Session
    log: tuple[LogStep, ...] = ()
    served: tuple[Prompt | None, tuple[LegalCommand, ...]] | None = None  # online: the server's prompt and legal list

    @property
    def pending(self) -> Prompt | None:
        """The prompt the rules wait on, if any: the server's (whose state view keeps the prompt's checkpoint to
        itself), or on the phone the engine's own."""
        if self.served is not None:
            return self.served[0]
        return self.state.pending.prompt if self.state.pending is not None else None

    @property
    def legal(self) -> tuple[LegalCommand, ...]:
        return self.served[1] if self.served is not None else legal_commands(self.state)


# ---- what can go wrong -----------------------------------------------------------------------------------------
class BackendError(Exception):
    """Base of the errors a backend raises; `message` is fit to show at the table."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ConnectionLost(BackendError):
    """The server could not be reached or did not answer: send the same command again later."""


class VersionConflict(BackendError):
    """The command was based on an old version: someone at the table acted first."""

    def __init__(self, message: str, current: int | None = None) -> None:
        super().__init__(message)
        self.current = current


class CommandRejected(BackendError):
    """The rules refused the command; `field` and `rule` come from the engine's error."""

    def __init__(self, message: str, *, field: str = "", rule: str = "", kind: str = "illegal") -> None:
        super().__init__(message)
        self.field = field
        self.rule = rule
        self.kind = kind  # "invalid" (malformed) or "illegal" (not allowed now)


class TableNotFound(BackendError):
    """No table has this code or id."""


class NotAuthorized(BackendError):
    """The token does not open this table."""


def rejected(error: RulesError) -> CommandRejected:
    """The engine's refusal in the backend's terms, keeping its message, field and rule."""
    from shared_rules import InvalidCommand

    kind = "invalid" if isinstance(error, InvalidCommand) else "illegal"
    return CommandRejected(error.message, field=error.field, rule=error.rule, kind=kind)


class Closeable(Protocol):
    def close(self) -> None: ...


UpdateCallback = Callable[[Snapshot], None]
StatusCallback = Callable[[str, str], None]  # (status, detail): "live" | "reconnecting" | "closed"


class TableBackend(Protocol):
    """What the presenters need from a table, wherever it lives."""

    @property
    def table(self) -> TableInfo | None: ...

    @property
    def online(self) -> bool: ...

    def create(self, heroes: Sequence[Hero], options: RuleOptions, *, seed: int | None = None,
               pack: str = "default") -> Snapshot: ...

    def join(self, code: str, token: str) -> Snapshot: ...

    def load(self) -> Snapshot: ...

    def submit(self, command: Command, idempotency_key: str, expected_version: int | None = None) -> Snapshot: ...

    def undo(self, steps: int, idempotency_key: str, expected_version: int | None = None) -> Snapshot: ...

    def subscribe(self, on_update: UpdateCallback, on_status: StatusCallback | None = None) -> Closeable: ...

    def close(self) -> None: ...


def new_key() -> str:
    """A fresh idempotency key: the same key on a resend lets the server answer without applying twice."""
    return secrets.token_hex(12)


def short_code() -> str:
    """Six letters and digits easy to read out across a table (no 0/O, 1/I/L)."""
    alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(6))


# ---- offline: the engine on the phone, the session in an append-only file ---------------------------------------
SNAPSHOT_EVERY = 20  # K: a full state is written every K versions; the versions between are replayed from the log


@dataclass(slots=True)
class _Entry:
    version: int
    command: str
    command_data: Any
    events: tuple[Event, ...]
    state: Session | None  # None: not kept; rebuilt from the nearest snapshot and the commands after it
    key: str | None
    at: float


@dataclass(slots=True)
class _NoSubscription:
    callbacks: list[UpdateCallback]
    callback: UpdateCallback

    def close(self) -> None:
        with contextlib.suppress(ValueError):
            self.callbacks.remove(self.callback)


def _entry_line(entry: _Entry, *, snapshot: bool) -> str:
    line: dict[str, Any] = {"v": entry.version, "command": entry.command_data,
                            "events": [encode_event(x) for x in entry.events], "key": entry.key, "at": entry.at}
    if snapshot and entry.state is not None:
        line["state"] = encode_state(entry.state)
    return json.dumps(line, separators=(",", ":"))


def migrate_schema_1(data: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A schema-1 file (one JSON object, every version's full state) as a schema-2 header and lines (snapshots every
    K versions and at the head)."""
    header = {"format": OFFLINE_FORMAT, "schema": OFFLINE_SCHEMA, "session_id": data["session_id"],
              "code": data["code"], "snapshot_every": SNAPSHOT_EVERY, "migrated_from": 1}
    lines = []
    entries = data["entries"]
    for index, raw in enumerate(entries):
        line = {"v": raw["version"], "command": raw["command"], "events": raw["events"], "key": raw["key"],
                "at": raw["at"]}
        if raw["version"] % SNAPSHOT_EVERY == 0 or index == len(entries) - 1:
            line["state"] = raw["state"]
        lines.append(line)
    return header, lines


MIGRATIONS: dict[int, Callable[[dict[str, Any]], tuple[dict[str, Any], list[dict[str, Any]]]]] = {
    1: migrate_schema_1,
}


class OfflineBackend:
    """A table kept on this phone: `shared_rules.apply` for every command, written to an append-only file.

    The file (`offline-<code>.jsonl`) is a header line and one line per version: the command, its events and, every
    `SNAPSHOT_EVERY` versions (and on `checkpoint()`), the full state. A tap appends one short line instead of
    rewriting the table; a state not kept is rebuilt by replaying the commands after the nearest snapshot (the
    engine is deterministic). Versions only grow, and an undo writes an earlier version's state again as a new
    version (so an undo can itself be undone, as online). Files of an older schema are migrated when opened.
    """

    online = False

    def __init__(self, directory: str | Path, *, codes: Callable[[], str] = short_code,
                 snapshot_every: int = SNAPSHOT_EVERY) -> None:
        self.directory = Path(directory)
        self._codes = codes  # where new table codes come from (random; fixed for reproducible screenshots)
        self.snapshot_every = snapshot_every
        self._table: TableInfo | None = None
        self._entries: list[_Entry] = []
        self._keys: dict[str, int] = {}
        self._callbacks: list[UpdateCallback] = []
        self._lock = threading.Lock()
        self._head: Session | None = None
        self._saved_head = -1  # the newest version whose full state is in the file

    @property
    def table(self) -> TableInfo | None:
        return self._table

    @property
    def path(self) -> Path:
        if self._table is None:
            raise TableNotFound("no table is open")
        return self.directory / f"{self._table.session_id}.jsonl"

    # -- the interface -----------------------------------------------------------------------------------------
    def create(self, heroes: Sequence[Hero], options: RuleOptions, *, seed: int | None = None,
               pack: str = "default") -> Snapshot:
        try:
            state = new_session(tuple(heroes), options=options,
                                seed=secrets.randbits(63) if seed is None else seed, pack=pack)
        except RulesError as error:
            raise rejected(error) from None
        code = self._codes()
        with self._lock:
            self._table = TableInfo(f"offline-{code.lower()}", code=code)
            created = Event(EventType.SESSION_CREATED, f"Table opened for {', '.join(h.name for h in heroes)}",
                            facts=(Fact("name", ", ".join(h.name for h in heroes)),))
            self._entries = [_Entry(0, "create", {"type": "create"}, (created,), state, None, time.time())]
            self._keys = {}
            self._head = state
            self._write_all()
            return self._snapshot()

    def join(self, code: str, token: str = "") -> Snapshot:
        """Open a table saved on this phone by its code (or file id); offline tables need no token."""
        wanted = code.strip().lower()
        for candidate in (wanted, f"offline-{wanted}"):
            for path in (self.directory / f"{candidate}.jsonl", self.directory / f"{candidate}.json"):
                if path.is_file():
                    with self._lock:
                        self._read(path)
                        return self._snapshot()
        raise TableNotFound(f"No table {code.strip().upper()} is saved on this phone")

    def load(self) -> Snapshot:
        with self._lock:
            return self._snapshot()

    def submit(self, command: Command, idempotency_key: str, expected_version: int | None = None) -> Snapshot:
        with self._lock:
            if idempotency_key in self._keys:
                return self._snapshot()
            self._check_version(expected_version)
            try:
                outcome = apply(self._head_state(), command)
            except RulesError as error:
                raise rejected(error) from None
            self._append(command.type, encode(command), outcome.events, outcome.state, idempotency_key)
            snapshot = self._snapshot()
        self._notify(snapshot)
        return snapshot

    def undo(self, steps: int, idempotency_key: str, expected_version: int | None = None) -> Snapshot:
        """As the service does it: the state of version v-steps is written again as version v+1 (SVC-UNDO)."""
        with self._lock:
            if idempotency_key in self._keys:
                return self._snapshot()
            self._check_version(expected_version)
            current = self._entries[-1].version
            target = current - steps
            if steps < 1 or target < 0:
                raise CommandRejected(f"steps: version {current} has only {current} command(s) to undo, not {steps}",
                                      field="steps", rule=UNDO_RULE)
            event = Event(EventType.UNDONE, f"Undid {steps} command{'s' if steps != 1 else ''}: back to version {target}",
                          rule=UNDO_RULE, facts=(Fact("count", steps),))
            self._append("undo", {"type": "undo", "steps": steps, "to_version": target}, (event,),
                         self._state_at(target), idempotency_key)
            snapshot = self._snapshot()
        self._notify(snapshot)
        return snapshot

    def subscribe(self, on_update: UpdateCallback, on_status: StatusCallback | None = None) -> Closeable:
        """Nobody else plays this table; the callback still hears of each change, as it would online."""
        self._callbacks.append(on_update)
        if on_status is not None:
            on_status("local", "the table is kept on this phone")
        return _NoSubscription(self._callbacks, on_update)

    def checkpoint(self) -> None:
        """Write the head's full state (the app calls this when it is paused), so reopening replays nothing."""
        with self._lock:
            if self._table is None or not self._entries or self._saved_head == self._entries[-1].version:
                return
            head = self._entries[-1]
            self._write_line(json.dumps({"checkpoint": head.version, "state": encode_state(self._head_state())},
                                        separators=(",", ":")), sync=True)
            self._saved_head = head.version

    def close(self) -> None:
        self.checkpoint()
        self._callbacks.clear()

    # -- saved tables ------------------------------------------------------------------------------------------
    @staticmethod
    def saved_tables(directory: str | Path) -> list[tuple[str, str, float]]:
        """(code, a line describing the posse, last write time) of each table saved in `directory`, newest first."""
        found: dict[str, tuple[str, str, float]] = {}
        for path in sorted(Path(directory).glob("offline-*.json*")):
            try:
                if path.suffix == ".jsonl":
                    with path.open(encoding="utf-8") as handle:
                        header = json.loads(handle.readline())
                        state = None
                        for raw in handle:
                            with contextlib.suppress(ValueError):
                                line = json.loads(raw)
                                state = line.get("state", state)
                    code = header["code"]
                elif path.suffix == ".json":
                    data = json.loads(path.read_text(encoding="utf-8"))
                    code, state = data["code"], data["entries"][-1]["state"]
                else:
                    continue
                assert state is not None
                names = ", ".join(hero["name"] for hero in state["heroes"])
                found.setdefault(code, (code, f"{names} ({str(state['phase']).replace('_', ' ')})",
                                        path.stat().st_mtime))
            except (OSError, ValueError, KeyError, IndexError, TypeError, AssertionError):
                continue
        return sorted(found.values(), key=lambda row: -row[2])

    # -- inside --------------------------------------------------------------------------------------------------
    def _check_version(self, expected: int | None) -> None:
        current = self._entries[-1].version
        if expected is not None and expected != current:
            raise VersionConflict(f"expected_version: the table is at version {current}, not {expected}", current)

    def _append(self, command: str, data: Any, events: tuple[Event, ...], state: Session, key: str | None) -> None:
        version = len(self._entries)
        entry = _Entry(version, command, data, tuple(events), state, key, time.time())
        self._entries.append(entry)
        self._head = state
        if key is not None:
            self._keys[key] = version
        snapshot = version % self.snapshot_every == 0
        self._write_line(_entry_line(entry, snapshot=snapshot), sync=snapshot)
        if snapshot:
            self._saved_head = version
        self._forget_states()

    def _forget_states(self) -> None:
        """Keep full states only where the file has them and for the last few versions (undo is usually near)."""
        keep_from = len(self._entries) - 8
        for entry in self._entries[max(0, keep_from - 8):max(0, keep_from)]:
            if entry.version % self.snapshot_every:
                entry.state = None

    def _head_state(self) -> Session:
        if self._head is None:
            self._head = self._state_at(self._entries[-1].version)
        return self._head

    def _state_at(self, version: int) -> Session:
        """The state of `version`: kept, or the state an undo wrote again, or replayed from the nearest one kept."""
        chain: list[_Entry] = []
        v = version
        while True:
            entry = self._entries[v]
            if entry.state is not None:
                state = entry.state
                break
            if entry.command == "undo":
                state = self._state_at(int(entry.command_data["to_version"]))
                entry.state = state
                break
            chain.append(entry)
            v -= 1
        for entry in reversed(chain):
            try:
                state = apply(state, decode_command(entry.command_data)).state
            except RulesError as error:
                raise BackendError(f"This table's step {entry.version} cannot be replayed by this version of the "
                                   f"app ({error.message})") from None
        return state

    def _snapshot(self) -> Snapshot:
        if self._table is None:
            raise TableNotFound("no table is open: create one or open a saved one")
        log = tuple(LogStep(e.version, e.command, e.events, e.at, e.command_data.get("to_version"),
                            None if e.command in ("undo", "create") else e.command_data)
                    for e in self._entries[-LOG_LIMIT:])
        return Snapshot(self._table, self._entries[-1].version, self._head_state(), log)

    def _notify(self, snapshot: Snapshot) -> None:
        for callback in list(self._callbacks):
            callback(snapshot)

    def _header(self) -> dict[str, Any]:
        assert self._table is not None
        return {"format": OFFLINE_FORMAT, "schema": OFFLINE_SCHEMA, "session_id": self._table.session_id,
                "code": self._table.code, "snapshot_every": self.snapshot_every}

    def _write_all(self) -> None:
        """A whole new file (a new table, or a migrated one): header, then every entry; written aside, then moved."""
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.path
        temp = path.with_suffix(".tmp")
        lines = [json.dumps(self._header(), separators=(",", ":"))]
        last = self._entries[-1].version
        lines += [_entry_line(e, snapshot=e.version % self.snapshot_every == 0 or e.version == last)
                  for e in self._entries]
        temp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        os.replace(temp, path)  # a crash mid-write leaves the previous file whole
        self._saved_head = last

    def _write_line(self, line: str, *, sync: bool) -> None:
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
            handle.flush()
            if sync:
                os.fsync(handle.fileno())

    def _read(self, path: Path) -> None:
        try:
            if path.suffix == ".json":  # schema 1: one JSON object
                data = json.loads(path.read_text(encoding="utf-8"))
                if data.get("format") != OFFLINE_FORMAT:
                    raise ValueError(f"format {data.get('format')!r}")
                header, lines = self._migrate(data)
            else:
                with path.open(encoding="utf-8") as handle:
                    header = json.loads(handle.readline())
                    lines = []
                    for text in handle:
                        try:
                            lines.append(json.loads(text))
                        except ValueError:
                            break  # a line cut short by a crash: everything before it stands
                if header.get("format") != OFFLINE_FORMAT:
                    raise ValueError(f"format {header.get('format')!r}")
                if header.get("schema") != OFFLINE_SCHEMA:
                    header, lines = self._migrate({**header, "lines": lines})
            entries: list[_Entry] = []
            checkpoints: dict[int, Any] = {}
            for raw in lines:
                if "checkpoint" in raw:
                    checkpoints[int(raw["checkpoint"])] = raw["state"]
                    continue
                state = decode_state(raw["state"]) if "state" in raw else None
                if raw["v"] != len(entries):
                    raise ValueError(f"version {raw['v']} out of order")
                entries.append(_Entry(raw["v"], str(raw["command"].get("type", "?")), raw["command"],
                                      tuple(decode_event(x) for x in raw["events"]), state, raw["key"], raw["at"]))
            for version, state in checkpoints.items():
                if version < len(entries):
                    entries[version].state = decode_state(state)
        except (OSError, ValueError, KeyError, TypeError, RulesError) as error:
            raise TableNotFound(f"{path.name}: not a readable offline table ({error})") from None
        self._table = TableInfo(header["session_id"], code=header["code"])
        self._entries = entries
        self._keys = {e.key: e.version for e in entries if e.key is not None}
        self._head = None
        self._saved_head = max((e.version for e in entries if e.state is not None), default=-1)
        if path.suffix == ".json" or header.get("migrated_from"):
            self._write_all()
            if path.suffix == ".json":
                os.replace(path, path.with_name(path.name + f".schema{header.get('migrated_from', 1)}"))

    @staticmethod
    def _migrate(data: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        schema = data.get("schema")
        if not isinstance(schema, int) or schema not in MIGRATIONS:
            raise ValueError(f"schema {schema!r}: this app reads schemas {sorted({*MIGRATIONS, OFFLINE_SCHEMA})}")
        return MIGRATIONS[schema](data)


# ---- online: the service over GraphQL ---------------------------------------------------------------------------
# The app asks for typed fields (openapi/schema.graphql) and turns the answers back into the engine's values: a
# field's GraphQL name is its name in camelCase, an enum value its JSON value (made a GraphQL name where it is not
# one: "2d6" is _2d6). The selections are read off the engine's own dataclasses, so the phone asks for every field
# its rules engine knows. The state view keeps a prompt's checkpoint and the dice to the server: the prompt and
# the legal commands come as the server's own fields.
RENAMED = {("Event", "roll"): "rolled", ("Prompt", "roll"): "rolled"}  # typed twins of API 1.0's JSON fields


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def _graphql_name(cls: type, name: str) -> str:
    return _camel(RENAMED.get((cls.__name__, name), name))


def _enum_name(value: str) -> str:
    """The GraphQL name the service gives an enum value (services/contract/model.py enum_member_name)."""
    name = re.sub(r"\W+", "_", value).strip("_") or "none"
    return f"_{name}" if name[0].isdigit() else name


def _public_fields(cls: type) -> list[tuple[str, Any]]:
    from shared_rules import meta
    from shared_rules.codec import type_hints

    hints = type_hints(cls)
    return [(f.name, hints[f.name]) for f in dataclasses.fields(cls) if meta.read(f.metadata).get("public", True)]


def _inner(tp: Any) -> Any:
    """The type a field's values are made of: Optional, tuples and frozensets unwrapped."""
    while typing.get_origin(tp) in (Union, types.UnionType, tuple, frozenset, list):
        args = [arg for arg in typing.get_args(tp) if arg is not type(None) and arg is not Ellipsis]
        if len(args) != 1:
            return tp
        tp = args[0]
    return tp


@functools.cache
def selection(cls: type, skip: frozenset[str] = frozenset()) -> str:
    """Every public field of an engine dataclass as a GraphQL selection (nested objects with their fields)."""
    parts = []
    for name, tp in _public_fields(cls):
        if name in skip:
            continue
        inner = _inner(tp)
        field_name = _graphql_name(cls, name)
        nested = isinstance(inner, type) and dataclasses.is_dataclass(inner)
        parts.append(f"{field_name} {{ {selection(inner)} }}" if nested else field_name)
    return " ".join(parts)


def from_graphql(tp: Any, value: Any) -> Any:
    """A typed GraphQL answer as the codec's JSON for type `tp` (decode it with shared_rules.codec.decode)."""
    if value is None:
        return "" if tp is str else None
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        inner = [arg for arg in typing.get_args(tp) if arg is not type(None)]
        return from_graphql(inner[0], value) if len(inner) == 1 else value
    if origin in (tuple, frozenset, list):
        return [from_graphql(typing.get_args(tp)[0], item) for item in value]
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {_enum_name(str(m.value)): m.value for m in tp}.get(value, value)
    if dataclasses.is_dataclass(tp) and isinstance(value, dict):
        return {name: from_graphql(hint, value[_graphql_name(tp, name)])  # type: ignore[arg-type]
                for name, hint in _public_fields(tp) if _graphql_name(tp, name) in value}  # type: ignore[arg-type]
    return value


def to_graphql(data: Any) -> Any:
    """The codec's JSON of a hero, options or a command's fields as a GraphQL input: camelCase names, and fields
    at their empty default ("" and null) left out."""
    if isinstance(data, list):
        return [to_graphql(item) for item in data]
    if isinstance(data, dict):
        return {_camel(key): to_graphql(item) for key, item in data.items() if item not in ("", None)}
    return data


def command_input(command: Command) -> dict[str, Any]:
    """An engine command as the `@oneOf` CommandInput: one member, named by its type."""
    data = dict(encode(command))
    kind = data.pop("type")
    if not command.takes_dice:  # a roll answer's faces go in `faces`; its input has no `dice` (the log's empty one)
        data.pop("dice", None)
    return {_camel(kind): to_graphql(data)}


def _typename_commands() -> dict[str, str]:
    from shared_rules.commands import COMMAND_TYPES

    return {cls.__name__: kind for kind, cls in COMMAND_TYPES.items()} | {"SessionOpened": "create",
                                                                          "UndoRecord": "undo"}


def _queries() -> dict[str, str]:
    from shared_rules.events import Event as EventValue
    from shared_rules.legal import LegalCommand as Legal
    from shared_rules.prompts import Prompt as PromptValue

    view = (f"version game {{ {selection(Session, frozenset({'pending'}))} }} pending {{ {selection(PromptValue)} }} "
            f"legalCommands {{ {selection(Legal)} }}")
    events = f"events {{ {selection(EventValue)} }}"
    applied = "applied { __typename ... on UndoRecord { toVersion } }"
    return {
        "open": """mutation Open($heroes: [HeroInput!]!, $options: RuleOptionsInput, $seed: Long) {
  openTable(heroes: $heroes, options: $options, seed: $seed) { token sessionId version }
}""",
        "load": f"""query Load($id: String!, $after: Int!, $limit: Int!) {{
  session(sessionId: $id) {{ {view} }}
  events(sessionId: $id, after: $after, limit: $limit) {{ version nextAfter entries {{ version at {applied} {events} }} }}
}}""",
        "send": f"""mutation Send($id: String!, $command: CommandInput!, $expected: Int, $key: String) {{
  sendCommand(sessionId: $id, command: $command, expectedVersion: $expected, idempotencyKey: $key) {{
    basedOn replayed {view} {events}
  }}
}}""",
        "undo": f"""mutation Undo($id: String!, $steps: Int!, $expected: Int, $key: String) {{
  undo(sessionId: $id, steps: $steps, expectedVersion: $expected, idempotencyKey: $key) {{
    basedOn replayed {view} {events}
  }}
}}""",
        "changes": f"""subscription Changes($id: String!, $after: Int) {{
  sessionChanges(sessionId: $id, afterVersion: $after) {{ {view} {applied} {events} }}
}}""",
    }


QUERIES = _queries()
HOST_CALL = ("mutation($id: String!, $reason: String!) { callHost(sessionId: $id, reason: $reason) "
             "{ hostCall { at reason } } }")
HOST_CLEAR = "mutation($id: String!) { clearHostCall(sessionId: $id) { hostCall { at reason } } }"
EVENTS_PAGE = 500


def server_urls(address: str) -> tuple[str, str, str]:
    """(base, HTTP GraphQL URL, websocket GraphQL URL) from what a player types: "192.168.1.5:8000" is enough."""
    base = address.strip().rstrip("/")
    if not base:
        raise BackendError("server: enter the server's address, e.g. http://192.168.1.5:8000")
    if "://" not in base:
        base = "http://" + base
    if base.endswith("/graphql"):
        base = base[: -len("/graphql")]
    scheme, rest = base.split("://", 1)
    if scheme not in ("http", "https"):
        raise BackendError(f"server: {address!r} is not an http(s) address")
    return base, f"{base}/graphql", f"{'wss' if scheme == 'https' else 'ws'}://{rest}/graphql"


def _applied(applied: dict[str, Any]) -> tuple[str, int | None]:
    """What made a version ("create", "undo" or the command's type) and, for an undo, the version it went back to."""
    name = _typename_commands().get(applied["__typename"], "?")
    return name, applied.get("toVersion") if name == "undo" else None


def _translate(error: BaseException) -> BackendError:
    """A gql/httpx failure as what the table can act on (the service's problem codes: services/api/errors.py)."""
    from gql.transport.exceptions import (
        TransportClosed,
        TransportConnectionFailed,
        TransportQueryError,
        TransportServerError,
    )

    if isinstance(error, BackendError):
        return error
    if isinstance(error, TransportQueryError):
        first = (error.errors or [{}])[0]
        ext = first.get("extensions") or {}
        code = str(ext.get("code", ""))
        message = str(ext.get("detail") or first.get("message") or error)
        field_, rule = str(ext.get("field", "")), str(ext.get("rule", ""))
        if code == "STALE_VERSION":
            current = ext.get("current_version")
            return VersionConflict(message, current if isinstance(current, int) else None)
        if code in ("INVALID_COMMAND", "ILLEGAL_COMMAND", "IDEMPOTENCY_KEY_REUSED"):
            kind = "illegal" if code == "ILLEGAL_COMMAND" else "invalid"
            return CommandRejected(message, field=field_, rule=rule, kind=kind)
        if code == "NOT_FOUND":
            return TableNotFound(message)
        if code in ("UNAUTHENTICATED", "FORBIDDEN"):
            return NotAuthorized(message)
        return BackendError(message)
    if isinstance(error, TransportServerError) and (error.code or 500) < 500:
        return BackendError(f"the server refused the request (HTTP {error.code}): {error}")
    if isinstance(error, (TransportConnectionFailed, TransportClosed, TransportServerError, OSError,
                          asyncio.TimeoutError)):
        return ConnectionLost(f"cannot reach the server: {error}")
    import httpx

    if isinstance(error, httpx.HTTPError):
        return ConnectionLost(f"cannot reach the server: {error}")
    return BackendError(f"{type(error).__name__}: {error}")


# Odds questions (services/api/graphql/odds.py): the answer is the JSON document of `shared_rules.odds.answer`
_ODDS_JOB = "jobId status progress answer error"
ODDS_ASK = (f"mutation($q: OddsQuestion!, $s: String, $p: OddsParamsInput, $t: Int, $r: Float) {{ runOdds("
            f"question: $q, sessionId: $s, params: $p, trials: $t, precision: $r) {{ {_ODDS_JOB} }} }}")
ODDS_POLL = f"query($j: String!) {{ odds(jobId: $j) {{ {_ODDS_JOB} }} }}"


class GraphQLBackend:
    """The service at `address`: queries and mutations over HTTP (gql + httpx), live changes over a websocket.

    Calls block; the app makes them from one worker thread. The subscription runs its own thread and event loop,
    reconnects by itself (asking for every version after the last one it has, so nothing is missed) and reports
    "live" / "reconnecting" / "closed" through the status callback.
    """

    online = True

    def __init__(self, address: str, *, timeout: float = 5.0) -> None:
        self.base, self.http_url, self.ws_url = server_urls(address)
        self.timeout = timeout
        self._table: TableInfo | None = None
        self._steps: dict[int, LogStep] = {}
        self._lock = threading.Lock()
        self._client: Any = None
        self._session: Any = None
        self._feeds: list[_LiveFeed] = []

    @property
    def table(self) -> TableInfo | None:
        return self._table

    # ---- HTTP ------------------------------------------------------------------------------------------------
    def _execute(self, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        from gql import Client, GraphQLRequest
        from gql.transport.httpx import HTTPXTransport

        if self._session is None:
            headers = {"Authorization": f"Bearer {self._table.token}"} if self._table and self._table.token else {}
            self._client = Client(transport=HTTPXTransport(self.http_url, headers=headers, timeout=self.timeout),
                                  fetch_schema_from_transport=False)
            self._session = self._client.connect_sync()
        try:
            result: dict[str, Any] = self._session.execute(GraphQLRequest(query, variable_values=variables))
            return result
        except Exception as error:  # noqa: BLE001 - sorted into what the table can act on
            translated = _translate(error)
            if isinstance(translated, ConnectionLost):
                self._reset_http()
            raise translated from error

    def _reset_http(self) -> None:
        client, self._client, self._session = self._client, None, None
        if client is not None:
            with contextlib.suppress(Exception):
                client.close_sync()

    # ---- the interface -----------------------------------------------------------------------------------------
    def create(self, heroes: Sequence[Hero], options: RuleOptions, *, seed: int | None = None,
               pack: str = "default") -> Snapshot:
        """A table on the server, with the server's default pack: a pack taken in on this phone fills in the heroes'
        numbers before they are sent, but the server plays only the packs it has (`pack` is not sent)."""
        data = self._execute(QUERIES["open"], {"heroes": [to_graphql(encode(h)) for h in heroes],
                                               "options": to_graphql(encode(options)), "seed": seed})["openTable"]
        self._open(TableInfo(data["sessionId"], data["token"], data["sessionId"], self.base))
        return self.load()

    def join(self, code: str, token: str) -> Snapshot:
        code = code.strip().upper()
        if not code:
            raise TableNotFound("code: enter the table's code")
        if not token.strip():
            raise NotAuthorized("token: enter the table's token (shown on the phone that created it)")
        self._open(TableInfo(code, token.strip(), code, self.base))
        return self.load()

    def ask_odds(self, question: str, params: dict[str, Any], trials: int, *, precision: float | None = None,
                 poll: float = 0.4, timeout: float = 60.0,
                 partial: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
        """Ask the service an odds question of this table (`runOdds`: `trials` per option, or at most that many
        with a `precision`, each option stopping once its chances are within it) and poll it until answered: the
        answer document of `shared_rules.odds.answer`; `partial(answer)` sees each answer so far while it runs.
        Raises BackendError when the job fails, or when `timeout` seconds pass with no progress (a busy service
        that is still working is waited for)."""
        table = self._need_table()
        job = self._execute(ODDS_ASK, {"q": question, "s": table.session_id, "p": params, "t": trials,
                                       "r": precision})["runOdds"]
        deadline, progress = time.monotonic() + timeout, job.get("progress")
        while job["status"] in ("queued", "running"):
            if time.monotonic() > deadline:
                raise BackendError("The odds took too long to come back")
            time.sleep(poll)
            job = self._execute(ODDS_POLL, {"j": job["jobId"]})["odds"]
            if job.get("progress") != progress:
                deadline, progress = time.monotonic() + timeout, job.get("progress")
            if partial is not None and job["status"] == "running" and job.get("answer"):
                partial(job["answer"])
        if job["status"] != "finished" or not job.get("answer"):
            raise BackendError(job.get("error") or f"The odds job was {job['status']}")
        answer: dict[str, Any] = job["answer"]
        return answer

    def load(self) -> Snapshot:
        table = self._need_table()
        after = self._contiguous_top()
        while True:
            data = self._execute(QUERIES["load"], {"id": table.session_id, "after": after, "limit": EVENTS_PAGE})
            page = data["events"]
            with self._lock:
                for entry in page["entries"]:
                    known = self._steps.get(entry["version"])
                    self._steps[entry["version"]] = replace(
                        self._step(entry["version"], _applied(entry["applied"]), entry["events"], entry["at"]),
                        command_data=known.command_data if known is not None else None)
            if page["nextAfter"] is None:
                break
            after = page["nextAfter"]
        return self._snapshot(data["session"])

    def submit(self, command: Command, idempotency_key: str, expected_version: int | None = None) -> Snapshot:
        table = self._need_table()
        data = self._execute(QUERIES["send"], {"id": table.session_id, "command": command_input(command),
                                               "expected": expected_version, "key": idempotency_key})["sendCommand"]
        return self._written(data, (command.type, None), encode(command))

    def undo(self, steps: int, idempotency_key: str, expected_version: int | None = None) -> Snapshot:
        table = self._need_table()
        data = self._execute(QUERIES["undo"], {"id": table.session_id, "steps": steps, "expected": expected_version,
                                               "key": idempotency_key})["undo"]
        return self._written(data, ("undo", data["basedOn"] - steps))

    def call_host(self, reason: str = "") -> bool:
        """Call the event's host over to this table (the host's dashboard shows it until cleared); True: called."""
        table = self._need_table()
        data = self._execute(HOST_CALL, {"id": table.session_id, "reason": reason})["callHost"]
        return data["hostCall"] is not None

    def clear_host_call(self) -> bool:
        """The host came (or is no longer needed): the call is cleared; False: no call stands."""
        table = self._need_table()
        data = self._execute(HOST_CLEAR, {"id": table.session_id})["clearHostCall"]
        return data["hostCall"] is not None

    def subscribe(self, on_update: UpdateCallback, on_status: StatusCallback | None = None) -> Closeable:
        feed = _LiveFeed(self, on_update, on_status or (lambda status, detail: None))
        self._feeds.append(feed)
        feed.start()
        return feed

    def close(self) -> None:
        for feed in self._feeds:
            feed.close()
        self._feeds.clear()
        self._reset_http()

    # ---- keeping the log ---------------------------------------------------------------------------------------
    def _open(self, table: TableInfo) -> None:
        self._reset_http()
        with self._lock:
            self._table = table
            self._steps = {}

    def _need_table(self) -> TableInfo:
        if self._table is None:
            raise TableNotFound("no table is open: create or join one")
        return self._table

    @staticmethod
    def _step(version: int, made_by: tuple[str, int | None], events: list[Any], at: float = 0.0) -> LogStep:
        from shared_rules.events import Event as EventValue

        name, undo_to = made_by
        return LogStep(version, name, tuple(decode_event(from_graphql(EventValue, e)) for e in events),
                       at or time.time(), undo_to)

    def _contiguous_top(self) -> int:
        """The newest version up to which the log held here has no gap (-1: nothing held)."""
        with self._lock:
            top = -1
            while top + 1 in self._steps:
                top += 1
            return top

    def _written(self, data: dict[str, Any], made_by: tuple[str, int | None],
                 command: Mapping[str, Any] | None = None) -> Snapshot:
        if data["replayed"]:
            return self.load()  # answered from the first request: the table may have moved on since
        with self._lock:
            self._steps[data["version"]] = replace(self._step(data["version"], made_by, data["events"]),
                                                   command_data=command)
        return self._snapshot(data)

    def absorb(self, change: dict[str, Any]) -> Snapshot:
        """A `sessionChanges` message as a snapshot (the subscription thread calls this)."""
        with self._lock:
            known = self._steps.get(change["version"])  # sent from this phone: keep the command (redo needs it)
            self._steps[change["version"]] = replace(
                self._step(change["version"], _applied(change["applied"]), change["events"]),
                command_data=known.command_data if known is not None else None)
        return self._snapshot(change)

    def last_version(self) -> int:
        with self._lock:
            return max(self._steps, default=-1)

    def _snapshot(self, view: dict[str, Any]) -> Snapshot:
        """A view's typed fields (version, game, pending, legalCommands) as a snapshot of engine values."""
        from shared_rules.codec import decode
        from shared_rules.legal import LegalCommand as Legal
        from shared_rules.prompts import Prompt as PromptValue

        version = view["version"]
        try:
            state = decode(Session, from_graphql(Session, view["game"]))
            prompt = None if view["pending"] is None else decode(PromptValue, from_graphql(PromptValue, view["pending"]))
            legal = tuple(decode(Legal, from_graphql(Legal, item)) for item in view["legalCommands"])
        except RulesError as error:
            raise BackendError(f"the server sent a state this app cannot read: {error.message}") from None
        with self._lock:
            log = tuple(self._steps[v] for v in sorted(self._steps)[-LOG_LIMIT:] if v <= version)
        return Snapshot(self._need_table(), version, state, log, served=(prompt, legal))


@dataclass
class _LiveFeed:
    """The `sessionChanges` subscription on its own thread, reconnecting with a growing pause (0.5 s .. 5 s)."""

    backend: GraphQLBackend
    on_update: UpdateCallback
    on_status: StatusCallback
    _stop: threading.Event = field(default_factory=threading.Event)
    _loop: asyncio.AbstractEventLoop | None = None
    _task: asyncio.Task[None] | None = None
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="table-live", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        loop, task = self._loop, self._task
        if loop is not None and task is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(task.cancel)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            self._task = loop.create_task(self._main())
            with contextlib.suppress(asyncio.CancelledError):
                loop.run_until_complete(self._task)
        finally:
            loop.close()

    async def _main(self) -> None:
        from gql import Client, GraphQLRequest
        from gql.transport.websockets import WebsocketsTransport

        pause = 0.5
        table = self.backend._need_table()
        while not self._stop.is_set():
            transport = WebsocketsTransport(
                url=self.backend.ws_url, init_payload={"Authorization": f"Bearer {table.token}"},
                subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL], connect_timeout=5, ack_timeout=5,
                keep_alive_timeout=45, close_timeout=2,
            )  # fmt: skip
            try:
                async with Client(transport=transport, fetch_schema_from_transport=False) as session:
                    self.on_status("live", "")
                    pause = 0.5
                    after = self.backend.last_version()
                    request = GraphQLRequest(QUERIES["changes"], variable_values={"id": table.session_id,
                                                                        "after": after if after >= 0 else None})
                    async for result in session.subscribe(request):
                        self.on_update(self.backend.absorb(result["sessionChanges"]))
                    raise ConnectionLost("the server ended the subscription")
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - sorted below
                problem = _translate(error)
                if isinstance(problem, (NotAuthorized, TableNotFound)):
                    self.on_status("closed", problem.message)
                    return
                if self._stop.is_set():
                    return
                self.on_status("reconnecting", problem.message)
            await asyncio.sleep(pause)
            pause = min(5.0, pause * 2)
