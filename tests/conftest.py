"""Suite-wide safety net: every process group a test launched through tests/processes.py is killed when the
pytest process (or xdist worker) finishes, even if a fixture failed to stop it."""

from __future__ import annotations

import warnings

import pytest

from tests import processes


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    left = processes.kill_leftovers()
    if left:
        warnings.warn(f"killed {len(left)} process group(s) a fixture left running: {left}", stacklevel=1)
