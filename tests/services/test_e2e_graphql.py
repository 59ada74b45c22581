"""GraphQL end to end with gql against real server processes: queries and mutations over HTTP, and the
`sessionChanges` subscription over both websocket protocols, fed by changes made through REST, on the same
server and on a second server sharing the Redis.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gql import Client, GraphQLRequest, gql
from gql.transport.exceptions import TransportQueryError
from gql.transport.httpx import HTTPXAsyncTransport
from gql.transport.websockets import WebsocketsTransport

from tests.services.servers import ServerProcess, Storage, create_session, redis_storage, sqlite_storage

DELIVERY_DEADLINE = 1.0  # seconds from the REST answer to the subscriber's message (the requirement)
PROTOCOLS = [WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL, WebsocketsTransport.APOLLO_SUBPROTOCOL]

CREATE = gql("""
mutation Create($heroes: JSON!, $seed: Long) {
  createSession(heroes: $heroes, seed: $seed) { sessionId token version state legalCommands { type options } }
}""")
POST = gql("""
mutation Post($sid: String!, $command: JSON!, $expected: Int, $key: String) {
  postCommand(sessionId: $sid, command: $command, expectedVersion: $expected, idempotencyKey: $key) {
    version basedOn replayed state events { type text hero rule changes { field before after } roll }
    pending { id kind question answerWith options { key label } }
  }
}""")
READ = gql("""
query Read($sid: String!) {
  session(sessionId: $sid) { sessionId version state pending { id } legalCommands { type options note } }
  legalCommands(sessionId: $sid) { version pending { id } legalCommands { type } }
  events(sessionId: $sid, after: -1, limit: 2) { nextAfter entries { version command events { type text } } }
}""")
UNDO = gql("""
mutation Undo($sid: String!, $steps: Int!) { undo(sessionId: $sid, steps: $steps) { version basedOn state } }
""")
LIST = gql("query { sessions(limit: 100) { sessions nextAfter } health { status storage } }")
CHANGES = gql("""
subscription Changes($sid: String!, $after: Int) {
  sessionChanges(sessionId: $sid, afterVersion: $after) { sessionId version command events { type text } state }
}""")
XP = {"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "xp", "amount": 1}]}


@pytest.fixture(scope="module")
def redis_store(request: pytest.FixtureRequest) -> Storage:
    proc = request.getfixturevalue("store_redis_proc")
    return redis_storage(f"redis://{proc.host}:{proc.port}/0")


@pytest.fixture(scope="module")
def server(redis_store: Storage, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(redis_store, tmp_path_factory.mktemp("gql-a")) as process:
        yield process
        assert "Traceback" not in process.log(), process.log()


@pytest.fixture(scope="module")
def replica(redis_store: Storage, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A second server process on the same Redis and key prefix, like a second replica behind a proxy."""
    with ServerProcess(redis_store, tmp_path_factory.mktemp("gql-b")) as process:
        yield process
        assert "Traceback" not in process.log(), process.log()


def http(server: ServerProcess, token: str | None = None) -> Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return Client(transport=HTTPXAsyncTransport(url=f"{server.url}/graphql", headers=headers, timeout=30))


async def _new_table(server: ServerProcess) -> tuple[str, str]:
    async with http(server) as session:
        created = (await session.execute(GraphQLRequest(CREATE, variable_values={
            "heroes": [{"id": "anna", "name": "Anna"}, {"id": "bo", "name": "Bo"}], "seed": 2**40})))["createSession"]
    return created["sessionId"], created["token"]


async def _refusal(session: Any, document: Any, **variables: Any) -> dict[str, Any]:
    with pytest.raises(TransportQueryError) as caught:
        await session.execute(GraphQLRequest(document, variable_values=variables))
    errors = caught.value.errors
    assert errors
    extensions: dict[str, Any] = errors[0]["extensions"]
    return extensions


