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
import os
import secrets
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from services.jobs import tasks
from services.settings import Settings

log = logging.getLogger("brimstone.jobs")
JSON = dict[str, Any]
MAX_LOCAL_JOBS = 200


class SimulationRunner(Protocol):
    backend: str

    async def start(self, spec: JSON, client: str = "unknown") -> JSON: ...

    async def status(self, job_id: str) -> JSON | None: ...

    def queue_depth(self) -> int: ...

    async def close(self) -> None: ...


class QueueFull(Exception):
    """Too many simulations are waiting or running (all clients together): retry later (HTTP 503)."""

    retry_after = 30


class TooManySimulations(Exception):
    """This client already has its share of unfinished simulations (HTTP 429)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"at most {limit} unfinished simulation(s) per client address; wait for one to finish")
        self.limit = limit


def check_caps(settings: Settings, unfinished: list[str], client: str) -> None:
    """Refuse a new job when the queue is full or the client has its share (`unfinished`: the clients of the
    unfinished jobs, one entry per job)."""
    if len(unfinished) >= settings.max_queued_simulations:
        raise QueueFull(f"{len(unfinished)} simulations are queued or running (at most "
                        f"{settings.max_queued_simulations}); retry later")
    if unfinished.count(client) >= settings.max_simulations_per_client:
        raise TooManySimulations(settings.max_simulations_per_client)


def plan_chunks(settings: Settings, trials: int) -> list[tuple[int, int]]:
    """At most `simulation_chunks` pieces, none smaller than `min_chunk_trials` (unless the job is)."""
    chunks = max(1, min(settings.simulation_chunks, math.ceil(trials / settings.min_chunk_trials)))
    from shared_rules.simulate import split  # the engine: loaded with the first simulation, not at start

    return split(trials, chunks)


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
        self._depth = 0

    def _meta_key(self, job_id: str) -> str:
        return f"{self.settings.redis_prefix}:simulation:{job_id}"

    def _active_key(self) -> str:
        return f"{self.settings.redis_prefix}:simulations:active"

    def _unfinished(self) -> list[str]:
        """Clients of the jobs not finished yet (finished and failed ones are dropped from the active set)."""
        from rq.job import Job, JobStatus

        active = {k.decode(): v.decode() for k, v in self.redis.hgetall(self._active_key()).items()}
        if not active:
            return []
        finals = Job.fetch_many([f"sim-{job_id}-final" for job_id in active], connection=self.redis)
        clients = []
        for (job_id, client), final in zip(active.items(), finals, strict=True):
            done = final is None or final.get_status(refresh=False) in (JobStatus.FINISHED, JobStatus.FAILED,
                                                                         JobStatus.CANCELED)
            if done or self._chunk_failed(job_id):
                self.redis.hdel(self._active_key(), job_id)
            else:
                clients.append(client)
        self._depth = len(clients)
        return clients

    def _chunk_failed(self, job_id: str) -> bool:
        raw = self.redis.get(self._meta_key(job_id))
        if raw is None:
            return True
        from rq.job import Job, JobStatus

        chunks = Job.fetch_many(json.loads(raw)["chunks"], connection=self.redis)
        return any(job is None or job.get_status(refresh=False) == JobStatus.FAILED for job in chunks)

    def queue_depth(self) -> int:
        return self._depth

    def _start(self, spec: JSON, client: str) -> JSON:
        from rq import Queue

        check_caps(self.settings, self._unfinished(), client)
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
        self.redis.hset(self._active_key(), job_id, client)
        self._depth += 1
        return _view(job_id, spec, len(pieces), self.backend, status="queued", progress=0.0)

    async def start(self, spec: JSON, client: str = "unknown") -> JSON:
        return await asyncio.to_thread(self._start, spec, client)

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


def _die_with_parent(parent: int) -> None:
    """Pool process initializer: the kernel kills this process when the API process dies, even by SIGKILL
    (Linux prctl PR_SET_PDEATHSIG), so a killed server leaves no simulation burning CPU. A parent that died before
    this ran (the process was just starting) ends it here."""
    import ctypes
    import os
    import signal

    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:  # not Linux: the pool still ends with a clean shutdown
        pass
    if os.getppid() != parent:
        os._exit(0)


_JOBS_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    pieces TEXT NOT NULL,
    client TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    error TEXT,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
    job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    tally TEXT NOT NULL,
    PRIMARY KEY (job_id, idx)
);
"""


