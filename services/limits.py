"""Abuse limits: rate limits per client address and per token, counted with the `limits` library in Redis (so every
replica shares the count) or in memory when the service runs embedded on SQLite.

Two ways of counting, by how often the limit is met:

- Every request (per address, per token) is counted locally and the counts are added to the shared fixed-window
  counters (the keys `limits`' fixed window uses) in one pipelined batch every `flush_interval` (half a second):
  the request path never waits for Redis, and a client over its limit is refused (429) from the next flush on, on
  every replica.
- Rare, costly operations (opening a table, starting a simulation) and wrong tokens are counted in the shared
  counter at once, before the operation runs. Wrong tokens past the limit are refused; a right token never is
  (every phone of a venue may share one address).

The client address is the peer's, or what `X-Forwarded-For` names when the peer is a trusted proxy
(`BRIMSTONE_TRUSTED_PROXIES`, applied by uvicorn before any of this runs): a client cannot pick its own.

A refusal raises RateLimited; the error translator answers 429 with `Retry-After`, `RateLimit` and `RateLimit-Policy`
(draft-ietf-httpapi-ratelimit-headers). When the counter store is unreachable the limits let requests through
(fail open) rather than turn a Redis outage into refusals.

The `limits` library (and what it imports) is loaded when a rule is first needed: the first request the limits
count, not the start (health and readiness probes are not counted).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import math
import time
from dataclasses import dataclass
from dataclasses import field as worked_out
from typing import TYPE_CHECKING

from services.observability import RATE_LIMITED, labelled
from services.settings import Settings
from services.use_cases import ServiceError

if TYPE_CHECKING:
    from limits import RateLimitItem
    from limits.aio.storage import Storage
    from redis.asyncio import Redis
    from redis.commands.core import AsyncScript

log = logging.getLogger("brimstone.limits")

client_address: contextvars.ContextVar[str] = contextvars.ContextVar("client_address", default="unknown")
"""The address of the client of the request being handled (set by the edge middleware)."""

FLUSH_INTERVAL = 0.5
FLUSH_TIMEOUT = 10.0  # seconds a flush may wait for Redis before it is given up (its counts go with the next one)


class RateLimited(ServiceError):
    """Too many requests from this address or token (HTTP 429); retry after `retry_after` seconds."""

    def __init__(self, message: str, *, policy: str, limit: int, window: int, retry_after: int, field: str) -> None:
        super().__init__(message, field=field)
        self.policy = policy
        self.limit = limit
        self.window = window
        self.retry_after = max(1, retry_after)

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after),
                "RateLimit-Policy": f'"{self.policy}";q={self.limit};w={self.window}',
                "RateLimit": f'"{self.policy}";r=0;t={self.retry_after}'}


@dataclass(frozen=True, slots=True)
class Rule:
    """One limit: its name (the policy in the headers), the rate and where it applies."""

    name: str
    item: RateLimitItem
    field: str

    window: int = worked_out(init=False)
    """Seconds."""
    policy_header: bytes = worked_out(init=False)
    """The RateLimit-Policy header's value: the name, the quota and the window (worked out once, not per answer)."""

    def key(self, who: str) -> str:
        """The shared counter of `who` under this rule: the rule's name is part of it, so two rules of the same rate
        (create and auth-failures both 30/minute) never count into one counter."""
        return self.item.key_for(self.name, who)

    def __post_init__(self) -> None:
        object.__setattr__(self, "window", int(self.item.get_expiry()))
        object.__setattr__(self, "policy_header", f'"{self.name}";q={self.item.amount};w={self.window}'.encode())


def _rule(name: str, text: str, field: str) -> Rule | None:
    if not text:
        return None
    from limits import parse  # the library, on the first rule read

    return Rule(name, parse(text), field)


@dataclass
class _Window:
    """This replica's view of one shared counter: the count at the last flush and what was added since."""

    shared: int = 0
    pending: int = 0
    blocked_until: float = 0.0
    window_end: float = 0.0


_FLUSH = """
local out = {}
for i, key in ipairs(KEYS) do
  out[2 * i - 1] = redis.call('INCRBY', key, ARGV[2 * i - 1])
  redis.call('EXPIRE', key, ARGV[2 * i], 'NX')
  out[2 * i] = redis.call('PTTL', key)
end
return out
"""
"""A flush on one Redis: INCRBY each counter by its amount, give a new one its window, and answer (count, ms left)
for each."""


