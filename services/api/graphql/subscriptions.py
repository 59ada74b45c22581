"""GraphQL subscription: every new version of a table, to every subscriber, on any replica sharing the store."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry
from strawberry.types import Info

from services import use_cases
from services.api.graphql.context import services, stream, token
from services.api.graphql.types import SessionChange


@strawberry.type
class Subscription:
    @strawberry.subscription(description="Each version written after `afterVersion` (default: the current one), "
                                         "in order and without gaps: version, events, command and state.")
    async def session_changes(
        self, info: Info, session_id: str, after_version: int | None = None
    ) -> AsyncGenerator[SessionChange, None]:
        changes = use_cases.watch_session(services(info), session_id, token(info), after_version=after_version)
        async for change in stream(changes):
            yield SessionChange.of(change)
