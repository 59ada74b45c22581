"""Every FULL-data mechanic of rules-reference sections 16-18 (the Bandits, the Town board, the Town Missions) has
a test citing its id, with typed-in dice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.rules.adventure.test_coverage import REFERENCE, cited

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


def full_ids(text: str) -> list[str]:
    found = []
    for section in re.split(r"^## ", text, flags=re.M):
        number = re.match(r"(\d+)\.", section)
        if not number or int(number.group(1)) not in SECTIONS:
            continue
        for entry in re.finditer(r"\*\*((?:FF|FT)-[A-Z0-9-]+) · .*?\*\*(.*?)(?=\n\*\*(?:FF|FT)-|\n###|\Z)", section,
                                 flags=re.S):  # fmt: skip
            if "*Data:* PARTIAL" not in entry.group(2):
                found.append(entry.group(1))
    return found


@pytest.mark.skipif(not Path(REFERENCE).exists(), reason="the rules reference is outside the repository")
def test_the_list_is_the_references() -> None:
    assert full_ids(REFERENCE.read_text()) == list(FULL)


@pytest.mark.parametrize("rule", FULL)
def test_every_full_mechanic_is_cited_by_a_test(rule: str) -> None:
    assert re.search(rf"{rule}(?![0-9])", cited()), f"no test cites {rule}"
