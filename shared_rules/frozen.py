"""Frozen values, built and copied fast: the engine's state and messages are frozen, slotted dataclasses, and a
bulk run ("what are our odds?") builds and copies tens of them per request.

A frozen dataclass's generated `__init__` sets each field through `object.__setattr__(self, "name", value)`, which
looks the slot up by name every time. `quick` gives a hot class an `__init__` with the same signature that sets
each slot through its own descriptor (about 1.8x faster, still frozen), and `evolve` is `dataclasses.replace`
through the same descriptors (the hot path of every change to a hero or the session); `replace` is the same
copy called as `dataclasses.replace` is, which the rules use.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from typing import Any, Final, TypeVar

_T = TypeVar("_T")
_C = TypeVar("_C", bound=type)


def quick(cls: _C) -> _C:
    """Give a frozen, slotted dataclass a faster `__init__` with the same parameters, defaults and freezing.

    Only plain records qualify (no `__post_init__`, no default factory, every field in `__init__`): for anything
    else the generated `__init__` does work this one would skip, so it is refused rather than copied wrongly."""
    if not (is_dataclass(cls) and cls.__dataclass_params__.frozen and hasattr(cls, "__slots__")):  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: quick() is for frozen, slotted dataclasses")
    own = fields(cls)
    if hasattr(cls, "__post_init__") or any(f.default_factory is not MISSING or not f.init for f in own):
        raise TypeError(f"{cls.__name__}: quick() cannot keep __post_init__, default factories or init=False fields")
    signature = inspect.signature(cls.__init__)
    scope: dict[str, Any] = {}
    arguments, star = [], False
    for parameter in list(signature.parameters.values())[1:]:
        if parameter.kind is parameter.KEYWORD_ONLY and not star:
            arguments.append("*")
            star = True
        if parameter.default is parameter.empty:
            arguments.append(parameter.name)
        else:
            scope[f"_default_{parameter.name}"] = parameter.default
            arguments.append(f"{parameter.name}=_default_{parameter.name}")
    lines = []
    for f in own:
        scope[f"_set_{f.name}"] = getattr(cls, f.name).__set__  # the slot's own descriptor: no lookup by name
        lines.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(arguments)}):\n" + ("\n".join(lines) or "    pass") + "\n"
    exec(source, scope)  # names come from the class's own fields, nothing else is interpolated
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = dict(cls.__init__.__annotations__)  # what the generated one says (documents, tools)
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


def evolve(value: _T, changes: dict[str, Any]) -> _T:
    """`dataclasses.replace(value, **changes)` for the engine's frozen, slotted values, about 2.5x faster: the copy
    is made by code compiled once per class instead of re-running `__init__` with keywords."""
    cls: type = type(value)
    copy = _COPIERS.get(cls)
    if copy is None:
        copy = _COPIERS[cls] = _copier(cls)
    made: _T = copy(value, changes)
    return made


def replace(value: _T, /, **changes: Any) -> _T:
    """`dataclasses.replace(value, **changes)` through the value's fast copy (`evolve`): the same new value, made
    without running `__init__` again (the compiled build writes each copy out)."""
    return evolve(value, changes)


_COPIERS: Final[dict[type, Callable[[Any, dict[str, Any]], Any]]] = {}  # each class's copy, made on first use


def _copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    compiled: Callable[[Any, dict[str, Any]], Any] | None = getattr(cls, "_evolve_with", None)
    if compiled is not None:  # the compiled build writes each value's copy out (scripts/build_compiled.py)
        return compiled
    names = [f.name for f in fields(cls)]
    if getattr(cls, "__post_init__", None) is not None or not hasattr(cls, "__slots__"):
        return lambda value, changes: dataclasses.replace(value, **changes)  # not the plain frozen record this copier assumes
    # every field copied as it is, then the few changed ones set again: cheaper than asking per field whether
    # it changed (a Hero has ~36 fields; a change touches one to three)
    scope: dict[str, Any] = {"make": object.__new__, "cls": cls, "known": frozenset(names)}
    lines = []
    for name in names:
        scope[f"_set_{name}"] = getattr(cls, name).__set__
        lines.append(f"    _set_{name}(new, value.{name})")
    source = (
        "def copy(value, changes):\n"
        "    if not changes.keys() <= known:\n"
        "        raise TypeError(f'{cls.__name__} has no field(s) {sorted(changes.keys() - known)}')\n"
        "    new = make(cls)\n" + "\n".join(lines) + "\n"
        "    for name, changed in changes.items():\n"
        "        object.__setattr__(new, name, changed)\n"
        "    return new\n"
    )
    exec(source, scope)  # names come from the class's own fields, nothing else is interpolated
    copier: Callable[[Any, dict[str, Any]], Any] = scope["copy"]
    return copier
