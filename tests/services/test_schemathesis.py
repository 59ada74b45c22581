"""schemathesis against a real server: the committed OpenAPI document (no 5xx, responses and headers conform to
the documented schemas, invalid input refused, and every schema-valid request accepted) and the GraphQL endpoint
(no server errors).

`positive_data_acceptance` is on: a request that fits the document may be refused only by the game's rules or the
table's state (409), a failed If-Match (412), or for credentials (401/403) and missing resources (404), never as
malformed (422). Two things no schema can say are supplied by the harness, as a client would: the real table and
its token, and a fresh Idempotency-Key per request (a key sent again with another request is refused by design,
RFC draft-ietf-httpapi-idempotency-key-header). The change stream never ends, so it is tested in test_e2e_rest.
The default run is modest; the `slow` variants run many more examples.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import graphql
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.graphql import nodes
from schemathesis.specs.openapi.checks import ignored_auth

from scripts.export_schemas import GRAPHQL, OPENAPI
from shared_rules.commands import COMMAND_TYPES
from tests.services.servers import ServerProcess, create_session, sqlite_storage

OPENAPI_SCHEMA = schemathesis.openapi.from_path(str(OPENAPI)).exclude(operation_id="streamChanges") \
    .exclude(operation_id="streamEvent")  # server-sent event streams stay open: out of the fuzz
OPENAPI_SCHEMA.config.checks.positive_data_acceptance.expected_statuses = [
    "2xx", "304", "401", "403", "404", "409", "412"]
QUICK = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
LONG = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose simulations stay tiny (at most 20 trials are run) and run in threads."""
    storage = sqlite_storage(tmp_path_factory.mktemp("fuzz-db"))
    env = {"BRIMSTONE_MAX_TRIALS": "20", "BRIMSTONE_SIMULATION_EXECUTOR": "thread"}
    with ServerProcess(storage, tmp_path_factory.mktemp("fuzz-logs"), env=env) as server:
        yield server
        assert "Traceback" not in server.log(), server.log()


@pytest.fixture(scope="module")
def fuzz_table(fuzz_server: ServerProcess) -> dict[str, Any]:
    with fuzz_server.client() as client:
        return create_session(client, seed=1)


def _call(case: schemathesis.Case, server: ServerProcess, table: dict[str, Any]) -> None:
    """Valid requests go to the real table with its token (to reach the rules, not only a 404 or 401);
    invalid ones are sent exactly as generated, so that what makes them invalid is not repaired."""
    headers = None
    excluded = []
    if case.operation.method.upper() == "DELETE":  # the check resends a request the first one made 404 (deleted)
        excluded.append(ignored_auth)
    if case.operation.method.upper() == "DELETE" or case.operation.path.endswith("/archive") \
            or "/tokens/" in case.operation.path:
        with server.client() as client:  # these end a table or replace its token: each case gets a table of its own
            table = create_session(client, seed=1)
        if case.path_parameters and "session_id" in case.path_parameters:
            case.path_parameters["session_id"] = table["session_id"]
    if case.meta is None or not case.meta.generation.mode.is_negative:
        if case.path_parameters and "session_id" in case.path_parameters:
            case.path_parameters["session_id"] = table["session_id"]
        headers = {"Authorization": f"Bearer {table['token']}"}
        if case.headers and "Idempotency-Key" in case.headers:
            case.headers["Idempotency-Key"] = uuid.uuid4().hex
    case.call_and_validate(base_url=server.url, headers=headers, excluded_checks=excluded, timeout=30)


@OPENAPI_SCHEMA.parametrize()
@QUICK
def test_openapi_operations_conform(case: schemathesis.Case, fuzz_server: ServerProcess,
                                    fuzz_table: dict[str, Any]) -> None:
    _call(case, fuzz_server, fuzz_table)


@pytest.mark.slow
@OPENAPI_SCHEMA.parametrize()
@LONG
def test_openapi_operations_conform_long(case: schemathesis.Case, fuzz_server: ServerProcess,
                                         fuzz_table: dict[str, Any]) -> None:
    _call(case, fuzz_server, fuzz_table)


