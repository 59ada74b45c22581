"""Simulated journeys per second: 4 heroes to a Large Town, every hazard by the RNG, every choice by the default policy.

Runs the plain `apply()` path and the fast path (`quiet=True`, no event text) on the same seeds in one run and
prints both rates, their ratio and journeys per core-second (CPU time of this process). The target is 100,000
journeys per core-second. `--profile` prints the top cProfile entries of the fast path.

    /work/venv/bin/python bench/journeys.py --journeys 3000 [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
from dataclasses import replace

from shared_rules.commands import Arrive, ChooseTownSize, RollHazard
from shared_rules.dice import seed_state
from shared_rules.engine import apply, new_session
from shared_rules.flow import Ctx, Request
from shared_rules.prompts import Answer
from shared_rules.simulate import default_policy, run_trials, sample_heroes, summarize, trial_seed
from shared_rules.state import Phase

TARGET_PER_CORE_SECOND = 100_000


def _measure(journeys: int, seed: int, *, quiet: bool) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds, and the hazards met (a check that both paths did the same work)."""
    heroes = sample_heroes(4)
    wall, cpu = time.perf_counter(), time.process_time()
    tally = run_trials(heroes, "large", journeys, seed=seed, fast=quiet)
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--journeys", type=int, default=2000, help="journeys per path (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="print the top cProfile entries of the fast path")
    parser.add_argument("--top", type=int, default=25, help="how many profile entries to print")
    args = parser.parse_args(argv)

    run_trials(sample_heroes(4), "large", 50, seed=args.seed + 1)  # warm up: imports, caches
    plain_wall, plain_cpu, plain_met = _measure(args.journeys, args.seed, quiet=False)
    fast_wall, fast_cpu, fast_met = _measure(args.journeys, args.seed, quiet=True)
    if plain_met != fast_met:
        raise SystemExit(f"the two paths disagree: {plain_met} vs {fast_met} hazards met")

    n = args.journeys
    print(f"{n} journeys each, 4 heroes to a Large Town ({fast_met / n:.2f} hazards per journey)")
    print(f"plain apply():        {n / plain_wall:10,.0f} journeys/s   {n / plain_cpu:10,.0f} per core-second")
    print(f"fast path (quiet):    {n / fast_wall:10,.0f} journeys/s   {n / fast_cpu:10,.0f} per core-second")
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
