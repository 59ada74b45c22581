"""The GraphQL door's cost check runs before graphql-core validates or executes a document (issue 20): fragment
bombs, long fragment chains and cycles are refused with a coded error in milliseconds, every fragment's cost
computed once, and the documents real clients send (the phone app's, the docs', GraphiQL's introspection) pass.

Times are the check's own CPU time (`time.process_time`, the least of three runs), which a loaded machine does
not inflate the way it inflates wall time. The same documents over a real server, with /v1/health answering
meanwhile, are in tests/services/test_limits.py.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from graphql import DocumentNode, GraphQLError, get_introspection_query

from services.api.graphql import limits
from services.api.graphql.limits import Limits, check_document, check_query, check_text, graphql_limits
from services.api.graphql.schema import Schema, schema
from services.settings import Settings

BUDGET_S = 0.050  # the issue's bound: refused in under 50 ms of server time
EXTENSION_KEYS = {"code", "kind", "type", "title", "status", "detail", "field", "rule"}


def doubling(levels: int, on: str = "__Type", leaf: str = "name") -> str:
    """The hostile client's document: each fragment spreads the next twice (2^levels leaves once expanded)."""
    parts = ["query { __schema { types { ...F0 } } }" if on == "__Type" else "query { ...F0 }"]
    parts += [f"fragment F{i} on {on} {{ ...F{i + 1} ...F{i + 1} }}" for i in range(levels)]
    parts.append(f"fragment F{levels} on {on} {{ {leaf} }}")
    return " ".join(parts)


def chain(length: int) -> str:
    """Fragments that each spread the next once: the issue's "maximum recursion depth exceeded"."""
    parts = ["query { ...F0 }"] + [f"fragment F{i} on Query {{ ...F{i + 1} }}" for i in range(length)]
    parts.append(f"fragment F{length} on Query {{ health {{ status }} }}")
    return " ".join(parts)


CYCLE = "query { ...A } fragment A on Query { health { status } ...B } fragment B on Query { ...A }"
HOSTILE = {"doubling-20": doubling(20), "doubling-20-at-the-root": doubling(20, "Query", "health { status }"),
           "chain-400": chain(400), "cycle": CYCLE}


def cpu_time(call: Callable[[], Any]) -> tuple[float, Any]:
    """The least CPU time of three calls, and the last call's result."""
    best, result = float("inf"), None
    for _ in range(3):
        began = time.process_time()
        result = call()
        best = min(best, time.process_time() - began)
    return best, result


def coded(error: Any) -> dict[str, Any]:
    assert isinstance(error, GraphQLError), error
    extensions = error.extensions or {}
    assert set(extensions) >= EXTENSION_KEYS, extensions
    assert extensions["status"] == 400 and extensions["detail"] == error.message
    return extensions


def test_the_issue_documents_are_small() -> None:
    assert len(doubling(18)) < 900 and len(HOSTILE["doubling-20"]) < 900  # the issue's was 751 bytes at 18 levels


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_documents_are_refused_with_a_code_in_under_50_ms_of_cpu(name: str) -> None:
    spent, refused = cpu_time(lambda: check_query(HOSTILE[name], Limits()))
    extensions = coded(refused)
    expected = {"cycle": ("GRAPHQL_VALIDATION_FAILED", "fragment A"), "chain-400": ("QUERY_TOO_COSTLY", None)}
    code, field = expected.get(name, ("QUERY_TOO_COSTLY", "query"))
    assert extensions["code"] == code, extensions
    if field is not None:
        assert extensions["field"] == field
    assert spent < BUDGET_S, f"{name}: {spent * 1000:.1f} ms of CPU"


def test_the_hostile_documents_are_refused_by_the_text_scan_before_any_parser() -> None:
    for name, query in HOSTILE.items():
        assert check_text(query, Limits()) is not None, name


