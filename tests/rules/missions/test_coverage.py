"""Every FULL-data mechanic of rules-reference sections 16-18 (the Bandits, the Town board, the Town Missions) has
a test citing its id, with typed-in dice."""

from __future__ import annotations

import re

import pytest

from tests.rules.coverage import cited, full_ids, reference

SECTIONS = (16, 17, 18)
FULL = (
    "FT-BANDIT-02", "FT-BANDIT-03", "FT-BANDIT-04", "FT-BANDIT-05", "FT-BANDIT-06", "FT-BANDIT-07", "FT-BANDIT-08",
    "FT-BOARD-03", "FT-BOARD-07", "FT-BOARD-08", "FT-BOARD-09", "FT-BOARD-10", "FT-BOARD-11", "FT-BOARD-12",
    "FT-BOARD-13", "FT-BOARD-14", "FT-BOARD-15", "FT-BOARD-16", "FT-BOARD-17", "FT-BOARD-19", "FT-BOARD-20",
    "FT-BOARD-23",
    "FT-MIS-00", "FT-MIS-GEN-01",
    "FT-M1-02", "FT-M1-03", "FT-M1-04", "FT-M1-05", "FT-M1-08",
    "FT-M2-03", "FT-M2-04", "FT-M2-06", "FT-M2-07", "FT-M2-08", "FT-M2-09", "FT-M2-10", "FT-M2-11", "FT-M2-12",
    "FT-M3-03", "FT-M3-04", "FT-M3-05", "FT-M3-09", "FT-M3-10",
    "FT-M4-02", "FT-M4-03", "FT-M4-04", "FT-M4-05", "FT-M4-07", "FT-M4-08", "FT-M4-09",
    "FT-M5-02", "FT-M5-03", "FT-M5-04", "FT-M5-05", "FT-M5-06", "FT-M5-08", "FT-M5-09",
    "FT-M6-02", "FT-M6-03", "FT-M6-04",
)  # fmt: skip


@pytest.mark.skipif(reference() is None, reason="the rules reference is not beside the repository")
def test_the_list_is_the_references() -> None:
    path = reference()
    assert path is not None and full_ids(path.read_text(encoding="utf-8"), SECTIONS) == list(FULL)


@pytest.mark.parametrize("rule", FULL)
def test_every_full_mechanic_is_cited_by_a_test(rule: str) -> None:
    assert re.search(rf"{rule}(?![0-9])", cited()), f"no test cites {rule}"
