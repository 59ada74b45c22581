"""The third-party tools the client checks run, installed on first use into a cache that reruns reuse.

npm tools (Redocly, Spectral, openapi-typescript, TypeScript, GraphQL Code Generator) come from the committed
package.json and package-lock.json (`npm ci`); openapi-python-client goes into a venv of its own (it pins its own
ruff and typer). Both live under `.cache/api-clients/` (gitignored), keyed by what was asked for, so a rerun
installs nothing and a changed pin reinstalls.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

from tests import processes

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CACHE = ROOT / ".cache" / "api-clients"
OPENAPI_PYTHON_CLIENT = "openapi-python-client==0.29.1"
INSTALL_TIMEOUT = 900


def run(command: list[str], *, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run a tool; the caller asserts on the return code and shows the output when it fails."""
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                          timeout=processes.start_timeout(timeout))  # scaled with the machine's load


def _stamp(*parts: bytes) -> str:
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:16]


def npm_tools() -> Path:
    """`node_modules/.bin` of the pinned npm tools (installed once with `npm ci`)."""
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is needed for the client checks: install Node.js (scripts/bootstrap.sh dev does)")
    manifest, lock = (HERE / "package.json").read_bytes(), (HERE / "package-lock.json").read_bytes()
    home = CACHE / "npm"
    stamp = home / f".installed-{_stamp(manifest, lock)}"
    if not stamp.exists():
        home.mkdir(parents=True, exist_ok=True)
        for old in home.glob(".installed-*"):
            old.unlink()
        (home / "package.json").write_bytes(manifest)
        (home / "package-lock.json").write_bytes(lock)
        done = run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=home, timeout=INSTALL_TIMEOUT)
        if done.returncode != 0:
            raise RuntimeError(f"npm ci failed:\n{done.stdout}\n{done.stderr}")
        stamp.touch()
    return home / "node_modules" / ".bin"


def python_client_generator() -> Path:
    """The `openapi-python-client` command, in a venv of its own (created once)."""
    venv = CACHE / "python"
    stamp = venv / f".installed-{_stamp(OPENAPI_PYTHON_CLIENT.encode(), sys.version.encode())}"
    if not stamp.exists():
        shutil.rmtree(venv, ignore_errors=True)
        made = run([sys.executable, "-m", "venv", str(venv)], cwd=ROOT, timeout=INSTALL_TIMEOUT)
        assert made.returncode == 0, made.stderr
        done = run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    OPENAPI_PYTHON_CLIENT], cwd=ROOT, timeout=INSTALL_TIMEOUT)
        if done.returncode != 0:
            raise RuntimeError(f"pip install {OPENAPI_PYTHON_CLIENT} failed:\n{done.stdout}\n{done.stderr}")
        stamp.touch()
    return venv / "bin"
