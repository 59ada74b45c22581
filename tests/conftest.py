"""Suite-wide safety net: every process group a test launched through tests/processes.py is killed when the
pytest process (or xdist worker) finishes, even if a fixture failed to stop it."""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

import pytest

# The engine's compiled build under test (scripts/build_compiled.py): the package is imported from it here, so its
# submodules are found there however pytest orders sys.path for the test modules later.
if os.environ.get("BRIMSTONE_COMPILED"):
    if "shared_rules" in sys.modules:
        raise RuntimeError("shared_rules was imported before the compiled build could be put first on sys.path")
    compiled = Path(os.environ["BRIMSTONE_COMPILED"]).resolve()
    sys.path.insert(0, str(compiled))
    import shared_rules

    if not Path(shared_rules.__file__ or "").is_relative_to(compiled):
        raise RuntimeError(f"shared_rules came from {shared_rules.__file__}, not the compiled build in {compiled}")

from tests import processes  # noqa: E402


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    left = processes.kill_leftovers()
    if left:
        warnings.warn(f"killed {len(left)} process group(s) a fixture left running: {left}", stacklevel=1)


@pytest.hookimpl(trylast=True)  # after -m/-k have chosen: only a long run still selected stands in for its quick one
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A fuzz test's quick run (`test_x`) is the stand-in for its long run (`test_x_long`, marked slow) when the slow
    tests are left out; when both are selected (CI runs everything) the long run fuzzes the same operation with more
    examples, so the quick one is deselected rather than fuzzing every operation twice."""
    longs = {item.nodeid.replace("_long[", "[", 1) if "_long[" in item.nodeid else item.nodeid.removesuffix("_long")
             for item in items if getattr(item, "originalname", item.name).endswith("_long")}
    quick = [item for item in items if item.nodeid in longs]
    if quick:
        config.hook.pytest_deselected(items=quick)
        items[:] = [item for item in items if item.nodeid not in longs]
