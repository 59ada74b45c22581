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
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

import shared_rules  # the engine's names are read on use: its values load with the first table, not at start
from services.contract.envelopes import MAX_VERSION
from services.contract.validation import check, check_command
from services.history import History, StateEncoder, Table
from services.observability import COMMANDS, labelled
from services.settings import Settings
from services.store import (
    Access,
    SessionArchived,
    SessionExists,
    SessionNotFound,
    SessionPaused,
    SessionStore,
    StaleVersion,
    WriterRefused,
)
from services.store.base import dump_json
from shared_rules.errors import IllegalCommand, InvalidCommand, RulesError

if TYPE_CHECKING:
    from services.jobs.odds import OddsRunner
    from services.jobs.runner import SimulationRunner
    from services.limits import Guard
    from shared_rules.state import RuleOptions, Session

log = logging.getLogger("brimstone.use_cases")
T = TypeVar("T")

JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud across a table
JOIN_CODE_LENGTH = 6
MAX_SEED = 2**53 - 1  # exact in every JSON parser
MAX_EVENTS_PAGE = 500
MAX_WRITE_ATTEMPTS = 64  # retries on a stale version when the client did not name one
INTERNAL_KEY_TTL = 600.0  # a write without an Idempotency-Key gets one of its own, so a retried commit stays one
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


class Archived(ServiceError):
    """The table was archived by its owner (or closed by its event's host): it can be read, not changed (HTTP 409)."""


class Paused(ServiceError):
    """The event host paused the table: it can be read, not changed, until the host resumes it (HTTP 409)."""


@dataclass(frozen=True, slots=True)
class Services:
    """What a use case needs: the session store, the settings, the simulation and odds runners, the table history
    and the rate limits."""

    store: SessionStore
    settings: Settings
    simulations: SimulationRunner | None = None
    odds: OddsRunner | None = None
    history: History = field(default=None)  # type: ignore[assignment]  # built from the store when not given
    guard: Guard | None = None
    """The rate limits (services/limits.py); None: no limits (tests of the use cases alone)."""

    def __post_init__(self) -> None:
        if self.history is None:
            object.__setattr__(self, "history", History(self.store, view_parts))


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
    return tuple(_decoded(shared_rules.decode_hero, item, f"{field}[{i}]") for i, item in enumerate(data))


def parse_options(data: Any, field: str = "options") -> RuleOptions:
    """Rule options from JSON; absent fields keep the rules-reference readings."""
    if data is None:
        return shared_rules.RuleOptions()
    options: RuleOptions = _decoded(shared_rules.codec.decode, shared_rules.RuleOptions, data, field)
    return options


def parse_command(data: Any) -> Any:
    """Any engine command from its JSON form (`type` picks it; `dice` optional), checked against its schema."""
    return _decoded(shared_rules.decode_command, check_command(data))


def parse_expected_version(value: Any, field: str = "expected_version") -> int | None:
    """A version a write names, 0..2^53-1 (exact in every JSON parser, as the documents say)."""
    return None if value is None else _int(value, field, 0, MAX_VERSION)


# ---- credentials and roles ----------------------------------------------------------------------------------


class Role(str, Enum):
    """Who a token makes its bearer at a table (docs/api.md, "Events and roles")."""

    PLAYER = "player"  # the table token: reads and writes the table
    SPECTATOR = "spectator"  # the table's read-only token, for a judge or a stream
    HOST = "host"  # the host token of the table's event: reads it, pauses, closes, replaces its tokens
    ADMIN = "admin"  # the deployment's own token (BRIMSTONE_HOST_TOKEN): every event and every table, read-only play


READ = frozenset(Role)
"""Reading a table: its state, log, legal commands, changes, odds."""
PLAY = frozenset({Role.PLAYER})
"""Writing a table's game: commands and undo (the host and the admin never play a table's commands)."""
RUN = frozenset({Role.PLAYER, Role.HOST, Role.ADMIN})
"""Running a table: archiving (a host's "close"), issuing its tokens."""
HOSTS = frozenset({Role.HOST, Role.ADMIN})
"""The event's side: pausing, resuming, revoking the player token."""
OWN = frozenset({Role.PLAYER})
"""What only the table itself does: deleting it."""


