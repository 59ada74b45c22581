"""Odds on rq with two real `brimstone worker` processes: the workers settle each option as its pieces come in
(services/jobs/odds_book.py), so whoever played which piece and in what order, the answer is the one a single
process gives (issue 19: the same seed gives the same answer on any number of workers), nothing of a settled option
is left on the queue, and a cancelled job leaves the workers idle."""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from redis import Redis
from rq.job import Job, JobStatus

from services.jobs import odds as jobs_odds
from services.jobs import odds_book, tasks
from services.jobs.odds import RqOddsRunner, plan_pieces
from services.jobs.runner import RqRunner
from services.settings import Settings
from shared_rules import odds
from shared_rules.codec import encode_state
from shared_rules.engine import new_session
from shared_rules.simulate import sample_heroes
from tests import processes


@pytest.fixture
def runner(store_redis_url: str) -> Iterator[RqOddsRunner]:
    name = f"odds-workers-{uuid.uuid4().hex[:8]}"
    settings = Settings.from_env({}, redis_url=store_redis_url, rq_queue=name, redis_prefix=name,
                                 odds_chunk_trials=50)
    workers = [processes.launch([sys.executable, "-m", "services.jobs.worker", "--redis", store_redis_url,
                                 "--queue", name, "--log-level", "warning"]) for _ in range(2)]
    try:
        from rq import Worker

        connection = Redis.from_url(store_redis_url)
        processes.wait_ready(lambda: sum(name in w.queue_names() for w in Worker.all(connection=connection)) == 2,
                             what="two workers", process=workers[0])
        yield RqOddsRunner(settings, RqRunner(settings))
    finally:
        for worker in workers:
            processes.stop(worker)


def _spec(state: Any, trials: int, precision: float | None) -> dict[str, Any]:
    return {"question": "town_size", "session_id": None, "state": encode_state(state), "params": {},
            "options": ["small", "medium", "large"], "trials": trials, "seed": 5, "precision": precision,
            "owner": None}


def _view(runner: RqOddsRunner, job_id: str) -> dict[str, Any]:
    view = asyncio.run(runner.status(job_id))
    assert view is not None
    return view


@pytest.mark.timeout(120, method="thread")  # what this guards against is a settle that never returns
def test_a_piece_played_past_the_stop_changes_nothing_and_its_worker_moves_on(store_redis_url: str) -> None:
    """Two workers, in order: one settles the option on its first piece; the other then finishes the second piece
    (started before the stop was seen). Its settle returns at once, closed already: it once looped for ever."""
    redis = Redis.from_url(store_redis_url)
    name = f"odds-book-{uuid.uuid4().hex[:8]}"
    spec = {**_spec(new_session(sample_heroes(1)), 1000, 0.5), "options": ["small"]}
    record = {"spec": spec, "pieces": plan_pieces(spec, 50), "queue": name, "ttl": 60}
    book = odds_book.OddsBook(redis, name, "job1", record, 60)
    plan = tasks.odds_plan(spec)
    first, second = (odds.run_chunk(plan, "small", start, count, seed=5) for _, start, count in book.pieces[:2])
    settler, late = odds.Settled(), odds.Settled()  # what each worker has merged
    book.put(0, first.to_plain())
    assert book.settle(plan, "small", settler, own=(0, first))  # +-50 points: met by the first piece
    book.put(1, second.to_plain())
    assert not book.settle(plan, "small", late, own=(1, second))  # closed already
    assert not book.settle(plan, "small", settler)
    _, parts, _, _ = book.read()
    assert parts["small"]["merged"] == 1 and parts["small"]["part"]["trials"] == first.trials


