"""Debian packages some tests need (a browser, nginx, promtool), installed once: `scripts/bootstrap.sh dev` installs
them before the suite, and a test that still finds one missing installs it here under a lock, since two pytest
workers running apt-get at once make one of them fail on dpkg's lock."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

LOCK = Path("/tmp/brimstone-apt.lock")
# another checkout on the machine may be installing too: wait for dpkg's own lock rather than fail on it
WAIT_LOCK = ("-o", "DPkg::Lock::Timeout=900")


def which(binary: str) -> str | None:
    return shutil.which(binary) or (f"/usr/sbin/{binary}" if Path(f"/usr/sbin/{binary}").exists() else None)


def ensure(binary: str, *packages: str) -> str:
    """The path of `binary`, installing `packages` with apt-get first when it is missing."""
    found = which(binary)
    if found:
        return found
    if shutil.which("apt-get") is None:
        raise RuntimeError(f"{binary} is needed: install {' '.join(packages)} with your package manager")
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other workers wait here, then find it installed
        found = which(binary)
        if found:
            return found
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", *WAIT_LOCK, "update", "-q"], check=False, capture_output=True, env=env)
        done = subprocess.run(["apt-get", *WAIT_LOCK, "install", "-y", "-q", *packages], capture_output=True, text=True, env=env)
        found = which(binary)
        if found is None:
            raise RuntimeError(f"apt-get install {' '.join(packages)} did not bring {binary}: {done.stderr[-2000:]}")
        return found
