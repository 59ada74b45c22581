"""The keypad through the real widgets: a tap on a number opens it, typed digits set the value (issue 18's crash:
`NumberPopup.on_value` was taken by Kivy as the `value` property's handler, so the popup could not be created)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_scenario(name: str, tmp_path: Path, extra: dict[str, str] | None = None, timeout: float = 1800) -> dict:
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_LOG_MODE": "PYTHON", "KIVY_NO_ARGS": "1",
           **(extra or {})}
    done = subprocess.run([sys.executable, "-m", "tests.mobile.touch", name], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, f"the scenario failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return json.loads(lines[-1].removeprefix("RESULT "))


@pytest.mark.slow
def test_a_posse_number_is_typed_on_the_keypad_before_any_table_is_open(tmp_path: Path) -> None:
    seen = run_scenario("keypad", tmp_path)
    assert seen["titles"] == ["Gold", "XP", "Max Grit"]  # each tap opened the keypad on that stat
    assert (seen["gold"], seen["xp"]) == ("$415", "90")  # not steps of -/+ ($25, 10 XP): only typing reaches them
    assert seen["drafted"] == [415, 90]
    assert seen["max_grit"] == "2"  # 9 is past the sheet's 1-6: refused, the value kept, and said in words
    assert seen["message"] == "Max Grit: a number from 1 to 6"
    assert seen["taps"] == 6
