"""What the checklist tests share: where the rules reference is, its FULL-data ids by section, and the text of
every test (where an id is cited)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def reference() -> Path | None:
    """`shared/rules-reference.md` beside the repository (or above it), or None where it is not checked out."""
    for parent in TESTS.parents:
        candidate = parent / "shared" / "rules-reference.md"
        if candidate.exists():
            return candidate
    return None


def full_ids(text: str, sections: Iterable[int]) -> list[str]:
    """The ids marked Data: FULL (or cross-references to FULL ids, with no Data line) in the chosen sections."""
    chosen = set(sections)
    found = []
    for section in re.split(r"^## ", text, flags=re.M):
        number = re.match(r"(\d+)\.", section)
        if not number or int(number.group(1)) not in chosen:
            continue
        for entry in re.finditer(r"\*\*((?:FF|FT)-[A-Z0-9-]+) · .*?\*\*(.*?)(?=\n\*\*(?:FF|FT)-|\n###|\Z)", section,
                                 flags=re.S):  # fmt: skip
            if "*Data:* PARTIAL" not in entry.group(2):
                found.append(entry.group(1))
    return found


def cited() -> str:
    """Every test's text, underscores read as hyphens (a test named ..._FT_M1_02 cites FT-M1-02)."""
    return "\n".join(p.read_text(encoding="utf-8") for p in TESTS.rglob("test_*.py")).replace("_", "-")
