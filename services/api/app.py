"""create_app(settings): the litestar app with the REST door under /v1, GraphQL at /graphql and OpenAPI at /schema.

The process keeps no game state: sessions live in the store (Redis or SQLite), so replicas can share a Redis.
"""

from __future__ import annotations

import gc
import logging
import warnings
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar
from litestar._openapi.plugin import OpenAPIPlugin
from litestar.config.cors import CORSConfig
from litestar.datastructures import CacheControlHeader
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, Contact, License, OpenAPI, SecurityScheme, Server, ServerVariable, Tag
from litestar.routes import HTTPRoute
from litestar.static_files import create_static_files_router

from services.api.errors import problem_response
from services.api.graphql.route import graphql_route
from services.api.middleware import install_edge
from services.api.rest.docs import HEADERS, nulls_kept, response_components
from services.api.rest.hosting import EventsController
from services.api.rest.lane import CommandLane
from services.api.rest.odds import OddsController
from services.api.rest.operations import ReadinessController, operations_components
from services.api.rest.problems import ProblemsController
from services.api.rest.schemas import all_components
from services.api.rest.sessions import SessionsController
from services.api.rest.simulations import HealthController, SimulationsController
from services.api.web.pages import STATIC, HostPages
from services.jobs.odds import open_odds_runner
from services.jobs.runner import open_runner
from services.limits import Guard
from services.observability import LIVE, watch_gc
from services.settings import Settings
from services.store import open_store
from services.use_cases import Services

VENDOR = "/static/vendor"
API_VERSION = "2.0.0"  # semantic versioning of the API, see docs/api.md "Versioning" and CHANGELOG.md
CONTACT = Contact(name="Brimstone Table maintainers", email="maintainers@brimstone-table.invalid")
LICENSE = License(name="Proprietary (all rights reserved)", identifier="LicenseRef-Proprietary")
STATIC_CACHE = CacheControlHeader(max_age=3600, public=True)  # the vendored assets and the dashboard's css/js
GC_THRESHOLDS = (7000, 20, 1000)
"""Collector thresholds of a serving process: young passes every 7,000 allocations, a full pass after 1,000 middle
ones at the most (minutes apart; Python's default of 10 gave one every second or two under load, ~70 ms each)."""
DESCRIPTION = """\
Game-state service for Shadows of Brimstone tables (Frontier Town): one session per table, every write a new
version, an append-only log, exact undo, live changes over GraphQL subscriptions and bulk simulations.

Authentication: creating a table returns its join code and a table token; send the token as
`Authorization: Bearer <token>`. A table's token opens only that table. Roles: a table's player token writes it; its
spectator token only reads it; an event's host token reads every table of its event, pauses, closes and replaces
their tokens but never plays their commands; the deployment's admin token (BRIMSTONE_HOST_TOKEN) opens events,
lists every table and is every event's host.

Reads carry an `ETag` (the table's version, e.g. `"7"`): send it in `If-None-Match` and an unchanged table is a
304 without a body. Follow a table without polling: `GET /v1/sessions/{id}/changes` is a server-sent event stream.

Writes: name `expected_version` (or send `If-Match: "7"`) to apply only to that version (409 `stale-version`, or
412 with If-Match, otherwise, with `current_version`), or leave it out to apply to the latest (the answer says
which version it produced). Send an `Idempotency-Key` to make a retry safe: it is answered with the first response
and applied once.

Errors are `application/problem+json` (RFC 9457) with `field` (what was refused) and `rule` (the rules-reference
id); `type` is a URL on this service explaining the problem and what to do (`GET /problems`). A request that fits
this document is refused only by the game's rules or the table's state (409), never as malformed (422).
GraphQL (queries, mutations and the `sessionChanges` subscription) is served at `/graphql`.
"""


