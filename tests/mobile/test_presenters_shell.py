"""The frame: the status bar says whether the table is live, and a prompt takes the player to the prompt screen."""

from __future__ import annotations

from pathlib import Path

from mobile.presenters.dice import PromptPresenter
from mobile.presenters.shell import ShellPresenter
from mobile.presenters.table import CONNECTING, LIVE, RECONNECTING
from mobile.presenters.travel import TravelPresenter
from tests.mobile.helpers import hero, offline_table


def test_a_prompt_opens_the_prompt_screen_and_answering_returns(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    shell = ShellPresenter(table)
    assert shell.follow("travel") is None
    TravelPresenter(table).choose_size("small")
    assert shell.follow("travel") == "dice"
    assert shell.follow("dice") is None  # the same prompt: stay
    assert shell.status().prompt_badge.startswith("Answer: Ann: roll D6")
    PromptPresenter(table).send_raw([5])
    assert shell.follow("dice") == "travel" and shell.status().prompt_badge == ""


def test_the_status_bar_reads_the_connection(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    shell = ShellPresenter(table)
    status = shell.status()
    assert status.text.startswith("Offline") and status.code == table.snapshot.table.code
    assert status.version == "v0"
    table.status = CONNECTING
    assert shell.status().tone == "warn"
    table.status = LIVE
    assert (shell.status().text, shell.status().tone) == ("Live", "ok")
    table.status = RECONNECTING
    assert shell.status().tone == "error" and "reconnecting" in shell.status().text
