"""The render check itself (scripts/screenshots.py `layout_problems`), fed known faults in a real Kivy window
(tests/mobile/render_cases.py, its own process): text lying on other text or under a pinned bar, a button, a
touch-handling widget and board spaces under 48 dp, text cut by a clipping view or by a ScrollView that does not
show it scrolls, text shortened with "...", a pinned bar over a third of the screen. A clean screen, and content
scrolled away from a view that shows its scroll bar, report nothing (issue 18: the check reported 0 findings while
the Adventure's bar covered the screen)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def findings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    home = tmp_path_factory.mktemp("kivy")
    env = {**os.environ, "KIVY_HOME": str(home), "KIVY_LOG_MODE": "PYTHON", "KIVY_NO_ARGS": "1"}
    done = subprocess.run([sys.executable, "-m", "tests.mobile.render_cases"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return dict(json.loads(lines[-1].removeprefix("RESULT ")))


def test_text_drawn_over_other_text_is_reported(findings: dict[str, list[str]]) -> None:
    assert findings["overlap"] == ["overlap: text covered by 'Undo: Ann Hawke': 'Undo: Bo Lantern'"]


def test_text_under_a_pinned_bar_is_reported(findings: dict[str, list[str]]) -> None:
    assert findings["covered_by_a_bar"] == ["covered_by_a_bar: text covered by 'PinnedBar': 'The Depth Track'"]


def test_touch_targets_under_48_dp_are_reported_buttons_widgets_and_board_spaces(
        findings: dict[str, list[str]]) -> None:  # fmt: skip
    assert findings["small_button"] == ["small_button: touch target 30x48 dp < 48 dp: '+'"]
    assert findings["small_touch_widget"] == ["small_touch_widget: touch target 20x20 dp < 48 dp: 'Dial'"]
    assert findings["small_board_spaces"] == ["small_board_spaces: touch target 25x25 dp < 48 dp: 'a board space'"]


def test_clipped_text_is_reported_unless_a_view_that_shows_it_scrolls_holds_it(
        findings: dict[str, list[str]]) -> None:  # fmt: skip
    assert len(findings["clipped_label"]) == 1
    assert "cut off by its StencilView" in findings["clipped_label"][0] and "'Reach town with'" in \
        findings["clipped_label"][0]
    cut = findings["scrolled_without_a_hint"]  # the two options below the view, with no bar to say so
    assert [f.rsplit(": ", 1)[-1] for f in cut] == ["'Wait'", "'Turn back'"]
    assert all("cut off by its ScrollView" in f for f in cut)
    assert findings["scrolled_with_a_hint"] == []  # a Page always draws its bar: scrolling brings them back


def test_text_shortened_with_dots_is_reported(findings: dict[str, list[str]]) -> None:
    assert findings["shortened"] == ["shortened: text shortened with '...': 'Gambling Hall'"]


def test_a_pinned_bar_over_a_third_of_the_screen_is_reported(findings: dict[str, list[str]]) -> None:
    [found] = findings["tall_pinned_bar"]
    assert found.startswith("tall_pinned_bar: a pinned bar takes ") and "at most a third" in found


def test_a_clean_screen_reports_nothing(findings: dict[str, list[str]]) -> None:
    assert findings["clean"] == []
