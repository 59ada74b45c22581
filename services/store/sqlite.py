"""SQLite session store: the embedded default (one file, no server).

All database work runs on one dedicated worker thread that owns the connection, so calls from many
asyncio tasks are serialized without blocking the event loop, and a cancelled caller can never leave
the connection in the middle of a transaction. Each write is one ``BEGIN IMMEDIATE`` transaction, so
several processes may share the file safely; notifications, however, stay within this process.

Tables: sessions (version, token hash, archive mark, expiry), checkpoints (the snapshots the writer chose to
keep), entries (the compressed log) and idempotency. Expired tables are swept every minute and never read.
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
    REVOKED,
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
    StoreUnavailable,
    Subscription,
    WriterRefused,
    access_message,
    change_message,
    check_idempotency_key,
    check_session_id,
    deleted_message,
    event_channel,
    event_message,
    pack_entry,
    unpack_entry,
)
from services.store.memory_bus import MemoryBus

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    created_at REAL NOT NULL,
    archived_at REAL,
    expires_at REAL,
    player_hash TEXT,
    spectator_hash TEXT,
    event_id TEXT,
    paused_at REAL,
    updated_at REAL,
    host_call TEXT
);
CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    host_hash TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS event_tables (
    event_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    PRIMARY KEY (event_id, session_id)
);
CREATE TABLE IF NOT EXISTS checkpoints (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    snapshot TEXT NOT NULL,
    PRIMARY KEY (session_id, version)
);
CREATE TABLE IF NOT EXISTS entries (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    entry BLOB NOT NULL,
    PRIMARY KEY (session_id, version)
);
CREATE TABLE IF NOT EXISTS idempotency (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    version INTEGER NOT NULL,
    response TEXT NOT NULL,
    expires_at REAL NOT NULL,
    PRIMARY KEY (session_id, key)
);
CREATE INDEX IF NOT EXISTS idempotency_expiry ON idempotency (expires_at);
CREATE INDEX IF NOT EXISTS sessions_expiry ON sessions (expires_at);
"""

def _migrate(conn: sqlite3.Connection) -> None:
    """Bring a file written by the first layout (a snapshot per version, plain log rows) to this one, in place."""
    tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "sessions" in tables:
        columns = {str(r[1]) for r in conn.execute("PRAGMA table_info(sessions)")}
        for column, kind in (("archived_at", "REAL"), ("expires_at", "REAL"), ("player_hash", "TEXT"),
                             ("spectator_hash", "TEXT"), ("event_id", "TEXT"), ("paused_at", "REAL"),
                             ("updated_at", "REAL"), ("host_call", "TEXT")):
            if column not in columns:
                conn.execute(f"ALTER TABLE sessions ADD COLUMN {column} {kind}")
    if "log" in tables and "entries" not in tables:
        conn.execute("CREATE TABLE entries (session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
                     " version INTEGER NOT NULL, entry BLOB NOT NULL, PRIMARY KEY (session_id, version))")
        for sid, version, command, events, key, at in conn.execute(
                "SELECT session_id, version, command, events, idempotency_key, at FROM log").fetchall():
            entry = pack_entry(LogEntry(int(version), str(command), str(events), key, float(at)))
            conn.execute("INSERT INTO entries VALUES (?, ?, ?)", (sid, version, entry))
        conn.execute("DROP TABLE log")
    if "snapshots" in tables and "checkpoints" not in tables:
        conn.execute("ALTER TABLE snapshots RENAME TO checkpoints")  # every old version stays a checkpoint


def _remove(conn: sqlite3.Connection, session_id: str) -> bool:
    """Delete a table and its rows (children first: a file migrated from the first layout has no cascades)."""
    for table in ("idempotency", "entries", "checkpoints", "event_tables"):
        conn.execute(f"DELETE FROM {table} WHERE session_id = ?", (session_id,))
    return conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,)).rowcount > 0


