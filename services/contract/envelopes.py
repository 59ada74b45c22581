"""The service's own request and response envelopes around the engine's values, and the whole set of components.

The engine's values (State, Event, Prompt, commands ...) come from json_schema.engine_components(); only what the
service adds is written here: a table's view, a write's result, the log, simulation jobs, problems.
"""

from __future__ import annotations

from functools import cache

from services.contract.problems import CATALOGUE
from services.contract.refs import Schema, ref

MAX_POSSE = 6  # a posse has 1-6 heroes (A48), as shared_rules.engine.new_session checks
MAX_SEED = 2**53 - 1  # exact in every JSON parser
MAX_VERSION = 2**53 - 1  # a version, as every number here: exact in every JSON parser (+-(2^53-1))
MAX_TABLES_AT_ONCE = 100  # tables an event's host opens in one request
MAX_TRIALS = 200_000  # the most trials a simulation may ask for (a server may be configured to run fewer)
SESSION_ID_PATTERN = "^[A-Za-z0-9_-]{1,128}$"

PROBLEM: Schema = {
    "type": "object",
    "description": "RFC 9457 problem details, with the request field and the rule that refused it. `type` is the "
                   "URL of the problem's entry in the catalogue (GET /problems/{slug}).",
    "properties": {
        "type": {"type": "string", "enum": [*(problem.uri for problem in CATALOGUE), "about:blank"],
                 "description": "the kind of problem: a URL on this service explaining it and what to do"},
        "title": {"type": "string"},
        "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "detail": {"type": "string"},
        "instance": {"type": "string", "description": "the path of the request"},
        "field": {"type": "string", "description": "the input that was refused (a JSON path, header or parameter)"},
        "rule": {"type": "string", "description": "rules-reference id of the rule that refused it, or ''"},
        "current_version": {"type": "integer", "minimum": 0,
                            "description": "the session's version (stale writes and failed If-Match only)"},
        "request_id": {"type": "string", "description": "the request's id in the server's logs (internal errors)"},
    },
    "required": ["type", "title", "status", "detail", "field", "rule"],
    "additionalProperties": False,
}

PROBLEM_TYPE: Schema = {
    "type": "object",
    "description": "An entry of the problem catalogue: what the problem means and what a client should do.",
    "properties": {
        "type": {"type": "string", "description": "the problem type's URL (this page)"},
        "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "title": {"type": "string"},
        "description": {"type": "string"},
        "action": {"type": "string", "description": "what a client should do"},
        "sample": {**ref("Problem"), "description": "an example of a problem of this type, as the service sends it"},
    },
    "required": ["type", "status", "title", "description", "action", "sample"],
    "additionalProperties": False,
}

_NULLABLE_PROMPT = {"anyOf": [ref("Prompt"), {"type": "null"}],
                    "description": "the question waiting for an answer, or null"}
_LEGAL = {"type": "array", "items": ref("LegalCommand"), "description": "the commands the engine accepts now"}
_SESSION_ID = {"type": "string", "description": "the join code, e.g. K7QX2M", "pattern": SESSION_ID_PATTERN}
_VERSION = {"type": "integer", "minimum": 0, "description": "0 at creation, +1 per write"}
_VIEW_PROPS: Schema = {
    "session_id": _SESSION_ID,
    "version": _VERSION,
    "state": ref("State"),
    "pending": _NULLABLE_PROMPT,
    "legal_commands": _LEGAL,
}
_SEED = {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_SEED,
         "description": "seed of the dice (random when null or absent)"}


def _or_null(schema: Schema, description: str) -> Schema:
    return {"anyOf": [schema, {"type": "null"}], "description": description}


def _object(properties: Schema, description: str, required: list[str] | None = None) -> Schema:
    return {"type": "object", "description": description, "properties": properties,
            "required": list(properties) if required is None else required, "additionalProperties": False}


