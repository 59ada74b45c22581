"""Hosting an event (issue 13): events with their own host token, a table's roles and tokens, pausing and closing,
every table at a glance with its alerts, a live stream of the whole event, and the export after the evening.

Both doors (REST, GraphQL) and the host's dashboard (services/api/web) call these; the roles and the refusals are
the ones of services/use_cases.py (`Role`, `_opened`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from services.contract.validation import check
from services.history import Table
from services.store import EventExists, SessionNotFound, StoredEvent, Subscription, event_channel
from services.use_cases import (
    HOSTS,
    JOIN_ALPHABET,
    PLAY,
    READ,
    RUN,
    Archived,
    Forbidden,
    NotFound,
    Role,
    Services,
    Unauthenticated,
    _int,
    _object,
    _opened,
    _str,
    create_session,
    is_admin,
    new_token,
    public_command,
    token_hash,
)
from shared_rules.errors import InvalidCommand

if TYPE_CHECKING:
    from shared_rules.state import Session

JSON = dict[str, Any]
EVENT_ID_LENGTH = 8
LINK_SCHEME = "brimstone"  # the phone app's links (mobile/presenters/start.py: join_link)
COALESCE_SECONDS = 0.05  # changes of several tables arriving together are sent as one batch


# ---- join links -------------------------------------------------------------------------------------------------


def join_link(server: str, code: str, token: str) -> str:
    """The link a phone opens a table with: brimstone://join?server=...&code=...&token=... (the phone app's format,
    mobile/presenters/start.py; a test keeps the two the same)."""
    return f"{LINK_SCHEME}://join?server={quote(server, safe='')}&code={quote(code)}&token={quote(token)}"


def public_server(services: Services, requested: str) -> str:
    """The service's address as phones reach it: BRIMSTONE_PUBLIC_URL, else the address the request came to."""
    return (services.settings.public_url or requested).rstrip("/")


# ---- events -----------------------------------------------------------------------------------------------------


def new_event_id() -> str:
    """An event's code, e.g. EV7QX2MK4A (two letters and eight of the join codes' alphabet)."""
    return "EV" + "".join(secrets.choice(JOIN_ALPHABET) for _ in range(EVENT_ID_LENGTH))


def _need_token(token: str | None, what: str = "the event host's token") -> str:
    if not token:
        raise Unauthenticated(f"Authorization: send 'Bearer <{what}>'", field="Authorization")
    return token


async def _failed(services: Services) -> None:
    if services.guard is not None:
        await services.guard.failed_token()


async def _admin(services: Services, token: str | None, what: str) -> None:
    if not is_admin(services, _need_token(token, "admin token")):
        await _failed(services)
        raise Forbidden(f"{what} needs the deployment's admin token (BRIMSTONE_HOST_TOKEN)", field="Authorization")


async def event_for(services: Services, event_id: str, token: str | None) -> tuple[StoredEvent, Role]:
    """The event if `token` is its host's (or the admin's); 401/403/404 otherwise."""
    token = _need_token(token)
    event = await services.store.event(_str(event_id, "event_id", 128))
    if event is None:
        raise NotFound(f"event {event_id!r} does not exist", field="event_id")
    if hmac.compare_digest(token_hash(token).encode(), event.host_hash.encode()):
        return event, Role.HOST
    if is_admin(services, token):
        return event, Role.ADMIN
    await _failed(services)
    raise Forbidden(f"this token is not the host's of event {event_id!r}", field="Authorization")


async def create_event(services: Services, token: str | None, body: Any) -> JSON:
    """The admin opens an event; its host token (shown once) runs it from then on."""
    await _admin(services, token, "opening an event")
    data = _object(check("CreateEventRequest", body), "body", {"name"})
    name = _str(data.get("name"), "name", 100).strip()
    if not name:
        raise InvalidCommand("name: must not be blank", field="name")
    host_token = new_token()
    for _ in range(20):
        event_id = new_event_id()
        try:
            await services.store.create_event(event_id, name, token_hash(host_token))
        except EventExists:
            continue
        event = await services.store.event(event_id)
        assert event is not None
        return {"event_id": event_id, "name": name, "created_at": event.created_at, "host_token": host_token}
    raise RuntimeError("could not find a free event id in 20 tries")


async def list_events(services: Services, token: str | None, *, limit: int = 100, after: str | None = None) -> JSON:
    """Every event's id (the admin only)."""
    await _admin(services, token, "listing events")
    limit = _int(limit, "limit", 1, 1000)
    ids = await services.store.list_events(limit=limit, after=after)
    return {"events": ids, "next_after": ids[-1] if len(ids) == limit else None}


