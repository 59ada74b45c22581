"""Bulk simulations through real servers: chunks as rq jobs (a SimpleWorker in this process and the
`brimstone worker` process, both in burst mode) and the embedded process pool; the merged chunks equal a
single run with the same seed (shared_rules.simulate's per-trial seeds).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gql import Client, GraphQLRequest, gql
from gql.transport.httpx import HTTPXAsyncTransport
from redis import Redis
from rq import Queue

from services.jobs import tasks
from services.jobs.worker import worker_classes
from shared_rules.codec import encode
from shared_rules.simulate import sample_heroes
from tests.services.servers import ServerProcess, Storage, WorkerProcess, redis_storage, sqlite_storage

TRIALS = 600  # three chunks of 200: ceil(600 / 250), the server's smallest chunk being 250 trials
HEROES = [encode(hero) for hero in sample_heroes(2)]


def spec(seed: int, size: str = "medium", trials: int = TRIALS) -> dict[str, Any]:
    return {"heroes": HEROES, "size": size, "trials": trials, "seed": seed}


def single_run(request: dict[str, Any]) -> dict[str, Any]:
    """What one uninterrupted run of the same request gives, as the JSON the API returns."""
    summary = tasks.single_run({**request, "options": {}})
    decoded: dict[str, Any] = json.loads(json.dumps(summary))
    return decoded


def wait_finished(client: httpx.Client, job_id: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job: dict[str, Any] = client.get(f"/v1/simulations/{job_id}").json()
        assert job["status"] != "failed", job
        assert 0 <= job["progress"] <= 1
        if job["status"] == "finished":
            return job
        time.sleep(0.2)
    raise AssertionError(f"simulation {job_id} did not finish in {timeout}s")


@pytest.fixture(scope="module")
def redis_target(request: pytest.FixtureRequest) -> Storage:
    proc = request.getfixturevalue("store_redis_proc")
    return redis_storage(f"redis://{proc.host}:{proc.port}/0")


@pytest.fixture(scope="module")
def rq_server(redis_target: Storage, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(redis_target, tmp_path_factory.mktemp("sim-rq")) as server:
        yield server
        assert "Traceback" not in server.log(), server.log()


def test_rq_chunks_run_by_a_burst_worker_equal_a_single_run(rq_server: ServerProcess, redis_target: Storage) -> None:
    request = spec(seed=7)
    with rq_server.client() as client:
        accepted = client.post("/v1/simulations", json=request)
        assert accepted.status_code == 202, accepted.text
        job = accepted.json()
        assert accepted.headers["location"] == f"/v1/simulations/{job['job_id']}"
        assert (job["backend"], job["status"], job["progress"], job["chunks"]) == ("rq", "queued", 0.0, 3)
        assert client.get(f"/v1/simulations/{job['job_id']}").json()["status"] == "queued"  # no worker yet

        assert redis_target.redis_url
        connection = Redis.from_url(redis_target.redis_url)
        queue = Queue(redis_target.queue, connection=connection)
        assert queue.count == 3  # the chunks; the finalizer waits on them as a dependent job
        worker_classes()[1]([queue], connection=connection).work(burst=True, logging_level="WARNING")

        done = client.get(f"/v1/simulations/{job['job_id']}").json()
    assert (done["status"], done["progress"], done["error"]) == ("finished", 1.0, None)
    result = done["result"]
    assert result["trials"] == TRIALS and result["size"] == "medium"
    assert sum(result["hazards"]["count_distribution"].values()) == TRIALS  # a distribution, not just a mean
    assert {"mean", "p5", "p50", "p95"} <= set(result["posse"]["xp"])
    assert result == single_run(request)


def test_the_worker_command_runs_a_job_of_many_chunks(rq_server: ServerProcess, redis_target: Storage,
                                                      tmp_path_factory: pytest.TempPathFactory) -> None:
    request = spec(seed=11, size="large", trials=1000)
    with rq_server.client() as client:
        job = client.post("/v1/simulations", json=request).json()
        assert job["chunks"] == 4
        worker = WorkerProcess(redis_target, tmp_path_factory.mktemp("sim-worker"), burst=True).start()
        try:
            done = wait_finished(client, job["job_id"])
        finally:
            exit_code = worker.wait()
    assert exit_code == 0 and "Traceback" not in worker.log(), worker.log()
    assert done["result"] == single_run(request)


@pytest.fixture(scope="module")
def embedded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    storage = sqlite_storage(tmp_path_factory.mktemp("sim-db"))
    with ServerProcess(storage, tmp_path_factory.mktemp("sim-embedded"),
                       env={"BRIMSTONE_MAX_TRIALS": "5000"}) as server:
        yield server
        assert "Traceback" not in server.log(), server.log()


def test_embedded_pool_runs_the_chunks_in_process(embedded_server: ServerProcess) -> None:
    request = spec(seed=7)
    with embedded_server.client() as client:
        health = client.get("/v1/health").json()
        assert (health["storage"], health["simulations"]) == ("sqlite", "embedded")
        job = client.post("/v1/simulations", json=request).json()
        assert job["backend"] == "embedded" and job["chunks"] == 3
        done = wait_finished(client, job["job_id"])
    assert done["result"] == single_run(request)


def test_simulation_over_graphql_and_refusals(embedded_server: ServerProcess) -> None:
    start = gql("""mutation($heroes: JSON!, $seed: Long) {
      startSimulation(heroes: $heroes, size: "small", trials: 300, seed: $seed) { jobId status backend chunks }
    }""")
    poll = gql("query($id: String!) { simulation(jobId: $id) { status progress result } }")

    async def scenario() -> dict[str, Any]:
        transport = HTTPXAsyncTransport(url=f"{embedded_server.url}/graphql", timeout=30)
        async with Client(transport=transport) as session:
            job = (await session.execute(GraphQLRequest(start, variable_values={
                "heroes": HEROES, "seed": 2**45})))["startSimulation"]
            assert job["backend"] == "embedded"
            for _ in range(600):
                found: dict[str, Any] = (await session.execute(GraphQLRequest(poll, variable_values={
                    "id": job["jobId"]})))["simulation"]
                if found["status"] == "finished":
                    return found
                assert found["status"] in ("queued", "running")
                await asyncio.sleep(0.2)
        raise AssertionError("the GraphQL simulation did not finish")

    finished = asyncio.run(scenario())
    assert finished["result"] == single_run({**spec(seed=2**45, size="small", trials=300)})
    with embedded_server.client() as client:
        for body, field in [({**spec(1), "trials": 200_001}, "trials"), ({**spec(1), "trials": 0}, "trials"),
                            ({**spec(1), "size": "huge"}, "size"), ({**spec(1), "heroes": []}, "heroes"),
                            ({**spec(1), "seed": "7"}, "seed"), ({**spec(1), "speed": 3}, "speed")]:
            refused = client.post("/v1/simulations", json=body)
            assert refused.status_code == 422 and refused.json()["field"] == field, refused.text
        missing = client.get("/v1/simulations/0123456789abcdef")
        assert missing.status_code == 404 and missing.headers["content-type"].startswith("application/problem+json")
