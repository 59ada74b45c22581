"""Job functions: importable, taking and returning plain data, so rq workers and the embedded pool run the same code.

A simulation is split into chunks (`shared_rules.simulate.split`); each chunk plays journeys start..start+count-1
with per-trial seeds, so the merged chunks equal one run with the same seed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import shared_rules  # the engine's names are read on use: a server imports this module at start, runs a job later

if TYPE_CHECKING:
    from shared_rules import odds
    from shared_rules.state import RuleOptions


class ChunkStopped(Exception):
    """The rq job playing a chunk was asked to stop (its odds option is within the precision, or its job was
    cancelled): raised at the chunk's next progress check, so rq records the job as stopped."""


_stop_asked: set[str] = set()  # the rq job this (no-fork) worker was asked to stop; written by its command thread


def ask_to_stop(job_id: str) -> None:
    """A worker that plays chunks in its own process cannot kill them: the chunk playing `job_id` stops itself at its
    next progress check (every ~2% of its trials). One chunk plays at a time, so only the last ask is kept."""
    global _stop_asked
    _stop_asked = {job_id}


def _inputs(spec: dict[str, Any]) -> tuple[tuple[Any, ...], RuleOptions]:
    heroes = tuple(shared_rules.decode_hero(data, f"heroes[{i}]") for i, data in enumerate(spec["heroes"]))
    options: RuleOptions = shared_rules.codec.decode(shared_rules.RuleOptions, spec.get("options") or {}, "options")
    return heroes, options


