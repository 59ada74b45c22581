"""`brimstone serve` / `python -m services.api.serve`: run the API with uvicorn.

Storage: Redis with --redis URL (or REDIS_URL), else the SQLite file --db PATH (or BRIMSTONE_DB, default
./data/brimstone.sqlite3). Sessions survive a restart in both.
"""

from __future__ import annotations

import argparse
import gc
import logging
import logging.config
import sys

from services.observability import log_config, serve_metrics
from services.settings import DEFAULT_DB, Settings


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="brimstone serve", description="Run the Brimstone Table API (REST + GraphQL).")
    p.add_argument("--host", help="interface to listen on (default 127.0.0.1, BRIMSTONE_HOST)")
    p.add_argument("--port", type=int, help="TCP port (default 8000, BRIMSTONE_PORT)")
    p.add_argument("--redis", metavar="URL", help="Redis URL for sessions, pub/sub and rq jobs (REDIS_URL)")
    p.add_argument("--db", metavar="PATH", help=f"SQLite file when no Redis is set (BRIMSTONE_DB, default {DEFAULT_DB})")
    p.add_argument("--host-token", help="the event host's token for listing tables (BRIMSTONE_HOST_TOKEN)")
    p.add_argument("--redis-prefix", help="namespace for Redis keys (BRIMSTONE_REDIS_PREFIX, default brimstone)")
    p.add_argument("--simulation-executor", choices=("process", "thread"),
                   help="embedded simulations run in a process pool (default) or threads")
    p.add_argument("--log-level", choices=("critical", "error", "warning", "info", "debug"),
                   help="uvicorn and service log level (default info)")
    return p


def settings_from(argv: list[str]) -> Settings:
    args = parser().parse_args(argv)
    return Settings.from_env(host=args.host, port=args.port, redis_url=args.redis, db_path=args.db,
                             host_token=args.host_token, redis_prefix=args.redis_prefix,
                             simulation_executor=args.simulation_executor, log_level=args.log_level)


KEEP_ALIVE_SECONDS = 75
"""How long an idle HTTP connection stays open (uvicorn's default is 5 s)."""


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, build the app and serve it until interrupted."""
    # No collector passes while the app is imported and built (everything made now lives as long as the process:
    # the passes found nothing to free and cost ~0.15 s of the start); the app's lifespan collects once, freezes
    # what is left and turns the collector back on with the serving thresholds.
    gc.disable()
    import uvicorn

    from services.api.app import create_app

    settings = settings_from(sys.argv[1:] if argv is None else argv)
    config = log_config(settings.log_level)
    logging.config.dictConfig(config)
    where = settings.redis_url if settings.redis_url else settings.db_path
    logging.getLogger("brimstone").info("storage: %s (%s)", settings.storage, where)
    if settings.metrics_port:
        serve_metrics(settings.metrics_port, settings.metrics_host or settings.host)
    # the client address: X-Forwarded-For only from the trusted proxies (uvicorn reads it right to left and stops at
    # the first address it does not trust), never from anyone (FORWARDED_ALLOW_IPS is not read)
    # An idle keep-alive connection is kept 75 s, longer than the proxy's upstream keepalive_timeout (60 s,
    # deploy/nginx.conf) and a phone's pause between two commands: with uvicorn's 5 s the server closed connections a
    # busy client was about to reuse, and the request sent in that instant got no answer at all.
    # permessage-deflate only when asked (BRIMSTONE_WS_COMPRESSION): uvicorn accepts it by default, and every socket
    # then compresses every message with a compressor of its own (~30% of a featured table's fan-out CPU).
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level=settings.log_level,
                ws="websockets-sansio", ws_per_message_deflate=settings.ws_compression, lifespan="on",
                timeout_graceful_shutdown=5, log_config=config,
                timeout_keep_alive=KEEP_ALIVE_SECONDS,
                proxy_headers=bool(settings.trusted_proxies), forwarded_allow_ips=list(settings.trusted_proxies))


if __name__ == "__main__":
    main()
