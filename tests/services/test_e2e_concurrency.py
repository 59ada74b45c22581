"""20 clients at once on one table, through real server processes (SQLite; and Redis with two replicas).

Clients retry on 409 stale and on "dropped" responses (the answer is thrown away and the request resent with the
same Idempotency-Key). Afterwards the log must be gap-free, hold every accepted command exactly once, and
replaying it from the creation snapshot with shared_rules.apply must give the stored state.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from services.contract.public import public_state
from shared_rules.codec import decode_command, decode_state, encode_state
from shared_rules.engine import apply
from tests.services.servers import ServerProcess, Storage, create_session, redis_storage, sqlite_storage

CLIENTS = 20
COMMANDS_EACH = 5


@pytest.fixture(params=["sqlite", "redis"])
def servers(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    """One server on SQLite; two replicas sharing one Redis (clients alternate between them)."""
    storage: Storage
    if request.param == "redis":
        proc = request.getfixturevalue("store_redis_proc")
        storage = redis_storage(f"redis://{proc.host}:{proc.port}/0")
        count = 2
    else:
        storage = sqlite_storage(tmp_path_factory.mktemp("conc-db"))
        count = 1
    logs = tmp_path_factory.mktemp("conc-logs")
    started = [ServerProcess(storage, logs) for _ in range(count)]
    try:
        for server in started:
            server.start()  # a start that fails stops itself; the finally stops the others
        yield started
    finally:
        for server in started:
            server.stop()
        for server in started:
            assert "Traceback" not in server.log(), server.log()


def _client_run(server: ServerProcess, token: str, sid: str, client_no: int) -> list[str]:
    """Post COMMANDS_EACH adjustments; odd clients name expected_version, even ones let the server retry."""
    reasons = []
    jitter = random.Random(client_no)
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=60) as http:
        for n in range(COMMANDS_EACH):
            reason = f"client {client_no} command {n}"
            command = {"type": "adjust", "hero": "anna", "reason": reason,
                       "effects": [{"op": "change", "field": "xp", "amount": 1}]}
            key = {"Idempotency-Key": f"{sid}-{client_no}-{n}"}
            dropped = (client_no + n) % 3 == 0  # every third answer is "lost on the way back"
            for attempt in itertools.count():
                assert attempt < 500, "no progress"
                params = {}
                if client_no % 2:
                    params["expected_version"] = http.get(f"/v1/sessions/{sid}").json()["version"]
                response = http.post(f"/v1/sessions/{sid}/commands", json=command, params=params, headers=key)
                if dropped:
                    dropped = False  # resend the same request, same key: it must not apply twice
                    continue
                if response.status_code == 409:
                    body = response.json()
                    assert body["type"].endswith("stale-version") and body["current_version"] >= 1
                    time.sleep(jitter.uniform(0, 0.005 * min(attempt + 1, 8)))  # back off like a polite client
                    continue
                assert response.status_code == 200, response.text
                result = response.json()
                assert result["version"] == result["based_on"] + 1
                break
            reasons.append(reason)
    return reasons


def test_twenty_clients_at_once_gap_free_exactly_once_and_replayable(servers: list[ServerProcess]) -> None:
    with servers[0].client() as anon:
        created = create_session(anon, seed=4)
    sid, token = created["session_id"], created["token"]
    with ThreadPoolExecutor(CLIENTS) as pool:
        runs = [pool.submit(_client_run, servers[i % len(servers)], token, sid, i) for i in range(CLIENTS)]
        sent = [reason for run in runs for reason in run.result()]

    with servers[-1].client(token) as client:
        final = client.get(f"/v1/sessions/{sid}").json()
        log: list[dict[str, Any]] = []
        after = -1
        while True:
            page = client.get(f"/v1/sessions/{sid}/events", params={"after": after, "limit": 37}).json()
            log += page["entries"]
            if page["next_after"] is None:
                break
            after = page["next_after"]

    total = CLIENTS * COMMANDS_EACH
    assert [entry["version"] for entry in log] == list(range(total + 1))  # gap-free, version 0 is the creation
    assert final["version"] == total
    applied = Counter(entry["command"]["reason"] for entry in log[1:])
    assert applied == Counter(sent) and set(applied.values()) == {1}  # every accepted command exactly once
    assert final["state"]["heroes"][0]["xp"] == total

    state = decode_state(created["state"])  # replay the log from the creation view (adjustments roll no dice,
    for entry in log[1:]:  # so the RNG state the view leaves out does not matter)
        state = apply(state, decode_command(entry["command"])).state
    assert public_state(encode_state(state)) == final["state"]