def openapi_config() -> OpenAPIConfig:
    return OpenAPIConfig(
        title="Brimstone Table",
        version=API_VERSION,
        description=DESCRIPTION,
        contact=CONTACT,
        license=LICENSE,
        servers=[Server(url="{scheme}://{host}", description="a Brimstone Table server (`brimstone serve`)",
                        variables={"scheme": ServerVariable(default="http", enum=["http", "https"]),
                                   "host": ServerVariable(default="127.0.0.1:8000",
                                                          description="host and port of the server")})],
        path="/schema",
        render_plugins=[SwaggerRenderPlugin(  # served by this service: the docs work with no internet access
            js_url=f"{VENDOR}/swagger-ui/swagger-ui-bundle.js", css_url=f"{VENDOR}/swagger-ui/swagger-ui.css",
            standalone_preset_js_url=f"{VENDOR}/swagger-ui/swagger-ui-standalone-preset.js",
            favicon="<link rel='icon' type='image/svg+xml' href='/static/favicon.svg'>")],
        components=Components(
            security_schemes={"bearer": SecurityScheme(type="http", scheme="bearer",
                                                       description="a table token, or the event host's token")},
        ),
        tags=[Tag(name="sessions", description="tables: state, commands, log, undo"),
              Tag(name="simulations", description="bulk runs of the road to town"),
              Tag(name="odds", description="decision odds from a table's state: which Town size, each choice"),
              Tag(name="events", description="hosting an event: its tables, roles and tokens, the live board, "
                                             "the export"),
              Tag(name="service", description="health"),
              Tag(name="problems", description="the catalogue of problem types errors point to")],
        use_handler_docstrings=True,
        create_examples=False,
    )


def create_app(settings: Settings | None = None, *, services: Services | None = None) -> Litestar:
    """The app for `settings` (default: from the environment); `services` replaces the store/runner (tests)."""
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        if services is not None:
            app.state.services = services
            yield
            return
        store = open_store(settings.tables_redis_url or settings.redis_url, _db_path(settings), idempotency_ttl=settings.idempotency_ttl,
                           redis_prefix=settings.redis_prefix, retention=settings.retention,
                           archive_retention=settings.archive_retention)
        runner = open_runner(settings, None if settings.redis_url else _jobs_path(settings))
        odds = open_odds_runner(settings, runner)
        guard = Guard(settings)
        app.state.services = Services(store, settings, runner, odds, guard=guard)
        LIVE.subscribers = store.subscriber_count
        LIVE.queue_depth = getattr(runner, "queue_depth", None)
        # Everything imported and built so far lives as long as the process: keep it out of the collector's full
        # passes, which otherwise walk it all and stall every request for tens of milliseconds. The caches of recent
        # versions churn (almost all acyclic: freed by reference counting), so full passes are made rare too.
        # No collection first: the start's cyclic garbage (~1.2 MB, ~7,700 objects) is frozen with the rest, which
        # costs less than the full pass over everything that would free it (~0.13 s of CPU before the first answer).
        gc.freeze()
        gc.set_threshold(GC_THRESHOLDS[0], GC_THRESHOLDS[1], GC_THRESHOLDS[2])
        gc.enable()  # `serve` starts with it off
        watch_gc()
        try:
            yield
        finally:
            await guard.close()
            await odds.close()
            await runner.close()
            await store.close()

    with warnings.catch_warnings():
        # strawberry's controller relies on litestar inferring its dependencies (a deprecation in litestar 2.x).
        warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"litestar\..*")
        warnings.filterwarnings("ignore", message=r".*[Dd]ependenc.*", category=DeprecationWarning)
        cors = CORSConfig(allow_origins=list(settings.cors_origins), allow_credentials=False,
                          allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "X-Request-ID",
                                         "If-Match", "If-None-Match", "Last-Event-ID"],
                          expose_headers=["Location", "Retry-After", "RateLimit", "RateLimit-Policy", "X-Request-ID",
                                          "Idempotent-Replayed", "ETag", "Link"]) if settings.cors_origins else None
        handlers: list[Any] = [SessionsController, EventsController, SimulationsController, OddsController,
                               HealthController,
                               ProblemsController, ReadinessController,
                               graphql_route(settings.allowed_origins, lambda: _graphql_limits(settings),
                                             lambda controllers: _inner_app(controllers, settings))]
        handlers += [HostPages, create_static_files_router(
            path="/static", directories=[STATIC], include_in_schema=False, cache_control=STATIC_CACHE)]
        app = _Litestar(
            route_handlers=handlers,
            cors_config=cors,
            lifespan=[lifespan],
            exception_handlers={Exception: problem_response},
            openapi_config=openapi_config(),
            request_max_body_size=settings.max_body_bytes,
            debug=False,
        )
        _fix_options_allow(app)
        if settings.command_lane:  # behind the edge: its refusals, headers and metrics apply to the lane's answers
            app.asgi_handler = CommandLane(app.asgi_handler, lambda: app.state.services, settings.max_body_bytes)
        install_edge(app, settings, lambda: getattr(getattr(app.state, "services", None), "guard", None))
        app.plugins.get(OpenAPIPlugin).__class__ = _DocumentPlugin  # the document is built on its first request
    return app


