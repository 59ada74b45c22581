"""Any version of a table, rebuilt from its nearest checkpoint by replaying the log through the deterministic engine,
with recent versions kept in memory so the common request (the table's latest version) costs no decoding at all.

The store keeps a checkpoint every few versions (and at every undo); in between, each log entry's command is applied
again and the events it produces must equal the events the log recorded, so a replay that would differ (say, after
a rules change) is caught instead of served.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import shared_rules  # the engine's names are read on use: its values load with the first table, not at start
from services.store import Access, SessionStore, StoredSession

if TYPE_CHECKING:
    from shared_rules.state import Session

JSON = dict[str, Any]
CacheKey = tuple[str, str, int]  # session id, token hash (one incarnation of a join code), version


class HistoryDiverged(Exception):
    """Replaying the log gave other events than it recorded: the version cannot be rebuilt exactly."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table's latest version as read for one request."""

    session_id: str
    version: int
    token_hash: str
    archived_at: float | None
    state: Session
    idempotent: str | None = None
    """The response recorded for the request's idempotency key, if it was asked for and exists."""
    access: Access | None = None
    """Its credentials, event and pause mark as the store read them (None: remembered, not read)."""


class History:
    """Rebuilds versions of tables from a store and remembers the last `size` of them (state and view).

    `view(state, encoded)` makes what clients see of a state (use_cases.view_parts); `encoded` is the state already
    encoded when the caller has it.
    """

    def __init__(self, store: SessionStore, view: Callable[[Session, JSON | None], JSON], size: int = 1024) -> None:
        self.store = store
        self._view = view
        self._size = size
        self._states: OrderedDict[CacheKey, Session] = OrderedDict()
        self._views: OrderedDict[CacheKey, JSON] = OrderedDict()
        self._latest: OrderedDict[str, tuple[str, int]] = OrderedDict()
        self._changes: OrderedDict[CacheKey, JSON] = OrderedDict()
        self._building: dict[CacheKey, asyncio.Future[JSON]] = {}
        self.replayed = 0
        """Log entries replayed since start (a figure for the metrics and the benchmarks)."""

    # -- the memory ---------------------------------------------------------------------------------------

    def _remember(self, cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > self._size:
            cache.popitem(last=False)

    def put(self, session_id: str, token_hash: str, version: int, state: Session, encoded: JSON | None = None,
            *, latest: bool = True) -> None:
        """Remember a version this process holds (written or rebuilt)."""
        key = (session_id, token_hash, version)
        self._remember(self._states, key, state)
        if encoded is not None and key not in self._views:
            self._remember(self._views, key, self._view(state, encoded))
        known = self._latest.get(session_id)
        if latest and (known is None or known[0] != token_hash or known[1] < version):
            self._remember(self._latest, session_id, (token_hash, version))

    def cached(self, session_id: str, token_hash: str, version: int) -> Session | None:
        return self._states.get((session_id, token_hash, version))

    def fresh(self, session_id: str, token_hash: str) -> Table | None:
        """The latest version this process knows of the table, without asking the store (it may be stale: a write
        based on it is a compare-and-set that says so). None when nothing is remembered for this token."""
        known = self._latest.get(session_id)
        if known is None or known[0] != token_hash:
            return None
        state = self.cached(session_id, token_hash, known[1])
        return None if state is None else Table(session_id, known[1], token_hash, None, state)

    def forget(self, session_id: str) -> None:
        """Drop what is remembered of a table (deleted)."""
        self._latest.pop(session_id, None)
        for cache in (self._states, self._views, self._changes):
            for key in [k for k in cache if k[0] == session_id]:
                del cache[key]

    def view(self, session_id: str, token_hash: str, version: int, state: Session) -> JSON:
        """The view parts of a version, built once."""
        key = (session_id, token_hash, version)
        parts = self._views.get(key)
        if parts is None:
            parts = self._view(state, None)
            self._remember(self._views, key, parts)
        return parts

    # -- rebuilding ---------------------------------------------------------------------------------------

    def _rebuild(self, stored: StoredSession) -> Session:
        sid, token_hash = stored.session_id, stored.token_hash
        if stored.base_snapshot is None:
            state = self.cached(sid, token_hash, stored.base_version)
            if state is None:
                raise LookupError("the known version is no longer remembered")
        else:
            state = shared_rules.decode_state(json.loads(stored.base_snapshot))
            self.put(sid, token_hash, stored.base_version, state, latest=False)
        for entry in stored.entries:
            command = json.loads(entry.command)
            if not isinstance(command, dict) or command.get("type") in ("undo", "create_session"):
                raise HistoryDiverged(f"session {sid!r} version {entry.version}: a {command!r} entry has no checkpoint")
            outcome = shared_rules.apply(state, shared_rules.decode_command(command))
            if [shared_rules.encode_event(e) for e in outcome.events] != json.loads(entry.events):
                raise HistoryDiverged(f"session {sid!r} version {entry.version}: replaying the command gave other "
                                      "events than the log recorded (did the rules change?)")
            state = outcome.state
            self.replayed += 1
            self.put(sid, token_hash, entry.version, state, latest=False)
        return state

    async def latest(self, session_id: str, *, idempotency_key: str | None = None) -> Table | None:
        """The latest version of a table, or None if it does not exist: one store round trip, replaying only the
        versions this process has not seen (none, when it wrote the last one)."""
        known = self._latest.get(session_id)
        if known is not None and self.cached(session_id, *known) is None:
            known = None
        stored = await self.store.load(session_id, known_version=None if known is None else known[1],
                                       idempotency_key=idempotency_key)
        if stored is None:
            return None
        if stored.base_snapshot is None and (known is None or known[0] != stored.token_hash
                                             or self.cached(session_id, known[0], stored.base_version) is None):
            # another incarnation of the join code, or the known version was forgotten meanwhile
            stored = await self.store.load(session_id, idempotency_key=idempotency_key)
            if stored is None:
                return None
        state = self._rebuild(stored)
        self.put(session_id, stored.token_hash, stored.version, state)
        return Table(session_id, stored.version, stored.token_hash, stored.archived_at, state, stored.idempotent,
                     stored.access)

    async def at(self, session_id: str, token_hash: str, version: int) -> Session | None:
        """The state of `version` of this incarnation of the table, or None if it has no such version."""
        state = self.cached(session_id, token_hash, version)
        if state is not None:
            return state
        stored = await self._read(session_id, token_hash, version)
        return None if stored is None else self._rebuild(stored)

    async def _read(self, session_id: str, token_hash: str, version: int) -> StoredSession | None:
        """The store's parts for `version`, starting from the version before it when this process holds it."""
        known = version - 1 if self.cached(session_id, token_hash, version - 1) is not None else None
        stored = await self.store.read(session_id, version, known_version=known)
        if stored is None or stored.token_hash != token_hash:
            return None
        if stored.base_snapshot is None and self.cached(session_id, token_hash, stored.base_version) is None:
            stored = await self.store.read(session_id, version)  # forgotten meanwhile
        return stored

    def remember_change(self, session_id: str, token_hash: str, version: int, command: JSON, events: list[JSON],
                        state: Session, parts: JSON) -> None:
        """A version this process just wrote, with the view parts it answered: its change is ready for the local
        subscribers without a read."""
        key = (session_id, token_hash, version)
        self.put(session_id, token_hash, version, state)
        self._remember(self._views, key, parts)
        self._remember(self._changes, key, {"session_id": session_id, "version": version, "events": events,
                                            "command": command, **parts})

    async def change(self, session_id: str, token_hash: str, version: int) -> JSON | None:
        """What a subscriber receives for `version` (its command, events, state, prompt and legal commands): built
        once per process however many subscribers wait for it."""
        key = (session_id, token_hash, version)
        found = self._changes.get(key)
        if found is not None:
            return found
        building = self._building.get(key)
        if building is not None:
            return await asyncio.shield(building)
        future: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._building[key] = future
        try:
            change = await self._build_change(session_id, token_hash, version)
            if change is not None:
                self._remember(self._changes, key, change)
            future.set_result(change)  # type: ignore[arg-type]
            return change
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._building[key]

    async def _build_change(self, session_id: str, token_hash: str, version: int) -> JSON | None:
        state = self.cached(session_id, token_hash, version)
        stored = None if state is not None else await self._read(session_id, token_hash, version)
        if stored is not None:
            state = self._rebuild(stored)
        if stored is not None and stored.entries and stored.entries[-1].version == version:
            entry = stored.entries[-1]  # one round trip gave both the state and the entry
        else:
            entries = await self.store.log(session_id, after_version=version - 1, limit=1)
            if not entries:
                return None
            entry = entries[0]
        if state is None:
            return None
        return {"session_id": session_id, "version": version, "events": json.loads(entry.events),
                "command": json.loads(entry.command), **self.view(session_id, token_hash, version, state)}


def _held_as_is(hint: Any) -> bool:
    """Whether encode() hands a value of this declared type back as it is (a str, int or bool, or an enum of those)."""
    return isinstance(hint, type) and issubclass(hint, (str, int, bool))


class StateEncoder:
    """encode_state with a memory: the parts of a state that a command left alone (a hero, the town, the options) are
    the very same frozen objects in the next version, so their JSON is reused instead of rebuilt. The output equals
    shared_rules.codec.encode_state; the JSON it hands out is shared and must not be changed by its readers."""

    def __init__(self, size: int = 8192) -> None:
        self._size = size
        self._memo: OrderedDict[int, tuple[object, Any]] = OrderedDict()
        self._fields: list[tuple[str, bool]] = []
        """(name, held as is) per field of the Session, read on the first call (the engine loads with the first
        state, not when the service starts)."""

    def _read_fields(self) -> list[tuple[str, bool]]:
        from shared_rules.codec import type_hints
        from shared_rules.state import Session

        hints = type_hints(Session)
        # a field that holds a str, a number or an enum of those is its own JSON: only the others are looked up
        self._fields = [(f.name, _held_as_is(hints[f.name])) for f in dataclasses.fields(Session)]
        return self._fields

    def __call__(self, state: Session) -> JSON:
        fields = self._fields or self._read_fields()
        data: JSON = {"schema": shared_rules.codec.SCHEMA_VERSION}
        if isinstance(getattr(type(state), "type", None), str):  # pragma: no cover - the codec's tagged classes
            return shared_rules.encode_state(state)
        for name, as_is in fields:
            value = getattr(state, name)
            data[name] = value if as_is else self._part(value)
        return data

    def _part(self, value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
            return [self._part(item) for item in value]
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            return shared_rules.encode(value)
        found = self._memo.get(id(value))
        if found is not None and found[0] is value:
            return found[1]
        encoded = shared_rules.encode(value)
        self._memo[id(value)] = (value, encoded)  # holding the object keeps its id from being reused
        if len(self._memo) > self._size:
            self._memo.popitem(last=False)
        return encoded
