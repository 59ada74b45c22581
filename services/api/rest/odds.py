"""REST door for odds questions: ask (202 + Location), poll, cancel, and follow progress as server-sent events."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from litestar import Controller, Request, delete, get, post
from litestar.datastructures import State
from litestar.params import Parameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.response.base import ASGIResponse

from services import odds as odds_cases
from services.api.rest.common import PUBLIC, SECURITY, answer, bearer, json_body, require_bearer, services
from services.api.rest.docs import EVENT_STREAM, documented, example_hero

_JOB_EXAMPLE = {"job_id": "3f9a1c0d5e7b2a64", "status": "running", "progress": 0.25, "question": "town_size",
                "options": ["small", "medium", "large"], "trials": 20000, "seed": 7, "session_id": "K7QX2M",
                "chunks": 120, "chunks_done": 30, "backend": "embedded", "answer": None, "error": None}
_JOB_ID = Annotated[str, Parameter(max_length=100, description="the odds job id")]


class OddsController(Controller):
    path = "/v1/odds"
    tags = ["odds"]  # noqa: RUF012 - litestar reads a class attribute

    @post(
        "/",
        operation_id="askOdds",
        security=PUBLIC,
        summary="Ask a question: the odds of each option",
        status_code=202,
        operation_class=documented(
            public=True, status=202, response="OddsJob", request="OddsRequest",
            description="Accepted: follow it at `Location` (poll), `Location`/events (server-sent events) or the "
                        "`oddsProgress` subscription; DELETE it to cancel. Each takes the token that asked (the "
                        "table's, for a table's question): a posse's question asked without a token gets one of "
                        "its own, in `token` (shown once).",
            request_example=lambda: {"question": "town_size", "heroes": [example_hero()], "trials": 20000, "seed": 7},
            example=_JOB_EXAMPLE | {"status": "queued", "progress": 0.0, "chunks_done": 0, "session_id": None},
            headers=("Location",), errors=(401, 403, 404, 409),
        ),
    )
    async def ask_odds(self, request: Request[Any, Any, Any], state: State) -> ASGIResponse:
        """Which Town size, or each option of the choice waiting, played out many times from the table's state."""
        job = await odds_cases.start_odds(services(state), await json_body(request), bearer(request))
        return answer(job, 202, {"Location": f"/v1/odds/{job['job_id']}"})

    @get(
        "/{job_id:str}",
        operation_id="getOdds",
        security=SECURITY,
        before_request=require_bearer,  # 401 before any parameter is read
        summary="Poll an odds question",
        operation_class=documented(status=200, response="OddsJob", errors=(401, 403, 404, 422),
                                   description="Status, progress and the answer so far.", example=_JOB_EXAMPLE),
    )
    async def get_odds(self, request: Request[Any, Any, Any], state: State, job_id: _JOB_ID) -> ASGIResponse:
        """An odds job's status, progress and answer so far (with the token that asked, or the table's)."""
        return answer(await odds_cases.get_odds(services(state), job_id, bearer(request)))

    @delete(
        "/{job_id:str}",
        operation_id="cancelOdds",
        security=SECURITY,
        before_request=require_bearer,  # 401 before any parameter is read
        summary="Cancel an odds question",
        status_code=200,
        operation_class=documented(status=200, response="OddsJob", errors=(401, 403, 404, 422),
                                   description="Cancelled: no more chunks run; the answer keeps what arrived.",
                                   example=_JOB_EXAMPLE | {"status": "cancelled"}),
    )
    async def cancel_odds(self, request: Request[Any, Any, Any], state: State, job_id: _JOB_ID) -> ASGIResponse:
        """Stop an odds job; the answer keeps the trials already in (the token that asked, or the table's)."""
        return answer(await odds_cases.cancel_odds(services(state), job_id, bearer(request)))

    @get(
        "/{job_id:str}/events",
        operation_id="streamOdds",
        security=SECURITY,
        before_request=require_bearer,  # 401 before any parameter is read
        summary="Follow an odds question as server-sent events",
        operation_class=documented(
            status=200, response="OddsJob", errors=(401, 403, 404, 422), media_type=EVENT_STREAM,
            description="`text/event-stream`: an `odds` event whose `data` is the OddsJob as JSON, now and at each "
                        "change of progress; the stream ends when the job is finished, failed or cancelled."),
    )
    async def stream_odds(self, request: Request[Any, Any, Any], state: State, job_id: _JOB_ID) -> ServerSentEvent:
        """The job now and at each change of progress (partial answers), until it ends."""
        stream = odds_cases.watch_odds(services(state), job_id, bearer(request))
        first = await anext(stream)  # an unknown job is a 404 problem, not an empty stream

        async def messages() -> AsyncIterator[ServerSentEventMessage]:
            yield ServerSentEventMessage(data=json.dumps(first, separators=(",", ":")), event="odds")
            async for view in stream:
                yield ServerSentEventMessage(data=json.dumps(view, separators=(",", ":")), event="odds")

        return ServerSentEvent(messages())
