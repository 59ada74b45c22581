"""Shared fixtures for service tests. Store fixtures are prefixed `store_`; add your own below."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from pytest_redis import factories
from pytest_redis.executor import RedisExecutor

from services.store import SessionStore
from services.store.redis import RedisStore
from services.store.sqlite import SqliteStore
from tests import processes

# A throwaway redis-server on a free port, started once per test session.
# (its start deadline scales with the machine's load, as every process the suite starts: tests/processes.py)
store_redis_proc = factories.redis_proc(port=None, timeout=int(processes.start_timeout()))  # type: ignore[arg-type]  # None = any free port (documented)


@pytest.fixture
def anyio_backend() -> str:
    """Run `@pytest.mark.anyio` tests on asyncio only (redis.asyncio needs it)."""
    return "asyncio"


@pytest.fixture
def store_redis_url(store_redis_proc: RedisExecutor) -> str:
    """URL of the throwaway Redis server."""
    return f"redis://{store_redis_proc.host}:{store_redis_proc.port}/0"


@pytest.fixture(params=["sqlite", "redis"])
def store_backend(request: pytest.FixtureRequest) -> str:
    """Parametrizes a test over both store backends."""
    return str(request.param)


StoreFactory = Callable[..., SessionStore]


@pytest.fixture
def store_target(store_backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> tuple[str, str]:
    """Where the test's stores live: ("sqlite", file path) or ("redis", URL); Redis only starts if used."""
    if store_backend == "redis":
        return "redis", str(request.getfixturevalue("store_redis_url"))
    return "sqlite", str(tmp_path / "sessions.sqlite3")


@pytest.fixture
async def store_factory(anyio_backend: str, store_target: tuple[str, str]) -> AsyncIterator[StoreFactory]:
    """Builds store instances over the same storage (one SQLite file, or one Redis key prefix).

    Each call is a fresh instance, like a restart or another replica; keyword arguments go to the
    store's constructor (e.g. idempotency_ttl). All instances are closed after the test.
    """
    backend, where = store_target
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    made: list[SessionStore] = []

    def make(**kwargs: Any) -> SessionStore:
        store: SessionStore = (
            RedisStore(where, prefix=prefix, **kwargs) if backend == "redis" else SqliteStore(where, **kwargs)
        )
        made.append(store)
        return store

    yield make
    for store in made:
        await store.close()


@pytest.fixture
def store(store_factory: StoreFactory) -> SessionStore:
    """A fresh, empty store on the parametrized backend."""
    return store_factory()