def test_queries_and_mutations_over_http(server: ServerProcess) -> None:
    async def scenario() -> None:
        sid, token = await _new_table(server)
        async with http(server, token) as session:
            first = (await session.execute(GraphQLRequest(POST, variable_values={
                "sid": sid, "command": {"type": "choose_town_size", "size": "small", "dice": [[2], [5]]},
                "expected": 0, "key": "k-1"})))["postCommand"]
            assert (first["version"], first["basedOn"], first["replayed"]) == (1, 0, False)
            assert first["state"]["travel"]["rollers"] == ["anna"]  # FT-TRAVEL-02: 2 adds a hazard, 5 does not
            assert [e["roll"]["faces"] for e in first["events"] if e["type"] == "rolled"] == [[2], [5]]
            again = (await session.execute(GraphQLRequest(POST, variable_values={
                "sid": sid, "command": {"type": "choose_town_size", "size": "small", "dice": [[2], [5]]},
                "expected": 0, "key": "k-1"})))["postCommand"]
            assert again["replayed"] and again["version"] == 1 and again["state"] == first["state"]

            read = await session.execute(GraphQLRequest(READ, variable_values={"sid": sid}))
            assert read["session"]["version"] == read["legalCommands"]["version"] == 1
            assert read["session"]["state"] == first["state"]
            assert [c["type"] for c in read["legalCommands"]["legalCommands"]] == ["roll_hazard", "adjust"]
            assert [e["version"] for e in read["events"]["entries"]] == [0, 1]
            assert read["events"]["nextAfter"] is None

            undone = (await session.execute(GraphQLRequest(UNDO, variable_values={"sid": sid, "steps": 1})))["undo"]
            assert undone["version"] == 2 and undone["state"]["phase"] == "between_adventures"

            illegal = await _refusal(session, POST, sid=sid, command={"type": "arrive"})
            assert (illegal["code"], illegal["kind"], illegal["status"], illegal["field"], illegal["rule"]) == (
                "ILLEGAL_COMMAND", "illegal-command", 409, "type", "FT-TRAVEL-04")
            malformed = await _refusal(session, POST, sid=sid,
                                       command={"type": "choose_town_size", "size": "small", "dice": [[9]]})
            assert (malformed["status"], malformed["field"], malformed["rule"]) == (422, "dice[0][0]", "FF-DICE-01")
            unknown = await _refusal(session, POST, sid=sid, command={"type": "warp"})
            assert (unknown["status"], unknown["field"]) == (422, "type")
            stale = await _refusal(session, POST, sid=sid, command=XP, expected=0)
            assert (stale["code"], stale["status"], stale["current_version"]) == ("STALE_VERSION", 409, 2)
            missing = await _refusal(session, READ, sid="NOSUCH")
            assert (missing["code"], missing["status"]) == ("NOT_FOUND", 404)
            listing = await _refusal(session, LIST)
            assert (listing["code"], listing["status"]) == ("FORBIDDEN", 403)  # a table token lists nothing
        async with http(server) as anonymous:
            assert (await _refusal(anonymous, READ, sid=sid))["code"] == "UNAUTHENTICATED"
        async with http(server, "not-the-token") as stranger:
            assert (await _refusal(stranger, READ, sid=sid))["status"] == 403
        async with http(server, server.host_token) as host:
            listed = await host.execute(LIST)
            assert sid in listed["sessions"]["sessions"] and listed["health"]["storage"] == "redis"

    asyncio.run(scenario())


async def _watch(server: ServerProcess, token: str, sid: str, after: int, count: int, protocol: str,
                 received: list[tuple[float, dict[str, Any]]]) -> None:
    transport = WebsocketsTransport(url=server.ws_url, subprotocols=[protocol],
                                    init_payload={"Authorization": f"Bearer {token}"})
    async with Client(transport=transport) as session:
        async for message in session.subscribe(GraphQLRequest(CHANGES, variable_values={"sid": sid, "after": after})):
            received.append((time.monotonic(), message["sessionChanges"]))
            if len(received) == count:
                return


