"""Known layout faults laid out in a real Kivy window, for tests/mobile/test_render_check.py: each case is a small
widget tree built with the app's own kv rules (Page, PinnedBar, buttons), and the render check
(scripts/screenshots.py `layout_problems`) is run on it. Prints `RESULT {case: [findings]}`.

Run as `python -m tests.mobile.render_cases` (its own process: Kivy owns one window per process)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import screenshots  # noqa: E402

screenshots._prepare_kivy("small")  # 360x640 dp at density 2

from kivy.base import EventLoop  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.factory import Factory  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.metrics import dp  # noqa: E402
from kivy.uix.floatlayout import FloatLayout  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402
from kivy.uix.stencilview import StencilView  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

Builder.load_file(str(ROOT / "mobile" / "screens" / "widgets.kv"))


class Dial(Widget):
    """Takes taps itself, as the board does, without being a button."""

    def on_touch_down(self, touch: Any) -> bool:
        return bool(self.collide_point(*touch.pos))


class Spaces(Dial):
    """A board-like widget whose spaces are its tap targets."""

    def tap_targets(self) -> list[tuple[str, float, float]]:
        return [("a board space", dp(25), dp(25))]


def label(text: str, **kw: Any) -> Any:
    return Label(text=text, font_size=dp(16), size_hint=(None, None), **kw)


def overlap() -> Any:
    root = FloatLayout()
    root.add_widget(label("Undo: Bo Lantern", pos=(dp(20), dp(300)), size=(dp(200), dp(40))))
    root.add_widget(label("Undo: Ann Hawke", pos=(dp(20), dp(310)), size=(dp(200), dp(40))))
    return root


def covered_by_a_bar() -> Any:
    root = FloatLayout()
    root.add_widget(label("The Depth Track", pos=(dp(20), dp(20)), size=(dp(200), dp(40))))
    bar = Factory.PinnedBar(size_hint=(1, None), pos=(0, 0))
    bar.add_widget(Factory.PrimaryButton(text="End the turn"))
    root.add_widget(bar)
    return root


def small_button() -> Any:
    root = FloatLayout()
    root.add_widget(Factory.DarkButton(text="+", size_hint=(None, None), size=(dp(30), dp(30)), pos=(dp(20), dp(20))))
    return root


def small_touch_widget() -> Any:
    root = FloatLayout()
    root.add_widget(Dial(size_hint=(None, None), size=(dp(20), dp(20)), pos=(dp(20), dp(20))))
    return root


def small_board_spaces() -> Any:
    root = FloatLayout()
    root.add_widget(Spaces(size_hint=(None, None), size=(dp(300), dp(300)), pos=(dp(20), dp(20))))
    return root


def clipped_label() -> Any:
    root = FloatLayout()
    box = StencilView(size_hint=(None, None), size=(dp(200), dp(12)), pos=(dp(20), dp(300)))
    box.add_widget(label("Reach town with", size=(dp(200), dp(40)), pos=(dp(20), dp(286))))
    root.add_widget(box)
    return root


def scrolled_without_a_hint() -> Any:
    root = FloatLayout()
    view = ScrollView(size_hint=(None, None), size=(dp(300), dp(100)), pos=(dp(20), dp(300)), bar_width=0)
    view.add_widget(column("Cross the ford", "Go around", "Wait", "Turn back"))
    root.add_widget(view)
    return root


def scrolled_with_a_hint() -> Any:
    root = FloatLayout()
    view = Factory.Page(size_hint=(None, None), size=(dp(300), dp(100)), pos=(dp(20), dp(300)))
    view.add_widget(column("Cross the ford", "Go around", "Wait", "Turn back"))
    root.add_widget(view)
    return root


def column(*texts: str) -> Any:
    box = Factory.Column()
    for text in texts:
        box.add_widget(Factory.DarkButton(text=text))
    return box


def shortened() -> Any:
    root = FloatLayout()
    root.add_widget(Label(text="Gambling Hall", shorten=True, font_size=dp(16), size_hint=(None, None),
                          size=(dp(60), dp(48)), text_size=(dp(60), None), pos=(dp(20), dp(20))))
    return root


def tall_pinned_bar() -> Any:
    root = Factory.BoxLayout(orientation="vertical")
    root.add_widget(Factory.Page())
    bar = Factory.PinnedBar()
    for text in ("End the activation", "Attack", "Move", "Enemies arrive", "Board", "Our odds?"):
        bar.add_widget(Factory.DarkButton(text=text, height=dp(60)))
    root.add_widget(bar)
    return root


def clean() -> Any:
    root = Factory.BoxLayout(orientation="vertical")
    page = Factory.Page()
    page.add_widget(column("Cross the ford", "Go around"))
    root.add_widget(page)
    bar = Factory.PinnedBar()
    bar.add_widget(Factory.PrimaryButton(text="End the turn"))
    root.add_widget(bar)
    return root


CASES = {name: build for name, build in globals().items() if name in (
    "overlap", "covered_by_a_bar", "small_button", "small_touch_widget", "small_board_spaces", "clipped_label",
    "scrolled_without_a_hint", "scrolled_with_a_hint", "shortened", "tall_pinned_bar", "clean")}


def main() -> None:
    EventLoop.ensure_window()
    found = {}
    for name, build in CASES.items():
        tree = build()
        Window.add_widget(tree)
        for _ in range(6):
            Clock.tick()
        found[name] = screenshots.layout_problems(Window, name)
        Window.remove_widget(tree)
    print("RESULT " + json.dumps(found))


if __name__ == "__main__":
    main()
