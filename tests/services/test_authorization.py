"""Every operation of both doors, asked by every role, at its own event and at another's (issue 13).

The operations are read from the running code (the OpenAPI document's operation ids, the GraphQL schema's root
fields), so a new operation fails `test_every_operation_is_in_the_matrix` until its row is written here. Roles: no
token, the table's player, a player of another table of the same event, the table's spectator, the event's host, the
host of another event, and the deployment's admin. Allowed: a 2xx answer (GraphQL: data, no error). Refused: 401
without a token, 403 otherwise (GraphQL: UNAUTHENTICATED / FORBIDDEN), and a refused write leaves the table as it was.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import websockets

from tests.services.servers import ServerProcess, sqlite_storage

HERO = {"id": "hanzo", "name": "Hanzo"}
ROLES = ("anonymous", "player", "other_player", "spectator", "host", "other_host", "admin")
PUBLIC = frozenset(ROLES)
READERS = frozenset({"player", "spectator", "host", "admin"})
PLAYER = frozenset({"player"})
RUNNERS = frozenset({"player", "host", "admin"})
HOSTS = frozenset({"host", "admin"})
ADMIN = frozenset({"admin"})

# operation id (a role variant in brackets) -> who may
REST: dict[str, frozenset[str]] = {
    "createSession": PUBLIC, "listSessions": ADMIN, "getSession": READERS, "getLegalCommands": READERS,
    "listEvents": READERS, "streamChanges": READERS, "postCommand": PLAYER, "undoCommands": PLAYER,
    "archiveSession": RUNNERS, "deleteSession": PLAYER,
    "issueToken[player]": RUNNERS, "issueToken[spectator]": RUNNERS,
    "revokeToken[player]": HOSTS, "revokeToken[spectator]": RUNNERS,
    "pauseSession": HOSTS, "resumeSession": HOSTS, "callHost": PLAYER, "clearHostCall": RUNNERS,
    "openEvent": ADMIN, "listHostedEvents": ADMIN, "getEvent": HOSTS, "addEventTables": HOSTS,
    "streamEvent": HOSTS, "rotateHostToken": HOSTS, "exportEvent": HOSTS,
    "startSimulation": PUBLIC, "getSimulation": PUBLIC, "askOdds": READERS, "getOdds": READERS, "cancelOdds": READERS,
    "streamOdds": READERS, "getHealth": PUBLIC, "getReadiness": PUBLIC, "listProblemTypes": PUBLIC,
    "getProblemType": PUBLIC,
}
DESTRUCTIVE = {"archiveSession", "deleteSession", "issueToken[player]", "revokeToken[player]", "revokeToken[spectator]",
               "pauseSession", "rotateHostToken", "postCommand", "undoCommands", "issueToken[spectator]"}
WRITES = {"postCommand", "undoCommands"}
# GraphQL root field -> the REST operation it is the same use case as
GRAPHQL: dict[str, str] = {
    "session": "getSession", "legalCommands": "getLegalCommands", "events": "listEvents", "sessions": "listSessions",
    "simulation": "getSimulation", "health": "getHealth", "odds": "getOdds", "event": "getEvent",
    "hostedEvents": "listHostedEvents", "eventExport": "exportEvent",
    "openTable": "createSession", "createSession": "createSession", "sendCommand": "postCommand",
    "postCommand": "postCommand", "undo": "undoCommands", "runSimulation": "startSimulation",
    "startSimulation": "startSimulation", "askOdds": "askOdds", "runOdds": "askOdds", "cancelOdds": "cancelOdds", "openEvent": "openEvent",
    "addEventTables": "addEventTables", "rotateHostToken": "rotateHostToken", "issueToken": "issueToken[spectator]",
    "revokeToken": "revokeToken[spectator]", "pauseTable": "pauseSession", "resumeTable": "resumeSession",
    "closeTable": "archiveSession", "callHost": "callHost", "clearHostCall": "clearHostCall",
    "sessionChanges": "streamChanges", "eventChanges": "streamEvent", "oddsProgress": "streamOdds",
}


@dataclass
class World:
    """Two events: A with tables T1 (the one asked about, with a spectator token) and T2, and B with T3."""

    event: str
    other_event: str
    table: str
    tokens: dict[str, str | None]
    simulation: str
    odds: str


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("authz")
    with ServerProcess(sqlite_storage(tmp), tmp, env={"BRIMSTONE_SIMULATION_EXECUTOR": "thread"}) as running:
        yield running


def _ok(response: httpx.Response) -> dict[str, Any]:
    assert response.is_success, response.text
    body: dict[str, Any] = response.json()
    return body


def make_world(server: ServerProcess, *, moved: bool = False, jobs: World | None = None) -> World:
    """A fresh world; `moved`: table T1 has made one move (so there is something to undo); `jobs`: a world whose
    simulation and odds jobs this one shares (they take a worker's time to start)."""
    with httpx.Client(base_url=server.url, timeout=30) as c:
        admin = {"Authorization": f"Bearer {server.host_token}"}
        a = _ok(c.post("/v1/events", json={"name": "A"}, headers=admin))
        b = _ok(c.post("/v1/events", json={"name": "B"}, headers=admin))
        host_a, host_b = ({"Authorization": f"Bearer {e['host_token']}"} for e in (a, b))
        t1, t2 = _ok(c.post(f"/v1/events/{a['event_id']}/tables", json={"count": 2, "heroes": [HERO]},
                            headers=host_a))["tables"]
        _ok(c.post(f"/v1/events/{b['event_id']}/tables", json={"count": 1, "heroes": [HERO]}, headers=host_b))
        player = {"Authorization": f"Bearer {t1['token']}"}
        spectator = _ok(c.post(f"/v1/sessions/{t1['session_id']}/tokens/spectator", headers=player))["token"]
        if jobs is None:
            simulation = _ok(c.post("/v1/simulations", json={"heroes": [HERO], "size": "small", "trials": 5}))["job_id"]
            odds = _ok(c.post("/v1/odds", json={"question": "town_size", "session_id": t1["session_id"], "trials": 5},
                              headers=player))["job_id"]
        else:
            simulation, odds = jobs.simulation, jobs.odds
        if moved:
            _ok(c.post(f"/v1/sessions/{t1['session_id']}/commands", headers=player,
                       json={"type": "choose_town_size", "size": "medium"}))
    return World(a["event_id"], b["event_id"], t1["session_id"],
                 {"anonymous": None, "player": t1["token"], "other_player": t2["token"], "spectator": spectator,
                  "host": a["host_token"], "other_host": b["host_token"], "admin": server.host_token},
                 simulation, odds)


Request = tuple[str, str, Any]  # method, path, JSON body (None: no body)


def rest_request(case: str, w: World) -> Request:
    t, e = f"/v1/sessions/{w.table}", f"/v1/events/{w.event}"
    role = case.partition("[")[2].rstrip("]")
    return {
        "createSession": ("POST", "/v1/sessions", {"heroes": [HERO]}),
        "listSessions": ("GET", "/v1/sessions", None),
        "getSession": ("GET", t, None), "getLegalCommands": ("GET", f"{t}/legal-commands", None),
        "listEvents": ("GET", f"{t}/events", None), "streamChanges": ("GET", f"{t}/changes?after=-1", None),
        "postCommand": ("POST", f"{t}/commands", {"type": "choose_town_size", "size": "small"}),
        "undoCommands": ("POST", f"{t}/undo", {}), "archiveSession": ("POST", f"{t}/archive", None),
        "deleteSession": ("DELETE", t, None), "issueToken": ("POST", f"{t}/tokens/{role}", None),
        "revokeToken": ("DELETE", f"{t}/tokens/{role}", None), "pauseSession": ("POST", f"{t}/pause", None),
        "resumeSession": ("POST", f"{t}/resume", None), "callHost": ("POST", f"{t}/host-call", {"reason": "help"}),
        "clearHostCall": ("DELETE", f"{t}/host-call", None),
        "openEvent": ("POST", "/v1/events", {"name": "C"}), "listHostedEvents": ("GET", "/v1/events", None),
        "getEvent": ("GET", e, None), "addEventTables": ("POST", f"{e}/tables", {"count": 1, "heroes": [HERO]}),
        "streamEvent": ("GET", f"{e}/changes", None), "rotateHostToken": ("POST", f"{e}/host-token", None),
        "exportEvent": ("GET", f"{e}/export", None),
        "startSimulation": ("POST", "/v1/simulations", {"heroes": [HERO], "size": "small", "trials": 5}),
        "getSimulation": ("GET", f"/v1/simulations/{w.simulation}", None),
        "askOdds": ("POST", "/v1/odds", {"question": "town_size", "session_id": w.table, "trials": 5}),
        "getOdds": ("GET", f"/v1/odds/{w.odds}", None), "cancelOdds": ("DELETE", f"/v1/odds/{w.odds}", None),
        "streamOdds": ("GET", f"/v1/odds/{w.odds}/events", None), "getHealth": ("GET", "/v1/health", None),
        "getReadiness": ("GET", "/v1/ready", None), "listProblemTypes": ("GET", "/problems", None),
        "getProblemType": ("GET", "/problems/forbidden", None),
    }[case.partition("[")[0]]


def call_rest(server: ServerProcess, w: World, case: str, role: str) -> int:
    method, path, body = rest_request(case, w)
    token = w.tokens[role]
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx.Client(base_url=server.url, timeout=30) as c, \
            c.stream(method, path, json=body, headers=headers) as response:
        return response.status_code  # a stream is left as soon as it answered


def version(server: ServerProcess, w: World) -> int:
    with server.client(w.tokens["admin"]) as c:
        return int(_ok(c.get(f"/v1/sessions/{w.table}"))["version"])


def test_every_operation_is_in_the_matrix() -> None:
    from services.api.app import openapi_document
    from services.api.graphql.schema import schema

    document = openapi_document()
    operations = {op["operationId"] for item in document["paths"].values() for op in item.values()
                  if isinstance(op, dict) and "operationId" in op}
    assert operations == {case.partition("[")[0] for case in REST}, "write the new operation's row in REST"
    graphql = schema._schema
    fields = {name for root in (graphql.query_type, graphql.mutation_type, graphql.subscription_type)
              if root is not None for name in root.fields}
    assert fields == set(GRAPHQL), "write the new GraphQL field's row in GRAPHQL"


@pytest.fixture(scope="module")
def shared(server: ServerProcess) -> World:
    """The world the operations that change nothing are asked in."""
    return make_world(server)


def _world(server: ServerProcess, shared: World, operation: str) -> World:
    return make_world(server, moved=operation == "undoCommands", jobs=shared) if operation in DESTRUCTIVE else shared


@pytest.mark.parametrize("case", sorted(REST))
def test_rest_operation_by_every_role(server: ServerProcess, shared: World, case: str) -> None:
    world = _world(server, shared, case)
    before = version(server, world)
    allowed = REST[case]
    for role in ROLES:
        if role in allowed:
            continue
        status = call_rest(server, world, case, role)
        assert status == (401 if role == "anonymous" else 403), f"{case} by {role}: {status}"
    if case in WRITES:
        assert version(server, world) == before, f"a refused {case} wrote"
    for role in sorted(allowed):
        if case in DESTRUCTIVE:
            world = _world(server, shared, case)
        status = call_rest(server, world, case, role)
        assert 200 <= status < 300, f"{case} by {role}: {status}"


# ---- GraphQL ----------------------------------------------------------------------------------------------------

HERO_INPUT = '{id: "hanzo", name: "Hanzo"}'


def graphql_document(field: str, w: World) -> tuple[str, str]:
    """('query' | 'mutation' | 'subscription', the document) for a root field, aimed at table T1 / event A."""
    t, e = json.dumps(w.table), json.dumps(w.event)
    queries = {
        "session": f"{{ session(sessionId: {t}) {{ version }} }}",
        "legalCommands": f"{{ legalCommands(sessionId: {t}) {{ version }} }}",
        "events": f"{{ events(sessionId: {t}) {{ version }} }}",
        "sessions": "{ sessions { sessions } }",
        "simulation": f"{{ simulation(jobId: {json.dumps(w.simulation)}) {{ jobId }} }}",
        "health": "{ health { status } }", "odds": f"{{ odds(jobId: {json.dumps(w.odds)}) {{ jobId }} }}",
        "event": f"{{ event(eventId: {e}) {{ eventId }} }}", "hostedEvents": "{ hostedEvents { events } }",
        "eventExport": f"{{ eventExport(eventId: {e}) {{ eventId }} }}",
    }
    mutations = {
        "openTable": f"mutation {{ openTable(heroes: [{HERO_INPUT}]) {{ sessionId }} }}",
        "createSession": 'mutation { createSession(heroes: [{id: "hanzo", name: "Hanzo"}]) { sessionId } }',
        "sendCommand": f"mutation {{ sendCommand(sessionId: {t}, command: {{chooseTownSize: {{size: small}}}}) "
                       "{ version } }",
        "postCommand": f'mutation {{ postCommand(sessionId: {t}, command: {{type: "choose_town_size", '
                       'size: "small"}) { version } }',
        "undo": f"mutation {{ undo(sessionId: {t}) {{ version }} }}",
        "runSimulation": f"mutation {{ runSimulation(heroes: [{HERO_INPUT}], size: small, trials: 5) {{ jobId }} }}",
        "startSimulation": f'mutation {{ startSimulation(heroes: [{HERO_INPUT}], size: "small", trials: 5) '
                           "{ jobId } }",
        "askOdds": f'mutation {{ askOdds(question: "town_size", sessionId: {t}, trials: 5) {{ jobId }} }}',
        "runOdds": f"mutation {{ runOdds(question: town_size, sessionId: {t}, trials: 5) {{ jobId }} }}",
        "cancelOdds": f"mutation {{ cancelOdds(jobId: {json.dumps(w.odds)}) {{ jobId }} }}",
        "openEvent": 'mutation { openEvent(name: "C") { eventId } }',
        "addEventTables": f"mutation {{ addEventTables(eventId: {e}, count: 1, heroes: [{HERO_INPUT}]) "
                          "{ eventId } }",
        "rotateHostToken": f"mutation {{ rotateHostToken(eventId: {e}) {{ eventId }} }}",
        "issueToken": f"mutation {{ issueToken(sessionId: {t}, role: spectator) {{ token }} }}",
        "revokeToken": f"mutation {{ revokeToken(sessionId: {t}, role: spectator) }}",
        "pauseTable": f"mutation {{ pauseTable(sessionId: {t}) {{ status }} }}",
        "resumeTable": f"mutation {{ resumeTable(sessionId: {t}) {{ status }} }}",
        "closeTable": f"mutation {{ closeTable(sessionId: {t}) {{ status }} }}",
        "callHost": f'mutation {{ callHost(sessionId: {t}, reason: "help") {{ sessionId }} }}',
        "clearHostCall": f"mutation {{ clearHostCall(sessionId: {t}) {{ sessionId }} }}",
    }
    subscriptions = {
        "sessionChanges": f"subscription {{ sessionChanges(sessionId: {t}, afterVersion: -1) {{ version }} }}",
        "eventChanges": f"subscription {{ eventChanges(eventId: {e}) {{ sessionId }} }}",
        "oddsProgress": f"subscription {{ oddsProgress(jobId: {json.dumps(w.odds)}) {{ jobId }} }}",
    }
    for kind, table in (("query", queries), ("mutation", mutations), ("subscription", subscriptions)):
        if field in table:
            return kind, table[field]
    raise KeyError(field)


async def _subscribe(server: ServerProcess, document: str, token: str | None) -> dict[str, Any]:
    """The first answer to a subscription over graphql-transport-ws: {"data": ...} or {"errors": [...]}."""
    async with websockets.connect(server.ws_url, subprotocols=["graphql-transport-ws"]) as ws:  # type: ignore[list-item]
        await ws.send(json.dumps({"type": "connection_init",
                                  "payload": {"Authorization": f"Bearer {token}"} if token else {}}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": document}}))
        message = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if message["type"] == "error":
            return {"errors": message["payload"]}
        payload: dict[str, Any] = message["payload"]
        return payload


def call_graphql(server: ServerProcess, w: World, field: str, role: str) -> dict[str, Any]:
    kind, document = graphql_document(field, w)
    token = w.tokens[role]
    if kind == "subscription":
        return asyncio.run(_subscribe(server, document, token))
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.post(f"{server.url}/graphql", json={"query": document}, headers=headers, timeout=30)
    body: dict[str, Any] = response.json()
    return body


def _codes(answer: dict[str, Any]) -> set[str]:
    return {str((e.get("extensions") or {}).get("code")) for e in answer.get("errors") or []}


@pytest.mark.parametrize("field", sorted(GRAPHQL))
def test_graphql_field_by_every_role(server: ServerProcess, shared: World, field: str) -> None:
    world = _world(server, shared, GRAPHQL[field])
    before = version(server, world)
    allowed = REST[GRAPHQL[field]]
    for role in ROLES:
        if role in allowed:
            continue
        answer = call_graphql(server, world, field, role)
        assert _codes(answer) == {"UNAUTHENTICATED" if role == "anonymous" else "FORBIDDEN"}, (field, role, answer)
    if GRAPHQL[field] in WRITES:
        assert version(server, world) == before, f"a refused {field} wrote"
    for role in sorted(allowed):
        if GRAPHQL[field] in DESTRUCTIVE:
            world = _world(server, shared, GRAPHQL[field])
        answer = call_graphql(server, world, field, role)
        assert not answer.get("errors") and answer.get("data"), (field, role, answer)


def test_a_rotated_player_token_stops_writing_and_a_revoked_spectator_stops_reading(server: ServerProcess) -> None:
    """A lost player token replaced by the host: the old one writes nothing (even on the replica's fast path, which
    skips the read: the commit itself checks the writer), the new one plays on; a revoked spectator token reads
    nothing."""
    w = make_world(server)
    old, spectator = w.tokens["player"], w.tokens["spectator"]
    move = {"type": "choose_town_size", "size": "small"}
    with server.client(old) as player:
        _ok(player.post(f"/v1/sessions/{w.table}/commands", json=move))  # this replica now remembers the table
    with server.client(w.tokens["host"]) as host:
        new = _ok(host.post(f"/v1/sessions/{w.table}/tokens/player"))["token"]
        assert host.delete(f"/v1/sessions/{w.table}/tokens/spectator").status_code == 204
    with server.client(old) as player:
        assert player.post(f"/v1/sessions/{w.table}/undo", json={}).status_code == 403
    with server.client(new) as player:
        assert _ok(player.post(f"/v1/sessions/{w.table}/undo", json={}))["version"] == 2
    with server.client(spectator) as reader:
        assert reader.get(f"/v1/sessions/{w.table}").status_code == 403



def test_tokens_have_no_look_alike_characters_and_never_start_with_a_dash() -> None:
    """A token copied from a printed card by hand (issue 21): no O/0, I/1/l to mistake; and never a leading "-",
    which a command line reads as an option (`brimstone odds --token -x...`; CI met one in 64 runs)."""
    from services import use_cases

    drawn = [use_cases.new_token() for _ in range(200)]
    assert all(len(token) == 40 for token in drawn)
    assert not set("".join(drawn)) & set("O0I1l-_o"), drawn[:3]
    assert len(set(drawn)) == 200
