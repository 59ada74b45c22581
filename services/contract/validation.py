"""Requests are checked against the published schemas themselves, so the document and the server cannot disagree:
what does not fit is a 422 naming the field; what fits is refused only by the game's rules or the table's state.

A command is checked against the schema of its own `type` (not the whole union), so the error names the field
that is wrong rather than "not valid under any of the schemas".
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import jsonschema_rs

from services.contract.refs import REF
from shared_rules.errors import InvalidCommand


@cache
def _components() -> dict[str, Any]:
    from services.contract.envelopes import all_components

    return all_components()


@cache
def validator(name: str) -> jsonschema_rs.Draft202012Validator:
    """A validator of one component of the document (built once)."""
    root = {"$ref": REF + name, "components": {"schemas": _components()}}
    return jsonschema_rs.Draft202012Validator(root)


def _path(parts: list[str | int]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _at(document: Any, path: list[str | int]) -> Any:
    for part in path:
        document = document[part]
    return document


_JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object",
               type(None): "null"}


@cache
def _branch_validator(schema_path: tuple[str | int, ...], kind: str) -> jsonschema_rs.Draft202012Validator | None:
    """For an `anyOf` with one branch of the value's JSON type (an optional value, a roll's faces as a list or as
    one number), a validator of that branch: its errors name the field inside, where the anyOf's own error only
    says "not valid under any of the schemas"."""
    document = {"components": {"schemas": _components()}}
    try:
        branches = _at(document, list(schema_path))
    except (KeyError, IndexError, TypeError):
        return None
    fitting = [index for index, branch in enumerate(branches)
               if _resolved(branch).get("type", kind) in (kind, [kind])
               or (kind == "integer" and _resolved(branch).get("type") == "number")]
    if len(fitting) != 1:
        return None
    pointer = "#/" + "/".join(str(part) for part in (*schema_path, fitting[0]))
    return jsonschema_rs.Draft202012Validator({"$ref": pointer, **document})


def _first_error(validate: jsonschema_rs.Draft202012Validator, data: Any) -> tuple[list[str | int], Any] | None:
    error = next(validate.iter_errors(data), None)
    if error is None:
        return None
    path: list[str | int] = list(error.instance_path)
    if isinstance(error.kind, jsonschema_rs.ValidationErrorKind.AnyOf) and error.schema_path[-1] == "anyOf":
        value = _at(data, path)
        branch = _branch_validator(tuple(error.schema_path), _JSON_TYPES.get(type(value), "object"))
        if branch is not None:
            inner = _first_error(branch, value)
            if inner is not None:
                return path + inner[0], inner[1]
    return path, error


def whole_numbers(data: Any) -> Any:
    """JSON Schema counts 3.0 as an integer; the engine's codec takes only whole numbers written as such, so a
    request that fits the schema has its integral floats written as integers (the inputs have no float fields)."""
    if isinstance(data, float) and data.is_integer():
        return int(data)
    if isinstance(data, list):
        return [whole_numbers(item) for item in data]
    if isinstance(data, dict):
        return {key: whole_numbers(item) for key, item in data.items()}
    return data


def check(name: str, data: Any) -> Any:
    """`data` if it fits component `name` (integral floats as integers); otherwise InvalidCommand (422) naming the
    first field that does not fit."""
    try:
        found = _first_error(validator(name), data)
    except UnicodeEncodeError:  # a lone surrogate that did not come through read_json (a GraphQL JSON argument)
        flaw = _flaw(data, []) or ("body", "a string holding a lone surrogate (\\ud800-\\udfff) is not text")
        raise InvalidCommand(f"{flaw[0]}: {flaw[1]}", field=flaw[0]) from None
    if found is None:
        return whole_numbers(data)
    parts, error = found
    kind = error.kind
    message = error.message
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties) and kind.unexpected:
        parts.append(str(kind.unexpected[0]))
        known = _at({"components": {"schemas": _components()}}, list(error.schema_path)[:-1]).get("properties", {})
        message = f"unknown field {kind.unexpected[0]!r}; this object takes {sorted(known)}"
        if kind.unexpected[0] == "dice" and "faces" in known:
            message += " (a roll answer's faces go in `faces`: typed dice are never replaced by a server roll)"
    elif isinstance(kind, jsonschema_rs.ValidationErrorKind.Required):
        parts.append(str(kind.property))
        message = "required"
    elif isinstance(kind, jsonschema_rs.ValidationErrorKind.AnyOf):
        described = _at({"components": {"schemas": _components()}}, list(error.schema_path)[:-1]).get("description")
        if described:
            message = f"{error.instance!r} does not fit: {described}"
    field = _path(parts) or "body"
    rule = _rule(_components()[name], parts) or _rule_on_path(list(error.schema_path))
    raise InvalidCommand(f"{field}: {message}", field=field, rule=rule)


def _resolved(schema: Any) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = _components()[schema["$ref"].removeprefix(REF)]
    return schema


def _rule(schema: Any, path: list[str | int]) -> str:
    """The rules-reference id (`x-rule`) of the innermost schema on the way to the refused value."""
    found = ""
    for part in [*path, None]:
        if isinstance(schema, dict) and isinstance(schema.get("x-rule"), str):
            found = schema["x-rule"]
        schema = _resolved(schema)
        if isinstance(schema, dict) and isinstance(schema.get("x-rule"), str):
            found = schema["x-rule"]
        if part is None or not isinstance(schema, dict):
            break
        if "anyOf" in schema:  # an optional value: its one schema that is not null
            schema = _resolved(next((s for s in schema["anyOf"] if s != {"type": "null"}), {}))
        schema = schema.get("items") if isinstance(part, int) else schema.get("properties", {}).get(part)
    return found


def _rule_on_path(schema_path: list[str | int]) -> str:
    document: Any = {"components": {"schemas": _components()}}
    found = ""
    for part in schema_path:
        if isinstance(document, dict) and isinstance(document.get("x-rule"), str):
            found = document["x-rule"]
        document = document[part]
    return found


def check_command(data: Any) -> Any:
    """A command body checked against the input schema of its `type` (an unknown type names `type`)."""
    from shared_rules.commands import COMMAND_TYPES  # the engine's values: loaded with the first command

    if not isinstance(data, dict):
        raise InvalidCommand("body: a command is a JSON object with a 'type'", field="body")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise InvalidCommand(f"type: {kind!r} is not a command; one of {sorted(COMMAND_TYPES)}", field="type")
    return check(f"{_command_component(kind)}Input", data)


@cache
def _command_component(kind: str) -> str:
    from services.contract.model import model
    from shared_rules.commands import COMMAND_TYPES

    return model().object(COMMAND_TYPES[kind]).name


# ---- the JSON text itself ----------------------------------------------------------------------------------------
# What Python's json module reads but no field can take: a key twice in one object (the last would silently win),
# NaN / Infinity / a number past a double (1e400 reads as inf, which the schema validator sees as null) and a lone
# surrogate in a string (not text: it cannot be stored, validated against a pattern or sent back as UTF-8). Each is
# refused once, when the body is read, naming where it is.


class _Flawed(ValueError):
    """Raised by the fast reader's hooks: the body holds something refused (found again, with its path, slowly)."""


