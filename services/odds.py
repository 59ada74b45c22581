"""What the service does for odds questions, for both doors: parse the request, read the table's state, queue the
question's chunks, and report, cancel and stream its progress (the answer sharpening as chunks arrive).

A question is asked of a table (`session_id`, with its token: the heroes as they are now, the prompt waiting) or
of a posse given in the request (`heroes`, as at the start of a campaign). Bad input is refused before anything
is queued, naming the field: an unknown question (422), a choice that is not pending (409), trials over the cap.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from services.contract.validation import check
from services.use_cases import (
    JSON,
    MAX_SEED,
    NotFound,
    Services,
    _int,
    _object,
    _open,
    _state_of,
    _str,
    by_the_rules,
    parse_heroes,
    parse_options,
)
from shared_rules import odds
from shared_rules.codec import encode_state
from shared_rules.engine import new_session
from shared_rules.errors import InvalidCommand

if TYPE_CHECKING:
    from services.jobs.odds import OddsRunner

DEFAULT_TRIALS = 5000
FIELDS = {"question", "session_id", "heroes", "options", "params", "trials", "seed"}


async def parse_odds(services: Services, body: Any, token: str | None) -> JSON:
    """An odds request as a job spec: the question, the table's state, the options compared, trials and seed."""
    data = _object(body, "body", FIELDS)
    if "question" not in data:
        raise InvalidCommand(f"question: required; one of {sorted(odds.QUESTIONS)}", field="question")
    question = _str(data["question"], "question", 100)
    if question not in odds.QUESTIONS:
        raise InvalidCommand(f"question: unknown question {question!r}; one of {sorted(odds.QUESTIONS)}",
                             field="question")
    if ("session_id" in data) == ("heroes" in data):
        raise InvalidCommand("session_id: give the table's session_id (with its token) or a posse of heroes, "
                             "not both", field="session_id")
    data = check("OddsRequest", data)  # the published schema: what fits it is refused only by the rules
    session_id = None
    if "session_id" in data:
        session_id = _str(data["session_id"], "session_id", 100)
        if "options" in data:
            raise InvalidCommand("options: a table's rule options are its own; give options only with heroes",
                                 field="options")
        state = _state_of(await _open(services, session_id, token, host_may=True))
    else:
        state = by_the_rules(new_session, parse_heroes(data["heroes"]), options=parse_options(data.get("options")))
    params = data.get("params") or {}
    if not isinstance(params, dict):
        raise InvalidCommand("params: expected a JSON object", field="params")
    cap = services.settings.max_odds_trials
    trials = min(_int(data.get("trials", DEFAULT_TRIALS), "trials", 1, MAX_SEED), cap)  # capped, as documented
    seed = _int(data["seed"], "seed", 0, MAX_SEED) if data.get("seed") is not None else secrets.randbelow(MAX_SEED)
    plan = by_the_rules(odds.plan, state, question, params)  # refuses a question that does not fit the table now
    return {"question": question, "session_id": session_id, "state": encode_state(state), "params": params,
            "options": [choice.key for choice in plan.options], "trials": trials, "seed": seed}


def _runner(services: Services) -> OddsRunner:
    if services.odds is None:
        raise RuntimeError("no odds runner is configured")
    return services.odds


async def start_odds(services: Services, body: Any, token: str | None) -> JSON:
    """Queue a question; it runs in chunks on the simulation workers and is polled, streamed or cancelled by id."""
    return await _runner(services).start(await parse_odds(services, body, token))


def _job_id(job_id: Any) -> str:
    return _str(job_id, "job_id", 100)


async def get_odds(services: Services, job_id: str) -> JSON:
    """The job's status, progress 0..1 and the answer so far (complete once every trial is in)."""
    view = await _runner(services).status(_job_id(job_id))
    if view is None:
        raise NotFound(f"odds job {job_id!r} does not exist (or has expired)", field="job_id")
    return view


async def cancel_odds(services: Services, job_id: str) -> JSON:
    """Stop the job; the answer keeps the trials already in. Cancelling an ended job changes nothing."""
    view = await _runner(services).cancel(_job_id(job_id))
    if view is None:
        raise NotFound(f"odds job {job_id!r} does not exist (or has expired)", field="job_id")
    return view


async def watch_odds(services: Services, job_id: str) -> AsyncIterator[JSON]:
    """The job now, then each change of its progress, until it is finished, failed or cancelled."""
    from services.jobs.odds import watch

    first = await get_odds(services, job_id)
    yield first
    if first["status"] in ("finished", "failed", "cancelled"):
        return
    seen = (first["status"], first["chunks_done"], first["progress"])
    async for view in watch(_runner(services), first["job_id"]):
        if (view["status"], view["chunks_done"], view["progress"]) != seen:
            yield view
