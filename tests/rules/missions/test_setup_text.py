"""A Town Mission's start describes the Town Adventure Board set-up of that Mission, never the Mines' (issue 20:
FT-MIS-GEN-01, each Mission's Set Up; FF-SCALE-01 and FT-SCALE-01 for what scales)."""

from __future__ import annotations

import pytest

from tests.rules.adventure.helpers import events
from tests.rules.missions.helpers import town

MINES = ("Exploration Token", "Entrance tile", "Starting Area", "Darkness Start")


def _started(mission: str, heroes: int = 2, **kwargs: object) -> list[str]:
    t = town(mission, heroes, **kwargs)  # type: ignore[arg-type]
    return events(t, "adventure_started")


@pytest.mark.parametrize(("mission", "words"), [
    ("shootout_in_the_streets", "Entry Area B"),
    ("hanging_high", "Gallows"),
    ("bank_robbery", "Building 7 is the Bank"),
    ("jail_break", "Sheriff's Office"),
    ("town_overrun", "Enemy Entry Points"),
    ("high_noon_duel", "5 spaces apart"),
])  # fmt: skip
def test_a_town_missions_start_describes_its_town_board_set_up_FT_MIS_GEN_01(mission: str, words: str) -> None:
    text = _started(mission)[0]
    assert "Town Adventure Board" in text and words in text
    assert not any(m in text for m in MINES), text


def test_the_duel_scales_by_its_one_hero_and_names_no_threat_deck_FF_SCALE_01_R_MIS_16() -> None:
    scaling = _started("high_noon_duel", 3)[1]
    assert scaling == "1 Hero(es): 2 Revive Token(s)"


def test_town_overrun_names_its_low_or_med_threats_FT_SCALE_01() -> None:
    assert _started("town_overrun", 2)[1].startswith("2 Hero(es): Low Threats (FT-SCALE-01)")