class Guard:
    """The service's rate limits; one per process, shared by both doors."""

    def __init__(self, settings: Settings, *, flush_interval: float = FLUSH_INTERVAL) -> None:
        self.settings = settings
        self.flush_interval = flush_interval
        self.prefix = f"{settings.redis_prefix}:limits"
        self._batch: Redis | None = None
        self._flush_script: AsyncScript | None = None
        if settings.redis_url:
            from redis.asyncio import RedisCluster  # only with Redis: the embedded service never imports redis

            from services.store.redis import make_client

            self._batch = make_client(settings.redis_url)
            if not isinstance(self._batch, RedisCluster):
                self._flush_script = self._batch.register_script(_FLUSH)
        self._windows: dict[tuple[str, str], _Window] = {}
        self._flusher: asyncio.Task[None] | None = None

    # -- the rules and the shared counters, made on first use ------------------------------------------

    @functools.cached_property
    def address(self) -> Rule | None:
        return _rule("address", self.settings.rate_limit_address, "client address")

    @functools.cached_property
    def token(self) -> Rule | None:
        return _rule("token", self.settings.rate_limit_token, "Authorization")

    @functools.cached_property
    def create(self) -> Rule | None:
        return _rule("create", self.settings.rate_limit_create, "client address")

    @functools.cached_property
    def simulation(self) -> Rule | None:
        return _rule("simulation", self.settings.rate_limit_simulation, "client address")

    @functools.cached_property
    def auth_failures(self) -> Rule | None:
        return _rule("auth-failures", self.settings.rate_limit_auth_failures, "Authorization")

    @functools.cached_property
    def storage(self) -> Storage:
        """limits' counters: in Redis (shared by every replica) or in this process (embedded)."""
        from limits.aio.storage import MemoryStorage, RedisStorage

        if self.settings.redis_url:
            return RedisStorage("async+" + self.settings.redis_url, implementation="redispy",
                                key_prefix=self.prefix, wrap_exceptions=True, socket_connect_timeout=2)
        return MemoryStorage()

    # -- every request ---------------------------------------------------------------------------------

    def admit(self, address: str, token: str | None) -> None:
        """Count a request; raise RateLimited when its address or token is over the limit (no I/O)."""
        now = time.monotonic()
        for rule, who in ((self.address, address), (self.token, token)):
            if rule is None or not who:
                continue
            window = self._windows.get((rule.name, who))
            if window is None:
                window = self._windows[(rule.name, who)] = _Window(window_end=now + rule.window)
            if window.blocked_until > now:
                self._refuse(rule, math.ceil(window.blocked_until - now))
            window.pending += 1
            if window.shared + window.pending > rule.item.amount:
                window.blocked_until = max(window.window_end, now + 1)
                self._refuse(rule, math.ceil(window.blocked_until - now))
        self._ensure_flusher()

    def remaining(self, address: str, token: str | None) -> tuple[Rule, int, int] | None:
        """The tightest of the address and token limits: (rule, remaining, seconds to the window's end)."""
        best: tuple[Rule, int, int] | None = None
        if not self._windows:  # nothing counted yet (the probes are not): no rule to read
            return None
        now = time.monotonic()
        for rule, who in ((self.address, address), (self.token, token)):
            if rule is None or not who:
                continue
            window = self._windows.get((rule.name, who))
            if window is None:
                continue
            left = max(0, rule.item.amount - window.shared - window.pending)
            if best is None or left < best[1]:
                best = (rule, left, max(0, math.ceil(window.window_end - now)))
        return best

    def _refuse(self, rule: Rule, retry_after: int) -> None:
        labelled(RATE_LIMITED, rule.name).inc()  # every refusal of every policy, whichever door it came by
        raise RateLimited(f"too many requests for this {rule.field}: at most {rule.item.amount} per "
                          f"{rule.window} s; retry in {retry_after} s", policy=rule.name, limit=rule.item.amount,
                          window=rule.window, retry_after=retry_after, field=rule.field)

    def _ensure_flusher(self) -> None:
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush_loop(), name="brimstone-limits")

    async def _flush_loop(self) -> None:
        while True:
            await asyncio.sleep(self.flush_interval)
            try:
                await self.flush()
            except Exception:  # a flush that fails for any reason must not end the flushes: counts would stop sharing
                log.exception("rate limit flush failed; flushing again in %s s", self.flush_interval)

    async def flush(self) -> None:
        """Add the local counts to the shared counters and learn the other replicas' counts (one pipelined round trip
        on Redis for every key; the counters are the ones `limits`' fixed window keeps)."""
        if not self._windows:  # nothing counted (a server stopped before its first counted request)
            return
        now = time.monotonic()
        rules = {r.name: r for r in (self.address, self.token) if r is not None}
        live: list[tuple[tuple[str, str], _Window, Rule]] = []
        for key, window in list(self._windows.items()):
            if window.window_end <= now and window.pending == 0 and window.blocked_until <= now:
                del self._windows[key]  # idle: forget it
                continue
            live.append((key, window, rules[key[0]]))
        if not live:
            return
        try:  # bounded: the client has no read timeout, and a flush that never returns would end the sharing
            counts, ttls = await asyncio.wait_for(self._add([(r.key(k[1]), w.pending, r.window) for k, w, r in live]),
                                                  timeout=FLUSH_TIMEOUT)
        except Exception as exc:  # fail open: an unreachable counter must not refuse everyone
            log.warning("rate limit counters unreachable (%s); not limiting", exc)
            return
        for (_, window, rule), count, ttl in zip(live, counts, ttls, strict=True):
            window.pending = 0
            window.shared = count
            if window.window_end <= now:
                window.window_end = now + rule.window
            if count > rule.item.amount:
                window.blocked_until = now + max(1.0, ttl)

    async def _add(self, increments: list[tuple[str, int, int]]) -> tuple[list[int], list[float]]:
        """INCRBY each counter (giving a new one its window as expiry, like limits' fixed window) and read the
        seconds each has left."""
        if self._batch is None:
            counts, ttls = [], []
            for key, amount, window in increments:
                counts.append(await self.storage.incr(key, window, amount=amount))
                ttls.append(max(0.0, await self.storage.get_expiry(key) - time.time()))
            return counts, ttls
        names = [f"{self.prefix}:{key}" for key, _, _ in increments]
        if self._flush_script is None:  # on a Redis Cluster the counters live on many slots: one pipeline, split by node
            async with self._batch.pipeline(transaction=False) as pipe:
                for name, (_, amount, window) in zip(names, increments, strict=True):
                    pipe.incrby(name, amount)
                    pipe.expire(name, window, nx=True)
                    pipe.pttl(name)
                replies = await pipe.execute()
            replies = [reply for i, reply in enumerate(replies) if i % 3 != 1]
        else:  # one command for all of them: a flush of 200 tables' counters was 600 commands to pack and parse
            replies = await self._flush_script(
                keys=names, args=[n for _, amount, window in increments for n in (amount, window)])
        counts = [int(replies[i]) for i in range(0, len(replies), 2)]
        ttls = [max(0, int(replies[i])) / 1000 for i in range(1, len(replies), 2)]
        return counts, ttls

    # -- rare operations -------------------------------------------------------------------------------

    async def charge(self, rule: Rule | None, who: str) -> None:
        """Count one costly operation against `who` now; raise RateLimited when over the limit."""
        if rule is None:
            return
        try:
            count = await self.storage.incr(rule.key(who), rule.item.get_expiry(), amount=1)
        except Exception as exc:
            log.warning("rate limit counters unreachable (%s); not limiting", exc)
            return
        if count > rule.item.amount:
            try:
                reset = await self.storage.get_expiry(rule.key(who))
            except Exception:
                reset = time.time() + rule.window
            self._refuse(rule, math.ceil(reset - time.time()))

    async def opening_table(self) -> None:
        await self.charge(self.create, client_address.get())

    async def starting_simulation(self) -> None:
        await self.charge(self.simulation, client_address.get())

    async def failed_token(self) -> None:
        """Count a wrong token from the current address; past `limit` within the window, every further wrong token
        from it is refused 429 (a guesser is told to stop, on every replica) while a right token from the same
        address still opens its table: behind a venue's one NAT, a phone holding a replaced card must not lock the
        room out."""
        rule = self.auth_failures
        if rule is None:
            return
        key = rule.key(client_address.get())
        try:
            count = await self.storage.incr(key, rule.item.get_expiry(), amount=1)
            if count <= rule.item.amount:
                return
            reset = await self.storage.get_expiry(key)
        except Exception as exc:
            log.warning("rate limit counters unreachable (%s); not limiting", exc)
            return
        self._refuse(rule, math.ceil(reset - time.time()))

    async def close(self) -> None:
        if self._flusher is not None:
            self._flusher.cancel()
            with contextlib.suppress(BaseException):
                await self._flusher
        with contextlib.suppress(Exception):
            await self.flush()
        if self._batch is not None:
            await self._batch.aclose()
