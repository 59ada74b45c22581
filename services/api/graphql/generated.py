"""GraphQL types generated from the API model (services/contract/model.py), the one the OpenAPI components come from.

Every engine object becomes an object type (State, Hero, Skills, Item, Town, Slot, Carry, Prompt, Option, Event,
Change, Roll, LegalCommand, SimulationResult ...) and an input type where clients send it (HeroInput,
RuleOptionsInput, one input per command); every enum of the model a GraphQL enum; the commands an output union
`Command` (picked by `__typename`) and a `@oneOf` input `CommandInput` with one member per command type. A command,
state field or event type added to the engine is typed here by regeneration alone.

The types read the same JSON the REST door returns (each field resolves a key of its parent's dict), so a resolver
returns the use case's answer as it is. Whole numbers bounded within 32 bits are `Int`, others `Long`; a string
whose set includes "" (none) is a nullable enum; an object keyed by data (hero ids, D36 results) is a list of
`{key, value}` entries.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from enum import Enum
from functools import cache
from typing import Annotated, Any, NewType, Optional, Union, get_args, get_origin

import strawberry
from strawberry.scalars import JSON

from services.contract.model import (
    INT_MAX,
    INT_MIN,
    Commands,
    EnumType,
    Faces,
    ListOf,
    MapOf,
    Model,
    Node,
    Nullable,
    ObjectRef,
    Scalar,
    Tagged,
    command_tag,
    model,
)
from shared_rules.commands import COMMAND_TYPES

MAX_LONG = 2**53 - 1  # exact in every JSON parser and in JavaScript
INT32 = (-(2**31), 2**31 - 1)

Long = NewType("Long", int)


def _long(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not -MAX_LONG <= value <= MAX_LONG:
        raise ValueError(f"Long: expected a whole number within +-(2^53-1), got {value!r}")
    return value


LONG = strawberry.scalar(
    name="Long",
    description="A whole number within +-(2^53-1) (exact in JSON and JavaScript); GraphQL's Int stops at 2^31-1.",
    serialize=int,
    parse_value=_long,
)
Value = NewType("Value", object)


def _value(value: Any) -> int | str | bool:
    if isinstance(value, (bool, str)) or (isinstance(value, int) and -MAX_LONG <= value <= MAX_LONG):
        return value
    raise ValueError(f"Value: expected a number, a string or true/false, got {value!r}")


VALUE = strawberry.scalar(
    name="Value",
    description="One hero value as it moved: a whole number (Wounds, Gold ...), a name (an item, a token) or a flag.",
    serialize=_value,
    parse_value=_value,
)
SCALARS: dict[object, Any] = {Long: LONG, Value: VALUE}

Convert = Callable[[Any], Any] | None

# Fields of API 1.0 that were the JSON scalar and are typed now under another name: the old name keeps the JSON
# value, deprecated, until API 2.0 removes it (docs/api.md "Versioning").
RENAMED: dict[tuple[str, str], str] = {("Event", "roll"): "rolled", ("Prompt", "roll"): "rolled",
                                       ("ExportedEntry", "command"): "applied"}


def _entry_name(value_type: Any) -> str:
    """The name a map's values give its entry type: the type's own, or its item's for a list (`IntListListEntry`
    for lists of lists of Int)."""
    if get_origin(value_type) is list:
        return f"{_entry_name(get_args(value_type)[0])}List"
    return str(getattr(value_type, "__name__", "Value"))


def _reader(key: str, convert: Convert) -> Callable[..., Any]:
    if convert is None:
        def resolve(root: Any) -> Any:
            return root[key]
    else:
        def resolve(root: Any) -> Any:
            return convert(root[key])
    return resolve


def _is(tag: str) -> Callable[[Any, Any], bool]:
    return lambda obj, _info: isinstance(obj, dict) and obj.get("type") == tag


class Builder:
    """Strawberry types for the model's objects, enums and unions, each built once."""

    def __init__(self, found: Model) -> None:
        self.model = found
        self.outputs: dict[type, Any] = {}
        self.inputs: dict[type, Any] = {}
        self.enums: dict[str, Any] = {}
        self.entries: dict[str, Any] = {}
        self.unions: dict[str, Any] = {}
        self._command_input: Any = None

    # ---- shared ------------------------------------------------------------------------------------------------
    def enum(self, node: EnumType) -> Any:
        found = self.enums.get(node.name)
        if found is None:
            members = {name: value for name, value in zip(node.names, [v for v in node.values if v], strict=True)}
            python_enum: Any = Enum(node.name, members)  # type: ignore[misc]  # a functional Enum named at run time
            found = strawberry.enum(python_enum, description=node.description or None)
            self.enums[node.name] = found
        return found

    @staticmethod
    def integer(node: Scalar, *, inputs: bool) -> Any:
        low = node.limits.minimum if node.limits.minimum is not None else INT_MIN
        high = node.limits.maximum if node.limits.maximum is not None else INT_MAX
        return int if INT32[0] <= low and high <= INT32[1] else Long

    @staticmethod
    def scalar(node: Scalar, *, inputs: bool) -> Any:
        if node.kind == "integer":
            return Builder.integer(node, inputs=inputs)
        return {"number": float, "boolean": bool, "string": str, "scalar": Value}.get(node.kind, JSON)

    # ---- outputs -----------------------------------------------------------------------------------------------
    def out(self, node: Node) -> tuple[Any, Convert]:
        """The GraphQL output type of a node, and how to turn its JSON into what that type resolves."""
        if isinstance(node, Scalar):
            return self.scalar(node, inputs=False), None
        if isinstance(node, EnumType):
            if "" in node.values:
                return Optional[self.enum(node)], lambda value: value or None  # noqa: UP045 - built at run time
            return self.enum(node), None
        if isinstance(node, Faces):
            return list[int], None
        if isinstance(node, ListOf):
            item, convert = self.out(node.item)
            if convert is None:
                return list[item], None  # type: ignore[valid-type]
            return list[item], lambda values: [convert(value) for value in values]  # type: ignore[valid-type]
        if isinstance(node, Nullable):
            inner, convert = self.out(node.inner)
            if convert is None:
                return Optional[inner], None  # noqa: UP045
            return Optional[inner], lambda value: None if value is None else convert(value)  # noqa: UP045
        if isinstance(node, MapOf):
            value_type, convert = self.out(node.value)
            entry = self.entry(value_type)
            return list[entry], lambda mapping: [  # type: ignore[valid-type]
                {"key": key, "value": value if convert is None else convert(value)} for key, value in mapping.items()]
        if isinstance(node, ObjectRef):
            return self.output(node.cls), None
        if isinstance(node, Commands):
            return self.union("Command", tuple(COMMAND_TYPES.values()),
                              "Any engine command; `__typename` (or `type`) says which."), None
        if isinstance(node, Tagged):
            return self.union(node.name, node.members, node.description), None
        raise TypeError(f"no GraphQL type for {node!r}")

    def entry(self, value_type: Any) -> Any:
        """`{key, value}`: one member of an object keyed by data (a hero id, a D36 result, a town type)."""
        name = f"{_entry_name(value_type)}Entry"
        found = self.entries.get(name)
        if found is None:
            namespace = {"key": strawberry.field(resolver=_reader("key", None), graphql_type=str),
                         "value": strawberry.field(resolver=_reader("value", None), graphql_type=value_type)}
            found = strawberry.type(type(name, (), namespace), description="One entry of a map: its key and value.")
            self.entries[name] = found
        return found

    def union(self, name: str, members: tuple[type, ...], description: str) -> Any:
        found = self.unions.get(name)
        if found is None:
            types = tuple(self.output(cls) for cls in members)
            found = Annotated[Union[types], strawberry.union(name, description=description)]  # noqa: UP007
            self.unions[name] = found
        return found

    def output(self, cls: type) -> Any:
        """The object type of a dataclass: each public field resolves its key of the parent's JSON."""
        found = self.outputs.get(cls)
        if found is not None:
            return found
        obj = self.model.object(cls)
        namespace: dict[str, Any] = {}
        tag = command_tag(cls)
        if tag is not None:
            kind = self.enum(self.model.command_types()) if tag in COMMAND_TYPES else str
            namespace["type"] = strawberry.field(resolver=lambda: tag, graphql_type=kind,
                                                 description="what `type` is in its JSON")
            namespace["is_type_of"] = staticmethod(_is(tag))
        for spec in obj.fields:
            annotation, convert = self.out(spec.node)
            source = _source(cls, spec.name)
            renamed = RENAMED.get((obj.name, spec.name))
            name = renamed or spec.name
            namespace[name] = strawberry.field(resolver=_reader(source, convert), graphql_type=annotation,
                                               description=spec.description or None,
                                               deprecation_reason=spec.deprecated or None)
            if renamed:
                namespace[spec.name] = strawberry.field(
                    resolver=_reader(source, None), graphql_type=Optional[JSON],  # noqa: UP045
                    description=spec.description or None,
                    deprecation_reason=f"Use `{_camel(renamed)}`: the same value, typed. Removed in API 2.0.")
        found = strawberry.type(type(obj.name, (), namespace), description=obj.description or None)
        self.outputs[cls] = found
        return found

    # ---- inputs ------------------------------------------------------------------------------------------------
    def inp(self, node: Node) -> Any:
        if isinstance(node, Scalar):
            return self.scalar(node, inputs=True)
        if isinstance(node, EnumType):
            return self.enum(node)
        if isinstance(node, Faces):
            return list[int]
        if isinstance(node, ListOf):
            return list[self.inp(node.item)]  # type: ignore[misc]
        if isinstance(node, Nullable):
            return Optional[self.inp(node.inner)]  # noqa: UP045
        if isinstance(node, ObjectRef):
            return self.input(node.cls)
        if isinstance(node, Commands):
            return self.command_input()
        raise TypeError(f"no GraphQL input type for {node!r}")

    def input(self, cls: type) -> Any:
        """The input type of a dataclass: required fields without a default, optional ones with theirs."""
        found = self.inputs.get(cls)
        if found is not None:
            return found
        obj = self.model.object(cls)
        annotations: dict[str, Any] = {}
        namespace: dict[str, Any] = {"__annotations__": annotations}
        for spec in obj.fields:
            if spec.output_only:
                continue
            annotation = self.inp(spec.node)
            description = spec.description or None
            if spec.required:
                annotations[spec.name] = annotation
                namespace[spec.name] = strawberry.field(description=description)
            elif isinstance(spec.node, ListOf) and spec.default == []:
                annotations[spec.name] = annotation
                namespace[spec.name] = strawberry.field(description=description, default_factory=list)
            elif _plain_default(spec.node, spec.default):
                annotations[spec.name] = annotation
                default = self.enum(spec.node)(spec.default) if isinstance(spec.node, EnumType) else spec.default
                namespace[spec.name] = strawberry.field(description=description, default=default)
            else:  # an object, a nullable value or "none": absent means the engine's default
                annotations[spec.name] = Optional[annotation]  # noqa: UP045
                namespace[spec.name] = strawberry.field(description=description, default=strawberry.UNSET)
        found = strawberry.input(type(f"{obj.name}Input", (), namespace), description=obj.description or None)
        self.inputs[cls] = found
        return found

    def command_input(self) -> Any:
        """`@oneOf`: exactly one member, named by the command's `type` (rollHazard, chooseTownSize ...)."""
        if self._command_input is None:
            annotations: dict[str, Any] = {}
            namespace: dict[str, Any] = {"__annotations__": annotations}
            for tag, cls in COMMAND_TYPES.items():
                annotations[tag] = Optional[self.input(cls)]  # noqa: UP045
                namespace[tag] = strawberry.field(default=strawberry.UNSET,
                                                  description=self.model.object(cls).description or None)
            self._command_input = strawberry.input(
                type("CommandInput", (), namespace), one_of=True,
                description="One engine command: set exactly one member, named by the command's type "
                            "(e.g. {rollHazard: {dice: [[3, 5]]}}); `dice` queues the faces of the next rolls.")
        return self._command_input


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part.title() for part in rest)


