"""Redis session store: shared by every replica connected to the same Redis.

Keys, with the default prefix ``brimstone``:

- ``brimstone:<sid>:meta``       hash: version, token_hash, created_at
- ``brimstone:<sid>:snapshots``  hash: version -> snapshot JSON text
- ``brimstone:<sid>:log``        list: entry N (JSON) produced version N
- ``brimstone:<sid>:idem:<key>`` string with a TTL: {"version", "response"}
- ``brimstone:sessions``         sorted set (all scores 0) of session ids, for lexicographic paging
- channel ``brimstone:<sid>:changes`` carries the notifications

create() and commit() are single Lua scripts, so they are atomic and take one round trip; commit()
publishes its notification from inside the script.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub

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
    valid_session_id,
)

SUBSCRIBE_TIMEOUT = 10.0
"""Seconds to wait for Redis to confirm a SUBSCRIBE."""

# KEYS: meta, snapshots, log, sessions.  ARGV: session_id, token_hash, created_at, snapshot, entry.
_CREATE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', '0', 'token_hash', ARGV[2], 'created_at', ARGV[3])
redis.call('HSET', KEYS[2], '0', ARGV[4])
redis.call('DEL', KEYS[3])
redis.call('RPUSH', KEYS[3], ARGV[5])
redis.call('ZADD', KEYS[4], 0, ARGV[1])
return 1
"""

# KEYS: meta, snapshots, log[, idem].
# ARGV: expected, snapshot, entry, idem_value, ttl_ms, channel, notification.
_COMMIT_LUA = """
if KEYS[4] then
  local previous = redis.call('GET', KEYS[4])
  if previous then return {'replay', previous} end
end
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return {'missing'} end
if tonumber(current) ~= tonumber(ARGV[1]) then return {'stale', current} end
local new = tostring(tonumber(current) + 1)
redis.call('HSET', KEYS[1], 'version', new)
redis.call('HSET', KEYS[2], new, ARGV[2])
redis.call('RPUSH', KEYS[3], ARGV[3])
if KEYS[4] then redis.call('SET', KEYS[4], ARGV[4], 'PX', ARGV[5]) end
redis.call('PUBLISH', ARGV[6], ARGV[7])
return {'ok', new}
"""

# KEYS: meta, snapshots.  A snapshot is immutable once written; one script keeps it one round trip.
_LOAD_LUA = """
local m = redis.call('HMGET', KEYS[1], 'version', 'token_hash', 'created_at')
if not m[1] then return false end
return {m[1], m[2], m[3], redis.call('HGET', KEYS[2], m[1])}
"""

