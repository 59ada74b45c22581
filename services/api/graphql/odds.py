"""GraphQL for odds questions: ask, poll, cancel, and the `oddsProgress` subscription (partial answers as chunks
arrive). Resolvers parse, call the same use cases as REST, and return.

The job and its answer are typed from the dataclasses below, with the same words as REST's JSON (OddsStatus,
OddsQuestion, SimulationBackend enums); `runOdds` takes typed inputs (OddsQuestion, HeroInput, OddsParamsInput).
The API 1.0 `askOdds` with JSON arguments and the JSON `answer` still work, deprecated.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import Any, Optional

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from services import odds as odds_cases
from services.api.graphql.context import call, services, stream, token
from services.api.graphql.generated import Long, builder, to_json, typed, typed_input
from services.api.graphql.types import SimulationBackend
from services.contract.model import model
from services.contract.odds import CHANCE_METHOD, ODDS_STATUSES
from shared_rules.commands import SheetEntry
from shared_rules.meta import meta
from shared_rules.state import Hero, RuleOptions, TownSize, TrackSpace

_REMOVED = "Removed in API 2.0."


def _questions() -> list[str]:
    from shared_rules import odds

    return sorted(odds.QUESTIONS)


def _missions() -> list[str]:
    from shared_rules.rules.missions import TOWN_MISSIONS

    return sorted(TOWN_MISSIONS)


_QUESTION = meta(choices=_questions, enum="OddsQuestion", description="the question asked")
COUNT = meta(minimum=0, maximum=2**31 - 1)  # trials and counts: GraphQL Int


@dataclass(frozen=True)
class OddsFigure:
    """An expected figure: its mean with a 95% interval, percentiles and range, over `trials` (null before any)."""

    mean: float | None
    ci: tuple[float, ...] | None = field(metadata=meta(description="the 95% interval [low, high]"))
    trials: int = field(metadata=COUNT)
    p5: float | None
    p50: float | None
    p95: float | None
    min: float | None
    max: float | None


@dataclass(frozen=True)
class OddsChance:
    """A chance: `count` of `trials` with it, `p` and its 95% interval (null before any trial), read as `method`
    says."""

    p: float | None
    ci: tuple[float, ...] | None
    trials: int = field(metadata=COUNT)
    count: int = field(metadata=COUNT)
    method: str = field(metadata=meta(choices=("count", "dice"), enum="OddsChanceMethod", description=CHANCE_METHOD))


@dataclass(frozen=True)
class OddsHeroFigures:
    """One hero's figures (xp, gold, wounds ...) and chances (killed, knocked_out ...) for an option."""

    id: str
    name: str
    expected: dict[str, OddsFigure]
    chances: dict[str, OddsChance]


@dataclass(frozen=True)
class OddsOptionPrecision:
    """How sharp an option's chances are: the widest 95% half-width (0.01 = +-1 point), which chance, and whether
    it is within the target asked for (sequential stopping: the option's trials stopped there)."""

    reached: float
    figure: str | None
    met: bool


@dataclass(frozen=True)
class OddsPrecision:
    """The precision asked for (`target`, null for a fixed number of trials) and the widest half-width reached."""

    target: float | None
    reached: float | None
    figure: str | None


@dataclass(frozen=True)
class OddsOption:
    """One option played out: the posse's figures and chances, each hero's, the Town types and histograms."""

    key: str
    label: str
    trials: int = field(metadata=COUNT)
    precision: OddsOptionPrecision
    expected: dict[str, OddsFigure]
    chances: dict[str, OddsChance]
    heroes: tuple[OddsHeroFigures, ...]
    town_types: dict[str, OddsChance]
    histograms: dict[str, tuple[tuple[int, ...], ...]] = field(metadata=meta(
        minimum=-(2**31), maximum=2**31 - 1, description="bars to draw per figure: [value, trials with it]"))


@dataclass(frozen=True)
class OddsCompared:
    """An option's value of a compared figure: `mean` (a figure) or `p` (a `chance.*`), its interval and trials."""

    mean: float | None
    p: float | None
    ci: tuple[float, ...] | None
    trials: int = field(metadata=COUNT)


@dataclass(frozen=True)
class OddsComparison:
    """A headline figure, option against option: the best for the table and whether it clearly is."""

    figure: str
    label: str
    better: str = field(metadata=meta(choices=("higher", "lower"), enum="OddsBetter"))
    values: dict[str, OddsCompared]
    best: str | None
    clear: bool


@dataclass(frozen=True)
class OddsPosseHero:
    """A hero of the posse asked about."""

    id: str
    name: str


@dataclass(frozen=True)
class OddsAnswer:
    """shared_rules.odds.answer(), typed: per option the figures and chances with their 95% intervals, histograms
    and `comparison`; `complete` once every trial is in or, with a precision asked, every option is within it
    (a partial answer sharpens as chunks arrive)."""

    version: int = field(metadata=COUNT)
    question: str = field(metadata=_QUESTION)
    title: str
    trials: int = field(metadata=COUNT)
    done: dict[str, int] = field(metadata=meta(minimum=0, maximum=2**31 - 1,
                                               description="trials in so far, per option key"))
    complete: bool
    precision: OddsPrecision
    precision_met: bool = field(metadata=meta(description="every option's chances within the target asked for"))
    heroes: tuple[OddsPosseHero, ...]
    options: tuple[OddsOption, ...]
    comparison: tuple[OddsComparison, ...]


