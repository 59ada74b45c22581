"""Processes the suite starts (API servers, rq workers, redis-servers, nginx, Node tools): launched in a process
group of their own, waited for by readiness with a deadline that scales with the machine, and always stopped.

- `start_timeout()`: how long a process may take to become ready. A fixed 30 s failed 71 tests on a busy 2-core
  machine (one replica took 14 s); the limit is a base (60 s, `BRIMSTONE_TEST_START_TIMEOUT`) times the machine's
  load per core, so a loaded machine gets longer and a process that exits fails at once.
- `wait_ready(check, process=...)`: polls `check` with backoff (10 ms doubling to 0.5 s) until it is true; raises
  as soon as the process exits, or at the deadline. Never a fixed sleep.
- `launch(...)`: `subprocess.Popen` with `start_new_session=True`, remembered until stopped; `stop(process)` sends
  SIGTERM to the process, SIGKILL after a grace period, then SIGKILL to whatever of its group is left. `kill_leftovers()` (run at the end of every pytest process, see
  tests/conftest.py) stops any group a fixture did not.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any

BASE_START_TIMEOUT = 60.0
MAX_START_TIMEOUT = 600.0
_LIVE: dict[int, subprocess.Popen[Any]] = {}


def start_timeout(base: float | None = None) -> float:
    """Seconds a process may take to become ready here: `base` (default BRIMSTONE_TEST_START_TIMEOUT or 60) times
    the 1-minute load average per core when that is above 1, at most 600."""
    if base is None:
        base = float(os.environ.get("BRIMSTONE_TEST_START_TIMEOUT", BASE_START_TIMEOUT))
    try:
        load = os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:
        load = 1.0
    return min(MAX_START_TIMEOUT, base * max(1.0, load))


class NotReady(RuntimeError):
    """A process exited before it was ready, or did not get ready in time."""


def wait_ready(check: Callable[[], bool], *, what: str, process: subprocess.Popen[Any] | None = None,
               timeout: float | None = None, log: Callable[[], str] | None = None) -> float:
    """Poll `check()` (exceptions count as not yet) with backoff until it returns true; the seconds it took.
    Raises NotReady as soon as `process` exits, or after `timeout` (default `start_timeout()`)."""
    limit = start_timeout() if timeout is None else timeout
    started = time.monotonic()
    pause = 0.01
    while True:
        if process is not None and process.poll() is not None:
            raise NotReady(f"{what} exited with {process.returncode} before it was ready"
                           + (f":\n{log()}" if log else ""))
        with contextlib.suppress(Exception):
            if check():
                return time.monotonic() - started
        waited = time.monotonic() - started
        if waited > limit:
            raise NotReady(f"{what} was not ready within {limit:.0f}s (load average "
                           f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)" + (f":\n{log()}" if log else ""))
        time.sleep(min(pause, max(0.0, limit - waited) + 0.01))
        pause = min(pause * 2, 0.5)


SETPRIV = shutil.which("setpriv")  # util-linux: sets the parent-death signal, then runs the command


def launch(command: list[str], **kwargs: Any) -> subprocess.Popen[Any]:
    """Start `command` in a new session (its own process group, so stop() reaches its children too).

    Launched from the main thread, it is also sent SIGTERM when this process dies (PR_SET_PDEATHSIG, through
    `setpriv`), so a test run killed from outside (a timeout, a Ctrl-C twice) leaves no server behind. Not from
    another thread: the signal follows the thread that forked, and would stop the server when that thread ends."""
    if SETPRIV is not None and threading.current_thread() is threading.main_thread():
        command = [SETPRIV, "--pdeathsig", "TERM", "--", *command]
    process: subprocess.Popen[Any] = subprocess.Popen(command, start_new_session=True, **kwargs)
    _LIVE[process.pid] = process
    return process


def stop(process: subprocess.Popen[Any] | None, *, grace: float = 10.0, sig: int = signal.SIGTERM,
         group: bool = True) -> None:
    """Stop a launched process: `sig` (SIGTERM) to it, as a supervisor would, then SIGKILL after `grace` seconds;
    reaps it; then (unless `group=False`) SIGKILLs whatever of its group outlived it. Safe to call twice and on a
    process that already exited."""
    if process is None:
        return
    if group:
        _LIVE.pop(process.pid, None)
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(sig)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            process.wait(timeout=30)
    if group:
        _signal_group(process, signal.SIGKILL)  # children that outlived their parent (the group keeps its id)


def _signal_group(process: subprocess.Popen[Any], sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)


def live() -> list[subprocess.Popen[Any]]:
    """The launched processes not stopped yet."""
    return list(_LIVE.values())


def group_alive(pgid: int) -> bool:
    """Whether any process of the group `pgid` still runs (zombies not counted)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()  # noqa: SIM115
        except OSError:
            continue
        if int(stat[2]) == pgid and stat[0] != "Z":
            return True
    return False


def kill_leftovers() -> list[int]:
    """Kill every launched group still running (the safety net at the end of a test run); their pids."""
    left = [process.pid for process in live() if process.poll() is None or group_alive(process.pid)]
    for process in live():
        stop(process, grace=5.0)
    return left
