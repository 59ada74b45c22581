"""The HTTP conventions a REST-only client relies on, against a real server: ETag and If-None-Match (304), If-Match
as the header form of expected_version (412), Link headers on log pages, Idempotent-Replayed, the server-sent
stream of a table's changes, and problem types that resolve to their catalogue entry.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema_rs
import pytest

from scripts.export_schemas import OPENAPI
from tests.services.servers import ServerProcess, create_session, sqlite_storage

XP = {"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "xp", "amount": 1}]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_storage(tmp_path_factory.mktemp("http-db")), tmp_path_factory.mktemp("http")) as process:
        yield process
        assert "Traceback" not in process.log(), process.log()


def schema_of(name: str) -> jsonschema_rs.Draft202012Validator:
    document = json.loads(OPENAPI.read_text())
    return jsonschema_rs.Draft202012Validator({"$ref": f"#/components/schemas/{name}", **document})


def test_etag_and_if_none_match_spare_a_polling_client_the_body(server: ServerProcess) -> None:
    with server.client() as anon:
        created = create_session(anon, seed=5)
    sid = created["session_id"]
    with server.client(created["token"]) as client:
        for path in (f"/v1/sessions/{sid}", f"/v1/sessions/{sid}/legal-commands", f"/v1/sessions/{sid}/events"):
            first = client.get(path)
            assert first.status_code == 200 and first.headers["etag"] == '"0"', path
            same = client.get(path, headers={"If-None-Match": first.headers["etag"]})
            assert (same.status_code, same.content, same.headers["etag"]) == (304, b"", '"0"'), path
            assert client.get(path, headers={"If-None-Match": 'W/"0", "9"'}).status_code == 304  # weak comparison
        written = client.post(f"/v1/sessions/{sid}/commands", json=XP)
        assert written.headers["etag"] == '"1"'
        changed = client.get(f"/v1/sessions/{sid}", headers={"If-None-Match": '"0"'})
        assert changed.status_code == 200 and changed.json()["version"] == 1 and changed.headers["etag"] == '"1"'


def test_if_match_is_the_header_form_of_expected_version(server: ServerProcess) -> None:
    with server.client() as anon:
        created = create_session(anon, seed=6)
    sid = created["session_id"]
    url = f"/v1/sessions/{sid}/commands"
    with server.client(created["token"]) as client:
        assert client.post(url, json=XP, headers={"If-Match": '"0"'}).json()["version"] == 1
        for stale_tag in ('"0"', 'W/"1"', "1", '"0", "7"'):  # behind, weak (never matches), not an ETag, none match
            stale = client.post(url, json=XP, headers={"If-Match": stale_tag})
            assert stale.status_code == 412, (stale_tag, stale.text)
            body = stale.json()
            assert (body["type"], body["current_version"], body["field"]) == (
                "/problems/precondition-failed", 1, "If-Match")
            assert stale.headers["etag"] == '"1"'
        assert client.post(url, json=XP, headers={"If-Match": '"5", "1"'}).json()["version"] == 2  # one of them
        assert client.post(url, json=XP, headers={"If-Match": "*"}).json()["version"] == 3
        assert client.post(f"/v1/sessions/{sid}/undo", headers={"If-Match": '"2"'}).status_code == 412
        assert client.get(f"/v1/sessions/{sid}").json()["version"] == 3  # nothing written by a failed precondition


def test_idempotent_replay_is_flagged_and_log_pages_link_to_the_next(server: ServerProcess) -> None:
    with server.client() as anon:
        created = create_session(anon, seed=7)
    sid = created["session_id"]
    with server.client(created["token"]) as client:
        first = client.post(f"/v1/sessions/{sid}/commands", json=XP, headers={"Idempotency-Key": "once"})
        again = client.post(f"/v1/sessions/{sid}/commands", json=XP, headers={"Idempotency-Key": "once"})
        assert "idempotent-replayed" not in first.headers and again.headers["idempotent-replayed"] == "true"
        assert again.json() == first.json()
        for _ in range(3):
            client.post(f"/v1/sessions/{sid}/commands", json=XP)
        seen: list[int] = []
        url: str | None = f"/v1/sessions/{sid}/events?after=-1&limit=2"
        while url is not None:
            page = client.get(url)
            seen += [entry["version"] for entry in page.json()["entries"]]
            links = page.links
            assert links["first"]["url"].endswith(f"/v1/sessions/{sid}/events?after=-1&limit=2")
            url = links.get("next", {}).get("url")
        assert seen == [0, 1, 2, 3, 4]
        opened = client.get(f"/v1/sessions/{sid}/events", params={"limit": 1}).json()["entries"][0]["command"]
        assert opened["type"] == "create_session" and "seed" not in opened  # the log does not give the seed away


def _read_events(response: httpx.Response, wanted: int, into: list[dict[str, Any]]) -> None:
    """Server-sent events parsed from the stream: `id`, `event` and the JSON `data` of each."""
    current: dict[str, Any] = {}
    for line in response.iter_lines():
        if line == "" and "data" in current:
            into.append(current)
            current = {}
            if len(into) == wanted:
                return
        elif line.startswith(":") or line == "":
            continue
        else:
            name, _, value = line.partition(": ")
            current[name] = json.loads(value) if name == "data" else value


def test_server_sent_events_follow_a_table_and_resume_with_last_event_id(server: ServerProcess) -> None:
    with server.client() as anon:
        created = create_session(anon, seed=8)
    sid, token = created["session_id"], created["token"]
    change = schema_of("SessionChange")
    with server.client(token) as client:
        client.post(f"/v1/sessions/{sid}/commands", json=XP)  # version 1, before anyone follows
        received: list[dict[str, Any]] = []
        with client.stream("GET", f"/v1/sessions/{sid}/changes", params={"after": 0}) as stream:
            assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
            reader = threading.Thread(target=_read_events, args=(stream, 3, received))
            reader.start()
            for _ in range(2):
                client.post(f"/v1/sessions/{sid}/commands", json=XP)
            reader.join(timeout=30)
        assert [(event["event"], event["id"], event["data"]["version"]) for event in received] == [
            ("change", "1", 1), ("change", "2", 2), ("change", "3", 3)]
        for event in received:
            assert change.is_valid(event["data"]), list(change.iter_errors(event["data"]))[:3]
            assert "rng" not in event["data"]["state"]
        assert received[-1]["data"]["state"]["heroes"][0]["xp"] == 3
        resumed: list[dict[str, Any]] = []
        with client.stream("GET", f"/v1/sessions/{sid}/changes", headers={"Last-Event-ID": "1"}) as stream:
            _read_events(stream, 2, resumed)
        assert [event["id"] for event in resumed] == ["2", "3"]
    with server.client() as anon:
        refused = anon.get(f"/v1/sessions/{sid}/changes")
        assert refused.status_code == 401 and refused.headers["content-type"].startswith("application/problem+json")


def test_every_problem_type_resolves_to_its_explanation(server: ServerProcess) -> None:
    with server.client() as anon:
        catalogue = anon.get("/problems/").json()["problems"]
        assert schema_of("ProblemCatalogue").is_valid({"problems": catalogue})
        answers = [anon.get("/v1/sessions/ABCDEF"), anon.delete("/v1/health"),
                   anon.post("/v1/sessions", json={"heroes": []}),
                   anon.post("/v1/sessions", content=b"{" + b" " * 1_100_000 + b"}",
                             headers={"Content-Type": "application/json"}),
                   anon.post("/v1/sessions", content=b"heroes", headers={"Content-Type": "text/plain"})]
        assert [a.status_code for a in answers] == [401, 405, 422, 413, 415]
        assert "GET" in answers[1].headers["allow"]
        for answer in answers:
            problem = answer.json()
            page = anon.get(problem["type"])  # the type is a URL on the service
            assert page.status_code == 200, problem
            entry = page.json()
            assert (entry["type"], entry["status"]) == (problem["type"], answer.status_code)
            assert entry["description"] and entry["action"] and entry["sample"]["type"] == problem["type"]
        assert {entry["status"] for entry in catalogue} >= {401, 403, 404, 405, 409, 412, 413, 415, 422, 429, 500, 503}
        assert anon.get("/problems/no-such-thing").status_code == 404


def test_an_idle_keep_alive_connection_is_still_open_for_the_next_command(server: ServerProcess) -> None:
    """A phone pauses between commands on one connection: the server keeps it open longer than uvicorn's 5 s (a busy
    client's request sent as the server closed the connection got "Server disconnected without a response")."""
    import http.client
    import time

    host, port = server.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request("GET", "/v1/health")
        first = conn.getresponse()
        assert first.status == 200 and first.read()  # the whole answer read: the connection is idle now
        socket_before = conn.sock
        time.sleep(6)  # the idle time itself is what is tested: past uvicorn's default keep-alive of 5 s
        conn.request("GET", "/v1/health")  # on the same socket (http.client reconnects only when it knows it closed)
        assert conn.sock is socket_before
        assert conn.getresponse().status == 200, "the server closed an idle connection after 5 s"
    finally:
        conn.close()
