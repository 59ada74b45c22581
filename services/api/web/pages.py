"""The host's dashboard and join cards: server-rendered HTML (Jinja2) made live with htmx and server-sent events.

The host signs in once with the event's code and host token; the token is kept in an HttpOnly, SameSite=Strict cookie
scoped to the event's pages (`/host/<event>`), because a browser's EventSource cannot send an Authorization header.
Every page and action calls the same use cases as the API (services/hosting.py), so the roles are the API's.
"""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import functools
import json
import time
import zlib
from collections.abc import AsyncIterable, AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from litestar import Controller, Request, Response, get, post
from litestar.datastructures import Cookie, State
from litestar.response import Redirect, ServerSentEvent, ServerSentEventMessage
from markupsafe import escape

import shared_rules  # the engine's names are read on use (a posse is read when a host opens tables)
from services import hosting
from services.api.errors import problem_for
from services.api.rest.common import paced, services
from services.store import StoreUnavailable
from services.use_cases import Forbidden, ServiceError, Services, Unauthenticated
from shared_rules.errors import RulesError

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
COOKIE = "brimstone_host"
COOKIE_SECONDS = 24 * 3600



@functools.cache
def _templates() -> Any:
    """The pages' jinja2 environment, made on the first page served (jinja2 is not needed to start the service)."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    return Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(("html",)),
                       trim_blocks=True, lstrip_blocks=True)

PHASES = (("", "Anywhere"), ("between_adventures", "Between adventures"), ("travel", "On the road"),
          ("arrival", "Arriving"), ("town", "In town"), ("adventure", "Adventure"))
PHASE_NAMES = {key: label for key, label in PHASES if key}
PHASE_SHORT = {"between_adventures": "Between", "travel": "Road", "arrival": "Arriving", "town": "Town",
               "adventure": "Adventure"}  # a tile's phase chip
COLUMNS = (("number", "#"), ("code", "Code"), ("posse", "Posse"), ("where", "Where"), ("activity", "Last move"),
           ("alerts", "Alerts"), ("", ""))
SORTS = (("alerts", "Alerts first"), ("number", "Table number"), ("activity", "Quiet longest first"),
         ("activity:desc", "Latest move first"), ("where", "Where they are"), ("posse", "Posse"), ("code", "Join code"))
STATUSES = (("", "All tables"), ("playing", "Playing"), ("not_started", "Not started"), ("paused", "Paused"),
            ("closed", "Closed"))
STATUS_NAMES = {"playing": "playing", "not_started": "not started", "paused": "paused", "closed": "closed"}
DENSITIES = (("room", "Room"), ("list", "List"))
DEFAULT_VIEW = {"q": "", "status": "", "phase": "", "alerts": False, "sort": "alerts", "density": "room"}
BEAT_SECONDS = 2.0  # the dashboard's stream says every 2 s whether the storage answers (the "live" sign)
PING_TIMEOUT = 1.5
PRESET_HEROES = {
    "forbidden-fortress": (("hanzo", "Hanzo", "Samurai Warrior"), ("akane", "Akane", "Assassin"),
                           ("tenzin", "Tenzin", "Traveling Monk"), ("mei", "Mei", "Sorceress")),
    "pair": (("hanzo", "Hanzo", "Samurai Warrior"), ("tenzin", "Tenzin", "Traveling Monk")),
    "solo": (("hanzo", "Hanzo", "Samurai Warrior"),),
}
PRESETS = (("forbidden-fortress", "Four heroes: Samurai Warrior, Assassin, Traveling Monk, Sorceress"),
           ("pair", "Two heroes: Samurai Warrior and Traveling Monk"), ("solo", "One hero: Samurai Warrior"))
_SEVERITY = {"host_called": 4, "hero_died": 3, "stuck": 2, "idle": 1}


# ---- rendering --------------------------------------------------------------------------------------------------


def ago(stamp: float, now: float | None = None) -> str:
    """How long ago, as a host reads it across a room: "just now", "4 min ago", "1 h 12 min ago"."""
    seconds = max(0, int((now if now is not None else time.time()) - stamp))
    if seconds < 60:
        return "just now"
    minutes = seconds // 60
    return f"{minutes} min ago" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min ago"


def short_where(where: dict[str, Any]) -> str:
    """Where a posse is in a few words, for a tile (its phase chip says the rest): "Medium Town · hazard 2/3",
    "Day 2 · Large Town (Frontier)", "turn 4 · party 2, dark 5" (the Hero Party and Darkness markers)."""
    phase = where.get("phase")
    if phase == "travel" and where.get("hazards_total"):
        town = where["text"].removeprefix("Road to a ").split(":")[0].removesuffix(" Town")
        return f"{town} · hazard {min(where['hazards_done'] + 1, where['hazards_total'])}/{where['hazards_total']}" \
            + (f" ({where['hazard']})" if where.get("hazard") else "")
    if phase == "town" and where.get("day"):
        return f"Day {where['day']}" + (f" · {where['town']}" if where.get("town") else "")
    if phase == "adventure" and where.get("turn") is not None:
        depth = f" · party {where['party']}, dark {where['darkness']}" if where.get("party") is not None else ""
        return f"turn {where['turn']}{depth}"
    if phase == "between_adventures":
        return "choosing a town"
    return str(where.get("text", ""))


def short_alert(alert: dict[str, Any]) -> str:
    """An alert in a tile's few words: "stuck 6 min", "idle 23 min", "Kenji died"."""
    text = str(alert["text"])
    for long, short in (("stuck on a question for ", "stuck "), ("idle: no move for ", "idle "),
                        ("under a minute", "<1 min")):
        text = text.replace(long, short)
    return text


