"""Versioned JSON for states, commands and events: every value round-trips exactly.

Decoding is strict, so it doubles as input validation at the edges: unknown fields, wrong types (a bool is not
a number, a string is not a number) and missing fields raise InvalidCommand naming the field's path.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
import types
import typing
from enum import Enum
from functools import cache
from typing import Any, TypeVar, Union

from . import commands, dice, events, meta, prompts, state
from .commands import COMMAND_TYPES, Command, Faces
from .errors import ContentError, InvalidCommand, RulesError
from .events import Event
from .state import Hero, Session

SCHEMA_VERSION = 1
T = TypeVar("T")
_NAMESPACE: dict[str, Any] = {}
for _module in (*state.MODULES, dice, commands, events, prompts):
    _NAMESPACE.update(vars(_module))
_MISSING = dataclasses.MISSING


def encode(value: Any) -> Any:
    """A frozen value as plain JSON data (dicts, lists, strings, numbers, booleans, null)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    encoder = _ENCODERS.get(type(value))
    if encoder is not None:
        return encoder(value)
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encoder(type(value))(value)
    if isinstance(value, (tuple, list)):
        return [encode(item) for item in value]
    if isinstance(value, frozenset):
        return sorted(encode(item) for item in value)
    if isinstance(value, dict):
        return {str(key): encode(item) for key, item in value.items()}
    raise TypeError(f"cannot encode {type(value).__name__}")


_ENCODERS: dict[type, typing.Callable[[Any], dict[str, Any]]] = {}
_PLAIN = (str, int, bool)


def _encoder(cls: type) -> typing.Callable[[Any], dict[str, Any]]:
    """The encoder of one dataclass, written once as Python source from its field types: a state's encoding is on
    every request's path, and a generic walk asked each of a hero's ~30 values what it was. A field whose type the
    writer cannot read ahead (a union of classes, a mapping) goes through encode() as before; the output is the
    same either way."""
    found = _ENCODERS.get(cls)
    if found is not None:
        return found
    helpers: dict[str, Any] = {"encode": encode}
    items = []
    kind = getattr(cls, "type", None)
    if isinstance(kind, str):
        items.append(f"'type': {kind!r}")
    for name, hint, _required in _fields(cls):
        items.append(f"{name!r}: {_field_source(f'o.{name}', hint, helpers)}")
    source = "def encode_one(o):\n    return {" + ", ".join(items) + "}\n"
    exec(compile(source, f"<encoder of {cls.__name__}>", "exec"), helpers)  # noqa: S102 - our own field names
    encoder: typing.Callable[[Any], dict[str, Any]] = helpers["encode_one"]
    _ENCODERS[cls] = encoder
    return encoder


def _field_source(expr: str, hint: Any, helpers: dict[str, Any]) -> str:
    """Python source encoding the value `expr`, declared of type `hint` (see _encoder)."""
    nullable = False
    if typing.get_origin(hint) in (Union, types.UnionType):
        members = [a for a in typing.get_args(hint) if a is not type(None)]
        nullable = len(members) < len(typing.get_args(hint))
        if len(members) != 1:
            return f"encode({expr})"
        hint = members[0]
    if _plain(hint) or typing.get_origin(hint) is typing.Literal:
        return expr  # a str or int enum included: encode() hands those back as they are
    if isinstance(hint, type) and issubclass(hint, Enum) and not issubclass(hint, _PLAIN):
        return f"(None if {expr} is None else {expr}.value)" if nullable else f"{expr}.value"
    if typing.get_origin(hint) is frozenset and _plain(typing.get_args(hint)[0]):
        return f"(None if {expr} is None else sorted({expr}))" if nullable else f"sorted({expr})"
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            if _plain(args[0]):
                return f"(None if {expr} is None else list({expr}))" if nullable else f"list({expr})"
            item_type = args[0]
            if isinstance(item_type, type) and dataclasses.is_dataclass(item_type) and not item_type.__subclasses__():
                name = f"_encode_{len(helpers)}"
                helpers[name] = _Lazy(item_type, helpers, name)
                loop = f"[{name}(item) for item in {expr}]"
                return f"(None if {expr} is None else {loop})" if nullable else loop
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and not hint.__subclasses__():
        name = f"_encode_{len(helpers)}"
        helpers[name] = _Lazy(hint, helpers, name)
        return f"(None if {expr} is None else {name}({expr}))" if nullable else f"{name}({expr})"
    return f"encode({expr})"


