"""OpenAPI documentation of each REST operation: request and response schemas (our components), examples, errors.

litestar generates paths, parameters and operation ids from the handlers; `documented()` gives a handler an
Operation class that replaces the generated request body and responses with ours, so every error is documented
as our problem+json schema (not litestar's default 400 schema).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any

from litestar.openapi.spec import (
    Example,
    OpenAPIHeader,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Reference,
    RequestBody,
    Schema,
)

from services.api.errors import PROBLEM_JSON, problem_for
from services.api.rest.schemas import REF
from shared_rules.codec import encode, encode_state
from shared_rules.commands import (
    Activate,
    Attack,
    CastSpell,
    HeroHit,
    HoldBackTheDarkness,
    RollHazard,
    SheetEntry,
    SpellCard,
    StartAdventure,
)
from shared_rules.engine import new_session
from shared_rules.state import Hero, Skills, SpaceMark, TrackSpace

JSON = "application/json"


class _Null(Enum):
    """litestar drops None members when it serializes the document; an Enum whose value is None survives."""

    NULL = None


def _nulls_kept(value: Any) -> Any:
    if value is None:
        return _Null.NULL
    if isinstance(value, dict):
        return {key: _nulls_kept(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_nulls_kept(item) for item in value]
    return value


def _example(value: Any) -> dict[str, Example | Reference]:
    return {"example": Example(value=_nulls_kept(value))}


def _examples(values: dict[str, Any]) -> dict[str, Example | Reference]:
    return {name: Example(value=_nulls_kept(value)) for name, value in values.items()}

ERROR_MEANINGS = {
    401: "No credentials: send `Authorization: Bearer <token>` (problem type `unauthenticated`).",
    403: "The token does not open this table (`forbidden`).",
    404: "No such table or job (`not-found`).",
    409: "Not allowed now (`illegal-command`, names the rule) or a stale `expected_version` (`stale-version`, "
         "with `current_version`).",
    422: "Malformed: invalid JSON, wrong types, unknown fields or command types, impossible dice "
         "(`invalid-command`, names the field).",
}


def _example_problem(status: int) -> dict[str, Any]:
    from services.store import StaleVersion
    from services.use_cases import Forbidden, NotFound, Unauthenticated
    from shared_rules.errors import IllegalCommand, InvalidCommand

    samples: dict[int, Exception] = {
        401: Unauthenticated("Authorization: send 'Bearer <table token>'", field="Authorization"),
        403: Forbidden("this token does not open session 'K7QX2M'", field="Authorization"),
        404: NotFound("session 'K7QX2M' does not exist", field="session_id"),
        409: IllegalCommand("'arrive' is not allowed in phase 'travel': the posse arrives once every hazard is "
                            "resolved (FT-TRAVEL-04)", field="type", rule="FT-TRAVEL-04"),
        422: InvalidCommand("dice[0][1]: a d36 die cannot show 7 (faces 1-6) for 'Travel Hazard 1 of 2'",
                            field="dice[0][1]", rule="FT-DICE-01"),
    }
    example = problem_for(samples[status]).body()
    if status == 409:
        stale = problem_for(StaleVersion(5, 3, "K7QX2M")).body()
        return {"illegal": example, "stale": stale}
    return {"problem": example}


def _problem(status: int) -> OpenAPIResponse:
    headers: dict[str, OpenAPIHeader | Reference] | None = None
    if status == 401:
        headers = {"WWW-Authenticate": OpenAPIHeader(schema=Schema(type=OpenAPIType.STRING), required=True,
                                                     description='the challenge: Bearer realm="brimstone"')}
    examples: dict[str, Example | Reference] = {
        name: Example(value=_nulls_kept(value)) for name, value in _example_problem(status).items()}
    return OpenAPIResponse(
        description=ERROR_MEANINGS[status],
        content={PROBLEM_JSON: OpenAPIMediaType(schema=Reference(ref=REF + "Problem"), examples=examples)},
        headers=headers,
    )


def documented(
    *,
    status: int,
    response: str,
    description: str,
    request: str | None = None,
    request_required: bool = True,
    request_example: Any = None,
    request_examples: dict[str, Any] | None = None,
    example: Any = None,
    errors: tuple[int, ...] = (),
    location: bool = False,
) -> type[Operation]:
    """An Operation class documenting one handler with our schemas, examples and problem responses."""

    @dataclass
    class DocumentedOperation(Operation):
        def __post_init__(self) -> None:
            if request is not None:
                self.request_body = RequestBody(
                    content={JSON: OpenAPIMediaType(
                        schema=Reference(ref=REF + request),
                        examples=_examples(request_examples) if request_examples is not None
                        else _example(request_example) if request_example is not None else None,
                    )},
                    required=request_required,
                )
            headers: dict[str, OpenAPIHeader | Reference] | None = None
            if location:
                headers = {"Location": OpenAPIHeader(schema=Schema(type=OpenAPIType.STRING), required=True,
                                                     description="where to read the new resource")}
            responses: dict[str, OpenAPIResponse | Reference] = {
                str(status): OpenAPIResponse(
                    description=description,
                    content={JSON: OpenAPIMediaType(
                        schema=Reference(ref=REF + response),
                        examples=_example(example) if example is not None else None,
                    )},
                    headers=headers,
                )
            }
            for code in sorted(errors):
                responses[str(code)] = _problem(code)
            self.responses = responses

    return DocumentedOperation


# ---- examples (built from the engine's values, so they always fit the generated schemas) --------------------


@cache
def example_hero() -> dict[str, Any]:
    hero = Hero("hanzo", "Hanzo", "Samurai Warrior", skills=Skills(3, 2, 3, 4, 2, 3), gold=150)
    data: dict[str, Any] = encode(hero)
    keep = ("id", "name", "hero_class", "skills", "gold")
    return {key: data[key] for key in keep}


@cache
def example_state() -> dict[str, Any]:
    hero = Hero("hanzo", "Hanzo", "Samurai Warrior", skills=Skills(3, 2, 3, 4, 2, 3), gold=150)
    return encode_state(new_session([hero], seed=7))


EXAMPLE_EVENT: dict[str, Any] = {"type": "hazard_count", "text": "2 Travel Hazards on the road to a Medium Town", "hero": None,
                 "rule": "FT-TRAVEL-02", "changes": [], "roll": None}
EXAMPLE_LEGAL = [
    {"type": "choose_town_size", "prompt": "", "hero": None, "options": ["small", "medium", "large"],
     "note": "Small: 1-3 on a D6 per hero adds a hazard; Medium: 1 each; Large: 1 each + 1-3"},
    {"type": "adjust", "prompt": "", "hero": None, "options": ["hanzo"], "note": "record what the physical game "
     "changed"},
]


@cache
def example_commands() -> dict[str, Any]:
    """One request per kind of table move, built from the engine's command values (they fit the schema)."""
    layout = tuple(TrackSpace(n, 3 if n < 3 else 2 if n < 5 else 1, SpaceMark.BLOOD_SPATTER if n == 2 else
                              SpaceMark.NONE) for n in range(8))  # fmt: skip
    commands = {
        "roll_hazard": RollHazard(dice=((3, 5),)),
        "start_adventure": StartAdventure("hanzo", layout=layout, sheets=(SheetEntry("hanzo", initiative=4,
                                                                                      max_fury=3),)),
        "hold_back_the_darkness": HoldBackTheDarkness(dice=((4, 2),)),
        "activate": Activate("hanzo", dice=((3,),)),
        "attack": Attack("hanzo", hits=(HeroHit("oni-1", 5),)),
        "cast_spell": CastSpell("akane", "Fire Lash", SpellCard(cost=1, casting=7, element="fire")),
    }
    return {name: encode(command) for name, command in commands.items()}


def example_view(**extra: Any) -> dict[str, Any]:
    return {**extra, "session_id": "K7QX2M", "version": 0, "state": example_state(), "pending": None,
            "legal_commands": EXAMPLE_LEGAL}