def iso(stamp: float) -> str:
    return dt.datetime.fromtimestamp(stamp, dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def render(template: str, **values: Any) -> str:
    return _templates().get_template(template).render(
        ago=ago, iso=iso, short_where=short_where, short_alert=short_alert, phase_names=PHASE_NAMES,
        phase_short=PHASE_SHORT, status_names=STATUS_NAMES, **values)


def qr_svg(link: str) -> str:
    """The QR code of a link as an inline SVG element (segno; error correction M, so a worn card still scans)."""
    import segno  # the join cards only

    return str(segno.make(link, error="m").svg_inline(scale=4, border=2, omitsize=True))


def html(text: str, status: int = 200, headers: dict[str, str] | None = None) -> Response[str]:
    return Response(text, status_code=status, media_type="text/html; charset=utf-8", headers=headers)


def one_line(text: str) -> str:
    """A fragment as one line: a server-sent event's `data` then holds it whole."""
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


# ---- the view: filter and sort ----------------------------------------------------------------------------------


def view_of(query: dict[str, str]) -> dict[str, Any]:
    """The host's view from the page's query: filters, sort (alerts first unless asked otherwise) and density."""
    density = query.get("density", "")
    return {"q": query.get("q", "")[:100], "status": query.get("status", ""), "phase": query.get("phase", ""),
            "alerts": query.get("alerts") == "1", "sort": (query.get("resort") or query.get("sort") or "alerts")[:40],
            "density": density if density in dict(DENSITIES) else "room"}


def view_query(view: dict[str, Any]) -> str:
    """The view as a query string holding only what differs from the default, for the address bar: a reload (or a
    link sent to a helper) shows the same view."""
    changed = {key: ("1" if value is True else value) for key, value in view.items()
               if value != DEFAULT_VIEW.get(key) and value not in (False, None)}
    return urlencode(changed)


def _matches(table: dict[str, Any], view: dict[str, Any]) -> bool:
    if view["status"] and table["status"] != view["status"]:
        return False
    if view["phase"] and table["where"]["phase"] != view["phase"]:
        return False
    if view["alerts"] and not table["alerts"]:
        return False
    words = view["q"].strip().lower()
    if words:
        haystack = " ".join([str(table["number"]), table["session_id"], *(h["name"] for h in table["posse"])]).lower()
        return all(word in haystack for word in words.split())
    return True


def _key(table: dict[str, Any], column: str) -> Any:
    order = [key for key, _ in PHASES]
    return {
        "number": table["number"],
        "code": table["session_id"],
        "posse": " ".join(h["name"] for h in table["posse"]).lower(),
        "where": (order.index(table["where"]["phase"]) if table["where"]["phase"] in order else 99,
                  table["where"]["text"]),
        "activity": table["last_activity"],
        # most serious first: a table calling, a hero dead, stuck, idle; then by how many alerts
        "alerts": (-max((_SEVERITY.get(a["kind"], 0) for a in table["alerts"]), default=0), -len(table["alerts"])),
    }.get(column, table["number"])


def arranged(tables: list[dict[str, Any]], view: dict[str, Any]) -> list[dict[str, Any]]:
    """The tables the view shows, in its order (`sort`: a column, `:desc` for the other way; `alerts`: the most
    serious first), ties in table order."""
    column, _, direction = view["sort"].partition(":")
    shown = sorted((t for t in tables if _matches(t, view)), key=lambda t: t["number"])  # ties stay in number order
    return sorted(shown, key=lambda t: _key(t, column), reverse=direction == "desc")


def counts(tables: list[dict[str, Any]]) -> dict[str, int]:
    return {"tables": len(tables), "playing": sum(t["status"] == "playing" for t in tables),
            "not_started": sum(t["status"] == "not_started" for t in tables),
            "paused": sum(t["status"] == "paused" for t in tables),
            "calls": sum(1 for t in tables if t.get("host_call")),
            "alerts": sum(1 for t in tables if t["alerts"])}


# ---- posses for new tables --------------------------------------------------------------------------------------


def read_posse(text: str) -> list[dict[str, Any]]:
    """Heroes from a posse link (brimstone://posse?d=..., as the phone app exports it) or an exported file's JSON."""
    text = text.strip()
    if text.startswith(f"{hosting.LINK_SCHEME}://posse"):
        packed = parse_qs(urlsplit(text).query).get("d", [""])[0]
        try:
            text = zlib.decompress(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))).decode()
        except (ValueError, zlib.error) as error:
            raise ValueError("that posse link is damaged: export it again from the app") from error
    try:
        data: Any = json.loads(text)
    except ValueError as error:
        raise ValueError("that is neither a posse link nor an exported posse") from error
    if isinstance(data, dict):
        data = data.get("heroes", [data])
    if not isinstance(data, list) or not data:
        raise ValueError("that is neither a posse link nor an exported posse")
    try:
        return [shared_rules.encode(shared_rules.decode_hero(item, f"heroes[{i}]")) for i, item in enumerate(data)]
    except RulesError as error:
        raise ValueError(f"that posse cannot be read: {error.message}") from error


