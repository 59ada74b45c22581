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
    assert status.version == "" and "v0" not in status.text  # no version numbers for players
    table.status = CONNECTING
    assert shell.status().tone == "warn"
    table.status = LIVE
    assert (shell.status().text, shell.status().tone) == ("Live", "ok")
    table.status = RECONNECTING
    assert shell.status().tone == "error" and "Reconnecting" in shell.status().text


def test_only_this_phones_prompts_open_the_dice_tab_others_get_a_banner(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bo", "Bo")])
    table.claim({"bo"})
    shell = ShellPresenter(table)
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("large")  # a D6 for each hero: Ann's first
    assert shell.follow("posse") is None
    assert shell.status().banner.startswith("Ann's phone is answering: Ann: roll D6")
    assert shell.status().prompt_badge == ""
    dice.send_raw([5])  # answered on Ann's phone (here, for the test)
    assert shell.follow("posse") == "dice" and shell.status().prompt_badge.startswith("Answer: Bo: roll D6")
    dice.send_raw([5])
    assert shell.follow("dice") == "posse"  # back where the player was


def test_a_posse_wide_prompt_opens_every_phones_dice_tab(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bo", "Bo")])
    table.claim({"bo"})
    shell = ShellPresenter(table)
    travel = TravelPresenter(table)
    travel.choose_size("medium")
    travel.tap_hazard_die(4)
    travel.tap_hazard_die(2)  # the test clock holds the send
    from tests.mobile.helpers import Clock

    assert isinstance(table.schedule, Clock) and table.schedule.run() == 1
    assert table.read.prompt is not None and table.read.prompt.hero is None  # Raging River: the posse decides
    assert shell.follow("travel") == "dice"


def test_after_arrival_the_answered_prompt_returns_to_the_town_stay_screen(tmp_path: Path) -> None:
    """The Town phase's main screen is the Stay (what the posse does next); the Town tab still shows the town."""
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    shell = ShellPresenter(table)
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("small")
    shell.follow("travel")
    dice.send_raw([6])
    shell.follow("dice")
    travel.act()
    assert shell.follow("travel") == "dice"
    dice.send_total(7)
    dice.draw_all()
    assert shell.follow("dice") == "stay"


def test_new_phase_screens_register_without_touching_the_navigation() -> None:
    from mobile.presenters import shell as nav

    saved = list(nav.SCREENS)
    try:
        nav.register_screen(nav.ScreenSpec("stay", "Stay", "☼", ("town_stay",)), before="dice")
        assert nav.phase_screen("town_stay") == "stay" and [s.name for s in nav.SCREENS].index("stay") == 2
    finally:
        nav.SCREENS[:] = saved


def test_back_closes_a_popup_first() -> None:
    assert ShellPresenter.back("posse", popup_open=True) == "close_popup"
    assert ShellPresenter.back("log", popup_open=False) == "home"
    assert ShellPresenter.back("start", popup_open=False) is None


def test_a_phase_screen_is_left_for_the_new_phase_when_its_tab_goes(tmp_path: Path) -> None:
    """The Stay tab shows in town only, the Adventure tab between and during adventures; six tabs at most."""
    from mobile.presenters.shell import tabs

    table = offline_table(tmp_path, [hero("ann", "Ann")])
    shell = ShellPresenter(table)
    assert shell.left_behind("stay") == "travel" and shell.left_behind("adventure") is None
    assert shell.left_behind("odds") is None and shell.left_behind("posse") is None
    assert tabs("town") == ("posse", "travel", "stay", "dice", "town", "log")
    assert tabs("adventure") == ("posse", "travel", "adventure", "dice", "town", "log")
    assert all(len(tabs(phase)) <= 6 for phase in ("between_adventures", "travel", "arrival", "town", "adventure"))


def test_a_table_opened_at_a_prompt_does_not_pull_the_player_back_to_it_at_the_next_change(tmp_path: Path) -> None:
    """Opened at the Raging River, the app shows the prompt; the player goes to the odds, and the next change (the
    odds starting) leaves them there: only a new prompt moves a phone to the Dice screen."""
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bo", "Bo")])
    travel = TravelPresenter(table)
    travel.choose_size("medium")
    travel.tap_hazard_die(4)
    travel.tap_hazard_die(2)
    from tests.mobile.helpers import Clock

    assert isinstance(table.schedule, Clock) and table.schedule.run() == 1
    assert table.read.prompt is not None  # Raging River: the posse decides
    shell = ShellPresenter(table)  # the table opened now, on its prompt
    assert shell.follow("odds") is None
