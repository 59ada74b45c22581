"""What the service does, once, for both doors (REST and GraphQL): create a table, read it, apply a command, undo.

Every write is: load the latest version -> shared_rules.apply -> store.commit(expected version) -> the store
notifies subscribers. Bodies arrive as plain JSON data and are decoded strictly with shared_rules.codec, so a
malformed request is an InvalidCommand naming the field (HTTP 422) wherever it came in. Results are plain JSON
data, so an idempotent retry can be answered with exactly the bytes of the first answer.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import random
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from services.contract.public import public_state
from services.contract.validation import check, check_command
from services.settings import Settings
from services.store import SessionExists, SessionNotFound, SessionStore, StaleVersion, StoredSession
from shared_rules import codec as rules_codec
from shared_rules.codec import decode_command, decode_hero, decode_state, encode, encode_event, encode_state
from shared_rules.engine import apply, legal_commands, new_session
from shared_rules.errors import IllegalCommand, InvalidCommand
from shared_rules.events import Event, EventType
from shared_rules.state import RuleOptions, Session

if TYPE_CHECKING:
    from services.jobs.odds import OddsRunner
    from services.jobs.runner import SimulationRunner

log = logging.getLogger("brimstone.use_cases")
T = TypeVar("T")

JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud across a table
JOIN_CODE_LENGTH = 6
MAX_SEED = 2**53 - 1  # exact in every JSON parser
MAX_EVENTS_PAGE = 500
MAX_WRITE_ATTEMPTS = 64  # retries on a stale version when the client did not name one
UNDO_RULE = "SVC-UNDO"  # not a rulebook rule: the service's exact undo from the log
JSON = dict[str, Any]


# ---- errors the doors translate (services/api/errors.py is the one place that maps them) -------------------


class ServiceError(Exception):
    """A refusal that is not a game rule: authentication, a missing table, a reused Idempotency-Key."""

    def __init__(self, message: str, *, field: str = "", rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule


class Unauthenticated(ServiceError):
    """No credentials were given (HTTP 401)."""


class Forbidden(ServiceError):
    """The credentials do not open this table (HTTP 403)."""


class NotFound(ServiceError):
    """No such table or simulation job (HTTP 404)."""


class IdempotencyKeyReused(ServiceError):
    """An Idempotency-Key was sent again with a different request (HTTP 422)."""


class PreconditionFailed(ServiceError):
    """If-Match named a version the table has moved past (HTTP 412); nothing was written."""

    def __init__(self, message: str, *, current: int, field: str = "If-Match") -> None:
        super().__init__(message, field=field)
        self.current = current


@dataclass(frozen=True, slots=True)
class Services:
    """What a use case needs: the session store, the settings, the simulation runner and the odds runner."""

    store: SessionStore
    settings: Settings
    simulations: SimulationRunner | None = None
    odds: OddsRunner | None = None


# ---- strict reading of request envelopes (the command/hero bodies themselves go through the codec) -------


def _object(data: Any, where: str, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InvalidCommand(f"{where}: expected a JSON object", field=where)
    extra = sorted(set(data) - allowed)
    if extra:
        prefix = "" if where == "body" else f"{where}."
        raise InvalidCommand(f"{where}: unknown field(s) {extra}; allowed {sorted(allowed)}",
                             field=f"{prefix}{extra[0]}")
    return data


def _int(value: Any, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidCommand(f"{field}: expected a whole number", field=field)
    if not low <= value <= high:
        raise InvalidCommand(f"{field}: {value} is outside {low}..{high}", field=field)
    return value


def _str(value: Any, field: str, max_length: int = 200) -> str:
    if not isinstance(value, str):
        raise InvalidCommand(f"{field}: expected a string", field=field)
    if len(value) > max_length:
        raise InvalidCommand(f"{field}: longer than {max_length} characters", field=field)
    return value


def by_the_rules(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run the engine on a request that fits the published schema: whatever it refuses now is the game's rules or
    the table's state (a die face this roll cannot show, a hero not in the posse, a sheet the rules forbid), so
    a refusal is an IllegalCommand (409), never a malformed request (422)."""
    try:
        return fn(*args, **kwargs)
    except InvalidCommand as exc:
        raise IllegalCommand(exc.message, field=exc.field, rule=exc.rule) from exc


def _decoded(fn: Callable[..., T], *args: Any) -> T:
    """Run a codec decoder; anything but a RulesError it lets slip is still the input's fault, so 422."""
    try:
        return fn(*args)
    except (InvalidCommand, IllegalCommand):
        raise
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
        log.warning("codec let %s through on %r", type(exc).__name__, args[-1] if args else None)
        raise InvalidCommand(f"body: cannot be read ({type(exc).__name__})", field="body") from exc


