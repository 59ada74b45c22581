#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what it needs, then runs pytest (extra args go to pytest).
# Quick local run without the slow fuzzing: scripts/test.sh -m "not slow"
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh dev
export KIVY_LOG_MODE=PYTHON KIVY_NO_ARGS=1
# one worker per core and one more (pytest-xdist): a third of the suite's time is spent waiting on servers,
# browsers and subprocesses, so on 2 cores 3 workers take 8.5 min where 2 took 10.5; `scripts/test.sh -n 0` runs
# in one process
workers=(-n "$(( $(nproc) + 1 ))" --dist worksteal)
for arg in "$@"; do
  case "$arg" in -n|-n*|--numprocesses*) workers=() ;; esac
done
# The engine's second build (issue 19): its hot modules compiled by mypyc, as the service's workers run it, built
# (one core, about three minutes) while the suite runs on the source; the rules tests (or the paths given, if any) then
# run again on it, with the API documents the service builds from its values (their annotations and docstrings
# come back from the build's `_WRITTEN`). BRIMSTONE_TEST_BUILDS=source leaves it out.
both=$([ "${BRIMSTONE_TEST_BUILDS:-both}" != "source" ] && echo 1 || true)
if [ -n "$both" ]; then
  mkdir -p build
  .venv/bin/python scripts/build_compiled.py > build/compiled.log 2>&1 &
  building=$!
  trap 'kill "$building" 2>/dev/null || true' EXIT
fi
# the slowest tests are listed at the end: the whole suite is kept under ten minutes on 2 cores
.venv/bin/python -m pytest "${workers[@]}" --durations=15 "$@"
if [ -n "$both" ]; then
  wait "$building" || { cat build/compiled.log; exit 1; }
  paths=(tests/rules tests/services/test_api_schemas.py)  # the rules, and the API documents made from the compiled values
  for arg in "$@"; do
    if [ -e "${arg%%::*}" ]; then paths=(); break; fi
  done
  echo "the rules again, on the compiled build: $(tail -1 build/compiled.log)"
  BRIMSTONE_COMPILED=build/compiled .venv/bin/python -m pytest "${workers[@]}" -q "${paths[@]}" "$@"
fi
