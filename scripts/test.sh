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
exec .venv/bin/python -m pytest "${workers[@]}" --durations=15 "$@"