class _NotFinite:
    """The slow reader's stand-in for a number that is not finite, keeping how it was written."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class _Twice(dict):  # type: ignore[type-arg]
    """The slow reader's object holding a key written twice (`key`)."""

    __slots__ = ("key",)
    key: str


def _fast_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _Flawed
    return found


def _fast_float(text: str) -> float:
    value = float(text)
    if value in (_INF, -_INF):
        raise _Flawed
    return value


def _refused(text: str) -> Any:
    raise _Flawed


def _slow_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    seen: set[str] = set()
    twice = _Twice(found)
    twice.key = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
    return twice


def _slow_float(text: str) -> Any:
    value = float(text)
    return _NotFinite(text) if value in (_INF, -_INF) else value


_INF = float("inf")
_FAST = json.JSONDecoder(object_pairs_hook=_fast_pairs, parse_float=_fast_float, parse_constant=_refused)
_SLOW = json.JSONDecoder(object_pairs_hook=_slow_pairs, parse_float=_slow_float, parse_constant=_NotFinite)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def _shown(key: str) -> str:
    """A key as it can be written in a message (a lone surrogate escaped)."""
    return key.encode("utf-8", "backslashreplace").decode("utf-8")


def _flaw(data: Any, path: list[str | int]) -> tuple[str, str] | None:
    """(where, what) of the first value no field can take, else None."""
    if isinstance(data, str):
        try:
            data.encode("utf-8")
        except UnicodeEncodeError:
            return _path(path) or "body", "a string holding a lone surrogate (\\ud800-\\udfff) is not text"
        return None
    if isinstance(data, _NotFinite):
        return (_path(path) or "body",
                f"{data.text} is not a finite number (JSON numbers are finite; a double ends near 1.8e308)")
    if isinstance(data, list):
        for index, item in enumerate(data):
            found = _flaw(item, [*path, index])
            if found is not None:
                return found
        return None
    if isinstance(data, dict):
        if isinstance(data, _Twice):
            return (_path([*path, _shown(data.key)]),
                    f"the key {_shown(data.key)!r} is written twice in one object (refused, not guessed which)")
        for key, item in data.items():
            where = _shown(key)
            if where != key:
                return _path([*path, where]), "a key holding a lone surrogate (\\ud800-\\udfff) is not text"
            found = _flaw(item, [*path, key])
            if found is not None:
                return found
    return None


def read_json(raw: bytes | str) -> Any:
    """A request body's JSON, refusing (InvalidCommand, 422) invalid JSON and what no field can take: a key written
    twice, NaN or Infinity or a number past a double, a lone surrogate; each names its path (`effects[0].amount`).

    The fast path is one parse with hooks that only notice; a flawed body is parsed again to find where."""
    try:
        text = raw.decode(json.detect_encoding(raw)) if isinstance(raw, bytes) else raw
        try:
            data = _FAST.decode(text)
            suspect = "\\u" in text and _SURROGATE_ESCAPE.search(text) is not None
        except _Flawed:
            data, suspect = _SLOW.decode(text), True
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise InvalidCommand(f"body: not valid JSON ({str(exc)[:120]})", field="body") from None
    if suspect:
        found = _flaw(data, [])
        if found is not None:
            where, what = found
            raise InvalidCommand(f"{where}: {what}", field=where)
    return data
