"""The OpenAPI components, generated from the engine's dataclasses by services/contract (the one generator both the
OpenAPI document and the GraphQL schema are built from); kept here for the REST door's imports."""

from __future__ import annotations

from services.contract.envelopes import all_components
from services.contract.refs import REF, Schema, ref

__all__ = ["REF", "Schema", "all_components", "ref"]