def preset_posse(key: str) -> list[dict[str, Any]]:
    chosen = PRESET_HEROES.get(key, PRESET_HEROES["forbidden-fortress"])
    hero_from_class = shared_rules.content.hero_from_class
    return [shared_rules.encode(hero_from_class(hero_id, name, hero_class)) for hero_id, name, hero_class in chosen]


# ---- the controller ---------------------------------------------------------------------------------------------


def _token(request: Request[Any, Any, Any]) -> str | None:
    return request.cookies.get(COOKIE) or None


def _cross_site(request: Request[Any, Any, Any]) -> bool:
    """A form post from another site (the cookie is SameSite=Strict too; this is the second lock)."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site not in ("same-origin", "none")
    origin = request.headers.get("origin")
    return origin is not None and origin.rstrip("/") != str(request.base_url).rstrip("/")


def _login(event_id: str = "", error: str = "", status: int = 200) -> Response[str]:
    return html(render("login.html", event_id=event_id, error=error), status)


def _refused(request: Request[Any, Any, Any], event_id: str, exc: ServiceError) -> Response[str]:
    """A page the token does not open: the sign-in form (an htmx request is sent there whole)."""
    if request.headers.get("hx-request"):
        return html("", 401, {"HX-Redirect": f"/host/?event={event_id}"})
    return _login(event_id, exc.message, 403 if exc.__class__.__name__ == "Forbidden" else 404)


def page_error(request: Request[Any, Any, Any], exc: Exception) -> Response[str]:
    """Any failure on the host's pages, in words and as HTML (never raw problem+json in the host's browser): a
    short fragment for an htmx action (the page shows it in its error bar), else a page that says what happened
    and, while the storage is down, retries by itself."""
    problem = problem_for(exc)
    down = problem.slug == "store-unavailable"
    headers = {key: value for key, value in problem.headers.items() if key.lower() == "retry-after"}
    if request.headers.get("hx-request"):
        text = "The storage is down: nothing can be read or saved right now. Try again in a moment." if down \
            else problem.detail
        return html(f'<p class="problem" data-status="{problem.status}">{escape(text)}</p>', problem.status, headers)
    return html(render("error.html", problem=problem, down=down, path=request.url.path), problem.status, headers)


async def store_answers(svc: Services) -> bool:
    """Whether the storage answers a ping within PING_TIMEOUT (what the dashboard's "live" sign stands on)."""
    try:
        await asyncio.wait_for(svc.store.ping(), PING_TIMEOUT)
    except (StoreUnavailable, TimeoutError, OSError):
        return False
    return True


class HostPages(Controller):
    path = "/host"
    include_in_schema = False
    exception_handlers = {Exception: page_error}  # noqa: RUF012 - litestar reads a class attribute

    @get("/")
    async def login_page(self, event: str = "") -> Response[str]:
        """Sign in: the event's code and its host token."""
        return _login(event)

    @post("/login")
    async def login(self, request: Request[Any, Any, Any], state: State) -> Response[Any]:
        """Check the token against the event and keep it in the event's cookie."""
        form = await request.form()
        event_id, token = str(form.get("event_id", "")).strip().upper(), str(form.get("token", "")).strip()
        if _cross_site(request):
            return _login(event_id, "sign in from this page", 403)
        try:
            event, _ = await hosting.event_for(services(state), event_id, token)
        except ServiceError as exc:
            return _login(event_id, exc.message, 403)
        cookie = Cookie(key=COOKIE, value=token, path=f"/host/{event.event_id}", httponly=True, samesite="strict",
                        secure=request.url.scheme == "https", max_age=COOKIE_SECONDS)
        return Redirect(f"/host/{event.event_id}", status_code=303, cookies=[cookie])

    @post("/{event_id:str}/logout")
    async def logout(self, event_id: str) -> Response[Any]:
        cookie = Cookie(key=COOKIE, value="", path=f"/host/{event_id}", max_age=0, httponly=True, samesite="strict")
        return Redirect(f"/host/?event={event_id}", status_code=303, cookies=[cookie])

    @get("/{event_id:str}")
    async def dashboard(self, request: Request[Any, Any, Any], state: State, event_id: str) -> Response[str]:
        """Every table of the event, live, in the view the address asks for (alerts first by default)."""
        svc = services(state)
        try:
            board = await hosting.board(svc, event_id, _token(request))
        except ServiceError as exc:
            return _refused(request, event_id, exc)
        view = view_of(dict(request.query_params))
        tables = board["tables"]
        return html(render("dashboard.html", board=board, base=f"/host/{board['event_id']}", view=view,
                           tables=arranged(tables, view), filtered=bool(tables), counts=counts(tables),
                           columns=COLUMNS, phases=PHASES, presets=PRESETS, sorts=_sorts(view), statuses=STATUSES,
                           densities=DENSITIES,
                           idle_minutes=svc.settings.alert_idle // 60, stuck_minutes=svc.settings.alert_stuck // 60))

    @get("/{event_id:str}/rows")
    async def rows(self, request: Request[Any, Any, Any], state: State, event_id: str) -> Response[str]:
        """The board for the view asked (htmx: filtering, sorting, density, the half-minute refresh), the counters
        and the sort picker; the address bar is set to the view (`HX-Replace-Url`), so a reload keeps it."""
        try:
            board = await hosting.board(services(state), event_id, _token(request))
        except ServiceError as exc:
            return _refused(request, event_id, exc)
        view = view_of(dict(request.query_params))
        base = f"/host/{board['event_id']}"
        body = render("board.html", tables=arranged(board["tables"], view), filtered=bool(board["tables"]),
                      base=base, columns=COLUMNS, view=view)
        oob = (render("sort.html", view=view, sorts=_sorts(view), oob=True)
               + f'<div id="counts" class="counts-box" hx-swap-oob="true">'
                 f'{render("counts.html", counts=counts(board["tables"]))}</div>')
        query = view_query(view)
        return html(body + oob, headers={"HX-Replace-Url": base + (f"?{query}" if query else "")})

    @get("/{event_id:str}/stream")
    async def stream(self, request: Request[Any, Any, Any], state: State, event_id: str) -> Response[Any]:
        """Server-sent events: each table's tile (`tile-<code>`) and row (`t-<code>`) as it changes, the counters
        (`counts`), new tables (`added`), `reorder` when a table's alerts changed, and `beat` every 2 s saying
        whether the storage answers (`ok` or `down`). While the storage is down the stream only beats, and it ends
        when the storage is back, so the page follows the event afresh."""
        svc = services(state)
        try:
            watch = await hosting.open_event_watch(svc, event_id, _token(request))
            known = {sid for sid, _ in await svc.store.event_tables(event_id)}
        except ServiceError as exc:
            return _refused(request, event_id, exc)
        except StoreUnavailable:
            return ServerSentEvent(_down_stream(svc), headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        return ServerSentEvent(_rows_stream(svc, event_id, watch, known),
                               headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @get("/{event_id:str}/beat")
    async def beat(self, state: State, event_id: str) -> Response[str]:
        """Whether the storage answers (`ok`, or 503 `down`): what the page asks while its stream is away."""
        up = await store_answers(services(state))
        return html("ok" if up else "down", 200 if up else 503, {"Cache-Control": "no-store"})

    async def _act(self, request: Request[Any, Any, Any], state: State, event_id: str, session_id: str,
                   action: str) -> Response[str]:
        """Pause, resume, close or clear a call, then the table's tile (or row) as it is now. A refusal other
        than the sign-in's, or the storage down, is an error the page shows (page_error)."""
        svc = services(state)
        token = _token(request)
        if _cross_site(request):
            return html('<p class="problem">Refused: this action must come from the dashboard itself.</p>', 403)
        try:
            if action == "close":
                await hosting.close_table(svc, session_id, token)
            elif action == "clear-call":
                await hosting.clear_host_call(svc, session_id, token)
            else:
                await hosting.pause_table(svc, session_id, token, action == "pause")
            table = await hosting.table_of_event(svc, event_id, session_id, token)
        except (Unauthenticated, Forbidden) as exc:
            return _refused(request, event_id, exc)
        template = "tile.html" if request.query_params.get("as") == "tile" else "row.html"
        return html(render(template, t=table, base=f"/host/{event_id}"))

    @post("/{event_id:str}/tables/{session_id:str}/clear-call")
    async def clear_call(self, request: Request[Any, Any, Any], state: State, event_id: str,
                         session_id: str) -> Response[str]:
        """The host went over to the table that called: its call is cleared."""
        return await self._act(request, state, event_id, session_id, "clear-call")

    @post("/{event_id:str}/tables/{session_id:str}/pause")
    async def pause(self, request: Request[Any, Any, Any], state: State, event_id: str,
                    session_id: str) -> Response[str]:
        return await self._act(request, state, event_id, session_id, "pause")

    @post("/{event_id:str}/tables/{session_id:str}/resume")
    async def resume(self, request: Request[Any, Any, Any], state: State, event_id: str,
                     session_id: str) -> Response[str]:
        return await self._act(request, state, event_id, session_id, "resume")

    @post("/{event_id:str}/tables/{session_id:str}/close")
    async def close(self, request: Request[Any, Any, Any], state: State, event_id: str,
                    session_id: str) -> Response[str]:
        return await self._act(request, state, event_id, session_id, "close")

    async def _card(self, request: Request[Any, Any, Any], state: State, event_id: str, session_id: str,
                    role: str) -> Response[str]:
        svc = services(state)
        token = _token(request)
        if _cross_site(request):
            return html("", 403)
        try:
            event, _ = await hosting.event_for(svc, event_id, token)
            table = await hosting.table_of_event(svc, event_id, session_id, token)
            issued = await hosting.issue_token(svc, session_id, token, role, str(request.base_url))
        except ServiceError as exc:
            return _refused(request, event_id, exc)
        card = {"session_id": session_id, "token": issued["token"], "link": issued["join_link"], "role": role,
                "title": f"Table {table['number']}" + (" · spectator" if role == "spectator" else "")}
        return _cards(event.name, svc, str(request.base_url), [card])

    @post("/{event_id:str}/tables/{session_id:str}/card")
    async def new_card(self, request: Request[Any, Any, Any], state: State, event_id: str,
                       session_id: str) -> Response[str]:
        """A new player token on a new card (the old card stops working): a lost or leaked card is replaced."""
        return await self._card(request, state, event_id, session_id, "player")

    @post("/{event_id:str}/tables/{session_id:str}/spectator")
    async def spectator_card(self, request: Request[Any, Any, Any], state: State, event_id: str,
                             session_id: str) -> Response[str]:
        """A read-only token on a card, for a judge or a stream (a new one replaces the last)."""
        return await self._card(request, state, event_id, session_id, "spectator")

    @post("/{event_id:str}/tables")
    async def open_tables(self, request: Request[Any, Any, Any], state: State, event_id: str) -> Response[str]:
        """Open N tables at once and show their join cards, ready to print (their tokens are shown only here)."""
        svc = services(state)
        if _cross_site(request):
            return html("", 403)
        form = await request.form()
        try:
            posse = str(form.get("posse", "")).strip()
            heroes = read_posse(posse) if posse else preset_posse(str(form.get("preset", "")))
            count = int(str(form.get("count", "1")))
        except ValueError as exc:
            return html(render("login.html", event_id=event_id, error=str(exc)), 422)
        try:
            event, _ = await hosting.event_for(svc, event_id, _token(request))
            made = await hosting.add_tables(svc, event_id, _token(request), {"count": count, "heroes": heroes},
                                            str(request.base_url))
        except (ServiceError, RulesError) as exc:
            if isinstance(exc, ServiceError):
                return _refused(request, event_id, exc)
            return html(render("login.html", event_id=event_id, error=exc.message), 422)
        cards = [{"session_id": t["session_id"], "token": t["token"], "link": t["join_link"], "role": "player",
                  "title": f"Table {t['number']}"} for t in made["tables"]]
        return _cards(event.name, svc, str(request.base_url), cards)

    @get("/{event_id:str}/summaries")
    async def summaries(self, request: Request[Any, Any, Any], state: State, event_id: str) -> Response[str]:
        """After the event: a readable summary per posse, printable."""
        try:
            export = await hosting.export_event(services(state), event_id, _token(request))
        except ServiceError as exc:
            return _refused(request, event_id, exc)
        return html(render("summaries.html", export=export, base=f"/host/{event_id}"))

    @get("/{event_id:str}/export.json")
    async def export(self, request: Request[Any, Any, Any], state: State, event_id: str) -> Response[Any]:
        """After the event: every table's whole log and summary as one JSON file."""
        try:
            export = await hosting.export_event(services(state), event_id, _token(request))
        except ServiceError as exc:
            return _refused(request, event_id, exc)
        return Response(json.dumps(export, indent=1), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{event_id}.json"'})


def _cards(event_name: str, svc: Services, requested: str, cards: list[dict[str, Any]]) -> Response[str]:
    for card in cards:
        card["qr"] = qr_svg(card["link"])
    return html(render("cards.html", event_name=event_name, cards=cards,
                       server=hosting.public_server(svc, requested)))


def _sorts(view: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The sort picker's choices, with the one a column header chose when it is not among them."""
    if view["sort"] in dict(SORTS):
        return SORTS
    column, _, direction = view["sort"].partition(":")
    label = dict(COLUMNS).get(column, column) or column
    return (*SORTS, (view["sort"], f"{label} ({'the other way' if direction else 'ascending'})"))


def _beat(up: bool) -> ServerSentEventMessage:
    return ServerSentEventMessage(data="ok" if up else "down", event="beat")


async def _down_stream(svc: Services) -> AsyncIterator[ServerSentEventMessage]:
    """While the storage is down: `beat: down` every BEAT_SECONDS; ends once it answers (the page reconnects)."""
    yield ServerSentEventMessage(data=None, comment="the storage is down", retry=2000)
    while not await store_answers(svc):
        yield _beat(False)
        await asyncio.sleep(BEAT_SECONDS)
    yield _beat(True)


def _alarm_key(table: dict[str, Any]) -> tuple[str, ...]:
    return tuple(sorted(a["kind"] for a in table["alerts"]))


async def _rows_stream(svc: Services, event_id: str, watch: AsyncIterable[dict[str, Any]],
                       known: set[str]) -> AsyncIterator[ServerSentEventMessage]:
    """Each table's tile and row as it changes, the counters after a burst, `added` when a table joins the event,
    `reorder` when a table's alerts changed (the board's order may be stale), and a `beat` every BEAT_SECONDS."""
    latest: dict[str, dict[str, Any]] = {}
    base = f"/host/{event_id}"
    beaten = time.monotonic()
    was_down = False
    yield ServerSentEventMessage(data=None, comment="following the event", retry=2000)
    yield _beat(await store_answers(svc))
    try:
        async for paced_table in paced(watch, keep_alive=BEAT_SECONDS):
            if paced_table is None or time.monotonic() - beaten >= BEAT_SECONDS:
                up = await store_answers(svc)
                beaten = time.monotonic()
                yield _beat(up)
                if up and was_down:  # back: end, so the page follows the event afresh (the pub/sub was lost)
                    return
                was_down = not up
            if paced_table is None:
                continue
            table, more_waiting = paced_table
            sid = table["session_id"]
            before = latest.get(sid)
            latest[sid] = table
            if sid not in known:
                known.add(sid)
                yield ServerSentEventMessage(data=sid, event="added")
            else:
                yield ServerSentEventMessage(data=one_line(render("tile.html", t=table, base=base)),
                                             event=f"tile-{sid}")
                yield ServerSentEventMessage(data=one_line(render("row.html", t=table, base=base)), event=f"t-{sid}")
                if before is not None and _alarm_key(before) != _alarm_key(table):
                    yield ServerSentEventMessage(data=sid, event="reorder")
            if not more_waiting:  # the burst is over: the counters once
                yield ServerSentEventMessage(data=one_line(render("counts.html",
                                                                  counts=counts(list(latest.values())))),
                                             event="counts")
    except StoreUnavailable:  # the storage went away under the stream: beat "down" until it is back, then end
        async for message in _down_stream(svc):
            yield message
