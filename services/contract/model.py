"""One model of the API's types, walked from the engine's dataclasses, enums and registries.

Both documents are generated from it (OpenAPI components in json_schema.py, GraphQL types in
services/api/graphql/generated.py), so a new command (registered in COMMAND_TYPES), a new state field or a new
event type is typed in both by `scripts/export_schemas.py` alone. What the engine declares on a field with
`shared_rules.meta` (limits, the set a string is one of, examples, fields kept private) is read here, once.

The model mirrors `shared_rules.codec`: a command's JSON carries its `type`, frozensets are sorted lists, enums
their values, and fields marked `public=False` (the RNG state, a prompt's checkpoint) are not part of any view.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import linecache
import os
import re
import sys
import types
import typing
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any, Union

from shared_rules import codec, commands, dice, meta
from shared_rules import engine as _engine  # noqa: F401 - imports every rule area, so COMMAND_TYPES is complete
from shared_rules.commands import COMMAND_TYPES

INT_MIN, INT_MAX = -(2**53 - 1), 2**53 - 1  # exact in every JSON parser (the codec itself takes up to 2**64)
STR_MAX = 2000  # the codec refuses longer strings
FACE_MIN = 1
FACE_MAX = max(max(dice.face_range(kind)) for kind in dice.DieKind)  # the highest face of any die (a D8)
SHORTHAND = tuple(sorted({*range(FACE_MIN, FACE_MAX + 1),
                          *(10 * tens + ones for tens, ones in itertools.product(dice.face_range(dice.DieKind.D36),
                                                                                 repeat=2))}))
"""One roll typed as one number: a single die's face, or a D36 / 2D6 as tens and ones (35 is 3 and 5, FT-DICE-01)."""

OBJECT_NAMES: dict[str, str] = {"Session": "State"}  # the engine's Session is the API's State (a table is a session)
OBJECT_DESCRIPTIONS = {"State": "A table's game state as clients see it: rule options, the posse, the road, the town, "
                                "the Town Stay, the Adventure, carried flags and the rule under way (the RNG state "
                                "stays on the server)."}


# ---- the nodes ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on a scalar (numbers, string lengths, a pattern)."""

    minimum: int | None = None
    maximum: int | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str = ""


@dataclass(frozen=True, slots=True)
class Scalar:
    kind: str  # integer, number, string, boolean, scalar (a number, string or boolean), json (any JSON value)
    limits: Limits = Limits()


@dataclass(frozen=True, slots=True)
class EnumType:
    """A string that is one of a set; `names` are the GraphQL names of the values (the values themselves where they
    are GraphQL names); "" among the values means none."""

    name: str
    values: tuple[str, ...]
    names: tuple[str, ...]
    description: str = ""


@dataclass(frozen=True, slots=True)
class ListOf:
    item: Node
    unique: bool = False
    min_items: int | None = None
    max_items: int | None = None


@dataclass(frozen=True, slots=True)
class MapOf:
    """An object keyed by names the data decides (hero ids, D36 results)."""

    value: Node


@dataclass(frozen=True, slots=True)
class Nullable:
    inner: Node


@dataclass(frozen=True, slots=True)
class Faces:
    """The faces of one roll: a list of whole numbers; typed in, also the one-number shorthand (SHORTHAND)."""


@dataclass(frozen=True, slots=True)
class ObjectRef:
    cls: type


@dataclass(frozen=True, slots=True)
class Commands:
    """Any registered command, picked by its `type` (the discriminator)."""


@dataclass(frozen=True, slots=True)
class Tagged:
    """One of several objects that each carry a `type` of their own (a log entry's command: any engine command,
    the opening of a table, an undo); named by the field's `meta(enum=...)`."""

    name: str
    members: tuple[type, ...]
    description: str = ""


Node = Scalar | EnumType | ListOf | MapOf | Nullable | Faces | ObjectRef | Commands | Tagged


@dataclass(frozen=True, slots=True)
class FieldSpec:
    name: str
    node: Node
    required: bool  # no default: an input must send it (outputs always carry every field)
    default: Any  # the JSON form of the default (None when required)
    description: str = ""
    example: Any = None
    deprecated: str = ""
    rule: str = ""  # the rules-reference id a refusal of this field names
    output_only: bool = False  # written in outputs, never taken from a client (no input schema or type has it)


@dataclass(frozen=True, slots=True)
class ObjectType:
    cls: type
    name: str
    description: str
    fields: tuple[FieldSpec, ...]
    tag: str | None = None  # a command's `type`


# ---- walking the engine's types -------------------------------------------------------------------------------


def type_hints(cls: type) -> dict[str, Any]:
    """A dataclass's field types, resolved as the codec resolves them."""
    resolve = getattr(codec, "type_hints", None)
    if resolve is not None:
        found: dict[str, Any] = resolve(cls)
        return found
    namespace = {**getattr(codec, "_NAMESPACE", {}), **vars(sys.modules[cls.__module__])}
    return typing.get_type_hints(cls, globalns=namespace)


def is_command_class(cls: Any) -> bool:
    return isinstance(cls, type) and cls in COMMAND_TYPES.values()