def _plain(hint: Any) -> bool:
    """A type whose values encode() hands back as they are (a str, int or bool, or an enum of those)."""
    return isinstance(hint, type) and issubclass(hint, _PLAIN)


class _Lazy:
    """A nested class's encoder, written on first use (a class may hold itself, and hints resolve late); it then puts
    the encoder in its own place among the writer's names, so later calls go straight to it."""

    __slots__ = ("cls", "names", "name")

    def __init__(self, cls: type, names: dict[str, Any], name: str) -> None:
        self.cls, self.names, self.name = cls, names, name

    def __call__(self, value: Any) -> dict[str, Any]:
        encoder = self.names[self.name] = _encoder(self.cls)
        return encoder(value)


@cache
def type_hints(cls: type) -> dict[str, Any]:
    """A dataclass's field types, resolved in its own module (names imported only for type checking included)."""
    namespace = {**_NAMESPACE, **vars(sys.modules[cls.__module__])}
    found = meta.written(cls)
    if found is not None:  # the compiled build: the annotations as written, resolved the same way
        cls = type(cls.__name__, (), {"__annotations__": dict(found[0]), "__module__": cls.__module__})
    return typing.get_type_hints(cls, globalns=namespace)


@cache
def _fields(cls: type) -> tuple[tuple[str, Any, bool], ...]:
    hints = type_hints(cls)
    ordered = sorted(dataclasses.fields(cls), key=lambda f: f.name == "dice")  # a command's own fields, then its dice
    return tuple(
        (f.name, hints[f.name], f.default is _MISSING and f.default_factory is _MISSING) for f in ordered
    )


def decode(tp: Any, data: Any, path: str = "") -> Any:
    """Build a value of type `tp` from JSON data, refusing anything that does not fit (InvalidCommand)."""
    return _decoder(tp)(data, path)


def decode_checked(tp: Any, data: Any, path: str = "") -> Any:
    """`decode`, and each field within the limits its `meta` gives (minimum, maximum, choices, pattern, min_items,
    max_items), refused naming the field's path: how content packs and boards are read. States and commands keep
    `decode` (the engine checks their values against the table; a state is decoded on every request)."""
    return _decoder(tp, True)(data, path)


def decode_content(tp: Any, data: Any, path: str = "", *, document: str = "content pack") -> Any:
    """`decode_checked` for content (packs, boards): a ContentError naming the path and the problem (`document`
    where the path is the document itself)."""
    try:
        return decode_checked(tp, data, path)
    except RulesError as error:
        message = f"{document}:{error.message[5:]}" if not path and error.message.startswith("body:") else error.message
        raise ContentError(message, field=error.field, rule=error.rule) from None


Decoder = typing.Callable[[Any, str], Any]


def _where(path: str) -> str:
    return path or "body"


def _any(data: Any, path: str) -> Any:
    return data


def _bool(data: Any, path: str) -> bool:
    if not isinstance(data, bool):
        raise InvalidCommand(f"{_where(path)}: expected true or false", field=_where(path))
    return data


def _int(data: Any, path: str) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise InvalidCommand(f"{_where(path)}: expected a whole number", field=_where(path))
    if not -(2**53) <= data <= 2**64:
        raise InvalidCommand(f"{_where(path)}: number out of range", field=_where(path))
    return data


def _str(data: Any, path: str) -> str:
    if not isinstance(data, str):
        raise InvalidCommand(f"{_where(path)}: expected a string", field=_where(path))
    if len(data) > 2000:
        raise InvalidCommand(f"{_where(path)}: longer than 2000 characters", field=_where(path))
    return data


def _list(data: Any, path: str) -> list[Any]:
    if not isinstance(data, list):
        raise InvalidCommand(f"{_where(path)}: expected a list", field=_where(path))
    return data


