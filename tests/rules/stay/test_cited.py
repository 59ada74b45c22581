"""Every mechanic id of rules-reference sections 10-15 (Daily Events, Unwanted Attention, Expanded Bounty, Wanted!,
the Devil's Wheel, Side Bag tokens) is cited by a test of the Town Stay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.rules.coverage import reference

HERE = Path(__file__).resolve().parent
SECTIONS = re.compile(r"^## 10\. .*?(?=^## 16\. )", re.S | re.M)
DEFINED = re.compile(r"\*\*(F[FT]-[A-Z]+-\d+)")  # an entry of the checklist: **FT-UA-01 · ...
# the ids these sections define, as the reference had them when the Town Stay was written (kept for machines where the
# reference is not checked out beside the repository)
KNOWN = {
    "FT-DAY-01", "FT-DAY-02", "FT-UA-01", "FT-UA-02", "FT-UA-03", "FT-UA-04", "FT-UA-05", "FT-UA-06", "FT-BOUNTY-01",
    "FT-BOUNTY-02", "FT-BOUNTY-03", "FT-WANTED-01", "FT-WANTED-02", "FT-WANTED-03", "FT-WHEEL-01", "FT-WHEEL-02",
    "FT-WHEEL-03", "FT-WHEEL-04", "FT-WHEEL-05", "FT-BAG-01", "FT-BAG-02", "FT-BAG-03", "FT-BAG-04", "FT-BAG-05",
    "FT-BAG-06", "FT-BAG-07", "FF-BAG-01", "FF-BAG-02",
}  # fmt: skip


def test_the_known_ids_are_the_references() -> None:
    path = reference()
    if path is None:
        pytest.skip("rules-reference.md is not beside the repository here")
    match = SECTIONS.search(path.read_text(encoding="utf-8"))
    assert match is not None, "sections 10-15 not found"
    assert set(DEFINED.findall(match.group(0))) == KNOWN


def test_every_mechanic_id_of_sections_10_to_15_is_cited_by_a_stay_test() -> None:
    cited = " ".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py") if p.name != Path(__file__).name)
    missing = sorted(i for i in KNOWN if i not in cited and i.replace("-", "_") not in cited)
    assert missing == []