def parse_heroes(data: Any, field: str = "heroes") -> tuple[Any, ...]:
    """A posse from JSON: a list of 1-6 hero sheets, each decoded strictly (FF-HERO-01; posse size A48)."""
    if not isinstance(data, list):
        raise InvalidCommand(f"{field}: expected a list of heroes", field=field)
    if not 1 <= len(data) <= 6:
        raise InvalidCommand(f"{field}: a posse has 1-6 heroes, got {len(data)}", field=field, rule="A48")
    return tuple(_decoded(decode_hero, item, f"{field}[{i}]") for i, item in enumerate(data))


def parse_options(data: Any, field: str = "options") -> RuleOptions:
    """Rule options from JSON; absent fields keep the rules-reference readings."""
    if data is None:
        return RuleOptions()
    options: RuleOptions = _decoded(rules_codec.decode, RuleOptions, data, field)
    return options


def parse_command(data: Any) -> Any:
    """Any engine command from its JSON form (`type` picks it; `dice` optional), checked against its schema."""
    return _decoded(decode_command, check_command(data))


def parse_expected_version(value: Any, field: str = "expected_version") -> int | None:
    return None if value is None else _int(value, field, 0, 2**53)


# ---- credentials ----------------------------------------------------------------------------------------


def token_hash(token: str) -> str:
    """The store keeps only the sha256 of a table token."""
    return hashlib.sha256(token.encode()).hexdigest()


def is_host(services: Services, token: str | None) -> bool:
    host = services.settings.host_token
    return bool(host and token and hmac.compare_digest(token.encode(), host.encode()))


async def _open(services: Services, session_id: str, token: str | None, *, host_may: bool) -> StoredSession:
    """Load a table the caller may open: its own table token, or (for reads) the event host's token."""
    if not token:
        raise Unauthenticated("Authorization: send 'Bearer <table token>'", field="Authorization")
    stored = await services.store.load(session_id)
    if stored is None:
        raise NotFound(f"session {session_id!r} does not exist", field="session_id")
    if hmac.compare_digest(token_hash(token), stored.token_hash):
        return stored
    if host_may and is_host(services, token):
        return stored
    raise Forbidden(f"this token does not open session {session_id!r}", field="Authorization")


# ---- views -----------------------------------------------------------------------------------------------


def _pending(state: Session) -> JSON | None:
    return None if state.pending is None else encode(state.pending.prompt)


def _legal(state: Session) -> list[JSON]:
    return [encode(item) for item in legal_commands(state)]


def session_view(session_id: str, version: int, state: Session, encoded: JSON | None = None) -> JSON:
    """A table as clients see it: version, public state (no RNG, no checkpoints), pending prompt, legal commands."""
    return {
        "session_id": session_id,
        "version": version,
        "state": public_state(encoded if encoded is not None else encode_state(state)),
        "pending": _pending(state),
        "legal_commands": _legal(state),
    }


class _StateCache:
    """Decoded snapshots by (session, version, text hash): a version's snapshot never changes once written."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._items: dict[tuple[str, int, int], Session] = {}

    def get(self, session_id: str, version: int, snapshot: str) -> Session:
        state = self._items.get((session_id, version, hash(snapshot)))
        if state is None:
            state = decode_state(json.loads(snapshot))
            self.put(session_id, version, snapshot, state)
        return state

    def put(self, session_id: str, version: int, snapshot: str, state: Session) -> None:
        """Remember a state this process wrote, so the table's next command need not decode it again."""
        if len(self._items) >= self._size:
            self._items.pop(next(iter(self._items)))
        self._items[(session_id, version, hash(snapshot))] = state


_states = _StateCache()


def _state_of(stored: StoredSession) -> Session:
    return _states.get(stored.session_id, stored.version, stored.snapshot)


# ---- sessions --------------------------------------------------------------------------------------------


def new_join_code() -> str:
    """A short code a table reads aloud, e.g. K7QX2M (32^6, about a billion)."""
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