def _graphql_limits(settings: Settings) -> list[Any]:
    from services.api.graphql.limits import graphql_limits  # strawberry's extensions: imported on first use

    return graphql_limits(settings)


def _inner_app(route_handlers: list[Any], settings: Settings) -> Litestar:
    """The app serving the /graphql controller behind the outer app's route (built on the first GraphQL request):
    the outer app's CORS, edge and lifespan stay in front; errors are answered and OPTIONS listed the same way."""
    app = _Litestar(route_handlers=route_handlers, exception_handlers={Exception: problem_response},
                    request_max_body_size=settings.max_body_bytes, openapi_config=None, logging_config=None,
                    debug=False)
    _fix_options_allow(app)
    return app


class _Litestar(Litestar):
    """litestar without its default pydantic and attrs plugins: the service has no pydantic model and no attrs class
    (its bodies are msgspec and dataclasses), and importing pydantic for them cost a tenth of a second of every
    start, attrs ~0.04 s more."""

    @staticmethod
    def _get_default_plugins(plugins: list[Any]) -> list[Any]:
        from litestar.plugins.core import MsgspecDIPlugin

        plugins.append(MsgspecDIPlugin())
        return plugins


class _DocumentPlugin(OpenAPIPlugin):
    """litestar's OpenAPI plugin, completing the document it builds on the first /schema request (building it
    is not needed to serve anything else): litestar replaces `components.schemas` with the schemas it generated
    itself (none: every handler is documented with our components), so ours are put back into the cached document
    before it is served."""

    __slots__ = ()

    def provide_openapi(self) -> OpenAPI:
        if not self._openapi:
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"litestar\..*")
                warnings.filterwarnings("ignore", message=r".*[Dd]ependenc.*", category=DeprecationWarning)
                document = super().provide_openapi()
            components = document.components
            components.schemas = nulls_kept({**all_components(), **operations_components(),
                                              **(components.schemas or {})})
            components.responses = nulls_kept(response_components())
            components.headers = nulls_kept(HEADERS)
        return self._openapi  # type: ignore[return-value]


def _fix_options_allow(app: Litestar) -> None:
    """litestar 2.x answers OPTIONS for a path served by several handlers (GET and POST /v1/sessions) with the
    `Allow` of the first handler only: its automatic OPTIONS handler reads the methods of a route object that was
    replaced when the next handler joined the path. Point each such handler at the route that serves the path."""
    for route in app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        for handler in route.route_handlers:
            closure = getattr(handler.fn, "__closure__", None) or ()
            for cell in closure:
                target = cell.cell_contents
                if isinstance(target, HTTPRoute) and target is not route and handler.http_methods == {"OPTIONS"}:
                    target.methods = route.methods


def _jobs_path(settings: Settings) -> str:
    """Where embedded simulation jobs are kept: BRIMSTONE_JOBS_DB, else beside the tables' file."""
    from pathlib import Path

    if settings.jobs_db:
        return settings.jobs_db
    db = Path(_db_path(settings))
    return str(db.with_name(db.stem + "-jobs" + db.suffix))


def _db_path(settings: Settings) -> str:
    from pathlib import Path

    path = Path(settings.db_path)
    if not settings.redis_url:
        path.parent.mkdir(parents=True, exist_ok=True)
    return str(path)


def openapi_document(settings: Settings | None = None) -> dict[str, Any]:
    """The OpenAPI document as served at /schema/openapi.json (for scripts/export_schemas.py)."""
    app = create_app(settings or Settings())
    document: dict[str, Any] = app.openapi_schema.to_schema()
    return document


logging.getLogger("brimstone").addHandler(logging.NullHandler())
