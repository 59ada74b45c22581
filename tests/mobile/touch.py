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
        from kivy.uix.screenmanager import Screen

        stack = [root] if root is not None else list(self.window.children)
        while stack:
            widget = stack.pop(0)
            if isinstance(widget, Screen) and widget.manager is not None and widget.manager.current != widget.name:
                continue  # a screen on its way out: not where a finger lands
            yield widget
            stack[:0] = list(reversed(widget.children))

    def find(self, match: Callable[[Any], bool], root: Any | None = None, what: str = "a widget") -> Any:
        for widget in self.walk(root):
            if match(widget):
                return widget
        shown = [w.text for w in self.walk() if w.__class__.__name__.endswith("Button") and getattr(w, "text", "")]
        raise LookupError(f"no {what} on the screen; the buttons: {shown}")

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


def _adventure_table(h: Harness) -> Any:
    """An offline table in turn 1 of Lost Contact with one hero of each class, opened on the phone as a player
    reopens a saved table (the posse and the set-up are other scenarios' business)."""
    from dataclasses import replace

    from mobile.client import OfflineBackend
    from mobile.presenters.table import TableSession
    from shared_rules import Hero, RollDice, RuleOptions
    from shared_rules.commands import SheetEntry, StartAdventure
    from shared_rules.state import SpaceMark, TrackSpace

    heroes = [replace(Hero("ann", "Ann"), hero_class="Samurai Warrior"),
              replace(Hero("bo", "Bo"), hero_class="Sorceress"),
              replace(Hero("cy", "Cy", wounds=2), hero_class="Traveling Monk"),
              replace(Hero("di", "Di"), hero_class="Assassin")]  # fmt: skip
    backend = OfflineBackend(h.app.data_dir / "tables")
    backend.create(heroes, RuleOptions(dice="table"), seed=3)
    track = tuple(TrackSpace(n, 1 if n >= 8 else 3 if n < 4 else 2, SpaceMark.NONE) for n in range(12))
    sheets = (SheetEntry("ann", initiative=6, max_fury=3), SheetEntry("bo", initiative=5, mana=3),
              SheetEntry("cy", initiative=3, max_ki=3), SheetEntry("di", initiative=2))  # fmt: skip
    snapshot = backend.submit(StartAdventure("ann", "lost_contact", "", track, sheets), "start")
    while snapshot.pending is not None:  # the set-up's own rolls (the Sorceress's Arcane Powder): the app's dice
        snapshot = backend.submit(RollDice(), f"setup-{snapshot.version}")
    table = TableSession(backend, snapshot, worker=h.app._worker, post=h.app._post)
    table.start()
    h.app.open_table(table)
    h.frames(4)
    return table


def _settle(h: Harness) -> None:
    """Until the taps a screen change drops (the first moments after it) land again: the app's own lock."""
    from kivy.clock import Clock

    frame = h.app.frame
    while frame is not None and (Clock.get_boottime() < frame.locked_until
                                 or frame.ids.screens.transition.is_active):
        h.frames(1)
    h.frames(3)  # the screen drawn again after the change is laid out


def _on(h: Harness, screen: str) -> None:
    """The screen a player would look at: its tab, if the app is not already there."""
    _settle(h)
    if h.app.frame is not None and h.app.frame.current != screen:
        tab = h.find(lambda w: w.__class__.__name__ == "TabButton" and w.screen == screen, what=f"the {screen} tab")
        h.tap(tab)


def _starting(h: Harness, prefix: str, root: Any | None = None) -> Any:
    from kivy.uix.button import Button

    return h.find(lambda w: isinstance(w, Button) and w.text.startswith(prefix) and not w.disabled, root,
                  f"a button {prefix!r}…")


def _popup(h: Harness, name: str) -> Any:
    return h.find(lambda w: w.__class__.__name__ == name, what=f"the {name}")


def _answer(h: Harness, count: str | None = None) -> None:
    """The prompt on the Dice screen: how many dice showed the target (one tap), or "Roll for me"."""
    _settle(h)
    assert h.app.frame is not None and h.app.frame.current == "dice", h.app.frame.current if h.app.frame else None
    if count is not None:
        h.tap(h.find(lambda w: w.__class__.__name__ == "CountButton" and w.text == count, what=f"the count {count}"))
    else:
        h.tap(h.button("Roll for me"))
    _settle(h)
    table = h.app.table
    if table is not None and table.snapshot.pending is not None and table.snapshot.pending.kind.value == "reroll":
        h.tap(_starting(h, "Keep the dice"))  # the Grit re-roll the rules offer on a missed die: kept
        _settle(h)


