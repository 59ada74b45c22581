"""Session store interface shared by the SQLite and Redis backends.

The store keeps, per game session, a version counter, a checkpoint snapshot every few versions (the writer
decides which), an append-only command log (each entry compressed) and short-lived idempotency records. Any
version is rebuilt by the caller from its nearest checkpoint and the log entries after it. Snapshots, commands,
events and responses are opaque JSON text: the store knows nothing about game rules.

Tables expire `retention` seconds after their last write (0 keeps them), archived tables `archive_retention`
seconds after they were archived.
"""

from __future__ import annotations

import json
import re
import zlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from dataclasses import dataclass
from types import TracebackType
from typing import Self

import lz4.block  # type: ignore[import-untyped]
import msgspec

DEFAULT_IDEMPOTENCY_TTL = 24 * 3600.0
"""Seconds an idempotency key is remembered after the commit that used it."""

SESSION_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,128}")
"""Allowed session ids: they are embedded in Redis key names, so no separators."""

MAX_IDEMPOTENCY_KEY_LEN = 256


@dataclass(frozen=True)
class LogEntry:
    """One entry of a session's command log; entry N produced version N."""

    version: int
    """The version this entry produced (0 = creation)."""
    command: str
    """JSON text of the command (or of the creation request / undo request)."""
    events: str
    """JSON text (a list) of the events it produced."""
    idempotency_key: str | None
    at: float
    """Unix time of the write."""


@dataclass(frozen=True)
class Access:
    """A table's credentials and standing, kept beside its version (services/use_cases.py reads them).

    `token_hash` of StoredSession is the table's first player token: it names this incarnation of the join code and
    never changes. The current player token is `player` (None: still that first one; "-": revoked, nobody writes).
    """

    player: str | None = None
    """sha256 of the current player token; None: the token the table was created with; "-": revoked."""
    spectator: str | None = None
    """sha256 of the read-only token a table hands a judge or a stream; None: none issued (or revoked)."""
    event_id: str | None = None
    """The event the table belongs to (its host reads it); None: a table of its own."""
    paused_at: float | None = None
    """Set while the event host has paused the table: readable, not writable."""
    updated_at: float | None = None
    """Unix time of the table's last write (its creation, at first)."""
    host_call: str | None = None
    """JSON text {"at": <Unix time>, "reason": <text>} while the table has called its event's host; None: no call."""

    def player_hash(self, token_hash: str) -> str:
        """The hash a writer's token must have (`token_hash`: the table's first token)."""
        return token_hash if self.player is None else self.player


@dataclass(frozen=True)
class StoredEvent:
    """An event: a name, its host token's hash and its tables (join code -> table number)."""

    event_id: str
    name: str
    host_hash: str
    created_at: float


@dataclass(frozen=True)
class StoredSession:
    """What the store holds to rebuild one version of a session: its nearest checkpoint and the log after it.

    The state at `version` is `base_snapshot` (the checkpoint written at `base_version`) with `entries` replayed on
    it; when the caller said it knows `base_version` already (`known_version`), `base_snapshot` is None and only the
    entries after it come back.
    """

    session_id: str
    version: int
    """The version these parts rebuild (the latest, for load())."""
    token_hash: str
    """sha256 hex of the table token (the store never sees the raw token)."""
    created_at: float
    base_version: int
    base_snapshot: str | None
    entries: tuple[LogEntry, ...]
    """Log entries base_version+1 .. version, ascending."""
    archived_at: float | None = None
    """Set once the owner archived the table: it is read-only from then on."""
    idempotent: str | None = None
    """The response recorded for the idempotency key load() was asked about, if any."""
    access: Access | None = None
    """Who may open the table besides its creation token, its event and whether the host paused it."""

    @property
    def snapshot(self) -> str | None:
        """The snapshot of `version` itself when it is a checkpoint (no entries to replay), else None."""
        return self.base_snapshot if not self.entries else None


@dataclass(frozen=True)
class CommitResult:
    """Outcome of a commit: the version written (or replayed) and the response for the client."""

    version: int
    response: str
    """JSON text the use case wants returned to the client."""
    replayed: bool
    """True when answered from the idempotency record, nothing written."""


class StoreError(Exception):
    """Base class of the store's own errors."""


