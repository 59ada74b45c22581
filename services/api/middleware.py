"""The edge of the service: one ASGI middleware in front of every request (REST, GraphQL, websockets, docs).

In order, for each HTTP request:

1. a request id (the client's sane `X-Request-ID`, else a new one) for the response, every log line and 500s;
2. refusals before any work: repeated query parameters (422), a body that is not JSON on a REST write (415), a
   GraphQL body nested too deep or holding lone surrogates (400), a client over its rate limit (429);
3. on the way out: `X-Request-ID`, security headers, `Cache-Control: no-store` (answers carry table state and
   tokens), the client's `RateLimit` budget, and any `text/plain` error (a GraphQL transport error) turned into a
   problem+json body;
   on /graphql every refusal of steps 2-3 is a GraphQL error instead (`{"data": null, "errors": [...]}` with the
   problem members in `extensions`), the one shape of that door (services/api/graphql/limits.py);
4. the request's metrics (operation, status, latency).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl

from litestar.utils import normalize_path

from services.api import wire
from services.api.errors import PROBLEM_JSON
from services.contract.problems import BY_SLUG
from services.limits import Guard, RateLimited, client_address
from services.observability import LATENCY, REQUESTS, labelled, new_request_id, request_id
from services.settings import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_JSON_DEPTH = 64
"""Deepest nesting of a GraphQL request body or query that is read at all (the engine's data is shallow)."""

_SECURITY = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-site"),
]
_CSP_API = (b"content-security-policy", b"default-src 'none'; frame-ancestors 'none'")
_CSP_PAGE = (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
             b"font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; "
             b"base-uri 'none'")
"""The host's pages and GraphiQL: everything from this service (no CDN, no inline script); GraphiQL sets inline
styles, and its websocket goes to this origin."""
_NO_STORE = (b"cache-control", b"no-store")
_JSON_TYPES = ("application/json",)


class ProblemError(Exception):
    """A refusal the edge answers itself: status, kind, detail, field, extra headers."""

    def __init__(self, status: int, slug: str, title: str, detail: str, field: str,
                 headers: dict[str, str] | None = None, policy: str = "") -> None:
        super().__init__(detail)
        self.status, self.slug, self.title, self.detail, self.field = status, slug, title, detail, field
        self.headers = headers or {}
        self.policy = policy

    def body(self, path: str) -> bytes:
        kind = BY_SLUG.get(self.slug)
        return json.dumps({"type": kind.uri if kind else "about:blank", "title": self.title, "status": self.status,
                           "detail": self.detail, "field": self.field, "rule": "", "instance": path},
                          separators=(",", ":")).encode()

    def graphql_body(self) -> bytes:
        """The refusal as the GraphQL door answers every refusal (docs/api.md, GraphQL "Refusals"): no data, one
        error whose extensions are the problem members and a code (BAD_REQUEST for a malformed request, else the
        kind in capitals: BODY_TOO_LARGE, RATE_LIMITED ...)."""
        kind = BY_SLUG.get(self.slug)
        code = "BAD_REQUEST" if self.status == 400 else self.slug.upper().replace("-", "_")
        extensions = {"code": code, "kind": self.slug, "type": kind.uri if kind else "about:blank",
                      "title": self.title, "status": self.status, "detail": self.detail, "field": self.field,
                      "rule": ""}
        return json.dumps({"data": None, "errors": [{"message": self.detail, "extensions": extensions}]},
                          separators=(",", ":")).encode()

    def answer(self, path: str) -> tuple[bytes, bytes]:
        """(content type, body): problem+json, or a GraphQL error on the GraphQL door."""
        if path.startswith("/graphql"):
            return b"application/json", self.graphql_body()
        return PROBLEM_JSON.encode(), self.body(path)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _bearer(scope: Scope) -> str | None:
    value = _header(scope, b"authorization") or ""
    scheme, _, token = value.strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _repeated_parameter(query: bytes) -> str | None:
    seen: set[str] = set()
    for name, _ in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if name in seen:
            return name
        seen.add(name)
    return None


def _is_json(content_type: str | None) -> bool:
    if content_type is None:
        return False
    media = content_type.split(";", 1)[0].strip().lower()
    return media in _JSON_TYPES or (media.startswith("application/") and media.endswith("+json"))


