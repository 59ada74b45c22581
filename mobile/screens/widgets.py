"""Widget classes the `.kv` files need a Python side for: a stepper, die buttons, lines. Layout only."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button

from .. import theme


class Stepper(BoxLayout):
    """A label, a value and -/+ buttons; `on_step(direction)` fires on each tap."""

    label = StringProperty("")
    value = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        self.register_event_type("on_step")
        super().__init__(**kwargs)

    def on_step(self, direction: int) -> None:
        pass


class DieButton(Button):
    """A die as it lies on the table: its colour, its face (or ?), selected or not."""

    die_colour = StringProperty("white")
    face = NumericProperty(0)
    selected = BooleanProperty(False)
    caption = StringProperty("")
    marked = StringProperty("")  # "success" | "fail" | "locked" | ""
    mark = StringProperty("")  # ✓ or ✗ beside the colour, for players who cannot tell green from red
    face_rgba = ListProperty(list(theme.DIE_FACE["white"]))
    pip_rgba = ListProperty(list(theme.ON_ACCENT))

    def on_die_colour(self, *_: Any) -> None:
        face, pips = theme.die_colours(self.die_colour)
        self.face_rgba, self.pip_rgba = list(face), list(pips)


class StatStepper(BoxLayout):
    """A stat on the start screen: its name above, -/value/+ below; `minus`/`plus` are called on taps, `typed` on
    a tap on the value (the keypad)."""

    label = StringProperty("")
    value = StringProperty("")
    minus = ObjectProperty(None, allownone=True)
    plus = ObjectProperty(None, allownone=True)
    typed = ObjectProperty(None, allownone=True)


class HazardLine(BoxLayout):
    number = StringProperty("")
    roller = StringProperty("")
    result = StringProperty("")
    state = StringProperty("")


class SlotLine(BoxLayout):
    number = StringProperty("")
    location = StringProperty("")
    destroyed = BooleanProperty(False)


def text_input(text: str = "", hint: str = "") -> Any:
    """A one-line input already holding `text`, shown from its start (a TextInput created before it is laid out
    scrolls to keep its cursor in view at its first, narrow width, and would open with the text scrolled away)."""
    from kivy.factory import Factory

    widget = Factory.DarkInput(text=text, hint_text=hint)
    widget.cursor = (0, 0)
    widget.bind(width=lambda w, _width: setattr(w, "scroll_x", 0) if not w.focus else None)
    return widget


def add_other_actions(bar: Any, row: Any, actions: Any, do: Any, odds_fit: Any, show_odds: Any) -> None:
    """The Stay's and the Adventure's row under the main button: every other action, then "Our odds?" when an odds
    question fits the table now; the row goes in `bar` only when it holds a button."""
    from kivy.factory import Factory

    from ..i18n import _

    for action in actions:
        row.add_widget(Factory.DarkButton(text=action.label, disabled=not action.enabled,
                                          on_release=lambda *_a, a=action: do(a)))  # fmt: skip
    if odds_fit is not None and odds_fit() and show_odds is not None:
        row.add_widget(Factory.DarkButton(text=_("Our odds?"), on_release=lambda *_a: show_odds()))
    if row.children:
        bar.add_widget(row)