class SessionNotFound(StoreError):
    """The session does not exist."""

    def __init__(self, session_id: str) -> None:
        super().__init__(session_id)
        self.session_id = session_id

    def __str__(self) -> str:
        return f"session {self.session_id!r} not found"


class SessionExists(StoreError):
    """create() was called with an id that is already taken."""

    def __init__(self, session_id: str) -> None:
        super().__init__(session_id)
        self.session_id = session_id

    def __str__(self) -> str:
        return f"session {self.session_id!r} already exists"


class SessionArchived(StoreError):
    """The session was archived by its owner: it is read-only."""

    def __init__(self, session_id: str) -> None:
        super().__init__(session_id)
        self.session_id = session_id

    def __str__(self) -> str:
        return f"session {self.session_id!r} is archived (read-only)"


class SessionPaused(StoreError):
    """The event host paused the table: it is read-only until resumed."""

    def __init__(self, session_id: str) -> None:
        super().__init__(session_id)
        self.session_id = session_id

    def __str__(self) -> str:
        return f"session {self.session_id!r} is paused by the event host"


class WriterRefused(StoreError):
    """The token a commit was made with is no longer the table's player token (rotated or revoked meanwhile)."""

    def __init__(self, session_id: str) -> None:
        super().__init__(session_id)
        self.session_id = session_id

    def __str__(self) -> str:
        return f"the token does not write to session {self.session_id!r} (rotated or revoked)"


class EventExists(StoreError):
    """create_event() was called with an id that is already taken."""


class StoreUnavailable(StoreError):
    """The storage cannot be reached right now (Redis down or restarting); the request may be retried."""

    retry_after = 2
    """Seconds a client should wait before retrying."""


class StaleVersion(StoreError):
    """The session moved on: `expected` was given, `current_version` is the stored version."""

    def __init__(self, current_version: int, expected: int, session_id: str = "") -> None:
        super().__init__(current_version, expected, session_id)
        self.current_version = current_version
        self.expected = expected
        self.session_id = session_id

    def __str__(self) -> str:
        return f"session {self.session_id!r} is at version {self.current_version}, commit expected {self.expected}"


def valid_session_id(session_id: str) -> bool:
    """True if `session_id` may name a session (letters, digits, '_' and '-', at most 128)."""
    return isinstance(session_id, str) and SESSION_ID_RE.fullmatch(session_id) is not None


def check_session_id(session_id: str) -> None:
    """Raise ValueError for an id that create() must refuse."""
    if not valid_session_id(session_id):
        raise ValueError(f"invalid session id {session_id!r}: use 1-128 of [A-Za-z0-9_-]")


def check_idempotency_key(key: str | None) -> None:
    """Raise ValueError for an empty or overlong idempotency key (None is allowed)."""
    if key is not None and not (isinstance(key, str) and 0 < len(key) <= MAX_IDEMPOTENCY_KEY_LEN):
        raise ValueError(f"idempotency key must be a non-empty string of at most {MAX_IDEMPOTENCY_KEY_LEN}")


def dump_json(value: object) -> str:
    """Compact JSON text, as the log stores a command, its events and a snapshot (msgspec: several times faster than
    json.dumps on a command's path; json.dumps for what msgspec refuses, a lone surrogate in a string). Readers
    compare parsed values, never texts: tables logged with json.dumps escape non-ASCII letters, msgspec does not."""
    try:
        return msgspec.json.encode(value).decode()
    except (OverflowError, TypeError, ValueError, msgspec.EncodeError):
        return json.dumps(value, separators=(",", ":"))


def change_message(session_id: str, version: int) -> str:
    """The JSON notification commit() publishes after a successful write."""
    return json.dumps({"session_id": session_id, "version": version}, separators=(",", ":"))


def access_message(session_id: str) -> str:
    """Published when a table's standing changed without a new version (paused, resumed, a token rotated): live
    views of the table (the host's dashboard) read it again; subscribers of its versions ignore it."""
    return json.dumps({"session_id": session_id, "access": True}, separators=(",", ":"))


def event_message(event_id: str, session_id: str) -> str:
    """Published on an event's channel when a table joined it."""
    return json.dumps({"event_id": event_id, "added": session_id}, separators=(",", ":"))


