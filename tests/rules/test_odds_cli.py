"""`brimstone odds`: the comparison printed as a table, and the histograms written as a PNG."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from services import odds_cli
from services.cli import main


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