TOKEN_ALPHABET = JOIN_ALPHABET
"""A token's characters: capitals and digits with no look-alikes (no O/0, I/1/l), so a token copied by hand from a
printed card is the token printed; upper case only, so it is read aloud without "capital". No "-" either: a
command line would read a token starting with one as an option (`brimstone odds --token -x...`)."""
TOKEN_LENGTH = 40  # 40 characters of 32: 200 random bits


def new_token() -> str:
    """A fresh token (200 random bits from TOKEN_ALPHABET). Tokens issued before (URL-safe base64) keep working:
    the store keeps only a token's hash, whatever its characters."""
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(TOKEN_LENGTH))


def token_hash(token: str) -> str:
    """The store keeps only the sha256 of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def _same(a: str | None, b: str | None) -> bool:
    return bool(a and b) and hmac.compare_digest(a.encode(), b.encode())  # type: ignore[union-attr]


def is_host(services: Services, token: str | None) -> bool:
    """The deployment-wide admin token (BRIMSTONE_HOST_TOKEN): every event's host, and it lists every table."""
    host = services.settings.host_token
    return bool(host and token and hmac.compare_digest(token.encode(), host.encode()))


is_admin = is_host


async def role_at(services: Services, table: Table, token: str) -> Role | None:
    """What `token` makes its bearer at `table`, or None when it opens nothing there."""
    access = table.access or Access()
    hashed = token_hash(token)
    if _same(hashed, access.player_hash(table.token_hash)):
        return Role.PLAYER
    if _same(hashed, access.spectator):
        return Role.SPECTATOR
    if is_admin(services, token):
        return Role.ADMIN
    if access.event_id:
        event = await services.store.event(access.event_id)
        if event is not None and _same(hashed, event.host_hash):
            return Role.HOST
    return None


async def _refuse(services: Services, session_id: str, role: Role | None, allow: frozenset[Role]) -> None:
    if role is None:
        if services.guard is not None:
            await services.guard.failed_token()  # guessing tokens is limited per address
        raise Forbidden(f"this token does not open session {session_id!r}", field="Authorization")
    allowed = " or ".join(sorted(r.value for r in allow))
    why = {Role.HOST: ": an event's host reads and runs its tables but never plays their commands",
           Role.ADMIN: ": the admin reads and runs every table but never plays their commands",
           Role.SPECTATOR: ": a spectator token only reads"}.get(role, "") if allow == PLAY else ""
    raise Forbidden(f"a {role.value} token cannot do this at session {session_id!r} (it takes the {allowed} "
                    f"token){why}", field="Authorization")


async def _opened(services: Services, session_id: str, token: str | None, *, allow: frozenset[Role] = READ,
                  idempotency_key: str | None = None) -> tuple[Table, Role]:
    """Load a table and the caller's role there; refuse (401/403) a caller whose role is not in `allow`."""
    if not token:
        raise Unauthenticated("Authorization: send 'Bearer <table token>'", field="Authorization")
    table = await services.history.latest(session_id, idempotency_key=idempotency_key)
    if table is None:
        raise NotFound(f"session {session_id!r} does not exist", field="session_id")
    role = await role_at(services, table, token)
    if role is None or role not in allow:
        await _refuse(services, session_id, role, allow)
    assert role is not None
    return table, role


async def _open(services: Services, session_id: str, token: str | None, *, host_may: bool | None = None,
                allow: frozenset[Role] | None = None, idempotency_key: str | None = None) -> Table:
    """Load a table the caller may open with `allow` (`host_may`: READ when true, PLAY when false)."""
    chosen = allow if allow is not None else (READ if host_may or host_may is None else PLAY)
    table, _ = await _opened(services, session_id, token, allow=chosen, idempotency_key=idempotency_key)
    return table


def _state_of(table: Table) -> Session:
    """The state of a table `_open` read (services/odds.py reads it this way)."""
    return table.state


# ---- views -----------------------------------------------------------------------------------------------


