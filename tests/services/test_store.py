"""Session store behaviour, run against both backends (SQLite file and a throwaway Redis server)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable

import pytest
from redis.asyncio import Redis
from redis.crc import key_slot

from services.store import (
    SessionExists,
    SessionNotFound,
    SessionStore,
    StaleVersion,
    open_store,
)
from services.store.redis import RedisStore
from services.store.sqlite import SqliteStore

pytestmark = pytest.mark.anyio

SID = "dusty-gulch-1"
TOKEN_HASH = "ab" * 32

StoreFactory = Callable[..., SessionStore]  # the `store_factory` fixture (tests/services/conftest.py)


def snap(n: int) -> str:
    return json.dumps({"turn": n})


async def new_session(store: SessionStore, sid: str = SID) -> None:
    await store.create(sid, TOKEN_HASH, snap(0), '{"op":"create"}', "[]")


async def next_message(sub: object, timeout: float = 5.0) -> str:
    return await asyncio.wait_for(anext(sub), timeout)  # type: ignore[call-overload]


async def test_create_load_log_round_trip(store: SessionStore) -> None:
    before = time.time()
    await new_session(store)

    loaded = await store.load(SID)
    assert loaded is not None
    assert (loaded.session_id, loaded.version, loaded.snapshot, loaded.token_hash) == (
        SID,
        0,
        snap(0),
        TOKEN_HASH,
    )
    assert (loaded.base_version, loaded.entries, loaded.archived_at) == (0, (), None)
    assert before - 1 <= loaded.created_at <= time.time() + 1
    zero = await store.read(SID, 0)
    assert zero is not None and zero.snapshot == snap(0)
    assert await store.read(SID, 1) is None
    [entry] = await store.log(SID)
    assert (entry.version, entry.command, entry.events, entry.idempotency_key) == (
        0,
        '{"op":"create"}',
        "[]",
        None,
    )
    assert entry.at == pytest.approx(loaded.created_at, abs=1)

    assert await store.load("nope") is None
    assert await store.read("nope", 0) is None
    assert await store.load("bad:id") is None


async def test_create_refuses_taken_and_invalid_ids(store: SessionStore) -> None:
    await new_session(store)
    with pytest.raises(SessionExists):
        await store.create(SID, "other", snap(99), "{}", "[]")
    loaded = await store.load(SID)
    assert loaded is not None and loaded.snapshot == snap(0) and loaded.token_hash == TOKEN_HASH
    assert len(await store.log(SID)) == 1
    for bad in ["", "a:b", "x" * 129, "with space", "brace{"]:
        with pytest.raises(ValueError):
            await store.create(bad, TOKEN_HASH, snap(0), "{}", "[]")


async def test_checkpoints_and_the_log_rebuild_any_version(store: SessionStore) -> None:
    """Checkpoints only where the writer asked (here every 3rd version); any version comes back as its nearest
    checkpoint plus the entries after it, or from a version the caller already holds."""
    await new_session(store)
    for n in range(1, 8):
        result = await store.commit(SID, n - 1, f'{{"n":{n}}}', f"[{n}]", f'{{"ok":{n}}}',
                                    checkpoint=snap(n) if n % 3 == 0 else None)
        assert (result.version, result.response, result.replayed) == (n, f'{{"ok":{n}}}', False)

    loaded = await store.load(SID)
    assert loaded is not None and (loaded.version, loaded.base_version, loaded.base_snapshot) == (7, 6, snap(6))
    assert [e.command for e in loaded.entries] == ['{"n":7}'] and loaded.snapshot is None
    for version in range(8):
        parts = await store.read(SID, version)
        assert parts is not None and parts.version == version
        assert parts.base_version == version // 3 * 3 and parts.base_snapshot == snap(parts.base_version)
        assert [e.version for e in parts.entries] == list(range(parts.base_version + 1, version + 1))
    assert await store.read(SID, 8) is None
    known = await store.load(SID, known_version=6)
    assert known is not None and (known.base_version, known.base_snapshot, len(known.entries)) == (6, None, 1)
    before_checkpoint = await store.load(SID, known_version=4)  # a checkpoint lies between: start from it
    assert before_checkpoint is not None and before_checkpoint.base_version == 6
    assert before_checkpoint.base_snapshot == snap(6)

    page1 = await store.log(SID, limit=2)
    page2 = await store.log(SID, after_version=page1[-1].version, limit=2)
    page3 = await store.log(SID, after_version=page2[-1].version, limit=2)
    assert [e.version for e in page1 + page2 + page3] == [0, 1, 2, 3, 4, 5]
    assert [e.events for e in page2] == ["[2]", "[3]"]
    assert page3[-1].command == '{"n":5}'
    assert await store.log(SID, after_version=7) == []
    assert await store.log(SID, limit=0) == []
    assert [e.version for e in await store.log(SID, after_version=5)] == [6, 7]


async def test_stale_version_carries_current_and_writes_nothing(store: SessionStore) -> None:
    await new_session(store)
    await store.commit(SID, 0, "{}", "[]", "{}")
    await store.commit(SID, 1, "{}", "[]", "{}")

    for expected in (0, 1, 7):
        with pytest.raises(StaleVersion) as info:
            await store.commit(SID, expected, "{}", "[]", "{}", idempotency_key=f"k{expected}")
        assert (info.value.current_version, info.value.expected) == (2, expected)

    loaded = await store.load(SID)
    assert loaded is not None and loaded.version == 2
    assert len(await store.log(SID)) == 3
    assert await store.get_idempotent(SID, "k0") is None


async def test_missing_session(store: SessionStore) -> None:
    with pytest.raises(SessionNotFound):
        await store.commit("ghost", 0, "{}", "[]", "{}")
    with pytest.raises(SessionNotFound):
        await store.commit("ghost", 0, "{}", "[]", "{}", idempotency_key="k")
    with pytest.raises(SessionNotFound):
        await store.log("ghost")
    assert await store.get_idempotent("ghost", "k") is None


async def test_idempotent_replay_returns_first_response_and_writes_nothing(store: SessionStore) -> None:
    await new_session(store)
    first = await store.commit(SID, 0, '{"c":1}', "[1]", '{"first":true}', idempotency_key="k1")
    assert (first.version, first.replayed) == (1, False)
    log_before = await store.log(SID)

    again = await store.commit(SID, 1, '{"c":2}', "[2]", '{"first":false}', idempotency_key="k1")
    assert (again.version, again.response, again.replayed) == (1, '{"first":true}', True)

    loaded = await store.load(SID)
    assert loaded is not None and loaded.version == 1
    assert await store.log(SID) == log_before
    assert log_before[1].idempotency_key == "k1"
    assert await store.get_idempotent(SID, "k1") == '{"first":true}'
    assert await store.get_idempotent(SID, "k2") is None


async def test_replay_with_stale_expected_version_still_returns_first_response(store: SessionStore) -> None:
    await new_session(store)
    await store.commit(SID, 0, "{}", "[]", '"r1"', idempotency_key="retry-me")
    await store.commit(SID, 1, "{}", "[]", '"r2"', idempotency_key="other")

    retried = await store.commit(SID, 0, "{}", "[]", '"r1-again"', idempotency_key="retry-me")
    assert (retried.version, retried.response, retried.replayed) == (1, '"r1"', True)
    loaded = await store.load(SID)
    assert loaded is not None and loaded.version == 2


async def test_idempotency_keys_are_per_session(store: SessionStore) -> None:
    await new_session(store, "s1")
    await new_session(store, "s2")
    a = await store.commit("s1", 0, "{}", "[]", '"a"', idempotency_key="same")
    b = await store.commit("s2", 0, "{}", "[]", '"b"', idempotency_key="same")
    assert (a.replayed, b.replayed, a.response, b.response) == (False, False, '"a"', '"b"')


async def test_concurrent_commits_are_gap_free_and_each_key_applies_once(store: SessionStore) -> None:
    await new_session(store)
    n_tasks = 20
    keys = [f"key-{i % 15}" for i in range(n_tasks)]  # keys 0..4 are retried by a second task
    stale_hits = 0
    all_loaded = asyncio.Event()
    loaded_count = 0

    async def worker(i: int) -> tuple[str, int, str, bool]:
        nonlocal stale_hits, loaded_count
        first_round = True
        while True:
            current = await store.load(SID)
            assert current is not None
            if first_round:  # everyone reads version 0 before anyone writes: conflicts guaranteed
                first_round = False
                loaded_count += 1
                if loaded_count == n_tasks:
                    all_loaded.set()
                await all_loaded.wait()
            try:
                result = await store.commit(
                    SID,
                    current.version,
                    json.dumps({"task": i, "key": keys[i]}),
                    "[]",
                    json.dumps({"by": i}),
                    idempotency_key=keys[i],
                )
            except StaleVersion as exc:
                assert exc.current_version > current.version
                stale_hits += 1
                await asyncio.sleep(0)
                continue
            return keys[i], result.version, result.response, result.replayed

    results = await asyncio.wait_for(asyncio.gather(*(worker(i) for i in range(n_tasks))), 30)

    assert stale_hits > 0
    unique = sorted(set(keys))
    log = await store.log(SID, limit=1000)
    assert [e.version for e in log] == list(range(len(unique) + 1))
    logged_keys = [e.idempotency_key for e in log[1:]]
    assert sorted(k for k in logged_keys if k is not None) == unique
    loaded = await store.load(SID)
    assert loaded is not None and loaded.version == len(unique)
    # Both tasks sharing a key got the same version and the response of whichever wrote it.
    by_key: dict[str, set[tuple[int, str]]] = {}
    for key, version, response, _replayed in results:
        by_key.setdefault(key, set()).add((version, response))
    assert all(len(v) == 1 for v in by_key.values())
    assert sum(1 for r in results if r[3]) == n_tasks - len(unique)


async def test_sessions_survive_reopen(store_factory: StoreFactory) -> None:
    first = store_factory()
    await new_session(first)
    await first.commit(SID, 0, '{"c":1}', "[1]", '"r1"', idempotency_key="k1")
    before = (await first.load(SID), await first.log(SID))
    await first.close()

    reopened = store_factory()
    assert (await reopened.load(SID), await reopened.log(SID)) == before
    zero = await reopened.read(SID, 0)
    assert zero is not None and zero.snapshot == snap(0)
    assert await reopened.get_idempotent(SID, "k1") == '"r1"'
    replay = await reopened.commit(SID, 0, "{}", "[]", '"x"', idempotency_key="k1")
    assert (replay.version, replay.response, replay.replayed) == (1, '"r1"', True)
    assert (await reopened.commit(SID, 1, "{}", "[]", '"r2"')).version == 2


async def test_subscribe_receives_commit_and_published_messages(store: SessionStore) -> None:
    await new_session(store)
    await new_session(store, "elsewhere")
    async with store.subscribe(SID) as sub:
        await store.commit("elsewhere", 0, "{}", "[]", "{}")  # not for this subscriber
        await store.commit(SID, 0, "{}", "[]", "{}")
        assert json.loads(await next_message(sub)) == {"session_id": SID, "version": 1}
        await store.publish(SID, '{"rich":"message"}')
        assert await next_message(sub) == '{"rich":"message"}'
        # A replay writes nothing and announces nothing.
        await store.commit(SID, 1, "{}", "[]", "{}", idempotency_key="k")
        await store.commit(SID, 1, "{}", "[]", "{}", idempotency_key="k")
        await store.publish(SID, "end")
        assert json.loads(await next_message(sub)) == {"session_id": SID, "version": 2}
        assert await next_message(sub) == "end"
    with pytest.raises(StopAsyncIteration):
        await next_message(sub)


async def test_closing_subscription_wakes_a_waiting_reader(store: SessionStore) -> None:
    sub = store.subscribe(SID)
    await sub.start()
    reader = asyncio.ensure_future(next_message(sub))
    await asyncio.sleep(0.05)
    assert not reader.done()
    await store.close()
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(reader, 5)


async def test_idempotency_keys_expire(store_factory: StoreFactory) -> None:
    store = store_factory(idempotency_ttl=0.3)
    await new_session(store)
    await store.commit(SID, 0, "{}", "[]", '"r1"', idempotency_key="k")
    assert await store.get_idempotent(SID, "k") == '"r1"'
    await asyncio.sleep(0.45)
    assert await store.get_idempotent(SID, "k") is None
    again = await store.commit(SID, 1, "{}", "[]", '"r2"', idempotency_key="k")
    assert (again.version, again.replayed) == (2, False)
    assert await store.get_idempotent(SID, "k") == '"r2"'


async def test_list_sessions_pages_in_id_order(store: SessionStore) -> None:
    for sid in ["c3", "a1", "b2", "B0"]:
        await new_session(store, sid)
    assert await store.list_sessions() == ["B0", "a1", "b2", "c3"]
    assert await store.list_sessions(limit=2) == ["B0", "a1"]
    assert await store.list_sessions(limit=2, after="a1") == ["b2", "c3"]
    assert await store.list_sessions(after="c3") == []
    assert await store.list_sessions(limit=0) == []


async def test_bad_arguments(store: SessionStore) -> None:
    await new_session(store)
    with pytest.raises(ValueError):
        await store.commit(SID, 0, "{}", "[]", "{}", idempotency_key="")
    with pytest.raises(ValueError):
        await store.log(SID, limit=-1)
    loaded = await store.load(SID)
    assert loaded is not None and loaded.version == 0


# -- backend specifics --------------------------------------------------------------------------------


@pytest.mark.parametrize("store_backend", ["redis"], indirect=True)
async def test_redis_subscriber_on_another_instance_sees_commits(store_factory: StoreFactory) -> None:
    writer, replica = store_factory(), store_factory()
    await new_session(writer)
    async with replica.subscribe(SID) as sub:
        await writer.commit(SID, 0, "{}", "[]", "{}")
        await writer.publish(SID, "hello")
        assert json.loads(await next_message(sub)) == {"session_id": SID, "version": 1}
        assert await next_message(sub) == "hello"


@pytest.mark.parametrize("store_backend", ["redis"], indirect=True)
async def test_redis_layout_ttl_and_cleanup(store_factory: StoreFactory) -> None:
    store = store_factory()
    assert isinstance(store, RedisStore)
    await new_session(store)
    await store.commit(SID, 0, "{}", "[]", '"r"', idempotency_key="k")
    pttl = await store.client.pttl(store.idempotency_key_name(SID, "k"))
    assert 0 < pttl <= 24 * 3600 * 1000
    assert await store.client.hget(f"{store.prefix}:{{{SID}}}:meta", "version") == b"1"
    assert await store.client.llen(f"{store.prefix}:{{{SID}}}:log") == 2
    # a table's keys share one Redis Cluster slot (its join code is their hash tag): the Lua scripts stay atomic
    names = [*store._table_keys(SID), store.idempotency_key_name(SID, "k"), store.channel(SID)]
    assert len({key_slot(name.encode()) for name in names}) == 1

    assert store.channel(SID) == f"{store.prefix}:{{{SID}}}:changes"
    async with store.subscribe(SID), store.subscribe("other"), store.subscribe(SID):
        # one shared pattern subscription per store, however many subscribers
        assert await store.client.pubsub_numpat() == 1
        assert store.subscriber_count() == 3
    assert store.subscriber_count() == 0


def _batches() -> tuple[float, float]:
    """(pipelines sent, commits in them) so far in this process, from the commit-batch histogram."""
    from services.observability import REGISTRY

    count = REGISTRY.get_sample_value("brimstone_commit_batch_size_count") or 0.0
    total = REGISTRY.get_sample_value("brimstone_commit_batch_size_sum") or 0.0
    return count, total


@pytest.mark.parametrize("store_backend", ["redis"], indirect=True)
async def test_redis_commits_ready_together_share_one_pipeline(store_factory: StoreFactory) -> None:
    """Tables writing at the same moment share one round trip; each commit still answers for itself (a stale one
    is refused, the others land), and after Redis forgot its scripts (a restart) the commits still land."""
    store = store_factory()
    assert isinstance(store, RedisStore)
    tables = [f"table-{n}" for n in range(6)]
    for sid in tables:
        await new_session(store, sid)
    before = _batches()
    results = await asyncio.gather(
        *(store.commit(sid, 0, json.dumps({"n": n}), "[]", f'"{n}"', idempotency_key=f"k{n}")
          for n, sid in enumerate(tables[:5])),
        store.commit(tables[5], 3, "{}", "[]", '"stale"'),  # based on a version the table never had
        return_exceptions=True,
    )
    assert [r.version for r in results[:5]] == [1] * 5  # type: ignore[union-attr]
    assert [r.response for r in results[:5]] == ['"0"', '"1"', '"2"', '"3"', '"4"']  # type: ignore[union-attr]
    assert isinstance(results[5], StaleVersion) and results[5].current_version == 0
    after = _batches()
    assert (after[0] - before[0], after[1] - before[1]) == (1, 6)  # one pipeline of six commits
    for n, sid in enumerate(tables[:5]):
        log = await store.log(sid)
        assert [(e.version, e.command, e.idempotency_key) for e in log[1:]] == [(1, json.dumps({"n": n}), f"k{n}")]

    await store.client.script_flush()  # what a restarted Redis knows of our scripts: nothing
    again = await asyncio.gather(*(store.commit(sid, 1, "{}", "[]", '"again"') for sid in tables[:3]))
    assert [r.version for r in again] == [2, 2, 2]
    assert [(await store.load(sid)).version for sid in tables[:3]] == [2, 2, 2]  # type: ignore[union-attr]


@pytest.mark.parametrize("store_backend", ["redis"], indirect=True)
async def test_redis_store_on_a_borrowed_client(store_target: tuple[str, str]) -> None:
    client: Redis = Redis.from_url(store_target[1])  # bytes replies: the store must decode them
    try:
        store = RedisStore(client, prefix="borrowed-" + str(time.time_ns()))
        await new_session(store)
        assert (await store.commit(SID, 0, "{}", "[]", '"r"', idempotency_key="k")).version == 1
        assert (await store.commit(SID, 0, "{}", "[]", '"x"', idempotency_key="k")).response == '"r"'
        loaded = await store.load(SID)
        assert loaded is not None and loaded.version == 1
        assert [e.version for e in await store.log(SID)] == [0, 1]
        assert await store.list_sessions() == [SID]
        async with store.subscribe(SID) as sub:
            await store.publish(SID, "bytes?")
            assert await next_message(sub) == "bytes?"
        await store.close()
        assert await client.ping()  # a borrowed client stays open
    finally:
        await client.aclose()


@pytest.mark.parametrize("store_backend", ["sqlite"], indirect=True)
async def test_sqlite_uses_wal_and_open_store_picks_backend(store_target: tuple[str, str]) -> None:
    store = open_store(None, store_target[1])
    try:
        assert isinstance(store, SqliteStore)
        await new_session(store)
        mode = await asyncio.get_running_loop().run_in_executor(
            store._executor, lambda: store._conn.execute("PRAGMA journal_mode").fetchone()
        )
        assert mode == ("wal",)
    finally:
        await store.close()
    redis_store = open_store("redis://127.0.0.1:1/0", store_target[1])
    assert isinstance(redis_store, RedisStore)
    await redis_store.close()


@pytest.mark.parametrize("store_backend", ["redis"], indirect=True)
async def test_tables_stored_before_the_hash_tags_are_migrated(store_factory: StoreFactory) -> None:
    """`brimstone redis-migrate`: the keys of the old layout (prefix:<code>:part) move to prefix:{<code>}:part."""
    store = store_factory()
    assert isinstance(store, RedisStore)
    await new_session(store)
    await store.commit(SID, 0, '{"c":1}', "[1]", '"r"', idempotency_key="k")
    for part in ("meta", "snapshots", "checkpoints", "log", "idem:k"):  # as the old layout kept them
        await store.client.rename(store._key(SID, part), f"{store.prefix}:{SID}:{part}")
    assert await store.load(SID) is None
    assert await store.migrate_layout() == 1
    loaded = await store.load(SID)
    assert loaded is not None and loaded.version == 1
    assert await store.get_idempotent(SID, "k") == '"r"'
    assert await store.migrate_layout() == 0


def test_log_entries_packed_with_zlib_before_lz4_still_read() -> None:
    """Tables written before the log moved to lz4 keep their zlib entries: both read back exactly."""
    import zlib

    from services.store.base import LZ4, LogEntry, pack_entry, unpack_entry

    entry = LogEntry(7, '{"type":"adjust","hero":"anna"}', '[{"type":"changed","text":"Anna gains $1 Gold"}]', "k-1",
                     1767225600.25)
    text = f"7\t{entry.at!r}\t\"k-1\"\t{entry.command}\t{entry.events}".encode()
    assert unpack_entry(zlib.compress(text, 6)) == entry
    assert unpack_entry(zlib.compress(text, 6).decode("latin-1")) == entry  # as a decoding Redis client hands it
    packed = pack_entry(entry)
    assert packed[:1] == LZ4 and unpack_entry(packed) == entry


async def test_a_call_for_the_host_is_kept_notified_and_cleared(store: SessionStore) -> None:
    """Issue 21: a table's raised hand lives beside its credentials (both stores), and live views hear of it."""
    await new_session(store)
    subscription = store.subscribe(SID)
    await subscription.start()
    try:
        call = json.dumps({"at": 1767225600.0, "reason": "rules question"})
        await store.set_host_call(SID, call)
        assert SID in await next_message(subscription)
        loaded = await store.load(SID)
        assert loaded is not None and loaded.access is not None and loaded.access.host_call == call
        await store.set_host_call(SID, None)
        loaded = await store.load(SID)
        assert loaded is not None and loaded.access is not None and loaded.access.host_call is None
        with pytest.raises(SessionNotFound):
            await store.set_host_call("no-such-table", call)
    finally:
        await subscription.aclose()
