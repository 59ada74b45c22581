"""REST end to end against a real server process, on SQLite and on Redis: a whole journey, paging, undo, every
error status as problem+json, token isolation, idempotent retries, and sessions surviving a restart.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.services.servers import (
    ServerProcess,
    Storage,
    create_session,
    next_command,
    redis_storage,
    sqlite_storage,
)

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def storage(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Storage:
    if request.param == "redis":
        proc = request.getfixturevalue("store_redis_proc")
        return redis_storage(f"redis://{proc.host}:{proc.port}/0")
    return sqlite_storage(tmp_path_factory.mktemp("rest-db"))


@pytest.fixture(scope="module")
def server(storage: Storage, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(storage, tmp_path_factory.mktemp("rest-logs")) as process:
        yield process
        assert "Traceback" not in process.log(), process.log()


JSON_TYPE = {"Content-Type": "application/json"}


def problem(response: httpx.Response, status: int, *, field: str | None = None, rule: str | None = None) -> dict[str, Any]:
    """Assert an RFC 9457 problem with our members; return its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    assert {"type", "title", "status", "detail", "field", "rule"} <= set(body)
    assert body["status"] == status and body["detail"]
    if field is not None:
        assert body["field"] == field, body
    if rule is not None:
        assert body["rule"] == rule, body
    return body


