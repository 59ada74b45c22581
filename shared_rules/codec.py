"""Versioned JSON for states, commands and events: every value round-trips exactly.

Decoding is strict, so it doubles as input validation at the edges: unknown fields, wrong types (a bool is not
a number, a string is not a number) and missing fields raise InvalidCommand naming the field's path.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from enum import Enum
from functools import cache
from typing import Any, TypeVar, Union

from . import commands, dice, events, prompts, state
from .commands import COMMAND_TYPES, Command, Faces
from .errors import InvalidCommand
from .events import Event
from .state import Hero, Session

SCHEMA_VERSION = 1
T = TypeVar("T")
_NAMESPACE: dict[str, Any] = {}
for _module in (state, dice, commands, events, prompts):
    _NAMESPACE.update(vars(_module))
_MISSING = dataclasses.MISSING


def encode(value: Any) -> Any:
    """A frozen value as plain JSON data (dicts, lists, strings, numbers, booleans, null)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value):
        out: dict[str, Any] = {}
        kind = getattr(type(value), "type", None)
        if isinstance(kind, str):
            out["type"] = kind
        for name, _tp, _required in _fields(type(value)):  # type: ignore[arg-type]
            out[name] = encode(getattr(value, name))
        return out
    if isinstance(value, (tuple, list)):
        return [encode(item) for item in value]
    if isinstance(value, frozenset):
        return sorted(encode(item) for item in value)
    if isinstance(value, dict):
        return {str(key): encode(item) for key, item in value.items()}
    raise TypeError(f"cannot encode {type(value).__name__}")


@cache
def _fields(cls: type) -> tuple[tuple[str, Any, bool], ...]:
    hints = typing.get_type_hints(cls, globalns=_NAMESPACE, localns=_NAMESPACE)
    return tuple(
        (f.name, hints[f.name], f.default is _MISSING and f.default_factory is _MISSING)
        for f in dataclasses.fields(cls)
    )


def decode(tp: Any, data: Any, path: str = "") -> Any:
    """Build a value of type `tp` from JSON data, refusing anything that does not fit (InvalidCommand)."""
    where = path or "body"
    if tp is Any:
        return data
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        members = typing.get_args(tp)
        if data is None and type(None) in members:
            return None
        if tp == Command or set(members) >= set(COMMAND_TYPES.values()):
            return decode_command(data, path)
        scalars = [m for m in members if m in (int, str, bool)]
        if scalars and len(scalars) == len([m for m in members if m is not type(None)]):
            if isinstance(data, tuple(scalars)):
                return data
            raise InvalidCommand(f"{where}: expected one of {[m.__name__ for m in scalars]}", field=where)
        real = [m for m in members if m is not type(None)]
        return decode(real[0], data, path)
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(data, list):
            raise InvalidCommand(f"{where}: expected a list", field=where)
        item_tp = args[0]
        return tuple(decode(item_tp, item, f"{path}[{i}]") for i, item in enumerate(data))
    if origin is frozenset:
        if not isinstance(data, list):
            raise InvalidCommand(f"{where}: expected a list", field=where)
        (item_tp,) = typing.get_args(tp)
        return frozenset(decode(item_tp, item, f"{path}[{i}]") for i, item in enumerate(data))
    if origin is dict:
        key_tp, value_tp = typing.get_args(tp)
        if not isinstance(data, dict):
            raise InvalidCommand(f"{where}: expected an object", field=where)
        return {decode(key_tp, k, path): decode(value_tp, v, f"{path}.{k}") for k, v in data.items()}
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(data)
        except ValueError:
            raise InvalidCommand(f"{where}: {data!r} is not one of {[m.value for m in tp]}", field=where) from None
    if tp is bool:
        if not isinstance(data, bool):
            raise InvalidCommand(f"{where}: expected true or false", field=where)
        return data
    if tp is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise InvalidCommand(f"{where}: expected a whole number", field=where)
        if not -(2**53) <= data <= 2**64:
            raise InvalidCommand(f"{where}: number out of range", field=where)
        return data
    if tp is str:
        if not isinstance(data, str):
            raise InvalidCommand(f"{where}: expected a string", field=where)
        if len(data) > 2000:
            raise InvalidCommand(f"{where}: longer than 2000 characters", field=where)
        return data
    if dataclasses.is_dataclass(tp):
        return _decode_dataclass(tp, data, path)
    raise TypeError(f"cannot decode {tp!r}")