_encode_state = StateEncoder()  # encode_state, reusing the JSON of the parts a command left alone


def view_parts(state: Session, encoded: JSON | None = None) -> JSON:
    """What clients see of a state besides its version: the public state (no RNG state, no prompt checkpoint: a
    client could predict the dice), the pending prompt and the legal commands.

    `encoded` is encode_state(state) when the caller already has it."""
    from services.contract.public import public_state  # the API model: built with the first table's view

    return {
        "state": public_state(encoded if encoded is not None else _encode_state(state)),
        "pending": None if state.pending is None else shared_rules.encode(state.pending.prompt),
        "legal_commands": [shared_rules.encode(item) for item in shared_rules.legal_commands(state)],
    }


def session_view(session_id: str, version: int, state: Session, encoded: JSON | None = None) -> JSON:
    """A table as clients see it: version, state, pending prompt and what may be sent now."""
    return {"session_id": session_id, "version": version, **view_parts(state, encoded)}


def _table_view(services: Services, table: Table) -> JSON:
    parts = services.history.view(table.session_id, table.token_hash, table.version, table.state)
    return {"session_id": table.session_id, "version": table.version, **parts}


# ---- sessions --------------------------------------------------------------------------------------------


def new_join_code() -> str:
    """A short code a table reads aloud, e.g. K7QX2M (32^6, about a billion)."""
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


async def create_session(services: Services, body: Any, *, event_id: str | None = None, limited: bool = True) -> JSON:
    """Start a table: posse, rule options, optional seed and content pack. Returns the join code and table token.

    `event_id`: a table of that event (its host opened it; not limited per address: `limited=False`)."""
    data = _object(check("CreateSessionRequest", body), "body", {"heroes", "options", "seed", "pack"})
    if "heroes" not in data:
        raise InvalidCommand("heroes: required", field="heroes")
    heroes = parse_heroes(data["heroes"])
    options = parse_options(data.get("options"))
    seed = _int(data["seed"], "seed", 0, MAX_SEED) if data.get("seed") is not None else secrets.randbelow(MAX_SEED)
    pack = _str(data["pack"], "pack") if data.get("pack") is not None else "default"
    state = by_the_rules(shared_rules.new_session, heroes, options=options, seed=seed, pack=pack)
    if services.guard is not None and limited:
        await services.guard.opening_table()
    encoded = shared_rules.encode_state(state)
    snapshot = shared_rules.codec.dumps(encoded)
    command = shared_rules.codec.dumps({"type": "create_session", "heroes": [shared_rules.encode(h) for h in heroes],
                                        "options": shared_rules.encode(options), "seed": seed, "pack": pack})
    created = shared_rules.Event(shared_rules.EventType.SESSION_CREATED,
                                 f"Table opened for {', '.join(h.name for h in heroes)}", rule="",
                                 facts=(shared_rules.events.Fact("name", ", ".join(h.name for h in heroes)),))
    token = new_token()
    for _ in range(20):
        session_id = new_join_code()
        try:
            await services.store.create(session_id, token_hash(token), snapshot,
                                        command, shared_rules.codec.dumps([shared_rules.encode_event(created)]),
                                        event_id=event_id)
        except SessionExists:
            continue
        return {"token": token, **session_view(session_id, 0, state, encoded)}
    raise RuntimeError("could not find a free join code in 20 tries")


async def get_session(services: Services, session_id: str, token: str | None) -> JSON:
    """The latest version of a table."""
    return _table_view(services, await _open(services, session_id, token, host_may=True))


async def get_legal_commands(services: Services, session_id: str, token: str | None) -> JSON:
    """What the table may send now, and the prompt waiting for an answer (if any)."""
    view = _table_view(services, await _open(services, session_id, token, host_may=True))
    return {"session_id": session_id, "version": view["version"], "pending": view["pending"],
            "legal_commands": view["legal_commands"]}


