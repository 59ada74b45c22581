"""REST door for hosting an event: events and their host tokens, opening tables by the dozen, the event at a glance
and live, the export; and on a table, its tokens (rotate, revoke) and the host's pause and resume."""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator
from typing import Annotated, Any

from litestar import Controller, Request, delete, get, post
from litestar.datastructures import State
from litestar.params import Parameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.response.base import ASGIResponse

from services import hosting
from services.api.rest.common import (
    KEEP_ALIVE,
    SECURITY,
    answer,
    bearer,
    json_body,
    paced,
    require_bearer,
    services,
)
from services.api.rest.docs import EVENT_STREAM, documented, example_hero
from services.api.rest.operations import _no_content
from services.contract.envelopes import SESSION_ID_PATTERN

SessionId = Annotated[str, Parameter(description="the table's join code, e.g. K7QX2M", max_length=128,
                                     pattern=SESSION_ID_PATTERN)]
EventId = Annotated[str, Parameter(description="the event's code, e.g. EV7QX2MK4A", max_length=128,
                                   pattern=SESSION_ID_PATTERN)]
TokenRole = Annotated[str, Parameter(description="`player` (writes the table) or `spectator` (reads it)",
                                     pattern="^(player|spectator)$")]
EXAMPLE_LINK = "brimstone://join?server=https%3A%2F%2Fbrimstone.example&code=K7QX2M&token=t0k3n"
EXAMPLE_SUMMARY: dict[str, Any] = {
    "session_id": "K7QX2M", "number": 1, "status": "playing", "version": 12, "last_activity": 1767225600.0,
    "posse": [{"id": "hanzo", "name": "Hanzo", "level": 1, "health": 8, "max_health": 10, "sanity": 10,
               "max_sanity": 10, "knocked_out": False, "dead": False}],
    "where": {"phase": "travel", "text": "Road to a Medium Town: hazard 2 of 3 (11 Possession)", "hazards_done": 1,
              "hazards_total": 3, "hazard": "11 Possession", "town": None, "day": None, "turn": None,
              "mission": None, "mission_status": None, "party": None, "darkness": None, "track_length": None},
    "waiting_for": None, "host_call": None, "alerts": []}


def _server(request: Request[Any, Any, Any]) -> str:
    return str(request.base_url)


