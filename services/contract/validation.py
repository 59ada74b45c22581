"""Requests are checked against the published schemas themselves, so the document and the server cannot disagree:
what does not fit is a 422 naming the field; what fits is refused only by the game's rules or the table's state.

A command is checked against the schema of its own `type` (not the whole union), so the error names the field
that is wrong rather than "not valid under any of the schemas".
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema_rs

from services.contract.json_schema import REF
from shared_rules.commands import COMMAND_TYPES
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
    found = _first_error(validator(name), data)
    if found is None:
        return whole_numbers(data)
    parts, error = found
    kind = error.kind
    message = error.message
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties) and kind.unexpected:
        parts.append(str(kind.unexpected[0]))
        message = f"unknown field {kind.unexpected[0]!r}"
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
    if not isinstance(data, dict):
        raise InvalidCommand("body: a command is a JSON object with a 'type'", field="body")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise InvalidCommand(f"type: {kind!r} is not a command; one of {sorted(COMMAND_TYPES)}", field="type")
    return check(f"{_command_component(kind)}Input", data)


@cache
def _command_component(kind: str) -> str:
    from services.contract.model import model

    return model().object(COMMAND_TYPES[kind]).name