async def list_sessions(services: Services, token: str | None, *, limit: int = 100, after: str | None = None) -> JSON:
    """Every table's join code, for the event host only (a table token lists nothing)."""
    if not token:
        raise Unauthenticated("Authorization: send 'Bearer <host token>'", field="Authorization")
    if not is_host(services, token):
        if services.guard is not None:
            await services.guard.failed_token()
        raise Forbidden("listing every table needs the deployment's admin token (an event's host lists its own "
                        "with GET /v1/events/{event_id})", field="Authorization")
    limit = _int(limit, "limit", 1, 1000)
    ids = await services.store.list_sessions(limit=limit, after=after)
    return {"sessions": ids, "next_after": ids[-1] if len(ids) == limit else None}


async def list_events(
    services: Services, session_id: str, token: str | None, *, after: int = -1, limit: int = 50
) -> JSON:
    """A page of the append-only log: each entry is the command that made a version and what happened."""
    after = _int(after, "after", -1, MAX_VERSION)
    limit = _int(limit, "limit", 1, MAX_EVENTS_PAGE)
    stored = await _open(services, session_id, token, host_may=True)
    try:
        entries = await services.store.log(session_id, after_version=after, limit=max(0, min(limit, stored.version - after)))
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


async def archive_session(services: Services, session_id: str, token: str | None) -> JSON:
    """The table (or its event's host: "close") freezes it: read-only from now on, kept for the archive retention."""
    await _open(services, session_id, token, allow=RUN)
    try:
        archived_at = await services.store.archive(session_id)
    except SessionNotFound:
        raise NotFound(f"session {session_id!r} does not exist", field="session_id") from None
    services.history.forget(session_id)  # the next write reads the archive mark
    keep = services.settings.archive_retention
    return {"session_id": session_id, "archived_at": archived_at, "expires_at": archived_at + keep if keep else None}


async def delete_session(services: Services, session_id: str, token: str | None) -> None:
    """The owner removes a table and everything stored for it."""
    await _open(services, session_id, token, allow=OWN)
    await services.store.delete(session_id)
    services.history.forget(session_id)


async def readiness(services: Services) -> JSON:
    """Touch the store (StoreUnavailable when it does not answer)."""
    await services.store.ping()
    return {"status": "ready", "storage": services.settings.storage}


# ---- writes ----------------------------------------------------------------------------------------------


