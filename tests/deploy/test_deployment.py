"""The deployment runs (issue 13), on one machine and without containers, exactly as deploy/ describes it: Redis
from deploy/redis.conf (AOF, maxmemory with noeviction), two API replicas and two rq workers, behind nginx running
deploy/nginx.conf (only its addresses, ports and certificate paths changed) with TLS from a self-signed certificate.

Two tables of an event are played through the proxy while a phone per table follows it over a GraphQL
subscription (wss) and the host follows the event's stream (server-sent events); one replica is killed mid-evening
and the tables keep going; a simulation is worked off by the rq workers.

Issue 21: Redis asks for a password (as in compose and Kubernetes) and the whole stack uses a Redis URL with it;
nginx overwrites X-Forwarded-For, so a client behind the proxy cannot pick its address, while the room sharing the
proxy's one address is never locked out by another phone's wrong tokens; /metrics is never served through the proxy;
the workers answer `brimstone worker --alive`.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
import websockets

from tests import processes, system_packages
from tests.services.servers import (
    ROOT,
    ServerProcess,
    Storage,
    WorkerProcess,
    free_port,
    next_command,
    redis_storage,
)

HERO = {"id": "hanzo", "name": "Hanzo"}
WAIT = 30.0  # seconds on an idle machine; every wait scales it with the load (tests/processes.start_timeout)
REDIS_PASSWORD = "deployment-test-password"
WRONG_TOKENS = 4
"""BRIMSTONE_RATE_LIMIT_AUTH_FAILURES of the replicas: wrong tokens answered 403 per minute and address."""


def _ensure(binary: str, package: str) -> str:
    return system_packages.ensure(binary, package)


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A self-signed certificate for 127.0.0.1 (a venue would use its own)."""
    path = tmp_path_factory.mktemp("tls")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(path / "brimstone.key"),
                    "-out", str(path / "brimstone.crt")], check=True, capture_output=True)
    return path


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """redis-server with deploy/redis.conf (its data in a temporary dir, on a free port, 64 MB)."""
    data = tmp_path_factory.mktemp("redis")
    port = free_port()
    process = processes.launch([shutil.which("redis-server") or "redis-server", str(ROOT / "deploy" / "redis.conf"),
                                "--port", str(port), "--dir", str(data), "--bind", "127.0.0.1",
                                "--maxmemory", "64mb", "--requirepass", REDIS_PASSWORD],
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    client = redis.Redis(port=port, password=REDIS_PASSWORD)
    try:
        processes.wait_ready(client.ping, what=f"redis-server on port {port}", process=process)
        yield f"redis://:{REDIS_PASSWORD}@127.0.0.1:{port}/0"
    finally:
        client.close()
        processes.stop(process)


@pytest.fixture(scope="module")
def stack(redis_url: str, tls: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    logs = tmp_path_factory.mktemp("stack-logs")
    storage: Storage = redis_storage(redis_url)
    replicas = [ServerProcess(storage, logs, env={"BRIMSTONE_SIMULATION_EXECUTOR": "thread",
                                                  "BRIMSTONE_RATE_LIMIT_AUTH_FAILURES": f"{WRONG_TOKENS}/minute",
                                                  "BRIMSTONE_METRICS_PORT": str(free_port())})
                for _ in range(2)]
    workers = [WorkerProcess(storage, logs) for _ in range(2)]
    nginx = _ensure("nginx", "nginx")
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    https, http = free_port(), free_port()
    for replica, name in zip(replicas, ("api-1:8000", "api-2:8000"), strict=True):
        conf = conf.replace(f"server {name}", f"server 127.0.0.1:{replica.port}")
    conf = conf.replace("listen 443 ssl", f"listen 127.0.0.1:{https} ssl").replace("listen 80;", f"listen 127.0.0.1:{http};")
    conf = conf.replace("/etc/nginx/tls/", f"{tls}/")
    prefix = tmp_path_factory.mktemp("nginx")
    (prefix / "brimstone.conf").write_text(conf)
    (prefix / "nginx.conf").write_text(
        f"worker_processes 1;\npid {prefix}/nginx.pid;\nerror_log {prefix}/error.log warn;\n"
        f"events {{ worker_connections 1024; }}\n"
        f"http {{ access_log {prefix}/access.log; client_body_temp_path {prefix}/body; proxy_temp_path {prefix}/proxy;"
        f" fastcgi_temp_path {prefix}/fastcgi; uwsgi_temp_path {prefix}/uwsgi; scgi_temp_path {prefix}/scgi;\n"
        f"  include {prefix}/brimstone.conf;\n}}\n")
    proxy: subprocess.Popen[bytes] | None = None
    try:
        for replica in replicas:
            replica.start()
        for worker in workers:
            worker.start()
        check = subprocess.run([nginx, "-t", "-c", str(prefix / "nginx.conf"), "-p", str(prefix)], capture_output=True,
                               text=True, check=False)
        assert check.returncode == 0, check.stderr
        proxy = processes.launch([nginx, "-c", str(prefix / "nginx.conf"), "-p", str(prefix), "-g", "daemon off;"])
        url = f"https://127.0.0.1:{https}"
        trusted = ssl.create_default_context(cafile=str(tls / "brimstone.crt"))
        processes.wait_ready(lambda: httpx.get(f"{url}/v1/ready", verify=trusted).status_code == 200,
                             what="the proxy", process=proxy)
        yield {"url": url, "http": f"http://127.0.0.1:{http}", "verify": str(tls / "brimstone.crt"),
               "replicas": replicas, "workers": workers, "admin": replicas[0].host_token, "redis": redis_url,
               "nginx_log": prefix / "error.log"}
    finally:
        processes.stop(proxy)  # SIGTERM: nginx's fast shutdown (a graceful one waits on the evening's open streams)
        for worker in workers:
            worker.stop()
        for replica in replicas:
            replica.stop()


def _until(check: Any, what: str, timeout: float = WAIT) -> Any:
    """What `check()` returns once it is truthy, polled with backoff; the deadline (`timeout` on an idle machine)
    scales with the machine's load."""
    found: list[Any] = []

    def truthy() -> bool:
        found[:] = [check()]
        return bool(found[0])

    try:
        processes.wait_ready(truthy, what=what, timeout=processes.start_timeout(timeout))
    except processes.NotReady as error:
        raise AssertionError(str(error)) from None
    return found[0]


class Phone:
    """A phone at a table: its writes through the proxy (retried with the same key, as the app does) and its
    subscription (wss through the proxy), resubscribing with the last version it saw when its replica dies."""

    def __init__(self, stack: dict[str, Any], code: str, token: str) -> None:
        self.stack, self.code, self.token = stack, code, token
        self.seen: list[int] = []
        self.client = httpx.Client(base_url=stack["url"], timeout=30,
                                   verify=ssl.create_default_context(cafile=stack["verify"]),
                                   headers={"Authorization": f"Bearer {token}"})
        self.view: dict[str, Any] = self.client.get(f"/v1/sessions/{code}").json()

    def send(self, command: dict[str, Any], key: str) -> dict[str, Any]:
        for _ in range(20):
            try:
                response = self.client.post(f"/v1/sessions/{self.code}/commands", json=command,
                                            headers={"Idempotency-Key": key})
            except httpx.TransportError:
                continue
            if response.status_code in (502, 503):
                continue
            assert response.status_code == 200, response.text
            body: dict[str, Any] = response.json()
            return body
        raise AssertionError("the proxy never answered")

    async def follow(self, upto: int) -> None:
        """Every version after 0 up to `upto`, in order, reconnecting after a dropped connection."""
        context = ssl.create_default_context(cafile=self.stack["verify"])
        ws_url = self.stack["url"].replace("https", "wss") + "/graphql"
        while not self.seen or self.seen[-1] < upto:
            after = self.seen[-1] if self.seen else 0
            try:
                async with websockets.connect(ws_url, subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
                                              ssl=context) as ws:
                    await ws.send(json.dumps({"type": "connection_init", "payload": {"token": self.token}}))
                    assert json.loads(await ws.recv())["type"] == "connection_ack"
                    query = ("subscription($s: String!, $v: Int) { sessionChanges(sessionId: $s, afterVersion: $v) "
                             "{ version } }")
                    await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                        "query": query, "variables": {"s": self.code, "v": after}}}))
                    while not self.seen or self.seen[-1] < upto:
                        message = json.loads(await asyncio.wait_for(ws.recv(), processes.start_timeout(WAIT)))
                        if message["type"] == "next":
                            self.seen.append(message["payload"]["data"]["sessionChanges"]["version"])
            except (websockets.ConnectionClosed, OSError):
                await asyncio.sleep(0.1)  # the replica went away: resubscribe after the last version seen


