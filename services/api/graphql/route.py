"""/graphql as a thin litestar route that builds strawberry's controller on its first request and delegates to it.

Importing strawberry and graphql-core (and building the schema) was the largest part of a start that only needs to
answer /v1/health: this module imports neither. The controller is served by an inner litestar app of its own (HTTP
GET/POST, OPTIONS, websockets with both subscription protocols), sharing the outer app's `state` (the services the
context reads) and its error answers; the outer app's CORS middleware and edge stay in front of it, so CORS
preflights, rate limits and metrics see /graphql as before.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from typing import Any

from litestar import Litestar, asgi
from litestar.types import Receive, Scope, Send


class LazyGraphQL:
    """The ASGI app behind the /graphql route: `build(state)` makes the inner app, once, on the first request."""

    def __init__(self, build: Callable[[Any], Litestar]) -> None:
        self._build = build
        self._app: Litestar | None = None
        self._lock = threading.Lock()

    def app(self, outer: Litestar) -> Litestar:
        if self._app is None:
            with self._lock:
                if self._app is None:
                    self._app = self._build(outer.state)
        return self._app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope["litestar_app"])(scope, receive, send)


def graphql_route(allowed_origins: tuple[str, ...], limits: Callable[[], list[Any]],
                  inner_app: Callable[[list[Any]], Litestar]) -> Any:
    """The /graphql route handler (HTTP and websocket): `limits()` gives the schema's extensions and `inner_app` the
    litestar app around a route handler list, both called on the first request."""

    def build(state: Any) -> Litestar:
        from services.api.graphql.schema import graphql_controller

        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"litestar\..*")
            warnings.filterwarnings("ignore", message=r".*[Dd]ependenc.*", category=DeprecationWarning)
            app = inner_app([graphql_controller(allowed_origins, limits())])
        app.state = state  # the services the lifespan puts there, read by the resolvers' context
        return app

    served = LazyGraphQL(build)

    @asgi("/graphql", copy_scope=True)
    async def graphql(scope: Scope, receive: Receive, send: Send) -> None:
        await served(scope, receive, send)

    return graphql
