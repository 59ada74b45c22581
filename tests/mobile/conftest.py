"""Fixtures for the app's end-to-end tests: a throwaway Redis and the real service process on a free port."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pytest_redis import factories
from pytest_redis.executor import RedisExecutor

from tests import processes

ROOT = Path(__file__).resolve().parents[2]

mobile_redis_proc = factories.redis_proc(port=None, timeout=int(processes.start_timeout()))


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
        """Launch the service and wait until GraphQL answers `health` (the deadline scales with the machine's load;
        a server that exits fails at once); a start that fails stops what it launched."""
        with self.log.open("ab") as out:
            self.process = processes.launch(
                [sys.executable, "-m", "services.api.serve", "--port", str(self.port), "--redis", self.redis_url,
                 "--log-level", "warning"],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip

        def healthy() -> bool:
            answer = httpx.post(f"{self.url}/graphql", json={"query": "{ health { status } }"},
                                timeout=processes.start_timeout())
            return answer.status_code == 200 and answer.json()["data"]["health"]["status"] == "ok"

        try:
            processes.wait_ready(healthy, what=f"the server on port {self.port}", process=self.process,
                                 log=self.log.read_text)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        process, self.process = self.process, None
        processes.stop(process)


@pytest.fixture
def live_server(mobile_redis_proc: RedisExecutor, tmp_path: Path) -> Iterator[ServerProcess]:
    """The service, started fresh for one test, on its own Redis database prefix."""
    url = f"redis://{mobile_redis_proc.host}:{mobile_redis_proc.port}/0"
    server = ServerProcess(url, tmp_path / "server.log")
    try:
        server.start()
        yield server
    finally:
        server.stop()
