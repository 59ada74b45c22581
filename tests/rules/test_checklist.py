"""The checklist: every mechanic id of rules-reference.md (283 with the 36 hazards) is implemented, that is cited by
the engine (shared_rules) and by a test, or recorded in docs/rules.md's "Ids recorded, not implemented" with a
reason (issue 20: the checklist reported 267/283)."""

from __future__ import annotations

import re

import pytest

from tests.rules.coverage import TESTS, cited, every_id, expand, reference

ROOT = TESTS.parent
RECORDED = re.compile(r"^\| ((?:FF|FT)-[A-Z0-9-]+) \| [^|]+ \| ([^|]+) \|$", re.M)


def recorded() -> dict[str, str]:
    """The ids docs/rules.md records as not implemented, with the reason given."""
    docs = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = docs.split("## Ids recorded, not implemented", 1)[1].split("\n## ", 1)[0]
    return {rule: why.strip() for rule, why in RECORDED.findall(section)}


def engine_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "shared_rules").rglob("*.py"))


@pytest.mark.skipif(reference() is None, reason="the rules reference is not beside the repository")
def test_every_id_is_implemented_or_recorded(capsys: pytest.CaptureFixture[str]) -> None:
    path = reference()
    assert path is not None
    ids = every_id(path.read_text(encoding="utf-8"))
    assert len(ids) == 283
    engine, tests, notes = expand(engine_text()), expand(cited()), recorded()
    implemented = [i for i in ids if i in engine and i in tests]
    with capsys.disabled():
        print(f"\nrules-reference checklist: implemented {len(implemented)}/{len(ids)}, recorded {len(notes)}")
    missing = [i for i in ids if i not in implemented and i not in notes]
    assert missing == [], "neither implemented (engine and test) nor recorded in docs/rules.md"


@pytest.mark.skipif(reference() is None, reason="the rules reference is not beside the repository")
def test_a_recorded_id_is_a_reference_id_with_a_reason_and_not_implemented() -> None:
    path = reference()
    assert path is not None
    ids = set(every_id(path.read_text(encoding="utf-8")))
    notes = recorded()
    assert notes and set(notes) <= ids
    assert all(len(why) > 20 for why in notes.values())
    assert not set(notes) & expand(engine_text())  # recorded means the engine does not claim it


def test_ranges_are_read_out() -> None:
    assert expand("FT-BAG-01..03, FF-HERO-02/03 and FT-TRAVEL-D15..D21") == {
        "FT-BAG-01", "FT-BAG-02", "FT-BAG-03", "FF-HERO-02", "FF-HERO-03", "FT-TRAVEL-D15", "FT-TRAVEL-D16",
        "FT-TRAVEL-D21"}  # fmt: skip
