"""OpenAPI component schemas: the engine's JSON forms generated from its dataclasses, and the service's envelopes.

The generator mirrors `shared_rules.codec.encode` field by field (commands carry their `type`, frozensets are
sorted lists, enums their values, the top-level state a `schema` number), so the documented schema validates
real responses: schemathesis checks every response against it. Output schemas list every field as required
(encode always writes them); input schemas (`...Input`) require only fields without a default and refuse
unknown ones, like the strict codec.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from typing import Any, Union

from shared_rules import codec, commands, engine, events, prompts, state
from shared_rules.commands import COMMAND_TYPES

REF = "#/components/schemas/"
Schema = dict[str, Any]
INT_MIN, INT_MAX = -(2**53), 2**64  # the range the codec accepts
STR_MAX = 2000  # the codec refuses longer strings
_OUTPUT_NAMES = {state.Session: "Session", engine.LegalCommand: "LegalCommand"}


def ref(name: str) -> Schema:
    return {"$ref": REF + name}


def _hints(cls: type) -> list[tuple[str, Any, bool]]:
    hints = codec.type_hints(cls)
    return [
        (f.name, hints[f.name], f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
        for f in dataclasses.fields(cls)
    ]


class _Generator:
    """Walks dataclass types into JSON Schema components (one component per dataclass and flavour)."""

    def __init__(self, *, inputs: bool) -> None:
        self.inputs = inputs
        self.components: dict[str, Schema] = {}

    def name(self, cls: type) -> str:
        base = _OUTPUT_NAMES.get(cls, cls.__name__)
        return f"{base}Input" if self.inputs else base

    def schema(self, tp: Any) -> Schema:
        if tp is Any:
            return {}
        if tp is type(None):
            return {"type": "null"}
        origin = typing.get_origin(tp)
        if origin in (Union, types.UnionType):
            members = typing.get_args(tp)
            if set(members) >= set(COMMAND_TYPES.values()):
                name = "CommandInput" if self.inputs else "Command"
                if name not in self.components:
                    self.components[name] = {}  # placeholder while the command schemas are generated
                    self.components[name] = self._union(list(COMMAND_TYPES.values()))
                rest = [self.schema(m) for m in members if m not in COMMAND_TYPES.values()]
                return {"anyOf": [*rest, ref(name)]} if rest else ref(name)
            return self._union(list(members))
        if origin is tuple:
            args = typing.get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": self.schema(args[0])}
            return {"type": "array", "prefixItems": [self.schema(a) for a in args], "minItems": len(args),
                    "maxItems": len(args)}
        if origin is frozenset:
            (item,) = typing.get_args(tp)
            return {"type": "array", "items": self.schema(item), "uniqueItems": True}
        if origin is dict:
            _key, value = typing.get_args(tp)
            return {"type": "object", "additionalProperties": self.schema(value)}
        if isinstance(tp, type) and issubclass(tp, Enum):
            return {"type": "string", "enum": [member.value for member in tp]}
        if tp is bool:
            return {"type": "boolean"}
        if tp is int:
            return {"type": "integer", "minimum": INT_MIN, "maximum": INT_MAX} if self.inputs else {"type": "integer"}
        if tp is str:
            return {"type": "string", "maxLength": STR_MAX} if self.inputs else {"type": "string"}
        if tp is commands.Command:
            name = "CommandInput" if self.inputs else "Command"
            if name not in self.components:
                self.components[name] = {}  # placeholder while the command schemas are generated
                self.components[name] = self._union(list(COMMAND_TYPES.values()))
            return ref(name)
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return ref(self.dataclass(tp))
        raise TypeError(f"no JSON Schema for {tp!r}")

    def _union(self, members: list[Any]) -> Schema:
        schemas = [self.schema(m) for m in members]
        return schemas[0] if len(schemas) == 1 else {"anyOf": schemas}

    def dataclass(self, cls: type, *, extra: Schema | None = None, name: str | None = None) -> str:
        name = name or self.name(cls)
        if name in self.components:
            return name
        self.components[name] = {}  # placeholder: recursive types (Pending.checkpoint is a Session) refer back
        properties: Schema = {}
        required: list[str] = []
        kind = getattr(cls, "type", None)
        if isinstance(kind, str):
            properties["type"] = {"type": "string", "const": kind}
            required.append("type")
        for field_name, tp, needed in _hints(cls):
            properties[field_name] = self.schema(tp)
            if needed or not self.inputs:
                required.append(field_name)
        if extra:
            properties = {**extra, **properties}
            required = [*extra, *required]
        doc = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        schema: Schema = {"type": "object", "properties": properties, "required": required,
                          "additionalProperties": False}
        if doc and not doc.startswith(f"{cls.__name__}("):
            schema["description"] = doc
        self.components[name] = schema
        return name


def engine_components() -> dict[str, Schema]:
    """Schemas of the engine's values: outputs (State, Event, Prompt, LegalCommand, Command) and inputs."""
    out = _Generator(inputs=False)
    out.dataclass(state.Session, name="State",
                  extra={"schema": {"type": "integer", "const": codec.SCHEMA_VERSION,
                                    "description": "version of the state's JSON form"}})
    out.dataclass(state.Session)
    for output in (events.Event, prompts.Prompt, engine.LegalCommand):
        out.dataclass(output)
    out.schema(commands.Command)
    inp = _Generator(inputs=True)
    for given in (state.Hero, state.RuleOptions):
        inp.dataclass(given)
    inp.schema(commands.Command)
    inp.components["CommandInput"]["description"] = (
        "Any engine command: `type` picks it, `dice` (optional) queues the faces of the next rolls the rules ask "
        "for, e.g. {\"type\": \"roll_hazard\", \"dice\": [[3, 5]]}.")
    return {**out.components, **inp.components}


