"""Outages on real processes: Redis killed and restarted under a server (503 with Retry-After meanwhile, readiness
says so while liveness stays up, no 500 on the stale connections afterwards, a live subscription resumes without a
gap); embedded simulation workers ending with the server; embedded simulation jobs finishing after a restart."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from services.jobs import tasks
from shared_rules.codec import encode
from shared_rules.simulate import sample_heroes
from tests.services.outages import RedisProcess, Subscriber, alive, children
from tests.services.servers import ServerProcess, create_session, redis_storage, sqlite_storage

ADJUST = {"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "gold", "amount": 1}]}


def test_redis_restart_gives_503_then_recovers_and_subscriptions_resume(tmp_path: Path) -> None:
    redis_server = RedisProcess(tmp_path).start()
    statuses: list[int] = []
    try:
        with ServerProcess(redis_storage(redis_server.url), tmp_path) as server:
            with server.client() as anon:
                created = create_session(anon)
            sid, token = created["session_id"], created["token"]
            subscriber = Subscriber([server.ws_url], sid, token, after=0).start()
            assert subscriber.ready.wait(30)
            with server.client(token) as client:
                def post() -> httpx.Response:
                    response = client.post(f"/v1/sessions/{sid}/commands", json=ADJUST)
                    statuses.append(response.status_code)
                    return response

                assert post().status_code == 200
                subscriber.wait_for(1)

                redis_server.kill()
                down = post()
                assert down.status_code == 503 and int(down.headers["retry-after"]) >= 1
                assert down.json()["type"] == "/problems/store-unavailable"
                read = client.get(f"/v1/sessions/{sid}")
                statuses.append(read.status_code)
                assert read.status_code == 503
                assert client.get("/v1/ready").status_code == 503
                assert client.get("/v1/health").status_code == 200  # liveness does not touch the store

                redis_server.start()
                deadline = time.monotonic() + 30
                while post().status_code != 200:
                    assert time.monotonic() < deadline, statuses
                    time.sleep(0.1)
                assert client.get("/v1/ready").status_code == 200
                for _ in range(3):
                    assert post().status_code == 200
                final = client.get(f"/v1/sessions/{sid}").json()["version"]
            subscriber.wait_for(final)
            subscriber.stop()
            assert subscriber.versions == list(range(1, final + 1))  # every version once, in order
            assert "Traceback" not in server.log(), server.log()
    finally:
        redis_server.kill()
    assert set(statuses) <= {200, 503}, statuses  # never a 500, not even on the connections Redis dropped


def _simulation(client: httpx.Client, trials: int, seed: int = 3) -> dict[str, Any]:
    spec = {"heroes": [encode(h) for h in sample_heroes(2)], "size": "medium", "trials": trials, "seed": seed}
    started = client.post("/v1/simulations", json=spec)
    assert started.status_code == 202, started.text
    return {"spec": spec, "job": started.json()}


def _workers(server: ServerProcess, timeout: float = 60) -> list[int]:
    assert server.process is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = children(server.process.pid)
        if len(found) >= 2:  # the pool's two processes (a resource tracker may come on top)
            return found
        time.sleep(0.1)
    raise AssertionError("no simulation workers appeared")


def _gone(pids: list[int], timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("how", ["stopped", "killed"])
def test_embedded_simulation_workers_end_with_the_server(tmp_path: Path, how: str) -> None:
    server = ServerProcess(sqlite_storage(tmp_path), tmp_path,
                           env={"BRIMSTONE_SIMULATION_EXECUTOR": "process", "BRIMSTONE_SIMULATION_WORKERS": "2"})
    with server:
        with server.client() as client:
            _simulation(client, trials=200_000)  # minutes of work for two processes
        workers = _workers(server)
        assert server.process is not None
        group = server.process.pid
        try:
            if how == "stopped":
                server.stop(group=False)  # the server alone: its own shutdown must end the pool
            else:
                server.process.send_signal(signal.SIGKILL)
                server.process.wait(timeout=10)
            assert _gone(workers), f"simulation workers {workers} outlived the server ({how})"
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)  # whatever did outlive it


def test_embedded_simulation_jobs_survive_a_restart(tmp_path: Path) -> None:
    server = ServerProcess(sqlite_storage(tmp_path), tmp_path,
                           env={"BRIMSTONE_SIMULATION_EXECUTOR": "process", "BRIMSTONE_SIMULATION_WORKERS": "1",
                                "BRIMSTONE_SIMULATION_CHUNKS": "8"})
    with server:
        with server.client() as client:
            started = _simulation(client, trials=2000)
            job_id = started["job"]["job_id"]
            deadline = time.monotonic() + 120
            while (job := client.get(f"/v1/simulations/{job_id}").json())["progress"] == 0:
                assert job["status"] != "failed" and time.monotonic() < deadline, job
                time.sleep(0.1)
            assert job["status"] != "finished", "the job finished before the restart could interrupt it"
        assert server.process is not None
        server.process.send_signal(signal.SIGKILL)  # no clean shutdown: what SQLite holds is what survives
        server.process.wait(timeout=10)
        server.start()
        with server.client() as client:
            deadline = time.monotonic() + 180
            while (job := client.get(f"/v1/simulations/{job_id}").json())["status"] != "finished":
                assert job["status"] != "failed" and time.monotonic() < deadline, job
                time.sleep(0.2)
    expected = json.loads(json.dumps(tasks.single_run({**started["spec"], "options": {}})))
    assert job["result"] == expected  # the resumed job equals one uninterrupted run
