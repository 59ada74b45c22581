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
if [ "$extras" = "dev" ] && ! command -v redis-server >/dev/null 2>&1; then
  # the tests start throwaway redis-servers (pytest-redis)
  if command -v apt-get >/dev/null 2>&1; then
    apt-get update -q && apt-get install -y -q redis-server
  else
    echo "redis-server is needed for the tests; install it with your package manager" >&2
    exit 1
  fi
fi
if [ "$extras" = "dev" ] && ! command -v npm >/dev/null 2>&1; then
  # the client checks (tests/clients) run Redocly, Spectral, openapi-typescript, tsc and GraphQL Code Generator
  if command -v apt-get >/dev/null 2>&1; then
    apt-get update -q && apt-get install -y -q nodejs npm
  else
    echo "Node.js (npm) is needed for tests/clients; install it with your package manager" >&2
    exit 1
  fi
fi
# The service's own bytecode, written now so a start does not compile it (0.5 s of CPU on a start without .pyc;
# a checkout run with PYTHONDONTWRITEBYTECODE set would otherwise compile on every start). Quick when up to date.
.venv/bin/python -m compileall -q -j 0 services shared_rules >/dev/null
