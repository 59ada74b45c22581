"""Hand-drawn boards for the geometry tests: rows of '.' (Street) and Building digits, sides given as pairs.

    b = draw([".....",
              ".11..",
              ".11.."], doors=[((2, 1), (3, 1))])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared_rules.rules.board import Board, Pos, load_board

Pair = tuple[tuple[int, int], tuple[int, int]]


def draw(
    rows: list[str],
    *,
    doors: Sequence[Pair] = (),
    windows: Sequence[Pair] = (),
    walls: Sequence[Pair] = (),
    diagonal: Sequence[tuple[tuple[int, int], str]] = (),
    rooftops: list[list[int]] | None = None,
    entries: dict[str, list[tuple[int, int]]] | None = None,
    spaces: dict[str, list[tuple[int, int]]] | None = None,
) -> Board:
    doc: dict[str, Any] = {
        "name": "drawn",
        "rows": rows,
        "doors": [[list(a), list(b)] for a, b in doors],
        "windows": [[list(a), list(b)] for a, b in windows],
        "walls": [[list(a), list(b)] for a, b in walls],
        "diagonal_doors": [{"space": list(s), "opens": o} for s, o in diagonal],
        "entry_areas": {k: [list(s) for s in v] for k, v in (entries or {}).items()},
        "spaces": {k: [list(s) for s in v] for k, v in (spaces or {}).items()},
    }
    if rooftops is not None:
        doc["rooftops"] = rooftops
    return load_board(doc, town=False)


def at(x: int, y: int, **kw: Any) -> Pos:
    return Pos.at(x, y, **kw)
