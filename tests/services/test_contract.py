"""The contract as a third-party client meets it (issue 20), through a real server: every command and request body
refuses a field it does not take (422 naming it, never a server roll in place of typed dice); what no field can
take (a key twice, NaN, 1e400, a lone surrogate) is refused when the body is read, naming its path, never a 500;
odds jobs open only with the token that asked (or their table's); refusals name the field, the bound and the rule."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.services.servers import ServerProcess, create_session, sqlite_storage

HEROES = [{"id": "anna", "name": "Anna"}, {"id": "bo", "name": "Bo"}]
HOST = "contract-host"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    env = {"BRIMSTONE_ODDS_CHUNK_TRIALS": "40", "BRIMSTONE_MAX_ODDS_TRIALS": "3000"}
    with ServerProcess(sqlite_storage(tmp_path_factory.mktemp("contract")), tmp_path_factory.mktemp("contract-log"),
                       host_token=HOST, env=env) as running:
        yield running
        assert "Traceback" not in running.log(), running.log()


@pytest.fixture(scope="module")
def document(server: ServerProcess) -> dict[str, Any]:
    found: dict[str, Any] = httpx.get(f"{server.url}/schema/openapi.json", timeout=30).json()
    return found


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _refused(response: httpx.Response, status: int, field: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem: dict[str, Any] = response.json()
    assert problem["field"] == field, problem
    return problem


def _event(client: httpx.Client) -> str:
    opened = client.post("/v1/events", json={"name": "Contract Night"}, headers=_auth(HOST))
    assert opened.status_code == 201, opened.text
    event_id: str = opened.json()["event_id"]
    return event_id


# ---- unknown fields ---------------------------------------------------------------------------------------------


def test_a_roll_typed_under_dice_is_refused_and_the_server_rolls_nothing(server: ServerProcess) -> None:
    with server.client() as client:
        table = create_session(client, HEROES, seed=3, options={"dice": "table"})
        auth = _auth(table["token"])
        path = f"/v1/sessions/{table['session_id']}/commands"
        waiting = client.post(path, json={"type": "choose_town_size", "size": "small"}, headers=auth).json()
        assert waiting["pending"]["kind"] == "roll"
        problem = _refused(client.post(path, json={"type": "roll", "dice": [[2]]}, headers=auth), 422, "dice")
        assert "faces" in problem["detail"]
        graphql = client.post("/graphql", headers=auth, json={
            "query": "mutation($c: JSON!, $s: String!) { postCommand(sessionId: $s, command: $c) { version } }",
            "variables": {"s": table["session_id"], "c": {"type": "roll", "dice": [[2]]}}}).json()
        assert graphql["errors"][0]["extensions"]["field"] == "dice"
        typed = client.post("/graphql", headers=auth, json={
            "query": "mutation($s: String!) { sendCommand(sessionId: $s, command: {roll: {dice: [[2]]}}) "
                     "{ version } }", "variables": {"s": table["session_id"]}}).json()
        assert typed.get("errors") and "dice" in json.dumps(typed["errors"])  # RollDiceInput has no `dice`
        after = client.get(path.removesuffix("/commands"), headers=auth).json()
        assert after["version"] == waiting["version"] and after["pending"]["id"] == waiting["pending"]["id"]
        rolled = client.post(path, json={"type": "roll", "faces": [2]}, headers=auth).json()
        assert rolled["events"][0]["roll"] == {**rolled["events"][0]["roll"], "faces": [2], "source": "table"}


def test_every_command_refuses_a_field_it_does_not_take(server: ServerProcess, document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    members = [ref["$ref"].rsplit("/", 1)[1] for ref in schemas["CommandInput"]["oneOf"]]
    assert len(members) > 30
    with server.client() as client:
        table = create_session(client, HEROES, seed=3)
        path = f"/v1/sessions/{table['session_id']}/commands"
        for member in members:
            assert schemas[member]["additionalProperties"] is False, member
            body = {**schemas[member]["examples"][0], "colour": "red"}
            problem = _refused(client.post(path, json=body, headers=_auth(table["token"])), 422, "colour")
            assert "unknown field 'colour'" in problem["detail"], member
        assert "dice" not in schemas["RollDiceInput"]["properties"]


def test_every_request_body_refuses_a_field_it_does_not_take(server: ServerProcess, document: dict[str, Any]) -> None:
    with server.client() as client:
        table = create_session(client, HEROES, seed=3)
        event_id = _event(client)
        paths = {"/v1/sessions": "/v1/sessions", "/v1/sessions/{session_id}/undo":
                 f"/v1/sessions/{table['session_id']}/undo", "/v1/events": "/v1/events",
                 "/v1/events/{event_id}/tables": f"/v1/events/{event_id}/tables", "/v1/simulations": "/v1/simulations",
                 "/v1/odds": "/v1/odds",
                 "/v1/sessions/{session_id}/host-call": f"/v1/sessions/{table['session_id']}/host-call"}
        tokens = {"/v1/events": HOST, "/v1/events/{event_id}/tables": HOST}
        bodies = 0
        for documented, operations in document["paths"].items():
            post = operations.get("post", {})
            if "requestBody" not in post or documented.endswith("/commands"):
                continue
            bodies += 1
            example = next(iter(post["requestBody"]["content"]["application/json"]["examples"].values()))["value"]
            sent = client.post(paths[documented], json={**example, "colour": "red"},
                               headers=_auth(tokens.get(documented, table["token"])))
            _refused(sent, 422, "colour")
        assert bodies == len(paths)


# ---- what no field can take --------------------------------------------------------------------------------------

SURROGATE_HERO = b'{"id": "anna", "name": "\\ud800"}'


@pytest.mark.parametrize(("path", "raw", "field"), [
    ("/v1/sessions", b'{"heroes": [' + SURROGATE_HERO + b"]}", "heroes[0].name"),
    ("/v1/sessions", b'{"heroes": [{"id": "\\udfff", "name": "A"}]}', "heroes[0].id"),
    ("/v1/simulations", b'{"size": "small", "trials": 10, "heroes": [' + SURROGATE_HERO + b"]}", "heroes[0].name"),
    ("/v1/odds", b'{"question": "town_size", "heroes": [' + SURROGATE_HERO + b"]}", "heroes[0].name"),
    ("/v1/odds", b'{"question": "town_size", "session_id": "\\ud800"}', "session_id"),
    ("/v1/events", b'{"name": "Night \\ud800"}', "name"),
    ("{event}/tables", b'{"count": 1, "heroes": [' + SURROGATE_HERO + b"]}", "heroes[0].name"),
    ("/v1/sessions", b'{"heroes": [{"id": "a", "name": "A"}], "seed": 1, "seed": 2}', "seed"),  # a key twice
    ("/v1/sessions", b'{"heroes": [{"id": "a", "name": "A", "gold": 1e400}]}', "heroes[0].gold"),
    ("/v1/sessions", b'{"heroes": [{"id": "a", "name": "A", "gold": NaN}]}', "heroes[0].gold"),
    ("/v1/sessions", b'{"heroes": [{"id": "a", "name": "A", "gold": -Infinity}]}', "heroes[0].gold"),
])
def test_what_no_field_can_take_is_refused_naming_its_path(server: ServerProcess, path: str, raw: bytes,
                                                           field: str) -> None:
    with server.client() as client:
        if path.startswith("{event}"):
            path = f"/v1/events/{_event(client)}" + path.removeprefix("{event}")
        problem = _refused(client.post(path, content=raw, headers={"Content-Type": "application/json",
                                                                    **_auth(HOST)}), 422, field)
        assert field in problem["detail"]


def test_a_lone_surrogate_is_never_stored_and_served_back(server: ServerProcess) -> None:
    with server.client() as client:
        table = create_session(client, HEROES, seed=3)
        sent = client.post(f"/v1/sessions/{table['session_id']}/commands", headers={
            **_auth(table["token"]), "Content-Type": "application/json"},
            content=b'{"type": "adjust", "hero": "anna", "effects": [{"op": "add_item", "name": "Lamp \\udc00"}]}')
        _refused(sent, 422, "effects[0].name")
        read = client.get(f"/v1/sessions/{table['session_id']}", headers=_auth(table["token"])).json()
        assert read["version"] == table["version"]


# ---- odds jobs are their asker's ---------------------------------------------------------------------------------


def test_an_odds_job_opens_only_with_the_token_that_asked_or_its_tables(server: ServerProcess) -> None:
    with server.client() as client:
        table = create_session(client, HEROES, seed=3)
        other = create_session(client, HEROES, seed=4)
        asked = client.post("/v1/odds", json={"question": "town_size", "session_id": table["session_id"],
                                              "trials": 3000, "seed": 1}, headers=_auth(table["token"]))
        assert asked.status_code == 202 and "token" not in asked.json()
        path = f"/v1/odds/{asked.json()['job_id']}"
        for method in ("GET", "DELETE"):
            _refused(client.request(method, path), 401, "Authorization")
            _refused(client.request(method, path, headers=_auth(other["token"])), 403, "Authorization")
        _refused(client.get(f"{path}/events"), 401, "Authorization")
        _refused(client.get(f"{path}/events", headers=_auth(other["token"])), 403, "Authorization")
        graphql = client.post("/graphql", json={"query": f'{{ odds(jobId: "{asked.json()["job_id"]}") {{ status }} }}'},
                              headers=_auth(other["token"])).json()
        assert graphql["errors"][0]["extensions"]["status"] == 403 and graphql.get("data") is None
        mine = client.get(path, headers=_auth(table["token"]))
        assert mine.status_code == 200 and mine.json()["status"] != "cancelled"  # the others cancelled nothing
        assert set(mine.json()) == set(asked.json())  # no owner hash in the view
        assert client.delete(path, headers=_auth(table["token"])).json()["status"] == "cancelled"

        posse = client.post("/v1/odds", json={"question": "town_size", "heroes": HEROES, "trials": 3000}).json()
        own = posse["token"]  # asked without a token: the job's own, shown once
        assert client.get(f"/v1/odds/{posse['job_id']}", headers=_auth(own)).status_code == 200
        _refused(client.get(f"/v1/odds/{posse['job_id']}", headers=_auth(table["token"])), 403, "Authorization")
        assert client.delete(f"/v1/odds/{posse['job_id']}", headers=_auth(own)).json()["status"] == "cancelled"


# ---- messages a client can act on -------------------------------------------------------------------------------


def test_refusals_name_the_field_the_bound_and_the_rule(server: ServerProcess) -> None:
    with server.client() as client:
        wounded = client.post("/v1/sessions", json={"heroes": [{"id": "a", "name": "Anna", "wounds": 198}]})
        problem = _refused(wounded, 409, "heroes[0].wounds")
        assert "0..10" in problem["detail"] and problem["rule"] == "FF-HERO-02"
        table = create_session(client, HEROES, seed=3)
        path = f"/v1/sessions/{table['session_id']}/commands"
        gold = {"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "gold", "amount": 1}]}
        malformed = client.post(path, json=gold, headers={**_auth(table["token"]), "If-Match": "7"})
        problem = _refused(malformed, 412, "If-Match")
        assert 'version 0 (ETag "0")' in problem["detail"] and 'e.g. "7"' in problem["detail"]
        assert not problem["detail"].endswith("not ")
        too_far = client.post(f"{path}?expected_version={2**53}", json=gold, headers=_auth(table["token"]))
        _refused(too_far, 422, "expected_version")
        at_the_bound = client.post(f"{path}?expected_version={2**53 - 1}", json=gold, headers=_auth(table["token"]))
        _refused(at_the_bound, 409, "expected_version")  # a fine version: the table is not at it


# ---- the reference names every door ---------------------------------------------------------------------------


def test_the_api_reference_names_every_operation_and_root_field() -> None:
    """docs/api.md lists every REST operation (read from the committed document) and every GraphQL query, mutation
    and subscription (from the committed SDL), so a new door cannot go undocumented; and it sends a fresh clone to
    tools it has (`.venv`, made by scripts/bootstrap.sh), not to one engineer's machine."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    reference = (root / "docs" / "api.md").read_text()
    document = json.loads((root / "openapi" / "openapi.json").read_text())
    operations = {op["operationId"] for item in document["paths"].values() for op in item.values()
                  if isinstance(op, dict) and "operationId" in op}
    sdl = (root / "openapi" / "schema.graphql").read_text()
    fields = set()
    for kind in ("Query", "Mutation", "Subscription"):
        body = re.search(rf"type {kind} \{{(.*?)\n\}}", sdl, re.S)
        assert body is not None, kind
        fields |= set(re.findall(r"^  (\w+)[(:]", body.group(1), re.M))
    missing = sorted(name for name in operations | fields if not re.search(rf"`{name}[`(]", reference))
    assert missing == [], missing
    assert "/work/venv" not in reference