def event_channel(event_id: str) -> str:
    """The bus name of an event's notifications (a '.' is never part of a join code, so it cannot clash)."""
    return f"event.{event_id}"


def resync_message(session_id: str) -> str:
    """Sent to local subscribers after the notification channel was lost and found again: notifications may have
    been missed, so the subscriber reads the latest version itself."""
    return json.dumps({"session_id": session_id, "resync": True}, separators=(",", ":"))


def deleted_message(session_id: str) -> str:
    """The last message of a session that was deleted."""
    return json.dumps({"session_id": session_id, "deleted": True}, separators=(",", ":"))


class Subscription(AsyncIterator[str], ABC):
    """Async iterator of the messages published to one session after it was subscribed.

    Use ``async with store.subscribe(sid) as sub:`` to be subscribed *before* reading the session's
    state (no change can slip between the read and the stream); plain ``async for`` subscribes lazily
    on the first read. Leaving the ``async with`` block (or ``aclose()``) releases the subscription.
    """

    @abstractmethod
    async def start(self) -> None:
        """Make sure the subscription is active; idempotent."""

    @abstractmethod
    async def aclose(self) -> None:
        """Stop receiving and release resources; idempotent, ends any pending iteration."""

    async def __aenter__(self) -> Self:
        try:
            await self.start()
        except BaseException:
            await self.aclose()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


LZ4 = b"\x04"
"""The first byte of a log entry packed with lz4 (a zlib stream, as entries were packed before, starts with a byte
whose low four bits are 8, so the two never mix up)."""


def pack_entry(entry: LogEntry) -> bytes:
    """A log entry as stored: its fields tab-separated, lz4-compressed (events are wordy and repeat themselves).

    lz4, not zlib: a 500-byte entry took zlib ~45 us amid a request's work (its code and tables cold in the cache),
    5% of a command's time; lz4 takes ~8 us for entries a fifth larger (still well under 1 KB stored per version,
    bench/storage.py). The command text is JSON (which escapes every control character), so it holds no tab; the
    events come last.
    """
    if "\t" in entry.command or "\n" in entry.command:
        raise ValueError("command: must be compact JSON text (no raw tab or newline)")
    key = json.dumps(entry.idempotency_key)
    text = f"{entry.version}\t{entry.at!r}\t{key}\t{entry.command}\t{entry.events}"
    return LZ4 + lz4.block.compress(text.encode(), store_size=True)


def unpack_entry(raw: bytes | str) -> LogEntry:
    """The inverse of pack_entry(); entries packed with zlib before are read as they are."""
    data = raw if isinstance(raw, bytes) else raw.encode("latin-1")
    text = lz4.block.decompress(data[1:]) if data[:1] == LZ4 else zlib.decompress(data)
    version, at, key, command, events = text.decode().split("\t", 4)
    return LogEntry(int(version), command, events, json.loads(key), float(at))


REVOKED = "-"
"""The player credential of a table whose player token was revoked (no token hashes to it)."""


