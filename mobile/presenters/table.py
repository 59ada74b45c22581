"""The table as the app holds it: the latest snapshot, the commands on their way, and the connection.

Every screen's presenter reads `TableSession.snapshot` and sends through `submit`/`undo`. A command gets its
idempotency key once, when the player taps; it stays in the outbox until the backend answers, so a lost
connection never loses it (it is resent with the same key, and the server answers a resend without applying it
twice). Network calls go through a `Worker` (inline in tests, a background thread in the app); updates pushed by
the subscription arrive on another thread and are handed to `post`, which runs them on the UI thread.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shared_rules import Adjust, Command, Hero, Prompt

from ..client import (
    BackendError,
    Closeable,
    CommandRejected,
    ConnectionLost,
    Snapshot,
    TableBackend,
    VersionConflict,
    new_key,
)
from .reading import TableRead
from .words import plain

Listener = Callable[[], None]
Post = Callable[[Callable[[], None]], None]
Cancel = Callable[[], None]
Schedule = Callable[[float, Callable[[], None]], Cancel]  # run a call after a delay; returns how to cancel it

# connection states shown in the status bar
LIVE = "live"
CONNECTING = "connecting"
RECONNECTING = "reconnecting"
LOCAL = "local"


class Worker:
    """Runs a blocking backend call and hands its result (or exception) to `done`; inline by default."""

    def run(self, job: Callable[[], Any], done: Callable[[Any, BaseException | None], None]) -> None:
        try:
            result = job()
        except BaseException as error:  # noqa: BLE001 - handed to `done`, which decides
            done(None, error)
            return
        done(result, None)


class ThreadWorker(Worker):
    """One background thread runs the calls in order; `post` brings each result back to the UI thread."""

    def __init__(self, post: Post) -> None:
        self._post = post
        self._jobs: queue.Queue[tuple[Callable[[], Any], Callable[[Any, BaseException | None], None]] | None] = (
            queue.Queue())
        self._thread = threading.Thread(target=self._loop, name="table-worker", daemon=True)
        self._thread.start()

    def run(self, job: Callable[[], Any], done: Callable[[Any, BaseException | None], None]) -> None:
        self._jobs.put((job, done))

    def stop(self) -> None:
        self._jobs.put(None)

    def _loop(self) -> None:
        while (item := self._jobs.get()) is not None:
            job, done = item
            try:
                result, error = job(), None
            except BaseException as exc:  # noqa: BLE001
                result, error = None, exc
            self._post(lambda d=done, r=result, e=error: d(r, e))  # type: ignore[misc]


class CallQueue:
    """A thread-safe inbox of calls for the UI thread; tests drain it, the app drains it from its clock."""

    def __init__(self) -> None:
        self._calls: queue.Queue[Callable[[], None]] = queue.Queue()

    def post(self, call: Callable[[], None]) -> None:
        self._calls.put(call)

    def drain(self) -> int:
        done = 0
        while True:
            try:
                call = self._calls.get_nowait()
            except queue.Empty:
                return done
            call()
            done += 1


def immediate(call: Callable[[], None]) -> None:
    call()


def at_once(_delay: float, call: Callable[[], None]) -> Cancel:
    """A `Schedule` with no clock (tests, scripts): the call runs now, so nothing is left to cancel."""
    call()
    return lambda: None


@dataclass(slots=True)
class Outgoing:
    """A command on its way: sent again with the same key until the backend answers."""

    command: Command | None  # None for an undo
    key: str
    based_on: int  # the version the player saw when tapping
    label: str
    undo_target: int = -1  # an undo: the version whose state to go back to
    attempts: int = 0
    chained: bool = False  # tapped while another of ours was waiting: based on what that one produces
    seen: int = -1  # the version the player saw when tapping (kept while the command is re-based)


@dataclass(slots=True)
class Notice:
    """A message for the player (an error from the rules, a command that could not be applied)."""

    text: str
    level: str = "error"  # error | info | ask (a question: apply_again answers it)
    rule: str = ""
    field: str = ""


@dataclass(slots=True)
class TableSession:
    """The open table: snapshot, outbox, connection status and who to tell when something changes."""

    backend: TableBackend
    snapshot: Snapshot
    worker: Worker = field(default_factory=Worker)
    post: Post = immediate
    status: str = CONNECTING
    status_detail: str = ""
    outbox: list[Outgoing] = field(default_factory=list)
    notice: Notice | None = None
    last_step_version: int = -1  # the newest step this phone has shown the effects of
    schedule: Schedule = at_once
    claimed: frozenset[str] = frozenset()  # the heroes this phone plays; empty: all of them
    mine: set[int] = field(default_factory=set)  # versions this phone made
    ask_again: Outgoing | None = None  # an adjustment another phone just made too: apply it again?
    host_called: bool = False  # this phone called the event's host and the call stands
    _listeners: list[Listener] = field(default_factory=list)
    _sending: bool = False
    _subscription: Closeable | None = None

    # ---- lifecycle ---------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Subscribe to live updates (offline: to local changes)."""
        self.status = LOCAL if not self.backend.online else CONNECTING
        self._subscription = self.backend.subscribe(
            lambda snap: self.post(lambda: self.receive(snap)),
            lambda status, detail: self.post(lambda: self.connection(status, detail)),
        )

    def stop(self) -> None:
        if self._subscription is not None:
            self._subscription.close()
            self._subscription = None
        self.backend.close()

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` after each change; returns the function that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    # ---- reading -----------------------------------------------------------------------------------------------
    @property
    def read(self) -> TableRead:
        """The state as presenters read it (one adapter: see reading.py)."""
        return TableRead(self.snapshot)

    def hero_name(self, hero_id: str | None) -> str:
        if hero_id is None:
            return "Posse"
        return self.read.name(hero_id)

    def heroes(self) -> tuple[Hero, ...]:
        return self.read.heroes

    @property
    def waiting(self) -> int:
        """Commands tapped but not yet confirmed by the backend."""
        return len(self.outbox)

    # ---- whose phone ----------------------------------------------------------------------------------------------
    def claim(self, hero_ids: frozenset[str] | set[str]) -> None:
        """The heroes this phone plays: their prompts (and the posse's) come to this phone's Dice tab."""
        self.claimed = frozenset(hero_ids)
        self.changed()

    def is_mine(self, prompt: Prompt | None) -> bool:
        """Whether this phone answers `prompt`: one for the posse, one for a hero it plays, or it plays them all."""
        if prompt is None:
            return False
        return prompt.hero is None or not self.claimed or prompt.hero in self.claimed

    def pending_adjustments(self) -> dict[tuple[str, str], int]:
        """(hero, field) -> the sum of adjustments tapped here and not yet confirmed (shown on the tiles)."""
        found: dict[tuple[str, str], int] = {}
        for item in self.outbox:
            if isinstance(item.command, Adjust):
                for effect in item.command.effects:
                    if effect.op == "change":
                        key = (item.command.hero, effect.field)
                        found[key] = found.get(key, 0) + effect.amount
        return found

    # ---- sending -----------------------------------------------------------------------------------------------
    # ---- calling the event's host (a live table only) -----------------------------------------------------------
    def can_call_host(self) -> bool:
        return bool(getattr(self.backend, "online", False)) and hasattr(self.backend, "call_host")

    def call_host(self, reason: str = "") -> None:
        """Raise the table's hand: the host's dashboard shows the call until the host (or this phone) clears it."""
        if self.can_call_host():
            backend: Any = self.backend
            self.worker.run(lambda: backend.call_host(reason), self._host_answer)

    def clear_host_call(self) -> None:
        if self.can_call_host():
            backend: Any = self.backend
            self.worker.run(lambda: backend.clear_host_call(), self._host_answer)

    def _host_answer(self, called: bool | None, error: BaseException | None) -> None:
        if error is not None:
            self.notice = Notice(plain(error.message) if isinstance(error, BackendError)
                                 else "The host could not be called. Try again.")
        else:
            self.host_called = bool(called)
        self.changed()

    def submit(self, command: Command, label: str = "") -> None:
        """Queue a command with a fresh idempotency key and send it (in order, after any still waiting)."""
        self.notice = None
        self.outbox.append(Outgoing(command, new_key(), self.snapshot.version, label or command.type,
                                    chained=bool(self.outbox)))
        self.flush()
        self.changed()

    def undo_to(self, version: int, label: str = "") -> None:
        """Go back to the state of `version` (sent as the service's "undo the last N versions")."""
        self.notice = None
        self.outbox.append(Outgoing(None, new_key(), self.snapshot.version, label or f"undo to version {version}",
                                    undo_target=version, chained=bool(self.outbox)))
        self.flush()
        self.changed()

    def flush(self) -> None:
        """Send the oldest waiting command unless one is in flight; each answer sends the next."""
        if self._sending or not self.outbox:
            return
        item = self.outbox[0]
        if item.based_on == -1:
            return  # waiting for the reload that re-bases it
        if item.chained and item.attempts == 0:
            item.based_on = self.snapshot.version
        item.attempts += 1
        self._sending = True
        backend = self.backend
        if item.command is None:
            steps = item.based_on - item.undo_target
            self.worker.run(lambda: backend.undo(steps, item.key, item.based_on), self._sent)
        else:
            command = item.command
            self.worker.run(lambda: backend.submit(command, item.key, item.based_on), self._sent)

    def _sent(self, result: Snapshot | None, error: BaseException | None) -> None:
        self._sending = False
        item = self.outbox[0] if self.outbox else None
        if error is None and result is not None:
            if item is not None:
                self.outbox.pop(0)
                self.mine.add(result.version)
            if self.status == RECONNECTING:
                self.status, self.status_detail = LIVE, ""
            self._take(result)
            self.flush()
            self.changed()
            return
        if isinstance(error, ConnectionLost):
            self.status, self.status_detail = RECONNECTING, error.message  # keep it; tick() or reconnect resends
            self.changed()
            return
        if item is None:
            return
        self.outbox.pop(0)
        if isinstance(error, VersionConflict):
            self._conflict(item)
        elif isinstance(error, CommandRejected):
            self.notice = Notice(plain(error.message), rule=error.rule, field=error.field)
        elif isinstance(error, BackendError):
            self.notice = Notice(plain(error.message))
        else:
            self.notice = Notice(f"{item.label}: not sent. Try again.")
        self.refresh()
        self.flush()
        self.changed()

    def _conflict(self, item: Outgoing) -> None:
        """Someone at the table acted first. A manual adjustment still means the same on the new state, so it is
        sent again on top of it, unless another phone just made the same change (then the player is asked: two
        phones tapping Gold +$25 for the same hero rarely mean $50); a step of the rules (a hazard, an answer) is
        dropped: its moment has passed."""
        if item.command is not None and item.command.type == "adjust" and item.attempts < 3:
            item.seen, item.based_on = item.based_on, -1  # rebased below, after the refresh (unless it duplicates what arrived)
            self.outbox.insert(0, item)
            self.notice = Notice(f"The table moved on; {item.label} is applied to the new state", level="info")
            return
        self.notice = Notice(f"Not applied: {item.label}. Someone at the table acted first; check the new state",
                             level="info")

    def _same_change_since(self, item: Outgoing, snapshot: Snapshot, since: int) -> bool:
        """Whether a step after `since` made exactly the changes `item` asks for (another phone's identical tap)."""
        command = item.command
        if not isinstance(command, Adjust):
            return False
        wanted = sorted((e.field, e.amount) for e in command.effects if e.op == "change")
        if not wanted:
            return False
        for step in snapshot.log:
            if step.version <= since or step.command != "adjust" or step.version in self.mine:
                continue
            made = sorted((c.field, int(c.after) - int(c.before)) for e in step.events
                          if e.type == "changed" and e.hero == command.hero for c in e.changes
                          if isinstance(c.after, int) and isinstance(c.before, int))
            if made == wanted:
                return True
        return False

    def apply_again(self, yes: bool) -> None:
        """The answer to "another phone just did this too: apply it again?"."""
        item, self.ask_again = self.ask_again, None
        self.notice = None
        if item is not None and yes:
            item.based_on = self.snapshot.version
            self.outbox.insert(0, item)
            self.flush()
        self.changed()

    def refresh(self) -> None:
        """Load the latest state; commands re-based on it keep their keys."""
        backend = self.backend
        self.worker.run(backend.load, self._loaded)

    def _loaded(self, result: Snapshot | None, error: BaseException | None) -> None:
        if isinstance(error, ConnectionLost):
            self.status, self.status_detail = RECONNECTING, error.message
        elif error is not None:
            self.notice = Notice(getattr(error, "message", str(error)))
        elif result is not None:
            if self.backend.online and self.status != LIVE:
                self.status, self.status_detail = LIVE, ""
            self._take(result, force=True)
            for item in list(self.outbox):
                if item.based_on == -1:
                    if self._same_change_since(item, result, item.seen):
                        self.outbox.remove(item)
                        self.ask_again = item
                        self.notice = Notice(f"Another phone just did the same: {item.label}. Apply it again?",
                                             level="ask")
                        continue
                    item.based_on = result.version
            self.flush()
        self.changed()

    def tick(self) -> None:
        """Called every few seconds: while commands wait after a lost connection, try again."""
        if self.outbox and not self._sending and self.status == RECONNECTING:
            self.flush()

    # ---- hearing ----------------------------------------------------------------------------------------------
    def receive(self, snapshot: Snapshot) -> None:
        """An update pushed by the subscription (another phone acted, or our own command echoed)."""
        if self._take(snapshot):
            self.changed()

    def connection(self, status: str, detail: str = "") -> None:
        """The subscription's news: live again after a loss means reload and resend what waits."""
        was = self.status
        self.status, self.status_detail = status, detail
        if status == LIVE and was in (RECONNECTING, CONNECTING):
            self.refresh()
            if self.outbox and not self._sending:
                self.flush()
        self.changed()

    def _take(self, snapshot: Snapshot, *, force: bool = False) -> bool:
        if not force and snapshot.version < self.snapshot.version:
            return False  # an older push arriving late
        if not force and snapshot.version == self.snapshot.version and snapshot.log == self.snapshot.log:
            return False
        old = self.snapshot.version
        self.snapshot = snapshot
        undone = [s for s in snapshot.log if s.version > old and s.command == "undo" and s.version not in self.mine]
        ours = self._sending and bool(self.outbox) and self.outbox[0].command is None  # our undo, echoed early
        if undone and not ours:
            from .log import step_label

            steps = {s.version: s for s in snapshot.log}
            back = undone[-1]
            taken = [step_label(steps[v], self.read.names) for v in range(old, (back.undo_to or 0), -1) if v in steps]
            self.notice = Notice("Another phone took back: " + "; ".join(taken[:3]) if taken
                                 else "Another phone took back a step", level="info")
        return True