async def create_session(services: Services, body: Any) -> JSON:
    """Start a table: posse, rule options, optional seed and content pack. Returns the join code and table token."""
    data = _object(check("CreateSessionRequest", body), "body", {"heroes", "options", "seed", "pack"})
    if "heroes" not in data:
        raise InvalidCommand("heroes: required", field="heroes")
    heroes = parse_heroes(data["heroes"])
    options = parse_options(data.get("options"))
    seed = _int(data["seed"], "seed", 0, MAX_SEED) if data.get("seed") is not None else secrets.randbelow(MAX_SEED)
    pack = _str(data["pack"], "pack") if data.get("pack") is not None else "default"
    state = by_the_rules(new_session, heroes, options=options, seed=seed, pack=pack)
    encoded = encode_state(state)
    snapshot = rules_codec.dumps(encoded)
    command = rules_codec.dumps({"type": "create_session", "heroes": [encode(h) for h in heroes],
                                 "options": encode(options), "seed": seed, "pack": pack})
    created = Event(EventType.SESSION_CREATED, f"Table opened for {', '.join(h.name for h in heroes)}", rule="")
    token = secrets.token_urlsafe(24)
    for _ in range(20):
        session_id = new_join_code()
        try:
            await services.store.create(session_id, token_hash(token), snapshot,
                                        command, rules_codec.dumps([encode_event(created)]))
        except SessionExists:
            continue
        return {"token": token, **session_view(session_id, 0, state, encoded)}
    raise RuntimeError("could not find a free join code in 20 tries")


async def get_session(services: Services, session_id: str, token: str | None) -> JSON:
    """The latest version of a table."""
    stored = await _open(services, session_id, token, host_may=True)
    return session_view(session_id, stored.version, _state_of(stored), json.loads(stored.snapshot))


async def get_legal_commands(services: Services, session_id: str, token: str | None) -> JSON:
    """What the table may send now, and the prompt waiting for an answer (if any)."""
    stored = await _open(services, session_id, token, host_may=True)
    state = _state_of(stored)
    return {"session_id": session_id, "version": stored.version, "pending": _pending(state),
            "legal_commands": _legal(state)}


async def list_sessions(services: Services, token: str | None, *, limit: int = 100, after: str | None = None) -> JSON:
    """Every table's join code, for the event host only (a table token lists nothing)."""
    if not token:
        raise Unauthenticated("Authorization: send 'Bearer <host token>'", field="Authorization")
    if not is_host(services, token):
        raise Forbidden("listing tables needs the event host's token", field="Authorization")
    limit = _int(limit, "limit", 1, 1000)
    ids = await services.store.list_sessions(limit=limit, after=after)
    return {"sessions": ids, "next_after": ids[-1] if len(ids) == limit else None}


async def list_events(
    services: Services, session_id: str, token: str | None, *, after: int = -1, limit: int = 50
) -> JSON:
    """A page of the append-only log: each entry is the command that made a version and what happened."""
    after = _int(after, "after", -1, 2**53)
    limit = _int(limit, "limit", 1, MAX_EVENTS_PAGE)
    stored = await _open(services, session_id, token, host_may=True)
    try:
        entries = await services.store.log(session_id, after_version=after, limit=limit)
    except SessionNotFound:
        raise NotFound(f"session {session_id!r} does not exist", field="session_id") from None
    page = [{"version": e.version, "command": public_command(json.loads(e.command)), "events": json.loads(e.events),
             "at": e.at} for e in entries]
    more = bool(entries) and entries[-1].version < stored.version and len(entries) == limit
    return {"session_id": session_id, "version": stored.version, "entries": page,
            "next_after": entries[-1].version if more else None}


def public_command(command: JSON) -> JSON:
    """A log entry's command as clients see it: the opening of a table without its seed (with the seed and the
    log, a client could replay the server's dice)."""
    if command.get("type") == "create_session":
        return {key: value for key, value in command.items() if key != "seed"}
    return command


# ---- writes ----------------------------------------------------------------------------------------------