def _decode_dataclass(cls: Any, data: Any, path: str) -> Any:
    where = path or "body"
    if not isinstance(data, dict):
        raise InvalidCommand(f"{where}: expected an object", field=where)
    fields = _fields(cls)
    known = {name for name, _, _ in fields}
    extra = set(data) - known - ({"type"} if isinstance(getattr(cls, "type", None), str) else set())
    if extra:
        raise InvalidCommand(
            f"{where}: unknown field(s) {sorted(extra)}", field=f"{path}.{sorted(extra)[0]}".lstrip(".")
        )
    kwargs: dict[str, Any] = {}
    for name, tp, required in fields:
        sub = f"{path}.{name}" if path else name
        if name in data and name in _DICE_FIELDS and cls in _COMMAND_CLASSES:
            value = data[name]
            if name == "dice":
                if not isinstance(value, list):
                    raise InvalidCommand(f"{sub}: expected a list", field=sub)
                kwargs[name] = tuple(_faces(entry, f"{sub}[{i}]") for i, entry in enumerate(value))
            else:
                kwargs[name] = None if value is None else _faces(value, sub)
        elif name in data:
            kwargs[name] = decode(tp, data[name], sub)
        elif required:
            raise InvalidCommand(f"{sub}: required", field=sub)
    return cls(**kwargs)


_DICE_FIELDS = ("dice", "faces")
_COMMAND_CLASSES = frozenset(COMMAND_TYPES.values())


def _faces(data: Any, path: str) -> Faces:
    """One roll's faces typed in: a list, or one number (a D36 as 35 is tens 3 and ones 5, FT-DICE-01; a die's face)."""
    if isinstance(data, int) and not isinstance(data, bool):
        number: int = decode(int, data, path)
        return (number // 10, number % 10) if number >= 10 else (number,)
    faces: Faces = decode(Faces, data, path)
    return faces


def decode_command(data: Any, path: str = "") -> Command:
    """A command from its JSON form; `type` picks the command."""
    if not isinstance(data, dict):
        raise InvalidCommand(f"{path or 'body'}: a command is an object with a 'type'", field=path or "body")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise InvalidCommand(
            f"{path + '.' if path else ''}type: {kind!r} is not a command; one of {sorted(COMMAND_TYPES)}",
            field=f"{path + '.' if path else ''}type",
        )
    command: Command = _decode_dataclass(COMMAND_TYPES[kind], data, path)
    return command


def encode_state(value: Session) -> dict[str, Any]:
    data: dict[str, Any] = {"schema": SCHEMA_VERSION}
    data.update(encode(value))
    return data


def decode_state(data: Any) -> Session:
    if not isinstance(data, dict) or data.get("schema") != SCHEMA_VERSION:
        raise InvalidCommand(
            f"state: schema {data.get('schema') if isinstance(data, dict) else None!r} is not {SCHEMA_VERSION}",
            field="schema",
        )
    body = {k: v for k, v in data.items() if k != "schema"}
    session: Session = decode(Session, body)
    return session


def decode_hero(data: Any, path: str = "hero") -> Hero:
    hero: Hero = decode(Hero, data, path)
    return hero


def encode_event(value: Event) -> dict[str, Any]:
    data: dict[str, Any] = encode(value)
    return data


def decode_event(data: Any) -> Event:
    event: Event = decode(Event, data, "event")
    return event


def dumps(value: Any) -> str:
    """Compact JSON text for storage."""
    return json.dumps(value, separators=(",", ":"), sort_keys=False)
