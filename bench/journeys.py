"""Simulated journeys per second: 4 heroes to a Large Town, every hazard by the RNG, every choice by the default policy.

Runs the plain `apply()` path (every event written, as a table plays) and the fast path (autoplay: the rules decide
and roll in place on one context, no events) on the same seeds in one run and prints both rates, their ratio and
journeys per core-second (CPU time of this process). The target is 100,000 journeys per core-second.
`--profile` prints the top cProfile entries of the fast path; `--instructions` counts the instructions per journey
of each path under valgrind's callgrind (repeatable on a shared, noisy machine, unlike seconds), on the source and,
with `--compiled DIR`, on the compiled build too (scripts/build_compiled.py), with the ratio of the two.

    .venv/bin/python bench/journeys.py --journeys 3000 [--profile] [--instructions [--compiled build/compiled]]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from shared_rules import flow
from shared_rules.commands import Arrive, ChooseTownSize, RollHazard
from shared_rules.dice import seed_state
from shared_rules.engine import apply, new_session
from shared_rules.flow import Ctx, Request
from shared_rules.prompts import Answer
from shared_rules.simulate import default_policy, run_trials, sample_heroes, summarize, trial_seed
from shared_rules.state import Phase

TARGET_PER_CORE_SECOND = 100_000
# issue 19's baseline (callgrind, 2026-12-01) and its target: at least 10x fewer instructions per journey
BASELINE_INSTRUCTIONS = {"fast": 5_655_502, "plain": 10_922_956}
TARGET_INSTRUCTIONS = 550_000


def _measure(journeys: int, seed: int, *, fast: bool) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds, and the hazards met (a check that both paths did the same work)."""
    heroes = sample_heroes(4)
    wall, cpu = time.perf_counter(), time.process_time()
    tally = run_trials(heroes, "large", journeys, seed=seed, fast=fast)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return wall, cpu, sum(tally.d36.values())


def work_per_journey(journeys: int, seed: int) -> tuple[float, float]:
    """Commands through apply() and requests (rolls, draws, choices, re-roll offers) per journey, on average."""
    requests = commands = 0

    def counting(ctx: Ctx, request: Request) -> Answer | None:
        nonlocal requests
        requests += 1
        return default_policy(ctx, request)

    base = new_session(sample_heroes(4))
    for index in range(journeys):
        state = replace(base, rng=seed_state(trial_seed(seed, index)))
        state = apply(state, ChooseTownSize("large"), policy=counting, quiet=True).state
        commands += 1
        while state.phase is Phase.TRAVEL:
            state = apply(state, RollHazard(), policy=counting, quiet=True).state
            commands += 1
        state = apply(state, Arrive(), policy=counting, quiet=True).state
        commands += 1
    return commands / journeys, requests / journeys


def instructions_per_journey(path: str, small: int = 20, large: int = 120, build: Path | None = None) -> float:
    """callgrind's instruction count of `large` journeys minus `small` ones (start-up cancels), per journey; on the
    compiled build in `build` when given (checked: the run says which `flow` module it played)."""
    counts = []
    env = {**os.environ, "PYTHONPATH": str(build)} if build else {k: v for k, v in os.environ.items()
                                                                   if k != "PYTHONPATH"}
    env["PYTHONHASHSEED"] = "0"  # each run's string hashes move dict layouts by ~3%: the same layout in every run
    for journeys in (small, large):
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", sys.executable, __file__,
                 "--journeys", str(journeys), "--only", path], capture_output=True, text=True, check=True, env=env)
        if done.stdout.strip().endswith(".so") != (build is not None):
            raise SystemExit(f"asked for the {'compiled' if build else 'source'} build, ran {done.stdout.strip()}")
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise SystemExit(f"callgrind printed no count:\n{done.stderr[-2000:]}")
        counts.append(int(found.group(1)))
    return (counts[1] - counts[0]) / (large - small)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--journeys", type=int, default=2000, help="journeys per path (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="print the top cProfile entries of the fast path")
    parser.add_argument("--top", type=int, default=25, help="how many profile entries to print")
    parser.add_argument("--instructions", action="store_true", help="instructions per journey under callgrind")
    parser.add_argument("--compiled", type=Path, help="with --instructions: also count on this compiled build")
    parser.add_argument("--only", choices=("plain", "fast"), help=argparse.SUPPRESS)  # one path, for callgrind
    args = parser.parse_args(argv)
    if args.only:
        run_trials(sample_heroes(4), "large", args.journeys, seed=args.seed, fast=args.only == "fast")
        print(flow.__file__)
        return
    if args.instructions:
        for path in ("plain", "fast"):
            count = instructions_per_journey(path)
            print(f"{path:5s} path: {count:12,.0f} instructions per journey (callgrind); x{count / BASELINE_INSTRUCTIONS[path]:.2f} "
                  f"of issue 19's baseline ({BASELINE_INSTRUCTIONS[path]:,}); the target is {TARGET_INSTRUCTIONS:,} on "
                  f"the fast path", flush=True)
            if args.compiled:
                built = instructions_per_journey(path, build=args.compiled.resolve())
                print(f"{'':5s} compiled: {built:12,.0f} instructions per journey; x{built / count:.2f} of the "
                      f"source's, x{built / BASELINE_INSTRUCTIONS[path]:.2f} of the baseline", flush=True)
        return

    run_trials(sample_heroes(4), "large", 50, seed=args.seed + 1)  # warm up: imports, caches
    plain_wall, plain_cpu, plain_met = _measure(args.journeys, args.seed, fast=False)
    fast_wall, fast_cpu, fast_met = _measure(args.journeys, args.seed, fast=True)
    if plain_met != fast_met:
        raise SystemExit(f"the two paths disagree: {plain_met} vs {fast_met} hazards met")

    n = args.journeys
    print(f"{n} journeys each, 4 heroes to a Large Town ({fast_met / n:.2f} hazards per journey)")
    print(f"plain apply():        {n / plain_wall:10,.0f} journeys/s   {n / plain_cpu:10,.0f} per core-second")
    print(f"fast path (autoplay): {n / fast_wall:10,.0f} journeys/s   {n / fast_cpu:10,.0f} per core-second")
    print(f"fast / plain:         {plain_wall / fast_wall:10.2f}x")
    print(f"target:               {TARGET_PER_CORE_SECOND:10,} per core-second "
          f"({n / fast_cpu / TARGET_PER_CORE_SECOND:.1%} reached; {fast_cpu / n * 1e6:,.0f} us per journey)")

    commands, requests = work_per_journey(min(n, 500), args.seed)
    print(f"work per journey:     {commands:.1f} commands through apply(), {requests:.1f} requests answered "
          f"({fast_cpu / n / requests * 1e6:.1f} us per request on the fast path)")

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        tally = run_trials(sample_heroes(4), "large", n, seed=args.seed)
        profiler.disable()
        summarize(tally)
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(args.top)
        print(out.getvalue())


if __name__ == "__main__":
    main()