@dataclass(frozen=True)
class OddsJob:
    """An odds question under way: status, progress 0..1 and the answer so far."""

    job_id: str
    status: str = field(metadata=meta(choices=ODDS_STATUSES, enum="OddsStatus"))
    progress: float
    question: str = field(metadata=_QUESTION)
    options: tuple[str, ...] = field(metadata=meta(description="the option keys compared"))
    trials: int = field(metadata={**COUNT, **meta(minimum=0, maximum=2**31 - 1, description="trials per option asked for")})
    seed: int = field(metadata=meta(minimum=0))
    session_id: str | None
    chunks: int = field(metadata=COUNT)
    chunks_done: int = field(metadata=COUNT)
    backend: SimulationBackend
    figures: OddsAnswer | None = field(metadata={"source": "answer", **meta(
        description="the answer so far, typed (null before the job has one)")})
    answer: Optional[Any] = field(metadata=meta(  # noqa: UP045
        description="the same answer as one JSON value", deprecated=f"Use `figures`: the same answer, typed. {_REMOVED}"))
    error: str | None
    token: str | None = field(metadata=meta(description=(
        "askOdds/runOdds only, for a posse's question asked without a token: the job's own token (shown once), to "
        "poll, follow and cancel it with")))


@dataclass(frozen=True)
class OddsParams:
    """What a question takes besides trials and seed: `town_size` `sizes`; `choice` `prompt` and `options`;
    `town_mission` `missions`, `layout`, `track`, `sheets`, `turns`; `darkness_escapes` `layout`, `track`, `sheets`, `turns`."""

    sizes: tuple[TownSize, ...] | None = None  # town_size: the sizes compared
    prompt: str | None = field(default=None, metadata=meta(max_length=100,
                                                           description="choice: the id of the prompt waiting"))
    options: tuple[str, ...] | None = None  # choice: the option keys compared (a subset of the prompt's)
    missions: tuple[str, ...] | None = field(default=None, metadata=meta(
        choices=_missions, enum="OddsMission", description="town_mission: the Town Missions compared"))
    layout: tuple[TrackSpace, ...] | None = None  # town_mission: the Depth Track's spaces, unless the pack has one
    track: str | None = None  # town_mission: a content pack's Depth Track
    sheets: tuple[SheetEntry, ...] | None = None  # town_mission: the heroes' sheet numbers the pack lacks
    turns: int | None = field(default=None, metadata=meta(minimum=1, maximum=60,
                                                          description="town_mission, darkness_escapes: turns at most per trial"))


OddsJobType = typed(OddsJob)
OddsParamsInput = typed_input(OddsParams)
OddsQuestion = builder().enum(model().enums["OddsQuestion"])
HeroInput = typed_input(Hero)
RuleOptionsInput = typed_input(RuleOptions)


def _job(view: dict[str, Any]) -> dict[str, Any]:
    """A job's JSON as the GraphQL types read it: every member present, and an answer's compared values with both
    `mean` and `p` (one of them null), which the JSON writes only as it has them."""
    answer = view.get("answer")
    if isinstance(answer, dict):
        rows = [{**row, "values": {key: {"mean": None, "p": None, **value} for key, value in row["values"].items()}}
                for row in answer.get("comparison", ())]
        answer = {**answer, "comparison": rows}
    return {**view, "answer": answer, "token": view.get("token")}


@strawberry.type
class OddsQuery:
    @strawberry.field(description="An odds job's status, progress and answer so far (the token that asked, or "
                                  "the table's).", graphql_type=OddsJobType)
    async def odds(self, info: Info, job_id: str) -> Any:
        return _job(await call(odds_cases.get_odds(services(info), job_id, token(info))))


@strawberry.type
class OddsMutation:
    @strawberry.mutation(description="Ask a question (`town_size`, or `choice` at a choice prompt, or "
                                     "`town_mission`) of a table (sessionId, with its token) or of a posse (heroes); "
                                     "trials per option.", graphql_type=OddsJobType)
    async def run_odds(
        self,
        info: Info,
        question: OddsQuestion,  # type: ignore[valid-type]
        session_id: str | None = None,
        heroes: list[HeroInput] | None = None,  # type: ignore[valid-type]
        options: RuleOptionsInput | None = None,  # type: ignore[valid-type]
        params: OddsParamsInput | None = None,  # type: ignore[valid-type]
        trials: int | None = None,
        seed: Long | None = None,
        precision: float | None = None,
    ) -> Any:
        given = {"session_id": session_id, "heroes": to_json(heroes), "options": to_json(options),
                 "params": to_json(params), "trials": trials, "seed": seed, "precision": precision}
        body = {"question": to_json(question), **{key: value for key, value in given.items() if value is not None}}
        return _job(await call(odds_cases.start_odds(services(info), body, token(info))))

    @strawberry.mutation(description="Ask a question with JSON arguments.", graphql_type=OddsJobType,
                         deprecation_reason=f"Use `runOdds`: typed question, heroes, options and params. {_REMOVED}")
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
    ) -> Any:
        given = {"session_id": session_id, "heroes": heroes, "options": options, "params": params,
                 "trials": trials, "seed": seed}
        body = {"question": question, **{key: value for key, value in given.items() if value is not None}}
        return _job(await call(odds_cases.start_odds(services(info), body, token(info))))

    @strawberry.mutation(description="Cancel an odds job; the answer keeps the trials already in (the token that "
                                     "asked, or the table's).", graphql_type=OddsJobType)
    async def cancel_odds(self, info: Info, job_id: str) -> Any:
        return _job(await call(odds_cases.cancel_odds(services(info), job_id, token(info))))


@strawberry.type
class OddsSubscription:
    @strawberry.subscription(description="The odds job now and at each change of progress, the answer sharpening "
                                         "as chunks arrive, until it is finished, failed or cancelled (the token "
                                         "that asked, or the table's).", graphql_type=OddsJobType)
    async def odds_progress(self, info: Info, job_id: str) -> AsyncGenerator[Any, None]:
        async for view in stream(odds_cases.watch_odds(services(info), job_id, token(info))):
            yield _job(view)
