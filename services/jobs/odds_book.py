"""An rq odds job's book in Redis, kept by the workers that play its pieces and read by the API.

The worker that finishes a piece settles its option there and then (`odds.settle`, one worker at a time per option,
under a short lock): it merges the option's pieces in order, checks the precision at each boundary, and writes the
option's part of the answer (`odds.option_answer`). An option within its precision is closed at once: its queued
pieces are taken off the queue and a piece still playing is asked to stop. So the stop costs no wait for the API's
next look, and the API only puts the options' parts together (`odds.answer_of`), with no sample to read or refit.

Pieces are queued a few at a time (`WINDOW` per option or per worker, whichever is more): each piece that ends
queues the next open one, so an option that settles leaves little to take off the queue.

Keys, under `{prefix}:odds:{job_id}`: the record (spec, pieces, status: JSON), `:sample:{i}` (piece i's sample,
pickled plain data, deleted once its option is settled), `:done` (piece -> trials), `:parts` (option -> its part
of the answer and how far it is settled: JSON), `:changed` (a pub/sub channel: an option's part was written),
`:closed` (the options settled, and `*` once the job is cancelled), `:next` (the next piece to queue), `:error`,
`:lock:{option}`.
"""

from __future__ import annotations

import contextlib
import json
import pickle
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import shared_rules  # the odds engine is read on use

if TYPE_CHECKING:
    from redis import Redis
    from rq import Queue

    from shared_rules.odds import Plan, Sample, Settled

JSON = dict[str, Any]
PART_EVERY = 1.0  # seconds: without a precision, how often an option's part of the answer is made afresh
WINDOW = 2  # pieces queued ahead per option, and per worker: every worker busy, little to take back at a stop
LOCK_MS = 30_000  # a settling worker that dies frees its option's lock after this long
CANCELLED = "*"  # in `:closed`: the whole job


def ahead(options: int, workers: int) -> int:
    """How many pieces a question starts with on the queue: WINDOW per option or per worker, whichever is more
    (each piece that ends queues one more, so the queue stays this deep)."""
    return WINDOW * max(options, workers)


def channel(prefix: str, job_id: str) -> str:
    """The pub/sub channel a job's book is announced on each time an option's part is written (its settler has
    just merged a piece: the progress moved too)."""
    return f"{prefix}:odds:{job_id}:changed"


def piece_id(job_id: str, index: int) -> str:
    """The rq job id of piece `index` of odds job `job_id`."""
    return f"odds-{job_id}-{index}"


