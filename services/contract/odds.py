"""The odds questions' request and job schemas (issue 14's door), part of the document's components so requests
are checked against them like every other (services/contract/validation.py).

The questions and the params each takes come from `shared_rules.odds.QUESTIONS`, so a question registered by a
rule area is askable in the document by regeneration alone.
"""

from __future__ import annotations

from typing import Any

from services.contract.envelopes import MAX_POSSE, MAX_SEED, SESSION_ID_PATTERN
from services.contract.json_schema import REF

MAX_ODDS_TRIALS = 50_000  # trials per option a request may ask for (a server may be configured to run fewer)
JOB_FIELDS = ("job_id", "status", "progress", "question", "options", "trials", "seed", "session_id", "chunks",
              "chunks_done", "backend", "answer", "error")


def _figure(description: str) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": True, "description": description}


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
                "params": {"description": "`town_size`: `sizes` (a subset of small/medium/large); `choice`: "
                                          "`prompt` (the id waiting) and `options` (a subset of its option keys)",
                           "anyOf": [{"type": "object"}, {"type": "null"}]},
                "trials": {"type": "integer", "minimum": 1, "maximum": MAX_ODDS_TRIALS,
                           "description": "trials per option (default 5000; a server may run fewer: the job's "
                                          "`trials` says how many)"},
                "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_SEED,
                         "description": "random when null or absent"},
            },
            "allOf": [{"oneOf": _asked_of()}, {"anyOf": _per_question()}],
        },
        "OddsJob": {
            "type": "object", "additionalProperties": False,
            "description": "An odds question under way: status, progress, and the answer so far.",
            "required": list(JOB_FIELDS),
            "properties": {
                "job_id": {"type": "string"},
                "status": {"type": "string", "enum": ["queued", "running", "finished", "failed", "cancelled"]},
                "progress": {"type": "number", "minimum": 0, "maximum": 1},
                "question": {"$ref": REF + "OddsQuestion"},
                "options": {"type": "array", "items": {"type": "string"}, "description": "the option keys compared"},
                "trials": {"type": "integer", "description": "trials per option"},
                "seed": {"type": "integer"},
                "session_id": {"type": ["string", "null"]},
                "chunks": {"type": "integer", "description": "pieces the question was split into"},
                "chunks_done": {"type": "integer"},
                "backend": {"$ref": REF + "SimulationBackend"},
                "answer": {"anyOf": [_figure(
                    "shared_rules.odds.answer(): per option the expected figures and chances, each with its 95% "
                    "interval (`ci`) and `trials`; histograms to draw; `comparison` option against option; "
                    "`complete` once every trial is in (a partial answer sharpens as chunks arrive)"),
                    {"type": "null"}]},
                "error": {"type": ["string", "null"]},
                "token": {"type": "string",
                          "description": "askOdds only, for a posse's question asked without a token: the job's "
                                         "own token (shown once), to poll, follow and cancel it with as Bearer"},
            },
        },
    }
