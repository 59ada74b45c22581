"""Storage per version and the time to read any version, on Redis: a typical evening's table (4 heroes playing the
road to town again and again, an undo now and then, phones sending Idempotency-Keys) and a 10,000-version table.

Prints the bytes stored per version (the table's keys as stored; the idempotency records separately, since they
expire after a day) against the target of <= 1 KB, and the time to rebuild random versions of the 10,000-version
table in a process that holds none of it (nearest checkpoint + replay through the engine) against <= 50 ms.

    python bench/storage.py [--versions 400] [--big 10000] [--reads 200] [--redis URL]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.service import free_port, stop  # noqa: E402
from services import use_cases  # noqa: E402
from services.api.app import GC_THRESHOLDS  # noqa: E402
from services.history import History  # noqa: E402
from services.settings import Settings  # noqa: E402
from services.store.redis import RedisStore  # noqa: E402
from services.use_cases import Services, view_parts  # noqa: E402
from tests.services.servers import next_command  # noqa: E402

HEROES = [{"id": f"h{i}", "name": name} for i, name in enumerate(["Anna", "Bo", "Cy", "Dee"])]
def heal(view: dict[str, Any], n: int) -> dict[str, Any] | None:
    """The table records a doctor's visit (and some gold), keeping the posse alive through a long evening."""
    living = [h["id"] for h in view["state"]["heroes"] if not h["removed"]]
    if not living:
        return None
    return {"type": "adjust", "hero": living[n % len(living)], "effects": [
        {"op": "change", "field": "wounds", "amount": -20}, {"op": "change", "field": "sanity_damage", "amount": -20},
        {"op": "change", "field": "gold", "amount": 5}]}


async def play(services: Services, versions: int, *, keys: bool, seed: int) -> tuple[str, str]:
    """A table played to `versions`: the road to town and back (server dice), an adjust every 7th command and an
    undo every 50th, like an evening at a table."""
    rng = random.Random(seed)
    created = await use_cases.create_session(services, {"heroes": HEROES, "seed": seed})
    sid, token = created["session_id"], created["token"]
    view = created
    for n in range(1, versions + 1):
        key = uuid.uuid4().hex if keys else None
        living = any(not h["removed"] for h in view["state"]["heroes"])
        if n % 50 == 0 or not living:  # an undo now and then; all the posse gone (Mr. Scratch): back 40 steps
            steps = 1 if living else min(40, view["version"])
            written = await use_cases.undo(services, sid, token, {"steps": steps}, idempotency_key=key)
        else:
            doctor = heal(view, n) if n % 5 == 0 and view["pending"] is None else None
            command = doctor or next_command(view, size=rng.choice(["small", "medium", "large"]))
            written = await use_cases.submit_command(services, sid, token, command, idempotency_key=key)
        view = written.body
    return sid, token


async def table_bytes(store: RedisStore, sid: str) -> tuple[int, int, int]:
    """(payload bytes of the table's keys, Redis MEMORY USAGE of them, payload bytes of its idempotency records)."""
    client = store.client
    meta = await client.hgetall(store._key(sid, "meta"))
    snapshots = await client.hgetall(store._key(sid, "snapshots"))
    checkpoints = await client.zrange(store._key(sid, "checkpoints"), 0, -1)
    log = await client.lrange(store._key(sid, "log"), 0, -1)
    payload = (sum(len(k) + len(v) for k, v in meta.items()) + sum(len(k) + len(v) for k, v in snapshots.items())
               + sum(len(c) for c in checkpoints) + sum(len(e) for e in log))
    usage = 0
    for part in ("meta", "snapshots", "checkpoints", "log"):
        usage += int(await client.memory_usage(store._key(sid, part)) or 0)
    idem = 0
    async for name in client.scan_iter(match=f"{store.prefix}:{sid}:idem:*", count=1000):
        idem += len(name) + len(await client.get(name) or b"")
    return payload, usage, idem


async def run(redis_url: str, versions: int, big: int, reads: int) -> None:
    prefix = f"stor{uuid.uuid4().hex[:8]}"
    settings = Settings(redis_url=redis_url, redis_prefix=prefix)
    store = RedisStore(redis_url, prefix=prefix)
    services = Services(store, settings)
    try:
        began = time.perf_counter()
        sid, _ = await play(services, versions, keys=True, seed=11)
        payload, usage, idem = await table_bytes(store, sid)
        print(f"typical evening: {versions} versions of a 4-hero table in {time.perf_counter() - began:.1f} s "
              f"(checkpoint every {settings.checkpoint_every} versions and at each undo)")
        print(f"  stored per version: {payload / (versions + 1):.0f} bytes of data, {usage / (versions + 1):.0f} bytes "
              f"of Redis memory (target <= 1024); idempotency records: {idem / versions:.0f} bytes per version "
              "for a day")
        snapshot = len(await store.client.hget(store._key(sid, "snapshots"), "0") or b"")
        print(f"  (a full snapshot of this table is {snapshot} bytes: one per version would be "
              f"{snapshot / 1024:.1f} KB per version)")

        began = time.perf_counter()
        big_sid, _ = await play(services, big, keys=False, seed=12)
        payload, usage, _ = await table_bytes(store, big_sid)
        print(f"{big}-version table played in {time.perf_counter() - began:.0f} s; {payload / (big + 1):.0f} bytes "
              f"of data per version")
        loaded = await services.history.latest(big_sid)
        assert loaded is not None
        # collect like a serving process does (services/api/app.py): startup objects frozen, full passes rare
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        times = []
        replayed = []
        rng = random.Random(5)
        for _ in range(reads):
            cold = History(store, view_parts)  # a process that holds nothing of this table
            version = rng.randint(0, big)
            began = time.perf_counter()
            state = await cold.at(big_sid, loaded.token_hash, version)
            view = cold.view(big_sid, loaded.token_hash, version, state) if state is not None else None
            times.append((time.perf_counter() - began) * 1000)
            assert view is not None
            replayed.append(cold.replayed)
        times.sort()
        print(f"reading any version of it (cold: checkpoint + replay, then the view): p50 {statistics.median(times):.1f}"
              f" ms, p99 {times[int(len(times) * 0.99) - 1]:.1f} ms, max {times[-1]:.1f} ms (target <= 50 ms); "
              f"{statistics.mean(replayed):.1f} commands replayed on average, at most {max(replayed)}")
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--redis", help="Redis URL (default: start a throwaway redis-server)")
    parser.add_argument("--versions", type=int, default=400)
    parser.add_argument("--big", type=int, default=10_000)
    parser.add_argument("--reads", type=int, default=200)
    args = parser.parse_args(argv)
    redis_process: Any = None
    redis_url = args.redis
    if not redis_url:
        port = free_port()
        redis_process = subprocess.Popen([shutil.which("redis-server") or "redis-server", "--port", str(port), "--save",
                                          "", "--appendonly", "no", "--dir", tempfile.mkdtemp()],
                                         stdout=subprocess.DEVNULL)
        redis_url = f"redis://127.0.0.1:{port}/0"
        time.sleep(0.3)
    try:
        asyncio.run(run(redis_url, args.versions, args.big, args.reads))
    finally:
        if redis_process is not None:
            stop(redis_process)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