class TableHostHandlers:
    """A table's tokens and its host's pause/resume, mixed into the sessions controller (one controller per path)."""

    @post(
        "/{session_id:str}/tokens/{role:str}",
        operation_id="issueToken",
        summary="Issue a table token (rotate)",
        status_code=200,
        security=SECURITY,
        before_request=require_bearer,
        operation_class=documented(
            status=200, response="TableToken", errors=(401, 403, 404, 422),
            description="A new `player` token (the old one stops working at once: a lost or leaked token is "
                        "replaced) or the `spectator` token (read-only, for a judge or a stream). The table's "
                        "player token, or its event's host token (or the admin's).",
            example={"session_id": "K7QX2M", "role": "spectator", "token": "t0k3n", "join_link": EXAMPLE_LINK}),
    )
    async def issue_token(self, request: Request[Any, Any, Any], state: State, session_id: SessionId,
                          role: TokenRole) -> ASGIResponse:
        """Rotate the player token or issue the spectator token; shown once."""
        return answer(await hosting.issue_token(services(state), session_id, bearer(request), role,
                                                _server(request)))

    @delete(
        "/{session_id:str}/tokens/{role:str}",
        operation_id="revokeToken",
        summary="Revoke a table token",
        status_code=204,
        security=SECURITY,
        before_request=require_bearer,
        operation_class=_no_content("Revoked: the token opens nothing any more (live subscriptions with it end). "
                                    "The spectator token: the table or its host; the player token: the host only "
                                    "(nobody writes until it issues a new one).", (401, 403, 404, 422)),
    )
    async def revoke_token(self, request: Request[Any, Any, Any], state: State, session_id: SessionId,
                           role: TokenRole) -> None:
        """Revoke the spectator token (the table or its host) or the player token (its host)."""
        await hosting.revoke_token(services(state), session_id, bearer(request), role)

    @post(
        "/{session_id:str}/pause",
        operation_id="pauseSession",
        summary="Pause a table (event host)",
        status_code=200,
        security=SECURITY,
        before_request=require_bearer,
        operation_class=documented(
            status=200, response="TableStanding", errors=(401, 403, 404, 422),
            description="Readable, not writable (409 `paused`) until resumed. The event's host (or the admin).",
            example={"session_id": "K7QX2M", "status": "paused", "paused_at": 1767225600.0}),
    )
    async def pause(self, request: Request[Any, Any, Any], state: State, session_id: SessionId) -> ASGIResponse:
        """Stop the table's writes for a while (a break, a rules question)."""
        return answer(await hosting.pause_table(services(state), session_id, bearer(request), True))

    @post(
        "/{session_id:str}/resume",
        operation_id="resumeSession",
        summary="Resume a paused table (event host)",
        status_code=200,
        security=SECURITY,
        before_request=require_bearer,
        operation_class=documented(
            status=200, response="TableStanding", errors=(401, 403, 404, 422),
            description="The table takes commands again. The event's host (or the admin).",
            example={"session_id": "K7QX2M", "status": "playing", "paused_at": None}),
    )
    async def resume(self, request: Request[Any, Any, Any], state: State, session_id: SessionId) -> ASGIResponse:
        """Let the table play again."""
        return answer(await hosting.pause_table(services(state), session_id, bearer(request), False))


    @post(
        "/{session_id:str}/host-call",
        operation_id="callHost",
        summary="Call the event's host over (the table)",
        status_code=200,
        security=SECURITY,
        before_request=require_bearer,
        operation_class=documented(
            status=200, response="HostCallStanding", request="CallHostRequest", request_required=False,
            errors=(401, 403, 404, 409, 422),
            description="A raised hand: the host's dashboard shows the call on the table and as a `host_called` "
                        "alert until cleared. The table's player token; calling again changes the reason and keeps "
                        "the time of the first call. 409 `archived` on a closed table.",
            request_example={"reason": "rules question"},
            example={"session_id": "K7QX2M", "host_call": {"at": 1767225600.0, "reason": "rules question"}}),
    )
    async def call_host(self, request: Request[Any, Any, Any], state: State, session_id: SessionId) -> ASGIResponse:
        """The table asks for the host (a rules question, a lost card, a break)."""
        return answer(await hosting.call_host(services(state), session_id, bearer(request),
                                              await json_body(request, default={})))

    @delete(
        "/{session_id:str}/host-call",
        operation_id="clearHostCall",
        summary="Clear the table's call for the host",
        status_code=200,
        security=SECURITY,
        before_request=require_bearer,
        operation_class=documented(
            status=200, response="HostCallStanding", errors=(401, 403, 404, 422),
            description="The host went over (or the table no longer needs it). The event's host, the admin or the "
                        "table's player token; clearing a table with no call is not an error.",
            example={"session_id": "K7QX2M", "host_call": None}),
    )
    async def clear_host_call(self, request: Request[Any, Any, Any], state: State,
                              session_id: SessionId) -> ASGIResponse:
        """Lower the table's raised hand."""
        return answer(await hosting.clear_host_call(services(state), session_id, bearer(request)))


async def _event_stream(board: AsyncIterable[dict[str, Any]]) -> AsyncIterator[ServerSentEventMessage]:
    """The event's table summaries as server-sent events (`event: table`), with keep-alive comments."""
    yield ServerSentEventMessage(data=None, comment="following the event", retry=2000)
    async for paced_summary in paced(board):
        if paced_summary is None:
            yield KEEP_ALIVE
            continue
        summary, _ = paced_summary
        yield ServerSentEventMessage(data=json.dumps(summary, separators=(",", ":")), event="table")


