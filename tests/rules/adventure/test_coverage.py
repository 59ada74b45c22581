"""Every FULL-data mechanic of rules-reference sections 1-7, 20 and 21 has a test citing its id (with typed dice)."""

from __future__ import annotations

import re

import pytest

from tests.rules.coverage import cited, full_ids, reference

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


@pytest.mark.skipif(reference() is None, reason="the rules reference is not beside the repository")
def test_the_list_is_the_references() -> None:
    path = reference()
    assert path is not None and full_ids(path.read_text(encoding="utf-8"), SECTIONS) == list(FULL)


@pytest.mark.parametrize("rule", [r for r in FULL if r not in ELSEWHERE])
def test_every_full_mechanic_is_cited_by_a_test(rule: str) -> None:
    assert re.search(rf"{rule}(?![0-9])", cited()), f"no test cites {rule}"
