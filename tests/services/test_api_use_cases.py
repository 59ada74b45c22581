"""The use cases on a real SQLite store, in process: credentials, retries on a stale version, exact undo,
idempotency, the change stream, and the one error mapping both doors share.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from services import use_cases
from services.api.errors import problem_for
from services.settings import Settings
from services.store import StaleVersion
from services.store.sqlite import SqliteStore
from shared_rules.errors import IllegalCommand, InvalidCommand

pytestmark = pytest.mark.anyio
HEROES = [{"id": "anna", "name": "Anna"}, {"id": "bo", "name": "Bo"}]
XP = {"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "xp", "amount": 1}]}


@pytest.fixture
async def services(tmp_path: Path) -> AsyncIterator[use_cases.Services]:
    store = SqliteStore(tmp_path / "uc.sqlite3")
    yield use_cases.Services(store, Settings(db_path=str(tmp_path / "uc.sqlite3"), host_token="the-host"))
    await store.close()


async def table(services: use_cases.Services, **body: Any) -> tuple[str, str]:
    created = await use_cases.create_session(services, {"heroes": HEROES, **body})
    return created["session_id"], created["token"]


async def test_credentials_missing_wrong_and_host(services: use_cases.Services) -> None:
    sid, token = await table(services)
    other, _ = await table(services)
    with pytest.raises(use_cases.Unauthenticated):
        await use_cases.get_session(services, "NOSUCH", None)  # 401 before anything is looked up
    with pytest.raises(use_cases.NotFound):
        await use_cases.get_session(services, "NOSUCH", token)
    with pytest.raises(use_cases.Forbidden):
        await use_cases.get_session(services, other, token)
    stored = await services.store.load(sid)
    assert stored is not None and token not in stored.token_hash and len(stored.token_hash) == 64  # sha256 only
    assert (await use_cases.get_session(services, sid, "the-host"))["version"] == 0  # the host reads
    with pytest.raises(use_cases.Forbidden):
        await use_cases.submit_command(services, sid, "the-host", XP)  # but does not write
    listed = await use_cases.list_sessions(services, "the-host", limit=1)
    assert len(listed["sessions"]) == 1 and listed["next_after"] == listed["sessions"][0]
    with pytest.raises(use_cases.Forbidden):
        await use_cases.list_sessions(services, token)


async def test_concurrent_writes_without_a_version_are_retried_internally(services: use_cases.Services) -> None:
    sid, token = await table(services)
    results = await asyncio.gather(*(use_cases.submit_command(services, sid, token, XP) for _ in range(12)))
    assert sorted(r.body["version"] for r in results) == list(range(1, 13))
    assert all(r.body["version"] == r.body["based_on"] + 1 for r in results)
    view = await use_cases.get_session(services, sid, token)
    assert view["state"]["heroes"][0]["xp"] == 12


async def test_a_named_version_is_never_retried(services: use_cases.Services) -> None:
    sid, token = await table(services)
    await use_cases.submit_command(services, sid, token, XP, expected_version=0)
    with pytest.raises(StaleVersion) as stale:
        await use_cases.submit_command(services, sid, token, XP, expected_version=0)
    assert stale.value.current_version == 1


async def test_undo_is_exact_and_appends(services: use_cases.Services) -> None:
    sid, token = await table(services, seed=3)
    before = await use_cases.get_session(services, sid, token)
    await use_cases.submit_command(services, sid, token, {"type": "choose_town_size", "size": "large"})
    await use_cases.submit_command(services, sid, token, XP)
    undone = await use_cases.undo(services, sid, token, {"steps": 2})
    assert undone.body["version"] == 3 and undone.body["state"] == before["state"]
    log = await use_cases.list_events(services, sid, token)
    assert [entry["version"] for entry in log["entries"]] == [0, 1, 2, 3]
    with pytest.raises(IllegalCommand) as too_far:
        await use_cases.undo(services, sid, token, {"steps": 4})
    assert too_far.value.field == "steps"
    with pytest.raises(InvalidCommand):
        await use_cases.undo(services, sid, token, {"steps": 1, "to": 0})


async def test_idempotency_key_answers_once_and_refuses_another_request(services: use_cases.Services) -> None:
    sid, token = await table(services)
    first = await use_cases.submit_command(services, sid, token, XP, idempotency_key="k")
    again = await use_cases.submit_command(services, sid, token, XP, expected_version=0, idempotency_key="k")
    assert (first.replayed, again.replayed) == (False, True) and again.body == first.body
    with pytest.raises(use_cases.IdempotencyKeyReused):
        await use_cases.submit_command(services, sid, token, {**XP, "reason": "else"}, idempotency_key="k")
    both = await asyncio.gather(*(use_cases.submit_command(services, sid, token, XP, idempotency_key="race")
                                  for _ in range(5)))
    assert len({json.dumps(w.body) for w in both}) == 1 and sum(not w.replayed for w in both) == 1
    assert (await use_cases.get_session(services, sid, token))["version"] == 2


async def test_a_retry_reaching_a_replica_that_already_read_the_result_gets_the_first_answer(
        services: use_cases.Services, tmp_path: Path) -> None:
    """Two replicas on one store: the first attempt commits on one, the phone's retry (same key) reaches the other
    after it read the new version; the rules would refuse the command there, the key answers it (principle 5)."""
    sid, token = await table(services)
    other_store = SqliteStore(tmp_path / "uc.sqlite3")
    other = use_cases.Services(other_store, Settings(db_path=str(tmp_path / "uc.sqlite3"), host_token="the-host"))
    once = {"type": "choose_town_size", "size": "small"}  # legal once: the road is chosen
    first = await use_cases.submit_command(services, sid, token, once, idempotency_key="k")
    assert (await use_cases.get_session(other, sid, token))["version"] == 1  # the other replica knows version 1
    retry = await use_cases.submit_command(other, sid, token, once, idempotency_key="k")
    assert retry.replayed and retry.body == first.body
    with pytest.raises(IllegalCommand):  # without the key it is a second request, and the rules refuse it
        await use_cases.submit_command(other, sid, token, once)
    await other_store.close()


async def test_a_replica_whose_cached_version_is_stale_reads_the_latest_before_refusing(
        services: use_cases.Services, tmp_path: Path) -> None:
    """A replica tries the version it saw last without a read (the commit's compare-and-set catches a stale one);
    when the rules refuse the command on that stale guess, it reads the latest and applies the command there,
    instead of answering 409 for a state the table has left (the deployment test's replica kill met this)."""
    sid, token = await table(services)
    other_store = SqliteStore(tmp_path / "uc.sqlite3")
    other = use_cases.Services(other_store, Settings(db_path=str(tmp_path / "uc.sqlite3"), host_token="the-host"))
    assert (await use_cases.get_session(other, sid, token))["version"] == 0  # the other replica saw version 0
    await use_cases.submit_command(services, sid, token, {"type": "choose_town_size", "size": "large"})  # FT-TRAVEL-02: 2+ hazards
    hazard = await use_cases.submit_command(other, sid, token, {"type": "roll_hazard"})  # illegal at 0, legal at 1
    assert not hazard.replayed and hazard.body["based_on"] == 1
    with pytest.raises(IllegalCommand):  # refused on the latest version: the rules say no
        await use_cases.submit_command(other, sid, token, {"type": "choose_town_size", "size": "small"})
    await other_store.close()


async def test_watch_streams_every_version_in_order_and_catches_up(services: use_cases.Services) -> None:
    sid, token = await table(services)
    await use_cases.submit_command(services, sid, token, XP)  # version 1, before anyone watches
    received: list[dict[str, Any]] = []

    async def watch() -> None:
        async for change in use_cases.watch_session(services, sid, token, after_version=0):
            received.append(change)
            if len(received) == 4:
                return

    watcher = asyncio.create_task(watch())
    await asyncio.sleep(0.05)
    for _ in range(3):
        await use_cases.submit_command(services, sid, token, XP)
    await asyncio.wait_for(watcher, 10)
    assert [c["version"] for c in received] == [1, 2, 3, 4]
    assert [c["state"]["heroes"][0]["xp"] for c in received] == [1, 2, 3, 4]
    assert all(c["events"] and c["command"]["type"] == "adjust" for c in received)


async def test_bad_bodies_are_invalid_commands_naming_the_field(services: use_cases.Services) -> None:
    sid, token = await table(services)
    cases: list[tuple[Any, str]] = [
        ({"type": {"nested": 1}}, "type"), ({"type": None}, "type"), ({}, "type"), (None, "body"), ("x", "body"),
        ({"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "xp", "amount": 1.5}]},
         "effects[0].amount"),
        ({"type": "roll_hazard", "dice": [[3, 5]], "extra": []}, "extra"),
    ]
    for body, field in cases:
        with pytest.raises(InvalidCommand) as refused:
            await use_cases.submit_command(services, sid, token, body)
        assert refused.value.field == field, (body, refused.value)
    for body, field in [({"heroes": HEROES, "seed": 2**60}, "seed"), ({"heroes": "all"}, "heroes"),
                        ({"heroes": HEROES, "options": {"dice": 1}}, "options.dice"), ({}, "heroes"),
                        ({"heroes": HEROES, "table": 1}, "table")]:
        with pytest.raises(InvalidCommand) as refused:
            await use_cases.create_session(services, body)
        assert refused.value.field == field, (body, refused.value)


def test_the_one_error_mapping() -> None:
    cases = [
        (InvalidCommand("x: bad", field="x", rule="R"), 422, "invalid-command"),
        (IllegalCommand("not now", field="type", rule="FT-TRAVEL-04"), 409, "illegal-command"),
        (StaleVersion(5, 3, "S"), 409, "stale-version"),
        (use_cases.Unauthenticated("who?"), 401, "unauthenticated"),
        (use_cases.Forbidden("no"), 403, "forbidden"),
        (use_cases.NotFound("gone"), 404, "not-found"),
        (use_cases.IdempotencyKeyReused("again"), 422, "idempotency-key-reused"),
        (use_cases.PreconditionFailed("If-Match: moved on", current=5), 412, "precondition-failed"),
        (RuntimeError("boom"), 500, "internal-error"),
    ]
    for exc, status, slug in cases:
        problem = problem_for(exc)
        body = problem.body()
        assert (body["status"], body["type"]) == (status, f"/problems/{slug}")  # the catalogue entry's URL
        assert {"title", "detail", "field", "rule"} <= set(body)
    assert problem_for(StaleVersion(5, 3)).body()["current_version"] == 5
    assert "boom" not in problem_for(RuntimeError("boom")).body()["detail"]  # no internals leak


def test_settings_from_environment_and_overrides() -> None:
    env = {"REDIS_URL": "redis://r:6379/1", "BRIMSTONE_DB": "/x.db", "BRIMSTONE_HOST_TOKEN": "h",
           "BRIMSTONE_MAX_TRIALS": "10"}
    settings = Settings.from_env(env, port=9000, redis_url=None)
    assert (settings.redis_url, settings.db_path, settings.host_token, settings.max_trials, settings.port) == (
        "redis://r:6379/1", "/x.db", "h", 10, 9000)
    assert settings.storage == "redis" and Settings.from_env({}).storage == "sqlite"
    with pytest.raises(ValueError, match="BRIMSTONE_MAX_TRIALS"):
        Settings.from_env({"BRIMSTONE_MAX_TRIALS": "many"})


def test_a_simulation_over_the_servers_cap_is_capped_not_refused() -> None:
    """The document allows up to 200,000 trials; a server configured for fewer runs its cap, and says so."""
    services = use_cases.Services(None, Settings(max_trials=40))  # type: ignore[arg-type]  # no store needed
    spec = use_cases.parse_simulation(services, {"heroes": HEROES, "size": "small", "trials": 5000, "seed": 1})
    assert spec["trials"] == 40
    with pytest.raises(InvalidCommand) as refused:
        use_cases.parse_simulation(services, {"heroes": HEROES, "size": "small", "trials": 200_001})
    assert refused.value.field == "trials"


def test_a_simulation_of_a_posse_with_no_hero_left_is_refused_before_it_is_queued() -> None:
    """Found by schemathesis: every hero `removed` made each journey fail inside the job (a 500 for the poller)."""
    services = use_cases.Services(None, Settings())  # type: ignore[arg-type]
    gone = [{**hero, "removed": True} for hero in HEROES]
    with pytest.raises(IllegalCommand) as refused:
        use_cases.parse_simulation(services, {"heroes": gone, "size": "small", "trials": 5})
    assert refused.value.field == "heroes"
