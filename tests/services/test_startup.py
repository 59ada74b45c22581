"""Start-up (issue 20): what a start must not import or build, so a replica answers /v1/health soon after launch.

Timing is left to bench/startup.py (load inflates it); these check what a start loads, which load does not change.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
from services.api.app import create_app
from services.settings import Settings
import services.api.serve
create_app(Settings(db_path=sys.argv[1]))
print(json.dumps(sorted(sys.modules)))
"""


def test_building_the_app_imports_no_graphql_library_and_no_page_renderer(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "t.sqlite3")], cwd=ROOT, capture_output=True,
                            text=True, timeout=600, check=True)
    loaded = {name.split(".")[0] for name in json.loads(result.stdout)}
    for deferred in ("strawberry", "graphql", "pydantic", "jinja2", "segno", "redis"):
        assert deferred not in loaded, f"{deferred} is imported at start-up: import it where a request needs it"
