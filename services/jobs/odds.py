"""Odds jobs: a question's trials in chunks (option by option, interleaved) on the simulation workers, with a partial
answer that sharpens as chunks arrive, progress, and cancel.

Each option's chunks are `odds.option_pieces` (a small first one, so the first figures come in a few hundred ms). With a
`precision` in the spec, an option stops at the first chunk boundary where its chances are within it
(`odds.settle`): its later chunks are cancelled, and the answer is the one `odds.ask` gives in one process.

The embedded backend runs chunks in the API process's pool (the same pool as bulk simulations); the rq backend
enqueues them for `brimstone worker`s. Both answer with the same view: status, progress 0..1, the chunks done and
`answer` (shared_rules.odds.answer of what has arrived; `answer.complete` once every trial is in).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import shared_rules  # the odds engine is read on use: a server imports this module at start, runs a job later
from services.jobs import odds_book, tasks
from services.jobs.runner import LocalRunner, RqRunner, SimulationRunner, new_job_id
from services.settings import Settings

if TYPE_CHECKING:
    from shared_rules.odds import Plan, Sample, Settled

log = logging.getLogger("brimstone.jobs")
JSON = dict[str, Any]
TERMINAL = ("finished", "failed", "cancelled")
MAX_LOCAL_JOBS = 200
WATCH_INTERVAL = 0.1  # seconds between looks at a job for its watchers (a backend that cannot tell them)
WATCH_FALLBACK = 1.0  # seconds between looks at an rq job whose workers announce each change


def plan_pieces(spec: JSON, chunk: int) -> list[tuple[str, int, int]]:
    """(option, start, count) pieces (`odds.option_pieces`: the first small, none over `chunk` trials), interleaved
    across the options so every option's estimate sharpens together as pieces finish."""
    cut = shared_rules.odds.option_pieces(spec["question"], spec["trials"], chunk,
                                          stopping=spec.get("precision") is not None)
    return [(key, start, count) for start, count in cut for key in spec["options"]]


def settled(plan: Plan, spec: JSON, pieces: list[tuple[str, int, int]], results: dict[int, Sample],
            memos: dict[str, Settled] | None = None) -> tuple[dict[str, Sample], set[str]]:
    """Each option's sample from the pieces in (by index), in order (`odds.settle`), and the options that met
    the spec's precision (their later pieces are not needed). `memos` (per option, kept by the caller for the
    job) carry on from the last call, so each piece is merged and checked once however often the job is read."""
    samples, stopped = {}, set()
    for key in spec["options"]:
        chunks = [results.get(index) for index, piece in enumerate(pieces) if piece[0] == key]
        memo = None if memos is None else memos.setdefault(key, shared_rules.odds.Settled())
        samples[key], met = shared_rules.odds.settle(plan, chunks, spec.get("precision"), memo)
        if met:
            stopped.add(key)
    return samples, stopped


def _view(job_id: str, spec: JSON, backend: str, *, status: str, done: int, chunks: int, chunks_done: int,
          answer: JSON | None, error: str | None) -> JSON:
    total = spec["trials"] * len(spec["options"])
    progress = 1.0 if status == "finished" else min(done / total, 0.999) if total else 0.0
    return {"job_id": job_id, "status": status, "progress": round(progress, 4), "question": spec["question"],
            "options": list(spec["options"]), "trials": spec["trials"], "seed": spec["seed"],
            "session_id": spec.get("session_id"), "chunks": chunks, "chunks_done": chunks_done, "backend": backend,
            "answer": answer, "error": error, "owner": spec.get("owner")}  # the use case keeps `owner` to itself


class OddsRunner(Protocol):
    backend: str

    async def start(self, spec: JSON) -> JSON: ...

    async def status(self, job_id: str) -> JSON | None: ...

    async def cancel(self, job_id: str) -> JSON | None: ...

    def watch(self, job_id: str) -> AsyncIterator[JSON]: ...

    async def close(self) -> None: ...


async def watch(runner: OddsRunner, job_id: str) -> AsyncIterator[JSON]:
    """The job's view now, then each time its progress changes, until it is finished, failed or cancelled."""
    async for view in runner.watch(job_id):
        yield view


async def poll(runner: OddsRunner, job_id: str, wait: Callable[[], Awaitable[object]] | None = None
               ) -> AsyncIterator[JSON]:
    """`watch` by reading the job, then `wait()` (by default WATCH_INTERVAL: a backend that cannot tell its watchers
    of a change), again until it ends; a view is handed on only when its progress changed."""
    last: tuple[Any, ...] | None = None
    while True:
        view = await runner.status(job_id)
        if view is None:
            return
        key = (view["status"], view["chunks_done"], view["progress"])
        if key != last:
            last = key
            yield view
        if view["status"] in TERMINAL:
            return
        await (wait() if wait is not None else asyncio.sleep(WATCH_INTERVAL))