class SessionStore(ABC):
    """Versioned, append-only storage of game sessions with compare-and-set commits."""

    retention: float = 0.0
    """Seconds a table is kept after its last write (0: forever)."""
    archive_retention: float = 0.0
    """Seconds an archived table is kept after it was archived (0: forever)."""

    @abstractmethod
    async def create(self, session_id: str, token_hash: str, snapshot: str, command: str, events: str, *,
                     event_id: str | None = None) -> None:
        """Create a session at version 0 (a checkpoint) with log entry 0; raise SessionExists if the id is taken.
        `event_id` makes it a table of that event (its host reads it; add_to_event lists it there).

        Raises ValueError if the id does not match SESSION_ID_RE.
        """

    @abstractmethod
    async def load(
        self, session_id: str, *, known_version: int | None = None, idempotency_key: str | None = None
    ) -> StoredSession | None:
        """The parts of the latest version, or None if the session does not exist (or expired).

        With `known_version` (a version the caller holds in memory) the answer starts from it instead of a checkpoint
        when no checkpoint lies between it and the latest version. With `idempotency_key` the answer carries that
        key's recorded response (`idempotent`), saving a round trip.
        """

    @abstractmethod
    async def read(self, session_id: str, version: int, *, known_version: int | None = None) -> StoredSession | None:
        """The parts of `version` (nearest checkpoint at or before it, then the log up to it), or None if the
        session or the version does not exist; `known_version` as for load()."""

    @abstractmethod
    async def commit(
        self,
        session_id: str,
        expected_version: int,
        command: str,
        events: str,
        response: str,
        idempotency_key: str | None = None,
        *,
        checkpoint: str | None = None,
        idempotency_ttl: float | None = None,
        writer: str | None = None,
    ) -> CommitResult:
        """Atomically write version expected_version+1 (log entry, and `checkpoint` when given) and notify.

        A known idempotency key returns its first response (replayed=True, nothing written) even when
        expected_version is stale; otherwise raises StaleVersion, SessionNotFound, SessionArchived, SessionPaused or
        (when `writer`, the hash of the writer's token, is not the table's player token) WriterRefused.
        `idempotency_ttl` overrides the store's TTL for this key.
        """

    @abstractmethod
    async def set_credential(self, session_id: str, role: str, token_hash: str | None) -> None:
        """Set the hash of the table's `role` token ("player" or "spectator"); None revokes it (a revoked player
        token leaves a table nobody writes to until a new one is set). Raises SessionNotFound. Notifies the table's
        live views (access_message)."""

    @abstractmethod
    async def set_paused(self, session_id: str, paused: bool) -> float | None:
        """Pause (read-only) or resume the table; returns when it was paused (None: running). SessionNotFound."""

    @abstractmethod
    async def set_host_call(self, session_id: str, call: str | None) -> None:
        """Raise (JSON text, see Access.host_call) or clear (None) the table's call for its host; notifies the
        table's live views. Raises SessionNotFound."""

    @abstractmethod
    async def create_event(self, event_id: str, name: str, host_hash: str) -> None:
        """A new event; raise EventExists if the id is taken."""

    @abstractmethod
    async def event(self, event_id: str) -> StoredEvent | None:
        """The event, or None."""

    @abstractmethod
    async def set_event_host(self, event_id: str, host_hash: str) -> None:
        """Replace the event host token's hash (the old token stops working at once)."""

    @abstractmethod
    async def add_to_event(self, event_id: str, session_id: str, number: int) -> None:
        """List a table (created with `event_id`) among the event's tables as table `number`; notifies the event."""

    @abstractmethod
    async def event_tables(self, event_id: str) -> list[tuple[str, int]]:
        """The event's tables that still exist: (join code, table number), by number."""

    @abstractmethod
    async def list_events(self, limit: int = 100, after: str | None = None) -> list[str]:
        """Up to `limit` event ids greater than `after`, ascending."""

    @abstractmethod
    async def get_idempotent(self, session_id: str, key: str) -> str | None:
        """Return the response stored for an unexpired idempotency key, or None."""

    @abstractmethod
    async def log(self, session_id: str, after_version: int = -1, limit: int = 100) -> list[LogEntry]:
        """Return up to `limit` log entries with version > after_version, ascending.

        Raises SessionNotFound if the session does not exist.
        """

    @abstractmethod
    async def archive(self, session_id: str) -> float:
        """Make the session read-only and start its archive retention; returns when it was archived (the first
        time, if it already was). Raises SessionNotFound."""

    @abstractmethod
    async def delete(self, session_id: str) -> bool:
        """Remove the session and everything it stored; False if there was nothing to delete. Subscribers get a
        last message saying it was deleted."""

    @abstractmethod
    async def ping(self) -> None:
        """Touch the storage; raise StoreUnavailable when it cannot be reached (the readiness check)."""

    @abstractmethod
    async def publish(self, session_id: str, message: str) -> None:
        """Send `message` to the session's current subscribers (fire and forget)."""

    @abstractmethod
    def subscribe(self, session_id: str) -> Subscription:
        """Return a Subscription (an AsyncIterator[str]) of messages published to the session."""

    @abstractmethod
    def subscriber_count(self) -> int:
        """Live subscriptions held by this store instance (this replica)."""

    @abstractmethod
    async def list_sessions(self, limit: int = 100, after: str | None = None) -> list[str]:
        """Return up to `limit` session ids greater than `after`, in ascending (byte) order."""

    @abstractmethod
    async def close(self) -> None:
        """End open subscriptions and release connections; idempotent."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
