"""How long "What are our odds?" takes: the four-hero town-size question to +-1 point (every chance's 95%
half-width), by sequential stopping, against today's fixed-trial path, in the same run.

    .venv/bin/python bench/odds.py [--heroes 4] [--precision 1] [--fixed 5000] [--workers 2] [--no-rq]
    .venv/bin/python bench/odds.py --darkness [--turns 15]    (will the Darkness escape, to +-2 points)
    .venv/bin/python bench/odds.py --compiled build/compiled   (the same on the compiled build: scripts/build_compiled.py)

Prints, per way of asking: wall and CPU seconds, the first partial answer's wall time, the trials used per option,
the widest half-width reached, and the CPU ratio to the fixed path. Offline on one core (in this process), on N
processes (`brimstone odds --workers N`), and through a throwaway redis-server with N `brimstone worker`s (the
service's rq path: pieces with derived seeds; the worker that finishes a piece settles its option, and closes it once
it is within the target).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _compiled_arg(argv: list[str]) -> Path | None:
    """`--compiled DIR`, read before the engine is imported: that build's modules must be the ones found."""
    for index, arg in enumerate(argv):
        if arg.startswith("--compiled="):
            return Path(arg.split("=", 1)[1]).resolve()
        if arg == "--compiled" and index + 1 < len(argv):
            return Path(argv[index + 1]).resolve()
    return None


COMPILED = _compiled_arg(sys.argv)
ENGINE_PATH = [str(p) for p in (COMPILED, ROOT) if p is not None]  # also the rq workers' PYTHONPATH
sys.path[:0] = ENGINE_PATH

from services.odds_cli import ask_here  # noqa: E402
from shared_rules import flow, odds  # noqa: E402
from shared_rules.codec import encode_state  # noqa: E402
from shared_rules.engine import legal_commands, new_session  # noqa: E402
from shared_rules.simulate import sample_heroes  # noqa: E402

BUDGET = 20_000  # trials per option at most, with a precision


def _line(
    label: str, answer: dict[str, Any], wall: float, cpu: float | None, first: float | None, base_cpu: float | None
) -> None:
    done = answer["done"]
    reached = answer["precision"]["reached"]
    cpu_text = f"{cpu:5.2f} CPU-s" if cpu is not None else "    - CPU-s"
    ratio = f"  x{cpu / base_cpu:.2f} CPU of fixed" if cpu is not None and base_cpu else ""
    first_text = f"  first figures {first * 1000:4.0f} ms" if first is not None else ""
    met = answer["precision_met"] if answer["precision"]["target"] is not None else "-"
    print(
        f"  {label:<34} {wall:6.2f} s wall {cpu_text}{first_text}  trials {sum(done.values()):6d} "
        f"{dict(done)}  widest ±{reached:.2%} met={met}{ratio}",
        flush=True,
    )


def offline(plan: odds.Plan, precision: float, fixed: int, workers: int) -> float:
    """In this process (one core), then on `workers` processes; returns the fixed path's CPU seconds."""
    print("offline, one core (this process):")
    wall, cpu = time.perf_counter(), time.process_time()
    answer = odds.ask(plan, fixed, seed=1)
    wall, base = time.perf_counter() - wall, time.process_time() - cpu
    _line(f"fixed {fixed} per option (today)", answer, wall, base, None, None)
    first: list[float] = []
    start, cpu = time.perf_counter(), time.process_time()
    answer = odds.ask(plan, BUDGET, seed=1, precision=precision, partial=lambda _: first.append(time.perf_counter()))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    _line(f"±{precision:.1%} by sequential stopping", answer, wall, cpu, first[0] - start, base)
    if workers > 1:
        print(f"offline, {workers} processes (brimstone odds --workers {workers}; CPU in the workers not counted):")
        wall = time.perf_counter()
        answer = ask_here(plan, fixed, 1, workers)
        _line(f"fixed {fixed} per option (today)", answer, time.perf_counter() - wall, None, None, None)
        wall = time.perf_counter()
        answer = ask_here(plan, BUDGET, 1, workers, precision)
        _line(f"±{precision:.1%} by sequential stopping", answer, time.perf_counter() - wall, None, None, None)
    return base


