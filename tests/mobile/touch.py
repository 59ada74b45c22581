"""A touch harness for the real app: builds BrimstoneApp in an offscreen window and drives it as a person would.

Taps go through Kivy's event loop onto the widget a person would press (touch down, a frame, touch up, the frames a
ScrollView waits before it passes a click on); text is typed into the real field the way the keyboard sends it.
Kivy's window is one per process, so a test runs a scenario in a child process: `python -m tests.mobile.touch NAME`
prints one JSON line with what the scenario saw.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class Harness:
    """The app on a 360x640 dp phone with the engine on the phone (offline), and the hands that use it."""

    def __init__(self, size: str = "phone") -> None:
        sys.path.insert(0, str(ROOT / "scripts"))
        from screenshots import _prepare_kivy

        _prepare_kivy(size)
        from kivy.app import App
        from kivy.base import EventLoop
        from kivy.core.window import Window
        from kivy.uix.screenmanager import NoTransition

        from mobile.app import BrimstoneApp
        from mobile.presenters.table import Worker, immediate

        self.window, self.event_loop = Window, EventLoop
        self.app = BrimstoneApp(data_dir=Path(tempfile.mkdtemp(prefix="brimstone-touch-")), worker=Worker(),
                                post=immediate)
        App._running_app = self.app  # what App.run() does; kv rules read `app`
        EventLoop.ensure_window()
        self.app.root = self.app.build()
        Window.add_widget(self.app.root)
        self.app.root.ids.screens.transition = NoTransition()
        self.taps = 0
        self.frames(4)

    def frames(self, count: int = 2) -> None:
        for _ in range(count):
            self.event_loop.idle()

    def walk(self, root: Any | None = None) -> Iterator[Any]:
        """Every widget in the window, popups first (they sit on top)."""
        stack = [root] if root is not None else list(self.window.children)
        while stack:
            widget = stack.pop(0)
            yield widget
            stack[:0] = list(reversed(widget.children))

    def find(self, match: Callable[[Any], bool], root: Any | None = None, what: str = "a widget") -> Any:
        for widget in self.walk(root):
            if match(widget):
                return widget
        raise LookupError(f"no {what} on the screen")

    def button(self, text: str, root: Any | None = None) -> Any:
        from kivy.uix.button import Button

        return self.find(lambda w: isinstance(w, Button) and w.text == text and not w.disabled, root,
                         f"button {text!r}")

    def tap(self, widget: Any) -> None:
        """A finger on the widget's centre: down, a frame, up, then the frames a ScrollView takes to pass it on."""
        import time

        from kivy.tests.common import UnitTestTouch

        self.into_view(widget)
        x, y = widget.to_window(*widget.center)
        assert 0 <= x < self.window.width and 0 <= y < self.window.height, f"{widget} is off the screen at {x},{y}"
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.frames(1)
        touch.touch_up()
        end = time.monotonic() + 0.25
        while time.monotonic() < end:
            self.frames(1)
        self.frames(2)
        self.taps += 1

    def into_view(self, widget: Any) -> None:
        """Scroll the screen until the widget shows, as a thumb would (each scrolling parent, innermost first)."""
        from kivy.uix.scrollview import ScrollView

        parent = widget.parent
        while parent is not None and parent is not self.window:
            if isinstance(parent, ScrollView):
                parent.scroll_to(widget, padding=10, animate=False)
                self.frames(2)
            parent = parent.parent

    def type_into(self, field: Any, text: str) -> None:
        """Keys on the phone's keyboard: each character as the keyboard sends it (replacing a selection)."""
        for char in text:
            field.keyboard_on_textinput(self.window, char)
        self.frames(1)

    def enter(self, field: Any) -> None:
        field.dispatch("on_text_validate")
        self.frames(2)
        self.taps += 1


def keypad(h: Harness) -> dict[str, Any]:
    """On a fresh install: tap the first hero's Gold and XP, type $415 and 90 on the keypad (neither is a step of
    the -/+ buttons), then a number past the sheet's bounds."""
    from mobile.app import NumberPopup
    from mobile.screens.widgets import StatStepper

    seen: dict[str, Any] = {}

    def stepper(label: str) -> Any:
        return h.find(lambda w: isinstance(w, StatStepper) and w.label == label, what=f"the {label} stat")

    def type_number(label: str, text: str) -> None:
        value = h.find(lambda w: w.__class__.__name__ == "Button" and w.parent is not None
                       and w.parent.parent is stepper(label) and w.text == stepper(label).value, what=label)
        h.tap(value)
        popup = h.find(lambda w: isinstance(w, NumberPopup), what="the keypad")
        seen.setdefault("titles", []).append(popup.title)
        h.type_into(popup.ids.field, text)
        h.tap(h.button("Set", popup))

    type_number("Gold", "415")
    type_number("XP", "90")
    seen["gold"], seen["xp"] = stepper("Gold").value, stepper("XP").value
    seen["drafted"] = [h.app.start.drafts[0].get("gold"), h.app.start.drafts[0].get("xp")]
    type_number("Max Grit", "9")
    seen["max_grit"] = stepper("Max Grit").value
    seen["message"] = h.app.start.message
    seen["taps"] = h.taps
    return seen


SCENARIOS: dict[str, Callable[[Harness], dict[str, Any]]] = {"keypad": keypad}


def main(argv: list[str]) -> int:
    result = SCENARIOS[argv[0]](Harness())
    print("RESULT " + json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
