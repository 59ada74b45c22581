"""Commands per second and latency of posting a command to the service on Redis, next to a bare litestar endpoint
doing one Redis GET and one SET, measured in the same run on the same machine; prints the ratio (target >= 0.5).

    python bench/service.py [--clients 16] [--seconds 8] [--redis redis://127.0.0.1:6379/0]

Both servers run the same way (uvicorn, one process, uvloop/httptools) against the same Redis; each client is one
table posting `adjust` (+1 XP) to its own session, one request at a time, like a phone at a table. Without
--redis a throwaway redis-server is started on a free port.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


# ---- the bare endpoint: what the least a stateless service on Redis can do per request ----------------------


def bare_app(redis_url: str) -> Any:
    """POST /bare/{key}: read a JSON body, GET the key, SET it to the value + 1, answer JSON."""
    from litestar import Litestar, Request, post
    from redis.asyncio import Redis

    client = Redis.from_url(redis_url)

    @post("/bare/{key:str}", status_code=200)
    async def bump(key: str, request: Request[Any, Any, Any]) -> dict[str, Any]:
        body = await request.json()
        value = int(await client.get(f"bare:{key}") or 0) + 1
        await client.set(f"bare:{key}", value)
        return {"key": key, "value": value, "echo": body.get("type")}

    return Litestar([bump])


def serve_bare(port: int, redis_url: str) -> None:
    import uvicorn

    uvicorn.run(bare_app(redis_url), host="127.0.0.1", port=port, log_level="warning", lifespan="on")


# ---- processes --------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_http(url: str, process: subprocess.Popen[bytes], timeout: float = 30) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url}: the server exited with {process.returncode}")
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer in {timeout}s")


LOGS = Path(tempfile.mkdtemp(prefix="brimstone-bench-"))


def start(command: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """A server or worker process; its output goes to a file (a pipe nobody reads would stall it when full)."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    with (LOGS / f"{Path(command[1]).stem}-{uuid.uuid4().hex[:6]}.log").open("wb") as log:
        return subprocess.Popen(command, cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


# ---- load -------------------------------------------------------------------------------------------------


async def load(clients: int, seconds: float, request: Callable[[Any, int], Awaitable[None]], base_url: str,
               headers: list[dict[str, str]]) -> tuple[int, list[float], float]:
    """`clients` loops each sending one request at a time for `seconds` (after a 1 s warm-up)."""
    import httpx

    latencies: list[float] = []
    done = 0
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=30) as http:

        async def worker(index: int, until: float, record: bool) -> None:
            nonlocal done
            while time.perf_counter() < until:
                began = time.perf_counter()
                await request((http, headers[index]), index)
                if record:
                    latencies.append(time.perf_counter() - began)
                    done += 1

        warm = time.perf_counter() + 1.0
        await asyncio.gather(*(worker(i, warm, False) for i in range(clients)))
        began = time.perf_counter()
        await asyncio.gather(*(worker(i, began + seconds, True) for i in range(clients)))
        elapsed = time.perf_counter() - began
    return done, latencies, elapsed


def figures(name: str, done: int, latencies: list[float], elapsed: float) -> dict[str, float]:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    rate = done / elapsed
    print(f"{name:<34} {rate:9.0f} req/s   p50 {p50:7.2f} ms   p99 {p99:7.2f} ms   ({done} requests)")
    return {"rate": rate, "p50": p50, "p99": p99}


async def bench(redis_url: str, clients: int, seconds: float) -> None:
    import httpx

    prefix = f"bench{uuid.uuid4().hex[:8]}"
    api_port, bare_port = free_port(), free_port()
    api = start([sys.executable, "-m", "services.api.serve", "--port", str(api_port), "--redis", redis_url,
                 "--redis-prefix", prefix, "--log-level", "warning"])
    bare = start([sys.executable, str(Path(__file__).resolve()), "--serve-bare", str(bare_port), "--redis", redis_url])
    try:
        wait_http(f"http://127.0.0.1:{api_port}/v1/health", api)
        wait_http(f"http://127.0.0.1:{bare_port}/", bare)
        tables = []
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{api_port}") as http:
            for _ in range(clients):
                created = (await http.post("/v1/sessions", json={"heroes": [{"id": "anna", "name": "Anna"},
                                                                            {"id": "bo", "name": "Bo"}]})).json()
                tables.append((created["session_id"], {"Authorization": f"Bearer {created['token']}"}))
        command = {"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "xp", "amount": 1}]}

        async def post_command(ctx: Any, index: int) -> None:
            http, headers = ctx
            response = await http.post(f"/v1/sessions/{tables[index][0]}/commands", json=command, headers=headers)
            assert response.status_code == 200, response.text

        async def post_bare(ctx: Any, index: int) -> None:
            http, headers = ctx
            response = await http.post(f"/bare/k{index}-{prefix}", json=command, headers=headers)
            assert response.status_code == 200, response.text

        print(f"{clients} clients, {seconds:.0f} s each, Redis {redis_url}, {os.cpu_count()} cores")
        results = {}
        for round_no in (1, 2):  # two rounds, alternating, so neither side gets the quieter moment
            bare_run = await load(clients, seconds, post_bare, f"http://127.0.0.1:{bare_port}",
                                  [{}] * clients)
            results[f"bare{round_no}"] = figures(f"bare GET+SET endpoint (round {round_no})", *bare_run)
            api_run = await load(clients, seconds, post_command, f"http://127.0.0.1:{api_port}",
                                 [headers for _, headers in tables])
            results[f"api{round_no}"] = figures(f"POST a command (round {round_no})", *api_run)
        api_rate = max(results["api1"]["rate"], results["api2"]["rate"])
        bare_rate = max(results["bare1"]["rate"], results["bare2"]["rate"])
        print(f"ratio commands/s : bare req/s = {api_rate / bare_rate:.2f} (target >= 0.5)")
    finally:
        stop(api)
        stop(bare)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", help="Redis URL (default: start a throwaway redis-server)")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--serve-bare", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_bare:
        serve_bare(args.serve_bare, args.redis)
        return 0
    redis_process = None
    redis_url = args.redis
    if not redis_url:
        executable = shutil.which("redis-server")
        if executable is None:
            raise SystemExit("no redis-server on PATH: pass --redis URL")
        port = free_port()
        workdir = tempfile.mkdtemp(prefix="bench-redis-")
        redis_process = subprocess.Popen([executable, "--port", str(port), "--save", "", "--appendonly", "no",
                                          "--dir", workdir], stdout=subprocess.DEVNULL)
        redis_url = f"redis://127.0.0.1:{port}/0"
        time.sleep(0.3)
    try:
        asyncio.run(bench(redis_url, args.clients, args.seconds))
    finally:
        if redis_process is not None:
            stop(redis_process)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
