"""The strawberry schema and its litestar controller at /graphql (left out of the OpenAPI document).

The schema's types are generated from the engine's dataclasses (services/api/graphql/generated.py), most of what
a process spent starting: they are built on the first GraphQL request (or the first use of `schema`/`sdl()`), once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import strawberry
from graphql import GraphQLError
from strawberry.litestar import make_graphql_controller
from strawberry.schema.config import StrawberryConfig
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL, GRAPHQL_WS_PROTOCOL
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext
from strawberry.utils.logging import StrawberryLogger

from services.api.graphql.context import context_getter
from services.api.graphql.fanout import (
    FanoutExecutor,
    FanoutTransportWSHandler,
    FanoutWebSocketAdapter,
    FanoutWSHandler,
)
from services.api.graphql.limits import give_codes

log = logging.getLogger("brimstone.graphql")

GRAPHIQL_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Brimstone Table GraphiQL</title>
<link rel="icon" type="image/svg+xml" href="/static/favicon.svg">
<link rel="stylesheet" href="/static/vendor/graphiql/graphiql.min.css">
<link rel="stylesheet" href="/static/graphiql.css">
<script src="/static/vendor/react/react.production.min.js" defer></script>
<script src="/static/vendor/react/react-dom.production.min.js" defer></script>
<script src="/static/vendor/graphiql/graphiql.min.js" defer></script>
<script src="/static/graphiql.js" defer></script>
</head>
<body><div id="graphiql">Loading GraphiQL...</div></body>
</html>
"""
"""GraphiQL from the service's own copies of its scripts (services/api/web/static/vendor): it works on a venue network
with no internet access. The page sends `Authorization: Bearer <token>` when a token is set in GraphiQL's headers."""


class Schema(strawberry.Schema):
    """Gives every error its code (services/api/graphql/limits.py `give_codes`) and logs only what is the server's
    fault: refusals (problems below 500) and invalid queries are the client's."""

    def process_errors(self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None) -> None:
        give_codes(errors, execution_context)  # every refusal in the door's one shape, before it is sent
        for error in errors:
            status = (error.extensions or {}).get("status")
            if isinstance(status, int) and status < 500:
                continue
            if status is None and not error.path:  # a query the schema refused (syntax, types, a bad scalar)
                log.debug("GraphQL request refused: %s", error.message)
                continue
            StrawberryLogger.error(error, execution_context)


def build_schema(extensions: list[Any] | None = None) -> Schema:
    """The schema of every query, mutation and subscription (imported here: generating the types is the cost)."""
    from services.api.graphql.generated import SCALARS
    from services.api.graphql.hosting import HostingMutation, HostingQuery, HostingSubscription
    from services.api.graphql.mutations import Mutation
    from services.api.graphql.odds import OddsMutation, OddsQuery, OddsSubscription
    from services.api.graphql.queries import Query
    from services.api.graphql.subscriptions import Subscription

    return Schema(query=merge_types("Query", (Query, OddsQuery, HostingQuery)),
                  mutation=merge_types("Mutation", (Mutation, OddsMutation, HostingMutation)),
                  subscription=merge_types("Subscription", (Subscription, OddsSubscription, HostingSubscription)),
                  config=StrawberryConfig(scalar_map=SCALARS), extensions=extensions or (),
                  execution_context_class=FanoutExecutor)


class LazySchema:
    """Stands for the served schema in the controller, built on the first attribute read (the first request):
    the controller reads `self.schema.execute`, `.stream`, `.subscribe`, `.config`."""

    def __init__(self, build: Callable[[], Schema]) -> None:
        self._build = build
        self._built: Schema | None = None
        self._lock = threading.Lock()

    def get(self) -> Schema:
        if self._built is None:
            with self._lock:
                if self._built is None:
                    self._built = self._build()
        return self._built

    def __getattr__(self, name: str) -> Any:
        return getattr(self.get(), name)


_SCHEMA = LazySchema(build_schema)


def __getattr__(name: str) -> Any:
    """`schema`: the schema without the abuse limits (the SDL, tests), built on first use."""
    if name == "schema":
        return _SCHEMA.get()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def sdl() -> str:
    """The schema in GraphQL SDL, as committed in openapi/schema.graphql."""
    return _SCHEMA.get().as_str() + "\n"


def graphql_controller(allowed_origins: tuple[str, ...] = ("*",), extensions: list[Any] | None = None) -> Any:
    """The /graphql controller: queries and mutations over HTTP, subscriptions over both websocket protocols;
    `extensions` (the abuse limits) are added to the schema it serves."""
    served = _SCHEMA if not extensions else LazySchema(lambda: build_schema(extensions))
    controller = make_graphql_controller(
        served,  # type: ignore[arg-type]  # stands for the Schema, built on the first request
        path="/graphql",
        context_getter=context_getter,
        subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL, GRAPHQL_WS_PROTOCOL),
        keep_alive=True,
        keep_alive_interval=15,
        connection_init_wait_timeout=timedelta(seconds=30),
        allowed_origins=list(allowed_origins),
    )
    controller.include_in_schema = False  # GraphiQL is HTML and POST has no JSON schema: keep it out of OpenAPI
    controller.graphql_ide_html = property(lambda _self: GRAPHIQL_HTML)  # served assets, no CDN
    controller.websocket_adapter_class = FanoutWebSocketAdapter  # a shared event payload is encoded once
    controller.graphql_transport_ws_handler_class = FanoutTransportWSHandler
    controller.graphql_ws_handler_class = FanoutWSHandler
    return controller
