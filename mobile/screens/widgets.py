"""Widget classes the `.kv` files need a Python side for: a stepper, die buttons, hero cards. Layout only."""

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
    face_rgba = ListProperty(list(theme.DIE_FACE["white"]))
    pip_rgba = ListProperty(list(theme.ON_ACCENT))

    def on_die_colour(self, *_: Any) -> None:
        face, pips = theme.die_colours(self.die_colour)
        self.face_rgba, self.pip_rgba = list(face), list(pips)


class StatTileWidget(BoxLayout):
    """One number on a hero card; the card's presenter is called on -/+."""

    tile = ObjectProperty(None, allownone=True)
    hero_id = StringProperty("")
    presenter = ObjectProperty(None, allownone=True)

    def step(self, direction: int) -> None:
        if self.presenter is not None and self.tile is not None:
            self.presenter.adjust(self.hero_id, self.tile.key, direction)


class HeroCardWidget(BoxLayout):
    """A hero card: header, the stat tiles (kept and updated in place), the Side Bag and Mutations rows."""

    card = ObjectProperty(None, allownone=True)
    presenter = ObjectProperty(None, allownone=True)
    on_list = ObjectProperty(None, allownone=True)  # callback(hero_id, kind): open the tokens/mutations editor

    def on_card(self, *_: Any) -> None:
        grid = self.ids.tiles
        card = self.card
        if card is None:
            grid.clear_widgets()
            return
        tiles = list(reversed(grid.children))
        if len(tiles) != len(card.tiles):
            grid.clear_widgets()
            tiles = []
            for _ in card.tiles:
                widget = StatTileWidget(presenter=self.presenter)
                grid.add_widget(widget)
                tiles.append(widget)
        for widget, tile in zip(tiles, card.tiles, strict=True):
            widget.hero_id = card.hero_id
            widget.presenter = self.presenter
            widget.tile = tile

    def open_list(self, kind: str) -> None:
        if self.on_list is not None and self.card is not None:
            self.on_list(self.card.hero_id, kind)


class StatStepper(BoxLayout):
    """A stat on the start screen: its name above, -/value/+ below; `minus`/`plus` are called on taps."""

    label = StringProperty("")
    value = StringProperty("")
    minus = ObjectProperty(None, allownone=True)
    plus = ObjectProperty(None, allownone=True)


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