def _cpu_of(pids: list[int]) -> float:
    """User+system CPU seconds of processes and their waited-for children (rq's work horses), from /proc."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += sum(int(v) for v in fields[11:15])  # utime stime cutime cstime
    return total / os.sysconf("SC_CLK_TCK")


def through_rq(plan: odds.Plan, precision: float, fixed: int, workers: int, base_cpu: float) -> None:
    """The service's rq path: a throwaway redis-server, `workers` brimstone workers, the API's RqOddsRunner."""
    import asyncio

    from redis import Redis

    from services.jobs.odds import RqOddsRunner
    from services.jobs.runner import RqRunner
    from services.settings import Settings

    executable = shutil.which("redis-server")
    if executable is None:
        print("rq: no redis-server on PATH, skipped")
        return
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    workdir = tempfile.mkdtemp(prefix="bench-odds-redis-")
    redis = subprocess.Popen(
        [executable, "--port", str(port), "--save", "", "--appendonly", "no", "--dir", workdir],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    procs: list[subprocess.Popen[bytes]] = []
    try:
        connection = Redis.from_url(url)
        deadline = time.monotonic() + 10
        while True:
            try:
                connection.ping()
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        settings = Settings.from_env({}, redis_url=url)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(ENGINE_PATH)}
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "services.jobs.worker", "--redis", url, "--log-level", "warning"], env=env,
                cwd=workdir,  # not the checkout: `-m` puts the working directory ahead of PYTHONPATH
            )
            for _ in range(workers)
        ]
        deadline = time.monotonic() + 60
        from rq import Worker

        while len(Worker.all(connection=connection)) < workers:  # ready: every worker registered
            if time.monotonic() > deadline:
                raise SystemExit("rq workers did not start")
            time.sleep(0.05)
        runner = RqOddsRunner(settings, RqRunner(settings))
        print(f"rq, {workers} brimstone workers on a throwaway redis-server (CPU: the workers'):")
        for label, trials, target in (
            (f"fixed {fixed} per option (today)", fixed, None),
            (f"±{precision:.1%} by sequential stopping", BUDGET, precision),
        ):
            spec = {
                "question": plan.question,
                "session_id": None,
                "state": encode_state(plan.state),
                "params": dict(plan.params),
                "options": [c.key for c in plan.options],
                "trials": trials,
                "seed": 1,
                "precision": target,
                "owner": None,
            }
            cpu = _cpu_of([p.pid for p in procs])
            api_cpu = time.process_time()
            wall = time.perf_counter()
            view, first, polls = asyncio.run(_follow(runner, spec, wall))
            wall = time.perf_counter() - wall
            _line(label, view["answer"], wall, _cpu_of([p.pid for p in procs]) - cpu, first, base_cpu)
            api_cpu = time.process_time() - api_cpu
            print(f"    the API's reads of the job (as the workers announce changes): {polls} reads, {api_cpu:.2f} "
                  f"CPU-s, {1000 * api_cpu / max(1, polls):.1f} ms each")
            time.sleep(0.5)  # a stop sent to a work horse lands in a registry a moment later
            _played(runner.queue, view["job_id"], sum(view["answer"]["done"].values()))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:  # a worker stuck in a piece: the figures above stand, end it
                proc.kill()
                proc.wait()
        redis.terminate()
        redis.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


async def _follow(runner: Any, spec: dict[str, Any], start: float) -> tuple[dict[str, Any], float | None, int]:
    """Ask, then follow the job as the service's watchers do (SSE, subscriptions): its last view, when the first
    figures came (seconds after `start`), and how many views were read."""
    job = await runner.start(spec)
    view, first, reads = job, None, 0
    async for view in runner.watch(job["job_id"]):
        reads += 1
        assert view["status"] != "failed", view
        if first is None and any(view["answer"]["done"].values()):
            first = time.perf_counter() - start
    assert view["status"] == "finished", view["status"]
    return view, first, reads


def _played(queue: Any, job_id: str, used: int) -> None:
    """What the workers played for the job: pieces finished (their trials, and those past where the options
    stopped), and pieces stopped part-way once their option had settled."""
    from rq.job import Job
    from rq.registry import FailedJobRegistry, FinishedJobRegistry

    prefix = f"odds-{job_id}-"
    finished = [i for i in FinishedJobRegistry(queue=queue).get_job_ids() if i.startswith(prefix)]
    stopped = [i for i in FailedJobRegistry(queue=queue).get_job_ids() if i.startswith(prefix)]
    played = sum(int((job.return_value() or {}).get("trials", 0))  # a piece of a closed option plays none
                 for job in Job.fetch_many(finished, connection=queue.connection) if job)
    print(f"    the workers finished {len(finished)} pieces ({played} trials, {played - used} past the stopping "
          f"points) and stopped {len(stopped)} part-way")


DARK_SHEETS = [{"hero": "h1", "initiative": 4, "max_fury": 3}, {"hero": "h2", "initiative": 6, "deadly_bonus": 2},
               {"hero": "h3", "initiative": 5, "max_ki": 3},
               {"hero": "h4", "initiative": 3, "mana": 3, "blast_cost": 1}]  # fmt: skip


def darkness(turns: int, precision: float, fixed: int) -> None:
    """darkness_escapes on a 12-space Depth Track (bench/adventure.py's) to `precision`, one core; the fixed
    path's time is this run's CPU per trial times `fixed` (a projection: 20,000 Adventures take minutes)."""
    from bench.adventure import layout

    track = [{"number": s.number, "stage": s.stage, "mark": s.mark.value} for s in layout(12)]
    plan = odds.plan(new_session(sample_heroes(4)), "darkness_escapes",
                     {"layout": track, "sheets": DARK_SHEETS, "turns": turns})  # fmt: skip
    print(f"will the Darkness escape within {turns} turns, ±{precision:.0%} (95%), one core:")
    first: list[float] = []
    start, cpu = time.perf_counter(), time.process_time()
    answer = odds.ask(plan, fixed, seed=1, precision=precision, chunk=100,
                      partial=lambda _: first.append(time.perf_counter()))  # fmt: skip
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    chance = answer["options"][0]["chances"]["darkness_escaped"]
    _line(f"±{precision:.0%} by sequential stopping", answer, wall, cpu, first[0] - start, None)
    per_trial = cpu / answer["done"]["as_we_play"]
    print(f"  escaped {chance['p']:.1%} ({chance['ci'][0]:.1%}-{chance['ci'][1]:.1%}); fixed {fixed} would take "
          f"~{per_trial * fixed:.0f} CPU-s at this run's {1 / per_trial:.1f} Adventures per CPU-s (x"
          f"{cpu / (per_trial * fixed):.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--heroes", type=int, default=4)
    parser.add_argument("--precision", type=float, default=1.0, help="percentage points (default 1)")
    parser.add_argument("--fixed", type=int, default=5000, help="today's trials per option (default 5000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-rq", action="store_true")
    parser.add_argument("--no-offline", action="store_true", help="only the rq path (no ratio to the fixed path)")
    parser.add_argument("--darkness", action="store_true", help="the Darkness question instead, to ±2 points")
    parser.add_argument("--turns", type=int, default=15)
    parser.add_argument("--compiled", type=Path, help="the compiled build's directory (scripts/build_compiled.py)")
    args = parser.parse_args()
    build = "compiled" if str(flow.__file__).endswith(".so") else "source"
    if (build == "compiled") != (COMPILED is not None):
        raise SystemExit(f"asked for the {'compiled' if COMPILED else 'source'} build, loaded {flow.__file__}")
    print(f"engine: the {build} build ({Path(str(flow.__file__)).parent.parent})")
    if args.darkness:
        darkness(args.turns, 0.02, 20_000)
        return
    state = new_session(sample_heroes(args.heroes))
    legal_commands(state)  # the engine's rule areas loaded before any clock starts
    plan = odds.plan(state, "town_size")
    print(
        f"{args.heroes}-hero town-size question, ±{args.precision} points (95%), at most {BUDGET} per option; "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    base = 0.0 if args.no_offline else offline(plan, args.precision / 100, args.fixed, args.workers)
    if not args.no_rq:
        through_rq(plan, args.precision / 100, args.fixed, args.workers, base)


if __name__ == "__main__":
    main()