def test_each_fragment_is_costed_once_not_once_per_spread() -> None:
    """Past the text scan, the walk of the parsed document memoizes too: 40 levels (2^40 leaves expanded) is as
    quick as 4, and the cost saturates rather than growing numbers."""
    from graphql import parse

    quick, _ = cpu_time(lambda: check_document(parse(doubling(4)), Limits(max_cost=10)))
    spent, refused = cpu_time(lambda: check_document(parse(doubling(30)), Limits()))
    assert coded(refused)["code"] == "QUERY_TOO_COSTLY" and spent < BUDGET_S
    assert spent < 20 * quick + 0.01


def test_a_cycle_a_long_chain_and_depth_are_refused_by_the_walk_alone() -> None:
    """The parsed-document walk refuses them too (the text scan is only an early filter)."""
    from graphql import parse

    cycle = coded(check_document(parse(CYCLE), Limits()))
    assert cycle["code"] == "GRAPHQL_VALIDATION_FAILED" and "A -> B -> A" in cycle["detail"]
    assert coded(check_document(parse(chain(40)), Limits()))["limit"] == "MAX_FRAGMENT_NESTING"
    deep = "{ session(sessionId: \"x\") { " + "game { " * 13 + "step" + " }" * 13 + " } }"
    assert coded(check_document(parse(deep), Limits()))["limit"] == "BRIMSTONE_GRAPHQL_MAX_DEPTH"


def test_text_scan_skips_strings_comments_arguments_and_directives() -> None:
    """Braces and `...` inside strings, comments, argument values and after a directive are not selections or
    spreads: a document full of them is accepted, and a cycle hidden in a string is no cycle."""
    query = ('query Q($h: JSON = {a: {b: "{{{ ...A"}}) @x(y: "...B") { # ...A { {\n'
             '  health { status } ...A ... @include(if: true) { health { status } } ... on Query { health { status } }\n'
             '}\nfragment A on Query { health { status } s: health { status } }\n'
             'fragment B on Query { """ ...A { ...B """ health { status } }')
    assert check_text(query, Limits()) is None
    assert check_text("query { ...A } fragment A on Query { health { status } }", Limits(max_cost=1)) is None
    assert check_text("query { ...A ...A } fragment A on Query { ...B ...B } fragment B on Query { health }",
                      Limits(max_cost=5)) is not None  # 2 + 2 x (2) spreads expanded = 6


def test_too_long_and_too_deep_texts_are_refused_before_parsing() -> None:
    assert coded(check_query("{" * 1200 + "}" * 1200, Limits()))["limit"] == "BRIMSTONE_GRAPHQL_MAX_DEPTH"
    too_long = "{ health { status } }" + " " * Limits().max_chars
    assert coded(check_query(too_long, Limits()))["code"] == "QUERY_TOO_COSTLY"
    tokens = "{ health { " + "status " * 9000 + "} }"
    assert "tokens" in coded(check_query(tokens, Limits()))["detail"]


def test_repeating_one_field_is_bounded_before_graphql_core_compares_every_pair() -> None:
    repeated = "{ health { " + "status " * 17 + "} }"
    assert coded(check_query(repeated, Limits()))["limit"] == "MAX_SAME_FIELD"
    assert isinstance(check_query("{ health { " + "status " * 16 + "} }", Limits()), DocumentNode)


def test_root_fields_are_counted_through_fragments() -> None:
    """Eleven createSession mutations hidden in a fragment are still eleven root fields."""
    fields = " ".join(f'm{i}: createSession(heroes: [{{id: "a", name: "A"}}]) {{ sessionId }}' for i in range(11))
    refused = check_query(f"mutation {{ ...M }} fragment M on Mutation {{ {fields} }}", Limits())
    assert coded(refused)["limit"] == "BRIMSTONE_GRAPHQL_MAX_ROOT_FIELDS"


