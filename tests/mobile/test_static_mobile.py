"""The app's logic (presenters, client, theme: everything without Kivy) type-checks under mypy --strict."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_strict_passes_on_the_presenters_and_the_client() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "mobile/presenters", "mobile/client.py",
                             "mobile/theme.py"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
