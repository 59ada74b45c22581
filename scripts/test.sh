#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what it needs, then runs pytest (extra args go to pytest).
# Quick local run without the slow fuzzing: scripts/test.sh -m "not slow"
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh dev
export KIVY_LOG_MODE=PYTHON KIVY_NO_ARGS=1
# one worker per core (pytest-xdist); `scripts/test.sh -n 0` runs in one process
workers=(-n auto --dist worksteal)
for arg in "$@"; do
  case "$arg" in -n|-n*|--numprocesses*) workers=() ;; esac
done
# the slowest tests are listed at the end: the whole suite is kept under ten minutes on 2 cores
.venv/bin/python -m pytest "${workers[@]}" --durations=15 "$@"
# The engine's second build (issue 19): its hot modules compiled by mypyc, as the service's workers run it. The
# rules tests run again on it (or the paths given, if any); BRIMSTONE_TEST_BUILDS=source leaves it out.
if [ "${BRIMSTONE_TEST_BUILDS:-both}" != "source" ]; then
  paths=(tests/rules)
  for arg in "$@"; do
    if [ -e "${arg%%::*}" ]; then paths=(); break; fi
  done
  .venv/bin/python scripts/build_compiled.py
  BRIMSTONE_COMPILED=build/compiled .venv/bin/python -m pytest "${workers[@]}" -q "${paths[@]}" "$@"
fi
