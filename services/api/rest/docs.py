"""OpenAPI documentation of each REST operation: request and response schemas (our components), examples, headers
and every status an operation can answer with, as our problem+json schema.

litestar generates paths, parameters and operation ids from the handlers; `documented()` gives a handler an
Operation class that replaces the generated request body and responses with ours. The shared responses (problems,
304) and headers are components (`RESPONSES`, `HEADERS`), put into the document by `create_app`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
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
    Parameter,
    Reference,
    RequestBody,
    Schema,
)

from services.api.errors import PROBLEM_JSON
from services.contract.problems import BY_SLUG
from services.contract.refs import REF

JSON = "application/json"
EVENT_STREAM = "text/event-stream"


class _Null(Enum):
    """litestar drops None members when it serializes the document; an Enum whose value is None survives."""

    NULL = None


def nulls_kept(value: Any) -> Any:
    """A JSON value whose nulls survive litestar's serializer (examples and schemas with null members)."""
    if value is None:
        return _Null.NULL
    if isinstance(value, dict):
        return {key: nulls_kept(item) for key, item in value.items()}
    if isinstance(value, list):
        return [nulls_kept(item) for item in value]
    return value


def _example(value: Any) -> dict[str, Example | Reference]:
    return {"example": Example(value=nulls_kept(value))}


def _examples(values: dict[str, Any]) -> dict[str, Example | Reference]:
    return {name: Example(value=nulls_kept(value)) for name, value in values.items()}


# ---- shared headers and responses (components) -------------------------------------------------------------------

HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {"description": "The table's version as a strong entity tag, e.g. \"7\" (a simulation job: a digest of "
                            "its body). Send it back in If-None-Match to read only if it changed (304 otherwise), or "
                            "in If-Match to write only to that version (412 otherwise).",
             "schema": {"type": "string"}},
    "Location": {"description": "Where to read the new resource.", "required": True, "schema": {"type": "string"}},
    "Link": {"description": "RFC 8288 links: `rel=\"next\"` is the next page of the log (absent on the last page), "
                            "`rel=\"first\"` its first page.", "schema": {"type": "string"}},
    "Idempotent-Replayed": {"description": "`true` when the answer is the first response to an earlier request with "
                                           "the same Idempotency-Key (nothing was applied again); absent otherwise.",
                            "schema": {"type": "string", "enum": ["true"]}},
    "Retry-After": {"description": "Seconds to wait before retrying.", "schema": {"type": "integer", "minimum": 0}},
    "RateLimit": {"description": "What is left of the client's quota (draft-ietf-httpapi-ratelimit-headers), e.g. "
                                 "`\"default\";r=0;t=2`: 0 requests left, window resets in 2 s.",
                  "schema": {"type": "string"}},
    "RateLimit-Policy": {"description": "The quota that applies, e.g. `\"default\";q=20;w=1` (20 requests per second).",
                         "schema": {"type": "string"}},
    "WWW-Authenticate": {"description": 'The challenge: Bearer realm="brimstone".', "required": True,
                         "schema": {"type": "string"}},
    "Allow": {"description": "The methods the path takes.", "required": True, "schema": {"type": "string"}},
}

# status -> (component name, the problem types it can carry, extra headers)
PROBLEM_RESPONSES: dict[int, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    401: ("Unauthenticated", ("unauthenticated",), ("WWW-Authenticate",)),
    403: ("Forbidden", ("forbidden",), ()),
    404: ("NotFound", ("not-found",), ()),
    405: ("MethodNotAllowed", ("method-not-allowed",), ("Allow",)),
    409: ("Conflict", ("illegal-command", "stale-version", "archived", "paused"), ()),
    412: ("PreconditionFailed", ("precondition-failed",), ("ETag",)),
    413: ("ContentTooLarge", ("body-too-large",), ()),
    415: ("UnsupportedMediaType", ("unsupported-media-type",), ()),
    422: ("Unprocessable", ("invalid-command", "idempotency-key-reused"), ()),
    429: ("TooManyRequests", ("rate-limited",), ("Retry-After", "RateLimit", "RateLimit-Policy")),
    500: ("InternalError", ("internal-error",), ()),
    503: ("Unavailable", ("store-unavailable",), ("Retry-After",)),
}
ANY_OPERATION = (405, 429, 500, 503)  # a method the path lacks, rate limits, a failure, storage unreachable
WITH_BODY = (413, 415, 422)  # an operation that reads a JSON body


def _header_ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/headers/{name}"}


def response_components() -> dict[str, Any]:
    """components.responses: one per problem status (its meaning, examples of each problem type) and 304."""
    out: dict[str, Any] = {}
    for _status, (name, slugs, headers) in sorted(PROBLEM_RESPONSES.items()):
        kinds = [BY_SLUG[slug] for slug in slugs]
        description = " Or: ".join(f"{kind.title} (`{kind.uri}`): {kind.description}" for kind in kinds)
        media: dict[str, Any] = {"schema": {"$ref": REF + "Problem"},
                                 "examples": {kind.slug: {"summary": kind.title, "value": kind.example()}
                                              for kind in kinds}}
        response: dict[str, Any] = {"description": description, "content": {PROBLEM_JSON: media}}
        if headers:
            response["headers"] = {header: _header_ref(header) for header in headers}
        out[name] = response
    out["NotModified"] = {"description": "Not modified: the ETag sent in If-None-Match is still current; no body.",
                          "headers": {"ETag": _header_ref("ETag")}}
    return out


def _problem_ref(status: int) -> Reference:
    return Reference(ref=f"#/components/responses/{PROBLEM_RESPONSES[status][0]}")


