"""Widget classes the `.kv` files need a Python side for: a stepper, die buttons, lines. Layout only."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.modalview import ModalView

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


def text_input(text: str = "", hint: str = "", kind: str = "DarkInput") -> Any:
    """An input already holding `text`, shown from its start (a TextInput created before it is laid out scrolls
    to keep its cursor in view at its first, narrow width, and would open with the text scrolled away). `kind`:
    "WrapInput" wraps the text and grows with it (a card's words, all in sight), "UrlInput" keeps an address on
    one line."""
    from kivy.factory import Factory

    widget = getattr(Factory, kind)(text=text, hint_text=hint)
    widget.cursor = (0, 0)
    widget.bind(width=lambda w, _width: setattr(w, "scroll_x", 0) if not w.focus else None)
    return widget


def add_other_actions(bar: Any, row: Any, actions: Any, do: Any, odds_fit: Any, show_odds: Any,
                      keep: Any = ()) -> None:
    """The Stay's and the Adventure's row under the main button: `keep` (buttons that stay in the bar), every other
    action, then "Our odds?" when an odds question fits the table now; the row goes in `bar` only when it holds a
    button. When the row would make the bar taller than a third of the screen, the other actions go behind
    "More…" (`keep_to_a_third`)."""
    from kivy.factory import Factory

    from ..i18n import _

    others = [Factory.DarkButton(text=action.label, disabled=not action.enabled,
                                 on_release=lambda *_a, a=action: do(a)) for action in actions]  # fmt: skip
    if odds_fit is not None and odds_fit() and show_odds is not None:
        others.append(Factory.DarkButton(text=_("Our odds?"), on_release=lambda *_a: show_odds()))
    for button in (*keep, *others):
        row.add_widget(button)
    if row.children:
        bar.add_widget(row)
        keep_to_a_third(bar, row, list(keep), others)


class MorePopup(ModalView):
    """The actions a pinned bar had no room for, as a list over the screen; a tap on one closes the list."""

    def __init__(self, buttons: list[Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for button in buttons:
            if button.parent is not None:  # the list opened before
                button.parent.remove_widget(button)
            self.ids.buttons.add_widget(button)
            button.bind(on_release=self._picked)

    def _picked(self, button: Any) -> None:
        button.unbind(on_release=self._picked)
        self.dismiss()


def keep_to_a_third(bar: Any, row: Any, keep: list[Any], others: list[Any]) -> None:
    """A pinned bar takes at most a third of the screen: when `row` makes it taller, `others` go behind one
    "More…" button that lists them, beside the buttons in `keep` (with text no larger than the bar's own, so they
    share one line); when that line is still too tall (large text on a small phone), `keep` goes behind "More…"
    too. Checked whenever the bar's height changes (its text is laid out after it is built)."""
    from kivy.core.window import Window
    from kivy.factory import Factory
    from kivy.metrics import dp, sp

    from ..i18n import _

    folded: list[Any] = []  # the line that replaced `row`, once the others are folded

    def more(buttons: list[Any]) -> Any:
        return Factory.DarkButton(text=_("More…"), font_size=min(sp(theme.BODY), dp(20)),
                                  on_release=lambda *_a: MorePopup(buttons).open())

    def fit(*_args: Any) -> None:
        if bar.height <= Window.height / 3:
            return
        if row in bar.children and len(others) + len(keep) >= 2 and (len(others) >= 2 or keep):
            at = bar.children.index(row)
            bar.remove_widget(row)
            row.clear_widgets()
            line = Factory.Row()
            for button in keep:
                button.font_size = min(sp(theme.BODY), dp(20))
                line.add_widget(button)
            line.add_widget(more(others))
            bar.add_widget(line, index=at)
            folded.append(line)
        elif folded and keep and folded[0] in bar.children and len(folded[0].children) > 1:
            line = folded[0]
            line.clear_widgets()
            line.add_widget(more([*keep, *others]))

    previous = getattr(bar, "_fit_to_a_third", None)
    if previous is not None:
        bar.unbind(height=previous)
    bar._fit_to_a_third = fit
    bar.bind(height=fit)