def _source(cls: type, name: str) -> str:
    """The JSON key a field reads: its name, or `source` in its metadata (the service's views name a few)."""
    for f in dataclasses.fields(cls):
        if f.name == name:
            return str(f.metadata.get("source", name))
    return name


def _plain_default(node: Node, default: Any) -> bool:
    """Defaults GraphQL shows in the schema: numbers, strings, flags and enum members (not "", which is none)."""
    if default is None:
        return False
    if isinstance(node, EnumType):
        return default != ""
    return isinstance(node, Scalar) and node.kind != "json"


# ---- typed inputs back to the engine's JSON ---------------------------------------------------------------------


def to_json(value: Any) -> Any:
    """A GraphQL input value as the JSON the use cases take: unset members left out, enums as their values,
    the `@oneOf` command as `{"type": <member>, ...}`."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, list):
        return [to_json(item) for item in value]
    definition = getattr(value, "__strawberry_definition__", None)
    if definition is None:
        return value
    out: dict[str, Any] = {}
    for field in definition.fields:
        item = getattr(value, field.python_name)
        if item is strawberry.UNSET:
            continue
        out[field.python_name] = to_json(item)
    if definition.is_one_of:
        ((tag, body),) = out.items()
        return {"type": tag, **(body or {})}
    return out


@cache
def builder() -> Builder:
    """The types of the model, built once per process."""
    return Builder(model())


def typed(cls: type) -> Any:
    """The generated output type of a dataclass."""
    return builder().output(cls)


def typed_input(cls: type) -> Any:
    """The generated input type of a dataclass."""
    return builder().input(cls)

