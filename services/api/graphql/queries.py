"""GraphQL queries: each resolver parses, calls the same use case as REST, and returns its JSON (the types read it)."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.types import Info

from services import use_cases
from services.api.graphql.context import call, services, token
from services.api.graphql.types import (
    EventPageType,
    HealthType,
    LegalCommandsType,
    SessionListType,
    SessionType,
    SimulationJobType,
)


@strawberry.type
class Query:
    @strawberry.field(description="A table's latest version (table token, or the host token).",
                      graphql_type=SessionType)
    async def session(self, info: Info, session_id: str) -> Any:
        return await call(use_cases.get_session(services(info), session_id, token(info)))

    @strawberry.field(description="What the table may send now and the prompt waiting for an answer.",
                      graphql_type=LegalCommandsType)
    async def legal_commands(self, info: Info, session_id: str) -> Any:
        return await call(use_cases.get_legal_commands(services(info), session_id, token(info)))

    @strawberry.field(description="A page of the log: entries with version > after, oldest first.",
                      graphql_type=EventPageType)
    async def events(self, info: Info, session_id: str, after: int = -1, limit: int = 50) -> Any:
        return await call(use_cases.list_events(services(info), session_id, token(info), after=after, limit=limit))

    @strawberry.field(description="Join codes of the tables (needs the event host's token).",
                      graphql_type=SessionListType)
    async def sessions(self, info: Info, limit: int = 100, after: str | None = None) -> Any:
        return await call(use_cases.list_sessions(services(info), token(info), limit=limit, after=after))

    @strawberry.field(description="A simulation job's status, progress and result.", graphql_type=SimulationJobType)
    async def simulation(self, info: Info, job_id: str) -> Any:
        return await call(use_cases.get_simulation(services(info), job_id))

    @strawberry.field(description="The service is up, and which storage it uses.", graphql_type=HealthType)
    def health(self, info: Info) -> Any:
        svc = services(info)
        runner = svc.simulations.backend if svc.simulations is not None else "embedded"
        return {"status": "ok", "storage": svc.settings.storage, "simulations": runner}
