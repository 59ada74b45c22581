"""The frame around every table screen: the status bar, the tabs, and where to go next.

Screens are registered with the phases they serve (`PHASE_SCREENS`), so the screens of later phases (the Town
Stay, Adventures, Missions) are added by registering them, not by editing the navigation. When the rules stop at a
prompt this phone answers (its heroes', or the posse's), the app opens the prompt screen; other phones' prompts
show as a banner. A forced screen change is followed by a short tap lockout (`LOCKOUT`), so a tap meant for the old
screen does not land on the new one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import _
from .asking import question_text
from .table import CONNECTING, LIVE, LOCAL, RECONNECTING, TableSession

LOCKOUT = 0.3  # seconds of ignored taps after a screen change the player did not ask for


@dataclass(frozen=True, slots=True)
class ScreenSpec:
    """A table screen: its name, its tab (icon and label), and the phases it is the main screen of."""

    name: str
    label: str
    icon: str
    phases: tuple[str, ...] = ()
    tab_phases: tuple[str, ...] | None = None  # the phases its tab shows in; None: always, (): never (no tab)


SCREENS: list[ScreenSpec] = [
    ScreenSpec("posse", "Posse", "♞"),
    ScreenSpec("travel", "Road", "➜", ("between_adventures", "travel", "arrival")),
    ScreenSpec("dice", "Dice", "⚂"),
    ScreenSpec("town", "Town", "⌂", ("town",)),
    ScreenSpec("log", "Log", "≡"),
]
# The Town Stay, the Adventure and the odds: their tabs show only in their phases, so a phone keeps 6 tabs at most
LATER_PHASES = (
    ScreenSpec("stay", "Stay", "☗", ("town",), ("town",)),
    ScreenSpec("adventure", "Turn", "☠", ("adventure",), ("between_adventures", "adventure")),  # short: 6 tabs
    ScreenSpec("odds", "Odds", "%", (), ()),
)
PROMPT_SCREEN = "dice"


def register_screen(spec: ScreenSpec, *, before: str = "dice") -> None:
    """Add a screen (a later phase's: the Town Stay, an Adventure) to the tabs, before `before`."""
    at = next((i for i, s in enumerate(SCREENS) if s.name == before), len(SCREENS))
    SCREENS.insert(at, spec)


for _spec in LATER_PHASES:
    register_screen(_spec)


def tabs(phase: str) -> tuple[str, ...]:
    """The tabs shown in `phase`, in order (the prompt screen's included)."""
    return tuple(s.name for s in SCREENS if s.tab_phases is None or phase in s.tab_phases)


def phase_screen(phase: str) -> str:
    """The main screen of a phase: where the app returns once a prompt is answered."""
    return next((s.name for s in SCREENS if phase in s.phases), "travel")


# kept for callers that list the tabs
TABS = tuple((s.name, s.label) for s in SCREENS if s.name != PROMPT_SCREEN)


@dataclass(frozen=True, slots=True)
class StatusView:
    text: str
    tone: str  # ok | warn | error | info
    code: str
    version: str  # not shown to players (kept empty); the log numbers nothing either
    notice: str
    notice_tone: str
    prompt_badge: str  # a short "answer the prompt" reminder while one waits
    banner: str = ""  # another phone's prompt: who is answering what
    ask: bool = False  # the notice is a question (apply again?): yes/no buttons
    notice_rule: str = ""  # the rule behind the notice, for the "why?" toggle


class ShellPresenter:
    def __init__(self, table: TableSession) -> None:
        self.table = table
        # a table opened at a prompt opens on it (the app's `open_table`): that prompt is not new at the next change
        self._prompt_id = table.read.prompt.id if table.read.prompt is not None else ""
        self.back_to = "travel"

    def status(self) -> StatusView:
        table = self.table
        waiting = table.waiting
        status = table.status
        if status == LOCAL:
            text, tone = "Offline", "info"
        elif status == LIVE:
            text, tone = "Live", "ok"
        elif status == CONNECTING:
            text, tone = "Connecting…", "warn"
        elif status == RECONNECTING:
            text, tone = "Reconnecting…", "error"
        else:
            text, tone = status.capitalize(), "warn"
        if waiting and status != LOCAL:
            text += f" · {waiting} change{'s' if waiting != 1 else ''} waiting"
        info = table.snapshot.table
        notice = table.notice
        prompt = table.read.prompt
        badge = banner = ""
        if prompt is not None and table.is_mine(prompt):
            badge = _("Answer: {question}").format(question=question_text(prompt, table.hero_name))
        elif prompt is not None:
            banner = _("{who}'s phone is answering: {question}").format(
                who=table.hero_name(prompt.hero), question=question_text(prompt, table.hero_name))  # fmt: skip
        return StatusView(text, tone, info.code or info.session_id, "",
                          notice.text if notice else "", notice.level if notice else "", badge, banner,
                          bool(notice and notice.level == "ask"), notice.rule if notice else "")

    def follow(self, current: str) -> str | None:
        """The screen to switch to after a change: the prompt screen for a new prompt this phone answers, and back
        (to the phase's screen) once it is answered. Another phone's prompt moves nothing: a banner says it."""
        prompt = self.table.read.prompt
        pid = prompt.id if prompt is not None else ""
        if pid == self._prompt_id:
            return None
        self._prompt_id = pid
        if prompt is not None:
            if not self.table.is_mine(prompt):
                return None
            if current != PROMPT_SCREEN:
                self.back_to = current
            return PROMPT_SCREEN if current != PROMPT_SCREEN else None
        if current != PROMPT_SCREEN:
            return None
        home = phase_screen(self.table.read.phase.value)
        return home if self.back_to in (s.name for s in SCREENS if s.phases) else self.back_to

    def left_behind(self, current: str) -> str | None:
        """The phase's screen when the screen on show has no tab in this phase any more (the Stay once the posse
        left town), else None; tab-less screens (the odds) stay where they are."""
        spec = next((s for s in SCREENS if s.name == current), None)
        phase = self.table.read.phase.value
        if spec is None or not spec.tab_phases or phase in spec.tab_phases:
            return None
        return phase_screen(phase)

    @staticmethod
    def back(current: str, popup_open: bool) -> str | None:
        """What the Back key does: close a popup, else go to the phase's screen; None lets the system have it."""
        if popup_open:
            return "close_popup"
        if current in ("start",):
            return None
        return "home"


def host_call_label(table: TableSession) -> str:
    """The Table popup's button to call the event's host over: "" on a table kept on this phone (no host)."""
    if not table.can_call_host():
        return ""
    return _("The host is called: tap when they came") if table.host_called else _("Call the host")


def press_host_call(table: TableSession) -> None:
    if table.host_called:
        table.clear_host_call()
    else:
        table.call_host()
