"""Simulated Adventures per core-second, and the odds they give: `autoplay.adventure` playing the turn loop through
`apply()` with the default policy and the session RNG.

Two set-ups: the default pack with a typed 12-space Depth Track and typed sheets (Hold Back the Darkness, exploring,
scavenging; Attack! tokens bring no enemies without Threat cards), and the tests' pack (tests/rules/adventure/pack.py:
invented enemies, Threat cards and tokens, so Fights happen).

    .venv/bin/python bench/adventure.py --trials 300 --turns 15
    .venv/bin/python bench/adventure.py --instructions [--compiled build/compiled]
                                       (callgrind: instructions per Adventure, each set-up, on each build)
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # after PYTHONPATH: a compiled build given there comes first

from shared_rules import flow  # noqa: E402
from shared_rules.autoplay.adventure import darkness_odds  # noqa: E402
from shared_rules.commands import SheetEntry  # noqa: E402
from shared_rules.simulate import sample_heroes  # noqa: E402
from shared_rules.state import SpaceMark, TrackSpace  # noqa: E402
from tests.rules.adventure import pack  # noqa: E402

SHEETS = (SheetEntry("h1", initiative=4, max_fury=3), SheetEntry("h2", initiative=6, deadly_bonus=2),
          SheetEntry("h3", initiative=5, max_ki=3), SheetEntry("h4", initiative=3, mana=3, blast_cost=1))  # fmt: skip


# issue 19's baseline (callgrind, 2026-12-04, before the Adventure's bulk path) and its target: 10x fewer
BASELINE_INSTRUCTIONS = (95_211_599, 113_100_442)  # the two set-ups below, in order
TARGET_RATIO = 0.10


def layout(length: int) -> tuple[TrackSpace, ...]:
    spaces = []
    for number in range(length):
        stage = 3 if number < length // 3 else 2 if number < 2 * length // 3 else 1
        mark = SpaceMark.BLOOD_SPATTER if number in (3, 7) else SpaceMark.GROWING_DREAD if number in (5, 9) \
            else SpaceMark.NONE  # fmt: skip
        spaces.append(TrackSpace(number, stage, SpaceMark.NONE if number in (0, length - 1) else mark))
    return tuple(spaces)


def instructions_per_adventure(turns: int, run: int, small: int = 4, large: int = 16, build: Path | None = None) -> float:
    """callgrind's instruction count of `large` Adventures minus `small` ones (start-up cancels), per Adventure:
    repeatable on a shared, noisy machine, unlike seconds. On the compiled build in `build` when given (checked:
    the run says which `flow` module it played)."""
    counts = []
    env = {**os.environ, "PYTHONPATH": str(build)} if build else {k: v for k, v in os.environ.items()
                                                                   if k != "PYTHONPATH"}
    env["PYTHONHASHSEED"] = "0"  # each run's string hashes move dict layouts by ~3%: the same layout in every run
    for trials in (small, large):
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", sys.executable, __file__,
                 "--trials", str(trials), "--turns", str(turns), "--only", str(run)],
                capture_output=True, text=True, check=True, env=env)  # fmt: skip
        if done.stdout.strip().splitlines()[-1].endswith(".so") != (build is not None):
            raise SystemExit(f"asked for the {'compiled' if build else 'source'} build, ran {done.stdout.strip()}")
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise SystemExit(f"callgrind printed no count:\n{done.stderr[-2000:]}")
        counts.append(int(found.group(1)))
    return (counts[1] - counts[0]) / (large - small)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=300)
    parser.add_argument("--turns", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--instructions", action="store_true", help="count instructions per Adventure (callgrind)")
    parser.add_argument("--compiled", type=Path, help="with --instructions: also count on this compiled build")
    parser.add_argument("--only", type=int, choices=(0, 1), help=argparse.SUPPRESS)
    args = parser.parse_args()
    runs = [
        ("default pack, typed 12-space track", dict(layout=layout(12), sheets=SHEETS)),
        ("test pack (Fights), its 12-space track", dict(track="fortress", pack_name=pack.register())),
    ]
    if args.instructions:
        for index, (label, _) in enumerate(runs):
            baseline = BASELINE_INSTRUCTIONS[index]
            count = instructions_per_adventure(args.turns, index)
            print(f"{label}: {count:,.0f} instructions per Adventure of up to {args.turns} turns; "
                  f"x{count / baseline:.3f} of issue 19's baseline ({baseline:,}; the target is x{TARGET_RATIO:.2f})",
                  flush=True)
            if args.compiled:
                built = instructions_per_adventure(args.turns, index, build=args.compiled.resolve())
                print(f"  compiled: {built:,.0f} instructions per Adventure; x{built / count:.2f} of the source's, "
                      f"x{built / baseline:.3f} of the baseline", flush=True)
        return
    if args.only is not None:
        runs = [runs[args.only]]
    for label, kwargs in runs:
        wall, cpu = time.perf_counter(), time.process_time()
        odds = darkness_odds(sample_heroes(4), turns=args.turns, trials=args.trials, seed=args.seed,
                             **kwargs)  # type: ignore[arg-type]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"{label}: {args.trials} Adventures of up to {args.turns} turns in {wall:.1f} s "
              f"({args.trials / cpu:.1f} per core-second)")
        print(f"  the Darkness escaped within {args.turns} turns: {odds['escaped_within']:.1%}; "
              f"escape turns {odds['escape_turns']}; endings {odds['endings']}")
    if args.only is not None:
        print(flow.__file__)  # which build this run played (--instructions checks it)


if __name__ == "__main__":
    main()
