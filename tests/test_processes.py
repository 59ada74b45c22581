"""What the suite starts, it stops (issue 20): a server whose start fails, or a test that raises while it runs,
leaves no process behind; the end-of-run safety net kills a process group nobody stopped, children included; and
readiness waits fail at once when the process exits, with a deadline that grows with the machine's load."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import processes
from tests.services.servers import ServerProcess, sqlite_storage

# a parent that starts a child in its own group, prints the child's pid and sleeps: both must go
PARENT_AND_CHILD = ("import subprocess, sys, time; "
                    "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']); "
                    "print(child.pid, flush=True); time.sleep(600)")


def _gone(pid: int) -> bool:
    """No process runs with this pid, or only a zombie (reaped later by its parent or init)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"


def _servers_on(port: int) -> list[int]:
    """Live processes whose command line serves `port` (`--port N`)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--port" in words and str(port).encode() in words and not _gone(int(entry.name)):
            found.append(int(entry.name))
    return found


def _running() -> list[object]:
    """Launched processes still running (another test of this worker may have left one it stopped with
    `group=False`, reaped but remembered so its group is killed at the end)."""
    return [p for p in processes.live() if p.poll() is None]


def test_a_server_that_does_not_get_ready_in_time_is_stopped_with_its_group(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRIMSTONE_TEST_START_TIMEOUT", "0.01")  # no server imports its app in 10 ms per core
    server = ServerProcess(sqlite_storage(tmp_path), tmp_path)
    with pytest.raises(processes.NotReady, match="was not ready within"):
        server.start()
    assert server.process is None and not _running() and not _servers_on(server.port)


def test_a_server_that_exits_while_starting_fails_at_once_and_leaves_nothing(tmp_path: Path) -> None:
    server = ServerProcess(sqlite_storage(tmp_path), tmp_path)
    with socket.socket() as taken:  # its port is taken: uvicorn exits
        taken.bind(("127.0.0.1", server.port))
        taken.listen()
        started = time.monotonic()
        with pytest.raises(processes.NotReady, match="exited with"):
            server.start()
        waited = time.monotonic() - started
    assert waited < processes.start_timeout() / 2  # failed when the process exited, not at the deadline
    assert server.process is None and not _running() and not _servers_on(server.port)


def test_a_test_that_raises_while_its_server_runs_leaves_no_process(tmp_path: Path) -> None:
    server = ServerProcess(sqlite_storage(tmp_path), tmp_path)
    with pytest.raises(RuntimeError, match="the test failed"), server:
        assert server.process is not None
        pid = server.process.pid
        raise RuntimeError("the test failed")
    assert _gone(pid) and not processes.group_alive(pid)
    assert not _running() and not _servers_on(server.port)


def test_the_safety_net_kills_a_group_nobody_stopped_children_included() -> None:
    parent = processes.launch([sys.executable, "-c", PARENT_AND_CHILD], stdout=subprocess.PIPE)
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    assert processes.group_alive(parent.pid) and not _gone(child)
    assert processes.kill_leftovers() == [parent.pid]
    processes.wait_ready(lambda: _gone(child), what="the child to die", timeout=30)
    assert _gone(parent.pid) and not processes.group_alive(parent.pid) and not _running()
    parent.stdout.close()


# a test run in miniature: it launches a long-running "server" as the fixtures do, prints its pid, and waits
RUNNER = ("import subprocess, sys, time; sys.path.insert(0, {root!r}); from tests import processes; "
          "server = processes.launch([sys.executable, '-c', 'import time; time.sleep(600)']); "
          "print(server.pid, flush=True); time.sleep(600)")
SERVER_ARGS = [b"-c", b"import time; time.sleep(600)", b""]  # after the executable; cmdline ends with a NUL


def test_a_test_run_killed_from_outside_takes_what_it_launched_with_it() -> None:
    """SIGKILL gives the run no chance to stop anything (no fixture teardown, no safety net): the server it
    launched gets the parent-death signal and goes (PR_SET_PDEATHSIG), rather than living on, holding a core."""
    root = str(Path(__file__).resolve().parents[1])
    runner = subprocess.Popen([sys.executable, "-c", RUNNER.format(root=root)], stdout=subprocess.PIPE)
    server = -1
    try:
        assert runner.stdout is not None
        server = int(runner.stdout.readline())
        assert not _gone(server)
        # the signal is armed once `setpriv` has run (it then execs the server): a run killed before that, as a
        # busy machine can make a test do within microseconds of the launch, would orphan it for real. So wait
        # for the server's own command line: the forked child shows the runner's until `setpriv` execs (and the
        # runner's holds the same `time.sleep` text), then `setpriv`'s until it has armed the signal
        processes.wait_ready(lambda: Path(f"/proc/{server}/cmdline").read_bytes().split(b"\0")[1:] == SERVER_ARGS,
                             what="the server to be started")
        runner.kill()
        runner.wait(timeout=30)
        processes.wait_ready(lambda: _gone(server), what="the orphaned server to go", timeout=30)
    finally:
        if runner.poll() is None:
            runner.kill()
        if runner.stdout is not None:
            runner.stdout.close()
        if not _gone(server):  # the test failed: the orphan goes anyway
            with contextlib.suppress(ProcessLookupError):
                os.kill(server, signal.SIGKILL)


def test_readiness_waits_fail_at_once_when_the_process_exits() -> None:
    process = processes.launch([sys.executable, "-c", "raise SystemExit(3)"])
    try:
        with pytest.raises(processes.NotReady, match="exited with 3"):
            processes.wait_ready(lambda: False, what="a process that exits", process=process, timeout=600)
    finally:
        processes.stop(process)


def test_the_start_deadline_grows_with_the_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(processes.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(processes.os, "getloadavg", lambda: (1.0, 1.0, 1.0))
    assert processes.start_timeout(60) == 60  # an idle machine: the base
    monkeypatch.setattr(processes.os, "getloadavg", lambda: (8.0, 6.0, 4.0))
    assert processes.start_timeout(60) == 240  # four runnable processes per core: four times as long
    monkeypatch.setattr(processes.os, "getloadavg", lambda: (80.0, 60.0, 40.0))
    assert processes.start_timeout(60) == processes.MAX_START_TIMEOUT
