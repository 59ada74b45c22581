"""`brimstone redis-migrate --redis URL [--redis-prefix P]`: move the tables stored before the hash-tagged key
layout (``brimstone:<code>:meta`` ...) to it (``brimstone:{<code>}:meta``), so each table's keys share one Redis
Cluster slot. Run once, with the replicas stopped; running it again moves nothing."""

from __future__ import annotations

import argparse
import asyncio
import os

from services.store.redis import RedisStore


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="brimstone redis-migrate", description=__doc__)
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL"), help="the Redis URL (default: REDIS_URL)")
    parser.add_argument("--redis-prefix", default=os.environ.get("BRIMSTONE_REDIS_PREFIX", "brimstone"))
    args = parser.parse_args(argv)
    if not args.redis:
        parser.error("--redis (or REDIS_URL) is required")

    async def run() -> int:
        store = RedisStore(args.redis, prefix=args.redis_prefix)
        try:
            return await store.migrate_layout()
        finally:
            await store.close()

    moved = asyncio.run(run())
    print(f"moved {moved} table(s) to the hash-tagged key layout")
    return 0
