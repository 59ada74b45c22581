"""`brimstone worker`: an rq worker for simulation chunks (start several: they share the queue).

    brimstone worker --redis redis://127.0.0.1:6379/0 [--burst] [--queue brimstone-simulations] [--fork]
    brimstone worker --alive    (a liveness probe: exit 0 when a worker of this host is registered and beating)
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
from typing import Any

from services.settings import Settings


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="brimstone worker", description="Run an rq worker for bulk simulations.")
    p.add_argument("--redis", metavar="URL", help="the Redis the API enqueues to (default REDIS_URL)")
    p.add_argument("--queue", help="queue name (default brimstone-simulations, BRIMSTONE_RQ_QUEUE)")
    p.add_argument("--burst", action="store_true", help="work until the queue is empty, then exit")
    p.add_argument("--name", help="worker name (default: rq's host.pid)")
    p.add_argument("--fork", action="store_true",
                   help="play each chunk in a forked work horse (rq's default: isolation, at ~30 ms of CPU a chunk); "
                        "without it chunks play in the worker's own process, which keeps each question's plan")
    p.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))
    p.add_argument("--alive", action="store_true",
                   help="do not work: exit 0 when an rq worker of this host (its pod) is in rq's worker registry, "
                        "1 when none is (a liveness probe; Redis unreachable counts as alive: a restart would not "
                        "bring Redis back)")
    return p


def alive(connection: Any, hostname: str) -> bool:
    """An rq worker of `hostname` is registered: rq keeps a worker's key only while it beats (each beat extends it
    by the worker's ttl), so a hung or dead worker drops out of the registry."""
    from rq import Worker

    return any(worker.hostname == hostname for worker in Worker.all(connection=connection))


# rq's pub/sub thread (the stop and kill-job commands) waits up to 60 s for a message; when the worker unsubscribes
# before that thread saw its subscription, it waits on for the whole 60 s, and redis-py 8 joins it with no limit: a
# burst worker or a stopping one then hangs for a minute (rq/rq#1613). A 1 s wait bounds that at a second, for one
# wake-up a second of an idle thread.
PUBSUB_WAIT = 1.0


def worker_classes() -> tuple[type[Any], type[Any]]:
    """rq's Worker and SimpleWorker (the one that runs jobs in its own process) with a pub/sub thread that stops
    within `PUBSUB_WAIT`."""
    from rq import SimpleWorker, Worker

    class QuickStop:
        def subscribe(self: Any) -> None:
            self.pubsub = self.connection.pubsub()
            self.pubsub.subscribe(**{self.pubsub_channel_name: self.handle_payload})
            self.pubsub_thread = self.pubsub.run_in_thread(sleep_time=PUBSUB_WAIT, daemon=True,
                                                           exception_handler=self._pubsub_exception_handler)

    class StopsItsChunk:
        def kill_horse(self: Any, sig: Any = None) -> None:
            """No horse to kill: a stop command (rq sets `_stopped_job_id` first) makes the chunk stop itself."""
            from services.jobs import tasks

            if self._stopped_job_id:
                tasks.ask_to_stop(self._stopped_job_id)

        def handle_exception(self: Any, job: Any, *exc_info: Any) -> None:
            """A chunk that stopped as asked is no error to log with its traceback (rq records the job as stopped)."""
            from services.jobs.tasks import ChunkStopped

            if len(exc_info) > 1 and isinstance(exc_info[1], ChunkStopped):
                self.log.info("%s", exc_info[1])
                return
            super().handle_exception(job, *exc_info)

    return (type("BrimstoneWorker", (QuickStop, Worker), {}),
            type("BrimstoneSimpleWorker", (QuickStop, StopsItsChunk, SimpleWorker), {}))


def main(argv: list[str] | None = None) -> None:
    """Run an rq worker on the simulation queue until stopped (or, with --burst, until it is empty)."""
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    settings = Settings.from_env(redis_url=args.redis, rq_queue=args.queue)
    if not settings.redis_url:
        raise SystemExit("brimstone worker: give --redis URL (or set REDIS_URL): workers share jobs through Redis")
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    from redis import Redis
    from redis.exceptions import RedisError

    if args.alive:
        try:
            found = alive(Redis.from_url(settings.redis_url, socket_timeout=5), socket.gethostname())
        except RedisError as exc:
            print(f"brimstone worker --alive: Redis unreachable ({exc}); not the worker's fault", file=sys.stderr)
            raise SystemExit(0) from None
        print("alive" if found else f"no rq worker of {socket.gethostname()} is registered", file=sys.stderr)
        raise SystemExit(0 if found else 1)
    from rq import Queue
    from rq.exceptions import StopRequested

    import services.jobs.tasks  # fail now, not per job, if the job functions cannot be imported

    services.jobs.tasks.warm()  # the rule areas loaded once here, not in every forked work horse

    connection = Redis.from_url(settings.redis_url)
    queue = Queue(settings.rq_queue, connection=connection)
    forking, simple = worker_classes()
    worker = (forking if args.fork else simple)([queue], connection=connection, name=args.name)
    from services.observability import engine_build

    logging.getLogger("brimstone.jobs").info("worker %s (pid %d) on queue %s, the engine's %s build", worker.name,
                                             os.getpid(), settings.rq_queue, engine_build())
    try:
        worker.work(burst=args.burst, logging_level=args.log_level.upper())
    except StopRequested:  # a stop signal that arrives while rq tears the worker down: the stop was wanted
        logging.getLogger("brimstone.jobs").info("worker %s stopped", worker.name)


if __name__ == "__main__":
    main()
