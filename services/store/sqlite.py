"""SQLite session store: the embedded default (one file, no server).

All database work runs on one dedicated worker thread that owns the connection, so calls from many
asyncio tasks are serialized without blocking the event loop, and a cancelled caller can never leave
the connection in the middle of a transaction. Each write is one ``BEGIN IMMEDIATE`` transaction, so
several processes may share the file safely; notifications, however, stay within this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from services.store.base import (
    DEFAULT_IDEMPOTENCY_TTL,
    CommitResult,
    LogEntry,
    SessionExists,
    SessionNotFound,
    SessionStore,
    StaleVersion,
    StoredSession,
    Subscription,
    change_message,
    check_idempotency_key,
    check_session_id,
)
from services.store.memory_bus import MemoryBus

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    version INTEGER NOT NULL,
    snapshot TEXT NOT NULL,
    PRIMARY KEY (session_id, version)
);
CREATE TABLE IF NOT EXISTS log (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    version INTEGER NOT NULL,
    command TEXT NOT NULL,
    events TEXT NOT NULL,
    idempotency_key TEXT,
    at REAL NOT NULL,
    PRIMARY KEY (session_id, version)
);
CREATE TABLE IF NOT EXISTS idempotency (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    key TEXT NOT NULL,
    version INTEGER NOT NULL,
    response TEXT NOT NULL,
    expires_at REAL NOT NULL,
    PRIMARY KEY (session_id, key)
);
CREATE INDEX IF NOT EXISTS idempotency_expiry ON idempotency (expires_at);
"""


