"""Commands per second and latency of posting a command to the service on Redis, next to a bare litestar endpoint
doing one Redis GET and one SET, measured in the same run with a compiled load generator (wrk); prints the ratio
(target >= 0.5) and the p99 (target <= 25 ms), and with --profile where each request's time goes.

    python bench/service.py [--tables 200] [--connections 16] [--seconds 10] [--rounds 3] [--profile]
                            [--no-lane] [--redis redis://127.0.0.1:6379/0]

Both servers run the same way (uvicorn, one process, uvloop/httptools) against the same Redis. wrk keeps
`--connections` connections busy; its Lua script walks round-robin over `--tables` tables, each request posting
`adjust` (+1 gold) with that table's token, like phones at an evening's tables. The bare endpoint does the same walk
over as many keys. Without --redis a throwaway redis-server is started on a free port. wrk is installed with
apt-get when missing (and py-spy with pip for --profile). Each server's CPU time per request is printed too (from
/proc): what a request costs the server, whatever share of the cores wrk and Redis take. --no-lane measures the
command through litestar's handler alone (services/api/rest/lane.py).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
COMMAND = {"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "gold", "amount": 1}]}


# ---- the bare endpoint: the least a stateless service on Redis can do per request ---------------------------


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


# ---- tools and processes ----------------------------------------------------------------------------------


def ensure_wrk() -> str:
    """The wrk binary, installed from the system packages when missing."""
    found = shutil.which("wrk")
    if found:
        return found
    if shutil.which("apt-get"):
        subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], check=False, stdout=subprocess.DEVNULL)
        if not shutil.which("wrk"):
            subprocess.run(["apt-get", "update", "-q"], check=False, stdout=subprocess.DEVNULL)
            subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], check=True, stdout=subprocess.DEVNULL)
    found = shutil.which("wrk")
    if not found:
        raise SystemExit("wrk is needed (apt-get install wrk)")
    return found


def ensure_py_spy() -> str:
    found = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(found).exists():
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "py-spy"], check=True)
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_http(url: str, process: subprocess.Popen[bytes], timeout: float = 120) -> None:
    """Wait for the server to answer (start-up takes 15-25 s on a loaded machine)."""
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


def start(command: list[str], env: dict[str, str] | None = None, root: Path = ROOT) -> subprocess.Popen[bytes]:
    """A server process (of the code under `root`: another checkout, to compare); its output goes to a file (a pipe
    nobody reads would stall it when full)."""
    environment = {**os.environ, "PYTHONPATH": str(root), **(env or {})}
    with (LOGS / f"{Path(command[1]).stem}-{uuid.uuid4().hex[:6]}.log").open("wb") as log:
        return subprocess.Popen(command, cwd=root, env=environment, stdout=log, stderr=subprocess.STDOUT)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# ---- wrk --------------------------------------------------------------------------------------------------

_LUA = """
local targets = {%s}
local body = %s
local i = 0
request = function()
  i = i %% #targets + 1
  local t = targets[i]
  return wrk.format("POST", t[1], {["Content-Type"] = "application/json", ["Authorization"] = t[2]}, body)
end
local failures = 0
response = function(status, headers, body)
  if status ~= 200 then failures = failures + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("non-200: %%d\\n", summary.errors.status))
