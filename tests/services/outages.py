"""Helpers for outage tests: a throwaway redis-server that persists every write (AOF, fsync always) and can be
SIGKILLed and restarted on the same files, a GraphQL subscriber on its own thread, and child processes by parent."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import redis
from websockets.sync.client import connect

from tests import processes
from tests.services.servers import free_port


class RedisProcess:
    """redis-server on a free port with AOF (appendfsync always) in `workdir`; kill() is a SIGKILL."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisProcess:
        executable = shutil.which("redis-server")
        assert executable, "redis-server is needed"
        self.process = processes.launch(
            [executable, "--port", str(self.port), "--bind", "127.0.0.1", "--appendonly", "yes",
             "--appendfsync", "always", "--save", "", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        try:
            processes.wait_ready(client.ping, what=f"redis-server on port {self.port}", process=self.process)
        except BaseException:
            self.kill()
            raise
        finally:
            client.close()
        return self

    def kill(self) -> None:
        process, self.process = self.process, None
        processes.stop(process, sig=signal.SIGKILL)

    def stop(self) -> None:
        self.kill()


class Subscriber:
    """A graphql-transport-ws subscription to sessionChanges on its own thread, collecting versions; it resubscribes
    with afterVersion (the last version it saw) when its connection drops, as a phone does."""

    QUERY = "subscription ($sid: String!, $after: Int) { sessionChanges(sessionId: $sid, afterVersion: $after) " \
            "{ version } }"

    def __init__(self, ws_urls: list[str], session_id: str, token: str, after: int) -> None:
        self.ws_urls = ws_urls
        self.session_id = session_id
        self.token = token
        self.versions: list[int] = []
        self.last = after
        self.errors: list[Any] = []
        self.reconnects = 0
        self._stop = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Subscriber:
        self.thread.start()
        return self

    def _run(self) -> None:
        attempt = 0
        while not self._stop.is_set():
            url = self.ws_urls[attempt % len(self.ws_urls)]
            attempt += 1
            try:
                self._listen(url)
            except Exception:  # the replica died or Redis is down: resubscribe from the last version seen
                self.reconnects += 1
                time.sleep(0.2)

    def _listen(self, url: str) -> None:
        with connect(url, subprotocols=["graphql-transport-ws"], open_timeout=5, close_timeout=1) as ws:
            ws.send(json.dumps({"type": "connection_init", "payload": {"token": self.token}}))
            assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
            ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                "query": self.QUERY, "variables": {"sid": self.session_id, "after": self.last}}}))
            self.ready.set()
            while not self._stop.is_set():
                try:
                    raw = ws.recv(timeout=0.5)
                except TimeoutError:
                    continue
                message = json.loads(raw)
                if message["type"] == "next":
                    payload = message["payload"]
                    if payload.get("errors"):
                        self.errors.append(payload["errors"])
                        raise RuntimeError(payload["errors"])
                    version = payload["data"]["sessionChanges"]["version"]
                    self.versions.append(version)
                    self.last = version
                elif message["type"] == "ping":
                    ws.send(json.dumps({"type": "pong"}))
                elif message["type"] in ("error", "complete"):
                    self.errors.append(message)
                    raise RuntimeError(message)

    def wait_for(self, version: int, timeout: float | None = None) -> None:
        """Until the subscriber has seen `version` (the deadline scales with the machine's load)."""
        try:
            processes.wait_ready(lambda: self.last >= version, what=f"version {version}", timeout=timeout)
        except processes.NotReady as error:
            raise AssertionError(f"subscriber saw {self.versions}, waited for {version}: {error}") from None

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(timeout=10)


def children(pid: int) -> list[int]:
    """Processes whose parent is `pid` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"
