"""Every refusal in shared_rules cites an id that exists where it says it does (issue 20: no invented rule reads as
rulebook text): a reading's `R-...` id in docs/rules.md, a rulebook id in rules-reference.md, a reference reading `An`,
or `option:<name>` a RuleOptions field."""

from __future__ import annotations

import ast
import re
from dataclasses import fields
from pathlib import Path

import pytest

from shared_rules.state import RuleOptions
from tests.rules.coverage import reference

ROOT = Path(__file__).resolve().parents[2]
ERRORS = {"IllegalCommand", "InvalidCommand"}


def cited_ids() -> dict[str, list[str]]:
    """The literal `rule=` of every IllegalCommand/InvalidCommand raised in shared_rules, with where."""
    found: dict[str, list[str]] = {}
    for path in (ROOT / "shared_rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ERRORS:
                for keyword in node.keywords:
                    if keyword.arg != "rule":
                        continue
                    for value in ast.walk(keyword.value):
                        if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value:
                            found.setdefault(value.value, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_readings_cited_by_refusals_are_recorded_in_docs_rules_md() -> None:
    docs = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    recorded = set(re.findall(r"^\s*\| (R-[A-Z]+-\d+) \|", docs, flags=re.M))
    missing = {rule: where for rule, where in cited_ids().items() if rule.startswith("R-") and rule not in recorded}
    assert missing == {}


def test_options_cited_by_refusals_are_rule_options() -> None:
    names = {f.name for f in fields(RuleOptions)}
    bad = {r: w for r, w in cited_ids().items() if r.startswith("option:") and r.split(":", 1)[1] not in names}
    assert bad == {}


@pytest.mark.skipif(reference() is None, reason="the rules reference is not beside the repository")
def test_rulebook_ids_cited_by_refusals_are_in_the_reference() -> None:
    path = reference()
    assert path is not None
    text = path.read_text(encoding="utf-8")
    known = set(re.findall(r"(?:FF|FT)-[A-Z0-9]+-[A-Z0-9]+", text)) | set(re.findall(r"\bA\d+\b", text))
    bad = {r: w for r, w in cited_ids().items() if re.fullmatch(r"(?:F[FT]-.*|A\d+)", r) and r not in known}
    assert bad == {}