@cache
def _decoder(tp: Any, checked: bool = False) -> Decoder:
    """The decoding function for one type, built once: decoding a state is the hot path of every request.
    `checked`: dataclass fields are held to their `meta` limits too (`decode_checked`)."""
    if tp is Any:
        return _any
    if tp is Command:
        return decode_command
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return _union_decoder(tp, checked)
    if origin is tuple:
        item = _decoder(typing.get_args(tp)[0], checked)
        return lambda data, path: tuple(item(x, f"{path}[{i}]") for i, x in enumerate(_list(data, path)))
    if origin is frozenset:
        member = _decoder(typing.get_args(tp)[0], checked)
        return lambda data, path: frozenset(member(x, f"{path}[{i}]") for i, x in enumerate(_list(data, path)))
    if origin is dict:
        key_tp, value_tp = typing.get_args(tp)
        key, value = _decoder(key_tp, checked), _decoder(value_tp, checked)

        def mapping(data: Any, path: str) -> dict[Any, Any]:
            if not isinstance(data, dict):
                raise InvalidCommand(f"{_where(path)}: expected an object", field=_where(path))
            return {key(k, path): value(v, f"{path}.{k}") for k, v in data.items()}

        return mapping
    if isinstance(tp, type) and issubclass(tp, Enum):
        enum: type[Enum] = tp

        def member_of(data: Any, path: str) -> Enum:
            try:
                return enum(data)
            except ValueError:
                where = _where(path)
                raise InvalidCommand(
                    f"{where}: {data!r} is not one of {[m.value for m in enum]}", field=where
                ) from None

        return member_of
    scalar = {bool: _bool, int: _int, str: _str}.get(tp)
    if scalar is not None:
        return scalar
    if dataclasses.is_dataclass(tp):
        return lambda data, path: _decode_dataclass(tp, data, path, checked)
    raise TypeError(f"cannot decode {tp!r}")


def _union_decoder(tp: Any, checked: bool) -> Decoder:
    members = typing.get_args(tp)
    optional = type(None) in members
    real = [m for m in members if m is not type(None)]
    inner: Decoder
    if all(m in (int, str, bool) for m in real):
        scalars = tuple(real)

        def inner(data: Any, path: str) -> Any:
            if isinstance(data, scalars):
                return data
            where = _where(path)
            raise InvalidCommand(f"{where}: expected one of {[m.__name__ for m in scalars]}", field=where)

    else:
        inner = _decoder(real[0], checked)
    if not optional:
        return inner
    return lambda data, path: None if data is None else inner(data, path)


@cache
def _plan(cls: Any, checked: bool = False) -> tuple[frozenset[str], tuple[tuple[str, Decoder, bool], ...]]:
    """The names a class's JSON may hold, and each field's name, decoder and whether it is required."""
    fields = _fields(cls)
    known = frozenset(
        {name for name, _, _ in fields} | ({"type"} if isinstance(getattr(cls, "type", None), str) else set())
    )
    metadata = {f.name: f.metadata for f in dataclasses.fields(cls)} if checked else {}
    plan = []
    for name, tp, required in fields:
        decoder = _decoder(tp, checked)
        if issubclass(cls, Command) and name == "dice":
            decoder = _dice if cls.takes_dice else _no_dice
        elif issubclass(cls, Command) and name == "faces":
            decoder = _optional_faces
        elif checked:
            decoder = _limited(decoder, meta.read(metadata[name]))
        plan.append((name, decoder, required))
    return known, tuple(plan)


def _limited(decoder: Decoder, limits: dict[str, Any]) -> Decoder:
    """`decoder`, then the field's limits: a number within minimum..maximum, a string one of `choices` or matching
    `pattern` (a list: each item, and min_items..max_items of them); a refusal cites the field's `rule`."""
    low, high = limits.get("minimum"), limits.get("maximum")
    choices, pattern = limits.get("choices"), limits.get("pattern")
    fewest, most = limits.get("min_items"), limits.get("max_items")
    values: list[Any] | None = None
    if isinstance(choices, type) and issubclass(choices, Enum):
        values = [member.value for member in choices]
    elif choices is not None:
        values = list(choices) if isinstance(choices, (tuple, list)) else sorted(typing.cast(typing.Iterable[Any], choices))
    allowed = None if values is None else frozenset(values)
    if low is None and high is None and allowed is None and not pattern and fewest is None and most is None:
        return decoder
    matches = re.compile(pattern).search if pattern else None
    span = f"{'' if low is None else low}..{'' if high is None else high}"
    count = f"at least {fewest}" if most is None else f"{fewest or 0}..{most}"
    rule = limits.get("rule", "")
    cite = f" ({rule})" if rule else ""
    unmatched = "a non-blank string" if pattern == r"\S" else f"must match {pattern}"

    def one(value: Any, where: str) -> None:
        if isinstance(value, int) and not isinstance(value, bool):
            if (low is not None and value < low) or (high is not None and value > high):
                raise InvalidCommand(f"{where}: {value} is not within {span}{cite}", field=where, rule=rule)
        elif isinstance(value, str):
            if allowed is not None and value not in allowed:
                raise InvalidCommand(f"{where}: {value!r} is not one of {values}{cite}", field=where, rule=rule)
            if matches is not None and not matches(value):
                raise InvalidCommand(f"{where}: {unmatched}{cite}", field=where, rule=rule)

    def check(data: Any, path: str) -> Any:
        value = decoder(data, path)
        where = _where(path)
        if isinstance(value, (tuple, frozenset)):
            if (fewest is not None and len(value) < fewest) or (most is not None and len(value) > most):
                raise InvalidCommand(f"{where}: {count} item(s), got {len(value)}{cite}", field=where, rule=rule)
            for index, item in enumerate(value):
                one(item, f"{where}[{index}]")
        else:
            one(value, where)
        return value

    return check


