"""Redis session store: shared by every replica connected to the same Redis (or Redis Cluster).

Keys, with the default prefix ``brimstone``; each table's keys carry its join code as a hash tag (``{K7QX2M}``), so in
a Redis Cluster they all live in one slot and the Lua scripts that touch several of them stay atomic:

- ``brimstone:{<sid>}:meta``        hash: version, token_hash, created_at, updated_at[, archived_at, paused_at,
                                     player, spectator, event]
- ``brimstone:{<sid>}:snapshots``   hash: checkpoint version -> snapshot JSON text
- ``brimstone:{<sid>}:checkpoints`` sorted set of the checkpoint versions (score = version)
- ``brimstone:{<sid>}:log``         list: entry N (compressed, see base.pack_entry) produced version N
- ``brimstone:{<sid>}:idem:<key>``  string with a TTL: {"version", "response"}
- ``brimstone:sessions``            sorted set (all scores 0) of session ids, for lexicographic paging
- ``brimstone:event:{<eid>}:meta``  hash: name, host (the host token's sha256), created_at
- ``brimstone:event:{<eid>}:tables`` sorted set: join code -> table number
- ``brimstone:events``              sorted set (all scores 0) of event ids
- channels ``brimstone:{<sid>}:changes`` and ``brimstone:event:{<eid>}:changes`` carry the notifications

create(), load()/read(), commit(), archive() and delete() are single Lua scripts over one table's keys: atomic, one
round trip each; commit() publishes its notification from inside the script. The indexes (`sessions`, `events`, an
event's `tables`) live in other slots and are written next to the scripts, never inside them; a listed id whose
table expired is dropped when listing. The four keys of a table get the retention as their TTL on every write, so
an idle table disappears by itself.

Subscriptions share one pub/sub connection per store (per replica): it listens to every channel with one pattern
and fans the messages out in process. When that connection is lost, the store reconnects with backoff and tells
every local subscriber to resynchronise (it may have missed notifications meanwhile).

Connections retry a command on a connection error with exponential backoff (redis-py's Retry); when Redis stays
unreachable every call raises StoreUnavailable (HTTP 503 with Retry-After at the edge). A URL starting with
``redis+cluster://`` opens a Redis Cluster client (docs/operations.md, "When an event outgrows one Redis").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from redis import exceptions as redis_errors
from redis.asyncio import ConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

from services.observability import COMMIT_BATCH
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
    resync_message,
    unpack_entry,
    valid_session_id,
)
from services.store.memory_bus import MemoryBus, MemorySubscription

log = logging.getLogger("brimstone.store")

SUBSCRIBE_TIMEOUT = 10.0
"""Seconds a new subscription waits for the shared pub/sub connection to be listening."""
MAX_CONNECTIONS = 1024
"""Commands share a pool this big (subscriptions take none of it: they share one pub/sub connection)."""
RETRYABLE = (redis_errors.ConnectionError, redis_errors.TimeoutError, redis_errors.BusyLoadingError)

# KEYS: meta, snapshots, checkpoints, log.  ARGV: session_id, token_hash, created_at, snapshot, entry, ttl_ms, event.
_CREATE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', '0', 'token_hash', ARGV[2], 'created_at', ARGV[3], 'updated_at', ARGV[3])
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'event', ARGV[7]) end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('HSET', KEYS[2], '0', ARGV[4])
redis.call('ZADD', KEYS[3], 0, '0')
redis.call('RPUSH', KEYS[4], ARGV[5])
if tonumber(ARGV[6]) > 0 then
  for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
end
return 1
"""

