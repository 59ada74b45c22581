"""Abuse limits and bad input at the edge, on real servers: rate limits per address and per token (429 with
Retry-After and RateLimit, shared by two replicas through Redis), table creation, wrong tokens, simulation caps and
the bounded queue, GraphQL depth/alias/cost/root-field limits, the fuzz findings (deep nesting, lone surrogates,
1,000 mutation fields, transport errors as JSON), 415, repeated query parameters, security headers, no-store,
CORS, request ids and /metrics (on a port of its own).

Each test speaks from its own client address (X-Forwarded-For, which the service trusts from the loopback proxy
only: BRIMSTONE_TRUSTED_PROXIES), so the tests share one server without sharing counters.
"""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from services.limits import FLUSH_INTERVAL, Guard
from services.settings import Settings
from shared_rules.codec import encode
from shared_rules.simulate import sample_heroes
from tests import processes
from tests.services.servers import (
    ServerProcess,
    Storage,
    create_session,
    free_port,
    redis_storage,
    sqlite_storage,
)

PROBLEM = "application/problem+json"
LOW_LIMITS = {
    "BRIMSTONE_RATE_LIMIT_ADDRESS": "12/minute",
    "BRIMSTONE_RATE_LIMIT_TOKEN": "8/minute",
    "BRIMSTONE_RATE_LIMIT_CREATE": "3/minute",
    "BRIMSTONE_RATE_LIMIT_SIMULATION": "100/minute",
    "BRIMSTONE_RATE_LIMIT_AUTH_FAILURES": "3/minute",
    "BRIMSTONE_MAX_SIMULATIONS_PER_CLIENT": "1",
    "BRIMSTONE_MAX_QUEUED_SIMULATIONS": "2",
    "BRIMSTONE_SIMULATION_EXECUTOR": "thread",
    "BRIMSTONE_SIMULATION_WORKERS": "1",
    "BRIMSTONE_CORS_ORIGINS": "https://table.example",
    "BRIMSTONE_GRAPHQL_MAX_COST": "60",
}
_addresses = (f"10.9.{n // 250}.{n % 250 + 1}" for n in itertools.count())


def address() -> dict[str, str]:
    """Headers that make the next requests come from a fresh client address."""
    return {"X-Forwarded-For": next(_addresses)}


def refused(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM), response.headers
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["detail"]
    return body


def rate_limited(response: httpx.Response, policy: str) -> dict[str, Any]:
    body = refused(response, 429)
    assert int(response.headers["retry-after"]) >= 1
    assert response.headers["ratelimit-policy"].startswith(f'"{policy}";q=')
    assert response.headers["ratelimit"].startswith(f'"{policy}";r=0;t=')
    return body


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    storage = sqlite_storage(tmp_path_factory.mktemp("limits-db"))
    env = {**LOW_LIMITS, "BRIMSTONE_METRICS_PORT": str(free_port())}
    with ServerProcess(storage, tmp_path_factory.mktemp("limits-logs"), env=env) as process:
        yield process
        assert "Traceback" not in process.log(), process.log()


def table(server: ServerProcess) -> dict[str, Any]:
    with server.client(headers=address()) as client:
        return create_session(client)


# ---- rate limits ---------------------------------------------------------------------------------------------


def test_an_address_over_its_limit_gets_429_with_retry_after_and_ratelimit(server: ServerProcess) -> None:
    created = table(server)
    with server.client(headers=address()) as client:
        answers = [client.get(f"/v1/sessions/{created['session_id']}") for _ in range(14)]  # 401s count too
    statuses = [r.status_code for r in answers]
    assert statuses[:12] == [401] * 12 and statuses[12:] == [429, 429]
    ok = answers[0]
    assert ok.headers["ratelimit-policy"] == '"address";q=12;w=60'
    assert ok.headers["ratelimit"].startswith('"address";r=11;')
    assert rate_limited(answers[-1], "address")["type"] == "/problems/rate-limited"
    with server.client(headers=address()) as health:  # health and readiness are never limited
        assert all(health.get("/v1/health").status_code == 200 for _ in range(20))


def test_a_token_over_its_limit_gets_429_from_any_address(server: ServerProcess) -> None:
    created = table(server)
    url = f"/v1/sessions/{created['session_id']}"
    statuses = []
    for _ in range(9):  # a fresh address each time: only the token's budget runs out
        with server.client(created["token"], headers=address()) as client:
            statuses.append(client.get(url).status_code)
    assert statuses == [200] * 8 + [429]
    with server.client(created["token"], headers=address()) as client:
        rate_limited(client.get(url), "token")


