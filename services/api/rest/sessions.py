"""REST door for tables: create, read, command, events, undo, legal commands, live changes, and the host's list.

Each handler parses, calls one use case and returns; rules live in shared_rules, the flow in use_cases, the HTTP
conventions (ETag, If-None-Match, If-Match, Link, server-sent events) in common.py.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, get, post
from litestar.datastructures import State
from litestar.params import HeaderParameter, Parameter, QueryParameter
from litestar.response import ServerSentEvent
from litestar.response.base import ASGIResponse

from services import use_cases
from services.api.rest.common import (
    PUBLIC,
    SECURITY,
    answer,
    bearer,
    change_stream,
    events_links,
    if_match_versions,
    json_body,
    read_answer,
    require_bearer,
    services,
)
from services.api.rest.docs import (
    EVENT_STREAM,
    EXAMPLE_EVENT,
    EXAMPLE_LEGAL,
    documented,
    example_commands,
    example_hero,
    example_view,
)
from services.api.rest.hosting import TableHostHandlers
from services.api.rest.operations import TableOwnerHandlers
from services.contract.envelopes import MAX_VERSION, SESSION_ID_PATTERN

SessionId = Annotated[str, Parameter(description="the table's join code, e.g. K7QX2M", max_length=128,
                                     pattern=SESSION_ID_PATTERN)]
ExpectedVersion = Annotated[
    int | None,
    QueryParameter(name="expected_version", ge=0, le=MAX_VERSION, required=False, schema_extra={"minimum": 0},
                   description="apply only if the table is still at this version (else 409 stale-version); "
                               "without it the command is applied to the latest version"),
]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(name="Idempotency-Key", min_length=1, max_length=256, required=False,
                    description="a retry with the same key is answered with the first response and applied once"),
]
IfMatch = Annotated[
    str | None,
    HeaderParameter(name="If-Match", required=False, max_length=1000,
                    description='apply only if the table\'s ETag (its version, e.g. "7") is one of these, or `*` '
                                "(else 412 precondition-failed, nothing written): the HTTP form of expected_version"),
]
IfNoneMatch = Annotated[
    str | None,
    HeaderParameter(name="If-None-Match", required=False, max_length=1000,
                    description="the ETag you hold: if the table has not changed, the answer is 304 without a body"),
]
REPLAYED = "Idempotent-Replayed"
_READ_HEADERS = ("ETag",)
_WRITE_HEADERS = ("ETag", REPLAYED)


def write_answer(result: use_cases.Written) -> ASGIResponse:
    """A write's answer: its body, the new version's ETag, and Idempotent-Replayed on a replay (the command lane
    answers with it too)."""
    headers = {"ETag": f'"{result.body["version"]}"'}
    if result.replayed:
        headers[REPLAYED] = "true"
    return answer(result.body, headers=headers)


class SessionsController(TableOwnerHandlers, TableHostHandlers, Controller):
    path = "/v1/sessions"
    tags = ["sessions"]  # noqa: RUF012 - litestar reads a class attribute

    @post(
        "/",
        operation_id="createSession",
        security=PUBLIC,
        summary="Open a table",
        status_code=201,
        operation_class=documented(public=True,
            status=201, response="SessionCreated", request="CreateSessionRequest",
            description="The table's join code (`session_id`), its table token (shown once) and its first state.",
            request_example=lambda: {"heroes": [example_hero()], "options": {"dice": "server"}, "seed": 7},
            errors=(409,),
            example=lambda: example_view(token="t0k3n-shown-once"), headers=("Location", "ETag"),
        ),
    )
    async def create_session(self, request: Request[Any, Any, Any], state: State) -> ASGIResponse:
        """Open a table for a posse of 1-6 heroes with rule options, an optional seed and content pack."""
        created = await use_cases.create_session(services(state), await json_body(request))
        return answer(created, 201, {"Location": f"/v1/sessions/{created['session_id']}", "ETag": '"0"'})

    @get(
        "/",
        operation_id="listSessions",
        summary="List tables (event host)",
        security=SECURITY,
        before_request=require_bearer,  # 401 before any parameter is read
        operation_class=documented(status=200, response="SessionList", errors=(401, 403, 422),
                                   description="Join codes of the tables, in order.",
                                   example={"sessions": ["K7QX2M", "M3RT9A"], "next_after": None}),
    )
    async def list_sessions(
        self,
        request: Request[Any, Any, Any],
        state: State,
        limit: Annotated[int, Parameter(ge=1, le=1000, description="page size")] = 100,
        after: Annotated[str | None, Parameter(max_length=128, required=False,
                                               description="list ids after this one")] = None,
    ) -> ASGIResponse:
        """Every table's join code; needs the event host's token (BRIMSTONE_HOST_TOKEN), never a table token."""
        return answer(await use_cases.list_sessions(services(state), bearer(request), limit=limit, after=after))

    @get(
        "/{session_id:str}",
        operation_id="getSession",
        summary="Read a table",
        security=SECURITY,
        before_request=require_bearer,  # 401 before any parameter is read
        operation_class=documented(status=200, response="SessionView", errors=(401, 403, 404, 422),
                                   description="The latest version: state, pending prompt, legal commands. The ETag "
                                               "is the version: send it in If-None-Match to poll cheaply.",
                                   example=example_view, headers=_READ_HEADERS, not_modified=True),
    )
    async def get_session(self, request: Request[Any, Any, Any], state: State, session_id: SessionId,
                          if_none_match: IfNoneMatch = None) -> ASGIResponse:
        """The table's latest version with its state, the prompt waiting (if any) and the legal commands."""
        view = await use_cases.get_session(services(state), session_id, bearer(request))
        return read_answer(view, f'"{view["version"]}"', if_none_match)

    @post(
        "/{session_id:str}/commands",
        operation_id="postCommand",
        summary="Apply a command",
        status_code=200,
        security=SECURITY,
        before_request=require_bearer,  # 401 before any parameter is read
        operation_class=documented(
            status=200, response="CommandResult", request="CommandInput", errors=(401, 403, 404, 409, 412),
            description="The version the command produced (`based_on` is the one it was applied to), its events "
                        "and the new state. A replayed Idempotency-Key answers the first response again, with the "
                        "header `Idempotent-Replayed: true`.",
            request_examples=example_commands,
            example=lambda: example_view(based_on=0, events=[EXAMPLE_EVENT]) | {"version": 1}, headers=_WRITE_HEADERS,
        ),
    )
    async def post_command(
        self,
        request: Request[Any, Any, Any],
        state: State,
        session_id: SessionId,
        expected_version: ExpectedVersion = None,
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> ASGIResponse:
        """Apply any engine command (`{"type": "roll_hazard", "dice": [[3, 5]]}`; `dice` optional)."""
        return write_answer(await use_cases.submit_command(
            services(state), session_id, bearer(request), await json_body(request),
            expected_version=expected_version, idempotency_key=idempotency_key, if_match=if_match_versions(if_match)))

    @get(
        "/{session_id:str}/events",
        operation_id="listEvents",
        summary="Page through the log",
        security=SECURITY,
        before_request=require_bearer,  # 401 before any parameter is read
        operation_class=documented(
            status=200, response="EventPage", errors=(401, 403, 404, 422),
            description="Log entries with version > `after`, oldest first; `next_after` (and the `Link` header's "
                        "`rel=\"next\"`) continues the paging.",
            example={"session_id": "K7QX2M", "version": 1, "next_after": None, "entries": [
                {"version": 1, "command": {"type": "choose_town_size", "size": "medium", "dice": []},
                 "events": [EXAMPLE_EVENT], "at": 1767225600.0}]},
            headers=("ETag", "Link"), not_modified=True,
        ),
    )
    async def list_events(
        self,
        request: Request[Any, Any, Any],
        state: State,
        session_id: SessionId,
        after: Annotated[int, Parameter(ge=-1, le=MAX_VERSION, description="entries after this version (-1: from "
                                                                           "the creation)")] = -1,
        limit: Annotated[int, Parameter(ge=1, le=use_cases.MAX_EVENTS_PAGE, description="page size")] = 50,
        if_none_match: IfNoneMatch = None,
    ) -> ASGIResponse:
        """The append-only log: each entry is a command (or the creation, or an undo) and its events."""
        page = await use_cases.list_events(services(state), session_id, bearer(request), after=after, limit=limit)
        links = events_links(f"/v1/sessions/{session_id}/events", page["next_after"], limit)
        return read_answer(page, f'"{page["version"]}"', if_none_match, {"Link": links})

    @get(
        "/{session_id:str}/changes",
        operation_id="streamChanges",
        summary="Follow a table (server-sent events)",
        security=SECURITY,
        before_request=require_bearer,  # 401 before any parameter is read
        operation_class=documented(
            status=200, response="SessionChange", errors=(401, 403, 404, 422), media_type=EVENT_STREAM,
            description="A `text/event-stream` of every version written after `after` (or `Last-Event-ID`; by "
                        "default the current version), in order and without gaps: each message is `event: change`, "
                        "`id: <version>` and `data:` a SessionChange as JSON. A comment line every 15 s keeps the "
                        "connection open. Reconnect with `Last-Event-ID` to resume where you were.",
        ),
    )
    async def stream_changes(
        self,
        request: Request[Any, Any, Any],
        state: State,
        session_id: SessionId,
        after: Annotated[int | None, Parameter(ge=-1, le=MAX_VERSION, required=False,
                                               description="send the versions after this one first")] = None,
        last_event_id: Annotated[int | None, HeaderParameter(name="Last-Event-ID", ge=-1, le=MAX_VERSION,
                                                             required=False,
                                                             description="the last version received (set by "
                                                                         "EventSource when it reconnects)")] = None,
    ) -> ServerSentEvent:
        """Every new version of the table as server-sent events: no GraphQL library needed to follow a table."""
        changes = await use_cases.open_watch(services(state), session_id, bearer(request),
                                             after_version=last_event_id if last_event_id is not None else after)
        return ServerSentEvent(change_stream(changes), headers={"Cache-Control": "no-store"})

    @post(
        "/{session_id:str}/undo",
        operation_id="undoCommands",
        summary="Undo the last N versions",
        status_code=200,
        security=SECURITY,
        before_request=require_bearer,  # 401 before any parameter is read
        operation_class=documented(
            status=200, response="CommandResult", request="UndoRequest", request_required=False,
            errors=(401, 403, 404, 409, 412),
            description="The state of version v-N written again as a new version (the log stays append-only).",
            request_example={"steps": 1},
            example=lambda: example_view(based_on=1, events=[
                {"type": "undone", "text": "Undid 1 command: back to version 0", "hero": None,
                 "rule": use_cases.UNDO_RULE, "changes": [], "roll": None, "bandit": None,
                 "facts": []}]) | {"version": 2},
            headers=_WRITE_HEADERS,
        ),
    )
    async def undo(
        self,
        request: Request[Any, Any, Any],
        state: State,
        session_id: SessionId,
        expected_version: ExpectedVersion = None,
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> ASGIResponse:
        """Go back `steps` versions (default 1) exactly, as a new version; an undo can itself be undone."""
        return write_answer(await use_cases.undo(
            services(state), session_id, bearer(request), await json_body(request, default={}),
            expected_version=expected_version, idempotency_key=idempotency_key, if_match=if_match_versions(if_match)))

    @get(
        "/{session_id:str}/legal-commands",
        operation_id="getLegalCommands",
        summary="What may be sent now",
        security=SECURITY,
        before_request=require_bearer,  # 401 before any parameter is read
        operation_class=documented(
            status=200, response="LegalCommands", errors=(401, 403, 404, 422),
            description="The legal commands and the pending prompt (while a prompt waits, only its answer).",
            example={"session_id": "K7QX2M", "version": 0, "pending": None, "legal_commands": EXAMPLE_LEGAL},
            headers=_READ_HEADERS, not_modified=True,
        ),
    )
    async def get_legal_commands(
        self, request: Request[Any, Any, Any], state: State, session_id: SessionId, if_none_match: IfNoneMatch = None
    ) -> ASGIResponse:
        """The commands the engine accepts now, and the prompt waiting for an answer."""
        view = await use_cases.get_legal_commands(services(state), session_id, bearer(request))
        return read_answer(view, f'"{view["version"]}"', if_none_match)