class JobStore:
    """Embedded simulation jobs in a SQLite file: the request, each finished chunk's tally and the result, so a
    restarted server resumes unfinished jobs from their last finished chunk."""

    def __init__(self, path: str) -> None:
        import sqlite3

        self.path = path
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10.0)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        for statement in _JOBS_SCHEMA.split(";"):
            if statement.strip():
                self.conn.execute(statement)

    def add(self, job: _LocalJob) -> None:
        self.conn.execute("INSERT INTO jobs (id, spec, pieces, client, status, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                          (job.job_id, json.dumps(job.spec), json.dumps(job.pieces), job.client, job.status,
                           job.created_at))

    def chunk_done(self, job_id: str, index: int, tally: JSON) -> None:
        self.conn.execute("INSERT OR REPLACE INTO chunks (job_id, idx, tally) VALUES (?, ?, ?)",
                          (job_id, index, json.dumps(tally)))

    def finish(self, job: _LocalJob) -> None:
        self.conn.execute("UPDATE jobs SET status = ?, result = ?, error = ? WHERE id = ?",
                          (job.status, None if job.result is None else json.dumps(job.result), job.error, job.job_id))
        if job.status == "finished":
            self.conn.execute("DELETE FROM chunks WHERE job_id = ?", (job.job_id,))

    def load(self) -> list[tuple[_LocalJob, dict[int, JSON]]]:
        jobs = []
        for job_id, spec, pieces, client, status, result, error, created_at in self.conn.execute(
                "SELECT id, spec, pieces, client, status, result, error, created_at FROM jobs ORDER BY created_at"):
            job = _LocalJob(job_id, json.loads(spec), [tuple(p) for p in json.loads(pieces)], [], status=status,
                            result=None if result is None else json.loads(result), error=error,
                            created_at=created_at, client=client)
            job.done = [0] * len(job.pieces)
            tallies = {int(i): json.loads(t) for i, t in self.conn.execute(
                "SELECT idx, tally FROM chunks WHERE job_id = ?", (job_id,))}
            for index in tallies:
                job.done[index] = job.pieces[index][1]
            jobs.append((job, tallies))
        return jobs

    def forget(self, job_ids: list[str]) -> None:
        self.conn.executemany("DELETE FROM jobs WHERE id = ?", [(j,) for j in job_ids])

    def close(self) -> None:
        self.conn.close()


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
    client: str = "unknown"


