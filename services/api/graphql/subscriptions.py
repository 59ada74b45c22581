"""GraphQL subscription: every new version of a table, to every subscriber, on any replica sharing the store; each
version is executed and encoded once per query shape and credential (services/api/graphql/fanout.py)."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

import strawberry
from strawberry.types import Info

from services.api.graphql import fanout
from services.api.graphql.context import services, token
from services.api.graphql.types import SessionChangeType


@strawberry.type
class Subscription:
    @strawberry.subscription(description="Each version written after `afterVersion` (default: the current one), "
                                         "in order and without gaps: version, events, what made it and the state.",
                             graphql_type=SessionChangeType)
    def session_changes(
        self, info: Info, session_id: str, after_version: int | None = None
    ) -> AsyncGenerator[Any, None]:
        return fanout.session_changes(info, services(info), session_id, token(info),  # type: ignore[return-value]
                                      after_version)
