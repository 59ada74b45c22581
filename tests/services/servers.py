"""Real server processes for the service tests: the API (`python -m services.api.serve`) and rq workers.

Each process runs from the repository root with its own port, storage and (for Redis) key prefix and queue, so
tests can share one throwaway redis-server. Output goes to a log file that failures print.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests import processes

ROOT = Path(__file__).resolve().parents[2]
GENEROUS_LIMITS = {  # every test client is 127.0.0.1: limits high enough for any test but the limit tests
    "BRIMSTONE_RATE_LIMIT_ADDRESS": "100000/minute", "BRIMSTONE_RATE_LIMIT_TOKEN": "100000/minute",
    "BRIMSTONE_RATE_LIMIT_CREATE": "10000/minute", "BRIMSTONE_RATE_LIMIT_SIMULATION": "10000/minute",
    "BRIMSTONE_RATE_LIMIT_AUTH_FAILURES": "10000/minute", "BRIMSTONE_MAX_SIMULATIONS_PER_CLIENT": "1000",
    "BRIMSTONE_MAX_QUEUED_SIMULATIONS": "1000"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRIMSTONE_", "REDIS_URL"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


@dataclass
class Storage:
    """Where a server keeps sessions: a SQLite file, or a Redis URL with a key prefix and rq queue of its own."""

    kind: str
    db_path: Path | None = None
    redis_url: str | None = None
    prefix: str = field(default_factory=lambda: f"t{uuid.uuid4().hex[:10]}")

    @property
    def queue(self) -> str:
        return f"{self.prefix}-sims"

    def args(self) -> list[str]:
        if self.kind == "redis":
            assert self.redis_url
            return ["--redis", self.redis_url, "--redis-prefix", self.prefix]
        assert self.db_path
        return ["--db", str(self.db_path)]

    def env(self) -> dict[str, str]:
        return {"BRIMSTONE_RQ_QUEUE": self.queue} if self.kind == "redis" else {}


def sqlite_storage(tmp: Path) -> Storage:
    return Storage("sqlite", db_path=tmp / "brimstone.sqlite3")


def redis_storage(redis_url: str) -> Storage:
    return Storage("redis", redis_url=redis_url)


class ServerProcess:
    """`python -m services.api.serve` on a free port; start(), stop(), restart() keep the same storage."""

    def __init__(self, storage: Storage, log_dir: Path, *, host_token: str = "host-secret",
                 env: dict[str, str] | None = None, build_graphql: bool = True) -> None:
        self.storage = storage
        self.build_graphql = build_graphql
        """Send one GraphQL query once healthy (so no test times the schema's build); False: the first request a
        test sends is the server's first after its start."""
        self.port = free_port()
        self.host_token = host_token
        self.extra_env = env or {}
        self.log_path = log_dir / f"server-{self.port}-{uuid.uuid4().hex[:6]}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/graphql"

    def start(self) -> ServerProcess:
        """Launch the server and wait until /v1/health answers (the deadline scales with the machine's load;
        a server that exits fails at once); a start that fails stops what it launched."""
        command = [sys.executable, "-m", "services.api.serve", "--port", str(self.port), "--log-level", "warning",
                   *self.storage.args()]
        env = _env({"BRIMSTONE_HOST_TOKEN": self.host_token, **self.storage.env(), **GENEROUS_LIMITS,
                    **self.extra_env})
        with self.log_path.open("ab") as log:
            self.process = processes.launch(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            processes.wait_ready(self.healthy, what=f"server on port {self.port}", process=self.process, log=self.log)
            # the GraphQL schema is built on the first GraphQL request: build it now, so no test times its build
            if self.build_graphql:
                processes.wait_ready(self.graphql_ready, what=f"GraphQL on port {self.port}", process=self.process,
                                     log=self.log)
        except BaseException:
            self.stop()
            raise
        return self

    def healthy(self) -> bool:
        return httpx.get(f"{self.url}/v1/health", timeout=2.0).status_code == 200

    def graphql_ready(self) -> bool:
        """One GraphQL query answered (from an address of its own: it counts against no test's rate limit)."""
        answer = httpx.post(f"{self.url}/graphql", json={"query": "{ __typename }"},
                            headers={"X-Forwarded-For": "192.0.2.254"}, timeout=processes.start_timeout())
        return answer.status_code < 500

    def stop(self, *, group: bool = True) -> None:
        """SIGTERM (uvicorn's graceful shutdown), SIGKILL after 10 s; then, unless `group=False` (a test that
        checks the server ends its own children), SIGKILL whatever the server left of its process group."""
        process, self.process = self.process, None
        processes.stop(process, group=group)

    def restart(self) -> ServerProcess:
        self.stop()
        return self.start()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def client(self, token: str | None = None, *, headers: dict[str, str] | None = None, **kwargs: Any
               ) -> httpx.Client:
        sent = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers={**sent, **(headers or {})}, timeout=30.0, **kwargs)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class WorkerProcess:
    """`python -m services.jobs.worker` (what `brimstone worker` runs) on a Redis storage's queue."""

    def __init__(self, storage: Storage, log_dir: Path, *, burst: bool = False) -> None:
        assert storage.kind == "redis" and storage.redis_url
        self.storage = storage
        self.burst = burst
        self.log_path = log_dir / f"worker-{uuid.uuid4().hex[:8]}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> WorkerProcess:
        assert self.storage.redis_url
        command = [sys.executable, "-m", "services.jobs.worker", "--redis", self.storage.redis_url, "--queue",
                   self.storage.queue, "--log-level", "info", *(["--burst"] if self.burst else [])]  # its story, if it fails
        with self.log_path.open("ab") as log:
            self.process = processes.launch(command, cwd=ROOT, env=_env({}), stdout=log, stderr=subprocess.STDOUT)
        return self

    def stop(self) -> None:
        process, self.process = self.process, None
        processes.stop(process, grace=30)  # rq: SIGTERM is a warm shutdown, finishing the current job

    def wait(self, timeout: float | None = None) -> int | None:
        """Wait for a burst worker to empty the queue and exit by itself (a deadline that scales with the machine's
        load); stop it if it does not."""
        if self.process is None:
            return None
        try:
            return self.process.wait(timeout=timeout or processes.start_timeout())
        except subprocess.TimeoutExpired:
            self.stop()
            return None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def create_session(client: httpx.Client, heroes: list[dict[str, Any]] | None = None, **body: Any) -> dict[str, Any]:
    """POST /v1/sessions and return the 201 body (join code, token, first state)."""
    payload = {"heroes": heroes or [{"id": "anna", "name": "Anna"}, {"id": "bo", "name": "Bo"}], **body}
    response = client.post("/v1/sessions", json=payload)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def answer_prompt(prompt: dict[str, Any]) -> dict[str, Any]:
    """A plain answer to any prompt: typed 4s for a roll, the first option, keep the dice, an empty card."""
    kind = prompt["kind"]
    if kind == "roll":
        return {"type": "roll", "faces": [4] * max(1, prompt["dice_count"]), "prompt": prompt["id"]}
    if kind == "choice":
        return {"type": "choose", "option": prompt["options"][0]["key"], "prompt": prompt["id"]}
    if kind == "reroll":
        return {"type": "reroll", "indices": [], "prompt": prompt["id"]}
    if kind == "card":
        return {"type": "enter_card", "text": "nothing happens", "prompt": prompt["id"]}
    raise AssertionError(f"unknown prompt kind {kind!r}")


def next_command(view: dict[str, Any], size: str = "medium") -> dict[str, Any]:
    """What a table does next on the road: answer the prompt, else the phase's command."""
    if view["pending"] is not None:
        return answer_prompt(view["pending"])
    phase = view["state"]["phase"]
    if phase == "between_adventures":
        return {"type": "choose_town_size", "size": size}
    if phase == "travel":
        return {"type": "roll_hazard"}
    if phase == "arrival":
        return {"type": "arrive"}
    if phase == "town":
        return {"type": "end_town_stay"}
    raise AssertionError(f"unknown phase {phase!r}")