def run_chunk(
    spec: dict[str, Any], start: int, count: int, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Play trials start..start+count-1 of a simulation `spec`; returns the chunk's Tally as JSON data.

    Inside an rq job, progress is written to the job's meta (`done`) so the poller can report it.
    """
    heroes, options = _inputs(spec)
    report = progress if progress is not None else _rq_progress()
    tally = shared_rules.simulate.run_trials(heroes, spec["size"], count, seed=spec["seed"], start=start,
                                             options=options, progress=report)
    return tally.to_json()


def _rq_progress(*, save: bool = True) -> Callable[[int], None] | None:
    """Inside an rq job: a progress callback that stops the chunk when the job was asked to stop and (with `save`)
    writes the trials done to the job's meta."""
    try:
        from rq import get_current_job
    except ImportError:  # pragma: no cover - rq is a service dependency
        return None
    job = get_current_job()
    if job is None:
        return None

    def report(done: int) -> None:
        if job.id in _stop_asked:
            _stop_asked.discard(job.id)
            raise ChunkStopped(f"chunk {job.id} stopped after {done} trials, as asked")
        if save:
            job.meta["done"] = done
            job.save_meta()

    return report


def merge_chunks(tallies: list[dict[str, Any]]) -> dict[str, Any]:
    """The summary (shared_rules.simulate.summarize) of a simulation's chunk tallies."""
    simulate = shared_rules.simulate
    merged = simulate.merge(simulate.Tally.from_json(t) for t in tallies)
    summary: dict[str, Any] = simulate.summarize(merged)
    return summary


def finalize(chunk_ids: list[str]) -> dict[str, Any]:
    """rq finalizer, run once every chunk job finished: merge their tallies into the summary."""
    from rq import get_current_job
    from rq.job import Job

    current = get_current_job()
    if current is None:
        raise RuntimeError("finalize runs as an rq job")
    jobs = Job.fetch_many(chunk_ids, connection=current.connection)
    tallies = []
    for job_id, job in zip(chunk_ids, jobs, strict=True):
        result = job.return_value() if job is not None else None
        if result is None:
            raise RuntimeError(f"chunk {job_id} has no result (expired or failed)")
        tallies.append(result)
    return merge_chunks(tallies)


def single_run(spec: dict[str, Any]) -> dict[str, Any]:
    """The whole simulation in one piece (for tests and benchmarks comparing against the chunked run)."""
    return merge_chunks([run_chunk(spec, 0, int(spec["trials"]))])


# ---- odds ------------------------------------------------------------------------------------------------------
def odds_plan(spec: dict[str, Any]) -> odds.Plan:
    """The question of an odds job spec, planned on its table state (each worker process keeps the last few)."""
    return _odds_plan(json.dumps({k: spec[k] for k in ("state", "question", "params")}, sort_keys=True))


@lru_cache(maxsize=16)
def _odds_plan(key: str) -> odds.Plan:
    spec = json.loads(key)
    return shared_rules.odds.plan(shared_rules.decode_state(spec["state"]), spec["question"], spec["params"])


def odds_chunk(
    spec: dict[str, Any], option: str, start: int, count: int, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Trials start..start+count-1 of one option of an odds job; returns the chunk's Sample as JSON data. In an rq
    job it stops when asked (its progress is not saved: the API counts an odds chunk's trials when it is done)."""
    report = progress if progress is not None else _rq_progress(save=False)
    sample = shared_rules.odds.run_chunk(odds_plan(spec), option, start, count, seed=spec["seed"], progress=report)
    return sample.to_json()


def odds_sample(
    spec: dict[str, Any], option: str, start: int, count: int, progress: Callable[[int], None] | None = None
) -> tuple[Any, ...]:
    """`odds_chunk` for the embedded pool: the sample as plain data (`Sample.to_plain`), which crosses to the
    API's process pickled, with no JSON text to build there and parse here."""
    sample = shared_rules.odds.run_chunk(odds_plan(spec), option, start, count, seed=spec["seed"], progress=progress)
    return sample.to_plain()


_memos: Any = None  # this worker's odds_book.Memos: what it merged of the options it settled
_books: dict[str, tuple[Any, odds.Plan]] = {}  # job id -> its OddsBook and plan (they never change), the last few


def odds_piece(prefix: str, job_id: str, index: int) -> dict[str, Any]:
    """Piece `index` of the rq odds job `job_id` (`services.jobs.odds_book`): played unless its option is closed,
    put in the book, its option settled, and the next open piece queued. Returns the trials played."""
    from rq import Queue, get_current_job

    from services.jobs import odds_book

    global _memos
    job = get_current_job()
    if job is None:
        raise RuntimeError("odds_piece runs as an rq job")
    known = _books.get(job_id)
    if known is None:
        raw = job.connection.get(f"{prefix}:odds:{job_id}")
        if raw is None:
            raise RuntimeError(f"odds job {job_id}: its record expired")
        while len(_books) >= 4:
            _books.pop(next(iter(_books)))
        record = json.loads(raw)
        book = odds_book.OddsBook(job.connection, prefix, job_id, record, int(record["ttl"]))
        known = _books[job_id] = (book, odds_plan(book.spec))  # the plan's cache key is the state as JSON: once
    book, plan = known
    queue = Queue(book.queue_name, connection=job.connection)
    option, start, count = book.pieces[index]
    if book.is_closed(option):
        book.feed(queue, 1)
        return {"trials": 0}
    try:
        sample = shared_rules.odds.run_chunk(plan, option, start, count, seed=book.spec["seed"],
                                             progress=_rq_progress(save=False))
    except ChunkStopped:
        book.feed(queue, 1)
        raise
    except Exception as error:
        book.fail(f"{type(error).__name__}: {error}")
        raise
    book.put(index, sample.to_plain())
    _memos = _memos or odds_book.Memos()
    if book.settle(plan, option, _memos.get(job_id, option), own=(index, sample)):
        book.feed(queue, 1 + book.close(queue, {option}))
    else:
        book.feed(queue, 1)
    return {"trials": count}


def warm() -> None:
    """Load the engine's rule areas in this process (they load on the first command), before the first chunk: so a
    forking worker's horses never pay for it (~0.3 CPU-s each otherwise), nor a no-fork worker's first chunk."""
    from shared_rules.engine import legal_commands, new_session
    from shared_rules.simulate import sample_heroes

    legal_commands(new_session(sample_heroes(1)))