def service_components(engine: dict[str, Schema]) -> dict[str, Schema]:
    """The service's own request and response envelopes."""
    return {
        "Problem": PROBLEM,
        "ProblemExplanation": PROBLEM_TYPE,
        "ProblemCatalogue": _object({"problems": {"type": "array", "items": ref("ProblemExplanation")}},
                                    "Every problem type the service answers with."),
        "CreateSessionRequest": _object({
            "heroes": {"type": "array", "items": ref("HeroInput"), "minItems": 1, "maxItems": MAX_POSSE,
                       "description": "the posse: 1-6 heroes with unique ids (A48)", "x-rule": "A48"},
            "options": _or_null(ref("RuleOptionsInput"), "rule options (null or absent: the reference readings)"),
            "seed": _SEED,
            "pack": _or_null(ref("Pack"), "content pack (null or absent: 'default')"),
        }, "A new table: the posse, rule options, an optional seed and content pack.", ["heroes"]),
        "SessionCreated": _object({
            "token": {"type": "string", "description": "the table token: send it as 'Authorization: Bearer ...'"},
            **_VIEW_PROPS,
        }, "The new table: its join code (session_id), its table token and its first state."),
        "SessionView": _object(_VIEW_PROPS, "A table's latest version."),
        "CommandResult": _object({
            "based_on": {"type": "integer", "minimum": 0, "description": "the version the command was applied to"},
            "events": {"type": "array", "items": ref("Event"), "description": "what happened, in order"},
            **_VIEW_PROPS,
        }, "The version a write produced, what happened, and the new state."),
        "SessionChange": _object({
            "session_id": _SESSION_ID, "version": _VERSION,
            "events": {"type": "array", "items": ref("Event"), "description": "what happened, in order"},
            "command": ref("LogCommand"),
            "state": ref("State"), "pending": _NULLABLE_PROMPT, "legal_commands": _LEGAL,
        }, "A version of a table as it is written (the server-sent `change` event)."),
        "UndoRequest": _object({
            "steps": {"type": "integer", "minimum": 1, "maximum": MAX_VERSION, "default": 1,
                      "description": "how many versions to go back (default 1)"},
        }, "Undo the last `steps` versions: their earlier state is written as a new version.", []),
        "LegalCommands": _object({
            "session_id": _SESSION_ID, "version": _VERSION, "pending": _NULLABLE_PROMPT, "legal_commands": _LEGAL,
        }, "What the table may send now and the prompt waiting for an answer."),
        "LogEntry": _object({
            "version": {"type": "integer", "minimum": 0, "description": "the version this entry produced"},
            "command": ref("LogCommand"),
            "events": {"type": "array", "items": ref("Event")},
            "at": {"type": "number", "description": "Unix time of the write"},
        }, "One entry of the append-only log."),
        "EventPage": _object({
            "session_id": _SESSION_ID,
            "version": _VERSION,
            "entries": {"type": "array", "items": ref("LogEntry")},
            "next_after": {"type": ["integer", "null"], "description": "pass as `after` for the next page"},
        }, "A page of the log, oldest first."),
        "SessionList": _object({
            "sessions": {"type": "array", "items": _SESSION_ID},
            "next_after": {"type": ["string", "null"], "description": "pass as `after` for the next page"},
        }, "Join codes of the tables (event host only)."),
        "CreateEventRequest": _object({
            "name": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": r"\S",
                     "description": "what the host calls the event, e.g. \"Brimstone Night at the Con\""},
        }, "A new event (the deployment's admin token): its tables are created by its own host token."),
        "CreateTablesRequest": _object({
            "count": {"type": "integer", "minimum": 1, "maximum": MAX_TABLES_AT_ONCE,
                      "description": f"how many tables to open at once (1-{MAX_TABLES_AT_ONCE})"},
            "heroes": {"type": "array", "items": ref("HeroInput"), "minItems": 1, "maxItems": MAX_POSSE,
                       "description": "the posse every new table starts with (the event's pregenerated heroes; "
                                      "each table adjusts its own sheets)", "x-rule": "A48"},
            "options": _or_null(ref("RuleOptionsInput"), "rule options (null or absent: the reference readings)"),
            "pack": _or_null(ref("Pack"), "content pack (null or absent: 'default')"),
        }, "Tables for an event: how many, and the posse and rule options each starts with.", ["count", "heroes"]),
        "CallHostRequest": _object({
            "reason": {"type": "string", "maxLength": 200, "default": "",
                       "description": "what the table needs, in a few words (e.g. \"rules question\"); may be empty"},
        }, "The table calls its event's host over (a raised hand): shown on the host's dashboard until cleared.", []),
        "SimulationRequest": _object({
            "heroes": {"type": "array", "items": ref("HeroInput"), "minItems": 1, "maxItems": MAX_POSSE,
                       "x-rule": "A48"},
            "size": ref("TownSize"),
            "trials": {"type": "integer", "minimum": 1, "maximum": MAX_TRIALS,
                       "description": "journeys to play (a server may run fewer: the job's `trials` says how many)"},
            "seed": _SEED,
            "options": _or_null(ref("RuleOptionsInput"), "rule options (null or absent: the reference readings)"),
        }, "A bulk simulation of the road to a town.", ["heroes", "size", "trials"]),
        "SimulationStatus": {"type": "string", "enum": ["queued", "running", "finished", "failed"],
                             "description": "Where a simulation job is."},
        "SimulationBackend": {"type": "string", "enum": ["rq", "embedded"],
                              "description": "Where simulations run: rq workers, or the server's own pool."},
        "SimulationJob": _object({
            "job_id": {"type": "string"},
            "status": ref("SimulationStatus"),
            "progress": {"type": "number", "minimum": 0, "maximum": 1},
            "trials": {"type": "integer", "minimum": 1, "description": "the journeys it plays"},
            "chunks": {"type": "integer", "minimum": 1, "description": "pieces the job was split into"},
            "seed": {"type": "integer", "minimum": 0},
            "size": ref("TownSize"),
            "backend": ref("SimulationBackend"),
            "result": _or_null(ref("SimulationResult"), "the distributions, once finished"),
            "error": {"type": ["string", "null"]},
        }, "A simulation job: status, progress 0..1 and, when finished, the distribution."),
        "Health": _object({
            "status": {"type": "string", "const": "ok"},
            "storage": {"type": "string", "enum": ["redis", "sqlite"]},
            "simulations": ref("SimulationBackend"),
        }, "The service is up."),
    }


@cache
def all_components() -> dict[str, Schema]:
    """Every component of the OpenAPI document: the engine's values and the service's envelopes."""
    from services.contract.json_schema import engine_components  # walks the engine's types: on first use

    engine = engine_components()
    state: Schema = engine["State"]
    engine["State"] = {**state, "properties": {
        "schema": {"type": "integer", "const": _schema_version(), "description": "version of the state's JSON form"},
        **state["properties"]}, "required": ["schema", *state["required"]]}
    from services.contract.odds import odds_components

    return {**engine, **service_components(engine), **odds_components()}


def _schema_version() -> int:
    from shared_rules.codec import SCHEMA_VERSION

    return SCHEMA_VERSION
