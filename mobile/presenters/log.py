"""The log: every event in plain words, newest first, and undo of the last step (or of more, once confirmed)."""

from __future__ import annotations

from dataclasses import dataclass

from ..client import LogStep, history
from .table import TableSession

PAGE = 30  # steps shown at first; "show older" adds as many again

COMMAND_WORDS = {
    "create": "The table is set", "choose_town_size": "Town size chosen", "roll_hazard": "Travel Hazard rolled",
    "arrive": "Arrived in town", "end_town_stay": "Town Stay ended", "adjust": "Changed at the table",
    "roll": "Dice entered", "choose": "Choice made", "reroll": "Grit re-roll", "enter_card": "Card entered",
    "undo": "Undo", "create_session": "The table is set",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class LogRow:
    kind: str  # step (a header) | event
    text: str
    undone: bool  # taken back by a later undo: shown, but dimmed
    who: str
    rule: str
    version: int


@dataclass(frozen=True, slots=True)
class StepView:
    """One step with its events (newest first), as the screen draws it: one block per step."""

    version: int
    title: str
    undone: bool
    events: tuple[LogRow, ...]


@dataclass(frozen=True, slots=True)
class Confirm:
    steps: int
    question: str


@dataclass(frozen=True, slots=True)
class LogView:
    rows: tuple[LogRow, ...]
    undoable: int
    undo_steps: int
    undo_last_label: str
    undo_more_label: str
    confirm: Confirm | None
    older: int  # steps not shown yet (the phone shows the newest first, more on request)
    steps: tuple[StepView, ...] = ()


class LogPresenter:
    def __init__(self, table: TableSession) -> None:
        self.table = table
        self.undo_steps = 2
        self.confirm: Confirm | None = None
        self.shown_steps = PAGE

    def in_effect(self) -> list[LogStep]:
        """The steps in effect now, newest first: what undo takes back, one by one (the oldest held, normally the
        creation, is where undo stops)."""
        snapshot = self.table.snapshot
        steps = {step.version: step for step in snapshot.log}
        return [steps[v] for v in reversed(history(snapshot.log, snapshot.version)[1:])]

    def undoable_steps(self) -> list[str]:
        return [step.command for step in self.in_effect()]

    def view(self) -> LogView:
        snapshot = self.table.snapshot
        effective = set(history(snapshot.log, snapshot.version))
        rows: list[LogRow] = []
        blocks: list[StepView] = []
        newest = snapshot.log[::-1][: self.shown_steps]
        for step in newest:
            undone = step.command != "undo" and step.version not in effective
            title = f"v{step.version} · {COMMAND_WORDS.get(step.command, step.command)}" + (" (undone)" if undone else "")
            rows.append(LogRow("step", title, undone, "", "", step.version))
            events = tuple(LogRow("event", event.text, undone, self.table.hero_name(event.hero) if event.hero else "",
                                  event.rule, step.version) for event in reversed(step.events))
            rows.extend(events)
            blocks.append(StepView(step.version, title, undone, events))
        steps = self.undoable_steps()
        n = max(2, min(self.undo_steps, len(steps)))
        self.undo_steps = n
        last = COMMAND_WORDS.get(steps[0], steps[0]).lower() if steps else ""
        return LogView(tuple(rows), len(steps), n, f"Undo last step ({last})" if steps else "Nothing to undo",
                       f"Undo {n} steps...", self.confirm, len(snapshot.log) - len(newest), tuple(blocks))

    def show_older(self) -> None:
        self.shown_steps += PAGE
        self.table.changed()

    def undo(self, steps: int) -> None:
        """Take back the last `steps` steps in effect (never an undo of an undo: that would redo)."""
        path = history(self.table.snapshot.log, self.table.snapshot.version)  # oldest first, from version 0
        if not 1 <= steps <= len(path) - 1:
            return
        self.table.undo_to(path[-(steps + 1)], label=f"undo {steps} step{'s' if steps != 1 else ''}")

    def undo_last(self) -> None:
        """One tap: the last step is easy to take back (a mis-tap)."""
        self.undo(1)

    def step_more(self, delta: int) -> None:
        self.undo_steps = max(2, min(len(self.undoable_steps()), self.undo_steps + delta))
        self.table.changed()

    def ask_undo(self, steps: int | None = None) -> Confirm | None:
        """More than one step needs a confirmation that says what will be taken back."""
        available = self.undoable_steps()
        steps = self.undo_steps if steps is None else steps
        if not 1 <= steps <= len(available):
            self.confirm = None
            return None
        words = ", ".join(COMMAND_WORDS.get(c, c).lower() for c in available[:steps])
        self.confirm = Confirm(steps, f"Undo the last {steps} steps ({words})? Every phone at the table goes back.")
        self.table.changed()
        return self.confirm

    def confirm_undo(self) -> None:
        if self.confirm is not None:
            steps = self.confirm.steps
            self.confirm = None
            self.undo(steps)

    def cancel(self) -> None:
        self.confirm = None
        self.table.changed()
