"""The chaos test: 20 clients on 4 tables post commands with Idempotency-Keys through 2 replicas while one replica is
SIGKILLed and restarted and Redis (AOF, fsync always) is SIGKILLed and restarted. Afterwards every acknowledged
command is in the log exactly once (at the version its answer named), every log is gap-free, no answer was a 500,
and a subscriber per table (resubscribing from the last version it saw when its replica dies) saw every version.
"""

from __future__ import annotations

import asyncio
import signal
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx
import pytest

from services.store.redis import RedisStore
from tests.services.outages import RedisProcess, Subscriber
from tests.services.servers import ServerProcess, create_session, redis_storage

CLIENTS = 20
TABLES = 4
PAUSE = 0.05  # seconds a phone waits between two commands
ADJUST = {"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "gold", "amount": 1}]}


class Client(threading.Thread):
    """One phone: posts its commands one at a time, each with its own key, retrying the same key (on the other
    replica when one does not answer) until it is acknowledged."""

    def __init__(self, index: int, tables: list[dict[str, str]], replicas: list[ServerProcess],
                 statuses: Counter[int], deadline: float, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.stop = stop
        self.table = tables[index % len(tables)]
        self.replicas = replicas
        self.prefer = index % len(replicas)
        self.statuses = statuses
        self.deadline = deadline
        self.acked: dict[str, int] = {}
        self.failures: list[str] = []
        self.connection_errors = 0

    def run(self) -> None:
        url = f"/v1/sessions/{self.table['session_id']}/commands"
        auth = {"Authorization": f"Bearer {self.table['token']}"}
        while not self.stop.is_set():
            time.sleep(PAUSE)
            key = uuid.uuid4().hex
            attempt = 0
            while key not in self.acked:
                if time.monotonic() > self.deadline:
                    self.failures.append(f"{key}: never acknowledged")
                    return
                replica = self.replicas[(self.prefer + attempt) % len(self.replicas)]
                attempt += 1
                try:
                    response = httpx.post(replica.url + url, json=ADJUST, headers={**auth, "Idempotency-Key": key},
                                          timeout=15)
                except httpx.HTTPError:
                    self.connection_errors += 1
                    time.sleep(0.1)  # that replica is down: the next attempt goes to the other one
                    continue
                self.statuses[response.status_code] += 1
                if response.status_code == 200:
                    self.acked[key] = response.json()["version"]
                elif response.status_code == 503:
                    time.sleep(min(float(response.headers.get("retry-after", "1")), 1.0))
                else:
                    self.failures.append(f"{key}: {response.status_code} {response.text[:200]}")
                    return


async def _logs(redis_url: str, prefix: str, session_ids: list[str]) -> dict[str, list[tuple[int, str | None]]]:
    store = RedisStore(redis_url, prefix=prefix)
    try:
        return {sid: [(e.version, e.idempotency_key) for e in await store.log(sid, limit=10_000)]
                for sid in session_ids}
    finally:
        await store.close()


def _wait(condition: object, timeout: float, what: str, state: object = None) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting for {what}: {state() if state else ''}"  # type: ignore[operator]
        time.sleep(0.05)


@pytest.mark.slow
def test_chaos_replica_and_redis_killed_under_load(tmp_path: Path) -> None:
    redis_server = RedisProcess(tmp_path).start()
    storage = redis_storage(redis_server.url)
    a = ServerProcess(storage, tmp_path)
    b = ServerProcess(storage, tmp_path)
    subscribers: list[Subscriber] = []
    try:
        a.start()
        b.start()
        with a.client() as anon:
            tables = [create_session(anon) for _ in range(TABLES)]
        subscribers = [Subscriber([a.ws_url, b.ws_url] if i % 2 == 0 else [b.ws_url, a.ws_url],
                                  t["session_id"], t["token"], after=0).start() for i, t in enumerate(tables)]
        assert all(s.ready.wait(30) for s in subscribers)

        statuses: Counter[int] = Counter()
        deadline = time.monotonic() + 240
        stop = threading.Event()
        clients = [Client(i, tables, [a, b], statuses, deadline, stop) for i in range(CLIENTS)]
        for client in clients:
            client.start()

        def acked() -> int:
            return sum(len(c.acked) for c in clients)

        def state() -> str:
            return (f"acked {acked()}, statuses {dict(statuses)}, failures {[f for c in clients for f in c.failures]}, "
                    f"running {sum(c.is_alive() for c in clients)}\nA: {a.log()[-3000:]}\nB: {b.log()[-3000:]}")

        step = 40  # acknowledged commands between two blows
        _wait(lambda: acked() >= step, 120, "the first acknowledgements", state)
        assert a.process is not None
        a.process.send_signal(signal.SIGKILL)  # a replica dies mid-request
        a.process.wait(timeout=10)
        mark = acked()
        _wait(lambda: acked() >= mark + step, 120, "progress on the surviving replica", state)
        a.start()
        mark = acked()
        _wait(lambda: acked() >= mark + step, 120, "progress with both replicas", state)
        redis_server.kill()  # the store dies too
        before = statuses[503]
        # down until the clients have met the outage (a loaded machine may send nothing for a while)
        _wait(lambda: statuses[503] > before, 60, "a 503 while Redis is down", state)
        redis_server.start()
        mark = acked()
        _wait(lambda: acked() >= mark + step, 120, "progress after Redis came back", state)
        stop.set()
        for client in clients:
            client.join(timeout=max(1.0, deadline - time.monotonic()))
        assert not any(c.is_alive() for c in clients), "clients still running at the deadline"
        assert [f for c in clients for f in c.failures] == []
        assert 500 not in statuses and set(statuses) <= {200, 503}, statuses
        assert statuses[503] > 0 and sum(c.connection_errors for c in clients) > 0  # both blows were felt

        logs = asyncio.run(_logs(redis_server.url, storage.prefix, [t["session_id"] for t in tables]))
        for table in tables:
            sid = table["session_id"]
            log = logs[sid]
            assert [version for version, _ in log] == list(range(len(log)))  # gap-free
            keys = [key for _, key in log[1:]]
            assert len(keys) == len(set(keys))  # no key applied twice
            where = {key: version for version, key in log}
            acked_here = {k: v for c in clients if c.table is table for k, v in c.acked.items()}
            assert {k: where.get(k) for k in acked_here} == acked_here  # each at the version its answer named
            assert len(keys) == len(acked_here)  # nothing applied that was not acknowledged in the end

        for subscriber, table in zip(subscribers, tables, strict=True):
            final = len(logs[table["session_id"]]) - 1
            subscriber.wait_for(final, timeout=60)
            assert subscriber.versions == list(range(1, final + 1)), (subscriber.versions, subscriber.reconnects)
    finally:
        for subscriber in subscribers:
            subscriber.stop()
        a.stop()
        b.stop()
        redis_server.kill()