def _fingerprint(kind: str, payload: Any) -> str:
    text = json.dumps([kind, payload], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


async def _replayed(services: Services, table: Table, record: str, fingerprint: str, key: str) -> JSON:
    """The first answer to a request, rebuilt from the version it wrote (the record keeps only which version)."""
    stored = json.loads(record)
    if stored.get("fingerprint") != fingerprint:
        raise IdempotencyKeyReused(f"Idempotency-Key {key!r} was already used for a different request",
                                   field="Idempotency-Key")
    version = int(stored["version"])
    change = await services.history.change(table.session_id, table.token_hash, version)
    if change is None:
        raise NotFound(f"session {table.session_id!r} has no version {version} any more", field="session_id")
    return {"based_on": version - 1, "events": change["events"], "session_id": table.session_id,
            "version": version, "state": change["state"], "pending": change["pending"],
            "legal_commands": change["legal_commands"]}


@dataclass(frozen=True, slots=True)
class Written:
    """A write's answer and whether it was a replay of an earlier request with the same Idempotency-Key."""

    body: JSON
    replayed: bool


@dataclass(frozen=True, slots=True)
class Step:
    """What a write produces from the table it read: the new state, the log's command and the events."""

    state: Session
    command: JSON
    events: list[JSON]
    checkpoint: bool = False
    """Keep a full snapshot of the new version (an undo always does: the log cannot replay it)."""


async def _write(
    services: Services,
    session_id: str,
    token: str | None,
    *,
    kind: str,
    payload: Any,
    step: Callable[[Table], Awaitable[Step]],
    expected_version: int | None,
    idempotency_key: str | None,
    if_match: tuple[int, ...] | None = None,
) -> Written:
    """_written, counted in the metrics by outcome (applied, replayed, refused, error)."""
    operation = "postCommand" if kind == "command" else "undoCommands"
    try:
        written = await _written(services, session_id, token, kind=kind, payload=payload, step=step,
                                 expected_version=expected_version, idempotency_key=idempotency_key,
                                 if_match=if_match)
    except (RulesError, ServiceError, StaleVersion):
        labelled(COMMANDS, operation, "refused").inc()
        raise
    except Exception:
        labelled(COMMANDS, operation, "error").inc()
        raise
    labelled(COMMANDS, operation, "replayed" if written.replayed else "applied").inc()
    return written


async def _written(
    services: Services,
    session_id: str,
    token: str | None,
    *,
    kind: str,
    payload: Any,
    step: Callable[[Table], Awaitable[Step]],
    expected_version: int | None,
    idempotency_key: str | None,
    if_match: tuple[int, ...] | None = None,
) -> Written:
    """Load -> step -> compare-and-set; retried on a stale version unless the client named the version.

    `step(table)` returns the Step or raises a RulesError. Every commit carries an idempotency key (the client's,
    or one of our own), so a commit retried after a lost connection is applied once. `if_match` (the versions of
    the If-Match header) is a precondition like `expected_version`, answered with 412.
    """
    if idempotency_key is not None:
        _str(idempotency_key, "Idempotency-Key", 256)
        if not idempotency_key:
            raise InvalidCommand("Idempotency-Key: must not be empty", field="Idempotency-Key")
    # The request is the command itself; expected_version is a precondition, so a client that lost an answer
    # may re-read the version and resend: it still gets the first answer, never a second write.
    fingerprint = _fingerprint(kind, payload)
    # The version this process wrote or read last is tried first, without a read: the commit is a compare-and-set
    # (and checks the idempotency key and the archive mark itself), so a stale guess only costs a retry.
    writer = token_hash(token) if token else None
    table = services.history.fresh(session_id, writer) if writer else None
    read = table is None or (expected_version is not None and table.version != expected_version) \
        or (if_match is not None and table.version not in if_match)  # fmt: skip
    if read:
        table = await _open(services, session_id, token, allow=PLAY, idempotency_key=idempotency_key)
    key = idempotency_key or "~" + secrets.token_urlsafe(9)
    if table.idempotent is not None:
        return Written(await _replayed(services, table, table.idempotent, fingerprint, key), True)
    if table.archived_at is not None:
        raise Archived(f"session {session_id!r} is archived: it can be read, not changed", field="session_id")
    if table.access is not None and table.access.paused_at is not None:
        raise Paused(f"session {session_id!r} is paused by the event host: it can be read, not changed",
                     field="session_id")
    every = services.settings.checkpoint_every
    for _attempt in range(MAX_WRITE_ATTEMPTS):
        if expected_version is not None and table.version != expected_version:
            raise StaleVersion(table.version, expected_version, session_id)
        if if_match is not None and table.version not in if_match:
            tags = ", ".join(f'"{v}"' for v in if_match)
            named = (f"not {tags}" if tags else 'and If-Match names none of its ETags (an ETag here is a version in '
                     'double quotes, e.g. "7", or * for any; strong comparison, RFC 9110 13.1.1)')
            raise PreconditionFailed(f'If-Match: the session is at version {table.version} (ETag "{table.version}"),'
                                     f" {named}", current=table.version)
        try:
            step_ = await step(table)
        except RulesError:
            if read:
                raise
            # The rules refused the version this process guessed without a read. Another replica may have moved
            # the table on (the guess is stale), or have landed this very request's first attempt: read the
            # latest with the key before saying no.
            read = True
            latest = await services.history.latest(session_id, idempotency_key=idempotency_key)
            if latest is None:
                raise NotFound(f"session {session_id!r} does not exist", field="session_id") from None
            if latest.idempotent is not None:
                return Written(await _replayed(services, latest, latest.idempotent, fingerprint, key), True)
            if latest.version == table.version:
                raise
            table = latest
            continue
        new_version = table.version + 1
        encoded = _encode_state(step_.state)
        body = {"based_on": table.version, "events": step_.events,
                **session_view(session_id, new_version, step_.state, encoded)}
        record = f'{{"fingerprint":"{fingerprint}","version":{new_version}}}'
        checkpoint = dump_json(encoded) if step_.checkpoint or new_version % every == 0 else None
        try:
            result = await services.store.commit(
                session_id, table.version, dump_json(step_.command), dump_json(step_.events),
                record, key, checkpoint=checkpoint,
                idempotency_ttl=None if idempotency_key is not None else INTERNAL_KEY_TTL,
                writer=writer,
            )
        except StaleVersion as exc:
            if if_match is not None:
                raise PreconditionFailed(f"If-Match: the session moved on to version {exc.current_version}",
                                         current=exc.current_version) from None
            if expected_version is not None:
                raise
            latest = await services.history.latest(session_id, idempotency_key=idempotency_key)
            if latest is None:
                raise NotFound(f"session {session_id!r} does not exist", field="session_id") from None
            table, read = latest, True
            if table.idempotent is not None:
                return Written(await _replayed(services, table, table.idempotent, fingerprint, key), True)
            await asyncio.sleep(random.uniform(0, 0.001 * min(_attempt, 20)))  # spread out a crowd of writers
            continue
        except SessionNotFound:
            services.history.forget(session_id)
            raise NotFound(f"session {session_id!r} does not exist", field="session_id") from None
        except SessionArchived:
            raise Archived(f"session {session_id!r} is archived: it can be read, not changed",
                           field="session_id") from None
        except SessionPaused:
            raise Paused(f"session {session_id!r} is paused by the event host: it can be read, not changed",
                         field="session_id") from None
        except WriterRefused:
            services.history.forget(session_id)
            raise Forbidden(f"this token no longer writes to session {session_id!r}: it was replaced or revoked",
                            field="Authorization") from None
        if result.replayed:
            return Written(await _replayed(services, table, result.response, fingerprint, key), True)
        parts = {"state": body["state"], "pending": body["pending"], "legal_commands": body["legal_commands"]}
        services.history.remember_change(session_id, table.token_hash, result.version, step_.command,
                                         step_.events, step_.state, parts)
        return Written(body, False)
    raise StaleVersion(table.version, table.version, session_id)


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

    encoded = shared_rules.encode(command)

    async def step(table: Table) -> Step:
        outcome = by_the_rules(shared_rules.apply, table.state, command)
        return Step(outcome.state, encoded, [shared_rules.encode_event(event) for event in outcome.events])

    return await _write(services, session_id, token, kind="command", payload=encoded, step=step,
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
    steps = _int(data.get("steps", 1), "steps", 1, MAX_VERSION)
    expected_version = parse_expected_version(expected_version)

    async def step(table: Table) -> Step:
        target = table.version - steps
        if target < 0:
            raise IllegalCommand(f"steps: version {table.version} has only {table.version} command(s) to undo, "
                                 f"not {steps}", field="steps", rule=UNDO_RULE)
        state = await services.history.at(session_id, table.token_hash, target)
        if state is None:
            raise NotFound(f"session {session_id!r} has no version {target}", field="steps")
        event = shared_rules.Event(shared_rules.EventType.UNDONE,
                                   f"Undid {steps} command{'s' if steps != 1 else ''}: back to version {target}",
                                   rule=UNDO_RULE, facts=(shared_rules.events.Fact("count", steps),))
        return Step(state, {"type": "undo", "steps": steps, "to_version": target}, [shared_rules.encode_event(event)],
                    checkpoint=True)

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
    up to v not yet sent, so a subscriber never sees a gap even if notifications were coalesced or lost, and after
    the store lost its notification channel (a resync message) the latest version is read again. Ends when the
    table is deleted.
    """
    await _open(services, session_id, token, host_may=True)
    store = services.store
    async with store.subscribe(session_id) as subscription:
        table = await services.history.latest(session_id)
        if table is None:
            raise NotFound(f"session {session_id!r} does not exist", field="session_id")
        incarnation = table.token_hash
        last = table.version if after_version is None else min(_int(after_version, "after_version", -1, MAX_VERSION),
                                                                 table.version)
        if last < table.version:
            async for change in _versions(services, session_id, incarnation, last, table.version):
                yield change
            last = table.version
        async for notice in notices(subscription):
            if notice.get("deleted"):
                return
            if notice.get("access"):  # a token rotated or revoked: does this one still open the table?
                if not await still_opens(services, await services.history.latest(session_id), incarnation, token):
                    return
                continue
            version = notice.get("version")
            if notice.get("resync"):
                latest = await services.history.latest(session_id)
                if latest is None or latest.token_hash != incarnation:
                    return
                version = latest.version
            if not isinstance(version, int) or version <= last:
                continue
            async for change in _versions(services, session_id, incarnation, last, version):
                yield change
            last = version



async def notices(subscription: AsyncIterator[Any]) -> AsyncIterator[dict[str, Any]]:
    """A table's notifications on the store's channel, as objects (anything else on it is skipped)."""
    async for message in subscription:
        try:
            notice = json.loads(message)
        except ValueError:
            continue
        if isinstance(notice, dict):
            yield notice


async def watch_door(services: Services, session_id: str, token: str | None, after_version: int | None
                     ) -> tuple[Table, int | None]:
    """A subscriber's door (what `watch_session` checks before subscribing): the table its token opens and the
    version it asked to start after (checked; None: the current one)."""
    table = await _open(services, session_id, token, host_may=True)
    return table, None if after_version is None else _int(after_version, "after_version", -1, MAX_VERSION)


async def still_opens(services: Services, table: Table | None, incarnation: str, token: str | None) -> bool:
    """Whether `token` still opens this incarnation of the table (after a token was rotated or revoked)."""
    return table is not None and table.token_hash == incarnation and bool(token) \
        and await role_at(services, table, token) is not None  # type: ignore[arg-type]


def versions_between(services: Services, session_id: str, incarnation: str, after: int, upto: int
                     ) -> AsyncIterator[JSON]:
    """What a subscriber receives for each version after `after` up to `upto`, in order (stops at a missing one)."""
    return _versions(services, session_id, incarnation, after, upto)


async def _versions(services: Services, session_id: str, incarnation: str, after: int, upto: int
                    ) -> AsyncIterator[JSON]:
    for version in range(after + 1, upto + 1):
        change = await services.history.change(session_id, incarnation, version)
        if change is None:
            return
        command = public_command(change["command"])
        # the very object History keeps, when nothing is hidden: subscribers of the version share its GraphQL result
        yield change if command is change["command"] else {**change, "command": command}


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
    trials = min(_int(data["trials"], "trials", 1, MAX_SEED), services.settings.max_trials)  # capped, as documented
    seed = _int(data["seed"], "seed", 0, MAX_SEED) if data.get("seed") is not None else secrets.randbelow(MAX_SEED)
    options = parse_options(data.get("options"))
    if all(hero.removed for hero in heroes):  # the journey would refuse its first command; refuse it before queueing
        raise IllegalCommand("heroes: every hero has been taken from the game; a journey needs one left",
                             field="heroes")
    by_the_rules(shared_rules.new_session, heroes, options=options)  # the posse must make a table before it is queued
    return {"heroes": [shared_rules.encode(h) for h in heroes], "size": size, "trials": trials, "seed": seed,
            "options": shared_rules.encode(options)}


def _runner(services: Services) -> SimulationRunner:
    if services.simulations is None:
        raise RuntimeError("no simulation runner is configured")
    return services.simulations


async def start_simulation(services: Services, body: Any) -> JSON:
    """Queue a bulk simulation; it runs in chunks (rq workers, or the embedded pool) and is polled by id."""
    spec = parse_simulation(services, body)
    if services.guard is not None:
        await services.guard.starting_simulation()
    from services.limits import client_address

    return await _runner(services).start(spec, client_address.get())


async def get_simulation(services: Services, job_id: str) -> JSON:
    """A simulation's status, progress 0..1 and, once finished, its summary."""
    status = await _runner(services).status(_str(job_id, "job_id", 100))
    if status is None:
        raise NotFound(f"simulation {job_id!r} does not exist (or has expired)", field="job_id")
    return status
