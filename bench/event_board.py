"""An event's board at the size of a big room: 300 tables on one server (Redis, the deployment's storage).

Prints how long the host's whole board takes (`GET /v1/events/{id}`, what the dashboard renders every 30 s), and the
latency from a phone's move to its row on the event's stream (`GET /v1/events/{id}/changes`, what the dashboard
follows), p50/p99 over 100 moves spread over the tables.

    python bench/event_board.py [--tables 300] [--moves 100]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.services.servers import ServerProcess, free_port, redis_storage  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--moves", type=int, default=100)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp())
    port = free_port()
    redis = subprocess.Popen([shutil.which("redis-server") or "redis-server", "--port", str(port), "--save", "",
                              "--dir", str(tmp)], stdout=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        with ServerProcess(redis_storage(f"redis://127.0.0.1:{port}/0"), tmp) as server:
            run(server, args.tables, args.moves)
    finally:
        redis.terminate()


def run(server: ServerProcess, tables: int, moves: int) -> None:
    with server.client(server.host_token) as admin:
        event = admin.post("/v1/events", json={"name": "bench"}).json()
    host = server.client(event["host_token"])
    made = []
    for start in range(0, tables, 100):
        made += host.post(f"/v1/events/{event['event_id']}/tables",
                          json={"count": min(100, tables - start), "heroes": [{"id": "a", "name": "Ann"}]}).json()["tables"]
    board_times = []
    for _ in range(10):
        began = time.perf_counter()
        assert len(host.get(f"/v1/events/{event['event_id']}").json()["tables"]) == tables
        board_times.append(time.perf_counter() - began)
    seen: dict[tuple[str, int], float] = {}
    ready = threading.Event()

    def follow() -> None:
        with httpx.Client(base_url=server.url, timeout=None,
                          headers={"Authorization": f"Bearer {event['host_token']}"}) as client, \
                client.stream("GET", f"/v1/events/{event['event_id']}/changes") as stream:
            for line in stream.iter_lines():
                if line.startswith("data:"):
                    row = json.loads(line[5:])
                    seen.setdefault((row["session_id"], row["version"]), time.perf_counter())
                    if len(seen) >= tables:
                        ready.set()
                    if len(seen) >= tables + moves:
                        return

    threading.Thread(target=follow, daemon=True).start()
    ready.wait(120)
    latencies = []
    for n in range(moves):
        table = made[n * tables // moves]
        with server.client(table["token"]) as phone:
            posted = time.perf_counter()
            phone.post(f"/v1/sessions/{table['session_id']}/commands", json={"type": "choose_town_size", "size": "small"})
        key = (table["session_id"], 1)
        deadline = time.monotonic() + 10
        while key not in seen and time.monotonic() < deadline:
            time.sleep(0.001)
        latencies.append(seen[key] - posted)
    latencies.sort()
    print(f"{tables} tables: the whole board in {statistics.median(board_times) * 1000:.0f} ms (median of 10), "
          f"max {max(board_times) * 1000:.0f} ms")
    print(f"a phone's move on the event stream: p50 {latencies[len(latencies) // 2] * 1000:.1f} ms, "
          f"p99 {latencies[int(len(latencies) * 0.99) - 1] * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms "
          f"({moves} moves)")


if __name__ == "__main__":
    main()