async def rotate_host_token(services: Services, event_id: str, token: str | None) -> JSON:
    """A new host token for the event; the old one stops working at once (live dashboards with it end)."""
    event, _ = await event_for(services, event_id, token)
    host_token = new_token()
    await services.store.set_event_host(event.event_id, token_hash(host_token))
    await services.store.publish(event_channel(event.event_id), json.dumps({"event_id": event.event_id,
                                                                            "host": True}))
    return {"event_id": event.event_id, "host_token": host_token}


async def add_tables(services: Services, event_id: str, token: str | None, body: Any, server: str) -> JSON:
    """Open `count` tables for the event at once, numbered after its last one, each with the posse given; the
    answer holds every table's player token (shown once) and join link, for the join cards."""
    event, _ = await event_for(services, event_id, token)
    data = _object(check("CreateTablesRequest", body), "body", {"count", "heroes", "options", "pack"})
    count = _int(data.get("count"), "count", 1, 100)
    template = {key: data[key] for key in ("heroes", "options", "pack") if key in data}
    first = max((number for _, number in await services.store.event_tables(event.event_id)), default=0) + 1
    server = public_server(services, server)
    made = []
    for number in range(first, first + count):
        created = await create_session(services, template, event_id=event.event_id, limited=False)
        await services.store.add_to_event(event.event_id, created["session_id"], number)
        made.append({"session_id": created["session_id"], "number": number, "token": created["token"],
                     "join_link": join_link(server, created["session_id"], created["token"])})
    return {"event_id": event.event_id, "tables": made}


# ---- a table's tokens and standing ------------------------------------------------------------------------------

ROLES = ("player", "spectator")


def _role_name(role: str) -> str:
    if role not in ROLES:
        raise InvalidCommand(f"role: {role!r} is not one of {list(ROLES)}", field="role")
    return role


async def issue_token(services: Services, session_id: str, token: str | None, role: str, server: str) -> JSON:
    """A new token for the table's `role`: the player's (the old one stops working: a lost or leaked token is
    replaced by the table itself or by its host) or the spectator's (read-only, for a judge or a stream)."""
    role = _role_name(role)
    table, _ = await _opened(services, session_id, token, allow=RUN)
    new = new_token()
    await _set(services, table.session_id, role, token_hash(new))
    return {"session_id": table.session_id, "role": role, "token": new,
            "join_link": join_link(public_server(services, server), table.session_id, new)}


async def revoke_token(services: Services, session_id: str, token: str | None, role: str) -> None:
    """Revoke the table's spectator token (the table or its host), or its player token (the host only: nobody
    writes to the table until the host issues a new one)."""
    role = _role_name(role)
    await _opened(services, session_id, token, allow=RUN if role == "spectator" else HOSTS)
    await _set(services, session_id, role, None)


async def _set(services: Services, session_id: str, role: str, hashed: str | None) -> None:
    try:
        await services.store.set_credential(session_id, role, hashed)
    except SessionNotFound:
        raise NotFound(f"session {session_id!r} does not exist", field="session_id") from None
    services.history.forget(session_id)


async def pause_table(services: Services, session_id: str, token: str | None, paused: bool) -> JSON:
    """The event's host pauses a table (it stays readable; writes answer 409 `paused`) or resumes it."""
    table, _ = await _opened(services, session_id, token, allow=HOSTS)
    try:
        at = await services.store.set_paused(table.session_id, paused)
    except SessionNotFound:
        raise NotFound(f"session {session_id!r} does not exist", field="session_id") from None
    services.history.forget(session_id)
    return {"session_id": table.session_id, "status": _status(table, at is not None), "paused_at": at}


def _status(table: Table, paused: bool) -> str:
    """closed, paused, not_started (no move since the table was opened: version 0) or playing."""
    if table.archived_at is not None:
        return "closed"
    return "paused" if paused else "not_started" if table.version == 0 else "playing"


# ---- calling the host over --------------------------------------------------------------------------------------

MAX_CALL_REASON = 200


def host_call_of(table: Table) -> JSON | None:
    """The table's standing call for its host ({"at", "reason"}), or None."""
    raw = table.access.host_call if table.access is not None else None
    if not raw:
        return None
    try:
        call = json.loads(raw)
        return {"at": float(call["at"]), "reason": str(call.get("reason", ""))}
    except (ValueError, KeyError, TypeError):
        return None