class LocalRunner:
    """Chunks in a process pool (or threads) of the API process. Jobs are kept in a SQLite file (`jobs_path`) when
    given: a restarted server resumes the unfinished ones. The pool's processes end with the server."""

    backend = "embedded"

    def __init__(self, settings: Settings, jobs_path: str | None = None) -> None:
        self.settings = settings
        self._jobs: dict[str, _LocalJob] = {}
        self._pool: Executor | None = None
        self._store = JobStore(jobs_path) if jobs_path else None
        self._resumed = False

    def _executor(self) -> Executor:
        if self._pool is None:
            workers = self.settings.simulation_workers
            if self.settings.simulation_executor == "thread":
                self._pool = ThreadPoolExecutor(workers, thread_name_prefix="brimstone-sim")
            else:  # spawn: a fork of a process running an event loop and threads is not safe
                self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_die_with_parent, initargs=(os.getpid(),))
        return self._pool

    def _resume(self) -> None:
        """Pick up the jobs a previous run of the server left unfinished (once, on first use)."""
        if self._resumed or self._store is None:
            return
        self._resumed = True
        for job, tallies in self._store.load():
            self._jobs[job.job_id] = job
            if job.status in ("queued", "running"):
                log.info("resuming simulation %s (%d of %d chunks done)", job.job_id, len(tallies), len(job.pieces))
                job.task = asyncio.get_running_loop().create_task(self._run(job, tallies))

    def queue_depth(self) -> int:
        return sum(1 for job in self._jobs.values() if job.status in ("queued", "running"))

    async def start(self, spec: JSON, client: str = "unknown") -> JSON:
        self._resume()
        unfinished = [job.client for job in self._jobs.values() if job.status in ("queued", "running")]
        check_caps(self.settings, unfinished, client)
        job = _LocalJob(new_job_id(), spec, plan_chunks(self.settings, spec["trials"]), [], client=client)
        job.done = [0] * len(job.pieces)
        self._forget_old()
        self._jobs[job.job_id] = job
        if self._store is not None:
            self._store.add(job)
        job.task = asyncio.get_running_loop().create_task(self._run(job, {}))
        return self._view(job)

    async def _run(self, job: _LocalJob, finished: dict[int, JSON]) -> None:
        loop = asyncio.get_running_loop()
        pool = self._executor()
        threads = isinstance(pool, ThreadPoolExecutor)

        async def chunk(index: int, start: int, count: int) -> JSON:
            if index in finished:
                return finished[index]

            def progress(done: int) -> None:
                job.done[index] = done  # one writer per slot; the reader tolerates a stale value

            if threads:
                result: JSON = await loop.run_in_executor(pool, tasks.run_chunk, job.spec, start, count, progress)
            else:
                result = await loop.run_in_executor(pool, tasks.run_chunk, job.spec, start, count)
            job.done[index] = count
            if self._store is not None:
                self._store.chunk_done(job.job_id, index, result)
            return result

        job.status = "running"
        try:
            tallies = await asyncio.gather(*(chunk(i, s, c) for i, (s, c) in enumerate(job.pieces)))
            job.result = await asyncio.to_thread(tasks.merge_chunks, list(tallies))
            job.status = "finished"
        except asyncio.CancelledError:
            if self._store is None:
                job.status, job.error = "failed", "cancelled (the server stopped)"
            raise  # persisted jobs stay "running" and resume when the server starts again
        except Exception as exc:  # a failed chunk fails the job; the poller sees why
            log.exception("simulation %s failed", job.job_id)
            job.status, job.error = "failed", f"{type(exc).__name__}: {exc}"
        if self._store is not None:
            self._store.finish(job)

    def _view(self, job: _LocalJob) -> JSON:
        progress = 1.0 if job.status == "finished" else min(sum(job.done) / job.spec["trials"], 0.999)
        return _view(job.job_id, job.spec, len(job.pieces), self.backend, status=job.status, progress=progress,
                     result=job.result, error=job.error)

    async def status(self, job_id: str) -> JSON | None:
        self._resume()
        job = self._jobs.get(job_id)
        return None if job is None else self._view(job)

    def _forget_old(self) -> None:
        finished = [j for j in self._jobs.values() if j.status in ("finished", "failed")]
        old = sorted(finished, key=lambda j: j.created_at)[: max(0, len(self._jobs) - MAX_LOCAL_JOBS + 1)]
        for job in old:
            del self._jobs[job.job_id]
        if self._store is not None and old:
            self._store.forget([job.job_id for job in old])

    async def close(self) -> None:
        """Stop the jobs and the pool's processes now (a running chunk is not waited for; persisted jobs resume
        on the next start)."""
        tasks_ = [job.task for job in self._jobs.values() if job.task is not None and not job.task.done()]
        for task in tasks_:
            task.cancel()
        if tasks_:
            await asyncio.gather(*tasks_, return_exceptions=True)
        pool, self._pool = self._pool, None
        if pool is not None:
            processes = list(getattr(pool, "_processes", {}).values()) if isinstance(pool, ProcessPoolExecutor) \
                else []
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # a chunk in progress would otherwise run to its end
                if process.is_alive():
                    process.terminate()
            for process in processes:
                process.join(timeout=5)
        if self._store is not None:
            self._store.close()


def open_runner(settings: Settings, jobs_path: str | None = None) -> SimulationRunner:
    """rq when Redis is configured (workers: `brimstone worker`), else the embedded pool with its jobs in the SQLite
    file `jobs_path` (none: in memory)."""
    return RqRunner(settings) if settings.redis_url else LocalRunner(settings, jobs_path)
