"""Fixtures for the app's end-to-end tests: a throwaway Redis and the real service process on a free port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pytest_redis import factories
from pytest_redis.executor import RedisExecutor

ROOT = Path(__file__).resolve().parents[2]

mobile_redis_proc = factories.redis_proc(port=None)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """`python -m services.api.serve` on Redis; can be stopped and started again on the same port."""

    def __init__(self, redis_url: str, log: Path) -> None:
        self.redis_url = redis_url
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "services.api.serve", "--port", str(self.port), "--redis", self.redis_url,
                 "--log-level", "warning"],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{self.log.read_text()}")
            try:
                answer = httpx.post(f"{self.url}/graphql", json={"query": "{ health { status } }"}, timeout=1)
                if answer.status_code == 200 and answer.json()["data"]["health"]["status"] == "ok":
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not answer in 30 s:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@pytest.fixture
def live_server(mobile_redis_proc: RedisExecutor, tmp_path: Path) -> Iterator[ServerProcess]:
    """The service, started fresh for one test, on its own Redis database prefix."""
    url = f"redis://{mobile_redis_proc.host}:{mobile_redis_proc.port}/0"
    server = ServerProcess(url, tmp_path / "server.log")
    server.start()
    yield server
    server.stop()
