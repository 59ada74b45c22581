"""Checkpoints and replay (services/history.py), retention, archive and delete, on both store backends: every
version a table went through is rebuilt exactly by a process that holds none of it; a replay that gives other
events than the log is refused; idle tables expire; archived tables refuse writes; deleted ones are gone."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from services import use_cases
from services.contract.public import public_state
from services.history import History, HistoryDiverged
from services.settings import Settings
from services.store import SessionArchived, SessionStore
from services.use_cases import Archived, NotFound, Services, view_parts
from shared_rules.codec import encode_state
from tests.services.conftest import StoreFactory
from tests.services.servers import next_command

pytestmark = pytest.mark.anyio
HEROES = [{"id": "anna", "name": "Anna"}, {"id": "bo", "name": "Bo"}]


async def _play(services: Services, versions: int) -> tuple[str, str, dict[int, Any], dict[int, Any]]:
    """A table through `versions` writes (the road to town, an undo every 9th); the state and events each write
    answered, by version."""
    created = await use_cases.create_session(services, {"heroes": HEROES, "seed": 4})
    sid, token = created["session_id"], created["token"]
    states = {0: created["state"]}
    events: dict[int, Any] = {}
    view = created
    for n in range(1, versions + 1):
        if n % 9 == 0:
            written = await use_cases.undo(services, sid, token, {"steps": 2})
        else:
            written = await use_cases.submit_command(services, sid, token, next_command(view, size="large"))
        view = written.body
        states[view["version"]] = view["state"]
        events[view["version"]] = view["events"]
    return sid, token, states, events


async def test_every_version_is_rebuilt_exactly_by_a_cold_process(store_factory: StoreFactory) -> None:
    writer = Services(store_factory(), Settings(checkpoint_every=8))
    sid, token, states, events = await _play(writer, 60)
    cold_store = store_factory()  # another replica (or a restart): nothing in memory
    cold = History(cold_store, view_parts)
    table = await cold.latest(sid)
    assert table is not None and table.version == 60
    for version, state in states.items():
        rebuilt = await cold.at(sid, table.token_hash, version)
        assert rebuilt is not None and public_state(encode_state(rebuilt)) == state, version  # views are public
    assert cold.replayed > 0  # versions between checkpoints came from the log, not from snapshots
    log = await cold_store.log(sid, limit=100)
    assert [json.loads(entry.events) for entry in log[1:]] == [events[v] for v in range(1, 61)]
    # a reader on the cold side pages the same log and answers the same state as the writer
    reader = Services(cold_store, Settings(checkpoint_every=8))
    assert (await use_cases.get_session(reader, sid, token))["state"] == states[60]


async def test_a_replay_that_gives_other_events_is_refused(store_factory: StoreFactory) -> None:
    store: SessionStore = store_factory()
    services = Services(store, Settings(checkpoint_every=1000))
    sid, _, _, _ = await _play(services, 0)
    table = await services.history.latest(sid)
    assert table is not None
    command = json.dumps({"type": "choose_town_size", "size": "small", "dice": []}, separators=(",", ":"))
    await store.commit(sid, 0, command, "[]", '{"fingerprint":"x","version":1}')  # the log says: no events
    cold = History(store, view_parts)
    with pytest.raises(HistoryDiverged):
        await cold.at(sid, table.token_hash, 1)


async def test_idle_tables_expire_and_leave_the_list(store_factory: StoreFactory) -> None:
    store = store_factory(retention=0.4)
    await store.create("idle", "h" * 64, "{}", '{"type":"create_session"}', "[]")
    await store.create("busy", "h" * 64, "{}", '{"type":"create_session"}', "[]")
    for version in range(6):  # each write restarts the table's retention
        await asyncio.sleep(0.1)
        await store.commit("busy", version, '{"type":"x"}', "[]", "{}")
    assert await store.load("idle") is None
    assert await store.list_sessions() == ["busy"]
    await asyncio.sleep(0.6)
    assert await store.load("busy") is None and await store.list_sessions() == []


async def test_archive_freezes_a_table_and_delete_removes_it(store_factory: StoreFactory) -> None:
    services = Services(store_factory(), Settings(archive_retention=0))
    sid, token, states, _ = await _play(services, 4)
    latest = await use_cases.get_session(services, sid, token)
    other = await use_cases.create_session(services, {"heroes": HEROES})
    with pytest.raises(use_cases.Forbidden):
        await use_cases.archive_session(services, sid, other["token"])  # only the table's own token
    archived = await use_cases.archive_session(services, sid, token)
    assert archived["session_id"] == sid and archived["expires_at"] is None
    with pytest.raises(Archived):
        await use_cases.submit_command(services, sid, token, next_command(latest))
    with pytest.raises(SessionArchived):
        await services.store.commit(sid, 4, '{"type":"x"}', "[]", "{}")
    assert (await use_cases.get_session(services, sid, token))["state"] == states[4]  # still readable

    watcher = use_cases.watch_session(services, other["session_id"], other["token"])
    next_change = asyncio.ensure_future(anext(watcher))
    await asyncio.sleep(0.1)
    await use_cases.delete_session(services, other["session_id"], other["token"])
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(next_change, 10)  # live subscriptions end with the table
    with pytest.raises(NotFound):
        await use_cases.get_session(services, other["session_id"], other["token"])
    assert other["session_id"] not in await services.store.list_sessions()


def test_a_file_of_the_first_layout_is_migrated_in_place(tmp_path: Any) -> None:
    """Tables written before checkpoints (a snapshot per version, plain log rows) open, read, write and delete."""
    import sqlite3

    from services.store.sqlite import SqliteStore

    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript("""
        CREATE TABLE sessions (id TEXT PRIMARY KEY, version INTEGER NOT NULL, token_hash TEXT NOT NULL,
                               created_at REAL NOT NULL);
        CREATE TABLE snapshots (session_id TEXT NOT NULL REFERENCES sessions(id), version INTEGER NOT NULL,
                                snapshot TEXT NOT NULL, PRIMARY KEY (session_id, version));
        CREATE TABLE log (session_id TEXT NOT NULL REFERENCES sessions(id), version INTEGER NOT NULL,
                          command TEXT NOT NULL, events TEXT NOT NULL, idempotency_key TEXT, at REAL NOT NULL,
                          PRIMARY KEY (session_id, version));
        CREATE TABLE idempotency (session_id TEXT NOT NULL REFERENCES sessions(id), key TEXT NOT NULL,
                                  version INTEGER NOT NULL, response TEXT NOT NULL, expires_at REAL NOT NULL,
                                  PRIMARY KEY (session_id, key));
        INSERT INTO sessions VALUES ('OLD1', 1, 'hh', 1.0);
        INSERT INTO snapshots VALUES ('OLD1', 0, '{"v":0}'), ('OLD1', 1, '{"v":1}');
        INSERT INTO log VALUES ('OLD1', 0, '{"type":"create_session"}', '[]', NULL, 1.0),
                               ('OLD1', 1, '{"type":"x"}', '[{"e":1}]', 'k1', 2.0);
        INSERT INTO idempotency VALUES ('OLD1', 'k1', 1, '"r"', 1e12);
    """)
    conn.commit()
    conn.close()

    async def check() -> None:
        store = SqliteStore(path)
        try:
            loaded = await store.load("OLD1")
            assert loaded is not None and loaded.version == 1 and loaded.snapshot == '{"v":1}'  # every old version
            assert [(e.version, e.events, e.idempotency_key) for e in await store.log("OLD1")] == [
                (0, "[]", None), (1, '[{"e":1}]', "k1")]
            assert (await store.commit("OLD1", 1, '{"type":"y"}', "[]", '"r2"')).version == 2
            assert await store.delete("OLD1") and await store.load("OLD1") is None
        finally:
            await store.close()

    asyncio.run(check())


def test_the_memoizing_state_encoder_writes_what_encode_state_writes() -> None:
    """Every state of a few journeys (heroes hurt, paid, moved; travel, hazards, a town) encodes to the very text
    encode_state gives, whether its parts were seen before (reused) or not."""
    from services.history import StateEncoder
    from shared_rules.commands import Arrive, ChooseTownSize, RollHazard
    from shared_rules.engine import apply, new_session
    from shared_rules.simulate import GritCounter, sample_heroes
    from shared_rules.state import Phase

    encoder = StateEncoder(size=64)  # small, so parts also fall out of the memory and come back
    checked = 0
    for seed, size in enumerate(("small", "medium", "large") * 3):
        state = new_session(sample_heroes(1 + seed % 6), seed=seed)
        policy = GritCounter(state.heroes)
        commands = [ChooseTownSize(size)]
        while commands:
            state = apply(state, commands.pop(), policy=policy).state
            for _ in range(2):  # the second time every part comes from the memory
                assert json.dumps(encoder(state)) == json.dumps(encode_state(state))
                checked += 1
            if state.phase is Phase.TRAVEL:
                commands.append(RollHazard())
            elif state.travel is not None and state.town is None and state.active_heroes:
                commands.append(Arrive())
    assert checked > 50