async def call_host(services: Services, session_id: str, token: str | None, body: Any) -> JSON:
    """The table (its player token) calls its event's host over, with a few words of why: the host's dashboard
    shows it on the table and as an alert until the host (or the table) clears it. Calling again replaces the
    reason and keeps the time of the first call, so the host sees how long the table has waited."""
    data = _object(check("CallHostRequest", {} if body is None else body), "body", {"reason"})
    reason = " ".join(_str(data.get("reason", ""), "reason", MAX_CALL_REASON).split())
    table, _ = await _opened(services, session_id, token, allow=PLAY)
    if table.archived_at is not None:
        raise Archived(f"session {session_id!r} is closed: there is no game to call the host to",
                       field="session_id")
    earlier = host_call_of(table)
    call = {"at": earlier["at"] if earlier else time.time(), "reason": reason}
    await _set_call(services, table.session_id, json.dumps(call))
    return {"session_id": table.session_id, "host_call": call}


async def clear_host_call(services: Services, session_id: str, token: str | None) -> JSON:
    """The host went over (or the table no longer needs it): the call is cleared. The host, the admin or the table
    itself; clearing a table with no call is not an error."""
    table, _ = await _opened(services, session_id, token, allow=RUN)
    await _set_call(services, table.session_id, None)
    return {"session_id": table.session_id, "host_call": None}


async def _set_call(services: Services, session_id: str, call: str | None) -> None:
    try:
        await services.store.set_host_call(session_id, call)
    except SessionNotFound:
        raise NotFound(f"session {session_id!r} does not exist", field="session_id") from None
    services.history.forget(session_id)


# ---- a table at a glance -----------------------------------------------------------------------------------------


def _hero(hero: Any) -> JSON:
    return {"id": hero.id, "name": hero.name, "level": hero.level, "health": hero.health_left,
            "max_health": hero.max_health, "sanity": hero.sanity_left, "max_sanity": hero.max_sanity,
            "knocked_out": hero.knocked_out and not hero.removed, "dead": hero.removed}


def _hazard_name(result: int) -> str:
    from shared_rules.content import TRAVEL_HAZARDS  # the engine's charts: loaded with the first table read

    entry = TRAVEL_HAZARDS.get(result)
    return f"{result} {entry.name}" if entry is not None else str(result)


def whereabouts(state: Session) -> JSON:
    """Where the posse is, as one line and the numbers behind it."""
    from shared_rules.state import Phase

    out: JSON = {"phase": state.phase.value, "text": "", "hazards_done": None, "hazards_total": None,
                 "hazard": None, "town": None, "day": None, "turn": None, "mission": None, "mission_status": None,
                 "party": None, "darkness": None, "track_length": None}
    if state.town is not None:
        out["town"] = f"{state.town.size.value.title()} Town ({state.town.town_type})"
    travel = state.travel
    if state.phase is Phase.TRAVEL and travel is not None:
        total = len(travel.rollers)
        out |= {"hazards_done": travel.resolved, "hazards_total": total,
                "hazard": _hazard_name(travel.hazards[-1]) if travel.hazards else None}
        text = f"Road to a {travel.size.value.title()} Town"
        if total:
            text += f": hazard {min(travel.resolved + 1, total)} of {total}"
        if out["hazard"]:
            text += f" ({out['hazard']})"
        out["text"] = text + (" (turned back)" if travel.turned_back else "")
    elif state.phase is Phase.ARRIVAL:
        out["text"] = "Arriving in town"
    elif state.phase is Phase.TOWN:
        day = state.stay.day if state.stay is not None else None
        out["day"] = day
        out["text"] = f"Town Stay, Day {day}" + (f" in a {out['town']}" if out["town"] else "") if day else \
            f"In town{': ' + out['town'] if out['town'] else ''}"
    elif state.phase is Phase.ADVENTURE and state.adventure is not None:
        adv = state.adventure
        status = ", ".join(f"{c.name} {c.value}" for c in adv.counters) or None
        out |= {"turn": adv.turn, "mission": adv.mission.replace("_", " "), "mission_status": status,
                "party": adv.party, "darkness": adv.darkness, "track_length": len(adv.track.spaces) or None}
        depth = f", Hero Party {adv.party} / Darkness {adv.darkness}" + (
            f" of {len(adv.track.spaces) - 1}" if adv.track.spaces else "")
        out["text"] = f"Adventure ({out['mission']}): turn {adv.turn}{depth}" + (f"; {status}" if status else "")
    else:
        out["text"] = "Choosing the next town" if state.phase is Phase.BETWEEN_ADVENTURES else state.phase.value
    return out


