"""A touch harness for the real app: builds BrimstoneApp in an offscreen window and drives it as a person would.

Taps go through Kivy's event loop onto the widget a person would press (touch down, a frame, touch up, the frames a
ScrollView waits before it passes a click on); text is typed into the real field the way the keyboard sends it.
Kivy's window is one per process, so a test runs a scenario in a child process: `python -m tests.mobile.touch NAME`
prints one JSON line with what the scenario saw.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class Harness:
    """The app on a 360x640 dp phone with the engine on the phone (offline), and the hands that use it."""

    def __init__(self, size: str = "touch") -> None:
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
        self.keys = 0  # keys pressed on the phone's keyboard (letters, digits, its enter key)
        self.trace = bool(os.environ.get("BRIMSTONE_TRACE"))  # each tap on stderr, to follow a long scenario
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
        """The enabled button that says `text`; when it is not on the screen but a pinned bar's "More…" is, the
        finger opens "More…" first (a counted tap, as a person's) and finds it in the list."""
        from kivy.uix.button import Button

        def says(wanted: str) -> Callable[[Any], bool]:
            return lambda w: isinstance(w, Button) and w.text == wanted and not w.disabled

        try:
            return self.find(says(text), root, f"button {text!r}")
        except LookupError:
            if root is not None or text == "More…":
                raise
            try:
                more = self.find(says("More…"), None, "More…")
            except LookupError:
                pass
            else:
                self.tap(more)
                self.frames(2)
            return self.find(says(text), None, f"button {text!r}")

    def tap(self, widget: Any) -> None:
        """A finger on the widget's centre: down, a frame, up, then the frames a ScrollView takes to pass it on."""
        import time

        from kivy.tests.common import UnitTestTouch

        self.into_view(widget)
        x, y = self.settled_at(widget)
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
        if self.trace:
            print(f"tap {self.taps}: {widget.__class__.__name__} {str(getattr(widget, 'text', ''))[:30]!r}",
                  file=sys.stderr, flush=True)

    def settled_at(self, widget: Any) -> tuple[float, float]:
        """Where the widget's centre is once the layout has stopped moving it (a screen just rebuilt lays out over
        a few frames; a finger lands where the eye sees the button)."""
        where = widget.to_window(*widget.center)
        for _ in range(30):
            self.frames(1)
            now = widget.to_window(*widget.center)
            if now == where:
                break
            where = now
        assert widget.get_root_window() is not None, f"{widget} left the screen before the tap"
        return where

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
        self.keys += len(text)
        self.frames(1)

    def until(self, done: Callable[[], bool], what: str, seconds: float = 30) -> None:
        """Frames until `done()` (a popup's closing animation, a command's round trip), within a deadline."""
        import time

        end = time.monotonic() + seconds
        while not done():
            if time.monotonic() > end:
                raise TimeoutError(f"waited {seconds}s for {what}")
            self.frames(1)

    def press_enter(self, field: Any) -> None:
        """The keyboard's enter (or Next) key on the focused field: a key, not a touch on the screen."""
        field.dispatch("on_text_validate")
        self.frames(2)
        self.keys += 1

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

    # the save undone on the Log and typed again, now with the Grit re-roll asked for though one die saved
    _on(h, "log")
    seen["undo_save"] = h.app.screens["log"].ids.undo.text
    h.tap(h.app.screens["log"].ids.undo)
    _on(h, "dice")
    h.tap(h.find(lambda w: "☐" in str(getattr(w, "text", "")) and "with Grit even if some hit" in w.text,
                 what="the Grit re-roll asked for"))
    _settle(h)
    seen["grit_asked"] = ["☑" in w.text for w in h.walk(h.app.screens["dice"])
                          if "with Grit even" in str(getattr(w, "text", ""))]
    h.tap(h.find(lambda w: w.__class__.__name__ == "CountButton" and w.text == "1", what="the count 1"))
    _settle(h)
    seen["grit_offer"] = table.snapshot.pending.kind.value if table.snapshot.pending else ""
    h.tap(h.find(lambda w: w.__class__.__name__ == "CountButton" and w.text == "1",
                 h.app.screens["dice"].ids.body, "1 hit after the re-roll"))  # the miss re-rolled: saved
    _settle(h)
    seen["second_save"] = [state().hero("ann").wounds, state().hero("ann").grit]

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



# ---- a four-hero mid-campaign posse, typed in ----------------------------------------------------------------------
PACK_FILE = ROOT / "tests" / "mobile" / "data" / "table_pack.json"
CAMPAIGN = ("level", "gold", "xp", "grit", "wounds", "sanity_damage", "corruption", "dark_stone")
POSSE = (("Wes", "U.S. Marshal", ("Horse", "transport")), ("Belle", "Saloon Girl", ("Lucky Charm", "personal")),
         ("Rico", "Bandido", ("Duster", "clothing")), ("Kit", "Gunslinger", ("Pocket Watch", "personal")))


def posse_sheets(seed: int) -> list[dict[str, int]]:
    """Four heroes a few Adventures in: the class sheets' numbers (from the test pack) and seeded campaign numbers."""
    import random

    from mobile.presenters.start import pack_stats
    from shared_rules.content import load_pack

    pack = load_pack(json.loads(PACK_FILE.read_text(encoding="utf-8")))
    dice = random.Random(seed)
    sheets = []
    for _name, hero_class, _item in POSSE:
        stats = pack.hero_classes[hero_class]
        sheet = {k: int(stats[k]) for k in ("health", "sanity", "max_grit", "defense", "willpower")}
        sheet |= {k: int(v) for k, v in stats["skills"].items()}
        sheet |= {"level": dice.randint(2, 4), "gold": dice.randrange(0, 900, 5), "xp": dice.randrange(0, 1200, 5),
                  "grit": dice.randint(0, 2), "wounds": dice.randint(0, 5), "sanity_damage": dice.randint(0, 5),
                  "corruption": dice.randint(0, 3), "dark_stone": dice.randint(0, 4)}
        sheets.append(sheet)
    assert pack_stats("U.S. Marshal", "default") == {}  # without the pack the built-in sheets have no numbers
    return sheets


def enter_posse(h: Harness, seed: int, with_pack: bool) -> dict[str, Any]:
    """On a fresh install, offline: (with the pack file in the app's folder: one tap takes it in) each hero's name,
    class from the list, every number the sheet and the campaign give typed on the keypad (the keyboard's enter goes
    to the next number), one item with its keyword; then the table opens. Taps on the screen and keys apart."""
    import shutil

    from mobile.app import NumberPopup
    from mobile.presenters.start import DRAFT_STATS, tag_word

    sheets = posse_sheets(seed)
    start = h.app.screens["start"]
    if with_pack:  # the pack file copied to the phone (a cable, a download) sits in the app's folder
        shutil.copy(PACK_FILE, h.app.data_dir / "table_pack.json")
        start.refresh()
        h.frames(2)
    h.taps = h.keys = 0
    h.tap(h.button("Offline"))
    if with_pack:
        h.tap(h.button("Take in table_pack.json"))
    presenter = h.app.start
    assert presenter is not None

    def card(index: int) -> Any:
        cards = [w for w in h.walk(start) if w.__class__.__name__ == "Card"]
        return cards[index]

    for index, ((name, hero_class, (item, tag)), sheet) in enumerate(zip(POSSE, sheets, strict=True)):
        if index:
            h.tap(h.button("Add a hero"))
            h.frames(2)
        field = h.find(lambda w, n=index + 1: getattr(w, "hint_text", "") == f"Hero {n} name", card(index), "the name")
        if not field.focus:
            h.tap(field)
        h.type_into(field, name)
        h.tap(h.find(lambda w: w.__class__.__name__ == "DarkSpinner" or getattr(w, "text", "") == "Pick a class",
                     card(index), "the class list"))
        h.tap(h.button(hero_class))
        popup = h.find(lambda w: isinstance(w, NumberPopup), what="the keypad")  # opened on the first number left
        for key in presenter.number_order(index):
            label = next(lbl for k, lbl, *_ in DRAFT_STATS if k == key)
            assert popup.title == label, (popup.title, label)
            if str(presenter.drafts[index].get(key)) != str(sheet[key]):
                h.type_into(popup.ids.field, str(sheet[key]))
            h.press_enter(popup.ids.field)
        h.until(lambda p=popup: p.parent is None, "the keypad to close after the last number")
        chip = tag_word(tag)  # the chip reads as the card prints the keyword
        h.tap(h.find(lambda w, t=chip: w.__class__.__name__ == "ToggleButton" and w.text == t, card(index), tag))
        field = h.find(lambda w: getattr(w, "hint_text", "") == "Item name (enter adds it)", card(index), "item")
        h.tap(field)
        h.type_into(field, item)
        h.press_enter(field)
    taps, keys = h.taps, h.keys
    h.tap(h.button("Play offline (kept on this phone)"))
    h.frames(4)
    assert h.app.table is not None, h.app.start.message
    heroes = h.app.table.heroes()
    wanted = [(n, c, [s[k] for k in CAMPAIGN] + [s["health"], s["luck"]], [i]) for (n, c, (i, _t)), s
              in zip(POSSE, sheets, strict=True)]
    got = [(x.name, x.hero_class, [getattr(x, k) for k in CAMPAIGN] + [x.health_base, x.skills.luck],
            [i.name for i in x.items]) for x in heroes]
    assert got == wanted, (got, wanted)
    return {"taps": taps + 1, "keys": keys, "tags": [sorted(t.value for t in x.items[0].tags) for x in heroes],
            "keywords": [list(x.keywords) for x in heroes], "pack": h.app.table.snapshot.state.pack}


def posse(h: Harness) -> dict[str, Any]:
    """The posse without a pack, then (the table left) the same posse again with the pack's class sheets."""
    without = enter_posse(h, 1, with_pack=False)
    h.app.leave_table()
    h.frames(2)
    presenter = h.app.start
    assert presenter is not None
    presenter.drafts = presenter.drafts[:1]  # a fresh start screen (the app opened again)
    presenter.drafts = (type(presenter.drafts[0])(),)
    presenter.changed()
    h.frames(2)
    with_pack = enter_posse(h, 1, with_pack=True)
    return {"without_pack": without, "with_pack": with_pack}


# ---- plays with physical dice: the hands at the table ---------------------------------------------------------------
class Hands:
    """A player at the table: rolls physical dice (a seeded generator stands in for them), decides as the engine's
    default policy would, and touches the buttons the screens offer for it (through the Harness, so every touch is
    counted). A tap waits out the lockout after a screen change the player did not ask for, as a person does."""

    def __init__(self, h: Harness, seed: int) -> None:
        import random

        self.h, self.dice = h, random.Random(seed)
        self.prompts = 0

    @property
    def table(self) -> Any:
        return self.h.app.table

    def wait(self, done: Callable[[], bool], what: str, seconds: float = 30) -> None:
        import time

        end = time.monotonic() + seconds
        while not done():
            if time.monotonic() > end:
                travel = self.h.app.presenters.get("travel")
                pending = self.table.snapshot.pending
                raise TimeoutError(f"waited {seconds}s for {what}; notice: {self.table.notice}; screen "
                                   f"{self.h.app.frame.current}; prompt {pending.question if pending else None}; "
                                   f"D36 {getattr(travel, 'tens', None)}{getattr(travel, 'ones', None)} "
                                   f"sending {getattr(travel, 'sending', None)}; taps {self.h.taps}")
            self.h.frames(1)

    def tap(self, widget: Any) -> None:
        from kivy.clock import Clock

        frame = self.h.app.frame
        self.wait(lambda: Clock.get_boottime() >= frame.locked_until, "the tap lockout")
        self.h.tap(widget)

    def screen(self, name: str) -> Any:
        manager = self.h.app.frame.ids.screens
        self.wait(lambda: self.h.app.frame.current == name and manager.current == name
                  and not manager.transition.is_active and len(manager.children) == 1, f"the {name} screen")
        self.h.frames(2)
        return self.h.app.screens[name]

    def roll(self, kind: Any, count: int) -> list[int]:
        from shared_rules import DieKind
        from shared_rules.dice import PERIL_FACES, die_count

        if kind is DieKind.PERIL:
            return [self.dice.choice(PERIL_FACES) for _ in range(count)]
        if kind is DieKind.D8:
            return [self.dice.randint(1, 8) for _ in range(count)]
        n = die_count(kind, count) if kind is not DieKind.POOL else count
        return [self.dice.randint(1, 6) for _ in range(n)]

    def settled(self) -> bool:
        """Nothing on its way: no command waiting, no faces in their send window."""
        table = self.table
        dice = self.h.app.presenters.get("dice")
        return not table.outbox and not getattr(getattr(dice, "view", lambda: None)(), "sending", False)

    def answer_all(self, limit: int = 60) -> None:
        """Every prompt this phone gets, answered on the Dice screen as a player would."""
        for _ in range(limit):
            self.wait(lambda: self.table.snapshot.pending is None or self.h.app.frame.current == "dice",
                      "the Dice screen for the prompt")
            prompt = self.table.snapshot.pending
            if prompt is None:
                return
            version = self.table.snapshot.version
            self.answer(prompt)
            self.wait(lambda v=version: self.table.snapshot.version != v, f"the answer to {prompt.question!r}")
        raise RuntimeError("too many prompts")

    def answer(self, prompt: Any) -> None:
        from mobile.presenters.reading import test_target
        from shared_rules import DieKind
        from shared_rules.flow import ChoiceRequest, Ctx, RerollRequest
        from shared_rules.simulate import default_policy

        self.prompts += 1
        screen = self.screen("dice")
        if self.h.trace:
            print(f"prompt {prompt.kind}: {prompt.question}", file=sys.stderr, flush=True)
        h, vm = self.h, screen.vm
        body, actions = screen.ids.body, screen.ids.actions

        def count(n: int) -> Any:
            return h.find(lambda w: w.__class__.__name__ == "CountButton" and w.text == str(n), body, f"count {n}")

        if prompt.kind == "roll":
            faces = self.roll(prompt.die, prompt.dice_count)
            entry = vm.roll
            target = test_target(prompt) if prompt.die is DieKind.POOL else 0
            if entry.posse:  # a test every hero takes in turn: mark who failed, then one tap sends everyone's
                for index, row in enumerate(entry.posse):
                    rolled = faces if index == 0 else self.roll(DieKind.POOL, row.dice)
                    if not any(f >= target for f in rolled):
                        marks = [w for w in h.walk(body) if w.__class__.__name__ == "DarkButton"
                                 and str(w.text).startswith(("Passed", "Failed"))]
                        self.tap(marks[index])
                        screen = self.screen("dice")
                        body, actions = screen.ids.body, screen.ids.actions
                self.tap(h.find(lambda w: w.__class__.__name__ == "PrimaryButton"
                                and str(w.text).startswith(("Everyone passed", "Send:")), actions, "send everyone's"))
                return
            if entry.ones:  # the rule counts the 1s too: how many hit, then how many show 1 (two taps)
                for row, n in ((0, sum(1 for f in faces if f >= target)), (1, sum(1 for f in faces if f == 1))):
                    counts = [w for w in h.walk(self.screen("dice").ids.body) if w.__class__.__name__ == "CountButton"]
                    self.tap(counts[row * len(entry.hits) + n])
                return
            if entry.hits and target:
                self.tap(count(sum(1 for f in faces if f >= target)))
            elif entry.card_totals:  # the card read next changes nothing (the policy's card): one tap for both
                buttons = [w for w in h.walk(body) if w.__class__.__name__ == "CountButton"]
                self.tap(buttons[len(entry.totals) + entry.card_totals.index(sum(faces))])
            elif entry.totals:
                self.tap(count(sum(faces)))
            else:
                for face in faces:  # a tap per die; the last sends by itself after the short window
                    self.tap(h.find(lambda w, f=face: w.__class__.__name__ == "PadButton" and w.face == f,
                                    body, f"face {face}"))
            return
        state = self.table.snapshot.state
        ctx = Ctx(state, state.rng)
        if prompt.kind == "reroll":
            decided = default_policy(ctx, RerollRequest(prompt.roll, prompt.hero, prompt.rule))
            entry = vm.reroll
            if decided is not None and decided.indices and entry.after_hits:
                again = self.roll(DieKind.POOL, len(decided.indices))
                self.tap(count(sum(1 for f in again if f >= prompt.roll.target)))
            elif decided is not None and decided.indices:
                self.tap(h.find(lambda w: w.__class__.__name__ != "CountButton" and "Re-roll" in str(w.text)
                                and not w.disabled, actions, "re-roll"))
            else:
                self.tap(h.find(lambda w: str(getattr(w, "text", "")).startswith("Keep the dice"), actions, "keep"))
            return
        if prompt.kind == "choice" and vm.draw:
            self.tap(h.button("Draw all for me", actions))
            return
        if prompt.kind == "choice":
            def policy(hero: str | None) -> str:
                return default_policy(ctx, ChoiceRequest(prompt.question, prompt.options, hero, prompt.rule)).option

            decided = policy(prompt.hero)
            label = dict(vm.options)[decided]
            option = h.button(label, body)
            posse = [x.id for x in state.active_heroes]
            others = posse[posse.index(prompt.hero) + 1:] if prompt.hero in posse else []
            wanted = [decided, *(policy(other) for other in others)]
            if vm.alike and len(set(wanted)) == 1:  # the heroes still to ask would answer alike: one tap for all
                self.tap(h.button(f"Everyone: {label}", body))
                return
            one_by_one = next(i + 1 for i in range(len(wanted)) if len(set(wanted[i:])) == 1)  # taps, "Everyone" last
            keys = [o.key for o in prompt.options]
            want = {row.hero: policy(row.hero) for row in vm.asked}
            turns = {row.hero: (keys.index(want[row.hero]) - keys.index(row.option)) % len(keys) for row in vm.asked}
            if vm.asked and sum(turns.values()) + 1 < one_by_one:  # each hero's answer on this screen, then send
                for row in vm.asked:
                    for _ in range(turns[row.hero]):
                        name = self.table.hero_name(row.hero)
                        self.tap(_starting(h, f"{name}: ", self.screen("dice").ids.body))
                self.tap(h.button("Send everyone's answers", self.screen("dice").ids.actions))
                return
            self.tap(option)
            return
        # the policy's card changes nothing the app keeps (its text "simulated", no effects): what a person answers
        # with one tap; a card that changes something is typed, then sent
        self.tap(h.button("Nothing to record", actions))


def open_offline(h: Harness, seed: int, heroes: Any = None, state: Any = None) -> None:
    """A table on this phone with physical dice (seeded), opened as the start screen opens one."""
    from mobile.client import OfflineBackend
    from mobile.presenters.table import TableSession
    from shared_rules import RuleOptions
    from shared_rules.simulate import sample_heroes

    backend = OfflineBackend(h.app.data_dir / "tables")
    snapshot = backend.create(heroes or sample_heroes(4), RuleOptions(dice="table"), seed=seed)
    if state is not None:  # a crafted start (in town, in an Adventure), as tests/mobile/phases.py makes
        backend._entries[0].state = state
        backend._head = state
        backend._write_all()
        snapshot = backend.load()
    table = TableSession(backend, snapshot, worker=h.app._worker, post=h.app._post)
    table.start()
    h.app.open_table(table)
    h.frames(4)


def journey(h: Harness, seed: int, size: str = "Large") -> dict[str, Any]:
    """A journey to a Large Town with physical dice: the size, the hazard count rolls, then each hazard's D36 on the
    Travel screen and its prompts on the Dice screen; the taps of each hazard from its D36 to its last answer."""
    hands = Hands(h, seed)
    open_offline(h, seed)
    travel = hands.screen("travel")
    h.taps = 0
    hands.tap(h.find(lambda w: w.__class__.__name__ == "DarkButton" and str(w.text).startswith(size),
                     travel, f"the {size} Town"))
    hands.answer_all()
    setup = h.taps
    per_hazard: list[int] = []
    names: list[str] = []
    while (road := h.app.table.snapshot.state.travel) is not None and road.remaining > 0 \
            and h.app.table.snapshot.state.active_heroes:
        travel = hands.screen("travel")
        hands.wait(lambda t=travel: t.vm is not None and t.vm.hazard_dice is not None, "the D36 pad")
        h.taps = 0
        version = h.app.table.snapshot.version
        for face in hands.roll(__import__("shared_rules").DieKind.D36, 2):  # the red tens die, then the white
            pad = h.find(lambda w, f=face: w.__class__.__name__ == "PadButton" and w.face == f,
                         travel.ids.actions, f"D36 face {face}")
            hands.tap(pad)
        hands.wait(lambda v=version: h.app.table.snapshot.version != v, "the hazard to go out")
        hands.answer_all()
        per_hazard.append(h.taps)
        hazards = h.app.table.snapshot.state.travel.hazards if h.app.table.snapshot.state.travel else ()
        names.append(str(hazards[-1]) if hazards else "?")
    return {"setup": setup, "per_hazard": per_hazard, "hazards": names, "prompts": hands.prompts}


def journeys(h: Harness) -> dict[str, Any]:
    """Seeded journeys one after another in the same app (each a new offline table)."""
    import os

    seeds = [int(s) for s in os.environ.get("BRIMSTONE_SEEDS", "1,2,3").split(",")]
    played = []
    for seed in seeds:
        played.append(journey(h, seed))
        print(f"journey {seed}: {played[-1]}", file=sys.stderr, flush=True)
        h.app.leave_table()
        h.frames(2)
    taps = [t for j in played for t in j["per_hazard"]]
    return {"journeys": played, "hazards": len(taps), "mean": sum(taps) / max(1, len(taps)),
            "max": max(taps, default=0)}


def main_button(h: Harness, screen: Any) -> Any:
    return h.find(lambda w: w.__class__.__name__ == "PrimaryButton" and not w.disabled, screen.ids.actions,
                  "the big button")


STAY_PACK = ROOT / "tests" / "mobile" / "data" / "stay_pack.json"  # made-up Location Event Charts


def stay_day(h: Harness, seed: int, charts: bool = False) -> dict[str, Any]:
    """A common Town Stay Day, four heroes with physical dice, on the Stay screen: start the Day (the Daily Event, the
    beds), each hero one visit (the place under the hero, the Location Event from the table's dice, the card when
    the pack has no chart), end the Day with the Town Darkness die. The town: a Standard Frontier Town of four
    Locations (tests/mobile/phases.py); `charts`: with a pack that has their Location Event Charts."""
    from dataclasses import replace

    from shared_rules import RuleOptions, new_session
    from shared_rules.content import register_pack
    from shared_rules.simulate import sample_heroes
    from shared_rules.state import Phase, Slot, Stay, Town, TownSize

    heroes = sample_heroes(4)
    pack = register_pack(json.loads(STAY_PACK.read_text(encoding="utf-8"))).name if charts else "default"
    state = new_session(heroes, options=RuleOptions(dice="table"), seed=seed, pack=pack)
    slots = ("Saloon", "Gambling Hall", "Frontier Outpost", "Sheriff's Office")
    town = Town(TownSize.LARGE, "Standard Frontier Town", 7, tuple(Slot(i, n) for i, n in enumerate(slots, 1)))
    open_offline(h, seed, heroes, replace(state, phase=Phase.TOWN, town=town, stay=Stay()))
    hands = Hands(h, seed)
    stay = hands.screen("stay")
    h.taps = 0
    hands.tap(main_button(h, stay))  # Start Day 1
    hands.answer_all()
    visits = 0
    for index in range(4):
        stay = hands.screen("stay")
        hero = stay.vm.heroes[index]
        if not hero.places:
            continue
        place = hero.places[index % len(hero.places)]
        card = list(reversed(stay.ids.heroes.children))[index]
        hands.tap(h.button(place.label, card))
        hands.answer_all()
        visits += 1
        while (stay := hands.screen("stay")).vm.main is not None and stay.vm.main.key == "end_visit":
            hands.tap(main_button(h, stay))  # leave
            hands.answer_all()
    stay = hands.screen("stay")
    if stay.vm.end_die:  # the Town Darkness die, rolled at the table, typed in the bar: it ends the Day
        (face,) = hands.roll(__import__("shared_rules").DieKind.D6, 1)
        hands.tap(h.find(lambda w, f=face: w.__class__.__name__ == "PadButton" and w.face == f, stay.ids.actions,
                         f"Town Darkness die {face}"))
    elif stay.vm.main is not None and stay.vm.main.key == "end_day":
        hands.tap(main_button(h, stay))
    else:
        label = next(a.label for a in stay.vm.others if a.key == "end_day")
        hands.tap(h.button(label, stay.ids.actions))
    hands.answer_all()
    return {"taps": h.taps, "visits": visits, "prompts": hands.prompts, "keys": h.keys}


def adventure_turn(h: Harness, seed: int) -> dict[str, Any]:
    """A common Adventure turn with no fight, four heroes: Hold Back the Darkness from the table's two dice, then each
    model in Initiative order: its Move die tapped in the bar (which ends the activation before it), and the last
    activation ended (tests/mobile/phases.py's Adventure)."""
    from shared_rules import DieKind, RuleOptions, apply, new_session
    from shared_rules.commands import SheetEntry, StartAdventure
    from shared_rules.simulate import sample_heroes
    from shared_rules.state import SpaceMark, TrackSpace

    heroes = sample_heroes(4)
    needed = {"Samurai Warrior": {"max_fury": 3}, "Traveling Monk": {"max_ki": 3},
              "Sorceress": {"mana": 3, "focus": "fire"}}
    sheets = tuple(SheetEntry(x.id, initiative=6 - i, **needed.get(x.hero_class, {}))  # type: ignore[arg-type]
                   for i, x in enumerate(heroes))
    layout = tuple(TrackSpace(n, 3 if n < 4 else 2 if n < 8 else 1,
                              SpaceMark.BLOOD_SPATTER if n in (3, 7) else SpaceMark.GROWING_DREAD if n in (5, 9)
                              else SpaceMark.NONE) for n in range(12))  # fmt: skip
    state = new_session(heroes, options=RuleOptions(dice="table"), seed=seed)
    state = apply(state, StartAdventure(heroes[0].id, "lost_contact", "", layout, sheets)).state
    open_offline(h, seed, heroes, state)
    hands = Hands(h, seed)
    hands.answer_all()
    if h.app.frame.current != "adventure":  # opened on the Adventure's tab (the Turn), as a player taps it
        h.tap(h.find(lambda w: w.__class__.__name__ == "TabButton" and w.screen == "adventure", what="the tab"))
    screen = hands.screen("adventure")
    h.taps = 0
    turn = h.app.table.read.adventure.turn
    version = h.app.table.snapshot.version
    for face in hands.roll(DieKind.TWO_D6, 1):  # the table's two dice
        hands.tap(h.find(lambda w, f=face: w.__class__.__name__ == "PadButton" and w.face == f, screen.ids.actions,
                         f"die {face}"))
    hands.wait(lambda: h.app.table.snapshot.version != version, "Hold Back the Darkness")
    hands.answer_all()
    for _ in range(40):
        screen = hands.screen("adventure")
        adv = h.app.table.read.adventure
        if adv is None or adv.turn != turn or screen.vm.main is None:
            break
        version = h.app.table.snapshot.version
        if screen.vm.move is not None:  # the next hero's Move die, rolled at the table: one tap on its face
            (face,) = hands.roll(DieKind.D6, 1)
            hands.tap(h.find(lambda w, f=face: w.__class__.__name__ == "PadButton" and w.face == f,
                             screen.ids.actions, f"Move die {face}"))
        else:
            hands.tap(main_button(h, screen))
        hands.wait(lambda v=version: h.app.table.snapshot.version != v, "the activation")
        hands.answer_all()
    return {"taps": h.taps, "prompts": hands.prompts}


def phases(h: Harness) -> dict[str, Any]:
    """Stay Days and Adventure turns over seeded tables, in the same app."""
    import os

    seeds = [int(s) for s in os.environ.get("BRIMSTONE_SEEDS", "1,2").split(",")]
    parts = os.environ.get("BRIMSTONE_PARTS", "stay,charts,turn").split(",")
    days: list[dict[str, Any]] = []
    charted: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    for seed in seeds:
        if "stay" in parts:
            days.append(stay_day(h, seed))
            print(f"stay day {seed}: {days[-1]}", file=sys.stderr, flush=True)
            h.app.leave_table()
            h.frames(2)
        if "charts" in parts:
            charted.append(stay_day(h, seed, charts=True))
            print(f"stay day {seed}, Location charts in the pack: {charted[-1]}", file=sys.stderr, flush=True)
            h.app.leave_table()
            h.frames(2)
        if "turn" not in parts:
            continue
        turns.append(adventure_turn(h, seed))
        print(f"adventure turn {seed}: {turns[-1]}", file=sys.stderr, flush=True)
        h.app.leave_table()
        h.frames(2)
    return {"days": days, "charted": charted, "turns": turns,
            "day_mean": sum(d["taps"] for d in days) / max(1, len(days)),
            "charted_mean": sum(d["taps"] for d in charted) / max(1, len(charted)),
            "turn_mean": sum(t["taps"] for t in turns) / max(1, len(turns))}



def _work_out_odds(h: Harness, hands: Hands, screen: Any) -> tuple[Any, list[list[str]]]:
    """"Work out the odds" on the odds screen, then each card's lines once the phone has played it out (the
    presenter, and the cards in the order shown)."""
    from kivy.uix.label import Label

    hands.tap(h.button("Work out the odds"))
    presenter = h.app.presenters["odds"]
    hands.wait(lambda: presenter.status in ("done", "error") and screen.vm is not None
               and screen.vm.status == presenter.status, "the odds played out on the phone", seconds=600)
    h.frames(2)
    return presenter, [[w.text for w in h.walk(card) if isinstance(w, Label) and w.text]
                       for card in reversed(screen.ids.cards.children)]


def odds(h: Harness) -> dict[str, Any]:
    """Before choosing the town size, offline: "Our odds?" on the Road, "Work out the odds" on the odds screen, each
    size's figures in words once the phone has played them out, then back to the Road, where a size is chosen."""
    from kivy.uix.label import Label

    hands = Hands(h, 4)
    open_offline(h, 4)
    hands.screen("travel")
    h.taps = 0
    hands.tap(h.button("Our odds?"))
    screen = hands.screen("odds")
    before = [w.text for w in h.walk(screen) if isinstance(w, Label) and w.text]
    presenter, cards = _work_out_odds(h, hands, screen)
    shown = [w.text for w in h.walk(screen) if isinstance(w, Label) and w.text]
    answer = presenter.answer or {}
    taps = h.taps
    hands.tap(h.button("Back to the table"))
    travel = hands.screen("travel")
    hands.tap(h.find(lambda w: w.__class__.__name__ == "DarkButton" and str(w.text).startswith("Small"), travel,
                     "the Small Town"))
    hands.wait(lambda: h.app.table.snapshot.version > 0, "the size to go out")
    return {"before": before, "cards": cards, "shown": shown, "taps": taps, "error": presenter.error,
            "done": answer.get("done"), "precision_met": answer.get("precision_met"),
            "reached": (answer.get("precision") or {}).get("reached"), "phase": h.app.table.read.phase.value,
            "asked_next": h.app.table.read.prompt.question if h.app.table.read.prompt else None}


def choice_odds(h: Harness) -> dict[str, Any]:
    """At a choice on the road (Plague Church: each hero helps or turns away, FT-TRAVEL-D32), offline: "Our odds?" on
    the Dice screen beside the options, each option played out on the phone, then back to the choice, answered."""
    from shared_rules import ChooseTownSize, RollHazard, apply, new_session
    from shared_rules.simulate import sample_heroes

    state = apply(new_session(sample_heroes(4), seed=5), ChooseTownSize("large")).state
    state = apply(state, RollHazard(dice=((3, 2),))).state  # the D36 typed in: 32, the Plague Church
    hands = Hands(h, 5)
    open_offline(h, 5, state=state)
    h.app.go("dice")
    dice = hands.screen("dice")
    options = [w.text for w in h.walk(dice.ids.body) if w.__class__.__name__ == "DarkButton"]
    h.taps = 0
    hands.tap(h.button("Our odds?"))
    screen = hands.screen("odds")
    question = screen.vm.question if screen.vm else ""
    presenter, cards = _work_out_odds(h, hands, screen)
    taps = h.taps
    hands.tap(h.button("Back to the table"))
    h.app.go("dice")
    dice = hands.screen("dice")
    version = h.app.table.snapshot.version
    hands.tap(main_button(h, dice))  # each hero's answer as it stands: "Send everyone's answers"
    hands.wait(lambda: h.app.table.snapshot.version != version, "the answer to go out")
    return {"options": options, "question": question, "cards": cards, "taps": taps, "error": presenter.error,
            "answered": h.app.table.read.prompt is None or h.app.table.read.prompt.question != question}


SCENARIOS: dict[str, Callable[[Harness], dict[str, Any]]] = {"keypad": keypad, "adventure": adventure, "posse": posse,
                                                             "journeys": journeys, "phases": phases, "odds": odds,
                                                             "choice_odds": choice_odds}


def main(argv: list[str]) -> int:
    result = SCENARIOS[argv[0]](Harness())
    print("RESULT " + json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
