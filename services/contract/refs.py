"""How a component of the document is named and referred to: what the REST door, the envelopes and the request
checks need without building the API model (json_schema.py re-exports these; importing it walks the engine)."""

from __future__ import annotations

from typing import Any

REF = "#/components/schemas/"
Schema = dict[str, Any]


def ref(name: str) -> Schema:
    return {"$ref": REF + name}