# KEYS: meta, log.  ARGV: start, stop.
_LOG_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
return redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])
"""


def _text(value: Any) -> str:
    """Decode a Redis reply item whether or not the client decodes responses."""
    if isinstance(value, bytes):
        return value.decode()
    return str(value)


def _entry_json(version: int, command: str, events: str, key: str | None, at: float) -> str:
    return json.dumps({"version": version, "command": command, "events": events, "idempotency_key": key, "at": at})


def _entry(raw: Any) -> LogEntry:
    d = json.loads(_text(raw))
    return LogEntry(int(d["version"]), d["command"], d["events"], d["idempotency_key"], float(d["at"]))


class RedisSubscription(Subscription):
    """A session's change channel on a dedicated pub/sub connection."""

    def __init__(self, store: RedisStore, channel: str) -> None:
        self._store = store
        self.channel = channel
        self._pubsub: PubSub = store.client.pubsub()
        self._started = False
        self._closed = False
        self._start_lock = asyncio.Lock()
        self._waiter: asyncio.Future[Any] | None = None

    async def start(self) -> None:
        """Subscribe and wait until Redis confirms it, so later publishes are not missed."""
        if self._closed:
            raise RuntimeError("subscription is closed")
        async with self._start_lock:
            if self._started:
                return
            await self._pubsub.subscribe(self.channel)
            deadline = time.monotonic() + SUBSCRIBE_TIMEOUT
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"Redis did not confirm SUBSCRIBE {self.channel}")
                msg = await self._pubsub.get_message(timeout=remaining)
                if msg is not None and _text(msg["type"]) == "subscribe":
                    break
            self._started = True

    async def __anext__(self) -> str:
        if self._closed:
            raise StopAsyncIteration
        if not self._started:
            try:
                await self.start()
            except BaseException:
                await self.aclose()
                raise
        while True:
            # Read in an inner task so that aclose() from another task can cancel the read cleanly
            # (closing the connection under a pending read makes redis-py reconnect and leak it).
            waiter = asyncio.ensure_future(self._pubsub.get_message(ignore_subscribe_messages=True, timeout=None))
            self._waiter = waiter
            try:
                msg = await waiter
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if self._closed and (task is None or task.cancelling() == 0):
                    raise StopAsyncIteration from None
                raise
            except Exception:
                if self._closed:
                    raise StopAsyncIteration from None
                raise
            finally:
                self._waiter = None
            if self._closed:
                raise StopAsyncIteration
            if msg is not None and _text(msg["type"]) == "message":
                return _text(msg["data"])

    async def aclose(self) -> None:
        """Drop the pub/sub connection (which also unsubscribes)."""
        if self._closed:
            return
        self._closed = True
        self._store._subscriptions.discard(self)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.cancel()
            await asyncio.wait([waiter])
        await self._pubsub.aclose()  # type: ignore[no-untyped-call]


