"""Service settings: one frozen value built from the environment and the command line, passed to create_app().

Storage is Redis when a URL is set (REDIS_URL / --redis), else the SQLite file (BRIMSTONE_DB / --db).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

DEFAULT_DB = "./data/brimstone.sqlite3"


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the service reads at start-up; nothing else reads the environment."""

    host: str = "127.0.0.1"
    port: int = 8000
    redis_url: str | None = None  # REDIS_URL: shared storage, pub/sub across replicas, rq simulations
    db_path: str = DEFAULT_DB  # BRIMSTONE_DB: the embedded SQLite file when no Redis is configured
    redis_prefix: str = "brimstone"  # BRIMSTONE_REDIS_PREFIX: namespaces keys so deployments can share a server
    host_token: str | None = None  # BRIMSTONE_HOST_TOKEN: the event host's token (lists and reads every table)
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
            "BRIMSTONE_SIMULATION_EXECUTOR": "simulation_executor",
            "BRIMSTONE_RQ_QUEUE": "rq_queue",
            "BRIMSTONE_HOST": "host",
            "BRIMSTONE_LOG_LEVEL": "log_level",
        }
        numbers = {
            "BRIMSTONE_PORT": "port",
            "BRIMSTONE_MAX_TRIALS": "max_trials",
            "BRIMSTONE_MAX_ODDS_TRIALS": "max_odds_trials",
            "BRIMSTONE_ODDS_CHUNK_TRIALS": "odds_chunk_trials",
            "BRIMSTONE_SIMULATION_CHUNKS": "simulation_chunks",
            "BRIMSTONE_SIMULATION_WORKERS": "simulation_workers",
        }
        for name, attr in text.items():
            if env.get(name):
                values[attr] = env[name]
        for name, attr in numbers.items():
            if env.get(name):
                try:
                    values[attr] = int(env[name])
                except ValueError:
                    raise ValueError(f"{name}: {env[name]!r} is not a whole number") from None
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls(**values).checked()

    def checked(self) -> Settings:
        """Refuse values the service cannot run with, naming the setting."""
        if self.simulation_executor not in ("process", "thread"):
            raise ValueError(f"simulation_executor: {self.simulation_executor!r} is not 'process' or 'thread'")
        for name in ("max_trials", "simulation_chunks", "min_chunk_trials", "simulation_workers", "max_odds_trials",
                     "odds_chunk_trials"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}: must be at least 1")
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port: {self.port} is not a TCP port")
        return self

    def with_(self, **changes: Any) -> Settings:
        known = {f.name for f in fields(self)}
        unknown = set(changes) - known
        if unknown:
            raise TypeError(f"unknown settings {sorted(unknown)}")
        return replace(self, **changes).checked()
