"""Simulation throughput through the service with one and with two rq workers (journeys per second, speed-up).

    python bench/simulation.py [--trials 4000] [--size large] [--redis redis://127.0.0.1:6379/0]

The API server and the workers (`python -m services.jobs.worker`, what `brimstone worker` runs) are started
first and idle; the clock runs from POST /v1/simulations to the poll that sees the job finished, so it includes
queueing, the chunks, the finalizer's merge and the polling. Without --redis a throwaway redis-server is used.
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from service import ROOT, free_port, start, stop, wait_http  # noqa: E402  (the sibling benchmark's helpers)


def run_job(api_url: str, trials: int, size: str, seed: int) -> tuple[float, dict[str, object]]:
    from shared_rules.codec import encode
    from shared_rules.simulate import sample_heroes

    body = {"heroes": [encode(h) for h in sample_heroes(4)], "size": size, "trials": trials, "seed": seed}
    with httpx.Client(base_url=api_url, timeout=30) as http:
        began = time.perf_counter()
        job = http.post("/v1/simulations", json=body).json()
        while True:
            state = http.get(f"/v1/simulations/{job['job_id']}").json()
            if state["status"] == "finished":
                return time.perf_counter() - began, state
            if state["status"] == "failed":
                raise RuntimeError(state["error"])
            time.sleep(0.05)


def chunk_report(redis_url: str, job_id: str, chunks: int) -> str:
    """How many chunks each worker ran and the busiest chunk's seconds (to see the work was shared)."""
    from collections import Counter

    from redis import Redis
    from rq.job import Job

    jobs = [job for job in Job.fetch_many([f"sim-{job_id}-{i}" for i in range(chunks)],
                                          connection=Redis.from_url(redis_url)) if job is not None]
    per_worker = Counter(job.worker_name for job in jobs)
    longest = max(((job.ended_at - job.started_at).total_seconds() for job in jobs
                   if job.ended_at and job.started_at), default=0.0)
    return f"{sorted(per_worker.values(), reverse=True)} per worker, longest {longest:.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", help="Redis URL (default: start a throwaway redis-server)")
    parser.add_argument("--trials", type=int, default=4000)
    parser.add_argument("--size", default="large", choices=("small", "medium", "large"))
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))

    import shutil
    import subprocess
    import tempfile

    redis_process = None
    redis_url = args.redis
    if not redis_url:
        port = free_port()
        redis_process = subprocess.Popen([shutil.which("redis-server") or "redis-server", "--port", str(port),
                                          "--save", "", "--appendonly", "no", "--dir", tempfile.mkdtemp()],
                                         stdout=subprocess.DEVNULL)
        redis_url = f"redis://127.0.0.1:{port}/0"
        time.sleep(0.3)
    prefix = f"bench{uuid.uuid4().hex[:8]}"
    queue = f"{prefix}-sims"
    api_port = free_port()
    env = {"BRIMSTONE_RQ_QUEUE": queue, "BRIMSTONE_MAX_TRIALS": str(max(args.trials, 200_000))}
    api = start([sys.executable, "-m", "services.api.serve", "--port", str(api_port), "--redis", redis_url,
                 "--redis-prefix", prefix, "--log-level", "warning"], env)
    api_url = f"http://127.0.0.1:{api_port}"
    try:
        wait_http(f"{api_url}/v1/health", api)
        print(f"{args.trials} journeys to a {args.size} town, 4 heroes, chunks of the server's plan; "
              f"{__import__('os').cpu_count()} cores")
        rates = {}
        for workers in (1, 2):
            procs = [start([sys.executable, "-m", "services.jobs.worker", "--redis", redis_url, "--queue", queue,
                            "--log-level", "warning"]) for _ in range(workers)]
            try:
                time.sleep(3.0)  # let the workers import and register before the clock starts
                elapsed, state = run_job(api_url, args.trials, args.size, seed=workers)
            finally:
                for proc in procs:
                    stop(proc)
            rates[workers] = args.trials / elapsed
            print(f"{workers} worker{'s' if workers > 1 else ' '}: {elapsed:6.2f} s, {rates[workers]:7.0f} journeys/s "
                  f"({state['chunks']} chunks: {chunk_report(redis_url, str(state['job_id']), int(state['chunks']))})")
        print(f"speed-up with two workers: {rates[2] / rates[1]:.2f}x")
    finally:
        stop(api)
        if redis_process is not None:
            stop(redis_process)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
