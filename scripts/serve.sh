#!/usr/bin/env bash
# Starts the service on the embedded default (a SQLite file under ./data, in-process jobs) on port 8000.
# Extra args go to `brimstone serve` (e.g. --port 9000, --redis redis://127.0.0.1:6379/0).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh service
exec .venv/bin/brimstone serve "$@"
