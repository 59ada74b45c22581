"""Every roll and draw a rule asks for says what it is for as a key (`asks=`), with facts, so a client words it in
the player's language instead of showing the English `purpose` (issue 19). A source scan, like the emit sites' in
test_event_facts.py: a new roll or draw without a key fails here rather than on a Spanish phone."""

from __future__ import annotations

import ast
from pathlib import Path

import shared_rules
from shared_rules.events import FACTS
from shared_rules.prompts import Asks, RollFor, roll_for

RULES = Path(shared_rules.__file__).parent / "rules"
KEYED_AREAS = ("travel", "town", "stay", "adventure", "bandits", "board", "missions")
"""The rule areas whose rolls and draws are all keyed; widen it as each area is keyed (adventure, bandits, board,
missions)."""

REQUESTS = {"roll", "d6", "d3", "two_d6", "dice", "draw"}  # the `Requests` methods that roll or draw
GENERIC = {"ROLL", "DRAW"}  # `Asks.ROLL` / `Asks.DRAW`: what for is only the English purpose


def request_sites(area: str) -> list[tuple[str, str, ast.Call]]:
    """Every `ctx.roll/d6/d3/two_d6/dice/draw(...)` and `read_chart(...)` call in an area: where, which, the call."""
    found = []
    for path in sorted((RULES / area).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in REQUESTS and isinstance(node.func, ast.Attribute) or name == "read_chart":
                found.append((f"{path.relative_to(RULES)}:{node.lineno}", name, node))
    return found


def _keywords(call: ast.Call) -> dict[str, ast.expr]:
    return {k.arg: k.value for k in call.keywords if k.arg is not None}


def test_every_roll_and_draw_of_the_keyed_areas_names_what_it_is_for() -> None:
    sites = [site for area in KEYED_AREAS for site in request_sites(area)]
    assert len(sites) > 55  # the scan sees the call sites (59 rolls and draws and read_chart's callers)
    bare, generic = [], []
    for where, name, call in sites:
        named = _keywords(call)
        if name == "read_chart":  # a town chart: what its roll is for comes as `said`, unless no roll is made here
            no_roll = "rolled" in named or (isinstance(call.args[1], ast.Constant) and call.args[1].value is None
                                            and "die" not in named)  # fmt: skip
            if "said" not in named and not no_roll:
                bare.append(where)
            continue
        asks = named.get("asks")
        if asks is None:
            bare.append(where)
        elif isinstance(asks, ast.Attribute) and asks.attr in GENERIC:
            generic.append(where)
    assert not bare, f"rolls or draws without asks= (what they are for, as a key): {bare}"
    assert not generic, f"rolls or draws keyed only as the generic roll/draw: {generic}"


def test_the_key_names_an_asks_and_the_facts_are_contract_names() -> None:
    """Each key given is an `Asks` member, each fact name one of `events.FACTS`, each `RollFor` a real one."""
    for area in KEYED_AREAS:
        for where, _name, call in request_sites(area):
            named = _keywords(call)
            asks = named.get("asks")
            if isinstance(asks, ast.Attribute):
                assert asks.attr in Asks.__members__, where
            said = named.get("said")
            if isinstance(said, ast.Call) and getattr(said.func, "id", "") == "roll_for":
                assert not said.args or not isinstance(said.args[0], ast.Attribute) or \
                    said.args[0].attr in RollFor.__members__, where  # fmt: skip
                assert {k.arg for k in said.keywords} <= set(FACTS), where
            elif isinstance(said, ast.Tuple):
                names = {e.elts[0].value for e in said.elts if isinstance(e, ast.Tuple) and isinstance(e.elts[0],
                                                                                                     ast.Constant)}
                assert names <= set(FACTS), where


def test_roll_for_says_the_reason_then_whose_roll_then_the_numbers() -> None:
    assert roll_for(RollFor.WOUNDS, "Burning Farmstead") == (("reason", "wounds"), ("name", "Burning Farmstead"))
    assert roll_for(RollFor.TROUBLE, count=2) == (("reason", "trouble"), ("count", 2))
    assert {"reason", "name", "count", "asks"} <= set(FACTS)
