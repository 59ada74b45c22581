"""The Town board screen drawn offscreen on a 360x640 dp phone (scripts/screenshots.py --only board), mid-shootout
with the Bandits' turn shown and hidden, at font scales 1.0 and 2.0: no label cut off or lying on another (the
numbers and letters drawn on the board included), nothing off the side, no touch target under 48 dp."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_board_screen_fits_a_small_phone_with_no_overlapping_or_clipped_labels(tmp_path: Path) -> None:
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_LOG_MODE": "PYTHON", "KIVY_NO_ARGS": "1"}
    report_file = tmp_path / "report.json"
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "screenshots.py"), "--only", "board", "--size",
                          "small", "--scales", "1.0,2.0", "--every-png", str(tmp_path / "png"), "--report",
                          str(report_file)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert report_file.exists(), run.stderr[-4000:]
    report = json.loads(report_file.read_text())
    assert report["problems"] == [], "\n".join(report["problems"])
    assert run.returncode == 0, run.stderr[-4000:]
    assert set(report["sizes"]) == {"small@1.0", "small@2.0"}
    for config, part in report["sizes"].items():
        assert sorted(part["screens"]) == ["board", "board_correct", "board_shootout"], config
        for name, screen in part["screens"].items():
            assert 0.1 < screen["ink"] < 0.97, f"{config} {name} looks blank or flooded: {screen['ink']}"