def _decode_dataclass(cls: Any, data: Any, path: str, checked: bool = False) -> Any:
    if not isinstance(data, dict):
        raise InvalidCommand(f"{_where(path)}: expected an object", field=_where(path))
    known, plan = _plan(cls, checked)
    if not data.keys() <= known:
        extra = sorted(set(data) - known)
        raise InvalidCommand(f"{_where(path)}: unknown field(s) {extra}", field=f"{path}.{extra[0]}".lstrip("."))
    kwargs: dict[str, Any] = {}
    for name, decoder, required in plan:
        sub = f"{path}.{name}" if path else name
        if name in data:
            kwargs[name] = decoder(data[name], sub)
        elif required:
            raise InvalidCommand(f"{sub}: required", field=sub)
    return cls(**kwargs)


def _faces(data: Any, path: str) -> Faces:
    """One roll's faces typed in: a list, or one number (a D36 as 35 is tens 3 and ones 5, FT-DICE-01; a die's face)."""
    if isinstance(data, int) and not isinstance(data, bool):
        number: int = decode(int, data, path)
        return (number // 10, number % 10) if number >= 10 else (number,)
    faces: Faces = decode(Faces, data, path)
    return faces


def _dice(data: Any, path: str) -> tuple[Faces, ...]:
    """A command's typed-in dice: one entry per roll, each a list of faces or one number."""
    return tuple(_faces(entry, f"{path}[{i}]") for i, entry in enumerate(_list(data, path)))


def _no_dice(data: Any, path: str) -> tuple[Faces, ...]:
    """`dice` of a command that takes none (a `roll` answer): only empty, as its log entries write it; typed faces
    there would be dropped and the server would roll instead, so they are refused."""
    if data == []:
        return ()
    where = _where(path)
    raise InvalidCommand(f"{where}: a roll answer takes its faces in `faces` (e.g. {{\"type\": \"roll\", "
                         f"\"faces\": [2]}}), not in `dice`", field=where)


def _optional_faces(data: Any, path: str) -> Faces | None:
    return None if data is None else _faces(data, path)


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
    event: Event = decode(Event, _older_changes(data), "event")
    return event


def _older_changes(data: Any) -> Any:
    """An event logged before a `changed` event named the one Mutation, keyword or skill level that moved (it held
    the whole list or skill sheet in `before`/`after`), in today's form, so an old log still reads back."""
    changes = data.get("changes") if isinstance(data, dict) else None
    if not isinstance(changes, list) or not any(isinstance(c, dict) and isinstance(c.get("before"), (list, dict))
                                                for c in changes):
        return data
    now: list[Any] = []
    for change in changes:
        before, after = (change.get("before"), change.get("after")) if isinstance(change, dict) else (None, None)
        if isinstance(before, list) and isinstance(after, list):
            now += [{"field": change["field"], "before": "", "after": name} for name in after if name not in before]
            now += [{"field": change["field"], "before": name, "after": ""} for name in before if name not in after]
        elif isinstance(before, dict) and isinstance(after, dict):
            now += [{"field": change["field"], "before": before[k], "after": after[k]} for k in after
                    if before.get(k) != after[k]]
        else:
            now.append(change)
    return {**data, "changes": now}


def dumps(value: Any) -> str:
    """Compact JSON text for storage."""
    return json.dumps(value, separators=(",", ":"), sort_keys=False)
