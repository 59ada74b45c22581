"""GraphQL for hosting an event: the same use cases as REST (services/hosting.py), with the types generated from
the same dataclasses (services/contract/hosting.py)."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

import strawberry
from strawberry.types import Info

from services import hosting
from services.api.graphql.context import call, services, stream, token
from services.api.graphql.generated import builder, to_json, typed, typed_input
from services.contract import hosting as records
from services.contract.model import model
from shared_rules.state import Hero, RuleOptions

EventBoardType = typed(records.EventBoard)
EventCreatedType = typed(records.EventCreated)
EventListType = typed(records.EventList)
HostTokenType = typed(records.HostToken)
TablesCreatedType = typed(records.TablesCreated)
TableTokenType = typed(records.TableToken)
TableStandingType = typed(records.TableStanding)
HostCallStandingType = typed(records.HostCallStanding)
TableSummaryType = typed(records.TableSummary)
EventExportType = typed(records.EventExport)
TokenRole = builder().enum(model().enums["TokenRole"])
HeroInput = typed_input(Hero)
RuleOptionsInput = typed_input(RuleOptions)
Pack = builder().enum(model().enums["Pack"])


def _server(info: Info) -> str:
    request = info.context.get("request")
    return str(request.base_url) if request is not None else ""


@strawberry.type
class HostingQuery:
    @strawberry.field(description="The event and every table at a glance (its host token, or the admin's).",
                      graphql_type=EventBoardType)
    async def event(self, info: Info, event_id: str) -> Any:
        return await call(hosting.board(services(info), event_id, token(info)))

    @strawberry.field(description="Event codes (the deployment's admin token).", graphql_type=EventListType)
    async def hosted_events(self, info: Info, limit: int = 100, after: str | None = None) -> Any:
        return await call(hosting.list_events(services(info), token(info), limit=limit, after=after))

    @strawberry.field(description="After the event: every table's log and a readable summary of its posse.",
                      graphql_type=EventExportType)
    async def event_export(self, info: Info, event_id: str) -> Any:
        return await call(hosting.export_event(services(info), event_id, token(info)))


@strawberry.type
class HostingMutation:
    @strawberry.mutation(description="Open an event (the admin token); its host token is shown once.",
                         graphql_type=EventCreatedType)
    async def open_event(self, info: Info, name: str) -> Any:
        return await call(hosting.create_event(services(info), token(info), {"name": name}))

    @strawberry.mutation(description="Open `count` tables for the event, each with the posse given; every table's "
                                     "player token (shown once) and join link.", graphql_type=TablesCreatedType)
    async def add_event_tables(
        self,
        info: Info,
        event_id: str,
        count: int,
        heroes: list[HeroInput],  # type: ignore[valid-type]
        options: RuleOptionsInput | None = None,  # type: ignore[valid-type]
        pack: Pack | None = None,  # type: ignore[valid-type]
    ) -> Any:
        body = {"count": count, "heroes": to_json(heroes), "options": to_json(options), "pack": to_json(pack)}
        return await call(hosting.add_tables(services(info), event_id, token(info),
                                             {k: v for k, v in body.items() if v is not None}, _server(info)))

    @strawberry.mutation(description="A new host token for the event; the old one stops working.",
                         graphql_type=HostTokenType)
    async def rotate_host_token(self, info: Info, event_id: str) -> Any:
        return await call(hosting.rotate_host_token(services(info), event_id, token(info)))

    @strawberry.mutation(description="A new player token (the old one stops working) or the spectator token "
                                     "(read-only) for a table: the table or its event's host.",
                         graphql_type=TableTokenType)
    async def issue_token(self, info: Info, session_id: str, role: TokenRole) -> Any:  # type: ignore[valid-type]
        return await call(hosting.issue_token(services(info), session_id, token(info), to_json(role), _server(info)))

    @strawberry.mutation(description="Revoke the spectator token (the table or its host) or the player token "
                                     "(the host). True when done.")
    async def revoke_token(self, info: Info, session_id: str, role: TokenRole) -> bool:  # type: ignore[valid-type]
        await call(hosting.revoke_token(services(info), session_id, token(info), to_json(role)))
        return True

    @strawberry.mutation(description="Pause a table (its event's host): readable, not writable until resumed.",
                         graphql_type=TableStandingType)
    async def pause_table(self, info: Info, session_id: str) -> Any:
        return await call(hosting.pause_table(services(info), session_id, token(info), True))

    @strawberry.mutation(description="Resume a paused table (its event's host).", graphql_type=TableStandingType)
    async def resume_table(self, info: Info, session_id: str) -> Any:
        return await call(hosting.pause_table(services(info), session_id, token(info), False))

    @strawberry.mutation(description="Close a table (its event's host, or the table): archived, readable and "
                                     "never written again.", graphql_type=TableStandingType)
    async def close_table(self, info: Info, session_id: str) -> Any:
        return await call(hosting.close_table(services(info), session_id, token(info)))

    @strawberry.mutation(description="The table (its player token) calls its event's host over, with a few words of "
                                     "why: shown on the host's dashboard and as an alert until cleared.",
                         graphql_type=HostCallStandingType)
    async def call_host(self, info: Info, session_id: str, reason: str = "") -> Any:
        return await call(hosting.call_host(services(info), session_id, token(info), {"reason": reason}))

    @strawberry.mutation(description="Clear the table's call for its host (the host, the admin or the table).",
                         graphql_type=HostCallStandingType)
    async def clear_host_call(self, info: Info, session_id: str) -> Any:
        return await call(hosting.clear_host_call(services(info), session_id, token(info)))


@strawberry.type
class HostingSubscription:
    @strawberry.subscription(description="Every table of the event at a glance, once, then again whenever it "
                                         "changes or joins the event (its host token, or the admin's).",
                             graphql_type=TableSummaryType)
    async def event_changes(self, info: Info, event_id: str) -> AsyncGenerator[Any, None]:
        async for summary in stream(hosting.watch_event(services(info), event_id, token(info))):
            yield summary