async def _post_rest(server: ServerProcess, token: str, sid: str, command: dict[str, Any]) -> tuple[float, Any]:
    async with httpx.AsyncClient(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as client:
        response = await client.post(f"/v1/sessions/{sid}/commands", json=command)
    assert response.status_code == 200, response.text
    return time.monotonic(), response.json()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_subscription_receives_a_rest_change_within_a_second(server: ServerProcess, protocol: str) -> None:
    async def scenario() -> None:
        sid, token = await _new_table(server)
        received: list[tuple[float, dict[str, Any]]] = []
        # afterVersion=0: a change written before the subscription is live is still delivered (no race)
        watcher = asyncio.create_task(_watch(server, token, sid, 0, 1, protocol, received))
        await asyncio.sleep(0.2)
        posted_at, body = await _post_rest(server, token, sid, XP)
        await asyncio.wait_for(watcher, timeout=10)
        (arrived_at, change), = received
        assert change["version"] == body["version"] == 1
        assert change["state"] == body["state"] and change["command"]["type"] == "adjust"
        assert [e["text"] for e in change["events"]] == [e["text"] for e in body["events"]]
        assert arrived_at - posted_at < DELIVERY_DEADLINE

    asyncio.run(scenario())


def test_a_second_server_on_the_same_redis_streams_every_version(server: ServerProcess,
                                                                 replica: ServerProcess) -> None:
    async def scenario() -> None:
        sid, token = await _new_table(server)
        near: list[tuple[float, dict[str, Any]]] = []
        far: list[tuple[float, dict[str, Any]]] = []
        watchers = [asyncio.create_task(_watch(server, token, sid, 0, 3, PROTOCOLS[0], near)),
                    asyncio.create_task(_watch(replica, token, sid, 0, 3, PROTOCOLS[1], far))]
        await asyncio.sleep(0.3)
        posts = [await _post_rest(server, token, sid, XP) for _ in range(3)]
        await asyncio.wait_for(asyncio.gather(*watchers), timeout=15)
        for received in (near, far):
            assert [change["version"] for _, change in received] == [1, 2, 3]  # every version, in order
            assert [change["state"] for _, change in received] == [body["state"] for _, body in posts]
        assert far[0][0] - posts[0][0] < DELIVERY_DEADLINE

    asyncio.run(scenario())


def test_subscription_refuses_a_wrong_token(server: ServerProcess) -> None:
    async def scenario() -> None:
        sid, _token = await _new_table(server)
        with pytest.raises(TransportQueryError) as caught:
            await _watch(server, "wrong-token", sid, 0, 1, PROTOCOLS[0], [])
        assert caught.value.errors and caught.value.errors[0]["extensions"]["status"] == 403

    asyncio.run(scenario())


def test_subscription_on_sqlite_in_process(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Without Redis the change feed is the process's own bus: a subscriber still sees every write."""
    storage = sqlite_storage(tmp_path_factory.mktemp("gql-sqlite"))
    with ServerProcess(storage, tmp_path_factory.mktemp("gql-sqlite-logs")) as server:
        async def scenario() -> None:
            with server.client() as anon:
                created = create_session(anon)
            sid, token = created["session_id"], created["token"]
            received: list[tuple[float, dict[str, Any]]] = []
            watcher = asyncio.create_task(_watch(server, token, sid, 0, 2, PROTOCOLS[0], received))
            await asyncio.sleep(0.2)
            await _post_rest(server, token, sid, XP)
            await _post_rest(server, token, sid, XP)
            await asyncio.wait_for(watcher, timeout=10)
            assert [change["version"] for _, change in received] == [1, 2]
            assert received[-1][1]["state"]["heroes"][0]["xp"] == 2

        asyncio.run(scenario())
        assert "Traceback" not in server.log(), server.log()


OPEN_TYPED = gql("""
mutation Open($heroes: [HeroInput!]!, $options: RuleOptionsInput, $seed: Long) {
  openTable(heroes: $heroes, options: $options, seed: $seed, pack: default) {
    sessionId token version game { phase heroes { id name skills { luck } } options { dice } }
  }
}""")
SEND_TYPED = gql("""
mutation Send($sid: String!, $command: CommandInput!, $key: String) {
  sendCommand(sessionId: $sid, command: $command, idempotencyKey: $key) {
    version replayed
    game { phase travel { size rollers remaining: resolved } heroes { name wounds } }
    events { type hero rolled { kind faces source } changes { field before after } }
    pending { kind answerWith die diceCount asks facts { name value }
              options { key label part costs { field amount } test { skill target } says facts { name value } } }
    legalCommands { type options }
  }
}""")
NAMES_AND_WOUNDS = gql("query Posse($sid: String!) { session(sessionId: $sid) { game { heroes { name wounds } } } }")
LOG_TYPED = gql("""
query Log($sid: String!) {
  events(sessionId: $sid) {
    entries {
      version
      applied {
        __typename
        ... on SessionOpened { pack heroes { name } }
        ... on ChooseTownSize { type size dice }
        ... on UndoRecord { steps toVersion }
      }
    }
  }
}""")


def test_typed_graphql_open_command_read_and_log(server: ServerProcess) -> None:
    """The typed door: HeroInput and enums in, a @oneOf command, only the fields a screen shows out; the log's
    commands as a union. No JSON scalar anywhere in these queries."""
    async def scenario() -> None:
        async with http(server) as anonymous:
            opened = (await anonymous.execute(GraphQLRequest(OPEN_TYPED, variable_values={
                "heroes": [{"id": "anna", "name": "Anna", "skills": {"luck": 4}}, {"id": "bo", "name": "Bo"}],
                "options": {"dice": "table"}, "seed": 2**40})))["openTable"]
        assert opened["game"] == {"phase": "between_adventures", "options": {"dice": "table"}, "heroes": [
            {"id": "anna", "name": "Anna", "skills": {"luck": 4}}, {"id": "bo", "name": "Bo", "skills": {"luck": 2}}]}
        sid, token = opened["sessionId"], opened["token"]
        async with http(server, token) as session:
            sent = (await session.execute(GraphQLRequest(SEND_TYPED, variable_values={
                "sid": sid, "command": {"chooseTownSize": {"size": "small", "dice": [[2], [5]]}}, "key": "t-1"})))
            result = sent["sendCommand"]
            assert result["game"]["travel"] == {"size": "small", "rollers": ["anna"], "remaining": 0}  # FT-TRAVEL-02
            rolls = [e["rolled"] for e in result["events"] if e["type"] == "rolled"]
            assert rolls == [{"kind": "d6", "faces": [2], "source": "table"}, {"kind": "d6", "faces": [5],
                                                                                 "source": "table"}]
            assert [c["type"] for c in result["legalCommands"]] == ["roll_hazard", "adjust"]
            posse = (await session.execute(GraphQLRequest(NAMES_AND_WOUNDS, variable_values={"sid": sid})))
            assert posse == {"session": {"game": {"heroes": [{"name": "Anna", "wounds": 0},
                                                             {"name": "Bo", "wounds": 0}]}}}
            log = (await session.execute(GraphQLRequest(LOG_TYPED, variable_values={"sid": sid})))["events"]
            assert [entry["applied"] for entry in log["entries"]] == [
                {"__typename": "SessionOpened", "pack": "default", "heroes": [{"name": "Anna"}, {"name": "Bo"}]},
                {"__typename": "ChooseTownSize", "type": "choose_town_size", "size": "small", "dice": [[2], [5]]}]
            with pytest.raises(TransportQueryError) as two:  # a @oneOf input takes exactly one member
                await session.execute(GraphQLRequest(SEND_TYPED, variable_values={
                    "sid": sid, "command": {"rollHazard": {}, "arrive": {}}}))
            assert "exactly one" in str(two.value.errors)
            bounded = await _refusal(session, SEND_TYPED, sid=sid, command={"adjust": {
                "hero": "anna", "effects": [{"op": "change", "field": "xp", "amount": 2_000_000}]}})
            assert (bounded["status"], bounded["field"]) == (422, "effects[0].amount")  # the same limits as REST
            hazard = (await session.execute(GraphQLRequest(SEND_TYPED, variable_values={
                "sid": sid, "command": {"rollHazard": {}}, "key": "t-2"})))["sendCommand"]["pending"]
            assert (hazard["asks"], hazard["facts"]) == ("hazard_roll", [{"name": "number", "value": 1},
                                                                         {"name": "count", "value": 1}])  # issue 19

    asyncio.run(scenario())
