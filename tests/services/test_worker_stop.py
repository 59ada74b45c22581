"""A worker stops when asked: rq's pub/sub thread, which waits for the stop and kill-job commands, once hung a burst
worker (and a stopping one) for a whole minute when it read its own unsubscribe before being stopped (rq/rq#1613
with redis-py 8's unbounded join). That minute was a flaky suite: the phone's odds gave up waiting for a worker
that had done its job long before."""

from __future__ import annotations

import threading
import time

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