class RedisStore(SessionStore):
    """Session store on Redis (redis.asyncio); give a URL (the store owns the client) or a client.

    `prefix` namespaces every key and channel, so tests (or several deployments) can share a server.
    """

    def __init__(
        self,
        client: str | Redis,
        *,
        prefix: str = "brimstone",
        idempotency_ttl: float = DEFAULT_IDEMPOTENCY_TTL,
    ) -> None:
        if isinstance(client, str):
            self.client: Redis = Redis.from_url(client, decode_responses=True)
            self._owns_client = True
        else:
            self.client = client
            self._owns_client = False
        self.prefix = prefix
        self.idempotency_ttl = idempotency_ttl
        self._subscriptions: set[RedisSubscription] = set()
        self._closed = False
        self._create = self.client.register_script(_CREATE_LUA)
        self._commit = self.client.register_script(_COMMIT_LUA)
        self._load = self.client.register_script(_LOAD_LUA)
        self._log = self.client.register_script(_LOG_LUA)

    # -- key names ------------------------------------------------------------------------------------

    def _key(self, session_id: str, part: str) -> str:
        return f"{self.prefix}:{session_id}:{part}"

    def idempotency_key_name(self, session_id: str, key: str) -> str:
        """The Redis key holding an idempotency record (exposed for inspection, e.g. PTTL)."""
        return self._key(session_id, f"idem:{key}")

    def channel(self, session_id: str) -> str:
        """The pub/sub channel carrying the session's notifications."""
        return self._key(session_id, "changes")

    @property
    def sessions_key(self) -> str:
        """The sorted set listing every session id."""
        return f"{self.prefix}:sessions"

    # -- SessionStore ---------------------------------------------------------------------------------

    async def create(self, session_id: str, token_hash: str, snapshot: str, command: str, events: str) -> None:
        """Create a session at version 0 with log entry 0; raise SessionExists if the id is taken."""
        check_session_id(session_id)
        now = time.time()
        created = await self._create(
            keys=[
                self._key(session_id, "meta"),
                self._key(session_id, "snapshots"),
                self._key(session_id, "log"),
                self.sessions_key,
            ],
            args=[session_id, token_hash, repr(now), snapshot, _entry_json(0, command, events, None, now)],
        )
        if int(created) != 1:
            raise SessionExists(session_id)

    async def load(self, session_id: str) -> StoredSession | None:
        """Return the session's current version and snapshot, or None if it does not exist."""
        if not valid_session_id(session_id):
            return None
        reply = await self._load(keys=[self._key(session_id, "meta"), self._key(session_id, "snapshots")])
        if not reply:
            return None
        version, token_hash, created_at, snapshot = reply
        return StoredSession(session_id, int(version), _text(snapshot), _text(token_hash), float(created_at))

    async def snapshot_at(self, session_id: str, version: int) -> str | None:
        """Return the snapshot written as `version`, or None if there is no such session or version."""
        if not valid_session_id(session_id):
            return None
        raw = await self.client.hget(self._key(session_id, "snapshots"), str(int(version)))
        return None if raw is None else _text(raw)

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
        if not valid_session_id(session_id):
            raise SessionNotFound(session_id)
        new = expected_version + 1
        now = time.time()
        keys = [
            self._key(session_id, "meta"),
            self._key(session_id, "snapshots"),
            self._key(session_id, "log"),
        ]
        if idempotency_key is not None:
            keys.append(self.idempotency_key_name(session_id, idempotency_key))
        reply = await self._commit(
            keys=keys,
            args=[
                expected_version,
                snapshot,
                _entry_json(new, command, events, idempotency_key, now),
                json.dumps({"version": new, "response": response}),
                max(1, round(self.idempotency_ttl * 1000)),
                self.channel(session_id),
                change_message(session_id, new),
            ],
        )
        status = _text(reply[0])
        if status == "ok":
            return CommitResult(int(reply[1]), response, False)
        if status == "replay":
            record = json.loads(_text(reply[1]))
            return CommitResult(int(record["version"]), str(record["response"]), True)
        if status == "stale":
            raise StaleVersion(int(reply[1]), expected_version, session_id)
        raise SessionNotFound(session_id)

    async def get_idempotent(self, session_id: str, key: str) -> str | None:
        """Return the response stored for an unexpired idempotency key, or None."""
        if not valid_session_id(session_id):
            return None
        raw = await self.client.get(self.idempotency_key_name(session_id, key))
        if raw is None:
            return None
        return str(json.loads(_text(raw))["response"])

    async def log(self, session_id: str, after_version: int = -1, limit: int = 100) -> list[LogEntry]:
        """Return up to `limit` log entries with version > after_version, ascending."""
        if limit < 0:
            raise ValueError("limit must be >= 0")
        if not valid_session_id(session_id):
            raise SessionNotFound(session_id)
        start = max(after_version + 1, 0)
        if limit == 0:
            if await self.client.exists(self._key(session_id, "meta")) == 0:
                raise SessionNotFound(session_id)
            return []
        reply = await self._log(
            keys=[self._key(session_id, "meta"), self._key(session_id, "log")],
            args=[start, start + limit - 1],
        )
        if reply is None or reply is False:
            raise SessionNotFound(session_id)
        return [_entry(item) for item in reply]

    async def publish(self, session_id: str, message: str) -> None:
        """Publish `message` on the session's channel (reaches subscribers on every replica)."""
        await self.client.publish(self.channel(session_id), message)

    def subscribe(self, session_id: str) -> Subscription:
        """Return a subscription to the session's channel; `async with` it to subscribe eagerly."""
        if self._closed:
            raise RuntimeError("store is closed")
        sub = RedisSubscription(self, self.channel(session_id))
        self._subscriptions.add(sub)
        return sub

    async def list_sessions(self, limit: int = 100, after: str | None = None) -> list[str]:
        """Return up to `limit` session ids greater than `after`, ascending (byte order)."""
        if limit <= 0:
            return []
        low = "-" if after is None else "(" + after
        ids = await self.client.zrangebylex(self.sessions_key, low, "+", start=0, num=limit)
        return [_text(i) for i in ids]

    async def close(self) -> None:
        """Close open subscriptions and, if the store created the client, the client."""
        if self._closed:
            return
        self._closed = True
        for sub in list(self._subscriptions):
            await sub.aclose()
        if self._owns_client:
            await self.client.aclose()
