"""Where simulations run: rq workers when Redis is configured, else an embedded pool inside the API process.

Both split a job into chunks (`shared_rules.simulate.split`) so several workers (or pool processes) share it,
and both answer `status(job_id)` with the same shape: status, progress 0..1 and, when finished, the summary.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import multiprocessing
import secrets
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from services.jobs import tasks
from services.settings import Settings
from shared_rules import simulate

log = logging.getLogger("brimstone.jobs")
JSON = dict[str, Any]
MAX_LOCAL_JOBS = 200


class SimulationRunner(Protocol):
    backend: str

    async def start(self, spec: JSON) -> JSON: ...

    async def status(self, job_id: str) -> JSON | None: ...

    async def close(self) -> None: ...


def plan_chunks(settings: Settings, trials: int) -> list[tuple[int, int]]:
    """At most `simulation_chunks` pieces, none smaller than `min_chunk_trials` (unless the job is)."""
    chunks = max(1, min(settings.simulation_chunks, math.ceil(trials / settings.min_chunk_trials)))
    return simulate.split(trials, chunks)


def new_job_id() -> str:
    return secrets.token_hex(8)


def _view(job_id: str, spec: JSON, chunks: int, backend: str, *, status: str, progress: float,
          result: JSON | None = None, error: str | None = None) -> JSON:
    return {"job_id": job_id, "status": status, "progress": round(min(1.0, max(0.0, progress)), 4),
            "trials": spec["trials"], "chunks": chunks, "seed": spec["seed"], "size": spec["size"],
            "backend": backend, "result": result, "error": error}


# ---- rq ----------------------------------------------------------------------------------------------------


class RqRunner:
    """Chunks as rq jobs plus a finalizer job that depends on all of them and merges their tallies."""

    backend = "rq"

    def __init__(self, settings: Settings) -> None:
        from redis import Redis
        from rq import Queue

        assert settings.redis_url
        self.settings = settings
        self.redis = Redis.from_url(settings.redis_url)
        self.queue = Queue(settings.rq_queue, connection=self.redis)

    def _meta_key(self, job_id: str) -> str:
        return f"{self.settings.redis_prefix}:simulation:{job_id}"

    def _start(self, spec: JSON) -> JSON:
        from rq import Queue

        job_id = new_job_id()
        pieces = plan_chunks(self.settings, spec["trials"])
        ttl = self.settings.result_ttl
        chunk_ids = [f"sim-{job_id}-{i}" for i in range(len(pieces))]
        jobs = [
            Queue.prepare_data(tasks.run_chunk, (spec, start, count), job_id=chunk_id, result_ttl=ttl,
                               ttl=ttl, failure_ttl=ttl, timeout=3600, meta={"done": 0, "count": count})
            for chunk_id, (start, count) in zip(chunk_ids, pieces, strict=True)
        ]
        enqueued = self.queue.enqueue_many(jobs)
        self.queue.enqueue(tasks.finalize, chunk_ids, job_id=f"sim-{job_id}-final", depends_on=enqueued,
                           result_ttl=ttl, ttl=ttl, failure_ttl=ttl, job_timeout=600)
        record = {"spec": {k: spec[k] for k in ("trials", "seed", "size")}, "chunks": chunk_ids,
                  "created_at": time.time()}
        self.redis.set(self._meta_key(job_id), json.dumps(record), ex=ttl)
        return _view(job_id, spec, len(pieces), self.backend, status="queued", progress=0.0)

    async def start(self, spec: JSON) -> JSON:
        return await asyncio.to_thread(self._start, spec)

    def _status(self, job_id: str) -> JSON | None:
        from rq.job import Job, JobStatus

        raw = self.redis.get(self._meta_key(job_id)) if job_id.isalnum() else None
        if raw is None:
            return None
        record = json.loads(raw)
        spec, chunk_ids = record["spec"], record["chunks"]
        jobs = Job.fetch_many([*chunk_ids, f"sim-{job_id}-final"], connection=self.redis)
        *chunks, final = jobs
        done = 0
        started = False
        for job in chunks:
            if job is None:
                continue
            state = job.get_status(refresh=False)
            if state == JobStatus.FINISHED:
                done += int(job.meta.get("count", 0))
                started = True
            elif state == JobStatus.FAILED:
                return _view(job_id, spec, len(chunk_ids), self.backend, status="failed",
                             progress=done / spec["trials"], error=_last_line(job.exc_info))
            else:
                done += int(job.meta.get("done", 0))
                started = started or state == JobStatus.STARTED
        if final is not None and final.get_status(refresh=False) == JobStatus.FINISHED:
            return _view(job_id, spec, len(chunk_ids), self.backend, status="finished", progress=1.0,
                         result=final.return_value())
        if final is not None and final.get_status(refresh=False) == JobStatus.FAILED:
            return _view(job_id, spec, len(chunk_ids), self.backend, status="failed", progress=1.0,
                         error=_last_line(final.exc_info))
        if final is None and record.get("created_at", 0) + 60 < time.time() and not any(chunks):
            return _view(job_id, spec, len(chunk_ids), self.backend, status="failed", progress=0.0,
                         error="the job's chunks expired")
        progress = min(done / spec["trials"], 0.999)
        return _view(job_id, spec, len(chunk_ids), self.backend, status="running" if started or done else "queued",
                     progress=progress)

    async def status(self, job_id: str) -> JSON | None:
        return await asyncio.to_thread(self._status, job_id)

    async def close(self) -> None:
        self.redis.close()


def _last_line(text: str | None) -> str:
    lines = [line for line in (text or "").strip().splitlines() if line.strip()]
    return lines[-1] if lines else "the job failed"


# ---- embedded ----------------------------------------------------------------------------------------------


@dataclass
class _LocalJob:
    job_id: str
    spec: JSON
    pieces: list[tuple[int, int]]
    done: list[int]
    status: str = "queued"
    result: JSON | None = None
    error: str | None = None
    created_at: float = field(default_factory=time.time)
    task: asyncio.Task[None] | None = None


class LocalRunner:
    """Chunks in a process pool (or threads) of the API process; jobs live in memory, lost on a restart."""

    backend = "embedded"

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._jobs: dict[str, _LocalJob] = {}
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            workers = self.settings.simulation_workers
            if self.settings.simulation_executor == "thread":
                self._pool = ThreadPoolExecutor(workers, thread_name_prefix="brimstone-sim")
            else:  # spawn: a fork of a process running an event loop and threads is not safe
                self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def start(self, spec: JSON) -> JSON:
        job = _LocalJob(new_job_id(), spec, plan_chunks(self.settings, spec["trials"]), [])
        job.done = [0] * len(job.pieces)
        self._forget_old()
        self._jobs[job.job_id] = job
        job.task = asyncio.get_running_loop().create_task(self._run(job))
        return self._view(job)

    async def _run(self, job: _LocalJob) -> None:
        loop = asyncio.get_running_loop()
        pool = self._executor()
        threads = isinstance(pool, ThreadPoolExecutor)

        async def chunk(index: int, start: int, count: int) -> JSON:
            def progress(done: int) -> None:
                job.done[index] = done  # one writer per slot; the reader tolerates a stale value

            if threads:
                result: JSON = await loop.run_in_executor(pool, tasks.run_chunk, job.spec, start, count, progress)
            else:
                result = await loop.run_in_executor(pool, tasks.run_chunk, job.spec, start, count)
            job.done[index] = count
            return result

        job.status = "running"
        try:
            tallies = await asyncio.gather(*(chunk(i, s, c) for i, (s, c) in enumerate(job.pieces)))
            job.result = await asyncio.to_thread(tasks.merge_chunks, list(tallies))
            job.status = "finished"
        except asyncio.CancelledError:
            job.status, job.error = "failed", "cancelled (the server stopped)"
            raise
        except Exception as exc:  # a failed chunk fails the job; the poller sees why
            log.exception("simulation %s failed", job.job_id)
            job.status, job.error = "failed", f"{type(exc).__name__}: {exc}"

    def _view(self, job: _LocalJob) -> JSON:
        progress = 1.0 if job.status == "finished" else min(sum(job.done) / job.spec["trials"], 0.999)
        return _view(job.job_id, job.spec, len(job.pieces), self.backend, status=job.status, progress=progress,
                     result=job.result, error=job.error)

    async def status(self, job_id: str) -> JSON | None:
        job = self._jobs.get(job_id)
        return None if job is None else self._view(job)

    def _forget_old(self) -> None:
        finished = [j for j in self._jobs.values() if j.status in ("finished", "failed")]
        for job in sorted(finished, key=lambda j: j.created_at)[: max(0, len(self._jobs) - MAX_LOCAL_JOBS + 1)]:
            del self._jobs[job.job_id]

    async def close(self) -> None:
        for job in self._jobs.values():
            if job.task is not None and not job.task.done():
                job.task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def open_runner(settings: Settings) -> SimulationRunner:
    """rq when Redis is configured (workers: `brimstone worker`), else the embedded pool."""
    return RqRunner(settings) if settings.redis_url else LocalRunner(settings)
