"""What resolvers read from the request: the services and the caller's token; and the one error translation.

The token comes from `Authorization: Bearer <token>` on HTTP and on the websocket handshake, or from the
connection_init payload of a subscription: {"Authorization": "Bearer <token>"} or {"token": "<token>"}.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable
from typing import Any, TypeVar

from graphql import GraphQLError
from litestar.datastructures import State
from strawberry.types import Info

from services.api.errors import graphql_extensions, problem_for
from services.use_cases import Services

T = TypeVar("T")


async def context_getter(state: State) -> dict[str, Any]:
    """Merged by strawberry with the request (HTTP) or socket (websocket)."""
    return {"services": state.services}


def services(info: Info) -> Services:
    found: Services = info.context["services"]
    return found


def _bearer(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    scheme, _, token = value.strip().partition(" ")
    if scheme.lower() == "bearer":
        return token.strip() or None
    return None


def token(info: Info) -> str | None:
    """The caller's table (or host) token, wherever the transport carried it."""
    return token_from_context(info.context)


def token_from_context(context: dict[str, Any]) -> str | None:
    """`token` from the context itself (the subscription fan-out reads it outside a resolver)."""
    params = context.get("connection_params")
    if isinstance(params, dict):
        for key, value in params.items():
            if key.lower() == "authorization" and _bearer(value):
                return _bearer(value)
        if isinstance(params.get("token"), str) and params["token"]:
            return str(params["token"])
    carrier = context.get("request") or context.get("socket")
    if carrier is not None:
        return _bearer(carrier.headers.get("authorization"))
    return None


def graphql_error(exc: BaseException) -> GraphQLError:
    """The GraphQL error for a use case's refusal: its problem's detail, the problem's fields in extensions."""
    return GraphQLError(problem_for(exc).detail, extensions=graphql_extensions(exc), original_error=None)


async def call(awaitable: Awaitable[T]) -> T:
    """Await a use case; its refusal becomes a GraphQL error whose extensions carry the problem details."""
    try:
        return await awaitable
    except GraphQLError:
        raise
    except Exception as exc:
        raise graphql_error(exc) from exc


async def stream(source: AsyncIterator[T]) -> AsyncIterator[T]:
    """Iterate a use case's stream, translating its refusals like `call`."""
    try:
        async for item in source:
            yield item
    except GraphQLError:
        raise
    except Exception as exc:
        raise graphql_error(exc) from exc
    finally:
        aclose = getattr(source, "aclose", None)
        if aclose is not None:
            await aclose()
