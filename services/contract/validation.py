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


def check(name: str, data: Any) -> None:
    """Refuse `data` with InvalidCommand (422) naming the first field that does not fit component `name`."""
    error = next(validator(name).iter_errors(data), None)
    if error is None:
        return
    parts: list[str | int] = list(error.instance_path)
    kind = error.kind
    message = error.message
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties) and kind.unexpected:
        parts.append(str(kind.unexpected[0]))
        message = f"unknown field {kind.unexpected[0]!r}"
    elif isinstance(kind, jsonschema_rs.ValidationErrorKind.Required):
        parts.append(str(kind.property))
        message = "required"
    field = _path(parts) or "body"
    raise InvalidCommand(f"{field}: {message}", field=field)


def check_command(data: Any) -> None:
    """A command body against the input schema of its `type` (an unknown type names `type`)."""
    if not isinstance(data, dict):
        raise InvalidCommand("body: a command is a JSON object with a 'type'", field="body")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise InvalidCommand(f"type: {kind!r} is not a command; one of {sorted(COMMAND_TYPES)}", field="type")
    check(f"{_command_component(kind)}Input", data)


@cache
def _command_component(kind: str) -> str:
    from services.contract.model import model

    return model().object(COMMAND_TYPES[kind]).name
