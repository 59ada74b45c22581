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

from services.contract.odds import MIN_PRECISION, PRECISION_TRIALS
from services.contract.validation import check
from services.use_cases import (
    JSON,
    MAX_SEED,
    Forbidden,
    NotFound,
    Services,
    Unauthenticated,
    _int,
    _object,
    _open,
    _same,
    _state_of,
    _str,
    by_the_rules,
    new_token,
    parse_heroes,
    parse_options,
    role_at,
    token_hash,
)
from shared_rules.errors import InvalidCommand

if TYPE_CHECKING:
    from services.jobs.odds import OddsRunner

DEFAULT_TRIALS = 5000
FIELDS = {"question", "session_id", "heroes", "options", "params", "trials", "seed", "precision"}


async def parse_odds(services: Services, body: Any, token: str | None) -> JSON:
    """An odds request as a job spec: the question, the table's state, the options compared, trials and seed."""
    from shared_rules import odds  # the engine: loaded with the first odds request, not at start
    from shared_rules.codec import encode_state
    from shared_rules.engine import new_session

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
    params = data.get("params")
    if isinstance(params, dict):
        unknown = sorted(set(params) - odds.QUESTIONS[question].params)
        if unknown:
            raise InvalidCommand(f"params.{unknown[0]}: {question!r} takes no {unknown[0]!r}; it takes "
                                 f"{sorted(odds.QUESTIONS[question].params) or 'nothing more'}",
                                 field=f"params.{unknown[0]}")
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
    precision = _precision(data.get("precision"))
    default = DEFAULT_TRIALS if precision is None else PRECISION_TRIALS
    trials = min(_int(data.get("trials", default), "trials", 1, MAX_SEED), cap)  # capped, as documented
    seed = _int(data["seed"], "seed", 0, MAX_SEED) if data.get("seed") is not None else secrets.randbelow(MAX_SEED)
    plan = by_the_rules(odds.plan, state, question, params)  # refuses a question that does not fit the table now
    return {"question": question, "session_id": session_id, "state": encode_state(state), "params": params,
            "options": [choice.key for choice in plan.options], "trials": trials, "seed": seed,
            "precision": precision, "owner": token_hash(token) if token else None}


def _precision(value: Any) -> float | None:
    """The 95% half-width every chance must reach (sequential stopping), or None for a fixed number of trials."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not MIN_PRECISION <= value <= 0.5:
        raise InvalidCommand(f"precision: a 95% half-width from {MIN_PRECISION} to 0.5 (0.01 is +-1 point), got "
                             f"{value!r}", field="precision")
    return float(value)


def _runner(services: Services) -> OddsRunner:
    if services.odds is None:
        raise RuntimeError("no odds runner is configured")
    return services.odds


async def start_odds(services: Services, body: Any, token: str | None) -> JSON:
    """Queue a question; it runs in chunks on the simulation workers and is polled, streamed or cancelled by id,
    with the token that asked (or any token of the table asked about). A posse's question asked without a token
    gets one of its own, in the answer's `token` (shown once, as a table's)."""
    spec = await parse_odds(services, body, token)  # a table's question without a token: 401, as a read
    minted = None if token else new_token()
    if minted is not None:
        spec["owner"] = token_hash(minted)
    view = _public(await _runner(services).start(spec))
    return view if minted is None else {**view, "token": minted}


def _public(view: JSON) -> JSON:
    """A job's view without the hash of its owner's token."""
    return {key: value for key, value in view.items() if key != "owner"}


async def _owned(services: Services, job_id: str, view: JSON | None, token: str | None) -> JSON:
    """`view` if `token` may see the job: the token that asked, or one that opens the table it asked about (as a
    table is read: 401 without a token, 403 with another); 404 for no job (or an expired one)."""
    if not token:
        raise Unauthenticated("Authorization: send 'Bearer <token>': the token that asked the question, or the "
                              "table's", field="Authorization")
    if view is None:
        raise NotFound(f"odds job {job_id!r} does not exist (or has expired)", field="job_id")
    owner = view.get("owner")
    if owner and _same(token_hash(token), owner):
        return _public(view)
    session_id = view.get("session_id")
    if session_id:
        table = await services.history.latest(session_id)
        if table is not None and await role_at(services, table, token) is not None:
            return _public(view)
    if services.guard is not None:
        await services.guard.failed_token()  # guessing tokens is limited per address, as at a table
    raise Forbidden(f"this token does not open odds job {job_id!r}: it takes the token that asked the question"
                    f"{' or a token of its table' if session_id else ''}", field="Authorization")


def _job_id(job_id: Any) -> str:
    return _str(job_id, "job_id", 100)


async def get_odds(services: Services, job_id: str, token: str | None) -> JSON:
    """The job's status, progress 0..1 and the answer so far (complete once every trial is in)."""
    if not token:
        await _owned(services, job_id, None, token)
    return await _owned(services, job_id, await _runner(services).status(_job_id(job_id)), token)


async def cancel_odds(services: Services, job_id: str, token: str | None) -> JSON:
    """Stop the job; the answer keeps the trials already in. Cancelling an ended job changes nothing."""
    await get_odds(services, job_id, token)  # only its owner cancels it
    view = await _runner(services).cancel(_job_id(job_id))
    if view is None:
        raise NotFound(f"odds job {job_id!r} does not exist (or has expired)", field="job_id")
    return _public(view)


async def watch_odds(services: Services, job_id: str, token: str | None) -> AsyncIterator[JSON]:
    """The job now, then each change of its progress, until it is finished, failed or cancelled."""
    from services.jobs.odds import watch

    first = await get_odds(services, job_id, token)
    yield first
    if first["status"] in ("finished", "failed", "cancelled"):
        return
    seen = (first["status"], first["chunks_done"], first["progress"])
    async for view in watch(_runner(services), first["job_id"]):
        if (view["status"], view["chunks_done"], view["progress"]) != seen:
            yield _public(view)
