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


_ID = r"(?:FF|FT)-[A-Z0-9]+(?:-[A-Z]+)?-D?\d+"


def every_id(text: str) -> list[str]:
    """Every mechanic id the reference defines (an entry `**FT-UA-01 · ...`, a list item `- **FT-BAG-01 ...`, a FAQ
    line `- **FT-FAQ-01:**`) and the 36 hazard entries FT-TRAVEL-D11..D66, in order, once each."""
    found = re.findall(r"\*\*(" + _ID + r")", text)
    found += [f"FT-TRAVEL-D{tens}{ones}" for tens in range(1, 7) for ones in range(1, 7)]
    return list(dict.fromkeys(found))


def expand(text: str) -> set[str]:
    """The ids a text cites, ranges read out: FT-BAG-01..07, FF-HERO-02/03, FT-FAQ-01..04, FT-TRAVEL-D11..D66."""
    out = set(re.findall(_ID, text))
    for prefix, first, rest in re.findall(r"((?:FF|FT)-[A-Z0-9]+(?:-[A-Z]+)?-D?)(\d+)((?:(?:/|\.\.)D?\d+)+)", text):
        numbers = [int(first)] + [int(n) for n in re.findall(r"\d+", rest)]
        joins = re.findall(r"/|\.\.", rest)
        width = len(first)
        for (low, high), join in zip(zip(numbers, numbers[1:], strict=False), joins, strict=True):
            span = range(low, high + 1) if join == ".." else (low, high)
            out.update(f"{prefix}{n:0{width}d}" for n in span if not prefix.endswith("D") or n % 10 in range(1, 7))
    return out
