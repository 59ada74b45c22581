"""Service settings: one frozen value built from the environment and the command line, passed to create_app().

Storage is Redis when a URL is set (REDIS_URL / --redis), else the SQLite file (BRIMSTONE_DB / --db).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

DEFAULT_DB = "./data/brimstone.sqlite3"


_ONE_RATE = r"\s*[0-9]+\s*(?:/|\s*per\s*)\s*[0-9]*\s*(?:second|minute|hour|day|month|year)s?\s*"
RATE = re.compile(rf"^{_ONE_RATE}(?:[,;|]{_ONE_RATE})*$", re.IGNORECASE)
"""A rate limit as the `limits` library reads it (`60/minute`, `10 per 2 seconds`, `1/second; 100/hour`): checked
here without importing the library, which the limits load on their first counted request (not at start)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the service reads at start-up; nothing else reads the environment."""

    host: str = "127.0.0.1"
    port: int = 8000
    redis_url: str | None = None  # REDIS_URL: shared storage, pub/sub across replicas, rq simulations
    db_path: str = DEFAULT_DB  # BRIMSTONE_DB: the embedded SQLite file when no Redis is configured
    redis_prefix: str = "brimstone"  # BRIMSTONE_REDIS_PREFIX: namespaces keys so deployments can share a server
    host_token: str | None = None  # BRIMSTONE_HOST_TOKEN: the deployment's admin token (opens events; lists and reads every table)
    tables_redis_url: str | None = None  # BRIMSTONE_TABLES_REDIS_URL: tables on another Redis, e.g. redis+cluster://host:port
    public_url: str | None = None  # BRIMSTONE_PUBLIC_URL: the address phones use (join links); default: as requested
    alert_idle: int = 20 * 60  # BRIMSTONE_ALERT_IDLE: seconds without a write before a table is "idle"
    alert_stuck: int = 5 * 60  # BRIMSTONE_ALERT_STUCK: seconds a prompt waits before a table is "stuck"
    idempotency_ttl: float = 24 * 3600.0  # seconds an Idempotency-Key is remembered
    max_trials: int = 200_000  # BRIMSTONE_MAX_TRIALS: cap on one simulation job
    simulation_chunks: int = 8  # BRIMSTONE_SIMULATION_CHUNKS: at most this many chunks per simulation job
    min_chunk_trials: int = 250  # a chunk is never smaller than this (unless the whole job is)
    max_odds_trials: int = 50_000  # BRIMSTONE_MAX_ODDS_TRIALS: cap on an odds question's trials per option
    odds_chunk_trials: int = 500  # BRIMSTONE_ODDS_CHUNK_TRIALS: trials per odds chunk (the answer sharpens per chunk)
    simulation_executor: str = "process"  # BRIMSTONE_SIMULATION_EXECUTOR: embedded mode runs chunks in "process"/"thread"
    simulation_workers: int = 2  # BRIMSTONE_SIMULATION_WORKERS: embedded pool size
    rq_queue: str = "brimstone-simulations"  # BRIMSTONE_RQ_QUEUE: the rq queue workers listen on
    result_ttl: int = 7 * 24 * 3600  # seconds a finished simulation is kept in Redis
    allowed_origins: tuple[str, ...] = ("*",)  # websocket origins; auth is a bearer token, not a cookie
    max_body_bytes: int = 1_000_000
    log_level: str = "info"
    # storage (docs/operations.md)
    checkpoint_every: int = 32  # BRIMSTONE_CHECKPOINT_EVERY: a full snapshot every K versions; replay in between
    retention: int = 14 * 24 * 3600  # BRIMSTONE_RETENTION: seconds a table is kept after its last write (0: forever)
    archive_retention: int = 90 * 24 * 3600  # BRIMSTONE_ARCHIVE_RETENTION: seconds after archiving (0: forever)
    # abuse limits: "N/second|minute|hour" or "" for none (limits' notation); counted in Redis when it is configured
    rate_limit_address: str = "1200/minute"  # BRIMSTONE_RATE_LIMIT_ADDRESS: every request, per client address
    rate_limit_token: str = "600/minute"  # BRIMSTONE_RATE_LIMIT_TOKEN: every request, per bearer token
    rate_limit_create: str = "30/minute"  # BRIMSTONE_RATE_LIMIT_CREATE: tables opened per address
    rate_limit_simulation: str = "10/minute"  # BRIMSTONE_RATE_LIMIT_SIMULATION: simulations started per address
    rate_limit_auth_failures: str = "30/minute"  # BRIMSTONE_RATE_LIMIT_AUTH_FAILURES: wrong tokens per address
    max_simulations_per_client: int = 2  # BRIMSTONE_MAX_SIMULATIONS_PER_CLIENT: unfinished jobs per address
    max_queued_simulations: int = 16  # BRIMSTONE_MAX_QUEUED_SIMULATIONS: unfinished jobs in all (503 beyond)
    graphql_max_depth: int = 12  # BRIMSTONE_GRAPHQL_MAX_DEPTH
    graphql_max_aliases: int = 30  # BRIMSTONE_GRAPHQL_MAX_ALIASES
    graphql_max_cost: int = 2000  # BRIMSTONE_GRAPHQL_MAX_COST: fields selected, fragments expanded
    graphql_max_root_fields: int = 10  # BRIMSTONE_GRAPHQL_MAX_ROOT_FIELDS: mutations (or queries) in one request
    # HTTP
    cors_origins: tuple[str, ...] = ()  # BRIMSTONE_CORS_ORIGINS: comma-separated origins allowed by CORS (none)
    hsts: bool = False  # BRIMSTONE_HSTS=1: send Strict-Transport-Security (only behind HTTPS)
    metrics_port: int = 0  # BRIMSTONE_METRICS_PORT: /metrics on this port of its own (0: no metrics), never the API's
    metrics_host: str | None = None  # BRIMSTONE_METRICS_HOST: the interface of the metrics port (default: `host`)
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")  # BRIMSTONE_TRUSTED_PROXIES: addresses or networks
    # whose X-Forwarded-For names the client (comma-separated; empty: none, the peer's address is the client's)
    command_lane: bool = True  # BRIMSTONE_COMMAND_LANE=0: every command through litestar (services/api/rest/lane.py)
    ws_compression: bool = False  # BRIMSTONE_WS_COMPRESSION=1: accept permessage-deflate on websockets (docs/operations.md)
    jobs_db: str | None = None  # BRIMSTONE_JOBS_DB: embedded simulation jobs (default: beside the table file)

    @property
    def storage(self) -> str:
        """"redis" or "sqlite": which store this configuration opens."""
        return "redis" if self.redis_url else "sqlite"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from the environment (see the field comments), then explicit overrides that are not None."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        text = {
            "REDIS_URL": "redis_url",
            "BRIMSTONE_DB": "db_path",
            "BRIMSTONE_REDIS_PREFIX": "redis_prefix",
            "BRIMSTONE_HOST_TOKEN": "host_token",
            "BRIMSTONE_TABLES_REDIS_URL": "tables_redis_url",
            "BRIMSTONE_PUBLIC_URL": "public_url",
            "BRIMSTONE_SIMULATION_EXECUTOR": "simulation_executor",
            "BRIMSTONE_RQ_QUEUE": "rq_queue",
            "BRIMSTONE_HOST": "host",
            "BRIMSTONE_LOG_LEVEL": "log_level",
            "BRIMSTONE_JOBS_DB": "jobs_db",
            "BRIMSTONE_METRICS_HOST": "metrics_host",
        }
        rates = {  # set but empty switches the limit off (an unset one keeps its default)
            "BRIMSTONE_RATE_LIMIT_ADDRESS": "rate_limit_address",
            "BRIMSTONE_RATE_LIMIT_TOKEN": "rate_limit_token",
            "BRIMSTONE_RATE_LIMIT_CREATE": "rate_limit_create",
            "BRIMSTONE_RATE_LIMIT_SIMULATION": "rate_limit_simulation",
            "BRIMSTONE_RATE_LIMIT_AUTH_FAILURES": "rate_limit_auth_failures",
        }
        numbers = {
            "BRIMSTONE_PORT": "port",
            "BRIMSTONE_MAX_TRIALS": "max_trials",
            "BRIMSTONE_MAX_ODDS_TRIALS": "max_odds_trials",
            "BRIMSTONE_ODDS_CHUNK_TRIALS": "odds_chunk_trials",
            "BRIMSTONE_SIMULATION_CHUNKS": "simulation_chunks",
            "BRIMSTONE_SIMULATION_WORKERS": "simulation_workers",
            "BRIMSTONE_CHECKPOINT_EVERY": "checkpoint_every",
            "BRIMSTONE_RETENTION": "retention",
            "BRIMSTONE_ARCHIVE_RETENTION": "archive_retention",
            "BRIMSTONE_MAX_SIMULATIONS_PER_CLIENT": "max_simulations_per_client",
            "BRIMSTONE_MAX_QUEUED_SIMULATIONS": "max_queued_simulations",
            "BRIMSTONE_GRAPHQL_MAX_DEPTH": "graphql_max_depth",
            "BRIMSTONE_GRAPHQL_MAX_ALIASES": "graphql_max_aliases",
            "BRIMSTONE_GRAPHQL_MAX_COST": "graphql_max_cost",
            "BRIMSTONE_GRAPHQL_MAX_ROOT_FIELDS": "graphql_max_root_fields",
            "BRIMSTONE_ALERT_IDLE": "alert_idle",
            "BRIMSTONE_ALERT_STUCK": "alert_stuck",
            "BRIMSTONE_METRICS_PORT": "metrics_port",
        }
        for name, attr in text.items():
            if env.get(name):
                values[attr] = env[name]
        for name, attr in rates.items():
            if name in env:
                values[attr] = env[name].strip()
        for name, attr in numbers.items():
            if env.get(name):
                try:
                    values[attr] = int(env[name])
                except ValueError:
                    raise ValueError(f"{name}: {env[name]!r} is not a whole number") from None
        if "BRIMSTONE_CORS_ORIGINS" in env:
            values["cors_origins"] = tuple(o.strip() for o in env["BRIMSTONE_CORS_ORIGINS"].split(",") if o.strip())
        if "BRIMSTONE_TRUSTED_PROXIES" in env:
            values["trusted_proxies"] = tuple(a.strip() for a in env["BRIMSTONE_TRUSTED_PROXIES"].split(",")
                                              if a.strip())
        for name, attr in (("BRIMSTONE_HSTS", "hsts"), ("BRIMSTONE_COMMAND_LANE", "command_lane"),
                           ("BRIMSTONE_WS_COMPRESSION", "ws_compression")):
            if env.get(name):
                values[attr] = env[name].strip().lower() in ("1", "true", "yes", "on")
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls(**values).checked()

    def checked(self) -> Settings:
        """Refuse values the service cannot run with, naming the setting."""
        if self.simulation_executor not in ("process", "thread"):
            raise ValueError(f"simulation_executor: {self.simulation_executor!r} is not 'process' or 'thread'")
        for name in ("max_trials", "simulation_chunks", "min_chunk_trials", "simulation_workers", "max_odds_trials",
                     "odds_chunk_trials", "checkpoint_every", "max_simulations_per_client", "max_queued_simulations",
                     "graphql_max_depth", "graphql_max_aliases", "graphql_max_cost", "graphql_max_root_fields"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}: must be at least 1")
        for name in ("retention", "archive_retention", "alert_idle", "alert_stuck"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name}: must be 0 (keep) or more seconds")
        for name in ("rate_limit_address", "rate_limit_token", "rate_limit_create", "rate_limit_simulation",
                     "rate_limit_auth_failures"):
            value = getattr(self, name)
            if value and not RATE.match(value):
                raise ValueError(f"{name}: {value!r} is not a rate such as '60/minute'")
        for name in ("port", "metrics_port"):
            if not 0 <= getattr(self, name) <= 65535:
                raise ValueError(f"{name}: {getattr(self, name)} is not a TCP port")
        if self.metrics_port and self.metrics_port == self.port:
            raise ValueError(f"metrics_port: {self.metrics_port} is the API's port; metrics never share the public "
                             "listener")
        import ipaddress

        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(f"trusted_proxies: {proxy!r} is not an address or a network such as "
                                 "10.0.0.0/8") from None
        return self

    def with_(self, **changes: Any) -> Settings:
        known = {f.name for f in fields(self)}
        unknown = set(changes) - known
        if unknown:
            raise TypeError(f"unknown settings {sorted(unknown)}")
        return replace(self, **changes).checked()