class SqliteStore(SessionStore):
    """Session store in one SQLite file (WAL mode); sessions survive reopening the same path.

    `bus` may be shared between stores of one process so that they see each other's notifications.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        idempotency_ttl: float = DEFAULT_IDEMPOTENCY_TTL,
        bus: MemoryBus | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = os.fspath(path)
        self.idempotency_ttl = idempotency_ttl
        self._clock = clock
        self._owns_bus = bus is None
        self.bus = bus if bus is not None else MemoryBus()
        self._closed = False
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="brimstone-sqlite")
        try:
            self._conn: sqlite3.Connection = self._executor.submit(self._open).result()
        except BaseException:
            self._executor.shutdown(wait=False)
            raise

    # -- plumbing -------------------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("DELETE FROM idempotency WHERE expires_at <= ?", (self._clock(),))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except BaseException:
            conn.close()
            raise
        return conn

    async def _run(self, fn: Callable[[], T]) -> T:
        if self._closed:
            raise RuntimeError("store is closed")
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn)

    def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn` inside one BEGIN IMMEDIATE transaction (worker thread only)."""
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = fn(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return result

    # -- SessionStore ---------------------------------------------------------------------------------

    async def create(self, session_id: str, token_hash: str, snapshot: str, command: str, events: str) -> None:
        """Create a session at version 0 with log entry 0; raise SessionExists if the id is taken."""
        check_session_id(session_id)
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> None:
            try:
                conn.execute(
                    "INSERT INTO sessions (id, version, token_hash, created_at) VALUES (?, 0, ?, ?)",
                    (session_id, token_hash, now),
                )
            except sqlite3.IntegrityError:
                raise SessionExists(session_id) from None
            conn.execute(
                "INSERT INTO snapshots (session_id, version, snapshot) VALUES (?, 0, ?)",
                (session_id, snapshot),
            )
            conn.execute(
                "INSERT INTO log (session_id, version, command, events, idempotency_key, at)"
                " VALUES (?, 0, ?, ?, NULL, ?)",
                (session_id, command, events, now),
            )

        await self._run(lambda: self._write(tx))

    async def load(self, session_id: str) -> StoredSession | None:
        """Return the session's current version and snapshot, or None if it does not exist."""

        def read() -> StoredSession | None:
            row = self._conn.execute(
                "SELECT s.version, n.snapshot, s.token_hash, s.created_at FROM sessions s"
                " JOIN snapshots n ON n.session_id = s.id AND n.version = s.version WHERE s.id = ?",
                (session_id,),
            ).fetchone()
            if row is None:
                return None
            return StoredSession(session_id, int(row[0]), str(row[1]), str(row[2]), float(row[3]))

        return await self._run(read)

    async def snapshot_at(self, session_id: str, version: int) -> str | None:
        """Return the snapshot written as `version`, or None if there is no such session or version."""

        def read() -> str | None:
            row = self._conn.execute(
                "SELECT snapshot FROM snapshots WHERE session_id = ? AND version = ?",
                (session_id, version),
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._run(read)

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
        """Atomically write version expected_version+1 (or replay a known idempotency key) and notify."""
        check_idempotency_key(idempotency_key)
        loop = asyncio.get_running_loop()
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> CommitResult:
            if idempotency_key is not None:
                row = conn.execute(
                    "SELECT version, response FROM idempotency WHERE session_id = ? AND key = ? AND expires_at > ?",
                    (session_id, idempotency_key, now),
                ).fetchone()
                if row is not None:
                    return CommitResult(int(row[0]), str(row[1]), True)
            cur = conn.execute("SELECT version FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if cur is None:
                raise SessionNotFound(session_id)
            current = int(cur[0])
            if current != expected_version:
                raise StaleVersion(current, expected_version, session_id)
            new = current + 1
            conn.execute("UPDATE sessions SET version = ? WHERE id = ?", (new, session_id))
            conn.execute(
                "INSERT INTO snapshots (session_id, version, snapshot) VALUES (?, ?, ?)",
                (session_id, new, snapshot),
            )
            conn.execute(
                "INSERT INTO log (session_id, version, command, events, idempotency_key, at) VALUES (?, ?, ?, ?, ?, ?)",
                (session_id, new, command, events, idempotency_key, now),
            )
            if idempotency_key is not None:
                conn.execute("DELETE FROM idempotency WHERE session_id = ? AND expires_at <= ?", (session_id, now))
                conn.execute(
                    "INSERT OR REPLACE INTO idempotency (session_id, key, version, response, expires_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (session_id, idempotency_key, new, response, now + self.idempotency_ttl),
                )
            return CommitResult(new, response, False)

        def run() -> CommitResult:
            result = self._write(tx)
            if not result.replayed:
                # Scheduled from the worker thread, so the notification goes out even if the
                # awaiting task is cancelled after the write; it runs before commit() returns.
                with contextlib.suppress(RuntimeError):  # the event loop is already closed
                    loop.call_soon_threadsafe(self.bus.publish, session_id, change_message(session_id, result.version))
            return result

        return await self._run(run)

    async def get_idempotent(self, session_id: str, key: str) -> str | None:
        """Return the response stored for an unexpired idempotency key, or None."""
        now = self._clock()

        def read() -> str | None:
            row = self._conn.execute(
                "SELECT response FROM idempotency WHERE session_id = ? AND key = ? AND expires_at > ?",
                (session_id, key, now),
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._run(read)

    async def log(self, session_id: str, after_version: int = -1, limit: int = 100) -> list[LogEntry]:
        """Return up to `limit` log entries with version > after_version, ascending."""
        if limit < 0:
            raise ValueError("limit must be >= 0")

        def read() -> list[LogEntry]:
            conn = self._conn
            # One read transaction so the existence check and the page see the same state.
            conn.execute("BEGIN")
            try:
                if conn.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is None:
                    raise SessionNotFound(session_id)
                rows = conn.execute(
                    "SELECT version, command, events, idempotency_key, at FROM log"
                    " WHERE session_id = ? AND version > ? ORDER BY version LIMIT ?",
                    (session_id, after_version, limit),
                ).fetchall()
            finally:
                conn.execute("COMMIT")
            return [
                LogEntry(int(r[0]), str(r[1]), str(r[2]), None if r[3] is None else str(r[3]), float(r[4]))
                for r in rows
            ]

        return await self._run(read)

    async def publish(self, session_id: str, message: str) -> None:
        """Send `message` to this process's subscribers of the session."""
        self.bus.publish(session_id, message)

    def subscribe(self, session_id: str) -> Subscription:
        """Return a live in-process subscription to the session's messages."""
        if self._closed:
            raise RuntimeError("store is closed")
        return self.bus.subscribe(session_id)

    async def list_sessions(self, limit: int = 100, after: str | None = None) -> list[str]:
        """Return up to `limit` session ids greater than `after`, ascending."""
        if limit <= 0:
            return []

        def read() -> list[str]:
            rows = self._conn.execute(
                "SELECT id FROM sessions WHERE id > ? ORDER BY id LIMIT ?", (after or "", limit)
            ).fetchall()
            return [str(r[0]) for r in rows]

        return await self._run(read)

    async def close(self) -> None:
        """End this store's subscriptions (if it owns its bus) and close the database."""
        if self._closed:
            return
        self._closed = True
        if self._owns_bus:
            self.bus.close()
        await asyncio.get_running_loop().run_in_executor(self._executor, self._conn.close)
        self._executor.shutdown(wait=True)