def test_opening_tables_is_limited_per_address_on_both_doors(server: ServerProcess) -> None:
    heroes = [{"id": "anna", "name": "Anna"}]
    with server.client(headers=address()) as client:
        for _ in range(3):
            assert client.post("/v1/sessions", json={"heroes": heroes}).status_code == 201
        rate_limited(client.post("/v1/sessions", json={"heroes": heroes}), "create")
        answer = client.post("/graphql", json={"query": 'mutation { createSession(heroes: [{id: "a", name: "A"}])'
                                                        " { sessionId } }"}).json()
        assert answer["data"] is None and answer["errors"][0]["extensions"]["code"] == "RATE_LIMITED"


def test_a_guesser_is_refused_after_its_wrong_tokens_on_both_doors(server: ServerProcess) -> None:
    created = table(server)
    url = f"/v1/sessions/{created['session_id']}"
    guesser = address()
    for _ in range(3):
        with server.client(uuid.uuid4().hex, headers=guesser) as client:
            refused(client.get(url), 403)
    for _ in range(3):  # every further guess: 429, not another 403 to learn from
        with server.client(uuid.uuid4().hex, headers=guesser) as client:
            body = rate_limited(client.get(url), "auth-failures")
            assert body["field"] == "Authorization"
    query = "query($s: String!) { session(sessionId: $s) { version } }"
    with server.client(uuid.uuid4().hex, headers=guesser) as client:
        answer = client.post("/graphql", json={"query": query, "variables": {"s": created["session_id"]}}).json()
    assert answer["errors"][0]["extensions"]["code"] == "RATE_LIMITED"


def test_one_phone_with_a_replaced_card_does_not_lock_out_its_room(server: ServerProcess) -> None:
    """Behind a venue's NAT every phone has one address: the wrong-token lockout refuses wrong tokens only."""
    tables = [table(server) for _ in range(2)]
    room = address()
    for _ in range(6):  # a phone that still holds its table's old card keeps trying it
        with server.client("the-old-card-" + uuid.uuid4().hex[:6], headers=room) as client:
            assert client.get(f"/v1/sessions/{tables[0]['session_id']}").status_code in (403, 429)
    for created in tables:  # every other phone of the room, and the new card, play on
        with server.client(created["token"], headers=room) as client:
            assert client.get(f"/v1/sessions/{created['session_id']}").status_code == 200


def test_a_forged_forwarded_for_changes_nothing_from_an_untrusted_peer(tmp_path: Path) -> None:
    """With no trusted proxy (BRIMSTONE_TRUSTED_PROXIES empty) the peer's address is the client's, whatever
    X-Forwarded-For says: a guesser cannot pick a fresh address per guess."""
    env = {**LOW_LIMITS, "BRIMSTONE_TRUSTED_PROXIES": ""}
    with ServerProcess(sqlite_storage(tmp_path), tmp_path, env=env) as alone:
        created = table(alone)
        url = f"/v1/sessions/{created['session_id']}"
        statuses = []
        for _ in range(5):
            with alone.client(uuid.uuid4().hex, headers=address()) as client:
                statuses.append(client.get(url).status_code)
        assert statuses == [403, 403, 403, 429, 429]


def test_two_rules_of_the_same_rate_count_apart() -> None:
    """Opening 3 tables and sending 3 wrong tokens, both limited to 3 a minute: neither refused (they once shared
    one counter, so the tables opened counted as wrong tokens)."""
    import asyncio

    guard = Guard(Settings(rate_limit_create="3/minute", rate_limit_auth_failures="3/minute"))

    async def evening() -> None:
        for _ in range(3):
            await guard.opening_table()
        for _ in range(3):
            await guard.failed_token()
        await guard.close()

    asyncio.run(evening())


@pytest.mark.parametrize("text", ["60/minute", "10 per 2 seconds", "1/second; 100/hour", "5/Day,7/month|1 per year",
                                  " 3 / minute ", "2/minutes", "60/fortnight", "60/", "minute", "60/minute;",
                                  "1/secondss", "-1/minute", "1.5/minute", "1 minute"])