PROBLEM: Schema = {
    "type": "object",
    "description": "RFC 9457 problem details, with the request field and the rule that refused it.",
    "properties": {
        "type": {"type": "string", "description": "URI naming the kind of problem"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "instance": {"type": "string"},
        "field": {"type": "string", "description": "the input that was refused (a JSON path, header or parameter)"},
        "rule": {"type": "string", "description": "rules-reference id of the rule that refused it, or ''"},
        "current_version": {"type": "integer", "description": "the session's version (stale writes only)"},
    },
    "required": ["type", "title", "status", "detail", "field", "rule"],
    "additionalProperties": False,
}

_NULLABLE_PROMPT = {"anyOf": [ref("Prompt"), {"type": "null"}],
                    "description": "the question waiting for an answer, or null"}
_LEGAL = {"type": "array", "items": ref("LegalCommand"), "description": "the commands the engine accepts now"}
_SESSION_ID = {"type": "string", "description": "the join code, e.g. K7QX2M", "pattern": "^[A-Za-z0-9_-]{1,128}$"}
_VIEW_PROPS: Schema = {
    "session_id": _SESSION_ID,
    "version": {"type": "integer", "minimum": 0, "description": "0 at creation, +1 per write"},
    "state": ref("State"),
    "pending": _NULLABLE_PROMPT,
    "legal_commands": _LEGAL,
}


def _or_null(schema: Schema, description: str) -> Schema:
    return {"anyOf": [schema, {"type": "null"}], "description": description}


def _object(properties: Schema, description: str, required: list[str] | None = None) -> Schema:
    return {"type": "object", "description": description, "properties": properties,
            "required": list(properties) if required is None else required, "additionalProperties": False}


def service_components() -> dict[str, Schema]:
    """The service's own request and response envelopes."""
    stats = {"type": "object", "additionalProperties": True}
    return {
        "Problem": PROBLEM,
        "CreateSessionRequest": _object({
            "heroes": {"type": "array", "items": ref("HeroInput"), "minItems": 1, "maxItems": 6,
                       "description": "the posse: 1-6 heroes with unique ids"},
            "options": _or_null(ref("RuleOptionsInput"), "rule options (null or absent: the reference readings)"),
            "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": 2**53 - 1,
                     "description": "seed of the session's dice (random when null or absent)"},
            "pack": {"type": ["string", "null"], "maxLength": 200,
                     "description": "content pack name (default 'default')"},
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
        "UndoRequest": _object({
            "steps": {"type": "integer", "minimum": 1, "maximum": 2**53,
                      "description": "how many versions to go back (default 1)"},
        }, "Undo the last `steps` versions: their earlier state is written as a new version.", []),
        "LegalCommands": _object({
            "session_id": _SESSION_ID, "version": _VIEW_PROPS["version"], "pending": _NULLABLE_PROMPT,
            "legal_commands": _LEGAL,
        }, "What the table may send now and the prompt waiting for an answer."),
        "LogEntry": _object({
            "version": {"type": "integer", "minimum": 0, "description": "the version this entry produced"},
            "command": {"type": "object", "additionalProperties": True,
                        "description": "the command (a Command), the creation request or the undo request"},
            "events": {"type": "array", "items": ref("Event")},
            "at": {"type": "number", "description": "Unix time of the write"},
        }, "One entry of the append-only log."),
        "EventPage": _object({
            "session_id": _SESSION_ID,
            "version": _VIEW_PROPS["version"],
            "entries": {"type": "array", "items": ref("LogEntry")},
            "next_after": {"type": ["integer", "null"], "description": "pass as `after` for the next page"},
        }, "A page of the log, oldest first."),
        "SessionList": _object({
            "sessions": {"type": "array", "items": _SESSION_ID},
            "next_after": {"type": ["string", "null"], "description": "pass as `after` for the next page"},
        }, "Join codes of the tables (event host only)."),
        "SimulationRequest": _object({
            "heroes": {"type": "array", "items": ref("HeroInput"), "minItems": 1, "maxItems": 6},
            "size": {"type": "string", "enum": ["small", "medium", "large"]},
            "trials": {"type": "integer", "minimum": 1, "description": "journeys to play (capped by the server)"},
            "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": 2**53 - 1,
                     "description": "random when null or absent"},
            "options": _or_null(ref("RuleOptionsInput"), "rule options (null or absent: the reference readings)"),
        }, "A bulk simulation of the road to a town.", ["heroes", "size", "trials"]),
        "SimulationJob": _object({
            "job_id": {"type": "string"},
            "status": {"type": "string", "enum": ["queued", "running", "finished", "failed"]},
            "progress": {"type": "number", "minimum": 0, "maximum": 1},
            "trials": {"type": "integer"},
            "chunks": {"type": "integer", "description": "pieces the job was split into"},
            "seed": {"type": "integer"},
            "size": {"type": "string"},
            "backend": {"type": "string", "enum": ["rq", "embedded"]},
            "result": {"anyOf": [stats, {"type": "null"}],
                       "description": "shared_rules.simulate.summarize() once finished"},
            "error": {"type": ["string", "null"]},
        }, "A simulation job: status, progress 0..1 and, when finished, the distribution."),
        "Health": _object({
            "status": {"type": "string", "const": "ok"},
            "storage": {"type": "string", "enum": ["redis", "sqlite"]},
            "simulations": {"type": "string", "enum": ["rq", "embedded"]},
        }, "The service is up."),
    }


def all_components() -> dict[str, Schema]:
    return {**engine_components(), **service_components()}