def means_any_command(tp: Any) -> bool:
    """`Command` in a type hint: the base class every command subclasses, or a union of every command class."""
    if tp is getattr(commands, "Command", None) and isinstance(tp, type) and not is_command_class(tp):
        return True
    if typing.get_origin(tp) in (Union, types.UnionType):
        return set(typing.get_args(tp)) >= set(COMMAND_TYPES.values())
    return False


def command_tag(cls: type) -> str | None:
    tag = getattr(cls, "type", None)
    return tag if isinstance(tag, str) and tag else None


def description(cls: type) -> str:
    """The first paragraph of a docstring (dataclasses without one get a generated signature: none)."""
    doc = meta.docstring(cls).strip().split("\n\n")[0].replace("\n", " ")
    return "" if doc.startswith(f"{cls.__name__}(") else re.sub(r"\s+", " ", doc)


_COMMENT = re.compile(r"^\s+(\w+)\s*:[^#]*#\s*(.+?)\s*$")
_NOT_PROSE = ("fmt:", "type:", "noqa", "pragma")


def field_comments(cls: type) -> dict[str, str]:
    """The comment at the end of each field's line in the class source (`defense: int = 4  # saving roll N+ ...`),
    so the documents describe the fields as the engine's authors did, with no metadata to keep in step."""
    found = {}
    for line in _class_source(cls):
        match = _COMMENT.match(line)
        if match and not match.group(2).startswith(_NOT_PROSE):
            found[match.group(1)] = match.group(2)
    return found


def _class_source(cls: type) -> list[str]:
    """The lines of a class's source. Each file is parsed once (`inspect.getsource` parses the whole module again
    for every class on Python 3.11: two seconds of the service's start-up for the model's 135 classes)."""
    try:
        filename = inspect.getsourcefile(cls)
    except TypeError:
        return []
    if filename is None:  # a compiled module: its source is beside it (scripts/build_compiled.py)
        compiled = getattr(sys.modules.get(cls.__module__), "__file__", None) or ""
        filename = compiled.rsplit("/", 1)[0] + "/" + compiled.rsplit("/", 1)[-1].split(".")[0] + ".py" \
            if compiled.endswith(".so") else None
        if filename is None or not os.path.exists(filename):
            return []
    span = _class_spans(filename).get(cls.__qualname__)
    if span is None:
        try:
            return inspect.getsource(cls).splitlines()
        except (OSError, TypeError):
            return []
    return linecache.getlines(filename)[span[0] - 1:span[1]]


@cache
def _class_spans(filename: str) -> dict[str, tuple[int, int]]:
    """Every class of a source file by qualified name: its first and last line (the first definition of a name)."""
    spans: dict[str, tuple[int, int]] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                qualname = prefix + child.name
                spans.setdefault(qualname, (child.lineno, child.end_lineno or child.lineno))
                visit(child, qualname + ".")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, f"{prefix}{child.name}.<locals>.")
            else:
                visit(child, prefix)

    try:
        visit(ast.parse("".join(linecache.getlines(filename))), "")
    except SyntaxError:
        return {}
    return spans


def enum_member_name(value: str) -> str:
    """The GraphQL name of an enum value: the value itself, so both doors speak the same words ("hazard_count"),
    made a GraphQL name where it is not one ("2d6" -> "_2d6", "3d6-drop-lowest" -> "_3d6_drop_lowest")."""
    name = re.sub(r"\W+", "_", value).strip("_") or "none"
    return f"_{name}" if name[0].isdigit() else name


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


