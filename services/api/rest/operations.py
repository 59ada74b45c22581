"""REST door for running the service: a table's owner archives or deletes it; readiness (touches the store, for a
load balancer) next to the cheap liveness at /v1/health. (The metrics have a port of their own:
services.observability.serve_metrics.)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from litestar import Controller, Request, delete, get, post
from litestar.datastructures import State
from litestar.openapi.spec import OpenAPIResponse, Operation
from litestar.params import Parameter
from litestar.response.base import ASGIResponse

from services import use_cases
from services.api.rest.common import PUBLIC, SECURITY, answer, bearer, require_bearer, services
from services.api.rest.docs import documented
from services.contract.envelopes import SESSION_ID_PATTERN

SessionId = Annotated[str, Parameter(description="the table's join code, e.g. K7QX2M", max_length=128,
                                     pattern=SESSION_ID_PATTERN)]


def operations_components() -> dict[str, Any]:
    """The response schemas of these operations (merged into the OpenAPI components)."""
    return {
        "ArchivedSession": {
            "type": "object", "additionalProperties": False, "required": ["session_id", "archived_at", "expires_at"],
            "description": "The table is read-only from now on and kept until `expires_at` (null: kept).",
            "properties": {"session_id": {"type": "string"}, "archived_at": {"type": "number"},
                           "expires_at": {"type": ["number", "null"]}},
        },
        "Readiness": {
            "type": "object", "additionalProperties": False, "required": ["status", "storage"],
            "description": "The store answered: this replica can serve requests.",
            "properties": {"status": {"type": "string", "const": "ready"},
                           "storage": {"type": "string", "enum": ["redis", "sqlite"]}},
        },
    }


def _no_content(description: str, errors: tuple[int, ...]) -> type[Operation]:
    base = documented(status=204, response="ArchivedSession", description=description, errors=errors)

    @dataclass
    class NoContent(base):  # type: ignore[valid-type,misc]
        def __post_init__(self) -> None:
            super().__post_init__()
            assert self.responses is not None
            self.responses["204"] = OpenAPIResponse(description=description)

    return NoContent


class TableOwnerHandlers:
    """The owner's archive and delete, mixed into the sessions controller (litestar cannot serve one path from two
    controllers: each would add its own OPTIONS handler)."""

    @post(
        "/{session_id:str}/archive",
        operation_id="archiveSession",
        summary="Archive a table (owner)",
        status_code=200,
        security=SECURITY,
        before_request=require_bearer,  # 401 before any parameter is read
        operation_class=documented(
            status=200, response="ArchivedSession", errors=(401, 403, 404, 422),
            description="Read-only from now on (writes answer 409 `archived`); kept for the archive retention.",
            example={"session_id": "K7QX2M", "archived_at": 1767225600.0, "expires_at": 1774998000.0}),
    )
    async def archive(self, request: Request[Any, Any, Any], state: State, session_id: SessionId) -> ASGIResponse:
        """Freeze the table: it can still be read and its log paged, not changed. Needs the table's own token."""
        return answer(await use_cases.archive_session(services(state), session_id, bearer(request)))

    @delete(
        "/{session_id:str}",
        operation_id="deleteSession",
        summary="Delete a table (owner)",
        status_code=204,
        security=SECURITY,
        before_request=require_bearer,
        operation_class=_no_content("Gone: state, log and checkpoints; live subscriptions end.", (401, 403, 404, 422)),
    )
    async def delete(self, request: Request[Any, Any, Any], state: State, session_id: SessionId) -> None:
        """Remove the table and everything stored for it. Needs the table's own token."""
        await use_cases.delete_session(services(state), session_id, bearer(request))


class ReadinessController(Controller):
    path = "/v1/ready"
    tags = ["service"]  # noqa: RUF012 - litestar reads a class attribute

    @get(
        "/",
        operation_id="getReadiness",
        security=PUBLIC,
        summary="Can this replica serve",
        operation_class=documented(public=True, status=200, response="Readiness", errors=(),
                                   description="The store answered (503 with Retry-After when it does not).",
                                   example={"status": "ready", "storage": "redis"}),
    )
    async def ready(self, state: State) -> ASGIResponse:
        """Touches the store: 200 when it answers, 503 `store-unavailable` when it does not (liveness stays at
        /v1/health, which touches nothing)."""
        return answer(await use_cases.readiness(services(state)))
