"""Are the odds' intervals honest? K independent runs of N trials each (disjoint trial indices) of one town-size
option; each run's chances (adjusted by the dice where they can be) against each other.

Prints per chance: the mean of the runs' estimates, the mean reported 95% half-width, 1.96 times the runs' own
spread of the estimate (the two should agree), and how many runs' intervals held the mean of the estimates (about
95% of them should; not the pooled count: an adjusted estimate can be sharper than the count of all K runs).

    .venv/bin/python bench/odds_calibration.py [--size large] [--runs 30] [--trials 1200]
    .venv/bin/python bench/odds_calibration.py --darkness [--runs 30] [--trials 400]   (bench/odds.py's question)
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared_rules import odds  # noqa: E402
from shared_rules.engine import legal_commands, new_session  # noqa: E402
from shared_rules.odds import _chances  # noqa: E402
from shared_rules.simulate import sample_heroes  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--size", default="large")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--trials", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--darkness", action="store_true", help="will the Darkness escape within 15 turns")
    args = parser.parse_args()
    state = new_session(sample_heroes(4))
    legal_commands(state)
    if args.darkness:
        from bench.adventure import layout
        from bench.odds import DARK_SHEETS

        track = [{"number": s.number, "stage": s.stage, "mark": s.mark.value} for s in layout(12)]
        plan = odds.plan(state, "darkness_escapes", {"layout": track, "sheets": DARK_SHEETS, "turns": 15})
        args.size = plan.options[0].key
    else:
        plan = odds.plan(state, "town_size")
    runs = [odds.run_chunk(plan, args.size, k * args.trials, args.trials, seed=args.seed) for k in range(args.runs)]
    pooled = {name: figure["count"] / figure["trials"] for figure, name in _chances(plan, odds.merged(runs))}
    table: dict[str, list[dict[str, Any]]] = {}
    for sample in runs:
        for figure, name in _chances(plan, sample):
            table.setdefault(name, []).append(figure)
    print(f"{args.runs} runs of {args.trials} {args.size} trials; chances above 2%")
    for name, figures in sorted(table.items()):
        if pooled[name] < 0.02:
            continue
        centre = statistics.mean(f["p"] for f in figures)
        half = statistics.mean((f["ci"][1] - f["ci"][0]) / 2 for f in figures)
        spread = 1.96 * statistics.stdev(f["p"] for f in figures)
        held = sum(f["ci"][0] <= centre <= f["ci"][1] for f in figures)
        methods = "/".join(sorted({f["method"] for f in figures}))
        print(f"  {name:30s} p={centre:.4f}  half-width {half:.4f}  1.96 sd of runs {spread:.4f}  "
              f"held {held}/{args.runs}  ({methods})")


if __name__ == "__main__":
    main()