# ---- typed for typed clients -----------------------------------------------------------------------------------


def test_odds_answers_fit_their_typed_schema_partial_and_complete() -> None:
    """OddsJob.answer is OddsAnswer in the OpenAPI document (issue 20: it was an untyped object): real answers of
    every question, before any trial and complete, fit it; OddsRequest.params is OddsParams, each param typed."""
    from services.contract.validation import check, validator
    from shared_rules import new_session, odds
    from shared_rules.codec import decode_hero

    posse = new_session(tuple(decode_hero(hero) for hero in HEROES))
    plans = [odds.plan(posse, "town_size"), odds.plan(posse, "town_size", {"sizes": ["small"]})]
    for plan in plans:
        for answer in (odds.answer(plan, {}, trials=4), odds.ask(plan, 4, seed=1)):
            errors = [f"{list(e.instance_path)}: {e.message}"
                      for e in validator("OddsAnswer").iter_errors(json.loads(json.dumps(answer)))]
            assert errors == []
    params = check("OddsParams", {"sizes": ["small", "large"], "prompt": "p3", "turns": 20})
    assert params["sizes"] == ["small", "large"]
    with pytest.raises(Exception) as refused:
        check("OddsParams", {"turns": "twenty"})
    assert getattr(refused.value, "field", "") == "turns"
