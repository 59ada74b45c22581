"""A worker stops when asked: rq's pub/sub thread, which waits for the stop and kill-job commands, once hung a burst
worker (and a stopping one) for a whole minute when it read its own unsubscribe before being stopped (rq/rq#1613
with redis-py 8's unbounded join). That minute was a flaky suite: the phone's odds gave up waiting for a worker
that had done its job long before."""

from __future__ import annotations

import sys
import threading
import time
import uuid
from typing import Any

from redis import Redis
from rq import Queue

from services.jobs.worker import PUBSUB_WAIT, worker_classes
from tests import processes


def test_the_pubsub_thread_stops_after_it_read_its_own_unsubscribe(store_redis_url: str) -> None:
    connection = Redis.from_url(store_redis_url)
    for worker_class in worker_classes():
        worker = worker_class([Queue("stop-test", connection=connection)], connection=connection)
        worker.subscribe()
        thread = worker.pubsub_thread
        deadline = time.monotonic() + processes.start_timeout()
        while not worker.pubsub.subscribed and time.monotonic() < deadline:
            time.sleep(0.01)
        worker.pubsub.unsubscribe()  # the race, made certain: the thread reads the reply before it is stopped
        while worker.pubsub.subscribed and time.monotonic() < deadline:
            time.sleep(0.01)
        stopper = threading.Thread(target=worker.unsubscribe, daemon=True)
        stopper.start()
        stopper.join(timeout=PUBSUB_WAIT + processes.start_timeout(10))
        # rq's own wait is 60 s: a worker that stops only after it says nothing for a minute fails here
        assert not stopper.is_alive() and not thread.is_alive(), f"{worker_class.__name__} did not stop"



def _odds_spec(trials: int) -> dict[str, Any]:
    from shared_rules.codec import encode_state
    from shared_rules.engine import new_session
    from shared_rules.simulate import sample_heroes

    state = new_session(sample_heroes(4))
    return {"question": "town_size", "session_id": None, "state": encode_state(state), "params": {},
            "options": ["small", "medium", "large"], "trials": trials, "seed": 1, "precision": None, "owner": None}


def test_a_worker_stops_the_odds_chunk_it_plays_when_asked_and_plays_on(store_redis_url: str) -> None:
    """`brimstone worker` plays chunks in its own process (no horse to kill): a stop command, as the API sends when
    an option reaches its precision, makes the chunk stop itself, and the worker takes the next one."""
    from rq.command import send_stop_job_command
    from rq.job import Job, JobStatus

    from services.jobs import tasks

    connection = Redis.from_url(store_redis_url)
    name = f"stop-chunk-{uuid.uuid4().hex[:8]}"
    queue = Queue(name, connection=connection)
    worker = processes.launch([sys.executable, "-m", "services.jobs.worker", "--redis", store_redis_url,
                               "--queue", name, "--log-level", "warning"])
    try:
        long = queue.enqueue(tasks.odds_chunk, _odds_spec(100_000), "large", 0, 100_000, job_timeout=3600)
        processes.wait_ready(lambda: long.get_status(refresh=True) == JobStatus.STARTED, what="the long chunk",
                             process=worker)
        send_stop_job_command(connection, long.id)
        processes.wait_ready(lambda: long.get_status(refresh=True) in (JobStatus.STOPPED, JobStatus.FINISHED),
                             what="the stopped chunk", process=worker)
        assert long.get_status(refresh=True) == JobStatus.STOPPED  # 100,000 journeys would take minutes
        short = queue.enqueue(tasks.odds_chunk, _odds_spec(10), "small", 0, 10)
        processes.wait_ready(lambda: short.get_status(refresh=True) == JobStatus.FINISHED, what="the next chunk",
                             process=worker)
        assert Job.fetch(short.id, connection=connection).return_value()["trials"] == 10
    finally:
        processes.stop(worker)