def _the_proxy_decides_the_address(stack: dict[str, Any], table: dict[str, Any]) -> None:
    """Wrong tokens through the proxy, each with a forged X-Forwarded-For: they all come from the proxy's one
    address (nginx overwrote the header), so the guesser is refused past the limit; the right token from that same
    address still plays (one phone holding a replaced card cannot lock out the room behind it)."""
    verify = ssl.create_default_context(cafile=stack["verify"])
    url = f"{stack['url']}/v1/sessions/{table['session_id']}"
    statuses = [httpx.get(url, verify=verify, headers={"Authorization": f"Bearer wrong-{n}",
                                                       "X-Forwarded-For": f"10.66.{n}.1"}).status_code
                for n in range(WRONG_TOKENS + 2)]
    assert statuses == [403] * WRONG_TOKENS + [429, 429], statuses
    assert httpx.get(url, verify=verify, headers={"Authorization": f"Bearer {table['token']}",
                                                  "X-Forwarded-For": "10.66.0.1"}).status_code == 200
    assert httpx.get(f"{stack['url']}/metrics", verify=verify).status_code == 404  # never through the proxy
    for replica in stack["replicas"]:  # each replica's own metrics port has it, the lockout counted
        metrics = httpx.get(f"http://127.0.0.1:{replica.extra_env['BRIMSTONE_METRICS_PORT']}/metrics").text
        assert "brimstone_build_info" in metrics and "process_cpu_seconds_total" in metrics
    assert any('brimstone_rate_limited_total{policy="auth-failures"}' in httpx.get(
        f"http://127.0.0.1:{r.extra_env['BRIMSTONE_METRICS_PORT']}/metrics").text for r in stack["replicas"])


