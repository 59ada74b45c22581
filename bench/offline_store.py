"""The phone's offline store: milliseconds per tap (an `adjust` applied and written) after N steps, and bytes a tap
adds to the file. `python bench/offline_store.py [--steps 800]`."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mobile.client import OfflineBackend  # noqa: E402
from shared_rules import Adjust, Effect, Hero, RuleOptions  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=800)
    args = parser.parse_args()
    heroes = [Hero(h, h.capitalize()) for h in ("ann", "bo", "cy", "di")]
    backend = OfflineBackend(Path(tempfile.mkdtemp()))
    backend.create(heroes, RuleOptions(dice="table"), seed=1)
    tap = Adjust("ann", (Effect("change", "xp", 5),))
    for n in range(args.steps):
        backend.submit(tap, f"warm{n}", None)
    size = backend.path.stat().st_size
    times = []
    for n in range(50):
        start = time.perf_counter()
        backend.submit(tap, f"tap{n}", None)
        times.append(time.perf_counter() - start)
    grown = (backend.path.stat().st_size - size) / 50
    times.sort()
    start = time.perf_counter()
    OfflineBackend(backend.directory).join(backend.table.code)  # type: ignore[union-attr]
    reopen = time.perf_counter() - start
    print(f"after {args.steps} steps: {1000 * times[len(times) // 2]:.1f} ms per tap (median of 50, p90 "
          f"{1000 * times[int(len(times) * 0.9)]:.1f} ms), {grown:.0f} bytes per tap, file {size / 1024:.0f} KiB, "
          f"reopen {1000 * reopen:.0f} ms")


if __name__ == "__main__":
    main()
