"""REST door for odds questions: ask (202 + Location), poll, cancel, and follow progress as server-sent events."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any

from litestar import Controller, Request, Response, delete, get, post
from litestar.datastructures import State
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIResponse, Operation, Reference
from litestar.params import Parameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from services import odds as odds_cases
from services.api.errors import PROBLEM_JSON
from services.api.rest.common import PUBLIC, answer, bearer, json_body, services
from services.api.rest.docs import documented, example_hero
from services.api.rest.schemas import REF

_JOB_EXAMPLE = {"job_id": "3f9a1c0d5e7b2a64", "status": "running", "progress": 0.25, "question": "town_size",
                "options": ["small", "medium", "large"], "trials": 20000, "seed": 7, "session_id": "K7QX2M",
                "chunks": 120, "chunks_done": 30, "backend": "embedded", "answer": None, "error": None}
_JOB_ID = Annotated[str, Parameter(max_length=100, description="the odds job id")]


def _figure(description: str) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": True, "description": description}


def odds_components() -> dict[str, Any]:
    """The OpenAPI components of the odds operations (merged into the document by create_app)."""
    nullable_int = {"type": ["integer", "null"], "minimum": 0, "maximum": 2**53 - 1}
    return {
        "OddsRequest": {
            "type": "object", "additionalProperties": False, "required": ["question"],
            "description": "A question asked of a table (`session_id`, with its token) or of a posse (`heroes`).",
            "properties": {
                "question": {"type": "string", "description": "`town_size` (before choosing a Town size) or "
                             "`choice` (at a choice prompt); the service lists them in the 422 for an unknown one"},
                "session_id": {"type": "string", "maxLength": 100,
                               "description": "the table: its heroes as they are now and the prompt waiting"},
                "heroes": {"type": "array", "items": {"$ref": REF + "HeroInput"}, "minItems": 1, "maxItems": 6,
                           "description": "a posse instead of a table"},
                "options": {"anyOf": [{"$ref": REF + "RuleOptionsInput"}, {"type": "null"}],
                            "description": "rule options, with `heroes` only"},
                "params": {"type": ["object", "null"], "additionalProperties": True,
                           "description": "`town_size`: `sizes` (a subset of small/medium/large); `choice`: "
                                          "`prompt` (the id waiting) and `options` (a subset of its option keys)"},
                "trials": {"type": "integer", "minimum": 1, "description": "trials per option (default 5000; "
                           "capped by the server's BRIMSTONE_MAX_ODDS_TRIALS)"},
                "seed": {**nullable_int, "description": "random when null or absent"},
            },
        },
        "OddsEventStream": {
            "type": "string",
            "description": "Server-sent events: `event: odds` lines whose `data:` is an OddsJob as JSON.",
        },
        "OddsJob": {
            "type": "object", "additionalProperties": False,
            "description": "An odds question under way: status, progress, and the answer so far.",
            "required": list(_JOB_EXAMPLE),
            "properties": {
                "job_id": {"type": "string"},
                "status": {"type": "string", "enum": ["queued", "running", "finished", "failed", "cancelled"]},
                "progress": {"type": "number", "minimum": 0, "maximum": 1},
                "question": {"type": "string"},
                "options": {"type": "array", "items": {"type": "string"}, "description": "the option keys compared"},
                "trials": {"type": "integer", "description": "trials per option asked for"},
                "seed": {"type": "integer"},
                "session_id": {"type": ["string", "null"]},
                "chunks": {"type": "integer", "description": "pieces the question was split into"},
                "chunks_done": {"type": "integer"},
                "backend": {"type": "string", "enum": ["rq", "embedded"]},
                "answer": {"anyOf": [_figure(
                    "shared_rules.odds.answer(): per option the expected figures and chances, each with its 95% "
                    "interval (`ci`) and `trials`; histograms to draw; `comparison` option against option; "
                    "`complete` once every trial is in (a partial answer sharpens as chunks arrive)"),
                    {"type": "null"}]},
                "error": {"type": ["string", "null"]},
            },
        },
    }


def _sse_operation() -> type[Operation]:
    @dataclass
    class EventStreamOperation(Operation):
        def __post_init__(self) -> None:
            problem = {PROBLEM_JSON: OpenAPIMediaType(schema=Reference(ref=REF + "Problem"))}
            self.responses = {
                "200": OpenAPIResponse(
                    description="`text/event-stream`: an `odds` event carrying the OddsJob JSON now and at each "
                                "change of progress; the stream ends when the job is finished, failed or cancelled.",
                    content={"text/event-stream": OpenAPIMediaType(schema=Reference(ref=REF + "OddsEventStream"))}),
                "404": OpenAPIResponse(description="No such job (`not-found`).", content=problem),
                "422": OpenAPIResponse(description="Malformed job id (`invalid-command`).", content=problem),
            }

    return EventStreamOperation


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
            status=202, response="OddsJob", request="OddsRequest",
            description="Accepted: follow it at `Location` (poll), `Location`/events (server-sent events) or the "
                        "`oddsProgress` subscription; DELETE it to cancel.",
            request_example={"question": "town_size", "heroes": [example_hero()], "trials": 20000, "seed": 7},
            example=_JOB_EXAMPLE | {"status": "queued", "progress": 0.0, "chunks_done": 0, "session_id": None},
            location=True, errors=(401, 403, 404, 409, 422),
        ),
    )
    async def ask_odds(self, request: Request[Any, Any, Any], state: State) -> Response[bytes]:
        """Which Town size, or each option of the choice waiting, played out many times from the table's state."""
        job = await odds_cases.start_odds(services(state), await json_body(request), bearer(request))
        return answer(job, 202, {"Location": f"/v1/odds/{job['job_id']}"})

    @get(
        "/{job_id:str}",
        operation_id="getOdds",
        security=PUBLIC,
        summary="Poll an odds question",
        operation_class=documented(status=200, response="OddsJob", errors=(404, 422),
                                   description="Status, progress and the answer so far.", example=_JOB_EXAMPLE),
    )
    async def get_odds(self, state: State, job_id: _JOB_ID) -> Response[bytes]:
        """An odds job's status, progress and answer so far."""
        return answer(await odds_cases.get_odds(services(state), job_id))

    @delete(
        "/{job_id:str}",
        operation_id="cancelOdds",
        security=PUBLIC,
        summary="Cancel an odds question",
        status_code=200,
        operation_class=documented(status=200, response="OddsJob", errors=(404, 422),
                                   description="Cancelled: no more chunks run; the answer keeps what arrived.",
                                   example=_JOB_EXAMPLE | {"status": "cancelled"}),
    )
    async def cancel_odds(self, state: State, job_id: _JOB_ID) -> Response[bytes]:
        """Stop an odds job; the answer keeps the trials already in."""
        return answer(await odds_cases.cancel_odds(services(state), job_id))

    @get(
        "/{job_id:str}/events",
        operation_id="streamOdds",
        security=PUBLIC,
        summary="Follow an odds question as server-sent events",
        operation_class=_sse_operation(),
    )
    async def stream_odds(self, state: State, job_id: _JOB_ID) -> ServerSentEvent:
        """The job now and at each change of progress (partial answers), until it ends."""
        stream = odds_cases.watch_odds(services(state), job_id)
        first = await anext(stream)  # an unknown job is a 404 problem, not an empty stream

        async def messages() -> AsyncIterator[ServerSentEventMessage]:
            yield ServerSentEventMessage(data=json.dumps(first, separators=(",", ":")), event="odds")
            async for view in stream:
                yield ServerSentEventMessage(data=json.dumps(view, separators=(",", ":")), event="odds")

        return ServerSentEvent(messages())
