"""Write the committed API documents from the code: openapi/openapi.json and openapi/schema.graphql.

    python scripts/export_schemas.py          # regenerate both
    python scripts/export_schemas.py --check  # exit 1 if either differs from the code (CI, tests)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPENAPI = ROOT / "openapi" / "openapi.json"
GRAPHQL = ROOT / "openapi" / "schema.graphql"


def rendered() -> dict[Path, str]:
    """The documents as the code produces them today."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from services.api.app import openapi_document
    from services.api.graphql.schema import sdl

    return {OPENAPI: json.dumps(openapi_document(), indent=2, ensure_ascii=False) + "\n", GRAPHQL: sdl()}


def stale() -> list[Path]:
    """The committed documents that differ from the code."""
    return [path for path, text in rendered().items() if not path.exists() or path.read_text() != text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write openapi/openapi.json and openapi/schema.graphql.")
    parser.add_argument("--check", action="store_true", help="only report documents that differ from the code")
    if parser.parse_args(argv).check:
        drifted = stale()
        for path in drifted:
            print(f"{path.relative_to(ROOT)} is out of date: run python scripts/export_schemas.py", file=sys.stderr)
        return 1 if drifted else 0
    for path, text in rendered().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