class OddsBook:
    """One odds job's keys; `pieces` are its (option, start, count) in order, interleaved across the options."""

    def __init__(self, redis: Redis, prefix: str, job_id: str, record: JSON, ttl: int) -> None:
        self.redis, self.prefix, self.job_id, self.ttl = redis, prefix, job_id, ttl
        self.key = f"{prefix}:odds:{job_id}"
        self.channel = channel(prefix, job_id)
        self.spec: JSON = record["spec"]
        self.pieces: list[tuple[str, int, int]] = [(str(o), int(s), int(c)) for o, s, c in record["pieces"]]
        self.queue_name: str = record["queue"]
        self._orders: dict[str, list[int]] = {}

    # ---- what the API asks -------------------------------------------------------------------------------------
    def read(self) -> tuple[dict[int, int], dict[str, JSON], set[str], str | None]:
        """The pieces in (index -> trials), each option's part of the answer so far, the closed options, and the
        first error, in one round trip."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(f"{self.key}:done")
            pipe.hgetall(f"{self.key}:parts")
            pipe.smembers(f"{self.key}:closed")
            pipe.get(f"{self.key}:error")
            done, parts, closed, error = pipe.execute()
        return ({int(i): int(n) for i, n in done.items()}, {_text(k): json.loads(v) for k, v in parts.items()},
                {_text(k) for k in closed}, None if error is None else _text(error))

    def queued(self) -> list[int]:
        """The pieces handed to the queue so far (the first `next`)."""
        raw = self.redis.get(f"{self.key}:next")
        return list(range(min(len(self.pieces), int(raw or 0))))

    def feed(self, queue: Queue, wanted: int) -> None:
        """Queue up to `wanted` more pieces, the next in order whose option is still open."""
        if wanted < 1:
            return
        with self.redis.pipeline(transaction=False) as pipe:  # one round trip for the usual case
            pipe.smembers(f"{self.key}:closed")
            pipe.incr(f"{self.key}:next")
            raw, taken = pipe.execute()
        if int(taken) == 1:  # the counter was made just now (INCR keeps a key's expiry after that)
            self.redis.expire(f"{self.key}:next", self.ttl)
        closed = {_text(k) for k in raw}
        if CANCELLED in closed:
            return
        jobs: list[Any] = []
        while len(jobs) < wanted:
            index = int(taken) - 1
            if index >= len(self.pieces):
                break
            if self.pieces[index][0] not in closed:
                jobs.append(self._piece_job(index))
            if len(jobs) < wanted:
                taken = self.redis.incr(f"{self.key}:next")
        if jobs:
            queue.enqueue_many(jobs)

    def _piece_job(self, index: int) -> Any:
        from rq import Queue as RqQueue

        return RqQueue.prepare_data(
            "services.jobs.tasks.odds_piece", (self.prefix, self.job_id, index),
            job_id=piece_id(self.job_id, index), result_ttl=self.ttl, ttl=self.ttl, failure_ttl=self.ttl,
            timeout=3600, meta={"count": self.pieces[index][2]})

    def close(self, queue: Queue, options: set[str]) -> int:
        """Close `options` (or the whole job: CANCELLED): their queued pieces come off the queue (returns how many)
        and their pieces still playing are asked to stop."""
        from rq.command import send_stop_job_command
        from rq.job import Job, JobStatus

        self.redis.sadd(f"{self.key}:closed", *options)
        self.redis.expire(f"{self.key}:closed", self.ttl)
        everything = CANCELLED in options
        if everything:  # nothing will be settled: the samples put so far go now, not in a week
            self.redis.delete(*(f"{self.key}:sample:{index}" for index in range(len(self.pieces))))
        done = self.redis.hgetall(f"{self.key}:done")
        ids = [piece_id(self.job_id, i) for i in self.queued()
               if str(i).encode() not in done and (everything or self.pieces[i][0] in options)]
        if not ids:
            return 0
        with self.redis.pipeline(transaction=False) as pipe:
            for chunk_id in ids:
                pipe.hget(Job.key_for(chunk_id), "status")
            states = pipe.execute()
        taken = 0
        with self.redis.pipeline(transaction=False) as pipe:
            for chunk_id, state in zip(ids, states, strict=True):
                if state is not None and _text(state) == JobStatus.QUEUED.value:
                    pipe.lrem(queue.key, 0, chunk_id)  # a worker that takes it anyway finds it closed
                    pipe.hset(Job.key_for(chunk_id), "status", JobStatus.CANCELED.value)
                    taken += 1
            pipe.execute()
        for chunk_id, state in zip(ids, states, strict=True):
            if state is not None and _text(state) == JobStatus.STARTED.value:
                with contextlib.suppress(Exception):  # it finished meanwhile: nothing to stop
                    send_stop_job_command(self.redis, chunk_id)
        return taken

    # ---- what a worker does --------------------------------------------------------------------------------------
    def is_closed(self, option: str) -> bool:
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.sismember(f"{self.key}:closed", option)
            pipe.sismember(f"{self.key}:closed", CANCELLED)
            return any(pipe.execute())

    def put(self, index: int, sample_plain: tuple[Any, ...]) -> None:
        """Piece `index` is in: its sample, then its mark (a settler that sees the mark finds the sample)."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(f"{self.key}:sample:{index}", pickle.dumps(sample_plain, protocol=5), ex=self.ttl)
            pipe.hset(f"{self.key}:done", str(index), self.pieces[index][2])
            pipe.expire(f"{self.key}:done", self.ttl)
            pipe.execute()

    def fail(self, error: str) -> None:
        self.redis.set(f"{self.key}:error", error, ex=self.ttl, nx=True)

    def settle(self, plan: Plan, option: str, memo: Settled, own: tuple[int, Sample] | None = None) -> bool:
        """Merge `option`'s pieces that are in, in order, from where the book says it is settled, checking the
        precision at each boundary; write its part of the answer; returns whether this call found the option
        within the precision (the caller then closes it). One worker settles an option at a time: one that finds
        the lock taken leaves it to the holder, who looks again after letting go (so a piece put meanwhile is never
        left unmerged), unless the option is closed (settled before, or the job cancelled)."""
        lock = f"{self.key}:lock:{option}"
        while True:
            if not self.redis.set(lock, self.job_id, nx=True, px=LOCK_MS):
                return False
            try:
                met = self._settle_locked(plan, option, memo, own)
            finally:
                self.redis.delete(lock)
            if met is not False or not self._behind(option, memo):
                return bool(met)

    def _order(self, option: str) -> list[int]:
        """The option's pieces, in order."""
        order = self._orders.get(option)
        if order is None:
            order = self._orders[option] = [i for i, piece in enumerate(self.pieces) if piece[0] == option]
        return order

    def _behind(self, option: str, memo: Settled) -> bool:
        """Whether the option is open and its next piece to merge is in (put while this worker held the lock)."""
        if memo.met:
            return False
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hget(f"{self.key}:parts", option)
            pipe.hgetall(f"{self.key}:done")
            raw, done = pipe.execute()
        booked = json.loads(raw) if raw is not None else {"merged": 0, "met": False}
        order = self._order(option)
        following = max(memo.merged, booked["merged"])
        return not booked["met"] and following < len(order) and str(order[following]).encode() in done

    def _settle_locked(self, plan: Plan, option: str, memo: Settled, own: tuple[int, Sample] | None) -> bool | None:
        """`settle` under the lock: True when the option is met now, None when it was closed already."""
        odds = shared_rules.odds
        order = self._order(option)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hget(f"{self.key}:parts", option)
            pipe.hgetall(f"{self.key}:done")
            pipe.sismember(f"{self.key}:closed", CANCELLED)
            raw, done, cancelled = pipe.execute()
        booked: JSON = json.loads(raw) if raw is not None else {"merged": 0, "met": False, "at": 0.0, "part": None}
        if booked["met"] or memo.met or cancelled:
            # settled already (a piece played before the stop was seen changes nothing), or the job is cancelled
            if own is not None:
                self.redis.delete(f"{self.key}:sample:{own[0]}")
            return None
        # this worker's own merge may be behind the book's (others settled since): catch up, checked already
        while memo.merged < booked["merged"]:
            memo.sample.merge(self._sample(order[memo.merged], own))
            memo.merged += 1
        chunks: list[Sample | None] = [None] * len(order)  # the pieces in, from where the merge stands
        for position in range(memo.merged, len(order)):
            if str(order[position]).encode() not in done:
                break
            chunks[position] = self._sample(order[position], own)
        if memo.merged >= len(order) or chunks[memo.merged] is None:
            return False
        precision = self.spec.get("precision")
        odds.settle(plan, chunks, precision, memo)  # merged in order, checked at each boundary, as in one process
        part, at = booked["part"], booked["at"]
        if precision is not None or memo.merged == len(order) or time.time() - at >= PART_EVERY or part is None:
            # with a precision the chances were just read for the check, so the part costs little; without one,
            # a long question's part is made a few times a second, not on every piece (each is a refit)
            part, at = odds.option_answer(plan, option, memo.sample, precision), time.time()
        entry = {"merged": memo.merged, "met": memo.met, "at": at, "part": part}
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(f"{self.key}:parts", option, json.dumps(entry))
            pipe.expire(f"{self.key}:parts", self.ttl)
            pipe.publish(self.channel, "part")  # the API's watchers read the job now, not at their next look
            if memo.met or memo.merged == len(order):  # settled: no worker reads its samples again (~160 kB each)
                pipe.delete(*(f"{self.key}:sample:{index}" for index in order))
            pipe.execute()
        return memo.met

    def _sample(self, index: int, own: tuple[int, Sample] | None) -> Sample:
        if own is not None and own[0] == index:
            return own[1]
        raw = self.redis.get(f"{self.key}:sample:{index}")
        if raw is None:
            raise RuntimeError(f"odds piece {index} of job {self.job_id}: its sample expired")
        return shared_rules.odds.Sample.from_plain(pickle.loads(raw if isinstance(raw, bytes) else raw.encode()))


class Memos:
    """What a worker process has merged of the options it settled, per (job, option): the jobs it saw last."""

    def __init__(self, jobs: int = 4) -> None:
        self._jobs: OrderedDict[str, dict[str, Settled]] = OrderedDict()
        self.size = jobs

    def get(self, job_id: str, option: str) -> Settled:
        memos = self._jobs.pop(job_id, None) or {}
        self._jobs[job_id] = memos
        while len(self._jobs) > self.size:
            self._jobs.popitem(last=False)
        if option not in memos:
            memos[option] = shared_rules.odds.Settled()
        return memos[option]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value

