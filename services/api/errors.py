"""The one place that turns refusals into answers: RFC 9457 problem details for REST, extensions for GraphQL.

RulesError -> 422 (InvalidCommand, malformed) or 409 (IllegalCommand, refused by the rules); StaleVersion -> 409
with `current_version` (412 when it came from If-Match); missing credentials 401, wrong ones 403; unknown table
404. Every problem names the `field` and the `rule` (empty when no rule applies) and its `type` is the URL of its
entry in the catalogue (services/contract/problems.py). Anything unexpected is a 500 without internals in the body.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from services.contract.problems import BY_SLUG, BY_STATUS_DEFAULT
from services.history import HistoryDiverged
from services.jobs.runner import QueueFull, TooManySimulations
from services.limits import RateLimited
from services.observability import RATE_LIMITED, STORE_ERRORS, labelled, request_id
from services.store import SessionArchived, SessionPaused, StaleVersion, StoreUnavailable
from services.use_cases import (
    Archived,
    Forbidden,
    IdempotencyKeyReused,
    NotFound,
    Paused,
    PreconditionFailed,
    ServiceError,
    Unauthenticated,
)
from shared_rules.errors import IllegalCommand, InvalidCommand, RulesError

log = logging.getLogger("brimstone.api")
PROBLEM_JSON = "application/problem+json"


@dataclass(frozen=True, slots=True)
class Problem:
    """A refusal as RFC 9457 members plus ours (`field`, `rule`, and `current_version` for stale writes)."""

    status: int
    slug: str
    title: str
    detail: str
    field: str = ""
    rule: str = ""
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)
    headers: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def type(self) -> str:
        return "about:blank" if self.slug == "about:blank" else BY_SLUG[self.slug].uri

    def body(self, instance: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "title": self.title, "status": self.status, "detail": self.detail,
                               "field": self.field, "rule": self.rule, **self.extra}
        if instance:
            out["instance"] = instance
        return out


# The kinds of problem: slug -> (status, title), from the catalogue.
KINDS: dict[str, tuple[int, str]] = {slug: (kind.status, kind.title) for slug, kind in BY_SLUG.items()}


def _kind(slug: str, detail: str, **kwargs: Any) -> Problem:
    status, title = KINDS[slug]
    return Problem(status, slug, title, detail, **kwargs)


# Which kind each refusal is; the first matching class wins, so subclasses come before their bases.
_REFUSALS: tuple[tuple[type[BaseException], str], ...] = (
    (InvalidCommand, "invalid-command"),
    (IllegalCommand, "illegal-command"),
    (RulesError, "invalid-command"),
    (Unauthenticated, "unauthenticated"),
    (Forbidden, "forbidden"),
    (NotFound, "not-found"),
    (IdempotencyKeyReused, "idempotency-key-reused"),
    (Archived, "archived"),
    (Paused, "paused"),
    (RateLimited, "rate-limited"),
    (ServiceError, "invalid-command"),
)


def problem_for(exc: BaseException) -> Problem:
    """Map any exception to the problem a client sees (the single mapping for REST and GraphQL)."""
    if isinstance(exc, PreconditionFailed):
        return _kind("precondition-failed", exc.message, field=exc.field, extra={"current_version": exc.current},
                     headers={"ETag": f'"{exc.current}"'})
    if isinstance(exc, StoreUnavailable):
        STORE_ERRORS.labels("unavailable").inc()
        log.warning("store unavailable: %s", exc)
        return _kind("store-unavailable", "the table storage cannot be reached right now; retry shortly",
                     field="", headers={"Retry-After": str(exc.retry_after)})
    if isinstance(exc, QueueFull):
        return _kind("store-unavailable", str(exc), field="", headers={"Retry-After": str(exc.retry_after)})
    if isinstance(exc, TooManySimulations):
        labelled(RATE_LIMITED, "simulations").inc()  # the guard counts its own refusals; this cap is the runner's
        return _kind("rate-limited", str(exc), field="client address",
                     headers={"Retry-After": "10", "RateLimit-Policy": f'"simulations";q={exc.limit}',
                              "RateLimit": '"simulations";r=0;t=10'})
    if isinstance(exc, SessionArchived):
        return _kind("archived", f"{exc}: it can be read, not changed", field="session_id")
    if isinstance(exc, SessionPaused):
        return _kind("paused", f"{exc}: it can be read, not changed", field="session_id")
    if isinstance(exc, StaleVersion):
        return _kind("stale-version", f"the session is at version {exc.current_version}, not {exc.expected}; "
                     "reload and send the command again", field="expected_version",
                     extra={"current_version": exc.current_version})
    for cls, slug in _REFUSALS:
        if isinstance(exc, cls):
            assert isinstance(exc, (RulesError, ServiceError))
            headers = {"WWW-Authenticate": 'Bearer realm="brimstone"'} if slug == "unauthenticated" else {}
            if isinstance(exc, RateLimited):
                headers = exc.headers()
            return _kind(slug, exc.message, field=exc.field, rule=exc.rule, headers=headers)
    if isinstance(exc, ValidationException):
        return _validation(exc)
    if isinstance(exc, HTTPException):
        status = exc.status_code
        if status >= 500:
            log.error("HTTP %s: %s", status, exc.detail)
        title = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"
        headers = {k: v for k, v in (exc.headers or {}).items() if k.lower() in ("allow", "retry-after")}
        if status == 415:
            return _kind("unsupported-media-type", str(exc.detail or "send application/json"), field="Content-Type")
        default = BY_STATUS_DEFAULT.get(status)
        if default is None:
            return Problem(status, "about:blank", title, str(exc.detail or title), headers=headers)
        return _kind(default, str(exc.detail or title), field="body" if status == 413 else "", headers=headers)
    if isinstance(exc, HistoryDiverged):
        STORE_ERRORS.labels("replay-diverged").inc()
    if isinstance(exc, RecursionError):  # input nested past what any parser here can follow
        return _kind("invalid-command", "the request is nested too deeply to read", field="body")
    rid = request_id.get()
    log.error("unexpected error (request %s)", rid, exc_info=exc)
    return _kind("internal-error", f"the server failed to answer; the error was logged with request id {rid}",
                 extra={"request_id": rid})


_PARAMETER_NAMES = {"idempotency_key": "Idempotency-Key", "if_match": "If-Match", "if_none_match": "If-None-Match",
                    "last_event_id": "Last-Event-ID"}


def _validation(exc: ValidationException) -> Problem:
    """litestar's parameter checks (query, path, header) as a 422 naming the parameter."""
    where = ""
    message = str(exc.detail)
    if isinstance(exc.extra, list) and exc.extra and isinstance(exc.extra[0], dict):
        first = exc.extra[0]
        where = str(first.get("key") or "")
        where = _PARAMETER_NAMES.get(where, where)
        message = f"{where}: {first.get('message') or message}" if where else message
    elif "JSON" in message or "decode" in message.lower():
        where = "body"
    return _kind("invalid-command", message, field=where or "request")


def problem_response(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """litestar exception handler: every error leaves as application/problem+json."""
    problem = problem_for(exc)
    return Response(problem.body(str(request.url.path)), status_code=problem.status, media_type=PROBLEM_JSON,
                    headers=problem.headers)


def graphql_extensions(exc: BaseException) -> dict[str, Any]:
    """The same problem as GraphQL error extensions: the problem members, `kind` (its slug) and `code`, the slug
    in capitals (INVALID_COMMAND, ILLEGAL_COMMAND, STALE_VERSION, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND,
    IDEMPOTENCY_KEY_REUSED, PRECONDITION_FAILED, ARCHIVED, RATE_LIMITED, STORE_UNAVAILABLE, INTERNAL_ERROR ...);
    clients (mobile/client.py) branch on it."""
    problem = problem_for(exc)
    return {"code": problem.slug.upper().replace("-", "_"), "kind": problem.slug, **problem.body()}