def _text_depth(text: str) -> int:
    """Deepest bracket nesting of a JSON or GraphQL text, strings skipped (a cheap scan before any parser recurses)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[(":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "}])":
            depth -= 1
    return deepest


def check_graphql_body(raw: bytes) -> None:
    """Refuse (400) a GraphQL body nested deeper than MAX_JSON_DEPTH or holding a lone surrogate (which cannot be
    stored or sent back as UTF-8)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProblemError(400, "invalid-command", "Bad Request", "body: not UTF-8", "body") from None
    if _text_depth(text) > MAX_JSON_DEPTH:
        raise ProblemError(400, "invalid-command", "Bad Request",
                           f"body: nested deeper than {MAX_JSON_DEPTH} levels", "body")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return  # not JSON: strawberry answers it (and the edge turns its text answer into a problem)
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ProblemError(400, "invalid-command", "Bad Request",
                           "body: a string holds a lone surrogate (\\ud800-\\udfff), which is not text", "body") from None
    # the query's own text is checked by the GraphQL door (services/api/graphql/limits.py), for websockets too


Route = Callable[[str, str], tuple[Any, ...]]
"""litestar's cached routing (ASGIRouter.handle_routing): (path, method) -> (app, handler, path, params, template)."""


def operation_of(scope: Scope, route: Route | None = None) -> str:
    """The metrics label of a request: the REST operation id, graphql, else the route's path template (the host's
    pages, the static files); a request refused before routing is looked up in `route`, so its refusal is counted
    under the operation it was meant for. "other" only for a path no route serves (unbounded, so not a label)."""
    handler = scope.get("route_handler")
    operation = scope.get("operation") or getattr(handler, "operation_id", None)  # "operation": the command lane's
    if isinstance(operation, str):
        return operation
    path = str(scope.get("path", ""))
    if path.startswith("/graphql"):
        return "graphql"
    template = scope.get("path_template")
    if handler is None and route is not None:
        try:
            _, handler, _, _, template = route(normalize_path(path), scope.get("method", "GET"))
        except Exception:  # noqa: BLE001 - no route (404) or no such method (405): not an operation
            return "other"
        operation = getattr(handler, "operation_id", None)
        if isinstance(operation, str):
            return operation
    if isinstance(template, str) and handler is not None:
        return "schema" if template.startswith("/schema") else template
    return "other"


