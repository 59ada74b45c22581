"""The frame around every table screen: the status bar (connection, code, commands waiting) and where to go next.

When the rules stop at a prompt the app shows the prompt screen; when it is answered, the screen the player came
from comes back. A lost connection is shown, with how many commands wait to be resent.
"""

from __future__ import annotations

from dataclasses import dataclass

from .table import CONNECTING, LIVE, LOCAL, RECONNECTING, TableSession

TABS = (("posse", "Posse"), ("travel", "Travel"), ("town", "Town"), ("log", "Log"))


@dataclass(frozen=True, slots=True)
class StatusView:
    text: str
    tone: str  # ok | warn | error | info
    code: str
    version: str
    notice: str
    notice_tone: str
    prompt_badge: str  # a short "answer the prompt" reminder while one waits


class ShellPresenter:
    def __init__(self, table: TableSession) -> None:
        self.table = table
        self._prompt_id = ""
        self.back_to = "travel"

    def status(self) -> StatusView:
        table = self.table
        waiting = table.waiting
        status = table.status
        if status == LOCAL:
            text, tone = "Offline: kept on this phone", "info"
        elif status == LIVE:
            text, tone = "Live", "ok"
        elif status == CONNECTING:
            text, tone = "Connecting…", "warn"
        elif status == RECONNECTING:
            text, tone = "Connection lost: reconnecting…", "error"
        else:
            text, tone = status.capitalize(), "warn"
        if waiting and status != LOCAL:
            text += f" · {waiting} waiting to send"
        info = table.snapshot.table
        notice = table.notice
        prompt = table.snapshot.pending
        return StatusView(text, tone, info.code or info.session_id, f"v{table.snapshot.version}",
                          notice.text if notice else "", notice.level if notice else "",
                          "Answer: " + prompt.question if prompt is not None else "")

    def follow(self, current: str) -> str | None:
        """The screen to switch to after a change: the prompt screen for a new prompt, back once it is answered."""
        prompt = self.table.snapshot.pending
        pid = prompt.id if prompt is not None else ""
        if pid == self._prompt_id:
            return None
        self._prompt_id = pid
        if prompt is not None:
            if current != "dice":
                self.back_to = current
            return "dice" if current != "dice" else None
        return self.back_to if current == "dice" else None
