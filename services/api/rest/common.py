"""What every REST handler shares: the services, the bearer token, the JSON body and the JSON answer."""

from __future__ import annotations

import json
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.datastructures import State

from services.use_cases import Services
from shared_rules.errors import InvalidCommand

SECURITY: list[dict[str, list[str]]] = [{"bearer": []}]
PUBLIC: list[dict[str, list[str]]] = [{}]  # no credentials needed (said explicitly, for OpenAPI linters)


def services(state: State) -> Services:
    """The app's Services (store, settings, simulation runner), set up at start-up."""
    found: Services = state.services
    return found


def bearer(request: Request[Any, Any, Any]) -> str | None:
    """The token of `Authorization: Bearer <token>`; None when missing or of another scheme."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


async def json_body(request: Request[Any, Any, Any], *, default: Any = ...) -> Any:
    """The request body as JSON data; invalid JSON is a 422 naming `body` (never a 500)."""
    raw = await request.body()
    if not raw.strip():
        if default is ...:
            raise InvalidCommand("body: a JSON body is required", field="body")
        return default
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise InvalidCommand(f"body: not valid JSON ({str(exc)[:120]})", field="body") from None


def answer(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response[bytes]:
    """JSON out with msgspec (fast); Python's encoder for what msgspec refuses (a lone surrogate in a string)."""
    try:
        data = msgspec.json.encode(body)
    except (OverflowError, TypeError, ValueError, msgspec.EncodeError):  # also lone surrogates (json escapes them)
        data = json.dumps(body, separators=(",", ":")).encode()
    return Response(data, status_code=status, media_type="application/json", headers=headers)