end
"""


def lua_script(targets: list[tuple[str, str]]) -> Path:
    """A wrk script posting the command to each (path, Authorization) in turn."""
    rows = ",".join(f"{{{json.dumps(path)},{json.dumps(auth)}}}" for path, auth in targets)
    path = LOGS / f"targets-{uuid.uuid4().hex[:6]}.lua"
    path.write_text(_LUA % (rows, json.dumps(json.dumps(COMMAND))))
    return path


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)?", text).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0, None: 1000.0}[unit]


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_wrk(wrk: str, url: str, script: Path, connections: int, seconds: float,
            server: int | None = None) -> dict[str, float]:
    """One wrk run: requests/s, p50 and p99 in ms, the count of non-200 answers and socket errors, and (given the
    server's pid) the server's CPU time per request: what the request costs the server, whatever wrk and Redis take
    of the same cores."""
    cpu_before = cpu_seconds(server) if server else 0.0
    out = subprocess.run([wrk, "-t2", f"-c{connections}", f"-d{seconds:.0f}s", "--latency", "-s", str(script), url],
                         check=True, capture_output=True, text=True).stdout
    if "99%" not in out or "Requests/sec" not in out:
        raise RuntimeError(f"wrk printed no figures:\n{out}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    bad = int(re.search(r"non-200: (\d+)", out).group(1))  # type: ignore[union-attr]
    socket_errors = re.search(r"Socket errors: (.*)", out)
    total = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    cpu_us = 1e6 * (cpu_seconds(server) - cpu_before) / max(total, 1) if server else 0.0
    return {"rate": rate, "cpu_us": cpu_us, "p50": p50, "p99": p99, "bad": bad, "requests": total,
            "socket_errors": 0 if socket_errors is None else sum(int(n) for n in re.findall(r"\d+", socket_errors.group(1)))}


def show(name: str, r: dict[str, float]) -> None:
    print(f"{name:<36} {r['rate']:8.0f} req/s   p50 {r['p50']:6.2f} ms   p99 {r['p99']:6.2f} ms   "
          f"server CPU {r['cpu_us']:4.0f} us/req   ({r['requests']:.0f} requests, {r['bad']:.0f} non-200, {r['socket_errors']:.0f} socket errors)")


# ---- the profile ------------------------------------------------------------------------------------------

# Where a sample's time goes: the innermost frame that matches decides (checked in this order).
CATEGORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # py-spy names a frame "function (path:line)"
    ("engine: legal_commands", ("legal_commands (shared_rules/", "(shared_rules/legal.py")),
    ("engine: apply (rules)", ("(shared_rules/engine.py", "(shared_rules/rules/", "(shared_rules/flow.py",
                               "(shared_rules/state.py")),
    ("codec: encode state/events", ("encode (shared_rules/codec.py", "encode_event (shared_rules/codec.py")),
    ("codec: decode state/command", ("decode (shared_rules/codec.py", "_decode", "(shared_rules/codec.py")),
    ("json dumps/loads", ("(json/encoder.py", "(json/decoder.py", "(json/__init__.py")),
    ("redis client (commands, parsing)", ("(redis/",)),
    ("rate limits", ("(limits/", "(services/limits.py")),
    ("metrics, request id, headers", ("(prometheus_client/", "(services/observability.py",
                                      "(services/api/middleware.py")),
    ("litestar (routing, request, response)", ("(litestar/",)),
    ("uvicorn/httptools (HTTP)", ("(uvicorn/", "(httptools/")),
    ("asyncio event loop", ("(asyncio/", "(uvloop/")),
    ("service code (use cases, store)", ("(services/",)),
)


def profile_breakdown(raw: Path) -> list[tuple[str, float]]:
    """Share of samples per category from py-spy's collapsed stacks (idle excluded): the frame nearest the leaf
    that belongs to a category decides."""
    counts: Counter[str] = Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = stack.split(";")
        leaf = frames[-1]
        if "select" in leaf and ("selectors" in leaf or "epoll" in leaf):
            continue  # idle: waiting for the network
        total += count
        for frame in reversed(frames):
            name = next((name for name, markers in CATEGORIES if any(m in frame for m in markers)), None)
            if name is not None:
                counts[name] += count
                break
        else:
            counts["other"] += count
    return [(name, 100.0 * n / total) for name, n in counts.most_common()] if total else []


def _inclusive(raw: Path, markers: dict[str, str]) -> dict[str, float]:
    """Share of busy samples whose stack passes through each marker (time spent inside, callees included)."""
    counts: Counter[str] = Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        leaf = stack.split(";")[-1]
        if "select" in leaf and ("selectors" in leaf or "epoll" in leaf):
            continue
        total += int(count_text)
        for name, marker in markers.items():
            if marker in stack:
                counts[name] += int(count_text)
    return {name: 100.0 * counts[name] / total for name in markers} if total else {}


INCLUSIVE = {
    "use case submit_command (all of it)": "submit_command (services/use_cases.py",
    "  engine apply()": "apply (shared_rules/engine.py",
    "  legal_commands()": "legal_commands (shared_rules/engine.py",
    "  encode_state()": "encode_state (shared_rules/codec.py",
    "  store.load": "load (services/store/redis.py",
    "  store.commit": "commit (services/store/redis.py",
}


# ---- the run ----------------------------------------------------------------------------------------------


def bench(redis_url: str, tables: int, connections: int, seconds: float, rounds: int, profile: bool,
          lane: bool = True) -> dict[str, Any]:
    import httpx

    wrk = ensure_wrk()
    prefix = f"bench{uuid.uuid4().hex[:8]}"
    api_port, bare_port, metrics_port = free_port(), free_port(), free_port()
    # An evening's venue puts every phone behind one address: the per-address ceiling is set for that, not lowered.
    env = {"BRIMSTONE_RATE_LIMIT_ADDRESS": "1000000/minute", "BRIMSTONE_RATE_LIMIT_TOKEN": "100000/minute",
           "BRIMSTONE_RATE_LIMIT_CREATE": "100000/minute", "BRIMSTONE_COMMAND_LANE": "1" if lane else "0",
           "BRIMSTONE_METRICS_PORT": str(metrics_port)}
    api = start([sys.executable, "-m", "services.api.serve", "--port", str(api_port), "--redis", redis_url,
                 "--redis-prefix", prefix, "--log-level", "warning"], env)
    bare = start([sys.executable, str(Path(__file__).resolve()), "--serve-bare", str(bare_port), "--redis", redis_url])
    results: dict[str, Any] = {}
    try:
        wait_http(f"http://127.0.0.1:{api_port}/v1/health", api)
        wait_http(f"http://127.0.0.1:{bare_port}/", bare)
        targets = []
        with httpx.Client(base_url=f"http://127.0.0.1:{api_port}", timeout=30) as http:
            for _ in range(tables):
                response = http.post("/v1/sessions", json={"heroes": [{"id": "anna", "name": "Anna"},
                                                                      {"id": "bo", "name": "Bo"}]})
                assert response.status_code == 201, response.text
                created = response.json()
                targets.append((f"/v1/sessions/{created['session_id']}/commands", f"Bearer {created['token']}"))
        api_script = lua_script(targets)
        bare_script = lua_script([(f"/bare/k{i}-{prefix}", "Bearer -") for i in range(tables)])
        print(f"{tables} tables, {connections} connections, {seconds:.0f} s per run, wrk, Redis {redis_url}, "
              f"{os.cpu_count()} cores, command lane {'open' if lane else 'closed (litestar handler only)'}")
        run_wrk(wrk, f"http://127.0.0.1:{api_port}", api_script, connections, 2)  # warm-up
        run_wrk(wrk, f"http://127.0.0.1:{bare_port}", bare_script, connections, 2)
        for round_no in range(1, rounds + 1):  # alternating, so neither side gets the quieter moment
            results[f"bare{round_no}"] = r = run_wrk(wrk, f"http://127.0.0.1:{bare_port}", bare_script, connections,
                                                     seconds, bare.pid)
            show(f"bare GET+SET endpoint (round {round_no})", r)
            results[f"api{round_no}"] = r = run_wrk(wrk, f"http://127.0.0.1:{api_port}", api_script, connections,
                                                    seconds, api.pid)
            show(f"POST a command (round {round_no})", r)
        # Other work on the machine comes and goes: each round's ratio compares two runs seconds apart, and the
        # median of the rounds' ratios is the figure (a single noisy run moves it least).
        ratios = [results[f"api{i}"]["rate"] / results[f"bare{i}"]["rate"] for i in range(1, rounds + 1)]
        p99s = sorted(results[f"api{i}"]["p99"] for i in range(1, rounds + 1))
        results["ratio"] = statistics.median(ratios)
        results["p99"] = statistics.median(p99s)
        print(f"ratio commands/s : bare req/s by round {', '.join(f'{r:.2f}' for r in ratios)}; median "
              f"{results['ratio']:.2f} (target >= 0.5)")
        print(f"command p99 by round {', '.join(f'{p:.1f}' for p in p99s)} ms; median {results['p99']:.1f} ms "
              "(target <= 25 ms)")
        with httpx.Client(base_url=f"http://127.0.0.1:{metrics_port}") as http:  # the metrics' own port
            metrics = http.get("/metrics").text.splitlines()
        pauses = [line for line in metrics
                  if line.startswith(("brimstone_gc_pause_seconds_count", "brimstone_gc_pause_seconds_sum"))]
        print("API garbage collections over the run: " + "; ".join(pauses))
        buckets = [line.replace("brimstone_gc_pause_seconds_bucket", "") for line in metrics
                   if line.startswith("brimstone_gc_pause_seconds_bucket")]
        print("  pauses by upper bound (cumulative): " + "; ".join(buckets))
        if profile:
            raw = LOGS / "profile.txt"
            spy = subprocess.Popen([ensure_py_spy(), "record", "--pid", str(api.pid), "--format", "raw", "--rate",
                                    "250", "--output", str(raw), "--duration", f"{seconds:.0f}", "--nonblocking"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            run_wrk(wrk, f"http://127.0.0.1:{api_port}", api_script, connections, seconds)
            spy.wait(timeout=60)
            print("where a command's server time goes (py-spy samples of the API process, idle excluded):")
            for name, share in profile_breakdown(raw):
                print(f"  {share:5.1f}%  {name}")
            print("  inclusive (callees counted in):")
            for name, share in _inclusive(raw, INCLUSIVE).items():
                print(f"  {share:5.1f}%  {name}")
            print(f"  collapsed stacks: {raw} (e.g. flamegraph.pl {raw} > profile.svg)")
    finally:
        stop(api)
        stop(bare)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--redis", help="Redis URL (default: start a throwaway redis-server)")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="sample the API with py-spy during an extra run")
    parser.add_argument("--no-lane", action="store_true",
                        help="close the command lane (BRIMSTONE_COMMAND_LANE=0): every command through litestar")
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
        bench(redis_url, args.tables, args.connections, args.seconds, args.rounds, args.profile, not args.no_lane)
    finally:
        if redis_process is not None:
            stop(redis_process)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
