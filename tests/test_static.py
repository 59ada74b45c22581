"""ruff and mypy --strict keep the rules engine clean; run as part of the suite so CI enforces them."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_passes_on_the_whole_tree() -> None:
    result = _run("ruff", "check", "shared_rules", "services", "mobile", "tests", "bench", "scripts")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_passes_on_shared_rules() -> None:
    result = _run("mypy", "--strict", "shared_rules")
    assert result.returncode == 0, result.stdout + result.stderr