def adventure(h: Harness) -> dict[str, Any]:
    """A Fight on the phone: an enemy's strikes on a hero and her Defense save on the Dice screen, a hero's Attack
    with its Hits, each class's ability from the hero cards (Fury and a Battle Tactic, a Spell, Ki, the Shuriken),
    then undo and redo on the Log, and the Table popup of an offline table (no host to call)."""
    table = _adventure_table(h)
    seen: dict[str, Any] = {"taps": {}}

    def state() -> Any:
        return table.snapshot.state

    def count(name: str, start: int) -> None:
        seen["taps"][name] = h.taps - start

    _on(h, "adventure")
    h.tap(h.button("Enemies arrive…"))
    popup = _popup(h, "EnemyPopup")
    h.type_into(popup.ids.name, "Goblin")
    h.type_into(popup.ids.health, "3")
    h.type_into(popup.ids.initiative, "7")
    h.tap(h.button("Put them on the board", popup))
    for face in (3, 5):  # Hold Back the Darkness from the table's two dice: 8, held (7+)
        h.tap(h.find(lambda w, f=face: w.__class__.__name__ == "PadButton" and w.face == f, what=f"the die {face}"))
    seen["enemies"] = [f.name for f in state().adventure.enemies]

    start = h.taps  # the Goblin (Initiative 7) strikes Ann twice; she saves one on the Dice screen
    h.tap(_starting(h, "Goblin activates"))
    h.tap(h.button("Ann: 2 Hits", _popup(h, "ChoicePopup")))
    seen["save_prompt"] = table.snapshot.pending.question if table.snapshot.pending else ""
    _answer(h, "1")
    count("enemy_strike", start)
    seen["ann_wounds"] = state().hero("ann").wounds

    _on(h, "adventure")
    h.tap(_starting(h, "Activate Ann"))
    _answer(h)  # her Move roll: "Roll for me"
    _on(h, "adventure")
    h.tap(h.button("+1 Fury"))
    h.tap(h.button("Use a Battle Tactic…"))
    form = _popup(h, "FormPopup")
    h.type_into(form.inputs["name"], "Flashing Steel")
    h.tap(h.button("Use it", form))
    seen["tactics"] = list(state().adventure.hero("ann").tactics_used)
    seen["fury_after_tactic"] = state().adventure.hero("ann").fury

    start = h.taps  # her Attack: one Hit of damage 4 on the Goblin (Health 3)
    h.tap(h.button("Attack Goblin"))
    h.tap(h.button("Damage 4", _popup(h, "ChoicePopup")))
    count("hero_attack", start)
    seen["after_attack"] = [f.name for f in state().adventure.enemies]
    seen["fury_after_attack"] = state().adventure.hero("ann").fury

    h.tap(_starting(h, "Activate Bo"))
    _answer(h)
    _on(h, "adventure")
    h.tap(h.button("Cast a Spell…"))
    form = _popup(h, "FormPopup")
    h.type_into(form.inputs["name"], "Blinding Light")
    h.tap(h.button("Cast it", form))
    if table.snapshot.pending is not None:  # the Casting Roll
        _answer(h)
    seen["spells"] = list(state().adventure.hero("bo").spells_cast)
    seen["mana"] = state().adventure.hero("bo").mana
    _on(h, "adventure")
    h.tap(_starting(h, "End Bo's activation"))

    h.tap(h.button("1 Ki: heal Cy's Wounds"))
    seen["cy"] = [state().hero("cy").wounds, state().adventure.hero("cy").ki]
    h.tap(_starting(h, "Activate Cy"))
    _answer(h)
    _on(h, "adventure")
    h.tap(_starting(h, "End Cy's activation"))

    h.tap(h.button("Enemies arrive…"))
    popup = _popup(h, "EnemyPopup")
    h.type_into(popup.ids.name, "Bat")
    h.type_into(popup.ids.health, "4")
    h.type_into(popup.ids.initiative, "1")
    h.tap(h.button("Put them on the board", popup))
    h.tap(_starting(h, "Activate Di"))
    _answer(h)
    _on(h, "adventure")
    start = h.taps
    h.tap(h.button("Shuriken at Bat"))
    h.tap(h.button("Damage 3", _popup(h, "ChoicePopup")))
    count("shuriken", start)
    seen["bat_wounds"] = state().adventure.enemies[0].wounds
    seen["shuriken"] = state().adventure.hero("di").shuriken_thrown

    _on(h, "log")
    undo = h.app.screens["log"].ids.undo
    seen["undo_label"] = undo.text
    h.tap(undo)
    seen["after_undo"] = [state().adventure.hero("di").shuriken_thrown, state().adventure.enemies[0].wounds]
    redo = h.app.screens["log"].ids.redo
    seen["redo_label"] = redo.text
    h.tap(redo)
    seen["after_redo"] = [state().adventure.hero("di").shuriken_thrown, state().adventure.enemies[0].wounds]
    seen["redo_after"] = h.app.screens["log"].ids.redo.text

    h.app.show_table_info()
    h.frames(2)
    info = _popup(h, "InfoPopup")
    seen["host_button"] = any(getattr(w, "text", "").startswith(("Call the host", "The host is called"))
                              for w in h.walk(info))
    info.dismiss()
    seen["commands"] = sorted({step.command for step in table.snapshot.log})
    seen["total_taps"] = h.taps
    return seen


SCENARIOS: dict[str, Callable[[Harness], dict[str, Any]]] = {"keypad": keypad, "adventure": adventure}


def main(argv: list[str]) -> int:
    result = SCENARIOS[argv[0]](Harness())
    print("RESULT " + json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
