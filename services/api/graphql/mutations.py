"""GraphQL mutations: the same use cases as REST (create, command, undo, simulation)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from services import use_cases
from services.api.graphql.context import call, services, token
from services.api.graphql.types import CommandResult, Long, SessionCreated, SimulationJob

_IDEMPOTENCY = "a retry with the same key is answered with the first result and applied once"
_EXPECTED = "apply only if the table is still at this version (else a stale-version error)"


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Open a table: a posse of 1-6 heroes (JSON hero sheets), rule options, an "
                                     "optional seed and content pack. Returns the join code and the table token.")
    async def create_session(
        self,
        info: Info,
        heroes: JSON,
        options: JSON | None = None,
        seed: Long | None = None,
        pack: str | None = None,
    ) -> SessionCreated:
        body = {"heroes": heroes, "options": options, "seed": seed, "pack": pack}
        return SessionCreated.of(await call(use_cases.create_session(services(info), body)))

    @strawberry.mutation(description="Apply any engine command, e.g. {type: \"roll_hazard\", dice: [[3, 5]]}.")
    async def post_command(
        self,
        info: Info,
        session_id: str,
        command: JSON,
        expected_version: Annotated[int | None, strawberry.argument(description=_EXPECTED)] = None,
        idempotency_key: Annotated[str | None, strawberry.argument(description=_IDEMPOTENCY)] = None,
    ) -> CommandResult:
        written = await call(use_cases.submit_command(services(info), session_id, token(info), command,
                                                      expected_version=expected_version,
                                                      idempotency_key=idempotency_key))
        return CommandResult.of(written.body, written.replayed)

    @strawberry.mutation(description="Undo the last `steps` versions exactly, written as a new version.")
    async def undo(
        self,
        info: Info,
        session_id: str,
        steps: int = 1,
        expected_version: Annotated[int | None, strawberry.argument(description=_EXPECTED)] = None,
        idempotency_key: Annotated[str | None, strawberry.argument(description=_IDEMPOTENCY)] = None,
    ) -> CommandResult:
        written = await call(use_cases.undo(services(info), session_id, token(info), {"steps": steps},
                                            expected_version=expected_version, idempotency_key=idempotency_key))
        return CommandResult.of(written.body, written.replayed)

    @strawberry.mutation(description="Start a bulk simulation of the road to a small, medium or large town.")
    async def start_simulation(
        self,
        info: Info,
        heroes: JSON,
        size: str,
        trials: int,
        seed: Long | None = None,
        options: JSON | None = None,
    ) -> SimulationJob:
        body = {"heroes": heroes, "size": size, "trials": trials, "seed": seed, "options": options}
        return SimulationJob.of(await call(use_cases.start_simulation(services(info), body)))
