"""What an operator watches: Prometheus metrics (prometheus_client) and a request id on every response and log line.

Metrics (served by each replica on a port of its own, BRIMSTONE_METRICS_PORT, never on the public listener; no
``_created`` series: they doubled the series stored and no dashboard reads them):

- ``brimstone_build_info{version,revision,python,engine}``: 1, labelled with what runs (``engine``: ``compiled``
  when the engine's hot modules are the mypyc build, scripts/build_compiled.py, else ``source``).
- ``process_*`` (CPU, memory, open files, start time), ``python_info``, ``python_gc_*``: prometheus_client's own.
- ``brimstone_requests_total{operation,status}`` and ``brimstone_request_seconds{operation}`` (histogram): every
  HTTP request by its operation id (REST), ``graphql``, the route's path (the host's pages, static files) or
  ``other`` (no route: a 404); a request refused before routing (415, 422, 429, 400) counts under its operation.
- ``brimstone_commands_total{operation,outcome}``: writes (postCommand, undo, over both doors) by outcome (applied,
  replayed, refused, error).
- ``brimstone_subscribers``: live subscriptions on this replica.
- ``brimstone_simulation_queue_depth``: simulation jobs not finished yet.
- ``brimstone_store_errors_total{kind}``: storage unreachable (503s), replays that diverged.
- ``brimstone_rate_limited_total{policy}``: requests refused as over a limit (429, or a GraphQL ``RATE_LIMITED``
  error), every policy: address, token, create, simulation, auth-failures (wrong tokens), simulations.
- ``brimstone_commit_batch_size``: commits that left for Redis in one pipeline (histogram; several tables writing at
  once share one round trip).
- ``brimstone_gc_pause_seconds{generation}``: garbage collector pauses (each stalls every request of the replica).
"""

from __future__ import annotations

import contextvars
import functools
import gc
import logging
import os
import platform
import random
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Histogram,
    Info,
    disable_created_metrics,
    generate_latest,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.registry import Collector

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
"""The id of the request being handled ("-" outside a request)."""

_INCOMING_ID = re.compile(r"[A-Za-z0-9._:-]{8,64}")


def new_request_id(incoming: str | None = None) -> str:
    """The client's X-Request-ID when it is a sane token (so a proxy's id follows the request), else a fresh one."""
    if incoming and _INCOMING_ID.fullmatch(incoming):
        return incoming
    return f"{_IDS.getrandbits(64):016x}"  # unique, not secret: no system call per request as token_hex makes


_IDS = random.Random(secrets.randbits(64))
os.register_at_fork(after_in_child=lambda: _IDS.seed(secrets.randbits(64)))  # forked workers draw apart


class RequestIdFilter(logging.Filter):
    """Adds `request_id` to every log record (for the format's %(request_id)s)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"


def log_config(level: str) -> dict[str, object]:
    """logging.config.dictConfig for the server (uvicorn's loggers included): one format, every line with the
    request id."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": RequestIdFilter}},
        "formatters": {"plain": {"format": LOG_FORMAT}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["request_id"],
                                "stream": "ext://sys.stderr"}},
        "root": {"handlers": ["stderr"], "level": level.upper()},
        "loggers": {name: {"handlers": [], "propagate": True, "level": level.upper()}
                    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "brimstone")},
    }


disable_created_metrics()
REGISTRY = CollectorRegistry(auto_describe=True)
for _collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):  # the default registry's, in ours too
    REGISTRY.register(_collector)

REQUESTS = Counter("brimstone_requests", "HTTP requests by operation and status", ["operation", "status"],
                   registry=REGISTRY)
LATENCY = Histogram("brimstone_request_seconds", "Time to answer an HTTP request, by operation", ["operation"],
                    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0), registry=REGISTRY)
COMMANDS = Counter("brimstone_commands", "Writes to tables by operation and outcome", ["operation", "outcome"],
                   registry=REGISTRY)
STORE_ERRORS = Counter("brimstone_store_errors", "Storage trouble by kind", ["kind"], registry=REGISTRY)
COMMIT_BATCH = Histogram("brimstone_commit_batch_size", "Commits sent to Redis together in one pipeline",
                         buckets=(1, 2, 4, 8, 16, 32, 64), registry=REGISTRY)
RATE_LIMITED = Counter("brimstone_rate_limited", "Requests refused with 429, by policy", ["policy"],
                       registry=REGISTRY)


@functools.cache
def labelled(metric: MetricWrapperBase, *values: str) -> Any:
    """`metric.labels(*values)`, looked up once per label set (prometheus_client takes a lock and builds the key on
    every call; the label sets here are few: operations by status)."""
    return metric.labels(*values)


GC_PAUSES = Histogram("brimstone_gc_pause_seconds", "Garbage collector pauses by generation", ["generation"],
                      buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5), registry=REGISTRY)
_gc_started = [0.0]


def _gc_callback(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _gc_started[0] = time.perf_counter()
    else:
        GC_PAUSES.labels(str(info.get("generation", -1))).observe(time.perf_counter() - _gc_started[0])


def watch_gc() -> None:
    """Time every collection (a full one walks every live object and stalls every request meanwhile)."""
    if _gc_callback not in gc.callbacks:
        gc.callbacks.append(_gc_callback)


class _Live(Collector):
    """Gauges read when scraped: subscribers and the simulation queue of the running app."""

    def __init__(self) -> None:
        self.subscribers: Callable[[], int] | None = None
        self.queue_depth: Callable[[], int] | None = None

    def collect(self):  # type: ignore[no-untyped-def]
        subscribers = GaugeMetricFamily("brimstone_subscribers", "Live subscriptions on this replica")
        subscribers.add_metric([], float(self.subscribers() if self.subscribers else 0))
        yield subscribers
        depth = GaugeMetricFamily("brimstone_simulation_queue_depth", "Simulation jobs not finished yet")
        depth.add_metric([], float(self.queue_depth() if self.queue_depth else 0))
        yield depth


LIVE = _Live()
REGISTRY.register(LIVE)


BUILD = Info("brimstone_build", "What this replica runs", registry=REGISTRY)


def engine_build() -> str:
    """Which build of the engine this process runs: `compiled` (scripts/build_compiled.py, found first on
    PYTHONPATH) or `source`. Found as an import would find it, without importing the engine at start-up."""
    from importlib.machinery import PathFinder

    package = PathFinder.find_spec("shared_rules")
    flow = PathFinder.find_spec("shared_rules.flow", list(package.submodule_search_locations or ())) if package else None
    return "compiled" if flow is not None and str(flow.origin).endswith((".so", ".pyd")) else "source"


def _build_labels() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    try:
        package = version("brimstone-table")
    except PackageNotFoundError:  # run from a checkout that was never installed
        package = "unknown"
    return {"version": package, "revision": os.environ.get("BRIMSTONE_REVISION", "unknown"),
            "python": platform.python_version(), "engine": engine_build()}


BUILD.info(_build_labels())


def exposition() -> bytes:
    """The metrics in Prometheus' text format."""
    return generate_latest(REGISTRY)


def serve_metrics(port: int, host: str) -> None:
    """Serve /metrics on `port` of its own (a thread of this process): the proxy forwards only the API's port, so
    the metrics are reachable by the scraper, never from the public side."""
    start_http_server(port, host, registry=REGISTRY)
