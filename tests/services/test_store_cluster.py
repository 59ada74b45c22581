"""When an event outgrows one Redis: the tables on a Redis Cluster (issue 13). Each table's keys carry its join code
as a hash tag, so they share a slot and the store's Lua scripts (create, read, commit, archive, delete) run whole on
one node; the indexes live in other slots and are written beside the scripts. Three masters on this machine."""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from services.store import SessionPaused, WriterRefused
from services.store.redis import RedisStore
from tests import processes
from tests.services.servers import free_port


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = shutil.which("redis-server") or "redis-server"
    ports = [cluster_port() for _ in range(3)]
    nodes: list[subprocess.Popen[bytes]] = []
    logs: list[Path] = []
    try:
        for port in ports:
            data = tmp_path_factory.mktemp(f"node{port}")
            logs.append(data / "redis.log")
            nodes.append(processes.launch(
                [server, "--port", str(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
                 "--cluster-config-file", str(data / "nodes.conf"), "--dir", str(data), "--save", "",
                 "--appendonly", "no", "--logfile", str(logs[-1])], stdout=subprocess.DEVNULL,
                stderr=subprocess.STDOUT))
        for port, log, node in zip(ports, logs, nodes, strict=True):
            _until(lambda p=port: redis.Redis(port=p).ping(), why=log, process=node)
        created = subprocess.run([shutil.which("redis-cli") or "redis-cli", "--cluster", "create",
                                  *(f"127.0.0.1:{p}" for p in ports), "--cluster-replicas", "0", "--cluster-yes"],
                                 capture_output=True, text=True, timeout=processes.start_timeout(120), check=False)
        assert created.returncode == 0, created.stdout + created.stderr
        _until(lambda: redis.Redis(port=ports[0]).cluster("info").get("cluster_state") == "ok")
        yield f"redis+cluster://127.0.0.1:{ports[0]}/0"
    finally:
        for node in nodes:
            processes.stop(node)


def cluster_port() -> int:
    """A free port whose cluster bus port (the port + 10000) is a port too and free: an ephemeral port above 55535
    has none, and the node refuses to start (CI met one)."""
    while True:
        port = free_port()
        if port + 10000 > 65535:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port


def _until(check: Callable[[], bool], why: Path | None = None, process: subprocess.Popen[bytes] | None = None
           ) -> None:
    """Until `check()` is true (readiness, polled with backoff; the deadline scales with the machine's load)."""
    def log() -> str:
        return why.read_text()[-2000:] if why is not None and why.exists() else ""

    try:
        processes.wait_ready(check, what="the cluster", process=process, timeout=processes.start_timeout(90),
                             log=log)
    except processes.NotReady as error:
        raise AssertionError(f"the cluster did not come up: {error}") from None


def test_tables_and_events_on_a_redis_cluster(cluster: str) -> None:
    async def scenario() -> None:
        store = RedisStore(cluster, prefix="cl")
        assert store.cluster
        try:
            codes = [f"T{n:05d}" for n in range(12)]  # spread over the three masters' slots
            for code in codes:
                await store.create(code, "h", '{"snap":0}', '{"type":"create_session"}', "[]", event_id="EV1")
            async with store.subscribe(codes[0]) as subscription:
                result = await store.commit(codes[0], 0, '{"c":1}', "[]", '"r"', idempotency_key="k", writer="h")
                assert result.version == 1
                assert json.loads(await asyncio.wait_for(subscription.__anext__(), 10))["version"] == 1
            assert (await store.commit(codes[0], 0, "{}", "[]", '"x"', idempotency_key="k")).replayed
            loaded = await store.load(codes[0])
            assert loaded is not None and loaded.version == 1 and loaded.access is not None
            assert loaded.access.event_id == "EV1"
            await store.set_credential(codes[0], "player", "h2")
            with pytest.raises(WriterRefused):
                await store.commit(codes[0], 1, "{}", "[]", '"y"', writer="h")
            await store.set_paused(codes[1], True)
            with pytest.raises(SessionPaused):
                await store.commit(codes[1], 0, "{}", "[]", '"y"')
            assert await store.list_sessions(limit=100) == sorted(codes)
            await store.create_event("EV1", "Night", "hh")
            for number, code in enumerate(codes, 1):
                await store.add_to_event("EV1", code, number)
            assert await store.delete(codes[-1])
            assert [c for c, _ in await store.event_tables("EV1")] == codes[:-1]
            slots = {store.client.keyslot(store._key(code, "meta")) for code in codes}  # type: ignore[attr-defined]
            nodes = {store.client.get_node_from_key(store._key(code, "meta")).port  # type: ignore[attr-defined]
                     for code in codes}
            assert len(slots) == len(codes) and len(nodes) == 3  # the tables really are spread over the cluster
        finally:
            await store.close()

    asyncio.run(scenario())


