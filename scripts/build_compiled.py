"""The engine's second build: the same `shared_rules` source with its hot modules compiled by mypyc (issue 19).

The service's workers and bulk odds run on it; the phone, and any machine without a C compiler, run the pure-Python
source, which stays the only source of truth. Only the modules a journey or an odds trial spends its time in are
compiled (a one-minute build, not the whole engine's six). Left interpreted: the modules whose dataclasses the codec
decodes (state, dice, prompts, events, commands), as mypyc erases the annotations the codec reads, and the odds'
questions, whose frozen Plan is pickled to worker processes (a compiled frozen dataclass cannot be unpickled).

    .venv/bin/python scripts/build_compiled.py [--out build/compiled]
    PYTHONPATH=build/compiled brimstone worker      # any process: the compiled modules are found first

A build whose source has not changed since is kept (its stamp holds the source's hash).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Where a journey and an odds trial spend their time (cProfile, tottime per file): the driver, the autoplay loop,
# the odds' trial and tally, the road and its 36 hazards, the Town's arrival.
COMPILED = (
    "flow",
    "engine",
    "simulate",
    "odds/controls",
    "odds/sample",
    "rules/travel/road",
    "rules/travel/hazards/common",
    *(f"rules/travel/hazards/d{tens}" for tens in range(1, 7)),
    "rules/town/arrival",
)


def source_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted((ROOT / "shared_rules").rglob("*.py")):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    digest.update(repr(COMPILED).encode())
    return digest.hexdigest()


def build(into: Path) -> None:
    """Compile COMPILED inside `into`, which holds a copy of `shared_rules`."""
    sources = [f"shared_rules/{name}.py" for name in COMPILED]
    mypyc = Path(sys.executable).with_name("mypyc")
    env = {**os.environ, "MYPYC_OPT_LEVEL": os.environ.get("MYPYC_OPT_LEVEL", "3")}
    done = subprocess.run([str(mypyc), *sources], cwd=into, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"mypyc failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    shutil.rmtree(into / "build", ignore_errors=True)
    missing = [name for name in COMPILED if not list((into / "shared_rules").glob(f"{name}.*.so"))]
    if missing:
        sys.exit(f"mypyc built no extension for {missing}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "compiled", help="the build's directory")
    args = parser.parse_args()
    into = args.out.resolve()
    stamp = into / ".compiled-source"
    wanted = source_hash()
    if stamp.exists() and stamp.read_text() == wanted:
        print(f"compiled build up to date: {into}")
        return
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    shutil.copytree(ROOT / "shared_rules", into / "shared_rules", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    build(into)
    stamp.write_text(wanted)
    print(f"compiled {len(COMPILED)} modules of shared_rules: {into}")


if __name__ == "__main__":
    main()
