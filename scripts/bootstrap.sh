#!/usr/bin/env bash
# Makes .venv (once) and installs the project with the given extras; installs redis-server if the machine lacks it.
# Usage: scripts/bootstrap.sh dev|service|mobile
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-dev}"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
stamp=".venv/.installed-$extras"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install -q --disable-pip-version-check -U pip
  .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[$extras]"
  touch "$stamp"
fi
if [ "$extras" = "dev" ]; then
  # What the suite runs beside Python, installed here in one apt-get before pytest (tests installing them on demand
  # from parallel workers raced for dpkg's lock): throwaway redis-servers (pytest-redis), the client checks' Node
  # tools (tests/clients), headless Chromium (the host's pages), nginx (the deployment test), promtool (monitoring),
  # gcc (the engine's compiled build, scripts/build_compiled.py).
  missing=()
  for pair in redis-server:redis-server npm:"nodejs npm" chromium:chromium chromedriver:chromium-driver \
              nginx:nginx promtool:prometheus gcc:gcc; do
    binary=${pair%%:*}
    if ! command -v "$binary" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$binary" ]; then
      missing+=(${pair#*:})
    fi
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if command -v apt-get >/dev/null 2>&1; then
      # another checkout's bootstrap (or the machine's own updates) may hold dpkg's lock: wait for it, not fail
      wait_lock=(-o DPkg::Lock::Timeout=900)
      apt-get "${wait_lock[@]}" update -q && \
        DEBIAN_FRONTEND=noninteractive apt-get "${wait_lock[@]}" install -y -q "${missing[@]}"
    else
      echo "the tests need: ${missing[*]}; install them with your package manager" >&2
      exit 1
    fi
  fi
fi
# The service's own bytecode, written now so a start does not compile it (0.5 s of CPU on a start without .pyc;
# a checkout run with PYTHONDONTWRITEBYTECODE set would otherwise compile on every start). Quick when up to date.
.venv/bin/python -m compileall -q -j 0 services shared_rules >/dev/null