class EventsController(Controller):
    path = "/v1/events"
    tags = ["events"]  # noqa: RUF012 - litestar reads a class attribute

    @post(
        "/",
        operation_id="openEvent",
        summary="Open an event (admin)",
        status_code=201,
        security=SECURITY,
        before_request=require_bearer,
        operation_class=documented(
            status=201, response="EventCreated", request="CreateEventRequest", errors=(401, 403),
            description="The event's code and its host token (shown once). Needs the deployment's admin token.",
            request_example={"name": "Brimstone Night"}, headers=("Location",),
            example={"event_id": "EV7QX2MK4A", "name": "Brimstone Night", "created_at": 1767225600.0,
                     "host_token": "h0st-t0k3n"}),
    )
    async def open_event(self, request: Request[Any, Any, Any], state: State) -> ASGIResponse:
        """A new event with its own host token: many events share one deployment, none sees another's tables."""
        created = await hosting.create_event(services(state), bearer(request), await json_body(request))
        return answer(created, 201, {"Location": f"/v1/events/{created['event_id']}"})

    @get(
        "/",
        operation_id="listHostedEvents",
        summary="List the events (admin)",
        security=SECURITY,
        before_request=require_bearer,
        operation_class=documented(status=200, response="EventList", errors=(401, 403, 422),
                                   description="Event codes, paged with `limit` and `after`.",
                                   example={"events": ["EV7QX2MK4A"], "next_after": None}),
    )
    async def list_events(
        self, request: Request[Any, Any, Any], state: State,
        limit: Annotated[int, Parameter(ge=1, le=1000, description="page size")] = 100,
        after: Annotated[str | None, Parameter(max_length=128, required=False,
                                               description="the last code of the previous page")] = None,
    ) -> ASGIResponse:
        """Every event on this deployment (the admin's token)."""
        return answer(await hosting.list_events(services(state), bearer(request), limit=limit, after=after))

    @get(
        "/{event_id:str}",
        operation_id="getEvent",
        summary="The event at a glance",
        security=SECURITY,
        before_request=require_bearer,
        operation_class=documented(
            status=200, response="EventBoard", errors=(401, 403, 404, 422),
            description="Every table of the event: posse, where it is, last activity, alerts. The event's host "
                        "token (or the admin's).",
            example={"event_id": "EV7QX2MK4A", "name": "Brimstone Night", "created_at": 1767225600.0,
                     "now": 1767226000.0, "tables": [EXAMPLE_SUMMARY]}),
    )
    async def get_event(self, request: Request[Any, Any, Any], state: State, event_id: EventId) -> ASGIResponse:
        """The host's dashboard as data."""
        return answer(await hosting.board(services(state), event_id, bearer(request)))

    @post(
        "/{event_id:str}/tables",
        operation_id="addEventTables",
        summary="Open tables for the event",
        status_code=201,
        security=SECURITY,
        before_request=require_bearer,
        operation_class=documented(
            status=201, response="TablesCreated", request="CreateTablesRequest", errors=(401, 403, 404, 409),
            description="`count` tables at once, numbered after the event's last, each with the posse given. The "
                        "answer holds each table's player token (shown once) and join link: print the join cards "
                        "from it (or from the dashboard, /host/{event_id}).",
            request_example=lambda: {"count": 40, "heroes": [example_hero()]},
            example={"event_id": "EV7QX2MK4A", "tables": [{"session_id": "K7QX2M", "number": 1, "token": "t0k3n",
                                                           "join_link": EXAMPLE_LINK}]}),
    )
    async def add_tables(self, request: Request[Any, Any, Any], state: State, event_id: EventId) -> ASGIResponse:
        """Seat a room: open the event's tables in one request."""
        return answer(await hosting.add_tables(services(state), event_id, bearer(request), await json_body(request),
                                               _server(request)), 201)

    @get(
        "/{event_id:str}/changes",
        operation_id="streamEvent",
        summary="Follow the event (server-sent events)",
        security=SECURITY,
        before_request=require_bearer,
        operation_class=documented(
            status=200, response="TableSummary", errors=(401, 403, 404, 422), media_type=EVENT_STREAM,
            description="A `text/event-stream`: every table of the event once (`event: table`, `data:` a "
                        "TableSummary), then each table again whenever it changes (a version written, paused, "
                        "resumed, closed, a token rotated) or joins the event. A comment line every 15 s keeps "
                        "the connection open; the stream ends when the host token is rotated."),
    )
    async def stream(self, request: Request[Any, Any, Any], state: State, event_id: EventId) -> ServerSentEvent:
        """The whole event live: what the host's dashboard follows."""
        board = await hosting.open_event_watch(services(state), event_id, bearer(request))
        return ServerSentEvent(_event_stream(board), headers={"Cache-Control": "no-store",
                                                              "X-Accel-Buffering": "no"})

    @post(
        "/{event_id:str}/host-token",
        operation_id="rotateHostToken",
        summary="Rotate the event's host token",
        status_code=200,
        security=SECURITY,
        before_request=require_bearer,
        operation_class=documented(
            status=200, response="HostToken", errors=(401, 403, 404, 422),
            description="A new host token; the old one stops working at once (its live streams end).",
            example={"event_id": "EV7QX2MK4A", "host_token": "n3w-h0st-t0k3n"}),
    )
    async def rotate(self, request: Request[Any, Any, Any], state: State, event_id: EventId) -> ASGIResponse:
        """Replace the host token (a leaked one, or at a change of host)."""
        return answer(await hosting.rotate_host_token(services(state), event_id, bearer(request)))

    @get(
        "/{event_id:str}/export",
        operation_id="exportEvent",
        summary="Export every table (after the event)",
        security=SECURITY,
        before_request=require_bearer,
        operation_class=documented(
            status=200, response="EventExport", errors=(401, 403, 404, 422),
            description="Every table's whole log and a readable summary of its posse's evening, as JSON."),
    )
    async def export(self, request: Request[Any, Any, Any], state: State, event_id: EventId) -> ASGIResponse:
        """The evening, kept: each table's log and summary."""
        body = await hosting.export_event(services(state), event_id, bearer(request))
        return answer(body, headers={"Content-Disposition": f'attachment; filename="{event_id}.json"'})
