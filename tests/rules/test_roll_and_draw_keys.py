"""Every roll and draw a rule makes says what it is for as a prompt key (`asks=`) with its facts, so a client words
it in its own language; one without falls back to the generic `roll`/`draw` key and the English `purpose`.

The scan reads the rule areas' source: each call of `ctx.roll/d6/d3/two_d6/dice/draw` (and of `own_roll`, the
hero's own roll with a Grit offer) must pass `asks=`. The areas are listed one by one, so another area's scan is
merged by adding its names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "shared_rules" / "rules"
AREAS = ("adventure", "bandits", "board", "missions")  # the Adventure, the Town board, the Bandits, the Missions
ASKING = frozenset({"roll", "d6", "d3", "two_d6", "dice", "draw"})  # the request API's rolls and draws
HELPERS = frozenset({"own_roll"})  # the areas' own roll helpers whose callers name the key


def _called(func: ast.expr) -> set[str]:
    """The request methods a call's function names: `ctx.d6`, or `(ctx.d6 if none else ctx.d3)`."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "ctx":
        return {func.attr} & ASKING
    if isinstance(func, ast.Name):
        return {func.id} & HELPERS
    if isinstance(func, ast.IfExp):
        return _called(func.body) | _called(func.orelse)
    return set()


def _sites(area: str) -> list[tuple[str, bool]]:
    """Each roll or draw call in an area: where it is and whether it names its key."""
    sites = []
    for path in sorted((RULES / area).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and _called(node.func):
                where = f"{path.relative_to(RULES)}:{node.lineno}"
                sites.append((where, any(k.arg == "asks" for k in node.keywords)))
    return sites


@pytest.mark.parametrize("area", AREAS)
def test_every_roll_and_draw_of_the_area_names_its_prompt_key(area: str) -> None:
    sites = _sites(area)
    assert sites, f"no roll or draw found in {area}: the scan no longer sees its calls"
    unkeyed = [where for where, keyed in sites if not keyed]
    assert not unkeyed, f"rolls or draws with no asks= (a generic prompt, worded from English): {unkeyed}"


def test_the_scan_sees_a_call_without_a_key() -> None:
    source = "def rule(ctx):\n    face = yield from ctx.d6('x', rule='R')\n    n = yield from (ctx.d6 if a else ctx.d3)('y')\n"
    calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call) and _called(n.func)]
    assert len(calls) == 2 and not any(k.arg == "asks" for c in calls for k in c.keywords)
