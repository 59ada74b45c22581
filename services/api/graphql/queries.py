"""GraphQL queries: each resolver parses, calls the same use case as REST, and returns."""

from __future__ import annotations

import strawberry
from strawberry.types import Info

from services import use_cases
from services.api.graphql.context import call, services, token
from services.api.graphql.types import EventPage, Health, LegalCommands, Session, SessionList, SimulationJob


@strawberry.type
class Query:
    @strawberry.field(description="A table's latest version (table token, or the host token).")
    async def session(self, info: Info, session_id: str) -> Session:
        return Session.of(await call(use_cases.get_session(services(info), session_id, token(info))))

    @strawberry.field(description="What the table may send now and the prompt waiting for an answer.")
    async def legal_commands(self, info: Info, session_id: str) -> LegalCommands:
        return LegalCommands.of(await call(use_cases.get_legal_commands(services(info), session_id, token(info))))

    @strawberry.field(description="A page of the log: entries with version > after, oldest first.")
    async def events(self, info: Info, session_id: str, after: int = -1, limit: int = 50) -> EventPage:
        page = await call(use_cases.list_events(services(info), session_id, token(info), after=after, limit=limit))
        return EventPage.of(page)

    @strawberry.field(description="Join codes of the tables (needs the event host's token).")
    async def sessions(self, info: Info, limit: int = 100, after: str | None = None) -> SessionList:
        found = await call(use_cases.list_sessions(services(info), token(info), limit=limit, after=after))
        return SessionList(sessions=found["sessions"], next_after=found["next_after"])

    @strawberry.field(description="A simulation job's status, progress and result.")
    async def simulation(self, info: Info, job_id: str) -> SimulationJob:
        return SimulationJob.of(await call(use_cases.get_simulation(services(info), job_id)))

    @strawberry.field(description="The service is up, and which storage it uses.")
    def health(self, info: Info) -> Health:
        svc = services(info)
        runner = svc.simulations.backend if svc.simulations is not None else "embedded"
        return Health(status="ok", storage=svc.settings.storage, simulations=runner)
