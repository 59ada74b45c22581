"""Session store: versioned snapshots, command log, idempotency and change notifications.

`open_store` picks Redis when a URL is configured (shared by replicas) and SQLite otherwise.
"""

from __future__ import annotations

import os

from services.store.base import (
    DEFAULT_IDEMPOTENCY_TTL,
    Access,
    CommitResult,
    EventExists,
    LogEntry,
    SessionArchived,
    SessionExists,
    SessionNotFound,
    SessionPaused,
    SessionStore,
    StaleVersion,
    StoredEvent,
    StoredSession,
    StoreError,
    StoreUnavailable,
    Subscription,
    WriterRefused,
    change_message,
    event_channel,
    valid_session_id,
)

__all__ = [
    "DEFAULT_IDEMPOTENCY_TTL",
    "Access",
    "CommitResult",
    "EventExists",
    "LogEntry",
    "SessionArchived",
    "SessionExists",
    "SessionNotFound",
    "SessionPaused",
    "SessionStore",
    "StaleVersion",
    "StoreError",
    "StoreUnavailable",
    "StoredEvent",
    "StoredSession",
    "Subscription",
    "WriterRefused",
    "change_message",
    "event_channel",
    "open_store",
    "valid_session_id",
]


def open_store(
    redis_url: str | None,
    sqlite_path: str | os.PathLike[str],
    *,
    idempotency_ttl: float = DEFAULT_IDEMPOTENCY_TTL,
    redis_prefix: str = "brimstone",
    retention: float = 0.0,
    archive_retention: float = 0.0,
) -> SessionStore:
    """Return a RedisStore for `redis_url` if it is set, else a SqliteStore on `sqlite_path`."""
    if redis_url:
        from services.store.redis import RedisStore

        return RedisStore(redis_url, prefix=redis_prefix, idempotency_ttl=idempotency_ttl, retention=retention,
                          archive_retention=archive_retention)
    from services.store.sqlite import SqliteStore

    return SqliteStore(sqlite_path, idempotency_ttl=idempotency_ttl, retention=retention,
                       archive_retention=archive_retention)