class Model:
    """The API's view of the engine's types: objects by class, named enums, the command union."""

    def __init__(self) -> None:
        self.objects: dict[type, ObjectType] = {}
        self.enums: dict[str, EnumType] = {}
        self._visiting: set[type] = set()

    # -- enums ---------------------------------------------------------------------------------------------------
    def enum(self, name: str, values: tuple[str, ...], names: tuple[str, ...] | None = None,
             doc: str = "") -> EnumType:
        found = EnumType(name, values, names or tuple(enum_member_name(v) for v in values if v), doc)
        known = self.enums.get(name)
        if known is not None and known.values != found.values:
            raise TypeError(f"two different sets are both called {name!r}: {known.values} and {found.values}")
        self.enums.setdefault(name, found)
        return self.enums[name]

    def command_types(self) -> EnumType:
        return self.enum("CommandType", tuple(COMMAND_TYPES), doc="Every command the engine knows, by its `type`.")

    def python_enum(self, cls: type[Enum]) -> EnumType:
        return self.enum(cls.__name__, tuple(str(m.value) for m in cls), doc=description(cls))

    # -- objects -------------------------------------------------------------------------------------------------
    def commands(self) -> list[ObjectType]:
        return [self.object(cls) for cls in COMMAND_TYPES.values()]

    def object(self, cls: type) -> ObjectType:
        """The object type of a dataclass (its public fields), built once."""
        found = self.objects.get(cls)
        if found is not None:
            return found
        if cls in self._visiting:
            raise TypeError(f"{cls.__name__} contains itself through public fields; mark the loop public=False")
        self._visiting.add(cls)
        hints = type_hints(cls)
        comments = field_comments(cls)
        specs = []
        ordered = sorted(dataclasses.fields(cls), key=lambda f: f.name == "dice")  # as the codec writes them
        for f in ordered:
            info = meta.read(f.metadata)
            if not info.get("public", True):
                continue
            node = self._field_node(cls, f.name, hints[f.name], info)
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            default = None
            if not required:
                make: Any = f.default_factory
                value = f.default if f.default is not dataclasses.MISSING else make()
                default = codec.encode(value)
            specs.append(FieldSpec(f.name, node, required, default,
                                   str(info.get("description", "")) or comments.get(f.name, ""),
                                   info.get("example"), str(info.get("deprecated", "")), str(info.get("rule", "")),
                                   f.name == "dice" and is_command_class(cls) and not getattr(cls, "takes_dice", True)))
        self._visiting.discard(cls)
        name = cls.__dict__.get("__api_name__") or OBJECT_NAMES.get(cls.__name__, cls.__name__)
        twin = next((other.cls for other in self.objects.values() if other.name == name), None)
        if twin is not None:
            raise TypeError(f"{cls.__module__}.{cls.__qualname__} and {twin.__module__}.{twin.__qualname__} would both "
                            f"be {name!r} in the API documents: rename one, or give it `__api_name__ = \"...\"`")
        found = ObjectType(cls, name, OBJECT_DESCRIPTIONS.get(name) or description(cls), tuple(specs), command_tag(cls))
        self.objects[cls] = found
        return found

    def _field_node(self, owner: type, name: str, tp: Any, info: dict[str, Any]) -> Node:
        if is_command_class(owner) and name == "dice":  # the codec reads these two the table's way
            return ListOf(Faces(), min_items=info.get("min_items"), max_items=info.get("max_items"))
        if is_command_class(owner) and name == "faces":
            return Nullable(Faces())
        return self.node(tp, info, f"{owner.__name__}{_camel(name)}")

    def node(self, tp: Any, info: dict[str, Any] | None = None, where: str = "") -> Node:
        """The node of a type hint; `info` is the field's metadata (its limits apply to list items)."""
        info = info or {}
        if tp is Any:
            return Scalar("json")
        if means_any_command(tp):
            return Commands()
        origin = typing.get_origin(tp)
        if origin in (Union, types.UnionType):
            members = [m for m in typing.get_args(tp) if m is not type(None)]
            if len(members) != 1:
                if all(m in (int, str, bool) for m in members):
                    return Scalar("scalar")  # a change's before/after: a number, a name or a flag
                tagged = [cls for m in members
                          for cls in (COMMAND_TYPES.values() if means_any_command(m) else (m,))]
                if all(command_tag(cls) for cls in tagged):
                    for cls in tagged:
                        self.object(cls)
                    inner: Node = Tagged(str(info.get("enum") or where), tuple(tagged),
                                         str(info.get("description", "")))
                    return Nullable(inner) if type(None) in typing.get_args(tp) else inner
                raise TypeError(f"{where}: no API type for the union {tp!r}")
            inner = self.node(members[0], info, where)
            return Nullable(inner) if type(None) in typing.get_args(tp) else inner
        if origin in (tuple, list, frozenset):
            args = typing.get_args(tp)
            item = self.node(args[0], {k: v for k, v in info.items() if k not in ("min_items", "max_items")}, where)
            return ListOf(item, unique=origin is frozenset, min_items=info.get("min_items"),
                          max_items=info.get("max_items"))
        if origin is dict:
            return MapOf(self.node(typing.get_args(tp)[1], info, where))
        if isinstance(tp, type) and issubclass(tp, Enum):
            return self.python_enum(tp)
        if tp is str and "choices" in info:
            choices = info["choices"]
            if isinstance(choices, type) and issubclass(choices, Enum):
                return self.python_enum(choices)
            ordered = isinstance(choices, (tuple, list, dict))  # a set has no order of its own: sorted
            values = tuple(str(v) for v in choices) if ordered else tuple(sorted(str(v) for v in choices))
            return self.enum(str(info.get("enum") or where), values)
        limits = Limits(info.get("minimum"), info.get("maximum"), info.get("min_length"), info.get("max_length"),
                        str(info.get("pattern", "")))
        if tp is bool:
            return Scalar("boolean")
        if tp is int:
            return Scalar("integer", limits)
        if tp is float:
            return Scalar("number", limits)
        if tp is str:
            return Scalar("string", limits)
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            self.object(tp)
            return ObjectRef(tp)
        raise TypeError(f"{where}: no API type for {tp!r}")


@cache
def model() -> Model:
    """The model of everything the API shows or takes, built once per process."""
    from services.contract import hosting, summary
    from shared_rules import events, prompts, state
    from shared_rules.engine import LegalCommand

    found = Model()
    found.command_types()
    for cls in (state.Session, state.Hero, state.RuleOptions, events.Event, prompts.Prompt, LegalCommand,
                summary.SimulationResult, *hosting.ROOTS):
        found.object(cls)
    found.commands()
    return found