def _fingerprint(kind: str, payload: Any) -> str:
    text = json.dumps([kind, payload], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _replayed(record: str, fingerprint: str, key: str) -> JSON:
    stored = json.loads(record)
    if stored.get("fingerprint") != fingerprint:
        raise IdempotencyKeyReused(f"Idempotency-Key {key!r} was already used for a different request",
                                   field="Idempotency-Key")
    body: JSON = stored["body"]
    return body


@dataclass(frozen=True, slots=True)
class Written:
    """A write's answer and whether it was a replay of an earlier request with the same Idempotency-Key."""

    body: JSON
    replayed: bool


async def _write(
    services: Services,
    session_id: str,
    token: str | None,
    *,
    kind: str,
    payload: Any,
    step: Callable[[StoredSession], Awaitable[tuple[JSON, Session, JSON, list[JSON]]]],
    expected_version: int | None,
    idempotency_key: str | None,
    if_match: tuple[int, ...] | None = None,
) -> Written:
    """Load -> step -> compare-and-set; retried on a stale version unless the client named the version.

    `step(stored)` returns (snapshot dict, state, log command dict, events list) or raises a RulesError.
    `if_match` (the versions of the If-Match header) is a precondition like `expected_version`, answered with 412.
    """
    if idempotency_key is not None:
        _str(idempotency_key, "Idempotency-Key", 256)
        if not idempotency_key:
            raise InvalidCommand("Idempotency-Key: must not be empty", field="Idempotency-Key")
    # The request is the command itself; expected_version is a precondition, so a client that lost an answer
    # may re-read the version and resend: it still gets the first answer, never a second write.
    fingerprint = _fingerprint(kind, payload)
    stored = await _open(services, session_id, token, host_may=False)
    if idempotency_key is not None:
        record = await services.store.get_idempotent(session_id, idempotency_key)
        if record is not None:
            return Written(_replayed(record, fingerprint, idempotency_key), True)
    pinned = expected_version is not None or if_match is not None
    for _attempt in range(MAX_WRITE_ATTEMPTS):
        if expected_version is not None and stored.version != expected_version:
            raise StaleVersion(stored.version, expected_version, session_id)
        if if_match is not None and stored.version not in if_match:
            tags = ", ".join(f'"{v}"' for v in if_match)
            raise PreconditionFailed(f'If-Match: the session is at version {stored.version} (ETag "{stored.version}"),'
                                     f" not {tags}", current=stored.version)
        encoded, state, command, events = await step(stored)
        new_version = stored.version + 1
        body = {"based_on": stored.version, "events": events, **session_view(session_id, new_version, state, encoded)}
        response = json.dumps({"fingerprint": fingerprint, "body": body}, separators=(",", ":"))
        snapshot = rules_codec.dumps(encoded)
        try:
            result = await services.store.commit(
                session_id, stored.version, snapshot, rules_codec.dumps(command), rules_codec.dumps(events),
                response, idempotency_key,
            )
        except StaleVersion as exc:
            if if_match is not None:
                raise PreconditionFailed(f"If-Match: the session moved on to version {exc.current_version}",
                                         current=exc.current_version) from None
            if pinned:
                raise
            latest = await services.store.load(session_id)
            if latest is None:
                raise NotFound(f"session {session_id!r} does not exist", field="session_id") from None
            stored = latest
            await asyncio.sleep(random.uniform(0, 0.001 * min(_attempt, 20)))  # spread out a crowd of writers
            continue
        except SessionNotFound:
            raise NotFound(f"session {session_id!r} does not exist", field="session_id") from None
        if result.replayed:
            return Written(_replayed(result.response, fingerprint, idempotency_key or ""), True)
        _states.put(session_id, result.version, snapshot, state)
        return Written(body, False)
    raise StaleVersion(stored.version, stored.version, session_id)


async def submit_command(
    services: Services,
    session_id: str,
    token: str | None,
    body: Any,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    if_match: tuple[int, ...] | None = None,
) -> Written:
    """Apply one engine command to the table (to `expected_version`, or to the latest) and record it."""
    command = parse_command(body)
    expected_version = parse_expected_version(expected_version)

    async def step(stored: StoredSession) -> tuple[JSON, Session, JSON, list[JSON]]:
        outcome = by_the_rules(apply, _state_of(stored), command)
        return (encode_state(outcome.state), outcome.state, encode(command),
                [encode_event(event) for event in outcome.events])

    return await _write(services, session_id, token, kind="command", payload=encode(command), step=step,
                        expected_version=expected_version, idempotency_key=idempotency_key, if_match=if_match)


async def undo(
    services: Services,
    session_id: str,
    token: str | None,
    body: Any,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    if_match: tuple[int, ...] | None = None,
) -> Written:
    """Undo the last N versions exactly: the snapshot of version v-N is written again as version v+1.

    The log stays append-only; an undo is itself a version, so it can be undone.
    """
    data = _object(check("UndoRequest", body), "body", {"steps"})  # {} undoes one version
    steps = _int(data.get("steps", 1), "steps", 1, 2**53)
    expected_version = parse_expected_version(expected_version)

    async def step(stored: StoredSession) -> tuple[JSON, Session, JSON, list[JSON]]:
        target = stored.version - steps
        if target < 0:
            raise IllegalCommand(f"steps: version {stored.version} has only {stored.version} command(s) to undo, "
                                 f"not {steps}", field="steps", rule=UNDO_RULE)
        text = await services.store.snapshot_at(session_id, target)
        if text is None:
            raise NotFound(f"session {session_id!r} has no version {target}", field="steps")
        event = Event(EventType.UNDONE, f"Undid {steps} command{'s' if steps != 1 else ''}: back to version {target}",
                      rule=UNDO_RULE)
        state = _states.get(session_id, target, text)
        return json.loads(text), state, {"type": "undo", "steps": steps, "to_version": target}, [encode_event(event)]

    return await _write(services, session_id, token, kind="undo", payload={"steps": steps}, step=step,
                        expected_version=expected_version, idempotency_key=idempotency_key, if_match=if_match)


# ---- live changes ----------------------------------------------------------------------------------------


async def open_watch(
    services: Services, session_id: str, token: str | None, *, after_version: int | None = None
) -> AsyncIterator[JSON]:
    """`watch_session`, with the credentials checked before the first change (so a refusal is a plain error)."""
    await _open(services, session_id, token, host_may=True)
    return watch_session(services, session_id, token, after_version=after_version)


async def watch_session(
    services: Services, session_id: str, token: str | None, *, after_version: int | None = None
) -> AsyncIterator[JSON]:
    """Every version written after `after_version` (default: the current one), in order, with events and state.

    Subscribes before reading, so nothing slips between; a notification for version v yields every version
    up to v not yet sent, so a subscriber never sees a gap even if notifications were coalesced or lost.
    """
    await _open(services, session_id, token, host_may=True)
    store = services.store
    async with store.subscribe(session_id) as subscription:
        stored = await store.load(session_id)
        if stored is None:
            raise NotFound(f"session {session_id!r} does not exist", field="session_id")
        last = stored.version if after_version is None else min(_int(after_version, "after_version", -1, 2**53),
                                                                  stored.version)
        if last < stored.version:
            async for change in _versions(services, session_id, last, stored.version):
                yield change
            last = stored.version
        async for message in subscription:
            try:
                version = int(json.loads(message)["version"])
            except (ValueError, KeyError, TypeError):
                continue
            if version <= last:
                continue
            async for change in _versions(services, session_id, last, version):
                yield change
            last = version


async def _versions(services: Services, session_id: str, after: int, upto: int) -> AsyncIterator[JSON]:
    store = services.store
    while after < upto:
        entries = await store.log(session_id, after_version=after, limit=min(100, upto - after))
        if not entries:
            return
        for entry in entries:
            snapshot = await store.snapshot_at(session_id, entry.version)
            if snapshot is None:
                return
            state = _states.get(session_id, entry.version, snapshot)
            yield {"session_id": session_id, "version": entry.version, "events": json.loads(entry.events),
                   "command": public_command(json.loads(entry.command)), "state": public_state(json.loads(snapshot)),
                   "pending": _pending(state), "legal_commands": _legal(state)}
            after = entry.version


# ---- simulations -----------------------------------------------------------------------------------------


def parse_simulation(services: Services, body: Any) -> JSON:
    """A simulation request as plain data for the job functions: posse, town size, trials, seed, options."""
    data = _object(check("SimulationRequest", body), "body", {"heroes", "size", "trials", "seed", "options"})
    for name in ("heroes", "size", "trials"):
        if name not in data:
            raise InvalidCommand(f"{name}: required", field=name)
    heroes = parse_heroes(data["heroes"])
    size = _str(data["size"], "size")
    if size not in ("small", "medium", "large"):
        raise InvalidCommand(f"size: {size!r} is not a Town size; one of small, medium, large", field="size",
                             rule="FT-TRAVEL-01")
    trials = min(_int(data["trials"], "trials", 1, 2**53), services.settings.max_trials)  # capped, as documented
    seed = _int(data["seed"], "seed", 0, MAX_SEED) if data.get("seed") is not None else secrets.randbelow(MAX_SEED)
    options = parse_options(data.get("options"))
    if all(hero.removed for hero in heroes):  # the journey would refuse its first command; refuse it before queueing
        raise IllegalCommand("heroes: every hero has been taken from the game; a journey needs one left",
                             field="heroes")
    by_the_rules(new_session, heroes, options=options)  # the posse must make a table (names, unique ids) before it is queued
    return {"heroes": [encode(h) for h in heroes], "size": size, "trials": trials, "seed": seed,
            "options": encode(options)}


def _runner(services: Services) -> SimulationRunner:
    if services.simulations is None:
        raise RuntimeError("no simulation runner is configured")
    return services.simulations


async def start_simulation(services: Services, body: Any) -> JSON:
    """Queue a bulk simulation; it runs in chunks (rq workers, or the embedded pool) and is polled by id."""
    spec = parse_simulation(services, body)
    return await _runner(services).start(spec)


async def get_simulation(services: Services, job_id: str) -> JSON:
    """A simulation's status, progress 0..1 and, once finished, its summary."""
    status = await _runner(services).status(_str(job_id, "job_id", 100))
    if status is None:
        raise NotFound(f"simulation {job_id!r} does not exist (or has expired)", field="job_id")
    return status
