"""Tables for the presenter tests: a real offline table on the engine, and backends that fail on purpose."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from mobile.client import (
    Closeable,
    ConnectionLost,
    OfflineBackend,
    Snapshot,
    StatusCallback,
    UpdateCallback,
)
from mobile.presenters.table import TableSession
from shared_rules import Command, Hero, RuleOptions, Skills


def hero(hero_id: str, name: str | None = None, **values: Any) -> Hero:
    """A hero with 2 in every skill unless given (`agility=3`), other fields by keyword."""
    skills = {k: values.pop(k) for k in ("agility", "cunning", "spirit", "strength", "lore", "luck") if k in values}
    return Hero(hero_id, name or hero_id.capitalize(), skills=replace(Skills(), **skills), **values)


class Clock:
    """A `Schedule` for tests: delayed calls wait until `run()` (the send window after the last die, ...)."""

    def __init__(self) -> None:
        self.calls: list[tuple[float, Callable[[], None]]] = []

    def __call__(self, delay: float, call: Callable[[], None]) -> Callable[[], None]:
        entry = (delay, call)
        self.calls.append(entry)
        return lambda: self.calls.remove(entry) if entry in self.calls else None

    def run(self) -> int:
        done = 0
        while self.calls:
            _, call = self.calls.pop(0)
            call()
            done += 1
        return done


def offline_table(directory: Path, heroes: Sequence[Hero], *, dice: str = "table", rerolls: bool = False,
                  seed: int = 7, clock: Clock | None = None) -> TableSession:
    """A table on this 'phone': the engine, a file in `directory`, the inline worker, a test clock."""
    backend = OfflineBackend(directory)
    snapshot = backend.create(heroes, RuleOptions(dice=dice, offer_grit_rerolls=rerolls), seed=seed)
    table = TableSession(backend, snapshot, schedule=clock or Clock())
    table.start()
    return table


class FlakyBackend:
    """An offline table behind a connection that can be cut: while `down`, calls raise ConnectionLost.

    With `lose_answers`, the command is applied but the answer is lost on the way back (the worst case for a
    resend: only the idempotency key keeps it from being applied twice).
    """

    online = True

    def __init__(self, inner: OfflineBackend) -> None:
        self.inner = inner
        self.down = False
        self.lose_answers = False
        self.push = True  # False: updates are not pushed (a push still on its way when the phone acts)
        self.sent: list[tuple[str, str, int | None]] = []  # (command type, key, expected version)

    @property
    def table(self) -> Any:
        return self.inner.table

    def create(self, heroes: Sequence[Hero], options: RuleOptions, *, seed: int | None = None,
               pack: str = "default") -> Snapshot:
        return self.inner.create(heroes, options, seed=seed, pack=pack)

    def join(self, code: str, token: str) -> Snapshot:
        return self.inner.join(code, token)

    def load(self) -> Snapshot:
        self._gate()
        return self.inner.load()

    def submit(self, command: Command, idempotency_key: str, expected_version: int | None = None) -> Snapshot:
        self.sent.append((command.type, idempotency_key, expected_version))
        self._gate()
        result = self.inner.submit(command, idempotency_key, expected_version)
        if self.lose_answers:
            raise ConnectionLost("the answer was lost on the way back")
        return result

    def undo(self, steps: int, idempotency_key: str, expected_version: int | None = None) -> Snapshot:
        self.sent.append(("undo", idempotency_key, expected_version))
        self._gate()
        return self.inner.undo(steps, idempotency_key, expected_version)

    def subscribe(self, on_update: UpdateCallback, on_status: StatusCallback | None = None) -> Closeable:
        return self.inner.subscribe(lambda snapshot: on_update(snapshot) if self.push else None)

    def close(self) -> None:
        self.inner.close()

    def _gate(self) -> None:
        if self.down:
            raise ConnectionLost("server unreachable")


class StaticBackend:
    """A table frozen in one state (e.g. a crafted prompt): records what would be sent, changes nothing."""

    online = False

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self.sent: list[Command] = []

    @property
    def table(self) -> Any:
        return self.snapshot.table

    def load(self) -> Snapshot:
        return self.snapshot

    def submit(self, command: Command, idempotency_key: str, expected_version: int | None = None) -> Snapshot:
        self.sent.append(command)
        return self.snapshot

    def undo(self, steps: int, idempotency_key: str, expected_version: int | None = None) -> Snapshot:
        raise AssertionError("not expected")

    def subscribe(self, on_update: UpdateCallback, on_status: StatusCallback | None = None) -> Closeable:
        class _Nothing:
            def close(self) -> None:
                pass

        return _Nothing()

    def close(self) -> None:
        pass


def table_waiting_on(prompt: Any, heroes: Sequence[Hero]) -> tuple[TableSession, StaticBackend]:
    """A table whose rules wait on `prompt` (a Prompt built by the test), behind a StaticBackend."""
    from mobile.client import TableInfo
    from shared_rules import RollHazard, new_session
    from shared_rules.prompts import Pending

    state = new_session(tuple(heroes), options=RuleOptions(dice="table"))
    state = replace(state, pending=Pending(RollHazard(), state, (), 0, prompt))
    backend = StaticBackend(Snapshot(TableInfo("crafted", code="CRAFT1"), 3, state))
    table = TableSession(backend, backend.snapshot, schedule=Clock())
    return table, backend