def documented(
    *,
    status: int,
    response: str,
    description: str,
    request: str | None = None,
    request_required: bool = True,
    request_example: Any = None,
    request_examples: dict[str, Any] | Callable[[], dict[str, Any]] | None = None,
    example: Any = None,
    errors: tuple[int, ...] = (),
    headers: tuple[str, ...] = (),
    not_modified: bool = False,
    media_type: str = JSON,
    public: bool = False,
) -> type[Operation]:
    """An Operation class documenting one handler with our schemas, examples, headers and problem responses.

    Every operation also lists 405, 429, 500 and 503; one with a request body 413, 415 and 422; a read that takes
    If-None-Match 304. Optional parameters are documented as absent-or-a-value (never null), so a generated client
    leaves them out instead of sending an empty header. `public`: no credentials (`security: []`, which litestar
    would drop), so a generated client calls it without a token. An example may be given as a function of no
    arguments: it is called when the document is built (its first request), not when the handlers are defined.
    """

    def complete(self: Operation) -> None:
        request_example_, request_examples_, example_ = (
            value() if callable(value) else value for value in (request_example, request_examples, example))
        if request is not None:
            self.request_body = RequestBody(
                content={JSON: OpenAPIMediaType(
                    schema=Reference(ref=REF + request),
                    examples=_examples(request_examples_) if request_examples_ is not None
                    else _example(request_example_) if request_example_ is not None else None,
                )},
                required=request_required,
            )
        success_headers: dict[str, OpenAPIHeader | Reference] = {
            name: Reference(ref=f"#/components/headers/{name}") for name in headers}
        media = OpenAPIMediaType(schema=Reference(ref=REF + response),
                                 examples=_example(example_) if example_ is not None else None)
        responses: dict[str, OpenAPIResponse | Reference] = {
            str(status): OpenAPIResponse(description=description, content={media_type: media},
                                         headers=success_headers or None),
        }
        if not_modified:
            responses["304"] = Reference(ref="#/components/responses/NotModified")
        codes = {*errors, *ANY_OPERATION, *(WITH_BODY if request is not None else ())}
        for code in sorted(codes):
            responses[str(code)] = _problem_ref(code)
        self.responses = responses
        if public:
            self.security = []
        for parameter in self.parameters or []:
            if not isinstance(parameter, Parameter):
                continue
            if isinstance(parameter.schema, Schema) and not parameter.required:
                parameter.schema = _without_null(parameter.schema)
            if isinstance(parameter.schema, Schema):
                for bound in ("minimum", "maximum"):  # litestar writes ge=1 as 1.0
                    value = getattr(parameter.schema, bound)
                    if isinstance(value, float) and value.is_integer():
                        setattr(parameter.schema, bound, int(value))

    # a plain subclass: making each handler's class a dataclass of its own cost ~4 ms of every start per handler
    return type("DocumentedOperation", (_DocumentedOperation,), {"complete": staticmethod(complete),
                                                                  "__module__": __name__})


@dataclass
class _DocumentedOperation(Operation):
    """An Operation that litestar builds for a handler, then completed with that handler's `complete` (set by
    `documented()` on a subclass)."""

    def __post_init__(self) -> None:
        type(self).complete(self)  # type: ignore[attr-defined]


def _without_null(schema: Schema) -> Schema:
    """`X | None` as a parameter's schema is "absent or X": a generated client must not send an empty value."""
    members = schema.one_of or []
    kept = [m for m in members if not (isinstance(m, Schema) and m.type == OpenAPIType.NULL)]
    if schema.one_of and len(kept) == 1 and isinstance(kept[0], Schema):
        outer = {f.name: getattr(schema, f.name) for f in fields(schema)
                 if f.name != "one_of" and getattr(schema, f.name) is not None}  # the limits sit on the outer one
        return replace(kept[0], **outer)
    return schema


# ---- examples (built from the engine's values, so they always fit the generated schemas; with the document, on
# its first request: the engine is not imported at start) ------------------------------------------------------


@cache
def example_hero() -> dict[str, Any]:
    from shared_rules.codec import encode
    from shared_rules.state import Hero, Skills

    hero = Hero("hanzo", "Hanzo", "Samurai Warrior", skills=Skills(3, 2, 3, 4, 2, 3), gold=150)
    data: dict[str, Any] = encode(hero)
    keep = ("id", "name", "hero_class", "skills", "gold")
    return {key: data[key] for key in keep}


@cache
def example_state() -> dict[str, Any]:
    from services.contract.public import public_state
    from shared_rules.codec import encode_state
    from shared_rules.engine import new_session
    from shared_rules.state import Hero, Skills

    hero = Hero("hanzo", "Hanzo", "Samurai Warrior", skills=Skills(3, 2, 3, 4, 2, 3), gold=150)
    return public_state(encode_state(new_session([hero], seed=7)))


EXAMPLE_EVENT: dict[str, Any] = {"type": "hazard_count", "text": "2 Travel Hazards on the road to a Medium Town",
                                 "hero": None, "rule": "FT-TRAVEL-02", "changes": [], "roll": None,
                                 "bandit": None, "facts": [{"name": "count", "value": 2},
                                                           {"name": "size", "value": "medium"}]}
EXAMPLE_LEGAL = [
    {"type": "choose_town_size", "prompt": "", "hero": None, "options": ["small", "medium", "large"],
     "note": "Small: 1-3 on a D6 per hero adds a hazard; Medium: 1 each; Large: 1 each + 1-3"},
    {"type": "adjust", "prompt": "", "hero": None, "options": ["hanzo"], "note": "record what the physical game "
     "changed"},
]


@cache
def example_commands() -> dict[str, Any]:
    """One request per kind of table move, built from the engine's command values (they fit the schema)."""
    from shared_rules.codec import encode
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
    from shared_rules.state import SpaceMark, TrackSpace

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
