"""Fan-out of changes to live subscribers: 1,200 GraphQL subscriptions (websockets, graphql-transport-ws) over 2
replicas sharing one Redis; a writer posts commands and every subscriber of the table notes when the change arrives.
Prints the delivery latency (from the moment the command was posted to each subscriber's receipt): p50, p99, max
(target: p99 <= 50 ms), and how many Redis connections each replica held (one shared pub/sub per replica).

    python bench/fanout.py [--subscribers 1200] [--tables 200] [--changes 400] [--rate 20] [--redis URL]

`--tables 200` puts 6 phones on each of 200 tables (an evening); `--tables 1` puts every subscriber on one table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.service import free_port, start, stop, wait_http  # noqa: E402

QUERY = "subscription ($sid: String!) { sessionChanges(sessionId: $sid) { version } }"
COMMAND = {"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "gold", "amount": 1}]}


async def subscriber(url: str, sid: str, token: str, ready: asyncio.Event, counter: list[int], total: int,
                     arrivals: dict[tuple[str, int], list[float]], stop_event: asyncio.Event) -> None:
    import websockets

    async with websockets.connect(url, subprotocols=["graphql-transport-ws"], max_size=2**24, open_timeout=60,
                                  ping_interval=None) as ws:  # type: ignore[list-item]
        await ws.send(json.dumps({"type": "connection_init", "payload": {"token": token}}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": QUERY,
                                                                               "variables": {"sid": sid}}}))
        counter[0] += 1
        if counter[0] == total:
            ready.set()
        while not stop_event.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            now = time.perf_counter()
            message = json.loads(raw)
            if message["type"] == "next":
                version = message["payload"]["data"]["sessionChanges"]["version"]
                arrivals.setdefault((sid, version), []).append(now)
            elif message["type"] == "ping":
                await ws.send(json.dumps({"type": "pong"}))


async def run(redis_url: str, subscribers: int, tables: int, changes: int, rate: float) -> dict[str, float]:
    import httpx

    prefix = f"fan{uuid.uuid4().hex[:8]}"
    env = {"BRIMSTONE_RATE_LIMIT_ADDRESS": "1000000/minute", "BRIMSTONE_RATE_LIMIT_TOKEN": "100000/minute",
           "BRIMSTONE_RATE_LIMIT_CREATE": "100000/minute"}
    ports = [free_port(), free_port()]
    replicas = [start([sys.executable, "-m", "services.api.serve", "--port", str(p), "--redis", redis_url,
                       "--redis-prefix", prefix, "--log-level", "warning"], env) for p in ports]
    stop_event = asyncio.Event()
    try:
        for port, process in zip(ports, replicas, strict=True):
            wait_http(f"http://127.0.0.1:{port}/v1/health", process)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{ports[0]}", timeout=60) as http:
            made = []
            for _ in range(tables):
                response = await http.post("/v1/sessions", json={"heroes": [{"id": "anna", "name": "Anna"}]})
                assert response.status_code == 201, response.text
                made.append(response.json())
        ready = asyncio.Event()
        counter = [0]
        arrivals: dict[tuple[str, int], list[float]] = {}
        tasks = []
        for i in range(subscribers):
            table = made[i % tables]
            url = f"ws://127.0.0.1:{ports[i % 2]}/graphql"  # alternate replicas
            tasks.append(asyncio.create_task(subscriber(url, table["session_id"], table["token"], ready, counter,
                                                        subscribers, arrivals, stop_event)))
            if i % 50 == 49:
                await asyncio.sleep(0.05)  # do not open 1,200 sockets in one burst
        await asyncio.wait_for(ready.wait(), 180)
        await asyncio.sleep(1.0)
        per_table = subscribers // tables + (1 if subscribers % tables else 0)
        print(f"{subscribers} subscribers on {tables} table(s) (~{per_table} each) over 2 replicas; "
              f"posting {changes} changes at {rate:.0f}/s")
        posted: dict[tuple[str, int], float] = {}
        async with httpx.AsyncClient(timeout=60) as http:
            for n in range(changes):
                table = made[n % tables]
                port = ports[n % 2]
                began = time.perf_counter()
                response = await http.post(f"http://127.0.0.1:{port}/v1/sessions/{table['session_id']}/commands",
                                           json=COMMAND, headers={"Authorization": f"Bearer {table['token']}"})
                assert response.status_code == 200, response.text
                posted[(table["session_id"], response.json()["version"])] = began
                await asyncio.sleep(max(0.0, 1.0 / rate - (time.perf_counter() - began)))
        expected = {sid: sum(1 for i in range(subscribers) if made[i % tables]["session_id"] == sid)
                    for sid in {t["session_id"] for t in made}}
        deadline = time.perf_counter() + 60
        while time.perf_counter() < deadline and any(len(arrivals.get(key, ())) < expected[key[0]] for key in posted):
            await asyncio.sleep(0.2)
        latencies = [(arrival - began) * 1000 for key, began in posted.items() for arrival in arrivals.get(key, ())]
        delivered = len(latencies)
        wanted = sum(expected[key[0]] for key in posted)
        latencies.sort()
        result = {"p50": statistics.median(latencies), "p99": latencies[int(len(latencies) * 0.99) - 1],
                  "max": latencies[-1], "delivered": delivered, "wanted": wanted}
        print(f"delivered {delivered} of {wanted} notifications; latency from POST to receipt: "
              f"p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms (target <= 50 ms), max {result['max']:.1f} ms")
        import redis

        clients = redis.Redis.from_url(redis_url).client_list()
        print(f"Redis connections during the run: {len(clients)} in all (pub/sub: "
              f"{sum(1 for c in clients if int(c.get('psub', 0)) or int(c.get('sub', 0)))})")
        return result
    finally:
        stop_event.set()
        await asyncio.sleep(1.5)
        for process in replicas:
            stop(process)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--redis", help="Redis URL (default: start a throwaway redis-server)")
    parser.add_argument("--subscribers", type=int, default=1200)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--changes", type=int, default=400)
    parser.add_argument("--rate", type=float, default=20.0, help="changes posted per second")
    args = parser.parse_args(argv)
    import shutil
    import subprocess
    import tempfile

    redis_process = None
    redis_url = args.redis
    if not redis_url:
        port = free_port()
        redis_process = subprocess.Popen([shutil.which("redis-server") or "redis-server", "--port", str(port), "--save",
                                          "", "--appendonly", "no", "--dir", tempfile.mkdtemp()],
                                         stdout=subprocess.DEVNULL)
        redis_url = f"redis://127.0.0.1:{port}/0"
        time.sleep(0.3)
    try:
        print(f"{os.cpu_count()} cores")
        asyncio.run(run(redis_url, args.subscribers, args.tables, args.changes, args.rate))
    finally:
        if redis_process is not None:
            stop(redis_process)  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