def test_the_documents_real_clients_send_pass() -> None:
    from mobile.client import QUERIES

    documents = dict(QUERIES)
    documents["docs"] = (Path(__file__).parents[1] / "clients" / "graphql" / "docs.graphql").read_text()
    documents["introspection"] = get_introspection_query(
        descriptions=True, specified_by_url=True, directive_is_repeatable=True, schema_description=True,
        input_value_deprecation=True)
    for name, query in documents.items():
        checked = check_query(query, Limits())
        assert isinstance(checked, DocumentNode), (name, checked)


class _Response:
    status_code: int | None = None


def _served() -> Schema:
    return Schema(query=schema.query, mutation=schema.mutation, subscription=schema.subscription,
                  config=schema.config, extensions=graphql_limits(Settings()))


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_served_schema_refuses_them_before_graphql_core_validates(name: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Through strawberry's whole request path: a 400 for HTTP, the coded error, validation never called."""
    import strawberry.schema.schema as strawberry_schema

    validated: list[object] = []
    original = strawberry_schema.validate_document

    def validate_document(*args: Any) -> Any:
        validated.append(args)
        return original(*args)

    monkeypatch.setattr(strawberry_schema, "validate_document", validate_document)
    served = _served()
    response = _Response()
    spent, result = cpu_time(lambda: asyncio.run(served.execute(HOSTILE[name],
                                                                context_value={"response": response})))
    assert result.data is None and len(result.errors) == 1
    coded(result.errors[0])
    assert response.status_code == 400 and not validated
    assert spent < BUDGET_S + 0.02, f"{name}: {spent * 1000:.1f} ms of CPU"  # + the asyncio loop's own start


def test_graphql_cores_own_refusals_get_the_same_shape() -> None:
    served = _served()
    cases = {"{ health { ": "GRAPHQL_PARSE_FAILED", "{ nope }": "GRAPHQL_VALIDATION_FAILED",
             "query($n: Int!) { sessions(limit: $n) { nextAfter } }": "GRAPHQL_VALIDATION_FAILED",
             "{ __schema { types { " + "fields { type { " * 8 + "name" + " } }" * 8 + " } } }": "QUERY_TOO_COSTLY"}
    for query, code in cases.items():
        response = _Response()
        result = asyncio.run(served.execute(query, context_value={"response": response}))
        assert result.errors, query
        assert coded(result.errors[0])["code"] == code, (query, result.errors)
        assert response.status_code == 400


def test_defaults_are_the_settings() -> None:
    assert Limits.of(Settings()) == Limits()
    assert limits.MAX_TEXT_DEPTH == 64  # the edge's MAX_JSON_DEPTH for the request body


def test_the_text_scan_never_refuses_what_the_walk_would_accept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The early scan counts only spreads, so for any fragment graph its refusal implies the walk's (random DAGs
    of fragments with fields, nested selections and inline fragments, under random cost budgets)."""
    from graphql import parse
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @st.composite
    def documents(draw: st.DrawFn) -> str:
        count = draw(st.integers(1, 7))
        bodies = []
        for i in range(count):
            parts = [draw(st.sampled_from(["health { status }", "__typename", "h: health { storage }"]))]
            for _ in range(draw(st.integers(0, 3))):
                if i + 1 < count:
                    target = draw(st.integers(i + 1, count - 1))
                    parts.append(draw(st.sampled_from([f"...F{target}", f"... on Query {{ ...F{target} }}"])))
            bodies.append(f"fragment F{i} on Query {{ {' '.join(parts)} }}")
        return "query { ...F0 health { status } } " + " ".join(bodies)

    @settings(max_examples=150, deadline=None, database=None)
    @given(documents(), st.integers(1, 80))
    def check(query: str, budget: int) -> None:
        limits_ = Limits(max_cost=budget, max_aliases=1000, max_root_fields=1000)
        refused = check_text(query, limits_)
        if refused is not None:
            assert check_document(parse(query), limits_) is not None, query
            refusals.append(refused.message)

    refusals: list[str] = []
    monkeypatch.setattr(limits, "CHARS_PER_TOKEN", 10**6)  # the length is the text's own limit: not compared

    check()
    assert any("fields" in message for message in refusals)  # the scan's own cost count was exercised