# KEYS: meta, snapshots, checkpoints, log[, idem].  ARGV: target (-1 = latest), known (-1 = none).
# Returns {version, token_hash, created_at, archived_at, base, snapshot|false, entries, idem|false, access} or a
# status; access is {player, spectator, event, paused_at, updated_at, host_call}, each false when unset.
_READ_LUA = """
local m = redis.call('HMGET', KEYS[1], 'version', 'token_hash', 'created_at', 'archived_at', 'player', 'spectator',
                     'event', 'paused_at', 'updated_at', 'host_call')
if not m[1] then return false end
local latest = tonumber(m[1])
local target = tonumber(ARGV[1])
if target < 0 then target = latest end
if target > latest then return 'no-version' end
local cp = tonumber(redis.call('ZREVRANGEBYSCORE', KEYS[3], target, '-inf', 'LIMIT', 0, 1)[1])
local idem = false
if KEYS[5] then idem = redis.call('GET', KEYS[5]) end
local known = tonumber(ARGV[2])
local base = cp
local snapshot = false
if known >= 0 and known <= target and known >= cp then base = known else snapshot = redis.call('HGET', KEYS[2], tostring(cp)) end
local entries = {}
if base < target then entries = redis.call('LRANGE', KEYS[4], base + 1, target) end
return {tostring(target), m[2], m[3], m[4] or false, tostring(base), snapshot, entries, idem,
        {m[5] or false, m[6] or false, m[7] or false, m[8] or false, m[9] or false, m[10] or false}}
"""

# KEYS: meta, snapshots, checkpoints, log[, idem].
# ARGV: expected, entry, idem_value, idem_ttl_ms, channel, notification, checkpoint ('' = none), ttl_ms,
#       writer (the writer's token hash, '' = not checked), now.
_COMMIT_LUA = """
if KEYS[5] then
  local previous = redis.call('GET', KEYS[5])
  if previous then return {'replay', previous} end
end
local m = redis.call('HMGET', KEYS[1], 'version', 'archived_at', 'paused_at', 'player', 'token_hash')
local current = m[1]
if not current then return {'missing'} end
if ARGV[9] ~= '' and ARGV[9] ~= (m[4] or m[5]) then return {'writer'} end
if m[2] then return {'archived'} end
if m[3] then return {'paused'} end
if tonumber(current) ~= tonumber(ARGV[1]) then return {'stale', current} end
local new = tonumber(current) + 1
redis.call('HSET', KEYS[1], 'version', tostring(new), 'updated_at', ARGV[10])
redis.call('RPUSH', KEYS[4], ARGV[2])
if ARGV[7] ~= '' then
  redis.call('HSET', KEYS[2], tostring(new), ARGV[7])
  redis.call('ZADD', KEYS[3], new, tostring(new))
end
if KEYS[5] then redis.call('SET', KEYS[5], ARGV[3], 'PX', ARGV[4]) end
if tonumber(ARGV[8]) > 0 then
  for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[8]) end
end
redis.call('PUBLISH', ARGV[5], ARGV[6])
return {'ok', tostring(new)}
"""

# KEYS: meta, snapshots, checkpoints, log.  ARGV: archived_at, ttl_ms (0 = keep).
_ARCHIVE_LUA = """
local m = redis.call('HMGET', KEYS[1], 'version', 'archived_at')
if not m[1] then return false end
if m[2] then return m[2] end
redis.call('HSET', KEYS[1], 'archived_at', ARGV[1])
for i = 1, 4 do
  if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[i], ARGV[2]) else redis.call('PERSIST', KEYS[i]) end
end
return ARGV[1]
"""

# KEYS: meta, snapshots, checkpoints, log.  ARGV: channel, notification.
_DELETE_LUA = """
local existed = redis.call('DEL', KEYS[1])
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
if existed == 1 then redis.call('PUBLISH', ARGV[1], ARGV[2]) end
return existed
"""

# KEYS: meta.  ARGV: field, value ('' = remove the field), channel, notification.
_SET_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
"""

# KEYS: event meta.  ARGV: name, host, created_at, ttl_ms.
_CREATE_EVENT_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'host', ARGV[2], 'created_at', ARGV[3])
if tonumber(ARGV[4]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 1
"""


def _text(value: Any) -> str:
    """Decode a Redis reply item whether or not the client decodes responses."""
    if isinstance(value, bytes):
        return value.decode()
    return str(value)


def _raw(value: Any) -> bytes:
    return value if isinstance(value, bytes) else str(value).encode("latin-1")


def _glob_escape(text: str) -> str:
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


