"""The log: every event in plain words, newest first, and undo of the last step (or of more, once confirmed)."""

from __future__ import annotations

from dataclasses import dataclass

from ..client import LogStep, history
from ..i18n import _
from .table import TableSession
from .words import event_text, plain

PAGE = 30  # steps shown at first; "show older" adds as many again

def command_words(command: str) -> str | None:
    """A step's heading by the command that made it, in the app's language (None: a command named no better)."""
    return {
        "create": _("The table is set"), "create_session": _("The table is set"),
        "choose_town_size": _("Town size chosen"), "roll_hazard": _("Travel Hazard rolled"),
        "arrive": _("Arrived in town"), "end_town_stay": _("Town Stay ended"), "adjust": _("Changed at the table"),
        "roll": _("Dice entered"), "choose": _("Choice made"), "reroll": _("Grit re-roll"),
        "enter_card": _("Card entered"), "undo": _("Taken back"),
    }.get(command)  # fmt: skip


# The event that names a step best, by the command that made it
_NAMING_EVENT = {"adjust": "adjusted", "roll_hazard": "hazard", "roll": "hazard", "choose": "answered",
                 "enter_card": "card", "choose_town_size": "hazard_count", "arrive": "town_type"}  # fmt: skip


def step_label(step: LogStep, names: dict[str, str]) -> str:
    """A step named as the table saw it ("Ann: Gold +$25 at the table", "Travel Hazard 2: 42 Raging River")."""
    wanted = _NAMING_EVENT.get(step.command)
    for kind in (wanted, "rolled") if step.command == "roll" else (wanted,):
        event = next((e for e in step.events if e.type == kind), None)
        if event is not None:
            return event_text(event, names)
    if step.command in ("activate", "activate_enemy"):  # the activation it ended too (R-ADV-05): both named
        said = [event_text(e, names) for e in step.events if e.type == "activated"]
        if said:
            return "; ".join(said)
    named = command_words(step.command)
    if named is not None:
        return named
    first = next((e for e in step.events if e.type not in ("rolled", "prompt", "answered")), None)
    if first is not None:  # the step's first worded event says what it did, in the app's language
        return event_text(first, names)
    return plain(step.command.replace("_", " "))


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
    why: bool = False  # rule ids shown
    redo_label: str = ""  # "Redo: <the step>" right after an undo whose steps this phone can apply again; "" none


class LogPresenter:
    def __init__(self, table: TableSession) -> None:
        self.table = table
        self.undo_steps = 2
        self.confirm: Confirm | None = None
        self.shown_steps = PAGE
        self.why = False

    def in_effect(self) -> list[LogStep]:
        """The steps in effect now, newest first: what undo takes back, one by one (the oldest held, normally the
        creation, is where undo stops)."""
        snapshot = self.table.snapshot
        steps = {step.version: step for step in snapshot.log}
        return [steps[v] for v in reversed(history(snapshot.log, snapshot.version)[1:])]

    def undoable_steps(self) -> list[str]:
        names = self.table.read.names
        return [step_label(step, names) for step in self.in_effect()]

    def view(self) -> LogView:
        snapshot = self.table.snapshot
        effective = set(history(snapshot.log, snapshot.version))
        rows: list[LogRow] = []
        blocks: list[StepView] = []
        newest = snapshot.log[::-1][: self.shown_steps]
        for step in newest:
            undone = step.command != "undo" and step.version not in effective
            heading = command_words(step.command) or plain(step.command.replace("_", " "))
            title = _("{step} (taken back)").format(step=heading) if undone else heading
            rows.append(LogRow("step", title, undone, "", "", step.version))
            names = self.table.read.names
            if step.command == "undo" and step.undo_to is not None:
                taken = self.taken_back(step)
                events: tuple[LogRow, ...] = tuple(LogRow("event", label, False, "", "", step.version)
                                                   for label in taken)
            else:
                events = tuple(LogRow("event", event_text(event, names), undone,
                                      self.table.hero_name(event.hero) if event.hero and self.why else "",
                                      event.rule if self.why else "", step.version)
                               for event in reversed(step.events) if event.type != "prompt")
            rows.extend(events)
            blocks.append(StepView(step.version, title, undone, events))
        steps = self.undoable_steps()
        n = max(2, min(self.undo_steps, len(steps)))
        self.undo_steps = n
        last = steps[0] if steps else ""
        return LogView(tuple(rows), len(steps), n, _("Undo: {step}").format(step=last) if steps else
                       _("Nothing to undo"), _("Undo {n} steps...").format(n=n), self.confirm, len(snapshot.log) - len(newest), tuple(blocks), self.why,
                       self.redo_label())

    def redoable(self) -> list[LogStep]:
        """The steps the last undo took back, oldest first, when nothing was done since and this phone knows each
        step's command (offline every step; live the ones it sent): redo applies them again to the very state they
        were first applied to, so the rules (and the dice, drawn from the state's own generator) do the same."""
        snapshot = self.table.snapshot
        log = snapshot.log
        head = log[-1] if log else None
        if head is None or head.version != snapshot.version or head.command != "undo" or head.undo_to is None:
            return []
        kept = set(history(log, head.undo_to))
        by_version = {s.version: s for s in log}
        steps = [by_version[v] for v in history(log, head.version - 1) if v not in kept and v in by_version]
        if not steps or any(s.command_data is None for s in steps):
            return []
        return steps

    def redo_label(self) -> str:
        steps = self.redoable()
        if not steps:
            return ""
        names = self.table.read.names
        if len(steps) == 1:
            return _("Redo: {step}").format(step=step_label(steps[0], names))
        return _("Redo {n} steps: {step}...").format(n=len(steps), step=step_label(steps[0], names))

    def redo(self) -> None:
        """Apply again what the last undo took back, step by step in their order (each sent after the one before)."""
        from shared_rules.codec import decode_command

        names = self.table.read.names
        for step in self.redoable():
            assert step.command_data is not None
            self.table.submit(decode_command(dict(step.command_data)), label=f"redo {step_label(step, names)}")

    def taken_back(self, step: LogStep) -> list[str]:
        """What an undo took back, step by step, in the words of each step."""
        log = self.table.snapshot.log
        assert step.undo_to is not None
        before = history(log, step.version - 1)
        kept = set(history(log, step.undo_to))
        by_version = {s.version: s for s in log}
        names = self.table.read.names
        return [_("Taken back: {step}").format(step=step_label(by_version[v], names)) for v in reversed(before)
                if v not in kept and v in by_version] or [_("A step was taken back")]

    def toggle_why(self) -> None:
        """Show or hide the rule behind each line (the rulebook id, for settling an argument)."""
        self.why = not self.why
        self.table.changed()

    def show_older(self) -> None:
        self.shown_steps += PAGE
        self.table.changed()

    def undo(self, steps: int) -> None:
        """Take back the last `steps` steps in effect (never an undo of an undo: that would redo)."""
        path = history(self.table.snapshot.log, self.table.snapshot.version)  # oldest first, from version 0
        if not 1 <= steps <= len(path) - 1:
            return
        names = self.table.read.names
        by_version = {step.version: step for step in self.table.snapshot.log}
        last = step_label(by_version[path[-1]], names) if path[-1] in by_version else ""
        label = f"undo {last}" if steps == 1 else f"undo {steps} steps"
        self.table.undo_to(path[-(steps + 1)], label=label)

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
        words = "; ".join(available[:steps])
        self.confirm = Confirm(steps, _("Take back the last {n} steps ({steps})? Every phone at the table goes "
                                        "back.").format(n=steps, steps=words))
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
