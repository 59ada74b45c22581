"""The problem catalogue, served where problem `type`s point: GET /problems/{slug} (and the whole list)."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.params import Parameter
from litestar.response.base import ASGIResponse

from services.api.rest.common import PUBLIC, answer
from services.api.rest.docs import documented
from services.contract.problems import BY_SLUG, CATALOGUE, page
from services.use_cases import NotFound


class ProblemsController(Controller):
    path = "/problems"
    tags = ["problems"]  # noqa: RUF012 - litestar reads a class attribute

    @get(
        "/{slug:str}",
        operation_id="getProblemType",
        security=PUBLIC,
        summary="Explain a problem type",
        operation_class=documented(public=True, status=200, response="ProblemExplanation", errors=(404, 422),
                                   description="What the problem means, an example, and what a client should do.",
                                   example=page(BY_SLUG["illegal-command"])),
    )
    async def problem_type(
        self, slug: Annotated[str, Parameter(description="the last part of a problem's `type`",
                                             max_length=64, pattern="^[a-z-]+$")]
    ) -> ASGIResponse:
        """A problem type's page: every `type` a problem carries is this URL."""
        found = BY_SLUG.get(slug)
        if found is None:
            raise NotFound(f"no problem type {slug!r}; known: {sorted(BY_SLUG)}", field="slug")
        return answer(page(found))

    @get(
        "/",
        operation_id="listProblemTypes",
        security=PUBLIC,
        summary="The problem catalogue",
        operation_class=documented(public=True, status=200, response="ProblemCatalogue", description="Every problem type."),
    )
    async def catalogue(self) -> ASGIResponse:
        """Every problem type the service answers with."""
        return answer({"problems": [page(problem) for problem in CATALOGUE]})
