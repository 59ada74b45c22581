"""Session store interface shared by the SQLite and Redis backends.

The store keeps, per game session, a version counter, the snapshot of every version, an append-only
command log and short-lived idempotency records. Snapshots, commands, events and responses are opaque
JSON text: the store knows nothing about game rules.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from dataclasses import dataclass
from types import TracebackType
from typing import Self

DEFAULT_IDEMPOTENCY_TTL = 24 * 3600.0
"""Seconds an idempotency key is remembered after the commit that used it."""

SESSION_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,128}")
"""Allowed session ids: they are embedded in Redis key names, so no separators."""

MAX_IDEMPOTENCY_KEY_LEN = 256


@dataclass(frozen=True)
class StoredSession:
    """A session's current state as read from the store."""

    session_id: str
    version: int
    """0 at creation, +1 per commit."""
    snapshot: str
    """JSON text of the game state at `version`."""
    token_hash: str
    """sha256 hex of the table token (the store never sees the raw token)."""
    created_at: float


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


def change_message(session_id: str, version: int) -> str:
    """The JSON notification commit() publishes after a successful write."""
    return json.dumps({"session_id": session_id, "version": version}, separators=(",", ":"))


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


class SessionStore(ABC):
    """Versioned, append-only storage of game sessions with compare-and-set commits."""

    @abstractmethod
    async def create(self, session_id: str, token_hash: str, snapshot: str, command: str, events: str) -> None:
        """Create a session at version 0 with log entry 0; raise SessionExists if the id is taken.

        Raises ValueError if the id does not match SESSION_ID_RE.
        """

    @abstractmethod
    async def load(self, session_id: str) -> StoredSession | None:
        """Return the session's current version and snapshot, or None if it does not exist."""

    @abstractmethod
    async def snapshot_at(self, session_id: str, version: int) -> str | None:
        """Return the snapshot written as `version`, or None if there is no such session or version."""

    @abstractmethod
    async def commit(
        self,
        session_id: str,
        expected_version: int,
        snapshot: str,
        command: str,
        events: str,
        response: str,
        idempotency_key: str | None = None,
    ) -> CommitResult:
        """Atomically write `snapshot` as version expected_version+1, log the command and notify.

        A known idempotency key returns its first response (replayed=True, nothing written) even when
        expected_version is stale; otherwise raises StaleVersion or SessionNotFound.
        """

    @abstractmethod
    async def get_idempotent(self, session_id: str, key: str) -> str | None:
        """Return the response stored for an unexpired idempotency key, or None."""

    @abstractmethod
    async def log(self, session_id: str, after_version: int = -1, limit: int = 100) -> list[LogEntry]:
        """Return up to `limit` log entries with version > after_version, ascending.

        Raises SessionNotFound if the session does not exist.
        """

    @abstractmethod
    async def publish(self, session_id: str, message: str) -> None:
        """Send `message` to the session's current subscribers (fire and forget)."""

    @abstractmethod
    def subscribe(self, session_id: str) -> Subscription:
        """Return a Subscription (an AsyncIterator[str]) of messages published to the session."""

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
