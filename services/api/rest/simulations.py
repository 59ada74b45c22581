"""REST door for bulk simulations and the health check."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, get, post
from litestar.datastructures import State
from litestar.params import HeaderParameter, Parameter
from litestar.response.base import ASGIResponse

from services import use_cases
from services.api.rest.common import PUBLIC, answer, body_etag, json_body, read_answer, services
from services.api.rest.docs import documented, example_hero

_JOB_EXAMPLE = {"job_id": "3f9a1c0d5e7b2a64", "status": "queued", "progress": 0.0, "trials": 20000, "chunks": 8,
                "seed": 7, "size": "large", "backend": "rq", "result": None, "error": None}


class SimulationsController(Controller):
    path = "/v1/simulations"
    tags = ["simulations"]  # noqa: RUF012 - litestar reads a class attribute

    @post(
        "/",
        operation_id="startSimulation",
        security=PUBLIC,
        summary="Start a bulk simulation",
        status_code=202,
        operation_class=documented(public=True,
            status=202, response="SimulationJob", request="SimulationRequest",
            description="Accepted: poll the job at `Location` for progress and, when finished, the distribution.",
            request_example=lambda: {"heroes": [example_hero()], "size": "large", "trials": 20000, "seed": 7},
            example=_JOB_EXAMPLE, headers=("Location",), errors=(409,),
        ),
    )
    async def start_simulation(self, request: Request[Any, Any, Any], state: State) -> ASGIResponse:
        """Play `trials` journeys of a posse to a Small/Medium/Large town, split over the workers."""
        job = await use_cases.start_simulation(services(state), await json_body(request))
        return answer(job, 202, {"Location": f"/v1/simulations/{job['job_id']}"})

    @get(
        "/{job_id:str}",
        operation_id="getSimulation",
        security=PUBLIC,
        summary="Poll a simulation",
        operation_class=documented(public=True,
            status=200, response="SimulationJob", errors=(404, 422), headers=("ETag",), not_modified=True,
            description="Status, progress 0..1 and, once finished, `result` (hazards met, every D36 result's "
                        "frequency, towns reached, and per hero and posse the distributions of XP, Gold, Wounds...).",
            example=_JOB_EXAMPLE | {"status": "running", "progress": 0.375},
        ),
    )
    async def get_simulation(
        self, state: State, job_id: Annotated[str, Parameter(max_length=100, description="the job id")],
        if_none_match: Annotated[str | None, HeaderParameter(
            name="If-None-Match", required=False, max_length=1000,
            description="the ETag you hold: unchanged, the answer is 304 without a body")] = None,
    ) -> ASGIResponse:
        """A simulation's status, progress and result."""
        job = await use_cases.get_simulation(services(state), job_id)
        return read_answer(job, body_etag(job), if_none_match)


class HealthController(Controller):
    path = "/v1/health"
    tags = ["service"]  # noqa: RUF012 - litestar reads a class attribute

    @get(
        "/",
        operation_id="getHealth",
        security=PUBLIC,
        summary="Is the service up",
        operation_class=documented(public=True, status=200, response="Health", description="Up, and which storage it uses.",
                                   example={"status": "ok", "storage": "sqlite", "simulations": "embedded"}),
    )
    async def health(self, state: State) -> ASGIResponse:
        """Up, with the storage in use (redis or sqlite) and where simulations run."""
        svc = services(state)
        runner = svc.simulations.backend if svc.simulations is not None else "embedded"
        return answer({"status": "ok", "storage": svc.settings.storage, "simulations": runner})