class Edge:
    """The edge middleware (see the module docstring); `guard` holds the rate limits."""

    def __init__(self, app: ASGIApp, settings: Settings, guard: Callable[[], Guard | None],
                 route: Route | None = None) -> None:
        self.app = app
        self.route = route
        self.settings = settings
        self.guard = guard
        self.security = list(_SECURITY)
        if settings.hsts:
            self.security.append((b"strict-transport-security", b"max-age=31536000; includeSubDomains"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = new_request_id(_header(scope, b"x-request-id"))
        rid_token = request_id.set(rid)
        address_token = client_address.set(_client(scope))
        try:
            if kind == "websocket":
                wire.remember(scope, send)  # the fan-out writes pre-framed messages to it (services/api/wire.py)
                await self.app(scope, receive, send)
            else:
                await self._http(scope, receive, send, rid)
        finally:
            request_id.reset(rid_token)
            client_address.reset(address_token)

    async def _http(self, scope: Scope, receive: Receive, send: Send, rid: str) -> None:
        began = time.perf_counter()
        path = str(scope.get("path", ""))
        guard = self.guard()
        token = _bearer(scope)
        status = 500
        api = not path.startswith("/schema")
        buffered: dict[str, Any] = {}

        async def reply(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers: list[tuple[bytes, bytes]] = []
                content_type = b""
                cached = limited = False
                for name, value in message.get("headers", ()):  # one pass: what the app set decides what is added
                    if name == b"x-request-id":
                        continue
                    if name == b"content-type":
                        content_type = value
                    elif name == b"cache-control":
                        cached = True
                    elif name == b"ratelimit":
                        limited = True
                    headers.append((name, value))
                headers.append((b"x-request-id", rid.encode()))
                headers += self.security
                if api:
                    page = content_type.startswith(b"text/html") or path.startswith("/static/")
                    headers.append(_CSP_PAGE if page else _CSP_API)
                    if not cached:
                        headers.append(_NO_STORE)
                if guard is not None and not limited:
                    budget = guard.remaining(_client(scope), token)
                    if budget is not None:
                        rule, left, reset = budget
                        headers.append((b"ratelimit-policy", rule.policy_header))
                        headers.append((b"ratelimit", f'"{rule.name}";r={left};t={reset}'.encode()))
                if status >= 400 and content_type.startswith(b"text/plain"):
                    buffered["start"] = {**message, "headers": headers}  # rewritten once the text is known
                    buffered["body"] = b""
                    return
                message = {**message, "headers": headers}
            elif message["type"] == "http.response.body" and "start" in buffered:
                buffered["body"] += message.get("body", b"")
                if message.get("more_body"):
                    return
                await self._text_as_problem(buffered["start"], buffered["body"], path, send)
                return
            await send(message)

        try:
            receive = await self._refusals(scope, receive, path, token, guard)
        except ProblemError as problem:  # a 429's refusal was counted by the guard
            await self._problem(problem, path, reply)
        else:
            await self.app(scope, receive, reply)
        finally:
            operation = operation_of(scope, self.route)
            labelled(REQUESTS, operation, str(status)).inc()
            labelled(LATENCY, operation).observe(time.perf_counter() - began)

    async def _refusals(self, scope: Scope, receive: Receive, path: str, token: str | None,
                        guard: Guard | None) -> Receive:
        """Raise ProblemError for a request refused at the edge; returns the receive to hand on."""
        repeated = _repeated_parameter(scope.get("query_string", b""))
        if repeated is not None:
            raise ProblemError(422, "invalid-command", "Malformed request",
                               f"{repeated}: given more than once; send each query parameter once", repeated)
        method = scope.get("method", "GET")
        if method in ("POST", "PUT", "PATCH") and path.startswith("/v1/"):
            length = _header(scope, b"content-length")
            has_body = (length is not None and length.strip() not in ("", "0")) or \
                _header(scope, b"transfer-encoding") is not None
            content_type = _header(scope, b"content-type")
            if has_body and not _is_json(content_type):
                raise ProblemError(415, "unsupported-media-type", "Unsupported Media Type",
                                   f"Content-Type: send application/json, not {content_type or 'nothing'}",
                                   "Content-Type", {"Accept-Post": "application/json"})
        if guard is not None and not path.startswith(("/v1/health", "/v1/ready")):
            try:
                guard.admit(_client(scope), token)
            except RateLimited as limited:
                raise ProblemError(429, "rate-limited", "Too Many Requests", limited.message, limited.field,
                                   limited.headers(), policy=limited.policy) from None
        if method == "POST" and path.startswith("/graphql"):
            body = await _read_body(receive, self.settings.max_body_bytes)
            check_graphql_body(body)
            return _replay(body)
        return receive

    async def _problem(self, problem: ProblemError, path: str, send: Send) -> None:
        content_type, body = problem.answer(path)
        headers = [(b"content-type", content_type)]
        headers.extend((k.lower().encode(), v.encode()) for k, v in problem.headers.items())
        await send({"type": "http.response.start", "status": problem.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _text_as_problem(self, start: Message, text: bytes, path: str, send: Send) -> None:
        status = int(start["status"])
        detail = text.decode("utf-8", "replace").strip()[:500] or "the request was refused"
        problem = ProblemError(status, "invalid-command" if status < 500 else "internal-error",
                               "Bad Request" if status == 400 else "Error", detail, "body")
        content_type, body = problem.answer(path)
        headers = [(k, v) for k, v in start["headers"] if k not in (b"content-type", b"content-length")]
        headers += [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


async def _read_body(receive: Receive, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise ProblemError(413, "body-too-large", "Content Too Large", f"body: larger than {limit} bytes",
                               "body")
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


def install_edge(app: Any, settings: Settings, guard: Callable[[], Guard | None]) -> None:
    """Put the Edge in front of a litestar app's router (so it also sees 404s and answers before routing)."""
    app.asgi_handler = Edge(app.asgi_handler, settings, guard, app.asgi_router.handle_routing)