@pytest.mark.slow
def test_two_workers_settle_a_question_as_one_process_would(runner: RqOddsRunner,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_session(sample_heroes(2))
    monkeypatch.setattr(jobs_odds, "WATCH_FALLBACK", 3600)  # only the workers' announcements move the watch on

    async def follow() -> list[dict[str, Any]]:  # as SSE and subscriptions do: woken by the settling workers
        job = await runner.start(_spec(state, 4000, 0.04))
        return [view async for view in runner.watch(job["job_id"])]

    views = asyncio.run(asyncio.wait_for(follow(), processes.start_timeout()))
    view = views[-1]
    assert view["status"] == "finished"
    assert len(views) >= 3 and views[1]["answer"]["done"] != views[-1]["answer"]["done"]  # it sharpened in sight
    job = view
    expected = odds.ask(odds.plan(state, "town_size"), 4000, seed=5, precision=0.04, chunk=50)
    assert view["answer"] == json.loads(json.dumps(expected))  # every chance within +-4 points, as in one process
    assert view["answer"]["precision_met"] and view["chunks_done"] < view["chunks"]
    assert runner.queue.count == 0  # a settled option's pieces were taken off the queue, not left to be skipped
    assert _samples_kept(runner, job["job_id"]) == []  # ~160 kB each, kept a week unless deleted once settled
    keys = list(runner.redis.scan_iter(f"{runner.settings.redis_prefix}:odds:{job['job_id']}*"))
    assert keys and all(runner.redis.ttl(key) > 0 for key in keys)  # the book expires whole: nothing kept for ever


@pytest.mark.slow
def test_a_cancelled_job_leaves_the_queue_empty_and_the_workers_idle(runner: RqOddsRunner) -> None:
    job = asyncio.run(runner.start(_spec(new_session(sample_heroes(4)), 100_000, None)))
    processes.wait_ready(lambda: _view(runner, job["job_id"])["chunks_done"] >= 2, what="the first pieces")
    cancelled = asyncio.run(runner.cancel(job["job_id"]))
    assert cancelled is not None and cancelled["status"] == "cancelled"
    ids = [f"odds-{job['job_id']}-{index}" for index in range(cancelled["chunks"])]

    def idle() -> bool:
        jobs = [j for j in Job.fetch_many(ids, connection=runner.redis) if j is not None]
        return runner.queue.count == 0 and not any(j.get_status(refresh=False) == JobStatus.STARTED for j in jobs)

    processes.wait_ready(idle, what="the workers idle")  # 100,000 journeys an option would take minutes
    after = _view(runner, job["job_id"])
    # at most the piece each worker was finishing as the cancel came; none queued after it
    assert after["status"] == "cancelled" and after["chunks_done"] <= cancelled["chunks_done"] + 2
    assert _samples_kept(runner, job["job_id"]) == []


def _samples_kept(runner: RqOddsRunner, job_id: str) -> list[bytes]:
    return list(runner.redis.scan_iter(f"{runner.settings.redis_prefix}:odds:{job_id}:sample:*"))


@pytest.mark.parametrize("where", ["playing", "settling"])
def test_a_piece_that_fails_fails_the_job_with_its_reason(where: str, store_redis_url: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A piece that raises while it plays (the book is told) or after it was put, while it settles (rq records the
    job failed): either way the question reads failed with the reason, instead of waiting for an option that
    cannot settle."""
    from services.jobs.worker import worker_classes

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the dice rolled off the table")

    name = f"odds-fail-{uuid.uuid4().hex[:8]}"
    settings = Settings.from_env({}, redis_url=store_redis_url, rq_queue=name, redis_prefix=name,
                                 odds_chunk_trials=50)
    runner = RqOddsRunner(settings, RqRunner(settings))
    job = asyncio.run(runner.start({**_spec(new_session(sample_heroes(1)), 100, None), "options": ["small"]}))
    if where == "playing":
        monkeypatch.setattr(odds, "run_chunk", broken)
    else:
        monkeypatch.setattr(odds_book.OddsBook, "_settle_locked", broken)
    worker = worker_classes()[1]  # the service's: rq's own waits up to 60 s for its pub/sub thread to stop
    worker([runner.queue], connection=runner.redis).work(burst=True, max_jobs=1, logging_level="ERROR")
    view = _view(runner, job["job_id"])
    assert view["status"] == "failed" and "the dice rolled off the table" in view["error"], view["error"]
