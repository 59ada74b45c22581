"""What the API documents read from the engine's fields: limits, the set a string is one of, examples, and which
fields stay inside the server. Pure data on `dataclasses.field(metadata=meta(...))`; the engine never reads it.

    amount: int = field(default=0, metadata=meta(minimum=-MAX_AMOUNT, maximum=MAX_AMOUNT, example=25))
    op: str = field(metadata=meta(choices=ref("shared_rules.rules.adjust", "OPS"), enum="EffectOp"))
    rng: int = field(default=0, metadata=meta(public=False))

On a list field, `min_items`/`max_items` bound the list and the other limits apply to each item. A `ref` names a
constant in a module that cannot be imported where the field is declared (it would import this module back); a
function without arguments is called when the documents are built; `provided(name)` takes the values a module
above gives with `provide(name, ...)` (the state's pack names come from the content). `choices` may be an Enum class (its values,
and the documents reuse its name) or a mapping (its keys).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

KEY = "api"  # the metadata key; everything below lives under it


@dataclass(frozen=True, slots=True)
class Ref:
    """A module's constant, read when the API documents are built (after every rule area has registered itself)."""

    module: str
    name: str

    def resolve(self) -> Any:
        return getattr(importlib.import_module(self.module), self.name)


def ref(module: str, name: str) -> Ref:
    return Ref(module, name)


_PROVIDED: dict[str, Callable[[], Iterable[str]]] = {}


@dataclass(frozen=True, slots=True)
class Provided:
    """Values a module above the field's own gives under a name (`provide`): a state field may list what only a
    layer that imports the state knows (the Session's pack is one of the content packs), keeping imports one-way."""

    name: str

    def resolve(self) -> Iterable[str]:
        values = _PROVIDED.get(self.name)
        if values is None:
            raise LookupError(f"no module provides {self.name!r}: import shared_rules before building the documents")
        return values()


def provided(name: str) -> Provided:
    return Provided(name)


def provide(name: str, values: Callable[[], Iterable[str]]) -> None:
    """Give the values fields declared with `provided(name)` may take (called when the documents are built)."""
    _PROVIDED[name] = values


def meta(
    *,
    public: bool = True,
    choices: Iterable[str] | Ref | Provided | Callable[[], Iterable[str]] | None = None,
    enum: str = "",
    minimum: int | Ref | Callable[[], int] | None = None,
    maximum: int | Ref | Callable[[], int] | None = None,
    min_length: int | None = None,
    max_length: int | None = None,
    pattern: str = "",
    min_items: int | None = None,
    max_items: int | None = None,
    example: Any = None,
    description: str = "",
    deprecated: str = "",
    rule: str = "",
) -> Mapping[str, Any]:
    """Field metadata for the API documents.

    public: False keeps the field out of every client view (the RNG state, a prompt's checkpoint) while the stored
    snapshot keeps it. choices: the values a string may take (`enum` names that set in the documents; "" among
    them means "none"). deprecated: why, and what to use instead (the documents mark the field deprecated).
    rule: the rules-reference id a refusal of the field names.
    """
    given = {
        "public": public, "choices": choices, "enum": enum, "minimum": minimum, "maximum": maximum,
        "min_length": min_length, "max_length": max_length, "pattern": pattern, "min_items": min_items,
        "max_items": max_items, "example": example, "description": description, "deprecated": deprecated,
        "rule": rule,
    }  # fmt: skip
    return {KEY: {key: value for key, value in given.items() if value is not None and value != ""}}


def read(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """The API metadata of a field (empty when it has none), with every `ref` resolved."""
    found: dict[str, Any] = dict(metadata.get(KEY, {}))
    for key, value in found.items():
        if isinstance(value, (Ref, Provided)):
            found[key] = value.resolve()
        elif callable(value) and not isinstance(value, type) and key != "example":
            found[key] = value()
    return found


def written(cls: type) -> tuple[dict[str, str], str] | None:
    """A class's field annotations and docstring as its source writes them, when the compiled build erased them
    (mypyc keeps a field's class, `tuple`, not `tuple[int, ...]`, and no docstring): scripts/build_compiled.py
    keeps them in the module's `_WRITTEN`. None on the source build, whose classes still have both."""
    table: dict[str, tuple[dict[str, str], str]] | None = getattr(sys.modules.get(cls.__module__), "_WRITTEN", None)
    return None if table is None else table.get(cls.__qualname__)


def docstring(cls: type) -> str:
    """A class's docstring on either build."""
    found = written(cls)
    return cls.__doc__ or (found[1] if found is not None else "")