def play(client: httpx.Client, sid: str, view: dict[str, Any], *, until_phase: str, size: str = "medium",
         seen: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Send what the table would do next until the phase is reached with no prompt waiting."""
    for _ in range(300):
        if view["state"]["phase"] == until_phase and view["pending"] is None:
            return view
        command = next_command(view, size)
        response = client.post(f"/v1/sessions/{sid}/commands", json=command)
        assert response.status_code == 200, (command, response.text)
        result = response.json()
        assert result["version"] == result["based_on"] + 1 == view["version"] + 1
        assert result["events"], command
        if seen is not None:
            seen[result["version"]] = result["state"]
        view = result
    raise AssertionError("the journey did not reach the phase in 300 commands")


def test_whole_journey_with_server_dice_then_paging_undo_and_legal_commands(server: ServerProcess) -> None:
    with server.client() as anon:
        created = create_session(anon, seed=11)
    sid, token = created["session_id"], created["token"]
    assert len(sid) == 6 and sid.isalnum() and sid.isupper()
    states = {0: created["state"]}
    with server.client(token) as client:
        assert client.get(f"/v1/sessions/{sid}").json() == {k: v for k, v in created.items() if k != "token"}
        view = play(client, sid, created, until_phase="town", seen=states)  # FT-TRAVEL-01..04: the road to town
        town = view["state"]["town"]
        turned_back = view["state"]["travel"]["turned_back"]  # Raging River may send the posse back (FT-TRAVEL-D42)
        assert town is not None and town["slots"] and town["size"] == ("small" if turned_back else "medium")
        view = play(client, sid, view, until_phase="between_adventures", seen=states)  # FT-UA-06
        final = view["version"]
        assert client.get(f"/v1/sessions/{sid}").json()["state"] == states[final]

        entries: list[dict[str, Any]] = []
        after = -1
        while True:
            page = client.get(f"/v1/sessions/{sid}/events", params={"after": after, "limit": 3}).json()
            entries += page["entries"]
            assert len(page["entries"]) <= 3
            if page["next_after"] is None:
                break
            after = page["next_after"]
        assert [e["version"] for e in entries] == list(range(final + 1))
        assert entries[0]["command"]["type"] == "create_session"
        assert all(e["events"] for e in entries)
        rolled = [e for entry in entries for e in entry["events"] if e["type"] == "rolled"]
        assert rolled and all(e["roll"]["source"] == "server" for e in rolled)

        undone = client.post(f"/v1/sessions/{sid}/undo", json={"steps": 3})
        assert undone.status_code == 200, undone.text
        body = undone.json()
        assert body["version"] == final + 1 and body["based_on"] == final
        assert body["state"] == states[final - 3]
        assert body["events"][0]["type"] == "undone"
        assert client.get(f"/v1/sessions/{sid}").json()["state"] == states[final - 3]
        log = client.get(f"/v1/sessions/{sid}/events", params={"after": final - 1}).json()["entries"]
        assert [e["version"] for e in log] == [final, final + 1]  # append-only: nothing was removed
        assert log[1]["command"] == {"type": "undo", "steps": 3, "to_version": final - 3}

        again = client.post(f"/v1/sessions/{sid}/undo").json()  # undo the undo: back where we were
        assert again["state"] == states[final] and again["version"] == final + 2

        legal = client.get(f"/v1/sessions/{sid}/legal-commands").json()
        assert legal["version"] == final + 2 and legal["pending"] is None
        assert [c["type"] for c in legal["legal_commands"]] == ["choose_town_size", "start_adventure", "roll_mission",
                                                                   "adjust"]
        assert legal["legal_commands"] == again["legal_commands"]


def test_typed_dice_journey_answers_every_roll_FT_TRAVEL_02(server: ServerProcess) -> None:
    """Table dice: the posse types every roll; the hazard count and the D36 result are the typed faces."""
    with server.client() as anon:
        created = create_session(anon, options={"dice": "table"}, seed=5)
    sid = created["session_id"]
    with server.client(created["token"]) as client:
        # FT-TRAVEL-02, Small Town: a hero adds a hazard on 1-3; Anna rolls 2 (adds), Bo rolls 5 (does not)
        first = client.post(f"/v1/sessions/{sid}/commands",
                            json={"type": "choose_town_size", "size": "small", "dice": [[2], [5]]})
        assert first.status_code == 200, first.text
        result = first.json()
        assert result["state"]["travel"]["rollers"] == ["anna"]
        hazard = client.post(f"/v1/sessions/{sid}/commands", json={"type": "roll_hazard", "dice": [[1, 2]]})
        assert hazard.status_code == 200, hazard.text
        texts = [e["text"] for e in hazard.json()["events"]]
        assert any("12 Bleached Bones" in text for text in texts), texts  # FT-TRAVEL-D12
        view = play(client, sid, hazard.json(), until_phase="town", size="small")
        log = client.get(f"/v1/sessions/{sid}/events", params={"limit": 500}).json()["entries"]
        rolls = [e["roll"] for entry in log for e in entry["events"] if e["type"] == "rolled"]
        assert rolls and all(roll["source"] == "table" for roll in rolls)
        assert view["state"]["town"]["size"] == "small"


def test_every_error_is_problem_json_naming_field_and_rule(server: ServerProcess) -> None:
    with server.client() as anon:
        created = create_session(anon, seed=3)
        sid, token = created["session_id"], created["token"]
        url = f"/v1/sessions/{sid}/commands"
        problem(anon.get(f"/v1/sessions/{sid}"), 401, field="Authorization")
        assert anon.get(f"/v1/sessions/{sid}").headers["www-authenticate"].startswith("Bearer")
        problem(anon.post(url, json={"type": "arrive"}), 401)
        problem(anon.get(f"/v1/sessions/{sid}", headers={"Authorization": "Bearer wrong"}), 403, field="Authorization")
        problem(anon.get(f"/v1/sessions/{sid}", headers={"Authorization": f"Basic {token}"}), 401)
    with server.client(token) as client:
        problem(client.get("/v1/sessions/ZZZZZZ"), 404, field="session_id")
        problem(client.post("/v1/sessions/ZZZZZZ/commands", json={"type": "arrive"}), 404)
        # 422: malformed input of every kind, never a 500
        problem(client.post(url, content=b"{not json", headers=JSON_TYPE), 422, field="body")
        problem(client.post(url, content=b"", headers=JSON_TYPE), 422, field="body")
        problem(client.post(url, content=b"\xff\xfe\x00", headers=JSON_TYPE), 422, field="body")
        problem(client.post(url, content=b"[" * 50_000, headers=JSON_TYPE), 422, field="body")
        problem(client.post(url, content=b'{"type": "arrive", "destroyed_slots": ' + b"9" * 5000 + b"}", headers=JSON_TYPE), 422)
        problem(client.post(url, content=b'{"type": "arrive", "destroyed_slots": 1e999}', headers=JSON_TYPE), 422,
                field="destroyed_slots")
        problem(client.post(url, json={"type": "arrive", "destroyed_slots": 2**70}), 422, field="destroyed_slots")
        problem(client.post(url, json={"type": "arrive", "destroyed_slots": "2"}), 422, field="destroyed_slots")
        problem(client.post(url, json={"type": "arrive", "destroyed_slots": True}), 422, field="destroyed_slots")
        problem(client.post(url, json={"type": "teleport"}), 422, field="type")
        problem(client.post(url, json={"type": ["arrive"]}), 422, field="type")
        problem(client.post(url, json=["arrive"]), 422, field="body")
        problem(client.post(url, json={"type": "arrive", "colour": "red"}), 422, field="colour")
        problem(client.post(url, json={"type": "choose_town_size"}), 422, field="size")
        problem(client.post(url, json={"type": "choose_town_size", "size": "huge"}), 422, field="size",
                rule="FT-TRAVEL-01")
        problem(client.post(url, json={"type": "choose_town_size", "size": "small", "dice": "66"}), 422,
                field="dice")
        problem(client.post(url, json={"type": "choose_town_size", "size": "small", "dice": [["x"]]}), 422,
                field="dice[0][0]")
        problem(client.post(url, json={"type": "choose_town_size", "size": "small", "dice": [[9], [1]]}), 422,
                field="dice[0][0]", rule="FF-DICE-01")  # no die shows a 9: the schema says so
        problem(client.post(url, params={"expected_version": "soon"}, json={"type": "arrive"}), 422,
                field="expected_version")
        problem(client.post(url, params={"expected_version": -1}, json={"type": "arrive"}), 422,
                field="expected_version")
        problem(client.get(f"/v1/sessions/{sid}/events", params={"limit": 0}), 422, field="limit")
        problem(client.post(url, headers={"Idempotency-Key": "k" * 300}, json={"type": "arrive"}), 422,
                field="Idempotency-Key")
        problem(client.post(f"/v1/sessions/{sid}/undo", json={"steps": 0}), 422, field="steps")
        problem(client.post(f"/v1/sessions/{sid}/undo", json={"steps": "1"}), 422, field="steps")
        problem(client.post("/v1/sessions", json={"heroes": []}), 422, field="heroes", rule="A48")
        problem(client.post("/v1/sessions", json={"heroes": [{"id": "a", "name": "A", "xp": "lots"}]}), 422,
                field="heroes[0].xp")
        problem(client.post("/v1/sessions", json={"heroes": [{"id": "a", "name": "A"}], "seed": -1}), 422,
                field="seed")
        problem(client.post("/v1/sessions", json={"heroes": [{"id": "a", "name": "A"}], "pack": "nope"}), 422,
                field="pack")
        # 409: well formed but not allowed now (names the rule), or a stale version (names the current one)
        problem(client.post(url, json={"type": "arrive"}), 409, field="type", rule="FT-TRAVEL-04")
        problem(client.post(url, json={"type": "choose", "option": "x"}), 409, field="type")
        # a 7 fits the schema (a D8 shows it) but the hazard count is rolled on D6s: the rules refuse it
        problem(client.post(url, json={"type": "choose_town_size", "size": "small", "dice": [[7], [1]]}), 409,
                field="dice[0][0]", rule="FF-DICE-01")
        problem(client.post(f"/v1/sessions/{sid}/undo"), 409, field="steps")
        ok = client.post(url, params={"expected_version": 0}, json={"type": "choose_town_size", "size": "large"})
        assert ok.status_code == 200 and ok.json()["version"] == 1
        stale = problem(client.post(url, params={"expected_version": 0}, json={"type": "roll_hazard"}), 409,
                        field="expected_version")
        assert stale["current_version"] == 1
        assert client.get(f"/v1/sessions/{sid}").json()["version"] == 1  # nothing was written by the refusals
        # routing errors are problems too
        problem(client.put(f"/v1/sessions/{sid}", json={}), 405)
        assert client.get("/v1/nothing-here").headers["content-type"].startswith(PROBLEM)


def test_a_token_opens_only_its_own_table(server: ServerProcess) -> None:
    with server.client() as anon:
        mine, theirs = create_session(anon), create_session(anon)
    other = theirs["session_id"]
    with server.client(mine["token"]) as client:
        assert client.get(f"/v1/sessions/{mine['session_id']}").status_code == 200
        problem(client.get(f"/v1/sessions/{other}"), 403)
        problem(client.get(f"/v1/sessions/{other}/events"), 403)
        problem(client.get(f"/v1/sessions/{other}/legal-commands"), 403)
        problem(client.post(f"/v1/sessions/{other}/commands", json={"type": "choose_town_size", "size": "small"}),
                403)
        problem(client.post(f"/v1/sessions/{other}/undo"), 403)
        problem(client.get("/v1/sessions"), 403)  # a table token lists nothing
    with server.client(theirs["token"]) as client:
        assert client.get(f"/v1/sessions/{other}").json()["version"] == 0  # untouched by the refused writes
    with server.client(server.host_token) as host:
        listed: list[str] = []
        after = None
        while True:
            page = host.get("/v1/sessions", params={"limit": 2, **({"after": after} if after else {})}).json()
            listed += page["sessions"]
            if page["next_after"] is None:
                break
            after = page["next_after"]
        assert {mine["session_id"], other} <= set(listed) and listed == sorted(listed)
        assert host.get(f"/v1/sessions/{other}").status_code == 200  # the host reads any table
        problem(host.post(f"/v1/sessions/{other}/commands", json={"type": "choose_town_size", "size": "small"}),
                403)  # but writes nothing


def test_idempotent_retry_returns_the_first_response_and_applies_once(server: ServerProcess) -> None:
    with server.client() as anon:
        created = create_session(anon, seed=9)
    sid = created["session_id"]
    url = f"/v1/sessions/{sid}/commands"
    command = {"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "xp", "amount": 5}]}
    key = {"Idempotency-Key": "retry-1"}
    with server.client(created["token"]) as client:
        first = client.post(url, json=command, params={"expected_version": 0}, headers=key)
        assert first.status_code == 200 and "idempotent-replayed" not in first.headers
        second = client.post(url, json=command, params={"expected_version": 0}, headers=key)
        assert second.status_code == 200 and second.headers["idempotent-replayed"] == "true"
        assert second.json() == first.json()
        moved = client.post(url, json={"type": "choose_town_size", "size": "small"})
        assert moved.json()["version"] == 2
        # version 0 is stale by now, yet the retry is answered with the first response, not refused
        third = client.post(url, json=command, params={"expected_version": 0}, headers=key)
        assert third.status_code == 200 and third.json() == first.json()
        view = client.get(f"/v1/sessions/{sid}").json()
        assert view["version"] == 2 and view["state"]["heroes"][0]["xp"] == 5
        entries = client.get(f"/v1/sessions/{sid}/events").json()["entries"]
        assert [e["command"]["type"] for e in entries] == ["create_session", "adjust", "choose_town_size"]
        # the same key for a different request is refused, never silently answered
        problem(client.post(url, json={**command, "reason": "other"}, params={"expected_version": 0}, headers=key),
                422, field="Idempotency-Key")
        undo_1 = client.post(f"/v1/sessions/{sid}/undo", headers={"Idempotency-Key": "undo-1"})
        undo_2 = client.post(f"/v1/sessions/{sid}/undo", headers={"Idempotency-Key": "undo-1"})
        assert undo_1.status_code == 200 and undo_1.json() == undo_2.json()
        assert client.get(f"/v1/sessions/{sid}").json()["version"] == 3


def test_sessions_survive_a_restart(server: ServerProcess) -> None:
    with server.client() as anon:
        created = create_session(anon, seed=21)
    sid, token = created["session_id"], created["token"]
    with server.client(token) as client:
        client.post(f"/v1/sessions/{sid}/commands", json={"type": "choose_town_size", "size": "small"})
        before = client.get(f"/v1/sessions/{sid}").json()
    server.restart()
    with server.client(token) as client:
        assert client.get(f"/v1/sessions/{sid}").json() == before
        after = client.post(f"/v1/sessions/{sid}/commands",
                            json=next_command(before)).json()  # and play goes on from there
        assert after["based_on"] == before["version"]


def test_openapi_is_served_without_the_graphql_controller(server: ServerProcess) -> None:
    with server.client() as client:
        document = client.get("/schema/openapi.json").json()
    assert not any(path.startswith("/graphql") for path in document["paths"])
    ids = [op["operationId"] for path in document["paths"].values() for op in path.values()]
    assert sorted(ids) == sorted(set(ids)) == sorted([
        "archiveSession", "askOdds", "cancelOdds", "createSession", "deleteSession", "getHealth", "getLegalCommands",
        "getOdds", "getProblemType", "getReadiness", "getSession", "getSimulation", "listEvents", "listProblemTypes",
        "listSessions", "postCommand", "startSimulation", "streamChanges", "streamOdds", "undoCommands",
        # hosting an event (issue 13)
        "addEventTables", "exportEvent", "getEvent", "issueToken", "listHostedEvents", "openEvent", "pauseSession",
        "resumeSession", "revokeToken", "rotateHostToken", "streamEvent",
        # calling the host (issue 21)
        "callHost", "clearHostCall"])
    assert "Problem" in document["components"]["schemas"]
    with server.client() as client:
        allow = client.options("/v1/sessions").headers["allow"]  # GET and POST share the path (litestar fix)
        assert {m.strip() for m in allow.split(",")} == {"GET", "OPTIONS", "POST"}
        too_big = client.post("/v1/sessions", content=b"{" + b" " * 1_100_000 + b"}", headers=JSON_TYPE)
        problem(too_big, 413)
