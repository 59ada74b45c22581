"""GraphQL mutations: the same use cases as REST (open a table, send a command, undo, simulate), with typed inputs.

The JSON-argument mutations of API 1.0 (createSession, postCommand, startSimulation) still work, deprecated; each
typed one takes the same values, checked against the same schemas.
"""

from __future__ import annotations

from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from services import use_cases
from services.api.graphql.context import call, services, token
from services.api.graphql.generated import Long, builder, to_json, typed_input
from services.api.graphql.types import CommandResultType, SessionCreatedType, SimulationJobType
from services.contract.model import model
from shared_rules.state import Hero, RuleOptions

_IDEMPOTENCY = "a retry with the same key is answered with the first result and applied once"
_EXPECTED = "apply only if the table is still at this version (else a stale-version error)"
HeroInput = typed_input(Hero)
RuleOptionsInput = typed_input(RuleOptions)
CommandInput = builder().command_input()
Pack = builder().enum(model().enums["Pack"])
TownSize = builder().enum(model().enums["TownSize"])
_REMOVED = "Removed in API 2.0."


def _written(written: use_cases.Written) -> dict[str, Any]:
    return {**written.body, "replayed": written.replayed}


def _simulation_body(heroes: Any, size: Any, trials: int, seed: int | None, options: Any) -> dict[str, Any]:
    return {"heroes": to_json(heroes), "size": to_json(size), "trials": trials, "seed": seed,
            "options": to_json(options) if options is not strawberry.UNSET else None}


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Open a table: a posse of 1-6 heroes, rule options, an optional seed and "
                                     "content pack. Returns the join code and the table token (shown once).",
                         graphql_type=SessionCreatedType)
    async def open_table(
        self,
        info: Info,
        heroes: list[HeroInput],  # type: ignore[valid-type]
        options: RuleOptionsInput | None = None,  # type: ignore[valid-type]
        seed: Long | None = None,
        pack: Pack | None = None,  # type: ignore[valid-type]
    ) -> Any:
        body = {"heroes": to_json(heroes), "options": to_json(options), "seed": seed, "pack": to_json(pack)}
        return await call(use_cases.create_session(services(info), body))

    @strawberry.mutation(description="Apply one engine command: set one member of `command`, e.g. "
                                     "{rollHazard: {dice: [[3, 5]]}} or {choose: {option: \"pay\"}}.",
                         graphql_type=CommandResultType)
    async def send_command(
        self,
        info: Info,
        session_id: str,
        command: CommandInput,  # type: ignore[valid-type]
        expected_version: Annotated[int | None, strawberry.argument(description=_EXPECTED)] = None,
        idempotency_key: Annotated[str | None, strawberry.argument(description=_IDEMPOTENCY)] = None,
    ) -> Any:
        return _written(await call(use_cases.submit_command(
            services(info), session_id, token(info), to_json(command), expected_version=expected_version,
            idempotency_key=idempotency_key)))

    @strawberry.mutation(description="Undo the last `steps` versions exactly, written as a new version.",
                         graphql_type=CommandResultType)
    async def undo(
        self,
        info: Info,
        session_id: str,
        steps: int = 1,
        expected_version: Annotated[int | None, strawberry.argument(description=_EXPECTED)] = None,
        idempotency_key: Annotated[str | None, strawberry.argument(description=_IDEMPOTENCY)] = None,
    ) -> Any:
        return _written(await call(use_cases.undo(services(info), session_id, token(info), {"steps": steps},
                                                  expected_version=expected_version,
                                                  idempotency_key=idempotency_key)))

    @strawberry.mutation(description="Start a bulk simulation of the road to a small, medium or large town.",
                         graphql_type=SimulationJobType)
    async def run_simulation(
        self,
        info: Info,
        heroes: list[HeroInput],  # type: ignore[valid-type]
        size: TownSize,  # type: ignore[valid-type]
        trials: int,
        seed: Long | None = None,
        options: RuleOptionsInput | None = None,  # type: ignore[valid-type]
    ) -> Any:
        body = _simulation_body(heroes, size, trials, seed, options)
        return await call(use_cases.start_simulation(services(info), body))

    # ---- API 1.0: JSON arguments ----------------------------------------------------------------------------

    @strawberry.mutation(description="Open a table from JSON hero sheets.", graphql_type=SessionCreatedType,
                         deprecation_reason=f"Use `openTable`: typed HeroInput and RuleOptionsInput. {_REMOVED}")
    async def create_session(
        self, info: Info, heroes: JSON, options: JSON | None = None, seed: Long | None = None, pack: str | None = None
    ) -> Any:
        body = {"heroes": heroes, "options": options, "seed": seed, "pack": pack}
        return await call(use_cases.create_session(services(info), body))

    @strawberry.mutation(description="Apply a command given as JSON, e.g. {type: \"roll_hazard\", dice: [[3, 5]]}.",
                         graphql_type=CommandResultType,
                         deprecation_reason=f"Use `sendCommand`: the typed @oneOf CommandInput. {_REMOVED}")
    async def post_command(
        self,
        info: Info,
        session_id: str,
        command: JSON,
        expected_version: Annotated[int | None, strawberry.argument(description=_EXPECTED)] = None,
        idempotency_key: Annotated[str | None, strawberry.argument(description=_IDEMPOTENCY)] = None,
    ) -> Any:
        return _written(await call(use_cases.submit_command(
            services(info), session_id, token(info), command, expected_version=expected_version,
            idempotency_key=idempotency_key)))

    @strawberry.mutation(description="Start a simulation from JSON hero sheets.", graphql_type=SimulationJobType,
                         deprecation_reason=f"Use `runSimulation`: typed heroes, size and options. {_REMOVED}")
    async def start_simulation(
        self, info: Info, heroes: JSON, size: str, trials: int, seed: Long | None = None, options: JSON | None = None
    ) -> Any:
        body = {"heroes": heroes, "size": size, "trials": trials, "seed": seed, "options": options}
        return await call(use_cases.start_simulation(services(info), body))