def _workers_are_alive(stack: dict[str, Any]) -> None:
    """`brimstone worker --alive` (the workers' liveness probe) finds this host's workers in rq's registry, and
    finds none on a Redis database no worker uses."""
    def alive(url: str) -> int:
        return subprocess.run([sys.executable, "-m", "services.jobs.worker", "--redis", url, "--alive"],
                              cwd=ROOT, capture_output=True, check=False, timeout=60).returncode
    _until(lambda: alive(stack["redis"]) == 0, "the workers to register")
    assert alive(stack["redis"].rsplit("/", 1)[0] + "/9") == 1


@pytest.mark.slow
def test_an_event_plays_through_the_proxy_and_survives_a_replica(stack: dict[str, Any]) -> None:
    url, verify = stack["url"], ssl.create_default_context(cafile=stack["verify"])
    r = redis.Redis.from_url(stack["redis"])
    assert r.config_get("appendonly")["appendonly"] == "yes"
    assert r.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
    assert r.config_get("protected-mode")["protected-mode"] == "yes"
    with pytest.raises(redis.AuthenticationError):  # no password, no Redis
        redis.Redis.from_url(stack["redis"].replace(f":{REDIS_PASSWORD}@", "")).ping()
    assert httpx.get(f"{stack['http']}/v1/health").status_code == 301  # plain HTTP only redirects to TLS
    _workers_are_alive(stack)

    with httpx.Client(base_url=url, verify=verify, timeout=30) as c:
        event = c.post("/v1/events", json={"name": "Deployment night"},
                       headers={"Authorization": f"Bearer {stack['admin']}"}).json()
        host = {"Authorization": f"Bearer {event['host_token']}"}
        tables = c.post(f"/v1/events/{event['event_id']}/tables", json={"count": 2, "heroes": [HERO]},
                        headers=host).json()["tables"]
        simulation = c.post("/v1/simulations", json={"heroes": [HERO], "size": "medium", "trials": 400}).json()
    _the_proxy_decides_the_address(stack, tables[0])
    phones = [Phone(stack, t["session_id"], t["token"]) for t in tables]
    moves = 8  # per table: 4 before the replica dies, 4 after
    board: dict[str, int] = {}  # join code -> the latest version the host's stream showed

    def host_follows() -> None:
        """The host's dashboard: the event's stream through the proxy, reconnecting (as EventSource does) when its
        replica dies, until both tables show their last move."""
        deadline = time.monotonic() + processes.start_timeout(120)
        while time.monotonic() < deadline:
            try:
                with httpx.Client(base_url=url, verify=verify, timeout=None, headers=host) as client, \
                        client.stream("GET", f"/v1/events/{event['event_id']}/changes") as stream:
                    for line in stream.iter_lines():
                        if line.startswith("data:"):
                            table = json.loads(line[5:])
                            board[table["session_id"]] = max(board.get(table["session_id"], 0), table["version"])
                            if len(board) == 2 and min(board.values()) == moves:
                                return
            except httpx.HTTPError:
                time.sleep(0.1)

    watcher = threading.Thread(target=host_follows, daemon=True)
    watcher.start()

    async def evening() -> None:
        following = [asyncio.create_task(phone.follow(moves)) for phone in phones]
        for move in range(1, moves + 1):
            if move == moves // 2 + 1:
                stack["replicas"][0].process.kill()  # SIGKILL: a replica dies mid-evening
                stack["replicas"][0].process.wait()
            for phone in phones:
                phone.view = await asyncio.to_thread(phone.send, next_command(phone.view, "small"),
                                                     f"{phone.code}-{move}")
                assert phone.view["version"] == move
        await asyncio.wait_for(asyncio.gather(*following), processes.start_timeout(60))

    asyncio.run(evening())
    for phone in phones:
        assert phone.seen == list(range(1, moves + 1)), phone.seen  # every version, in order, no gap
    watcher.join(processes.start_timeout(WAIT))
    assert not watcher.is_alive(), "the host's event stream missed the last moves"
    assert board == {p.code: moves for p in phones}

    with httpx.Client(base_url=url, verify=verify, timeout=30) as c:
        job = _until(lambda: (j := c.get(f"/v1/simulations/{simulation['job_id']}").json())["status"] == "finished"
                     and j, "the rq workers to finish the simulation", 120)
        assert job["backend"] == "rq" and job["result"]["trials"] == 400
        exported = c.get(f"/v1/events/{event['event_id']}/export", headers=host).json()
    assert [len(t["log"]) for t in exported["tables"]] == [moves + 1, moves + 1]