@contextlib.contextmanager
def _reachable() -> Any:
    """Redis connection trouble that outlived the client's retries becomes StoreUnavailable, and so does a full
    Redis (maxmemory with the noeviction policy refuses writes rather than dropping a table)."""
    try:
        yield
    except RETRYABLE as exc:
        raise StoreUnavailable(f"Redis is unreachable: {exc}") from exc
    except redis_errors.OutOfMemoryError as exc:  # maxmemory reached with noeviction: nothing was written
        log.error("Redis is full (maxmemory with noeviction): %s", exc)
        raise StoreUnavailable(f"Redis is full: {exc}") from exc


CLUSTER_SCHEME = "redis+cluster://"


def make_client(url: str) -> Redis:
    """A client that retries a command on connection errors (3 times, exponential backoff up to 0.5 s) and checks an
    idle connection before reusing it; a ``redis+cluster://host:port`` URL gives a Redis Cluster client (it finds the
    other nodes from that one).

    No socket read timeout and no waiting pool: each would cost a timer per command on the hot path; a reply's wait
    is bounded by the retry policy when the connection breaks."""
    retry = Retry(ExponentialBackoff(cap=0.5, base=0.05), retries=3)
    if url.startswith(CLUSTER_SCHEME):
        cluster = RedisCluster.from_url("redis://" + url[len(CLUSTER_SCHEME):], retry=retry,
                                        socket_connect_timeout=2.0, decode_responses=False)
        return cluster  # type: ignore[return-value]  # the calls the store makes are the same
    pool = ConnectionPool.from_url(
        url, max_connections=MAX_CONNECTIONS, retry=retry, retry_on_error=list(RETRYABLE),
        socket_connect_timeout=2.0, health_check_interval=15, decode_responses=False)
    return Redis(connection_pool=pool)


