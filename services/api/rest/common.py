"""What every REST handler shares: the services, the bearer token, the JSON body and answer, and the HTTP
conventions (ETag and If-None-Match, If-Match, Link headers, server-sent events)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import AsyncIterable, AsyncIterator
from typing import Any, TypeVar

import msgspec
from litestar import Request
from litestar.datastructures import State
from litestar.response import ServerSentEventMessage
from litestar.response.base import ASGIResponse

from services.contract.validation import read_json
from services.use_cases import Services, Unauthenticated
from shared_rules.errors import InvalidCommand

SECURITY: list[dict[str, list[str]]] = [{"bearer": []}]
PUBLIC: list[dict[str, list[str]]] = []  # no credentials needed (said explicitly: generated clients need no token)


def services(state: State) -> Services:
    """The app's Services (store, settings, simulation runner), set up at start-up."""
    found: Services = state.services
    return found


async def require_bearer(request: Request[Any, Any, Any]) -> None:
    """Runs before the operations that need a token: without one the answer is 401, before any parameter is read.

    A before-request hook, not a guard: litestar copies the route handler for every guard call, 3% of a command's
    time; a coroutine, as litestar runs a plain function on a worker thread."""
    if bearer(request) is None:
        raise Unauthenticated("Authorization: send 'Bearer <table token>'", field="Authorization")


def bearer(request: Request[Any, Any, Any]) -> str | None:
    """The token of `Authorization: Bearer <token>`; None when missing or of another scheme."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


async def json_body(request: Request[Any, Any, Any], *, default: Any = ...) -> Any:
    """The request body as JSON data; invalid JSON is a 422 naming `body` (never a 500)."""
    return parse_json_body(await request.body(), default=default)


def parse_json_body(raw: bytes, *, default: Any = ...) -> Any:
    """A body's bytes as JSON data (`default` for an empty body, where one is allowed): json_body's reading, shared
    with the command lane. Invalid JSON, a key written twice, NaN or a number past a double and a lone surrogate are
    refused here, naming their path (services/contract/validation.read_json)."""
    if not raw.strip():
        if default is ...:
            raise InvalidCommand("body: a JSON body is required", field="body")
        return default
    return read_json(raw)


def answer(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> ASGIResponse:
    """JSON out with msgspec (fast); Python's encoder for what msgspec refuses (a lone surrogate in a string).

    A finished ASGI response, which litestar sends as it is (a Response is rebuilt into one for every answer)."""
    try:
        data = msgspec.json.encode(body)
    except (OverflowError, TypeError, ValueError, msgspec.EncodeError):  # also lone surrogates (json escapes them)
        data = json.dumps(body, separators=(",", ":")).encode()
    return ASGIResponse(body=data, status_code=status, media_type="application/json", headers=headers)


def _tags(header: str) -> list[str]:
    """The entity tags of an If-None-Match / If-Match header, weak ones without their W/ prefix."""
    return [tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()]


def read_answer(body: Any, etag: str, if_none_match: str | None,
                headers: dict[str, str] | None = None) -> ASGIResponse:
    """A read's answer with its ETag; 304 without a body when the client's If-None-Match still matches."""
    out = {"ETag": etag, **(headers or {})}
    if if_none_match is not None:
        tags = _tags(if_none_match)
        if "*" in tags or etag in tags:
            return ASGIResponse(body=b"", status_code=304, headers=out)
    return answer(body, headers=out)


def body_etag(body: Any) -> str:
    """A strong ETag of a body that has no version (a simulation job): a digest of its JSON."""
    digest = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return f'"{digest[:20]}"'


def if_match_versions(header: str | None) -> tuple[int, ...] | None:
    """The versions an If-Match header names ("7" is version 7); None for no header or `*` (any version).

    Strong comparison (RFC 9110 13.1.1): a weak tag or anything that is not one of our ETags matches no version,
    so the write fails its precondition (412) rather than being refused as malformed.
    """
    if header is None:
        return None
    tags = [tag.strip() for tag in header.split(",") if tag.strip()]
    if "*" in tags:
        return None
    return tuple(int(tag[1:-1]) for tag in tags
                 if len(tag) > 2 and tag[0] == tag[-1] == '"' and tag[1:-1].isdigit() and len(tag) < 20)


def events_links(path: str, next_after: int | None, limit: int) -> str:
    """RFC 8288 Link header of a log page: its first page and, unless this is the last, the next."""
    links = [f'<{path}?after=-1&limit={limit}>; rel="first"']
    if next_after is not None:
        links.insert(0, f'<{path}?after={next_after}&limit={limit}>; rel="next"')
    return ", ".join(links)


KEEP_ALIVE_SECONDS = 15.0
T = TypeVar("T")


async def paced(source: AsyncIterable[T],
                keep_alive: float = KEEP_ALIVE_SECONDS) -> AsyncIterator[tuple[T, bool] | None]:
    """Each item of `source` with whether another one is already waiting (the end of a burst), and None whenever
    nothing came for `keep_alive` seconds, so a stream can send a keep-alive comment; closes `source` at the end."""
    iterator = source.__aiter__()
    pending: asyncio.Future[T] = asyncio.ensure_future(iterator.__anext__())
    try:
        while True:
            done, _ = await asyncio.wait({pending}, timeout=keep_alive)
            if not done:
                yield None
                continue
            try:
                item = pending.result()
            except StopAsyncIteration:
                return
            pending = asyncio.ensure_future(iterator.__anext__())
            await asyncio.sleep(0)
            yield item, pending.done() and pending.exception() is None  # an ended source has nothing waiting
    finally:
        pending.cancel()
        with contextlib.suppress(BaseException):
            await pending
        aclose = getattr(iterator, "aclose", None)
        if aclose is not None:
            with contextlib.suppress(Exception):
                await aclose()


KEEP_ALIVE = ServerSentEventMessage(data=None, comment="keep-alive")


async def change_stream(changes: AsyncIterable[dict[str, Any]]) -> AsyncIterator[ServerSentEventMessage]:
    """A table's changes as server-sent events (`event: change`, `id: <version>`), with a comment line whenever
    nothing was written for KEEP_ALIVE_SECONDS, so proxies keep the connection open."""
    yield ServerSentEventMessage(data=None, comment="following the table", retry=2000)
    async for paced_change in paced(changes):
        if paced_change is None:
            yield KEEP_ALIVE
            continue
        change, _ = paced_change
        yield ServerSentEventMessage(data=json.dumps(change, separators=(",", ":")), event="change",
                                     id=str(change["version"]))