def test_a_rate_setting_is_checked_as_the_limits_library_reads_it(text: str) -> None:
    """Settings checks a rate without importing `limits` (the start does not load it): both agree on what is one."""
    from limits import parse_many

    try:
        parse_many(text)
        readable = True
    except ValueError:
        readable = False
    if readable:
        assert Settings.from_env({"BRIMSTONE_RATE_LIMIT_CREATE": text}).rate_limit_create == text.strip()
    else:
        with pytest.raises(ValueError, match="rate_limit_create"):
            Settings.from_env({"BRIMSTONE_RATE_LIMIT_CREATE": text})


def test_an_empty_rate_setting_switches_that_limit_off() -> None:
    settings = Settings.from_env({"BRIMSTONE_RATE_LIMIT_ADDRESS": "", "BRIMSTONE_RATE_LIMIT_TOKEN": "5/minute"})
    assert settings.rate_limit_address == "" and settings.rate_limit_token == "5/minute"
    assert Settings.from_env({}).rate_limit_address == "1200/minute"  # unset: the default
    guard = Guard(settings)
    assert guard.address is None and guard.token is not None

    async def many() -> None:
        for _ in range(5000):
            guard.admit("10.1.2.3", None)  # no token, no address limit: never refused
        await guard.close()

    import asyncio

    asyncio.run(many())


def test_simulations_are_capped_per_client_and_the_queue_is_bounded(server: ServerProcess) -> None:
    spec = {"heroes": [encode(h) for h in sample_heroes(2)], "size": "large", "trials": 200_000, "seed": 1}
    first, second, third = address(), address(), address()
    with server.client(headers=first) as client:
        assert client.post("/v1/simulations", json=spec).status_code == 202
        body = refused(client.post("/v1/simulations", json=spec), 429)
        assert "per client" in body["detail"] and int(client.post("/v1/simulations", json=spec)
                                                      .headers["retry-after"]) >= 1
    with server.client(headers=second) as client:
        assert client.post("/v1/simulations", json=spec).status_code == 202
    with server.client(headers=third) as client:
        full = client.post("/v1/simulations", json=spec)
        refused(full, 503)
        assert int(full.headers["retry-after"]) >= 1
        assert "queued or running" in full.json()["detail"]
        too_many = client.post("/v1/simulations", json={**spec, "trials": 10**9})
        assert refused(too_many, 422)["field"] == "trials"


def _shared_count(storage: Storage, token: str) -> int:
    """The count the replicas' flushes have added up in Redis for this bearer token's limit (0 before the first): one
    GET of its counter (a SCAN of the suite's shared Redis could outlast the counter's one-minute window)."""
    rule = Guard(Settings(redis_prefix=storage.prefix, rate_limit_token="10/minute")).token
    assert rule is not None and storage.redis_url
    client = redis.Redis.from_url(storage.redis_url)
    try:
        return int(client.get(f"{storage.prefix}:limits:{rule.key(token)}") or 0)
    finally:
        client.close()


def _counters(storage: Storage) -> dict[bytes, object]:
    """Every rate-limit counter under the storage's prefix (what a failure reports)."""
    assert storage.redis_url
    client = redis.Redis.from_url(storage.redis_url)
    try:
        return {key: client.get(key) for key in client.scan_iter(match=f"{storage.prefix}:limits:*")}
    finally:
        client.close()


def test_two_replicas_share_the_count_through_redis(store_redis_url: str, tmp_path: Path) -> None:
    storage: Storage = redis_storage(store_redis_url)
    env = {**LOW_LIMITS, "BRIMSTONE_RATE_LIMIT_TOKEN": "10/minute"}
    with ServerProcess(storage, tmp_path, env=env) as a, ServerProcess(storage, tmp_path, env=env) as b:
        created = table(a)
        url = f"/v1/sessions/{created['session_id']}"
        for _ in range(6):
            with a.client(created["token"], headers=address()) as client:
                assert client.get(url).status_code == 200
        # b has seen none of them; once a's counts reach the shared counter (a's next flush: on a busy machine it
        # may come seconds late, so it is waited for), b refuses past 10 in all
        deadline = time.monotonic() + processes.start_timeout(30)
        while _shared_count(storage, created["token"]) < 6:
            assert time.monotonic() < deadline, (f"a's counts never reached Redis; its counters there: "
                                                 f"{_counters(storage)}; a's log:\n{a.log()[-3000:]}")
            time.sleep(FLUSH_INTERVAL / 5)
        seen_by_b = 0
        while True:
            with b.client(created["token"], headers=address()) as client:
                status = client.get(url).status_code
            if status == 429:
                break
            assert status == 200
            seen_by_b += 1
            assert time.monotonic() < deadline
            # the promise is "refused from the next flush on": two flush intervals apart, every request of b's
            # sees the count after the last flush (closer together, b may admit one more before it learns)
            time.sleep(2 * FLUSH_INTERVAL)
        assert seen_by_b <= 4  # 6 + 4 = the shared budget of 10


