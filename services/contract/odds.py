"""The odds questions' request and job schemas (issue 14's door), part of the document's components so requests
are checked against them like every other (services/contract/validation.py).

The questions and the params each takes come from `shared_rules.odds.QUESTIONS`, so a question registered by a
rule area is askable in the document by regeneration alone.
"""

from __future__ import annotations

from typing import Any

from services.contract.envelopes import MAX_POSSE, MAX_SEED, SESSION_ID_PATTERN
from services.contract.refs import REF

MIN_PRECISION = 0.001  # the sharpest target a request may ask for (+-0.1 point)
PRECISION_TRIALS = 20_000  # trials per option at most when a precision is asked and trials are not
MAX_ODDS_TRIALS = 50_000  # trials per option a request may ask for (a server may be configured to run fewer)
JOB_FIELDS = ("job_id", "status", "progress", "question", "options", "trials", "seed", "session_id", "chunks",
              "chunks_done", "backend", "answer", "error")


ODDS_STATUSES = ("queued", "running", "finished", "failed", "cancelled")


def _object(properties: dict[str, Any], description: str) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": list(properties), "properties": properties,
            "description": description}


def _map(value: dict[str, Any], description: str) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": value, "description": description}


_NUMBER_OR_NULL = {"type": ["number", "null"]}
_INTERVAL = {"anyOf": [{"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
                       {"type": "null"}], "description": "the 95% interval [low, high]; null before any trial"}


CHANCE_METHOD = ("how `p` and `ci` were read: `count`, from the count alone (Wilson's interval); `dice`, the count "
                 "adjusted by how the trials' dice fell against their known odds (control variates: the same "
                 "expected value, a narrower interval)")


def _answer_components() -> dict[str, Any]:
    """The answer document of `shared_rules.odds.answer`, typed (a partial answer has nulls where no trial is in)."""
    figure = {"mean": _NUMBER_OR_NULL, "ci": _INTERVAL, "trials": {"type": "integer", "minimum": 0}}
    return {
        "OddsFigure": _object({**figure, **{name: _NUMBER_OR_NULL for name in ("p5", "p50", "p95", "min", "max")}},
                              "An expected figure: its mean with a 95% interval, percentiles and range, over "
                              "`trials`."),
        "OddsChance": _object({"p": _NUMBER_OR_NULL, "ci": _INTERVAL, "trials": {"type": "integer", "minimum": 0},
                               "count": {"type": "integer", "minimum": 0},
                               "method": {"type": "string", "enum": ["count", "dice"],
                                          "description": CHANCE_METHOD}},
                              "A chance: `count` of `trials` with it, `p` and its 95% interval, read as "
                              "`method` says."),
        "OddsHeroFigures": _object({
            "id": {"type": "string"}, "name": {"type": "string"},
            "expected": _map(ref_to("OddsFigure"), "each hero figure (xp, gold, wounds ...) by name"),
            "chances": _map(ref_to("OddsChance"), "each hero chance (killed, knocked_out ...) by name")},
            "One hero's figures and chances for an option."),
        "OddsOption": _object({
            "key": {"type": "string"}, "label": {"type": "string"}, "trials": {"type": "integer", "minimum": 0},
            "precision": _object({
                "reached": {"type": "number", "description": "the widest 95% half-width of its chances (0.01 = "
                                                             "+-1 point; 1 before any trial)"},
                "figure": {"type": ["string", "null"], "description": "the chance that is widest"},
                "met": {"type": "boolean", "description": "within the target asked for: its trials stopped there"}},
                "How sharp the option's chances are (sequential stopping)."),
            "expected": _map(ref_to("OddsFigure"), "each posse figure (posse.xp, posse.gold ...) by name"),
            "chances": _map(ref_to("OddsChance"), "each posse chance (anyone_killed ...) by name"),
            "heroes": {"type": "array", "items": ref_to("OddsHeroFigures")},
            "town_types": _map(ref_to("OddsChance"), "the chance of each Town type reached, by its name"),
            "histograms": _map({"type": "array", "items": {"type": "array", "items": {"type": "integer"},
                                                           "minItems": 2, "maxItems": 2}},
                               "bars to draw per figure: [value, trials with it]")},
            "One option played out: its figures, chances, heroes, Town types and histograms."),
        "OddsComparison": _object({
            "figure": {"type": "string"}, "label": {"type": "string"},
            "better": {"type": "string", "enum": ["higher", "lower"]},
            "values": _map({"anyOf": [
                _object(figure, "a figure's: an option's mean, interval and trials"),
                _object({"p": _NUMBER_OR_NULL, "ci": _INTERVAL, "trials": {"type": "integer", "minimum": 0}},
                        "a chance's (`chance.*`): an option's p, interval and trials")]},
                "each option's, by key"),
            "best": {"type": ["string", "null"], "description": "the best option for the table"},
            "clear": {"type": "boolean", "description": "whether the best's interval clears the next best's"}},
            "A headline figure, option against option."),
        "OddsAnswer": _object({
            "version": {"type": "integer", "description": "of this document's form"},
            "question": ref_to("OddsQuestion"), "title": {"type": "string"},
            "trials": {"type": "integer", "minimum": 0, "description": "trials per option asked for"},
            "done": _map({"type": "integer", "minimum": 0}, "trials in so far, per option key"),
            "complete": {"type": "boolean", "description": "every trial is in, or with a `precision` asked, every "
                                                           "option within it"},
            "precision": _object({
                "target": _NUMBER_OR_NULL | {"description": "the half-width asked for (null: a fixed number of "
                                                            "trials)"},
                "reached": _NUMBER_OR_NULL | {"description": "the widest 95% half-width of any option's chances"},
                "figure": {"type": ["string", "null"], "description": "the chance that is widest"}},
                "The precision asked for and reached; the Town type reached and the means do not count."),
            "precision_met": {"type": "boolean", "description": "every option's chances within the target (false "
                                                                "with no target, or when the trials ran out first)"},
            "heroes": {"type": "array", "items": _object({"id": {"type": "string"}, "name": {"type": "string"}},
                                                         "a hero of the posse")},
            "options": {"type": "array", "items": ref_to("OddsOption")},
            "comparison": {"type": "array", "items": ref_to("OddsComparison")}},
            "shared_rules.odds.answer(): per option the expected figures and chances, each with its 95% interval "
            "and `trials`; histograms to draw; `comparison` option against option; `complete` once every trial is "
            "in (a partial answer sharpens as chunks arrive)."),
    }


def ref_to(name: str) -> dict[str, Any]:
    return {"$ref": REF + name}


def _param_schemas() -> dict[str, Any]:
    """What each param of a question takes (services/odds.py hands them to the question, which may refuse a value
    the table cannot take: a size or option not offered, 409)."""
    from shared_rules.rules.missions import TOWN_MISSIONS

    keys = {"type": "array", "items": {"type": "string", "maxLength": 100}}
    return {
        "sizes": {"type": "array", "items": ref_to("TownSize"), "description": "town_size: the sizes compared"},
        "prompt": {"type": "string", "maxLength": 100, "description": "choice: the id of the prompt waiting"},
        "options": {**keys, "description": "choice: the option keys compared (a subset of the prompt's)"},
        "missions": {"type": "array", "items": {"type": "string", "enum": sorted(TOWN_MISSIONS)},
                     "description": "town_mission: the Town Missions compared (default [\"bank_robbery\"])"},
        "layout": {"type": "array", "items": ref_to("TrackSpaceInput"),
                   "description": "town_mission, darkness_escapes: the Depth Track's spaces, unless the pack has a `track`"},
        "track": {"type": "string", "maxLength": 100, "description": "town_mission, darkness_escapes: a content pack's Depth Track"},
        "sheets": {"type": "array", "items": ref_to("SheetEntryInput"),
                   "description": "town_mission, darkness_escapes: the heroes' sheet numbers the pack lacks (Initiative, combat ...)"},
        "turns": {"type": "integer", "minimum": 1, "maximum": 60,
                  "description": "town_mission, darkness_escapes: turns at most per trial (default 20)"},
    }


def _params() -> dict[str, Any]:
    """OddsParams: every param any question takes, typed (which ones a question takes: OddsRequest's allOf)."""
    from shared_rules import odds

    known = _param_schemas()
    names = sorted({name for question in odds.QUESTIONS.values() for name in question.params})
    return {"type": "object", "additionalProperties": False,
            "description": "What a question takes besides trials and seed: `town_size` takes `sizes`; `choice` "
                           "`prompt` and `options`; `town_mission` `missions`, `layout`, `track`, `sheets`, `turns`; `darkness_escapes` `layout`, `track`, `sheets`, `turns`.",
            "properties": {name: known.get(name, {"description": "a param of a question"}) for name in names}}


def _has(*names: str) -> dict[str, Any]:
    return {"properties": {name: {} for name in names}, "required": list(names)}


def _asked_of() -> list[dict[str, Any]]:
    """A table (its session_id and token; its options are its own) or a posse, never both."""
    return [{**_has("session_id"), "not": {"anyOf": [_has("heroes"), _has("options")]}},
            {**_has("heroes"), "not": _has("session_id")}]


def _per_question() -> list[dict[str, Any]]:
    """Each question with the params it takes (a question takes nothing else)."""
    from shared_rules import odds

    return [{"properties": {"question": {"const": name},
                            "params": {"anyOf": [{"type": "object", "propertyNames": {"enum": sorted(q.params)}},
                                                 {"type": "null"}]}}}
            if q.params else
            {"properties": {"question": {"const": name},
                            "params": {"anyOf": [{"type": "object", "maxProperties": 0}, {"type": "null"}]}}}
            for name, q in sorted(odds.QUESTIONS.items())]


def odds_components() -> dict[str, Any]:
    """The OpenAPI components of the odds operations."""
    from shared_rules import odds

    return {
        "OddsQuestion": {"type": "string", "enum": sorted(odds.QUESTIONS),
                         "description": "A question a table can ask (`town_size` before choosing a Town size, "
                                        "`choice` at a choice prompt ...)."},
        "OddsStatus": {"type": "string", "enum": list(ODDS_STATUSES),
                       "description": "Where an odds job is: queued, running, finished, failed or cancelled."},
        "OddsParams": _params(),
        **_answer_components(),
        "OddsRequest": {
            "type": "object", "additionalProperties": False, "required": ["question"],
            "description": "A question asked of a table (`session_id`, with its token) or of a posse (`heroes`).",
            "properties": {
                "question": {"$ref": REF + "OddsQuestion"},
                "session_id": {"type": "string", "pattern": SESSION_ID_PATTERN,
                               "description": "the table: its heroes as they are now and the prompt waiting"},
                "heroes": {"type": "array", "items": {"$ref": REF + "HeroInput"}, "minItems": 1,
                           "maxItems": MAX_POSSE, "x-rule": "A48", "description": "a posse instead of a table"},
                "options": {"anyOf": [{"$ref": REF + "RuleOptionsInput"}, {"type": "null"}],
                            "description": "rule options, with `heroes` only"},
                "params": {"description": "what the question takes besides trials and seed (OddsParams)",
                           "anyOf": [{"$ref": REF + "OddsParams"}, {"type": "null"}]},
                "trials": {"type": "integer", "minimum": 1, "maximum": MAX_ODDS_TRIALS,
                           "description": "trials per option (default 5000; a server may run fewer: the job's "
                                          "`trials` says how many)"},
                "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_SEED,
                         "description": "random when null or absent"},
                "precision": {"type": ["number", "null"], "minimum": MIN_PRECISION, "maximum": 0.5,
                              "description": "stop each option once every chance it reports is within this 95% "
                                             "half-width (0.01 = +-1 point); `trials` is then the most per option "
                                             f"(default {PRECISION_TRIALS}). Null or absent: exactly `trials`"},
            },
            "allOf": [{"oneOf": _asked_of()}, {"anyOf": _per_question()}],
        },
        "OddsJob": {
            "type": "object", "additionalProperties": False,
            "description": "An odds question under way: status, progress, and the answer so far.",
            "required": list(JOB_FIELDS),
            "properties": {
                "job_id": {"type": "string"},
                "status": {"$ref": REF + "OddsStatus"},
                "progress": {"type": "number", "minimum": 0, "maximum": 1},
                "question": {"$ref": REF + "OddsQuestion"},
                "options": {"type": "array", "items": {"type": "string"}, "description": "the option keys compared"},
                "trials": {"type": "integer", "description": "trials per option"},
                "seed": {"type": "integer"},
                "session_id": {"type": ["string", "null"]},
                "chunks": {"type": "integer", "description": "pieces the question was split into"},
                "chunks_done": {"type": "integer"},
                "backend": {"$ref": REF + "SimulationBackend"},
                "answer": {"anyOf": [{"$ref": REF + "OddsAnswer"}, {"type": "null"}]},
                "error": {"type": ["string", "null"]},
                "token": {"type": "string",
                          "description": "askOdds only, for a posse's question asked without a token: the job's "
                                         "own token (shown once), to poll, follow and cancel it with as Bearer"},
            },
        },
    }