# ---- embedded ----------------------------------------------------------------------------------------------
@dataclass
class _Job:
    job_id: str
    spec: JSON
    plan: Plan
    pieces: list[tuple[str, int, int]]
    samples: dict[str, Sample]
    done: list[int]
    results: dict[int, Sample] = field(default_factory=dict)
    settling: dict[str, Settled] = field(default_factory=dict)  # per option: how far `settled` has merged
    stopped: set[str] = field(default_factory=set)  # options within the precision: no more of their pieces
    chunks_done: int = 0
    status: str = "queued"
    error: str | None = None
    created_at: float = field(default_factory=time.time)
    task: asyncio.Task[None] | None = None
    answer: JSON | None = None
    answered_at: int = -1  # chunks_done when `answer` was built
    watchers: list[asyncio.Queue[JSON]] = field(default_factory=list)  # each gets every change's view


class LocalOddsRunner:
    """Chunks in the embedded simulation pool; jobs live in memory (lost on a restart)."""

    backend = "embedded"

    def __init__(self, settings: Settings, simulations: LocalRunner) -> None:
        self.settings = settings
        self.simulations = simulations
        self._jobs: dict[str, _Job] = {}

    async def start(self, spec: JSON) -> JSON:
        plan = tasks.odds_plan(spec)
        pieces = plan_pieces(spec, self.settings.odds_chunk_trials)
        empty = {key: shared_rules.odds.Sample() for key in spec["options"]}
        job = _Job(new_job_id(), spec, plan, pieces, empty, [0] * len(pieces))
        self._forget_old()
        self._jobs[job.job_id] = job
        job.task = asyncio.get_running_loop().create_task(self._run(job))
        return self._view(job)

    async def _run(self, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        pool: Executor = self.simulations._executor()
        threads = isinstance(pool, ThreadPoolExecutor)

        async def chunk(index: int, option: str, start: int, count: int) -> None:
            def progress(done: int) -> None:
                job.done[index] = done  # one writer per slot; readers tolerate a stale value

            try:
                if threads:
                    result = await loop.run_in_executor(pool, tasks.odds_sample, job.spec, option, start, count,
                                                        progress)
                else:
                    result = await loop.run_in_executor(pool, tasks.odds_sample, job.spec, option, start, count)
            except asyncio.CancelledError:
                if option in job.stopped and job.status not in TERMINAL:
                    return  # its option is within the precision: this piece is not needed
                raise
            if job.status in TERMINAL or option in job.stopped:
                return
            job.results[index] = shared_rules.odds.Sample.from_plain(result)
            job.done[index] = count
            job.chunks_done += 1
            job.samples, stopped = settled(job.plan, job.spec, job.pieces, job.results, job.settling)
            for key in stopped - job.stopped:
                job.stopped.add(key)
                for later, piece in enumerate(job.pieces):
                    if piece[0] == key and later not in job.results:
                        job.done[later] = piece[2]  # not run: counted as done for the progress
                        futures[later].cancel()
            self._changed(job)

        job.status = "running"
        futures: list[asyncio.Future[None]] = []
        futures += [asyncio.ensure_future(chunk(i, *piece)) for i, piece in enumerate(job.pieces)]
        try:
            await asyncio.gather(*futures)
            job.status = "finished"
        except asyncio.CancelledError:
            for future in futures:
                future.cancel()
            if job.status not in TERMINAL:
                job.status, job.error = "failed", "cancelled (the server stopped)"
            raise
        except Exception as exc:  # a failed chunk fails the job; the poller sees why
            for future in futures:
                future.cancel()
            log.exception("odds job %s failed", job.job_id)
            job.status, job.error = "failed", f"{type(exc).__name__}: {exc}"
        finally:
            self._changed(job)

    def _changed(self, job: _Job) -> None:
        """Hand each watcher the job's view now: every chunk that arrives is seen, however fast they come."""
        if job.watchers:
            view = self._view(job)
            for queue in job.watchers:
                queue.put_nowait(view)

    async def watch(self, job_id: str) -> AsyncIterator[JSON]:
        job = self._jobs.get(job_id)
        if job is None:
            return
        queue: asyncio.Queue[JSON] = asyncio.Queue()
        job.watchers.append(queue)
        try:
            view = self._view(job)
            while True:
                yield view
                if view["status"] in TERMINAL:
                    return
                view = await queue.get()
        finally:
            job.watchers.remove(queue)

    def _view(self, job: _Job) -> JSON:
        if job.answered_at != job.chunks_done or job.answer is None:
            job.answer = shared_rules.odds.answer(job.plan, job.samples, trials=job.spec["trials"],
                                     precision=job.spec.get("precision"))
            job.answered_at = job.chunks_done
        return _view(job.job_id, job.spec, self.backend, status=job.status, done=sum(job.done),
                     chunks=len(job.pieces), chunks_done=job.chunks_done, answer=job.answer, error=job.error)

    async def status(self, job_id: str) -> JSON | None:
        job = self._jobs.get(job_id)
        return None if job is None else self._view(job)

    async def cancel(self, job_id: str) -> JSON | None:
        """Stop the job: chunks not started never run, the answer keeps what had arrived."""
        job = self._jobs.get(job_id)
        if job is None:
            return None
        if job.status not in TERMINAL:
            job.status, job.error = "cancelled", None
            if job.task is not None:
                job.task.cancel()
            self._changed(job)
        return self._view(job)

    def _forget_old(self) -> None:
        ended = [j for j in self._jobs.values() if j.status in TERMINAL]
        for job in sorted(ended, key=lambda j: j.created_at)[: max(0, len(self._jobs) - MAX_LOCAL_JOBS + 1)]:
            del self._jobs[job.job_id]

    async def close(self) -> None:
        for job in self._jobs.values():
            if job.task is not None and not job.task.done():
                job.task.cancel()


# ---- rq ----------------------------------------------------------------------------------------------------
class RqOddsRunner:
    """Pieces as rq jobs for `brimstone worker`s, which settle each option as its pieces come in and write its part
    of the answer (`odds_book`); the API puts the parts together when asked."""

    backend = "rq"

    def __init__(self, settings: Settings, simulations: RqRunner) -> None:
        self.settings = settings
        self.redis = simulations.redis
        self.queue = simulations.queue
        self._plans: dict[str, Plan] = {}  # per job: its plan (the empty options' parts are made from it)
        self._empty: dict[str, JSON] = {}  # per job: each option's part before any of its pieces is in

    def _key(self, job_id: str) -> str:
        return f"{self.settings.redis_prefix}:odds:{job_id}"

    def _book(self, job_id: str, record: JSON) -> odds_book.OddsBook:
        return odds_book.OddsBook(self.redis, self.settings.redis_prefix, job_id, record, self.settings.result_ttl)

    def _start(self, spec: JSON) -> JSON:
        tasks.odds_plan(spec)  # refuse what cannot run before anything is queued
        job_id = new_job_id()
        pieces = plan_pieces(spec, self.settings.odds_chunk_trials)
        ttl = self.settings.result_ttl
        record = {"spec": spec, "pieces": pieces, "queue": self.queue.name, "ttl": ttl, "status": "queued",
                  "created_at": time.time()}
        self.redis.set(self._key(job_id), json.dumps(record), ex=ttl)
        self._book(job_id, record).feed(self.queue, odds_book.ahead(len(spec["options"]), self._workers()))
        return _view(job_id, spec, self.backend, status="queued", done=0, chunks=len(pieces), chunks_done=0,
                     answer=shared_rules.odds.answer(tasks.odds_plan(spec), {}, trials=spec["trials"],
                                                     precision=spec.get("precision")), error=None)

    async def start(self, spec: JSON) -> JSON:
        return await asyncio.to_thread(self._start, spec)

    def _workers(self) -> int:
        """The workers listening on the queue now (each ending piece queues one more, so this sets the depth)."""
        from rq import Worker

        return int(Worker.count(connection=self.redis, queue=self.queue))

    def _record(self, job_id: str) -> JSON | None:
        raw = self.redis.get(self._key(job_id)) if job_id.isalnum() else None
        return None if raw is None else dict(json.loads(raw))

    def _status(self, job_id: str) -> JSON | None:
        record = self._record(job_id)
        if record is None:
            return None
        spec = record["spec"]
        if "queue" not in record:  # asked of the version before the workers kept a book: its chunks wrote none
            return _view(job_id, spec, self.backend, status="failed", done=0, chunks=len(record["pieces"]),
                         chunks_done=0, answer=None, error="asked before the service was upgraded: ask again")
        book = self._book(job_id, record)
        done, parts, closed, error = book.read()
        status = record["status"]
        if status not in TERMINAL and error is None:
            error = self._lost(book)
        if error is not None and status not in TERMINAL:
            status = "failed"
        precision, trials = spec.get("precision"), spec["trials"]
        each = [parts[key]["part"] if key in parts else self._empty_part(job_id, spec, key) for key in spec["options"]]
        answer = shared_rules.odds.answer_of(self._plan(job_id, spec), each, trials=trials, precision=precision)
        settled = {key for key in spec["options"] if key in parts and parts[key]["met"]}
        played = sum(count if index in done or option in settled else 0
                     for index, (option, _, count) in enumerate(book.pieces))
        if status not in TERMINAL:
            status = "finished" if answer["complete"] else "running" if done else "queued"
        if status in TERMINAL:
            self._plans.pop(job_id, None)
            self._empty.pop(job_id, None)
        return _view(job_id, spec, self.backend, status=status, done=played, chunks=len(book.pieces),
                     chunks_done=len(done), answer=answer, error=error)

    def _plan(self, job_id: str, spec: JSON) -> Plan:
        plan = self._plans.get(job_id)
        if plan is None:
            while len(self._plans) >= MAX_LOCAL_JOBS:
                self._plans.pop(next(iter(self._plans)))
            plan = self._plans[job_id] = tasks.odds_plan(spec)
        return plan

    def _empty_part(self, job_id: str, spec: JSON, key: str) -> JSON:
        part = self._empty.get(f"{job_id}:{key}")
        if part is None:
            while len(self._empty) >= MAX_LOCAL_JOBS:
                self._empty.pop(next(iter(self._empty)))
            part = self._empty[f"{job_id}:{key}"] = shared_rules.odds.option_answer(
                self._plan(job_id, spec), key, shared_rules.odds.Sample(), spec.get("precision"))
        return part

    def _lost(self, book: odds_book.OddsBook) -> str | None:
        """Why a queued piece failed (its worker died, rq timed it out, its settle raised), if one did: before it
        was put in the book, or after (a worker that dies while it settles leaves its option's lock to expire)."""
        from rq.job import JobStatus

        waiting = [odds_book.piece_id(book.job_id, i) for i in book.queued()]
        for chunk_id, state in zip(waiting, self._states(waiting), strict=True):
            if state == JobStatus.FAILED:
                job = self._fetch(chunk_id)
                result = job.latest_result() if job is not None else None
                exc_info = result.exc_string if result is not None else None
                if exc_info and "ChunkStopped" in exc_info:
                    continue  # stopped as asked: its option was settled
                return (exc_info or "a chunk failed").strip().splitlines()[-1]
        return None

    async def status(self, job_id: str) -> JSON | None:
        return await asyncio.to_thread(self._status, job_id)

    async def watch(self, job_id: str) -> AsyncIterator[JSON]:
        """The job's view now, then each time the workers announce an option's part (`odds_book.channel`), with a
        look every WATCH_FALLBACK seconds should an announcement be missed; until it ends."""
        from redis.asyncio import Redis as AsyncRedis

        client = AsyncRedis.from_url(str(self.settings.redis_url))
        pubsub = client.pubsub()

        async def announced() -> None:
            if await pubsub.get_message(ignore_subscribe_messages=True, timeout=WATCH_FALLBACK) is not None:
                while await pubsub.get_message(ignore_subscribe_messages=True, timeout=0) is not None:
                    pass  # a burst of announcements is one read

        try:
            await pubsub.subscribe(odds_book.channel(self.settings.redis_prefix, job_id))
            async for view in poll(self, job_id, announced):
                yield view
        finally:
            await pubsub.aclose()
            await client.aclose()

    def _states(self, chunk_ids: list[str]) -> list[Any]:
        """Each chunk's rq status (None: gone), read in one round trip: only the status field of each job's hash,
        not the whole job."""
        from rq.job import Job, JobStatus

        with self.redis.pipeline(transaction=False) as pipe:
            for chunk_id in chunk_ids:
                pipe.hget(Job.key_for(chunk_id), "status")
            raw = pipe.execute()
        return [JobStatus(value.decode() if isinstance(value, bytes) else value) if value else None for value in raw]

    def _fetch(self, chunk_id: str) -> Any:
        from rq.exceptions import NoSuchJobError
        from rq.job import Job

        try:
            return Job.fetch(chunk_id, connection=self.redis)
        except NoSuchJobError:
            return None

    def _cancel(self, job_id: str) -> JSON | None:
        record = self._record(job_id)
        if record is None:
            return None
        if record["status"] not in TERMINAL:
            record["status"] = "cancelled"
            self.redis.set(self._key(job_id), json.dumps(record), keepttl=True)
            self._book(job_id, record).close(self.queue, {odds_book.CANCELLED})
        return self._status(job_id)

    async def cancel(self, job_id: str) -> JSON | None:
        return await asyncio.to_thread(self._cancel, job_id)

    async def close(self) -> None:
        return None


def open_odds_runner(settings: Settings, simulations: SimulationRunner) -> OddsRunner:
    """Odds jobs on the same workers as bulk simulations: rq when Redis is configured, else the embedded pool."""
    if isinstance(simulations, RqRunner):
        return RqOddsRunner(settings, simulations)
    assert isinstance(simulations, LocalRunner)
    return LocalOddsRunner(settings, simulations)