def _minutes(seconds: float) -> str:
    minutes = int(seconds // 60)
    return "under a minute" if minutes < 1 else f"{minutes} min"


def alerts(services: Services, state: Session, last_activity: float, now: float, status: str,
           host_call: JSON | None = None) -> list[JSON]:
    """What the host should look at: the table called the host over; a hero died; a table with no write for
    BRIMSTONE_ALERT_IDLE seconds (20 minutes); a prompt waiting BRIMSTONE_ALERT_STUCK seconds (5 minutes) for an
    answer. A paused or closed table raises no idle or stuck alert (its host stopped it), nor does a table never
    played (`not_started`: its posse has not sat down yet, which is no sign of trouble)."""
    found = []
    if host_call is not None and status != "closed":
        words = host_call["reason"]
        found.append({"kind": "host_called", "text": "calls the host" + (f": {words}" if words else ""),
                      "since": host_call["at"]})
    found += [{"kind": "hero_died", "text": f"{hero.name} died", "since": last_activity}
              for hero in state.heroes if hero.removed]
    quiet = now - last_activity
    if status == "playing":
        if state.pending is not None and quiet >= services.settings.alert_stuck:
            found.append({"kind": "stuck", "text": f"stuck on a question for {_minutes(quiet)}",
                          "since": last_activity})
        if quiet >= services.settings.alert_idle:
            found.append({"kind": "idle", "text": f"idle: no move for {_minutes(quiet)}", "since": last_activity})
    return found


def summarize(services: Services, table: Table, number: int, now: float) -> JSON:
    """A TableSummary of a table as just read."""
    access = table.access
    status = _status(table, access is not None and access.paused_at is not None)
    last = (access.updated_at if access is not None and access.updated_at else None) or now
    state = table.state
    call = host_call_of(table)
    return {"session_id": table.session_id, "number": number, "status": status, "version": table.version,
            "last_activity": last, "posse": [_hero(h) for h in state.heroes], "where": whereabouts(state),
            "waiting_for": state.pending.prompt.question if state.pending is not None else None,
            "host_call": call, "alerts": alerts(services, state, last, now, status, call)}


async def _summary(services: Services, session_id: str, number: int, now: float) -> JSON | None:
    table = await services.history.latest(session_id)
    return None if table is None else summarize(services, table, number, now)


async def board(services: Services, event_id: str, token: str | None) -> JSON:
    """The event and every table at a glance, by number."""
    event, _ = await event_for(services, event_id, token)
    now = time.time()
    tables = await services.store.event_tables(event.event_id)
    found = await asyncio.gather(*(_summary(services, sid, number, now) for sid, number in tables))
    return {"event_id": event.event_id, "name": event.name, "created_at": event.created_at, "now": now,
            "tables": [summary for summary in found if summary is not None]}


async def table_of_event(services: Services, event_id: str, session_id: str, token: str | None) -> JSON:
    """One table of the event at a glance (the host's, or the admin's)."""
    event, _ = await event_for(services, event_id, token)
    numbers = dict(await services.store.event_tables(event.event_id))
    if session_id not in numbers:
        raise NotFound(f"event {event_id!r} has no table {session_id!r}", field="session_id")
    summary = await _summary(services, session_id, numbers[session_id], time.time())
    if summary is None:
        raise NotFound(f"session {session_id!r} does not exist", field="session_id")
    return summary


async def open_event_watch(services: Services, event_id: str, token: str | None) -> AsyncIterator[JSON]:
    """`watch_event` with the credentials checked before the stream starts (so a refusal is a plain error)."""
    await event_for(services, event_id, token)
    return watch_event(services, event_id, token)


async def watch_event(services: Services, event_id: str, token: str | None) -> AsyncIterator[JSON]:
    """Every table of the event at a glance, once when the stream opens and again whenever it changes (a new
    version, paused or resumed, a token rotated, closed) or joins the event; changes arriving together are sent
    together. Ends when the host's token is rotated (or the event is gone)."""
    event, _ = await event_for(services, event_id, token)
    store = services.store
    queue: asyncio.Queue[str] = asyncio.Queue()
    pumps: dict[str, asyncio.Task[None]] = {}
    subscriptions: list[Subscription] = []

    async def pump(name: str, subscription: Subscription) -> None:
        async for _message in subscription:
            queue.put_nowait(name)

    async def follow(name: str) -> None:
        subscription = store.subscribe(name)
        await subscription.start()
        subscriptions.append(subscription)
        pumps[name] = asyncio.get_running_loop().create_task(pump(name, subscription))

    channel = event_channel(event.event_id)
    try:
        await follow(channel)
        numbers = dict(await store.event_tables(event.event_id))
        for sid in numbers:
            await follow(sid)
        pending = set(numbers)
        while True:
            if pending:
                now = time.time()
                found = await asyncio.gather(*(_summary(services, sid, numbers[sid], now) for sid in sorted(pending)))
                for summary in sorted((f for f in found if f is not None), key=lambda f: f["number"]):
                    yield summary
                pending.clear()
            name = await queue.get()
            await asyncio.sleep(COALESCE_SECONDS)
            names = {name}
            while not queue.empty():
                names.add(queue.get_nowait())
            if channel in names:
                names.discard(channel)
                current, _ = await event_for(services, event.event_id, token)  # a rotated host token ends here
                for sid, number in await store.event_tables(current.event_id):
                    if sid not in numbers:
                        numbers[sid] = number
                        await follow(sid)
                        names.add(sid)
            pending |= {n for n in names if n in numbers}
    finally:
        for task in pumps.values():
            task.cancel()
        for subscription in subscriptions:
            with contextlib.suppress(Exception):
                await subscription.aclose()


# ---- after the event --------------------------------------------------------------------------------------------


def _readable(summary: JSON, log: list[JSON], name: str) -> str:
    """A few lines for people: the posse and how each hero ended, where the table got, how the evening went."""
    heroes = "; ".join(
        f"{h['name']} (level {h['level']}): " + ("died" if h["dead"] else
                                                f"Health {h['health']}/{h['max_health']}, "
                                                f"Sanity {h['sanity']}/{h['max_sanity']}")
        for h in summary["posse"])
    started = log[0]["at"] if log else summary["last_activity"]
    minutes = max(0, int((summary["last_activity"] - started) // 60))
    kinds: dict[str, int] = {}
    for entry in log:
        for event in entry["events"]:
            kinds[event["type"]] = kinds.get(event["type"], 0) + 1
    notable = [f"{kinds[k]} {label}" for k, label in (("hazard", "travel hazards"), ("killed", "enemies killed"),
                                                       ("knocked_out", "knock-outs"), ("day_begun", "town days"),
                                                       ("turn_started", "adventure turns"), ("undone", "undos"))
               if kinds.get(k)]
    lines = [f"{name}, table {summary['number']} ({summary['session_id']}): {heroes}.",
             f"Where it got: {summary['where']['text']}. {summary['version']} moves over {minutes} minutes"
             + (f"; {', '.join(notable)}." if notable else "."),
             ]
    died = [a["text"] for a in summary["alerts"] if a["kind"] == "hero_died"]
    if died:
        lines.append("Fallen: " + "; ".join(died) + ".")
    return "\n".join(lines)


async def export_event(services: Services, event_id: str, token: str | None) -> JSON:
    """Every table's whole log as JSON and a readable summary of its posse's evening."""
    event, _ = await event_for(services, event_id, token)
    now = time.time()
    out = []
    for sid, number in await services.store.event_tables(event.event_id):
        summary = await _summary(services, sid, number, now)
        if summary is None:
            continue
        log: list[JSON] = []
        while True:
            try:
                entries = await services.store.log(sid, after_version=log[-1]["version"] if log else -1, limit=500)
            except SessionNotFound:
                break
            log += [{"version": e.version, "command": public_command(json.loads(e.command)),
                     "events": json.loads(e.events), "at": e.at} for e in entries]
            if len(entries) < 500:
                break
        out.append({"session_id": sid, "number": number, "table": summary, "log": log,
                    "summary": _readable(summary, log, event.name)})
    return {"event_id": event.event_id, "name": event.name, "exported_at": now, "tables": out}


__all__ = ["READ", "add_tables", "board", "call_host", "clear_host_call", "create_event", "event_for", "export_event", "issue_token",
           "join_link", "list_events", "open_event_watch", "pause_table", "revoke_token", "rotate_host_token",
           "summarize", "table_of_event", "watch_event", "whereabouts"]


async def close_table(services: Services, session_id: str, token: str | None) -> JSON:
    """The host (or the table itself) closes a table: archived, readable and never written again."""
    from services.use_cases import archive_session

    archived = await archive_session(services, session_id, token)
    return {"session_id": archived["session_id"], "status": "closed", "paused_at": None}