PURGE_EVERY = 60.0
"""Seconds between sweeps of expired tables and idempotency records."""


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
        retention: float = 0.0,
        archive_retention: float = 0.0,
    ) -> None:
        self.path = os.fspath(path)
        self.idempotency_ttl = idempotency_ttl
        self.retention = retention
        self.archive_retention = archive_retention
        self._clock = clock
        self._owns_bus = bus is None
        self.bus = bus if bus is not None else MemoryBus()
        self._closed = False
        self._purged_at = 0.0
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
                _migrate(conn)
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        self._write(self._purge)
        return conn

    def _purge(self, conn: sqlite3.Connection) -> None:
        """Drop expired idempotency records and tables (worker thread, inside a write transaction)."""
        now = self._clock()
        conn.execute("DELETE FROM idempotency WHERE expires_at <= ?", (now,))
        expired = [str(r[0]) for r in conn.execute(
            "SELECT id FROM sessions WHERE expires_at IS NOT NULL AND expires_at <= ?", (now,))]
        for session_id in expired:
            _remove(conn, session_id)
        self._purged_at = now

    def _expiry(self, seconds: float, now: float) -> float | None:
        return now + seconds if seconds > 0 else None

    async def _run(self, fn: Callable[[], T]) -> T:
        if self._closed:
            raise RuntimeError("store is closed")
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, fn)
        except sqlite3.OperationalError as exc:  # locked by another process for too long, disk trouble
            raise StoreUnavailable(f"SQLite: {exc}") from exc

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

    def _live(self, conn: sqlite3.Connection, session_id: str) -> tuple[int, str, float, float | None] | None:
        row = conn.execute(
            "SELECT version, token_hash, created_at, archived_at FROM sessions"
            " WHERE id = ? AND (expires_at IS NULL OR expires_at > ?)",
            (session_id, self._clock()),
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), float(row[2]), row[3])

    def _access(self, conn: sqlite3.Connection, session_id: str) -> Access:
        row = conn.execute("SELECT player_hash, spectator_hash, event_id, paused_at, updated_at, created_at,"
                           " host_call FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return Access(row[0], row[1], row[2], row[3], row[4] if row[4] is not None else row[5], row[6])

    # -- SessionStore ---------------------------------------------------------------------------------

    async def create(self, session_id: str, token_hash: str, snapshot: str, command: str, events: str, *,
                     event_id: str | None = None) -> None:
        """Create a session at version 0 with log entry 0; raise SessionExists if the id is taken."""
        check_session_id(session_id)
        now = self._clock()
        entry = pack_entry(LogEntry(0, command, events, None, now))

        def tx(conn: sqlite3.Connection) -> None:
            if now - self._purged_at > PURGE_EVERY:
                self._purge(conn)
            try:
                conn.execute(
                    "INSERT INTO sessions (id, version, token_hash, created_at, expires_at, event_id, updated_at)"
                    " VALUES (?, 0, ?, ?, ?, ?, ?)",
                    (session_id, token_hash, now, self._expiry(self.retention, now), event_id, now),
                )
            except sqlite3.IntegrityError:
                raise SessionExists(session_id) from None
            conn.execute("INSERT INTO checkpoints (session_id, version, snapshot) VALUES (?, 0, ?)",
                         (session_id, snapshot))
            conn.execute("INSERT INTO entries (session_id, version, entry) VALUES (?, 0, ?)", (session_id, entry))

        await self._run(lambda: self._write(tx))

    def _parts(self, session_id: str, target: int, known: int | None, key: str | None) -> StoredSession | None:
        conn = self._conn
        conn.execute("BEGIN")  # one read transaction: the parts agree with each other
        try:
            live = self._live(conn, session_id)
            if live is None:
                return None
            latest, token_hash, created_at, archived_at = live
            target = latest if target < 0 else target
            if target > latest:
                return None
            cp = int(conn.execute("SELECT MAX(version) FROM checkpoints WHERE session_id = ? AND version <= ?",
                                  (session_id, target)).fetchone()[0])
            snapshot: str | None = None
            if known is not None and cp <= known <= target:
                base = known
            else:
                base = cp
                snapshot = str(conn.execute("SELECT snapshot FROM checkpoints WHERE session_id = ? AND version = ?",
                                            (session_id, cp)).fetchone()[0])
            rows = conn.execute("SELECT entry FROM entries WHERE session_id = ? AND version > ? AND version <= ?"
                                " ORDER BY version", (session_id, base, target)).fetchall()
            idem = None
            if key is not None:
                row = conn.execute("SELECT response FROM idempotency WHERE session_id = ? AND key = ?"
                                   " AND expires_at > ?", (session_id, key, self._clock())).fetchone()
                idem = None if row is None else str(row[0])
            access = self._access(conn, session_id)
        finally:
            conn.execute("COMMIT")
        return StoredSession(session_id, target, token_hash, created_at, base, snapshot,
                             tuple(unpack_entry(bytes(r[0])) for r in rows), archived_at, idem, access)

    async def load(
        self, session_id: str, *, known_version: int | None = None, idempotency_key: str | None = None
    ) -> StoredSession | None:
        """The parts of the latest version (see SessionStore.load), or None."""
        return await self._run(lambda: self._parts(session_id, -1, known_version, idempotency_key))

    async def read(self, session_id: str, version: int, *, known_version: int | None = None) -> StoredSession | None:
        """The parts of `version`, or None if the session or version does not exist."""
        if version < 0:
            return None
        return await self._run(lambda: self._parts(session_id, int(version), known_version, None))

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
        """Atomically write version expected_version+1 (or replay a known idempotency key) and notify."""
        check_idempotency_key(idempotency_key)
        loop = asyncio.get_running_loop()
        now = self._clock()
        ttl = self.idempotency_ttl if idempotency_ttl is None else idempotency_ttl
        entry = pack_entry(LogEntry(expected_version + 1, command, events, idempotency_key, now))

        def tx(conn: sqlite3.Connection) -> CommitResult:
            if idempotency_key is not None:
                row = conn.execute(
                    "SELECT version, response FROM idempotency WHERE session_id = ? AND key = ? AND expires_at > ?",
                    (session_id, idempotency_key, now),
                ).fetchone()
                if row is not None:
                    return CommitResult(int(row[0]), str(row[1]), True)
            live = self._live(conn, session_id)
            if live is None:
                raise SessionNotFound(session_id)
            current, first_hash, _, archived_at = live
            access = self._access(conn, session_id)
            if writer is not None and writer != access.player_hash(first_hash):
                raise WriterRefused(session_id)
            if archived_at is not None:
                raise SessionArchived(session_id)
            if access.paused_at is not None:
                raise SessionPaused(session_id)
            if current != expected_version:
                raise StaleVersion(current, expected_version, session_id)
            new = current + 1
            conn.execute("UPDATE sessions SET version = ?, expires_at = ?, updated_at = ? WHERE id = ?",
                         (new, self._expiry(self.retention, now), now, session_id))
            conn.execute("INSERT INTO entries (session_id, version, entry) VALUES (?, ?, ?)", (session_id, new, entry))
            if checkpoint is not None:
                conn.execute("INSERT INTO checkpoints (session_id, version, snapshot) VALUES (?, ?, ?)",
                             (session_id, new, checkpoint))
            if idempotency_key is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO idempotency (session_id, key, version, response, expires_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (session_id, idempotency_key, new, response, now + ttl),
                )
            if now - self._purged_at > PURGE_EVERY:
                self._purge(conn)
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
                if self._live(conn, session_id) is None:
                    raise SessionNotFound(session_id)
                rows = conn.execute(
                    "SELECT entry FROM entries WHERE session_id = ? AND version > ? ORDER BY version LIMIT ?",
                    (session_id, after_version, limit),
                ).fetchall()
            finally:
                conn.execute("COMMIT")
            return [unpack_entry(bytes(r[0])) for r in rows]

        return await self._run(read)

    async def archive(self, session_id: str) -> float:
        """Mark the table read-only; it is kept `archive_retention` seconds from now."""
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> float:
            live = self._live(conn, session_id)
            if live is None:
                raise SessionNotFound(session_id)
            if live[3] is not None:
                return float(live[3])
            conn.execute("UPDATE sessions SET archived_at = ?, expires_at = ? WHERE id = ?",
                         (now, self._expiry(self.archive_retention, now), session_id))
            return now

        return await self._run(lambda: self._write(tx))

    async def delete(self, session_id: str) -> bool:
        """Remove the table with its checkpoints, log and idempotency records."""
        loop = asyncio.get_running_loop()

        def tx(conn: sqlite3.Connection) -> bool:
            return _remove(conn, session_id)

        def run() -> bool:
            existed = self._write(tx)
            if existed:
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self.bus.publish, session_id, deleted_message(session_id))
            return existed

        return await self._run(run)

    # -- credentials, pausing and events ---------------------------------------------------------------

    async def _set(self, session_id: str, column: str, value: object) -> None:
        loop = asyncio.get_running_loop()

        def tx(conn: sqlite3.Connection) -> bool:
            if self._live(conn, session_id) is None:
                return False
            conn.execute(f"UPDATE sessions SET {column} = ? WHERE id = ?", (value, session_id))
            return True

        def run() -> None:
            if not self._write(tx):
                raise SessionNotFound(session_id)
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.bus.publish, session_id, access_message(session_id))

        await self._run(run)

    async def set_credential(self, session_id: str, role: str, token_hash: str | None) -> None:
        """Set (or revoke) the player or spectator token's hash; notifies the table's live views."""
        if role not in ("player", "spectator"):
            raise ValueError(f"role: {role!r} is not player or spectator")
        value = token_hash if token_hash is not None else (None if role == "spectator" else REVOKED)
        await self._set(session_id, f"{role}_hash", value)

    async def set_paused(self, session_id: str, paused: bool) -> float | None:
        at = self._clock() if paused else None
        await self._set(session_id, "paused_at", at)
        return at

    async def set_host_call(self, session_id: str, call: str | None) -> None:
        await self._set(session_id, "host_call", call)

    async def create_event(self, event_id: str, name: str, host_hash: str) -> None:
        check_session_id(event_id)

        def tx(conn: sqlite3.Connection) -> None:
            try:
                conn.execute("INSERT INTO events (id, name, host_hash, created_at) VALUES (?, ?, ?, ?)",
                             (event_id, name, host_hash, self._clock()))
            except sqlite3.IntegrityError:
                raise EventExists(event_id) from None

        await self._run(lambda: self._write(tx))

    async def event(self, event_id: str) -> StoredEvent | None:
        def read() -> StoredEvent | None:
            row = self._conn.execute("SELECT name, host_hash, created_at FROM events WHERE id = ?",
                                     (event_id,)).fetchone()
            return None if row is None else StoredEvent(event_id, str(row[0]), str(row[1]), float(row[2]))

        return await self._run(read)

    async def set_event_host(self, event_id: str, host_hash: str) -> None:
        def tx(conn: sqlite3.Connection) -> None:
            if conn.execute("UPDATE events SET host_hash = ? WHERE id = ?", (host_hash, event_id)).rowcount == 0:
                raise SessionNotFound(event_id)

        await self._run(lambda: self._write(tx))

    async def add_to_event(self, event_id: str, session_id: str, number: int) -> None:
        loop = asyncio.get_running_loop()

        def run() -> None:
            self._write(lambda conn: conn.execute("INSERT OR REPLACE INTO event_tables VALUES (?, ?, ?)",
                                                  (event_id, session_id, number)))
            channel = event_channel(event_id)
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.bus.publish, channel, event_message(event_id, session_id))

        await self._run(run)

    async def event_tables(self, event_id: str) -> list[tuple[str, int]]:
        def read() -> list[tuple[str, int]]:
            rows = self._conn.execute(
                "SELECT t.session_id, t.number FROM event_tables t JOIN sessions s ON s.id = t.session_id"
                " WHERE t.event_id = ? AND (s.expires_at IS NULL OR s.expires_at > ?) ORDER BY t.number",
                (event_id, self._clock())).fetchall()
            return [(str(r[0]), int(r[1])) for r in rows]

        return await self._run(read)

    async def list_events(self, limit: int = 100, after: str | None = None) -> list[str]:
        def read() -> list[str]:
            rows = self._conn.execute("SELECT id FROM events WHERE id > ? ORDER BY id LIMIT ?",
                                      (after or "", max(0, limit))).fetchall()
            return [str(r[0]) for r in rows]

        return await self._run(read)

    async def ping(self) -> None:
        await self._run(lambda: self._conn.execute("SELECT 1").fetchone())

    async def publish(self, session_id: str, message: str) -> None:
        """Send `message` to this process's subscribers of the session."""
        self.bus.publish(session_id, message)

    def subscribe(self, session_id: str) -> Subscription:
        """Return a live in-process subscription to the session's messages."""
        if self._closed:
            raise RuntimeError("store is closed")
        return self.bus.subscribe(session_id)

    def subscriber_count(self) -> int:
        return self.bus.total()

    async def list_sessions(self, limit: int = 100, after: str | None = None) -> list[str]:
        """Return up to `limit` session ids greater than `after`, ascending."""
        if limit <= 0:
            return []

        def read() -> list[str]:
            rows = self._conn.execute(
                "SELECT id FROM sessions WHERE id > ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY id LIMIT ?",
                (after or "", self._clock(), limit)).fetchall()
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
