"""What a client may see of a stored state: every field but those the engine marks `public=False`.

The stored snapshot keeps the RNG state and a prompt's checkpoint (undo and resuming need them); a client that saw
them could predict the server's dice, so every view (REST, GraphQL, the live changes) goes through `public_state`.
The pruner is compiled once from the API model and walks only into values that hold a private field somewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from services.contract.model import (
    Commands,
    ListOf,
    MapOf,
    Model,
    Node,
    Nullable,
    ObjectRef,
    model,
)
from shared_rules.commands import COMMAND_TYPES

Pruner = Callable[[Any], Any]
ENVELOPE_KEYS = frozenset({"schema"})  # encode_state's own member, beside the Session's fields


def _private_inside(found: Model, node: Node, seen: frozenset[type] = frozenset()) -> bool:
    """Whether a value of this node can hold a field clients must not see."""
    if isinstance(node, (ListOf, Nullable)):
        return _private_inside(found, node.item if isinstance(node, ListOf) else node.inner, seen)
    if isinstance(node, MapOf):
        return _private_inside(found, node.value, seen)
    if isinstance(node, ObjectRef):
        return _object_private(found, node.cls, seen)
    if isinstance(node, Commands):
        return any(_object_private(found, cls, seen) for cls in COMMAND_TYPES.values())
    return False


def _object_private(found: Model, cls: type, seen: frozenset[type] = frozenset()) -> bool:
    import dataclasses

    from shared_rules import meta

    if cls in seen:
        return False
    if any(not meta.read(f.metadata).get("public", True) for f in dataclasses.fields(cls)):
        return True
    obj = found.object(cls)
    return any(_private_inside(found, spec.node, seen | {cls}) for spec in obj.fields)


def _pruner(found: Model, node: Node) -> Pruner | None:
    """A function returning the public part of a value of `node`, or None when it is all public."""
    if not _private_inside(found, node):
        return None
    if isinstance(node, Nullable):
        inner = _pruner(found, node.inner)
        assert inner is not None
        return lambda value: None if value is None else inner(value)
    if isinstance(node, ListOf):
        item = _pruner(found, node.item)
        assert item is not None
        return lambda value: [item(x) for x in value]
    if isinstance(node, MapOf):
        each = _pruner(found, node.value)
        assert each is not None
        return lambda value: {key: each(x) for key, x in value.items()}
    if isinstance(node, ObjectRef):
        return object_pruner(node.cls)
    if isinstance(node, Commands):
        by_type = {tag: object_pruner(cls) for tag, cls in COMMAND_TYPES.items()}  # type: ignore[arg-type]
        return lambda value: by_type[value["type"]](value) if value.get("type") in by_type else value
    return None


@cache
def object_pruner(cls: type) -> Pruner:
    """The public members of an encoded dataclass (and of the values inside it)."""
    found = model()
    obj = found.object(cls)
    keep = frozenset({spec.name for spec in obj.fields} | ENVELOPE_KEYS | {"type"})
    inner = {spec.name: p for spec in obj.fields if (p := _pruner(found, spec.node)) is not None}

    def prune(value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        out = {key: item for key, item in value.items() if key in keep}
        for key, sub in inner.items():
            if key in out:
                out[key] = sub(out[key])
        return out

    return prune


def public_state(encoded: dict[str, Any]) -> dict[str, Any]:
    """A stored state (encode_state's JSON) as clients see it: without the RNG state, checkpoints and answers."""
    from shared_rules.state import Session

    public: dict[str, Any] = object_pruner(Session)(encoded)
    return public
