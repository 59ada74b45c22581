"""GraphQL for odds questions: ask, poll, cancel, and the `oddsProgress` subscription (partial answers as chunks
arrive). Resolvers parse, call the same use cases as REST, and return."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from services import odds as odds_cases
from services.api.graphql.context import call, services, stream, token
from services.api.graphql.generated import Long


@strawberry.type(description="An odds question under way: status, progress 0..1 and the answer so far.")
class OddsJob:
    job_id: str
    status: str = strawberry.field(description="queued, running, finished, failed or cancelled")
    progress: float
    question: str
    options: list[str] = strawberry.field(description="the option keys compared")
    trials: int = strawberry.field(description="trials per option asked for")
    seed: Long
    session_id: str | None
    chunks: int
    chunks_done: int
    backend: str
    answer: JSON | None = strawberry.field(description="shared_rules.odds.answer(): per option the figures with "
                                                       "their 95% interval and trials, histograms, comparison")
    error: str | None
    token: str | None = strawberry.field(default=None, description=(
        "askOdds only, for a posse's question asked without a token: the job's own token (shown once), to poll, "
        "follow and cancel it with"))

    @classmethod
    def of(cls, data: dict[str, Any]) -> OddsJob:
        return cls(**{key: data[key] for key in ("job_id", "status", "progress", "question", "options", "trials",
                                                 "seed", "session_id", "chunks", "chunks_done", "backend", "answer",
                                                 "error")}, token=data.get("token"))


@strawberry.type
class OddsQuery:
    @strawberry.field(description="An odds job's status, progress and answer so far.")
    async def odds(self, info: Info, job_id: str) -> OddsJob:
        return OddsJob.of(await call(odds_cases.get_odds(services(info), job_id, token(info))))


@strawberry.type
class OddsMutation:
    @strawberry.mutation(description="Ask a question (`town_size`, or `choice` at a choice prompt) of a table "
                                     "(sessionId, with its token) or of a posse (heroes); trials per option.")
    async def ask_odds(
        self,
        info: Info,
        question: str,
        session_id: str | None = None,
        heroes: JSON | None = None,
        options: JSON | None = None,
        params: JSON | None = None,
        trials: int | None = None,
        seed: Long | None = None,
    ) -> OddsJob:
        given = {"session_id": session_id, "heroes": heroes, "options": options, "params": params,
                 "trials": trials, "seed": seed}
        body = {"question": question, **{key: value for key, value in given.items() if value is not None}}
        return OddsJob.of(await call(odds_cases.start_odds(services(info), body, token(info))))

    @strawberry.mutation(description="Cancel an odds job; the answer keeps the trials already in.")
    async def cancel_odds(self, info: Info, job_id: str) -> OddsJob:
        return OddsJob.of(await call(odds_cases.cancel_odds(services(info), job_id, token(info))))


@strawberry.type
class OddsSubscription:
    @strawberry.subscription(description="The odds job now and at each change of progress, the answer sharpening "
                                         "as chunks arrive, until it is finished, failed or cancelled.")
    async def odds_progress(self, info: Info, job_id: str) -> AsyncGenerator[OddsJob, None]:
        async for view in stream(odds_cases.watch_odds(services(info), job_id, token(info))):
            yield OddsJob.of(view)