def _node(value: Any) -> graphql.ValueNode:
    """A JSON value as a GraphQL literal (what the JSON scalar parses back)."""
    if value is None:
        return nodes.Null
    if isinstance(value, bool):
        return nodes.Boolean(value)
    if isinstance(value, int):
        return nodes.Int(value)
    if isinstance(value, float):
        return nodes.Float(value)
    if isinstance(value, str):
        return nodes.String(value)
    if isinstance(value, list):
        return nodes.List([_node(item) for item in value])
    return nodes.Object([graphql.ObjectFieldNode(name=graphql.NameNode(value=key), value=_node(item))
                         for key, item in value.items()])


_names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True)
_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_names, inner, max_size=4),
    max_leaves=12,
)
_dice = st.lists(st.lists(st.integers(-1, 9), max_size=3), max_size=3)
_command = st.fixed_dictionaries(
    {"type": st.sampled_from([*COMMAND_TYPES, "teleport"])},
    optional={"size": st.sampled_from(["small", "medium", "large", "huge"]), "dice": _dice,
              "hero": st.sampled_from(["anna", "bo", "nobody"]), "option": st.text(max_size=10),
              "destroyed_slots": st.integers(-2, 10), "indices": st.lists(st.integers(-1, 3), max_size=3),
              "effects": st.lists(st.fixed_dictionaries({"op": st.sampled_from(["change", "set", "add_item"]),
                                                         "field": st.sampled_from(["xp", "gold", "grit", "luck"]),
                                                         "amount": st.integers(-(2**40), 2**40)}), max_size=2)},
)
_hero = st.fixed_dictionaries({"id": st.sampled_from(["anna", "bo", ""]), "name": st.text(max_size=8)},
                              optional={"xp": st.integers(-5, 2**66), "grit": st.integers(-2, 5),
                                        "skills": st.fixed_dictionaries({"luck": st.integers(0, 12)})})
schemathesis.graphql.scalar("JSON", st.one_of(_command, st.lists(_hero, max_size=7), _json).map(_node))
schemathesis.graphql.scalar("Long", st.integers(-(2**54), 2**54).map(nodes.Int))
GRAPHQL_SCHEMA = schemathesis.graphql.from_path(str(GRAPHQL))
_SESSION_ARG = re.compile(r'sessionId: "(?:[^"\\]|\\.)*"')


def no_server_errors(ctx: Any, response: Any, case: schemathesis.Case) -> bool | None:
    """Our refusals carry `extensions.status` below 500; anything else with a path is the server failing."""
    assert response.status_code < 500, response.text
    for error in response.json().get("errors") or []:
        status = (error.get("extensions") or {}).get("status")
        assert status is not None or "path" not in error, error  # a resolver failed without a problem
        assert status is None or status < 500, error
    return None


def _call_graphql(case: schemathesis.Case, server: ServerProcess, table: dict[str, Any]) -> None:
    if isinstance(case.body, dict) and isinstance(case.body.get("query"), str):
        case.body["query"] = _SESSION_ARG.sub(f'sessionId: "{table["session_id"]}"', case.body["query"])
    case.call_and_validate(base_url=f"{server.url}/graphql", headers={"Authorization": f"Bearer {table['token']}"},
                           checks=[no_server_errors], timeout=30)


@GRAPHQL_SCHEMA.parametrize()
@QUICK
def test_graphql_operations_have_no_server_errors(case: schemathesis.Case, fuzz_server: ServerProcess,
                                                  fuzz_table: dict[str, Any]) -> None:
    _call_graphql(case, fuzz_server, fuzz_table)


@pytest.mark.slow
@GRAPHQL_SCHEMA.parametrize()
@LONG
def test_graphql_operations_have_no_server_errors_long(case: schemathesis.Case, fuzz_server: ServerProcess,
                                                       fuzz_table: dict[str, Any]) -> None:
    _call_graphql(case, fuzz_server, fuzz_table)
