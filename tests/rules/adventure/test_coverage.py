"""Every FULL-data mechanic of rules-reference sections 1-7, 20 and 21 has a test citing its id (with typed dice)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[2]
REFERENCE = Path("/work/shared/rules-reference.md")  # outside the repository: checked when present
SECTIONS = (1, 2, 3, 4, 5, 6, 7, 20, 21)

FULL = (
    "FF-DICE-01", "FF-DICE-02", "FF-DICE-03", "FF-DICE-04", "FF-DICE-05", "FT-DICE-01", "FT-DICE-02", "FF-DICE-07",
    "FF-HERO-02", "FF-HERO-03", "FF-HERO-08", "FF-HERO-09", "FF-HERO-11", "FF-HERO-14", "FT-HERO-01", "FT-HERO-02",
    "FF-GRIT-01", "FF-GRIT-02", "FF-GRIT-03", "FF-GRIT-04", "FF-GRIT-05", "FF-GRIT-06", "FF-GRIT-07", "FT-GRIT-01",
    "FT-GRIT-02", "FT-GRIT-03", "FT-GRIT-04",
    "FF-DEPTH-02", "FF-DEPTH-03", "FF-DEPTH-06", "FF-DEPTH-09", "FT-DEPTH-01",
    "FF-TURN-01", "FF-TURN-02", "FF-TURN-04", "FF-MOVE-01", "FF-MOVE-02", "FF-MOVE-03", "FF-MOVE-04", "FF-MOVE-05",
    "FF-MOVE-06",
    "FF-SRCH-01", "FF-SCAV-02", "FF-SCAV-03", "FT-SCAV-01", "FF-EXPL-05", "FF-EXPL-06", "FF-CARD-01", "FT-EXPL-01",
    "FF-END-01", "FF-END-03", "FF-END-04", "FF-SETUP-01",
    "FF-SAM-03", "FF-ASN-01", "FF-MONK-02", "FF-SORC-04", "FF-SORC-05", "FF-SORC-06", "FF-SORC-08",
    "FF-SCALE-01", "FT-SCALE-01", "FF-SCALE-02",
)  # fmt: skip
# FULL ids of these sections whose rules live in another rule area; that area's tests cite them.
ELSEWHERE = {
    "FT-DICE-02": "rules/board: a Random Building or Rooftop on the Town Adventure Board (D8)",
    "FT-GRIT-02": "rules/stay: no re-rolls at the Devil's Wheel",
}


def full_ids(text: str) -> list[str]:
    """The ids marked Data: FULL (or cross-references to FULL ids, with no Data line) in the chosen sections."""
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


def cited() -> str:
    text = "\n".join(p.read_text() for p in TESTS.rglob("test_*.py"))
    return text.replace("_", "-")


@pytest.mark.skipif(not REFERENCE.exists(), reason="the rules reference is outside the repository")
def test_the_list_is_the_references() -> None:
    assert full_ids(REFERENCE.read_text()) == list(FULL)


@pytest.mark.parametrize("rule", [r for r in FULL if r not in ELSEWHERE])
def test_every_full_mechanic_is_cited_by_a_test(rule: str) -> None:
    assert re.search(rf"{rule}(?![0-9])", cited()), f"no test cites {rule}"