class RedisSubscription(MemorySubscription):
    """One subscriber's queue on the store's shared pub/sub connection."""

    def __init__(self, store: RedisStore, session_id: str) -> None:
        self._store = store
        super().__init__(store.bus, session_id, store.bus.max_queue)

    async def start(self) -> None:
        """Wait until the shared connection is listening, so no notification published from now on is missed."""
        if self._closed:
            raise RuntimeError("subscription is closed")
        await self._store._listening(SUBSCRIBE_TIMEOUT)


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
        retention: float = 0.0,
        archive_retention: float = 0.0,
    ) -> None:
        if isinstance(client, str):
            self.client: Redis = make_client(client)
            self._owns_client = True
            self._url = client
        else:
            self.client = client
            self._owns_client = False
            self._url = ""
        self.cluster = isinstance(self.client, RedisCluster)
        self.prefix = prefix
        self.idempotency_ttl = idempotency_ttl
        self.retention = retention
        self.archive_retention = archive_retention
        self.bus = MemoryBus()
        self._closed = False
        self._listener: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._pubsub: Redis | None = None
        self.reconnects = 0
        self._create = self.client.register_script(_CREATE_LUA)
        self._commit = self.client.register_script(_COMMIT_LUA)
        self._ready_commits: list[tuple[list[str], list[Any], asyncio.Future[Any]]] = []
        self._sending: set[asyncio.Task[None]] = set()
        self._read = self.client.register_script(_READ_LUA)
        self._archive = self.client.register_script(_ARCHIVE_LUA)
        self._delete = self.client.register_script(_DELETE_LUA)
        self._set = self.client.register_script(_SET_LUA)
        self._create_event = self.client.register_script(_CREATE_EVENT_LUA)

    # -- key names ------------------------------------------------------------------------------------

    def _key(self, session_id: str, part: str) -> str:
        return f"{self.prefix}:{{{session_id}}}:{part}"

    def _event_key(self, event_id: str, part: str) -> str:
        return f"{self.prefix}:event:{{{event_id}}}:{part}"

    @property
    def events_key(self) -> str:
        """The sorted set listing every event id."""
        return f"{self.prefix}:events"

    def _bus_name(self, channel: str) -> str:
        """The in-process bus a channel's messages go to: a join code, or event_channel(<event id>)."""
        middle = channel[len(self.prefix) + 1: -len(":changes")]
        if middle.startswith("event:"):
            return event_channel(middle[len("event:"):].strip("{}"))
        return middle.strip("{}")

    def _table_keys(self, session_id: str) -> list[str]:
        return [self._key(session_id, part) for part in ("meta", "snapshots", "checkpoints", "log")]

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

    def _ms(self, seconds: float) -> int:
        return max(0, round(seconds * 1000))

    # -- SessionStore ---------------------------------------------------------------------------------

    async def create(self, session_id: str, token_hash: str, snapshot: str, command: str, events: str, *,
                     event_id: str | None = None) -> None:
        """Create a session at version 0 with log entry 0; raise SessionExists if the id is taken."""
        check_session_id(session_id)
        now = time.time()
        entry = pack_entry(LogEntry(0, command, events, None, now))
        with _reachable():
            await self.client.zadd(self.sessions_key, {session_id: 0})  # listed first: a missing table is skipped
            created = await self._create(
                keys=self._table_keys(session_id),
                args=[session_id, token_hash, repr(now), snapshot, entry, self._ms(self.retention), event_id or ""],
            )
        if int(created) != 1:
            raise SessionExists(session_id)

    async def _parts(self, session_id: str, target: int, known: int | None, key: str | None) -> StoredSession | None:
        if not valid_session_id(session_id):
            return None
        keys = self._table_keys(session_id)
        if key is not None:
            keys.append(self.idempotency_key_name(session_id, key))
        with _reachable():
            reply = await self._read(keys=keys, args=[target, -1 if known is None else known])
        if not reply or not isinstance(reply, list):
            return None
        version, token_hash, created_at, archived_at, base, snapshot, entries, idem, access = reply
        player, spectator, event, paused_at, updated_at, host_call = (None if a is None else _text(a)
                                                                      for a in access)
        return StoredSession(
            session_id, int(version), _text(token_hash), float(created_at), int(base),
            None if snapshot is None else _text(snapshot), tuple(unpack_entry(_raw(e)) for e in entries),
            None if archived_at is None else float(archived_at),
            None if idem is None else str(json.loads(idem)["response"]),
            Access(player, spectator, event, None if paused_at is None else float(paused_at),
                   float(updated_at) if updated_at is not None else float(created_at), host_call),
        )

    async def load(
        self, session_id: str, *, known_version: int | None = None, idempotency_key: str | None = None
    ) -> StoredSession | None:
        """The parts of the latest version (see SessionStore.load), or None."""
        return await self._parts(session_id, -1, known_version, idempotency_key)

    async def read(self, session_id: str, version: int, *, known_version: int | None = None) -> StoredSession | None:
        """The parts of `version`, or None if the session or version does not exist."""
        if version < 0:
            return None
        return await self._parts(session_id, int(version), known_version, None)

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
        if not valid_session_id(session_id):
            raise SessionNotFound(session_id)
        new = expected_version + 1
        now = time.time()
        keys = self._table_keys(session_id)
        if idempotency_key is not None:
            keys.append(self.idempotency_key_name(session_id, idempotency_key))
        ttl = self.idempotency_ttl if idempotency_ttl is None else idempotency_ttl
        with _reachable():
            reply = await self._batched_commit(
                keys=keys,
                args=[
                    expected_version,
                    pack_entry(LogEntry(new, command, events, idempotency_key, now)),
                    json.dumps({"version": new, "response": response}),
                    max(1, self._ms(ttl)),
                    self.channel(session_id),
                    change_message(session_id, new),
                    checkpoint or "",
                    self._ms(self.retention),
                    writer or "",
                    repr(now),
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
        if status == "archived":
            raise SessionArchived(session_id)
        if status == "paused":
            raise SessionPaused(session_id)
        if status == "writer":
            raise WriterRefused(session_id)
        raise SessionNotFound(session_id)

    async def _batched_commit(self, *, keys: list[str], args: list[Any]) -> Any:
        """Run the commit script, pipelined with the other commits this process has ready at the same moment.

        An evening's replica has many tables writing at once: the commits that reach this point in one turn of the
        event loop leave as one pipeline (one write, one read, one pass of the client's machinery) instead of one
        round trip each. Each commit is still its own script call, atomic on its own; a retried pipeline is safe, as
        every commit carries an idempotency key. On Redis Cluster, where commits go to different nodes, each is
        sent alone."""
        if self.cluster:
            return await self._commit(keys=keys, args=args)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._ready_commits.append((keys, args, future))
        if len(self._ready_commits) == 1:
            loop.call_soon(self._send_commits)  # after the other requests this turn of the loop already runs
        return await future

    def _send_commits(self) -> None:
        batch, self._ready_commits = self._ready_commits, []
        task = asyncio.get_running_loop().create_task(self._send_batch(batch), name="brimstone-commits")
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send_batch(self, batch: list[tuple[list[str], list[Any], asyncio.Future[Any]]]) -> None:
        COMMIT_BATCH.observe(len(batch))
        if len(batch) == 1:
            await self._alone(*batch[0])
            return
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for keys, args, _ in batch:
                    pipe.evalsha(self._commit.sha, len(keys), *keys, *args)
                replies = await pipe.execute(raise_on_error=False)
        except BaseException as exc:  # the connection failed beyond the client's retries: every commit says so
            for _, _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        for (keys, args, future), reply in zip(batch, replies, strict=True):
            if isinstance(reply, redis_errors.NoScriptError):  # Redis restarted and forgot the script: load it
                await self._alone(keys, args, future)
            elif future.done():
                continue
            elif isinstance(reply, BaseException):
                future.set_exception(reply)
            else:
                future.set_result(reply)

    async def _alone(self, keys: list[str], args: list[Any], future: asyncio.Future[Any]) -> None:
        """One commit sent by itself (the script loaded first if Redis lost it), its reply handed to `future`."""
        try:
            reply = await self._commit(keys=keys, args=args)
        except BaseException as exc:
            if not future.done():
                future.set_exception(exc)
            return
        if not future.done():
            future.set_result(reply)

    async def get_idempotent(self, session_id: str, key: str) -> str | None:
        """Return the response stored for an unexpired idempotency key, or None."""
        if not valid_session_id(session_id):
            return None
        with _reachable():
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
        with _reachable():
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.exists(self._key(session_id, "meta"))
                pipe.lrange(self._key(session_id, "log"), start, start + limit - 1)
                exists, items = await pipe.execute()
        if not exists:
            raise SessionNotFound(session_id)
        return [unpack_entry(_raw(item)) for item in items] if limit else []

    async def archive(self, session_id: str) -> float:
        """Mark the table read-only and give its keys the archive retention."""
        if not valid_session_id(session_id):
            raise SessionNotFound(session_id)
        with _reachable():
            reply = await self._archive(keys=self._table_keys(session_id),
                                        args=[repr(time.time()), self._ms(self.archive_retention)])
        if reply is None:
            raise SessionNotFound(session_id)
        return float(reply)

    async def delete(self, session_id: str) -> bool:
        """Remove every key of the table (idempotency records expire by themselves)."""
        if not valid_session_id(session_id):
            return False
        with _reachable():
            existed = await self._delete(keys=self._table_keys(session_id),
                                         args=[self.channel(session_id), deleted_message(session_id)])
            await self.client.zrem(self.sessions_key, session_id)
        return int(existed) == 1

    # -- credentials, pausing and events ---------------------------------------------------------------

    async def set_credential(self, session_id: str, role: str, token_hash: str | None) -> None:
        """Set (or revoke) the player or spectator token's hash; notifies the table's live views."""
        if role not in ("player", "spectator"):
            raise ValueError(f"role: {role!r} is not player or spectator")
        if not valid_session_id(session_id):
            raise SessionNotFound(session_id)
        value = token_hash if token_hash is not None else ("" if role == "spectator" else REVOKED)
        with _reachable():
            done = await self._set(keys=[self._key(session_id, "meta")],
                                   args=[role, value, self.channel(session_id), access_message(session_id)])
        if not int(done):
            raise SessionNotFound(session_id)

    async def set_paused(self, session_id: str, paused: bool) -> float | None:
        """Pause or resume the table (a paused table commits nothing); notifies its live views."""
        if not valid_session_id(session_id):
            raise SessionNotFound(session_id)
        at = time.time() if paused else None
        with _reachable():
            done = await self._set(keys=[self._key(session_id, "meta")],
                                   args=["paused_at", "" if at is None else repr(at), self.channel(session_id),
                                         access_message(session_id)])
        if not int(done):
            raise SessionNotFound(session_id)
        return at

    async def set_host_call(self, session_id: str, call: str | None) -> None:
        """Raise or clear the table's call for its host; notifies its live views."""
        if not valid_session_id(session_id):
            raise SessionNotFound(session_id)
        with _reachable():
            done = await self._set(keys=[self._key(session_id, "meta")],
                                   args=["host_call", call or "", self.channel(session_id),
                                         access_message(session_id)])
        if not int(done):
            raise SessionNotFound(session_id)

    def _event_ttl_ms(self) -> int:
        keep = max(self.retention, self.archive_retention) if self.retention and self.archive_retention else 0
        return self._ms(keep)

    async def create_event(self, event_id: str, name: str, host_hash: str) -> None:
        check_session_id(event_id)
        with _reachable():
            await self.client.zadd(self.events_key, {event_id: 0})
            created = await self._create_event(keys=[self._event_key(event_id, "meta")],
                                               args=[name, host_hash, repr(time.time()), self._event_ttl_ms()])
        if int(created) != 1:
            raise EventExists(event_id)

    async def event(self, event_id: str) -> StoredEvent | None:
        if not valid_session_id(event_id):
            return None
        with _reachable():
            found: list[Any] = await self.client.hmget(self._event_key(event_id, "meta"), ["name", "host", "created_at"])
        name, host, created_at = found
        if host is None:
            return None
        return StoredEvent(event_id, _text(name), _text(host), float(_text(created_at)))

    async def set_event_host(self, event_id: str, host_hash: str) -> None:
        if await self.event(event_id) is None:
            raise SessionNotFound(event_id)
        with _reachable():
            await self.client.hset(self._event_key(event_id, "meta"), "host", host_hash)

    async def add_to_event(self, event_id: str, session_id: str, number: int) -> None:
        key = self._event_key(event_id, "tables")
        with _reachable():
            await self.client.zadd(key, {session_id: number})
            ttl = self._event_ttl_ms()
            if ttl:
                await self.client.pexpire(key, ttl)
            await self.client.publish(self._event_key(event_id, "changes"), event_message(event_id, session_id))

    async def event_tables(self, event_id: str) -> list[tuple[str, int]]:
        if not valid_session_id(event_id):
            return []
        key = self._event_key(event_id, "tables")
        with _reachable():
            rows: list[Any] = await self.client.zrange(key, 0, -1, withscores=True)
            ids = [_text(sid) for sid, _ in rows]
            alive = await self._existing(ids)
            gone = [sid for sid in ids if sid not in alive]
            if gone:
                await self.client.zrem(key, *gone)
        return [(_text(sid), int(score)) for sid, score in rows if _text(sid) in alive]

    async def _existing(self, ids: list[str]) -> set[str]:
        """The ids whose table still exists (one pipeline; a cluster pipeline splits it by slot)."""
        if not ids:
            return set()
        async with self.client.pipeline(transaction=False) as pipe:
            for sid in ids:
                pipe.exists(self._key(sid, "meta"))
            found = await pipe.execute()
        return {sid for sid, there in zip(ids, found, strict=True) if there}

    async def list_events(self, limit: int = 100, after: str | None = None) -> list[str]:
        if limit <= 0:
            return []
        low = "-" if after is None else "(" + after
        with _reachable():
            ids = await self.client.zrangebylex(self.events_key, low, "+", start=0, num=limit)
        return [_text(i) for i in ids]

    async def ping(self) -> None:
        with _reachable():
            await self.client.ping()

    async def publish(self, session_id: str, message: str) -> None:
        """Publish `message` on the session's channel (reaches subscribers on every replica)."""
        with _reachable():
            await self.client.publish(self.channel(session_id), message)

    def subscribe(self, session_id: str) -> Subscription:
        """A subscription to the session's channel, served by the shared pub/sub connection."""
        if self._closed:
            raise RuntimeError("store is closed")
        if self._listener is None:
            self._listener = asyncio.get_running_loop().create_task(self._listen(), name="brimstone-pubsub")
        return RedisSubscription(self, session_id)

    def subscriber_count(self) -> int:
        return self.bus.total()

    async def _listening(self, timeout: float) -> None:
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except TimeoutError:
            raise StoreUnavailable("the notification channel is not connected (Redis unreachable)") from None

    async def _listen(self) -> None:
        """The shared pub/sub connection: one pattern for every table's channel, fanned out to local subscribers;
        reconnects with backoff and then tells every subscriber to resynchronise."""
        pattern = f"{_glob_escape(self.prefix)}:*:changes"  # every table's channel and every event's
        delay = 0.05
        lost = False
        while not self._closed:
            pubsub = self._pubsub_client().pubsub()
            try:
                await pubsub.psubscribe(pattern)
                while True:  # wait for the confirmation before announcing we listen
                    msg = await pubsub.get_message(ignore_subscribe_messages=False, timeout=SUBSCRIBE_TIMEOUT)
                    if msg is not None and _text(msg["type"]) == "psubscribe":
                        break
                self._ready.set()
                delay = 0.05
                if lost:
                    lost = False
                    self.reconnects += 1
                    log.warning("notification channel back after a Redis outage; subscribers resynchronise")
                    for session_id in self.bus.sessions():
                        self.bus.publish(session_id, resync_message(session_id))
                async for msg in self._messages(pubsub):
                    self.bus.publish(self._bus_name(_text(msg["channel"])), _text(msg["data"]))
            except asyncio.CancelledError:
                break
            except Exception as exc:  # connection lost (or Redis loading after a restart): retry with backoff
                if not lost:
                    log.warning("notification channel lost (%s); reconnecting", exc)
                lost = True
                self._ready.clear()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _pubsub_client(self) -> Redis:
        """The client the shared pub/sub connection comes from: in a Redis Cluster, a published message reaches
        every node, so one node's connection hears every table (a node of the cluster's seed URL)."""
        if not self.cluster:
            return self.client
        if self._pubsub is None:
            node = self.client.get_default_node()  # type: ignore[attr-defined]
            self._pubsub = Redis(host=node.host, port=node.port, socket_connect_timeout=2.0)
        return self._pubsub

    async def _messages(self, pubsub: Any) -> AsyncIterator[dict[str, Any]]:
        while True:
            msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=30.0)
            if msg is None:
                await pubsub.ping()  # a quiet channel: make sure the connection is still there
                continue
            if _text(msg["type"]) == "pmessage":
                yield msg

    async def list_sessions(self, limit: int = 100, after: str | None = None) -> list[str]:
        """Return up to `limit` session ids greater than `after`, ascending (byte order); expired ones are skipped
        (and dropped from the index)."""
        out: list[str] = []
        low = "-" if after is None else "(" + after
        with _reachable():
            while len(out) < limit:
                ids = [_text(i) for i in await self.client.zrangebylex(self.sessions_key, low, "+", start=0,
                                                                       num=limit)]
                if not ids:
                    break
                alive = await self._existing(ids)
                gone = [sid for sid in ids if sid not in alive]
                if gone:
                    await self.client.zrem(self.sessions_key, *gone)
                out.extend(sid for sid in ids if sid in alive)
                low = "(" + ids[-1]
        return out[:limit]

    async def migrate_layout(self) -> int:
        """Rename the keys of tables stored by the layout before hash tags (``brimstone:<sid>:meta`` ...) to this
        one; returns how many tables moved. Run once, with the replicas stopped (`brimstone redis-migrate`)."""
        moved = 0
        with _reachable():
            async for raw in self.client.scan_iter(match=f"{_glob_escape(self.prefix)}:*:meta", count=1000):
                key = _text(raw)
                sid = key[len(self.prefix) + 1: -len(":meta")]
                if "{" in sid or ":" in sid or not valid_session_id(sid):
                    continue
                old = f"{self.prefix}:{sid}:"
                async for part in self.client.scan_iter(match=_glob_escape(old) + "*", count=1000):
                    name = _text(part)
                    await self.client.rename(name, self._key(sid, name[len(old):]))
                moved += 1
        return moved

    async def close(self) -> None:
        """Close open subscriptions and, if the store created the client, the client."""
        if self._closed:
            return
        self._closed = True
        self.bus.close()
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(BaseException):
                await self._listener
        if self._pubsub is not None:
            await self._pubsub.aclose()
        if self._owns_client:
            await self.client.aclose()
