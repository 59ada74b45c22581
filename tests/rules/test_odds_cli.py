"""`brimstone odds`: the comparison printed as a table, and the histograms written as a PNG."""

from __future__ import annotations

import io
import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

import pytest

from services import odds_cli
from services.cli import main
from shared_rules import odds
from shared_rules.engine import new_session
from shared_rules.simulate import sample_heroes

REAL_RUN_CHUNK = odds.run_chunk


def test_odds_prints_the_sizes_side_by_side_and_plots_them(tmp_path: Path) -> None:
    out = io.StringIO()
    picture = tmp_path / "odds.png"
    code = main(["odds", "--heroes", "2", "--trials", "60", "--seed", "3", "--workers", "1", "--plot", str(picture)],
                out=out)
    text = out.getvalue()
    assert code == 0, text
    header = text.splitlines()[1]
    assert "Small Town (n=60)" in header and "Large Town (n=60)" in header
    for row in ("XP", "Wounds", "Buildings destroyed", "Hanzo", "Kasumi", "Loses a Transport", "Town reached"):
        assert row in text
    assert "±" in text and "*" in text  # intervals, and the best option marked
    data = picture.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_odds_on_two_processes_gives_the_answer_of_one(tmp_path: Path) -> None:
    one, two = io.StringIO(), io.StringIO()
    args = ["odds", "--heroes", "1", "--trials", "1200", "--seed", "5", "--sizes", "small", "medium"]
    assert main([*args, "--workers", "1"], out=one) == 0
    assert main([*args, "--workers", "2"], out=two) == 0
    assert one.getvalue() == two.getvalue() and "Large" not in one.getvalue()
    one, two = io.StringIO(), io.StringIO()  # with a precision: each option stops at the same piece on either
    assert main([*args, "--precision", "4", "--workers", "1"], out=one) == 0
    assert main([*args, "--precision", "4", "--workers", "2"], out=two) == 0
    assert one.getvalue() == two.getvalue() and "Large" not in one.getvalue()


def test_odds_refuses_a_question_that_does_not_fit(capsys: object) -> None:
    assert main(["odds", "--heroes", "2", "--question", "choice", "--trials", "5"], out=io.StringIO()) == 2


def _dies(job: object) -> None:
    os._exit(3)  # a worker process killed mid-piece (the OOM killer, a crash)


@pytest.mark.timeout(300, method="thread")  # what this guards against is a wait that never ends
def test_odds_on_processes_says_so_when_one_dies_instead_of_waiting_for_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(odds_cli, "_chunk", _dies)  # forked processes play the patched piece
    code = main(["odds", "--heroes", "1", "--trials", "400", "--workers", "2"], out=io.StringIO())
    assert code == 2
    assert "a process playing the odds ended unexpectedly" in capsys.readouterr().err


def _endless(plan: object, key: str, start: int, count: int, *, seed: int, progress: Any = None) -> Any:
    """The first piece is played; every later one would run for ever unless its progress check stops it."""
    if start == 0:
        return REAL_RUN_CHUNK(plan, key, start, count, seed=seed, progress=progress)
    while True:
        progress(1)
        time.sleep(0.01)


@pytest.mark.timeout(300, method="thread")  # what this guards against is a wait that never ends
def test_odds_on_processes_stops_the_pieces_nobody_needs_without_killing_their_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A process killed while it sent a result left the executor's reader waiting for the rest: the command printed
    its answer and then never exited (seen in bench/odds.py, 2026-12-04). The pieces still playing once every option
    is settled are asked to stop instead, and the pool is shut down after them."""
    killed: list[int | None] = []
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "terminate", lambda self: killed.append(self.pid))
    monkeypatch.setattr(odds, "run_chunk", _endless)  # forked processes play the patched pieces
    plan = odds.plan(new_session(sample_heroes(1)), "town_size", {"sizes": ["small"]})
    answer = odds_cli.ask_here(plan, 2000, 3, 2, precision=0.5)  # settled by the first piece; two more in flight
    assert answer["done"] == {"small": 100} and answer["precision_met"]
    assert killed == []