# ---- GraphQL limits and the fuzz findings ----------------------------------------------------------------------


def graphql(server: ServerProcess, query: str, **extra: Any) -> httpx.Response:
    with server.client(headers=address()) as client:
        return client.post("/graphql", json={"query": query, **extra})


GRAPHQL_REFUSAL = {"code", "kind", "type", "title", "status", "detail", "field", "rule"}


def graphql_refused(response: httpx.Response, status: int = 400) -> list[dict[str, Any]]:
    """The GraphQL door's one shape of refusal (docs/api.md, GraphQL): the HTTP status is the refusal's, the
    body a GraphQL answer with no data and errors whose extensions carry the problem members and a code."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json"), response.headers
    body = response.json()
    assert body["data"] is None and body["errors"], body
    for error in body["errors"]:
        extensions = error["extensions"]
        assert set(extensions) >= GRAPHQL_REFUSAL, extensions
        assert extensions["status"] == status and extensions["detail"] == error["message"]
    return [e["extensions"] for e in body["errors"]]


def test_graphql_depth_alias_cost_and_root_field_limits(server: ServerProcess) -> None:
    def codes(response: httpx.Response) -> set[str]:
        return {e["code"] for e in graphql_refused(response)}

    aliases = "{" + " ".join(f"a{i}: health {{ status }}" for i in range(40)) + "}"
    assert codes(graphql(server, aliases)) == {"QUERY_TOO_COSTLY"}
    roots = "{" + " ".join(f"a{i}: health {{ status }}" for i in range(11)) + "}"
    assert codes(graphql(server, roots)) == {"QUERY_TOO_COSTLY"}
    deep = "{ __schema { types { " + "fields { type { " * 8 + "name" + " } }" * 8 + " } } }"
    assert codes(graphql(server, deep)) == {"QUERY_TOO_COSTLY"}  # graphql-core's introspection depth rule
    fragment = "fragment T on __Type { name kind fields { name type { name kind ofType { name kind } } } } "
    costly = fragment + "{ __schema { " + " ".join(f"t{i}: types {{ ...T }}" for i in range(7)) + " } }"
    assert codes(graphql(server, costly)) == {"QUERY_TOO_COSTLY"}  # 1 + 7 x (1 + 1 + 9), 60 allowed
    assert graphql(server, "{ health { status } }").json() == {"data": {"health": {"status": "ok"}}}


def test_graphql_fuzz_findings_answer_4xx_json_never_500(server: ServerProcess) -> None:
    with server.client(headers=address()) as client:
        nested = client.post("/graphql", content=b'{"query": "{ health { status } }", "variables": '
                             + b"[" * 1500 + b"]" * 1500 + b"}", headers={"Content-Type": "application/json"})
        assert graphql_refused(nested)[0]["field"] == "body"
        deep_query = client.post("/graphql", json={"query": "{" * 1200 + "}" * 1200})
        assert graphql_refused(deep_query)[0]["field"] == "query"
        surrogate = client.post("/graphql", content=b'{"query": "mutation($h: JSON!) { createSession(heroes: $h) '
                                b'{ sessionId } }", "variables": {"h": [{"id": "a", "name": "\\ud800"}]}}',
                                headers={"Content-Type": "application/json"})
        assert "surrogate" in graphql_refused(surrogate)[0]["detail"]
        many = "mutation {" + " ".join(f'm{i}: createSession(heroes: [{{id: "a", name: "A"}}]) {{ sessionId }}'
                                       for i in range(1000)) + "}"
        assert graphql_refused(client.post("/graphql", json={"query": many}))[0]["code"] == "QUERY_TOO_COSTLY"
        for body, content_type in ((b"{not json", "application/json"), (b"query { health }", "text/plain")):
            transport = client.post("/graphql", content=body, headers={"Content-Type": content_type})
            assert graphql_refused(transport, transport.status_code)[0]["code"] == "BAD_REQUEST"


def test_every_graphql_refusal_has_one_shape_and_status_rule(server: ServerProcess) -> None:
    """Refused before it ran: the refusal's status and code (syntax, schema, variables, limits, a GET mutation,
    an unknown operation name); refused while running (a field's use case said no): 200, data, the same
    extension members."""
    refusals = {
        "{ health { ": "GRAPHQL_PARSE_FAILED",
        "{ nope }": "GRAPHQL_VALIDATION_FAILED",
        "fragment A on Query { health { status } ...A } { ...A }": "GRAPHQL_VALIDATION_FAILED",
    }
    for query, code in refusals.items():
        assert [e["code"] for e in graphql_refused(graphql(server, query))] == [code], query
    variable = graphql(server, "query($n: Int!) { sessions(limit: $n) { nextAfter } }", variables={})
    assert graphql_refused(variable)[0]["field"] == "variables"
    unknown = graphql_refused(graphql(server, "query A { health { status } }", operationName="B"))
    assert unknown[0]["field"] == "operationName"
    with server.client(headers=address()) as client:
        mutation = client.get("/graphql", params={"query": 'mutation { openEvent(name: "x") { eventId } }'},
                              headers={"Accept": "application/json"})
    assert graphql_refused(mutation)[0]["code"] == "GRAPHQL_VALIDATION_FAILED"
    with server.client(headers=address()) as client:
        too_large = client.post("/graphql", json={"query": "{ health { status } }", "pad": "x" * 1_100_000})
        assert graphql_refused(too_large, 413)[0]["code"] == "BODY_TOO_LARGE"
    with server.client(headers=address()) as client:
        answers = [client.post("/graphql", json={"query": "{ health { status } }"}) for _ in range(13)]
    assert [a.status_code for a in answers[:12]] == [200] * 12
    limited = graphql_refused(answers[12], 429)[0]
    assert limited["code"] == "RATE_LIMITED" and int(answers[12].headers["retry-after"]) >= 1
    ran = graphql(server, '{ health { status } session(sessionId: "NOPE42") { version } }')
    assert ran.status_code == 200 and ran.json()["data"] is None  # session is non-null: the refusal nulls data
    error = ran.json()["errors"][0]
    assert set(error["extensions"]) >= GRAPHQL_REFUSAL and error["path"] == ["session"]
    assert error["extensions"]["status"] == 401


def test_fragment_bombs_are_refused_while_health_answers(server: ServerProcess) -> None:
    """Issue 20: 751 bytes of fragments each spreading the next twice held the event loop 4.5 s (18 levels, idle
    server) to 72 s (20 levels, busy) while /v1/health waited. Now each is refused with a code before graphql-core
    validates it, and health answers throughout (a bound generous for a loaded machine, far below one bomb)."""
    import threading

    from tests.services.test_graphql_cost import HOSTILE

    answers: list[httpx.Response] = []
    stop = threading.Event()

    def attack() -> None:
        while not stop.is_set():
            for query in HOSTILE.values():
                answers.append(graphql(server, query))

    attacker = threading.Thread(target=attack)
    attacker.start()
    slowest = 0.0
    try:
        with server.client(headers=address()) as client:
            for _ in range(20):
                began = time.perf_counter()
                assert client.get("/v1/health").status_code == 200
                slowest = max(slowest, time.perf_counter() - began)
    finally:
        stop.set()
        attacker.join()
    assert len(answers) >= len(HOSTILE)
    for answer in answers:
        assert graphql_refused(answer)[0]["code"] in ("QUERY_TOO_COSTLY", "GRAPHQL_VALIDATION_FAILED")
    assert slowest < 5.0, f"/v1/health took {slowest:.2f} s during the attack"


@pytest.mark.parametrize("protocol", ["graphql-transport-ws", "graphql-ws"])
def test_a_subscribe_message_gets_the_same_check(server: ServerProcess, protocol: str) -> None:
    import json

    from websockets.sync.client import connect

    from tests.services.test_graphql_cost import HOSTILE

    start = "subscribe" if protocol == "graphql-transport-ws" else "start"
    with connect(server.ws_url, subprotocols=[protocol], open_timeout=30) as socket:  # type: ignore[list-item]
        socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(socket.recv(timeout=30))["type"] == "connection_ack"
        for number, query in enumerate(HOSTILE.values()):
            socket.send(json.dumps({"id": str(number), "type": start, "payload": {"query": query}}))
            message = json.loads(socket.recv(timeout=30))
            while message["type"] == "ka":
                message = json.loads(socket.recv(timeout=30))
            assert message["type"] == "error" and message["id"] == str(number), message
            errors = message["payload"] if isinstance(message["payload"], list) else [message["payload"]]
            extensions = errors[0]["extensions"]
            assert set(extensions) >= GRAPHQL_REFUSAL and extensions["status"] == 400
            assert extensions["code"] in ("QUERY_TOO_COSTLY", "GRAPHQL_VALIDATION_FAILED")
        if protocol == "graphql-transport-ws":  # the socket stays open for the client's next operation
            socket.send(json.dumps({"type": "ping"}))
            assert json.loads(socket.recv(timeout=30))["type"] == "pong"


# ---- REST edge ---------------------------------------------------------------------------------------------------


def test_rest_refuses_other_content_types_and_repeated_parameters(server: ServerProcess) -> None:
    created = table(server)
    with server.client(created["token"], headers=address()) as client:
        url = f"/v1/sessions/{created['session_id']}/commands"
        for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
            headers = {"Content-Type": content_type} if content_type else {}
            wrong = client.post(url, content=b'{"type": "roll_hazard"}', headers=headers)
            assert refused(wrong, 415)["field"] == "Content-Type"
        assert client.post(url, content=b'{"type": "choose_town_size", "size": "small"}',
                           headers={"Content-Type": "application/json; charset=utf-8"}).status_code == 200
        assert client.post(f"/v1/sessions/{created['session_id']}/undo").status_code == 200  # no body: fine
        twice = client.get(f"/v1/sessions/{created['session_id']}/events?limit=1&limit=500")
        assert refused(twice, 422)["field"] == "limit"


def test_security_headers_no_store_request_ids_cors(server: ServerProcess) -> None:
    with server.client(headers=address()) as client:
        created = client.post("/v1/sessions", json={"heroes": [{"id": "anna", "name": "Anna"}]},
                              headers={"Origin": "https://table.example", "X-Request-ID": "phone-42-abcdef"})
        assert created.status_code == 201 and "token" in created.json()
        headers = created.headers
        assert headers["cache-control"] == "no-store"
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
        assert "default-src 'none'" in headers["content-security-policy"]
        assert headers["x-request-id"] == "phone-42-abcdef"
        assert headers["access-control-allow-origin"] == "https://table.example"
        other = client.get("/v1/health", headers={"Origin": "https://elsewhere.example"})
        assert "access-control-allow-origin" not in other.headers
        assert len(other.headers["x-request-id"]) >= 8 and other.headers["x-request-id"] != "phone-42-abcdef"
        missing = client.get("/v1/nothing")
        assert missing.status_code == 404 and missing.headers["x-request-id"]


def _scrape(server: ServerProcess) -> str:
    return httpx.get(f"http://127.0.0.1:{server.extra_env['BRIMSTONE_METRICS_PORT']}/metrics", timeout=30).text


def test_metrics_on_their_own_port_count_every_refusal_under_its_operation(server: ServerProcess) -> None:
    created = table(server)
    with server.client(headers=address()) as client:
        assert client.get("/metrics").status_code == 404  # never on the public listener
        url = f"/v1/sessions/{created['session_id']}/commands"
        assert client.post(url, content=b"x", headers={"Content-Type": "text/plain"}).status_code == 415
        assert client.get(f"/v1/sessions/{created['session_id']}/events?limit=1&limit=2").status_code == 422
        assert client.get("/host/").status_code == 200
    guesser = address()
    for _ in range(4):
        with server.client(uuid.uuid4().hex, headers=guesser) as client:
            client.get(f"/v1/sessions/{created['session_id']}")
    metrics = _scrape(server)
    assert 'brimstone_requests_total{operation="createSession",status="201"}' in metrics
    assert 'brimstone_requests_total{operation="postCommand",status="415"}' in metrics  # refused before routing
    assert 'brimstone_requests_total{operation="listEvents",status="422"}' in metrics
    assert 'brimstone_requests_total{operation="/host",status="200"}' in metrics
    assert 'brimstone_requests_total{operation="getSession",status="429"}' in metrics
    assert 'brimstone_rate_limited_total{policy="auth-failures"}' in metrics  # the wrong-token lockout
    assert "brimstone_request_seconds_bucket" in metrics and "brimstone_subscribers" in metrics
    assert "brimstone_simulation_queue_depth" in metrics
    assert "process_cpu_seconds_total" in metrics and "process_resident_memory_bytes" in metrics
    assert 'brimstone_build_info{engine="source",python="' in metrics and "python_info" in metrics
    assert "_created" not in metrics  # they doubled the series stored
