"""Regenerate the phone screenshots in docs/screenshots/ from a real table, and check every screen at every size:
`python scripts/screenshots.py`.

Plays a table on the offline engine (fixed seed, dice entered as a player would tap them) and draws each screen
offscreen. The screenshots are the phone at 1080x2340 px (density 3, i.e. 360x780 dp) and text size 1.0, one PNG
per screen (the same bytes on every run: a fixed seed and table code). The same journey is laid out again on a
small phone (360x640 dp) and a landscape tablet (1280x800 dp), each at font scales 1.0, 1.3, 1.5 and 2.0, and every
screen is checked: any label whose text does not fit its box (cut off), a word broken across two lines, anything off
the side of the screen, any button smaller than 48 dp, and screens that come out blank or flooded. `--report FILE`
writes the findings as JSON (tests/mobile/test_render.py reads it); the exit status is 1 if there are any.

Kivy needs no display: SDL falls back to its offscreen driver. A window's size is fixed per process, so each size
runs in a process of its own (`--size`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# name: (width px, height px, density); the screenshots come from "phone" at font scale 1.0
SIZES = {"phone": (1080, 2340, 3), "small": (720, 1280, 2), "tablet": (1280, 800, 1),
         "touch": (360, 640, 1)}  # the touch harness's 360x640 dp phone, one pixel a dp: a frame costs a ninth
SCALES = (1.0, 1.3, 1.5, 2.0)
# The Town Stay, Odds and Adventure screens are checked at every size and font scale, as the others are
PHASE_CONFIGS = {(size, scale) for size in SIZES for scale in SCALES}
WIDTH, HEIGHT, DENSITY = SIZES["phone"]


def _prepare_kivy(size: str = "phone") -> None:
    """Environment and window size, before Kivy is imported."""
    width, height, density = SIZES[size]
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ["KIVY_METRICS_DENSITY"] = str(density)
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_CLIPBOARD", "dummy")  # no xsel/xclip probing on a headless machine
    import logging

    logging.getLogger("kivy").setLevel(logging.CRITICAL)  # provider probing (clipboard, mtdev) is not news here
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")


def write_png(path: Path, width: int, height: int, rgba: bytes) -> None:
    """RGBA pixels (top row first, as an exported Kivy image holds them) as a PNG file."""
    import struct
    import zlib

    stride = width * 4
    rows = b"".join(b"\x00" + rgba[y * stride:(y + 1) * stride] for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6))
                     + chunk(b"IEND", b""))


# ---- checking what is drawn ------------------------------------------------------------------------------------
def _shown(widget: Any) -> bool:
    node = widget
    while node is not None:
        if getattr(node, "opacity", 1) <= 0 or node.width <= 0 or node.height <= 0:
            return False
        if node.__class__.__name__ == "Screen" and node.manager is not None and node.manager.current != node.name:
            return False
        parent = node.parent
        node = parent if parent is not node else None
    return True


_TAGS = __import__("re").compile(r"\[/?[a-z]+(?:=[^\]]*)?\]")


def broken_words(widget: Any) -> list[str]:
    """Words a wrapping label broke across two lines ("Corrup-" / "tion", "Ones (white" / ")"): the text is mapped
    line by line onto the label's own text, and a line that starts right where the last ended, not at a space, is
    a broken word."""
    lines = getattr(widget._label, "_cached_lines", None) or []
    texts = ["".join(word.text for word in line.words).strip() for line in lines]
    texts = [t for t in texts if t]
    if len(texts) < 2:
        return []
    raw = _TAGS.sub("", widget.text) if widget.markup else widget.text
    raw = raw.replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")
    found, pos = [], 0
    for index, text in enumerate(texts):
        at = raw.find(text, pos)
        if at < 0:
            return found  # cannot be mapped (a shortened label): say nothing
        if index and at == pos and not raw[pos - 1].isspace() and not raw[pos].isspace():  # "(white" | ")"
            found.append(f"{texts[index - 1][-12:]}|{text[:12]}")
        pos = at + len(text)
    return found


def _window_rect(widget: Any) -> tuple[float, float, float, float]:
    """The widget's box in window coordinates (x0, y0, x1, y1): inside a ScrollView or a RelativeLayout, a
    widget's own x and y are not where it is on the screen."""
    x0, y0 = widget.to_window(widget.x, widget.y)
    return x0, y0, x0 + widget.width, y0 + widget.height


def _text_rect(label: Any) -> tuple[float, float, float, float]:
    """Where a label's text is drawn, in window coordinates: Kivy centres the texture on the label."""
    tw, th = label.texture_size
    cx, cy = label.to_window(label.center_x, label.center_y)
    return cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2


def _meet(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float, float]:
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])


def _ancestors(widget: Any) -> list[Any]:
    found, node = [], widget.parent
    while node is not None and node is not node.parent:
        found.append(node)
        node = node.parent
    return found


def _scrolls_with_hint(view: Any, vertical: bool) -> bool:
    """A ScrollView may hide what is scrolled away when it can scroll that way and shows that it does: a scroll
    bar always drawn (`Page`), or a widget of its own saying so (`scroll_hint`)."""
    from kivy.metrics import dp

    content = view.children[0] if view.children else None
    if content is None:
        return False
    if vertical:
        scrolls = view.do_scroll_y and content.height > view.height + 1
    else:
        scrolls = view.do_scroll_x and content.width > view.width + 1
    shown = getattr(view, "scroll_hint", False) or (view.bar_width >= dp(3) and view.bar_inactive_color[3] >= 0.4
                                                    and view.bar_color[3] >= 0.4)
    return bool(scrolls and shown)


def _clip_problem(rect: tuple[float, float, float, float], widget: Any, window: tuple[float, ...]) -> str:
    """Why `rect` (drawn by `widget`) is not all on the screen: cut by a clipping ancestor (a ScrollView that
    cannot scroll it into view or does not say it scrolls, a StencilView) or by the window's edge; "" if it shows."""
    from kivy.metrics import dp
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.stencilview import StencilView

    slack = dp(2)
    for node in _ancestors(widget):
        if not isinstance(node, StencilView):
            continue
        box = _window_rect(node)
        out_x = rect[0] < box[0] - slack or rect[2] > box[2] + slack
        out_y = rect[1] < box[1] - slack or rect[3] > box[3] + slack
        if not (out_x or out_y):
            continue
        if isinstance(node, ScrollView) and (not out_y or _scrolls_with_hint(node, True)) \
                and (not out_x or _scrolls_with_hint(node, False)):
            return ""  # scrolled away from a view that says it scrolls: the player can bring it back
        kind = node.__class__.__name__
        return f"cut off by its {kind} ({rect[1]:.0f}..{rect[3]:.0f} in {box[1]:.0f}..{box[3]:.0f})"
    if rect[0] < window[0] - slack or rect[2] > window[2] + slack or rect[1] < window[1] - slack \
            or rect[3] > window[3] + slack:
        return f"cut off at the window's edge (x {rect[0]:.0f}..{rect[2]:.0f}, y {rect[1]:.0f}..{rect[3]:.0f})"
    return ""


def _visible(rect: tuple[float, ...], widget: Any) -> tuple[float, float, float, float]:
    """The part of `rect` its clipping ancestors let through."""
    from kivy.uix.stencilview import StencilView

    for node in _ancestors(widget):
        if isinstance(node, StencilView):
            rect = _meet(rect, _window_rect(node))
    return rect[0], rect[1], rect[2], rect[3]


def _paints(widget: Any) -> bool:
    """Whether the widget fills its box with something opaque (a background, a button, a board) that would hide
    text drawn under it; a label's text is counted by its text box instead."""
    from kivy.graphics import BorderImage, Ellipse, Rectangle, RoundedRectangle

    alpha = 1.0
    for group in (widget.canvas.before, widget.canvas):
        for instruction in group.children:
            name = instruction.__class__.__name__
            if name == "Color":
                alpha = instruction.a
            elif isinstance(instruction, (Rectangle, RoundedRectangle, BorderImage, Ellipse)) and alpha > 0.05:
                if getattr(instruction, "texture", None) is not None and instruction.texture is getattr(
                        widget, "texture", object()):
                    continue  # the label's own text
                if instruction.size[0] > 1 and instruction.size[1] > 1:
                    return True
    return False


def _touch_target(widget: Any) -> bool:
    """Buttons and any other widget that takes taps itself (a text field, the board); not layouts that only pass
    touches on to their children."""
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label
    from kivy.uix.layout import Layout
    from kivy.uix.modalview import ModalView
    from kivy.uix.screenmanager import Screen, ScreenManager
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.widget import Widget

    if isinstance(widget, ButtonBehavior):
        return True
    if isinstance(widget, Label):
        return bool(widget.refs)  # a label takes taps only on its [ref] words
    if isinstance(widget, (Layout, ScrollView, ScreenManager, Screen, ModalView)):
        return False
    return type(widget).on_touch_down is not Widget.on_touch_down


def shortened(widget: Any) -> bool:
    """A label that shows its text cut short with "..." (Kivy's `shorten`): the words the player needs are gone."""
    if not getattr(widget, "shorten", False):
        return False
    lines = getattr(widget._label, "_cached_lines", None) or []
    shown = "".join(word.text for line in lines for word in line.words)
    raw = widget.text
    return any(mark in shown and mark not in raw for mark in ("...", "\u2026"))


def layout_problems(root: Any, where: str) -> list[str]:
    """Every screen's layout as a player sees it, in window coordinates: text that does not fit its label, is cut
    by a clipping view (a ScrollView may hide what it can scroll back, if it shows that it scrolls) or the window's
    edge, is covered by another widget drawn over it, is shortened with "...", or breaks a word; widgets off the
    side of the screen; buttons and other touch targets (the board's spaces too) under 48 dp; a pinned bar taller
    than a third of the screen."""
    from kivy.core.window import Window
    from kivy.metrics import dp
    from kivy.uix.label import Label
    from kivy.uix.textinput import TextInput

    found: list[str] = []
    screen_width = Window.width
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    tops = list(root.children) if not hasattr(root, "walk") else [root]
    for top in tops:
        order = [w for w in top.walk(restrict=False) if _shown(w)]
        texts: list[tuple[int, Any, tuple[float, float, float, float]]] = []
        painters: list[tuple[int, Any, tuple[float, float, float, float]]] = []
        for index, widget in enumerate(order):
            if isinstance(widget, Label) and widget.text.strip():
                widget.texture_update()
                tw, th = widget.texture_size
                wraps = widget.text_size[0] is not None
                text = widget.text.replace("\n", " ")[:60]
                if not widget.shorten and not wraps and tw > widget.width + 2:
                    found.append(f"{where}: text cut off at the side ({tw:.0f}px in {widget.width:.0f}px): {text!r}")
                if th > widget.height + 2:
                    found.append(f"{where}: text cut off below ({th:.0f}px in {widget.height:.0f}px): {text!r}")
                if wraps:
                    found += [f"{where}: a word broken across lines ({pair}): {text!r}"
                              for pair in broken_words(widget)]
                if shortened(widget):
                    found.append(f"{where}: text shortened with '...': {text!r}")
                rect = _text_rect(widget)
                clipped = _clip_problem(rect, widget, window)
                if clipped:
                    found.append(f"{where}: text {clipped}: {text!r}")
                texts.append((index, widget, _visible(rect, widget)))
                painters.append((index, widget, _visible(rect, widget)))
            if isinstance(widget, TextInput) and widget.text:
                found += _field_problems(widget, where)
            if _paints(widget) or isinstance(widget, TextInput):
                painters.append((index, widget, _visible(_window_rect(widget), widget)))
            if widget.right > screen_width + 1 or widget.x < -1:
                label = getattr(widget, "text", "") or widget.__class__.__name__
                found.append(f"{where}: off the side of the screen (x {widget.x:.0f}..{widget.right:.0f}): {label!r}")
            found += drawn_label_problems(widget, where)
            if _touch_target(widget) and not widget.disabled:
                label = getattr(widget, "text", "") or widget.__class__.__name__
                if min(widget.size) < dp(48) - 1:
                    found.append(f"{where}: touch target {widget.width / dp(1):.0f}x{widget.height / dp(1):.0f} dp "
                                 f"< 48 dp: {label!r}")
                for name, tw, th in getattr(widget, "tap_targets", lambda: [])():
                    if min(tw, th) < dp(48) - 1:
                        found.append(f"{where}: touch target {tw / dp(1):.0f}x{th / dp(1):.0f} dp < 48 dp: {name!r}")
            if widget.__class__.__name__ == "PinnedBar" and widget.height > Window.height / 3 + 1:
                found.append(f"{where}: a pinned bar takes {widget.height / Window.height:.0%} of the screen "
                             f"(at most a third; the rest belongs behind 'More')")
        found += _covered(texts, painters, order, where)
    return found


def _field_problems(field: Any, where: str) -> list[str]:
    """A text field too small for what it holds: one line wider than the field (the card's words scrolled out of
    sight), or wrapped lines taller than it."""
    pad_x = field.padding[0] + field.padding[2]
    text = field.text.replace("\n", " ")[:60]
    if not field.multiline:
        width = field._get_text_width(field.text, field.tab_width, field._label_cached)
        if width > field.width - pad_x + 2:
            return [f"{where}: text cut off in its field ({width:.0f}px in {field.width - pad_x:.0f}px): {text!r}"]
    elif field.minimum_height > field.height + 2:
        return [f"{where}: text cut off below in its field: {text!r}"]
    return []


def _covered(texts: list[Any], painters: list[Any], order: list[Any], where: str) -> list[str]:
    """Text with something drawn over it later in the same window (Kivy draws in walk order): a sibling's
    background, another label's text, an overlay."""
    from kivy.metrics import dp

    found = []
    slack = dp(2)
    for index, label, rect in texts:
        if rect[2] - rect[0] <= slack or rect[3] - rect[1] <= slack:
            continue  # scrolled out of view
        inside = set(map(id, label.walk(restrict=True)))
        for other_index, other, box in painters:
            if other_index <= index or id(other) in inside:
                continue
            meet = _meet(rect, box)
            if meet[2] - meet[0] > slack and meet[3] - meet[1] > slack:
                name = getattr(other, "text", "") or other.__class__.__name__
                text = label.text.replace("\n", " ")[:60]
                found.append(f"{where}: text covered by {str(name)[:30]!r}: {text!r}")
                break
    return found


def drawn_label_problems(widget: Any, where: str) -> list[str]:
    """Labels a widget draws on its canvas (the board's numbers and letters, `drawn_labels`): each inside the
    widget, none lying on another."""
    labels = getattr(widget, "drawn_labels", None)
    if not labels:
        return []
    found = []
    for text, x, y, w, h in labels:
        if x < widget.x - 1 or y < widget.y - 1 or x + w > widget.right + 1 or y + h > widget.top + 1:
            found.append(f"{where}: {text!r} drawn cut off at the edge of the board")
    for n, (text, x, y, w, h) in enumerate(labels):
        for other, ox, oy, ow, oh in labels[n + 1:]:
            if x < ox + ow - 1 and ox < x + w - 1 and y < oy + oh - 1 and oy < y + h - 1:
                found.append(f"{where}: {text!r} drawn over {other!r} on the board")
    return found


def board_shots(app: Any, shot: Any) -> None:
    """The Town board mid-shootout (mobile/presenters/board_demo.py): the Bandits' turn shown, then hidden."""
    from mobile.presenters import board_demo
    from mobile.presenters.board import BoardPresenter

    presenter = BoardPresenter(board_demo.shootout())
    app.screens["board"].presenter = presenter
    shot("board_shootout", "board")
    presenter.toggle_overlay()
    shot("board", "board")
    # the table put Kiri deeper in the Sheriff's Office: Bandit 1's shot is blocked; Bandit 1 tapped, then a space
    presenter = BoardPresenter(board_demo.shootout(board_demo.corrected("kiri", (6, 17))))
    app.screens["board"].presenter = presenter
    screen = app.screens["board"]
    screen.tap(13.5, 11.5)  # on a phone the first tap zooms in where the finger is: spaces of 48 dp or more
    if not presenter.selected:
        screen.tap(13.5, 11.5)
    screen.tap(14.5, 11.5)
    shot("board_correct", "board")


def ink(pixels: bytes) -> float:
    """Share of sampled RGBA pixels that differ from the background: a nearly blank screen scores near 0."""
    from mobile import theme

    bg = tuple(round(c * 255) for c in theme.BG[:3])
    step = 4 * 97  # sample every 97th pixel
    sampled = differ = 0
    for i in range(0, len(pixels) - 4, step):
        sampled += 1
        if abs(pixels[i] - bg[0]) + abs(pixels[i + 1] - bg[1]) + abs(pixels[i + 2] - bg[2]) > 24:
            differ += 1
    return differ / max(1, sampled)


# ---- the table the screenshots show ---------------------------------------------------------------------------------
def render(out: Path | None, size: str = "phone", scale: float = 1.0, only: str = "") -> dict[str, Any]:
    """Play the table and look at each screen at `size` and font `scale`; PNGs go to `out` (None: none).
    `only="board"`: just open a table and look at the board screens."""
    import time

    _prepare_kivy(size)
    from kivy.app import App
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.metrics import Metrics

    from mobile.app import BrimstoneApp
    from mobile.client import OfflineBackend
    from mobile.presenters.start import HeroDraft
    from mobile.presenters.table import TableSession, Worker, immediate
    from shared_rules import Hero, Item, ItemTag, RuleOptions, Skills

    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    data = Path(tempfile.mkdtemp(prefix="brimstone-shots-"))
    Metrics.fontscale = scale  # the phone's font scale (Android: Settings, Display, Font size)
    for old in list(Window.children):  # the previous scale's app, in this same window
        Window.remove_widget(old)
    app = BrimstoneApp(data_dir=data, worker=Worker(), post=immediate)
    App._running_app = app  # what App.run() would do; kv rules read `app`
    EventLoop.ensure_window()
    app.root = app.build()
    Window.add_widget(app.root)
    from kivy.uix.screenmanager import NoTransition

    app.root.ids.screens.transition = NoTransition()  # look at the screen, not at the slide between two
    where = f"{size}@{scale}"
    report: dict[str, Any] = {"size": [Window.width, Window.height], "screens": {}, "problems": []}

    def settle(frames: int = 3) -> None:
        """Let layout and text settle (clock ticks are cheap) and every screen change or popup animation end, then
        draw a few window frames: an export drawn before any frame comes out flooded, and a software renderer draws
        a 1080x2340 frame slowly. The animations run on wall time (a screen change takes 0.15 s), so a fixed number
        of ticks saw the old screen over the new one on a fast machine and not on a slow one."""
        from kivy.animation import Animation

        manager = app.root.ids.screens
        deadline = time.monotonic() + 60
        for _ in range(8):
            Clock.tick()
            Clock.tick_draw()
        while (Animation._instances or manager.transition.is_active or len(manager.children) > 1) \
                and time.monotonic() < deadline:
            Clock.tick()
            Clock.tick_draw()
            time.sleep(0.01)  # the animations' own wall clock has to pass; nothing else here waits on it
        for _ in range(frames):  # the check too: a frame completes a popup's closing
            EventLoop.idle()

    def shot(name: str, screen: str | None = None) -> None:
        t0 = time.perf_counter()
        if screen is not None:
            app.go(screen)
        app.refresh()
        t1 = time.perf_counter()
        target = Window.children[0] if len(Window.children) > 1 else app.root  # an open popup is on top
        settle()
        t2 = time.perf_counter()
        if out is None:  # the layout check only
            problems = layout_problems(Window, f"{where} {name}")
            report["screens"][name] = {"problems": len(problems)}
            report["problems"].extend(problems)
            return
        path = out / f"{name}.png"
        if target is not app.root:  # a popup: the window holds both
            Window.screenshot(name=str(out / f"{name}_.png"))
            produced = sorted(out.glob(f"{name}_*.png"))[-1]
            produced.replace(path)
            score = ink(app.root.export_as_image().texture.pixels)  # the screen under the popup
        else:
            texture = app.root.export_as_image().texture
            pixels = texture.pixels  # reading back waits for the frame to be drawn: the slow part
            write_png(path, texture.width, texture.height, pixels)
            score = ink(pixels)
        t3 = time.perf_counter()
        problems = layout_problems(Window, f"{where} {name}")
        report["screens"][name] = {"file": path.name, "ink": round(score, 3), "problems": len(problems)}
        print(f"{name}: refresh {t1 - t0:.1f}s, drawing {t2 - t1:.1f}s, saving {t3 - t2:.1f}s", file=sys.stderr)
        report["problems"].extend(problems)

    # -- start: a posse being entered --------------------------------------------------------------------------------
    start = app.screens["start"].presenter
    start.drafts = (HeroDraft("Ann Hawke", "Gunslinger").with_stat("agility", 3).with_stat("strength", 4),
                    HeroDraft("Bo Lantern", "Sorceress").with_stat("lore", 4).with_stat("health", 8))
    start.add_item(0, "Horse", ("transport",))
    start.set_server("http://192.168.1.20:8000")
    app.screens["start"].refresh()
    if not only:
        shot("start")

    # -- a table on the engine, three heroes ----------------------------------------------------------------------------
    watch = Item("pocket-watch", "Pocket Watch", frozenset({ItemTag.PERSONAL}), hourglass=1)
    heroes = [
        Hero("ann", "Ann Hawke", "Samurai Warrior", level=2, skills=Skills(agility=5, strength=4, spirit=2),
             grit=2, max_grit=3, gold=150, xp=60, dark_stone=2, side_bag=("Sake", "Bandages"), items=(watch,)),
        Hero("bo", "Bo Lantern", "Sorceress", skills=Skills(lore=4, spirit=3, agility=2, strength=2),
             health_base=8, wounds=3, corruption=2, mutations=("Third Eye",), grit=1),
        Hero("cy", "Cy Drummond", "Traveling Monk", skills=Skills(agility=2, strength=2), wanted=1, gold=40),
    ]
    backend = OfflineBackend(data / "tables", codes=lambda: "K7QX2M")  # a fixed code: the PNGs only change with the UI
    snapshot = backend.create(heroes, RuleOptions(dice="table", offer_grit_rerolls=True), seed=2024)
    table = TableSession(backend, snapshot)
    table.start()
    app.open_table(table)
    held: list[Any] = []
    table.schedule = lambda _delay, call: (held.append(call), lambda: held.remove(call) if call in held else None)[1]

    if only == "board":
        board_shots(app, shot)
        return report

    def window_passes() -> None:  # the short window after the last die: the faces go out
        while held:
            held.pop(0)()
    s = app.screens
    travel, dice, posse, log = (s["travel"].presenter, s["dice"].presenter, s["posse"].presenter,
                                s["log"].presenter)

    def tap(*faces: int) -> None:
        before = table.snapshot.version
        for face in faces:
            dice.tap_face(face)
        window_passes()
        if table.snapshot.version == before:
            raise SystemExit(f"refused: {table.notice}")

    def keep_all() -> None:
        while table.snapshot.pending is not None and table.snapshot.pending.kind == "reroll":
            dice.keep()

    app.go("travel")
    shot("travel_sizes", "travel")  # after an Adventure: the three sizes, and "Our odds?" beside them
    travel.choose_size("large")
    tap(2)  # Ann: adds a hazard (FT-TRAVEL-02)
    tap(5)
    tap(1)  # Cy: adds one
    app.go("travel")

    travel.tap_hazard_die(2)  # the tens die typed on the Travel screen, the ones die next
    shot("travel_d36", "travel")
    travel.tap_hazard_die(4)  # 24 Dark Stone Convoy
    window_passes()

    travel.tap_hazard_die(1)
    travel.tap_hazard_die(2)  # 12 Bleached Bones: Agility 5+ each
    window_passes()
    shot("dice_hits", "dice")
    tap(2, 4, 1, 3, 3)  # Ann: five dice, two rows, no success: Grit is offered
    dice.toggle_die(0)
    dice.toggle_die(2)
    shot("dice_reroll")
    dice.reroll()
    dice.send_hits(1)
    keep_all()  # the last miss stays
    dice.send_hits(0)  # Bo fails
    keep_all()
    dice.send_hits(1)  # Cy passes
    keep_all()
    shot("travel", "travel")

    travel.roll_hazard()
    dice.tap_face(1)
    dice.tap_face(1)  # the ones die: the faces go out after a short window, unless held
    shot("dice_d36", "dice")
    window_passes()  # 11 Possession, Bo's
    tap(2)  # a Madness roll: the table enters the card
    dice.set_card_text("Paranoia: -1 Initiative until cured")
    dice.set_card_field("corruption")
    dice.add_change()
    shot("dice_card")
    dice.send_card()

    travel.roll_hazard()
    tap(4, 6)  # Cy rolls 46 Wrecked Train: each Hero may search
    dice.turn_pick("bo")  # Bo passes it by; Ann and Cy search
    shot("dice_choice")
    dice.choose("pass", everyone=True)  # the same for everyone: nobody climbs down

    travel.roll_hazard()
    tap(2, 6)  # 26 Void Storm: 2 Buildings destroyed on arrival
    travel.step_destroyed(+1)
    travel.arrive()
    dice.send_total(11)  # 2D6 = 11: Mutant Town
    dice.choose(table.snapshot.pending.options[0].key)  # the first token, as the table drew it
    shot("dice_choice_draw", "dice")
    turn = 1
    while (prompt := table.snapshot.pending) is not None and prompt.kind == "choice":
        dice.choose(prompt.options[(3 * turn) % len(prompt.options)].key)  # what the table drew
        turn += 1
    keep_all()
    shot("town", "town")

    posse.adjust("ann", "gold", +1)
    posse.adjust("bo", "health", -1)
    posse.set_value("cy", "xp", "130")
    shot("posse", "posse")
    posse.toggle("ann")
    shot("posse_card", "posse")
    s["posse"].open_list("ann", "tokens")
    shot("posse_side_bag")
    if s["posse"].popup is not None:
        s["posse"].popup.dismiss(animation=False)
        settle()

    log.undo_last()
    shot("log", "log")
    app.show_table_info()
    shot("table_popup")
    for widget in list(Window.children):
        if widget is not app.root:
            widget.dismiss(animation=False)
    settle()
    board_shots(app, shot)
    if (size, scale) in PHASE_CONFIGS:
        later_phases(app, table, shot, tap)
    return report


def later_phases(app: Any, table: Any, shot: Any, tap: Any) -> None:
    """The same table on through a Town Stay day, the odds of the next town size, and an Adventure turn."""
    from mobile.presenters.stay import StayAction
    from shared_rules import DieKind

    s = app.screens
    stay, dice, adventure, odds = (s["stay"].presenter, s["dice"].presenter, s["adventure"].presenter,
                                   s["odds"].presenter)

    def answer_all() -> None:
        """Every prompt as a quiet table would answer it: the Hotel, Just Another Day, 2D6 of 8, cards read out."""
        while (prompt := table.snapshot.pending) is not None:
            before = table.snapshot.version
            if prompt.kind == "choice":
                keys = [o.key for o in prompt.options]
                dice.choose(next((k for k in ("just_another_day", "hotel", "camp_site") if k in keys), keys[0]))
            elif prompt.kind == "card":
                dice.set_card_text("Nothing out of the ordinary")
                dice.send_card()
            elif prompt.kind == "reroll":
                dice.keep()
            elif prompt.die is DieKind.TWO_D6:
                dice.send_total(8)
            else:
                tap(*([4] * max(1, prompt.dice_count)))
            if table.snapshot.version == before:
                raise SystemExit(f"refused: {table.notice}")

    def visit(hero: str, place: str) -> None:
        stay.do(next(a for h in stay.view().heroes if h.hero == hero for a in h.places if a.arg == place))
        answer_all()

    stay.act()  # Day 1: the Daily Event, then the beds
    answer_all()
    visit("ann", stay.view().heroes[0].places[0].arg)
    app.go("stay")
    typed = next(a for a in stay.view().heroes[0].actions if a.key == "buy_typed")
    s["stay"]._do(typed)  # a ware the pack does not list: typed with the card's price
    from kivy.core.window import Window

    popup = Window.children[0]
    popup.ids.ware.text, popup.ids.price.text, popup.kind = "Whiskey", "15", "token"
    shot("stay_buy")
    popup.dismiss(animation=False)
    bounty = next((a for a in stay.view().heroes[0].actions if a.key == "bounty"), None)
    if bounty is not None:  # the Sheriff's Bounty, from the card
        s["stay"]._do(bounty)
        popup = Window.children[0]
        popup.ids.enemy.text, popup.ids.number.text = "Scarlet Shadow", "150"
        shot("stay_bounty")
        popup.dismiss(animation=False)
    popup = None
    stay.act()  # Ann leaves
    answer_all()
    place = stay.view().heroes[1].places[-1].arg
    stay.do(next(a for a in stay.view().heroes[1].places if a.arg == place))
    shot("dice_location", "dice")  # the Location Event's 2D6, and the card read with it (no chart in the pack)
    answer_all()
    shot("stay", "stay")
    stay.act()  # Bo leaves
    answer_all()
    for key in ("end_day", "leave_town"):  # the Day ends, and the Stay: between Adventures
        stay.do(StayAction(key, key))
        answer_all()
    odds.runner = lambda job, done: done(job(), None)  # played here, not on a thread of its own
    app.go("odds")
    odds.ask()
    shot("odds", "odds")
    app.go("adventure")  # set up as the table's board and sheets show it
    for space, taps in ((3, 1), (7, 1), (5, 2), (9, 2)):  # Blood Spatter, Growing Dread
        for _ in range(taps):
            adventure.cycle_mark(space)
    for key, steps in (("cy.initiative", 1), ("bo.initiative", -1)):
        adventure.step(key, steps)
    shot("adventure_setup", "adventure")
    setup = adventure.view().setup
    adventure.do(setup.start)
    answer_all()
    app.go("adventure")
    s["adventure"]._do(next(a for a in adventure.view().others if a.key == "enemies"))  # a Threat card
    popup = Window.children[0]
    popup.ids.name.text, popup.ids.count.text, popup.ids.health.text, popup.ids.initiative.text = (
        "Void Hound", "2", "3", "4")
    shot("adventure_enemies")
    adventure.add_enemies("Void Hound", "2", "3", "4")  # what "Put them on the board" sends
    popup.dismiss(animation=False)
    adventure.tap_die(5)
    adventure.tap_die(3)  # Hold Back the Darkness: 8, held
    answer_all()
    adventure.act()  # Cy activates first (Initiative 5)
    answer_all()
    shot("adventure", "adventure")
    screen = s["adventure"]  # the Fight further down the page: the heroes' cards with each class's abilities, then
    page = screen.ids.heroes_card.parent  # the enemies on the board with their activations
    while page is not None and page.__class__.__name__ != "Page":
        page = page.parent
    page.scroll_to(screen.ids.enemies_card, padding=0, animate=False)
    shot("adventure_fight")


def one_size(size: str, scales: list[float], out: Path | None, every_png: Path | None,
             only: str = "") -> dict[str, Any]:
    """Every scale at one size, in this process: PNGs for the phone at 1.0 (and all of them with --every-png)."""
    merged: dict[str, Any] = {"sizes": {}, "problems": []}
    for scale in scales:
        target = out if size == "phone" and scale == 1.0 else None
        if every_png is not None:
            target = every_png / f"{size}-{scale}"
        report = render(target, size, scale, only)
        merged["sizes"][f"{size}@{scale}"] = report
        merged["problems"] += report["problems"]
        if size == "phone" and scale == 1.0:
            merged["size"], merged["screens"] = report["size"], report["screens"]
    return merged


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots", help="where the PNGs go")
    parser.add_argument("--report", type=Path, help="write the size, ink and layout findings as JSON")
    parser.add_argument("--size", choices=sorted(SIZES), action="append",
                        help="only this size (repeatable); default: all, each in a process of its own")
    parser.add_argument("--scales", default=",".join(map(str, SCALES)), help="font scales, e.g. 1.0,2.0")
    parser.add_argument("--every-png", type=Path, help="also write every size and scale's PNGs here, to look at")
    parser.add_argument("--only", choices=["board"], help="only these screens, in one size (--size)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    scales = [float(x) for x in args.scales.split(",")]
    sizes = args.size or list(SIZES)
    if len(sizes) == 1:
        report = one_size(sizes[0], scales, args.out, args.every_png, args.only or "")
    else:  # one process per size: a Kivy window keeps the size it was opened with
        import subprocess

        report = {"sizes": {}, "problems": []}
        for size in sizes:
            with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as part:
                path = Path(part.name)
            command = [sys.executable, __file__, "--size", size, "--scales", args.scales, "--out", str(args.out),
                       "--report", str(path)] + (["--every-png", str(args.every_png)] if args.every_png else [])
            subprocess.run(command, cwd=ROOT, check=False)
            part_report = json.loads(path.read_text())
            path.unlink()
            report["sizes"].update(part_report["sizes"])
            report["problems"] += part_report["problems"]
            if "screens" in part_report:
                report["size"], report["screens"] = part_report["size"], part_report["screens"]
    if args.report is not None:
        args.report.write_text(json.dumps(report, indent=2))
    for problem in report["problems"]:
        print(problem, file=sys.stderr)
    checked = ", ".join(f"{name}: {len(r['screens'])} screens, {len(r['problems'])} finding(s)"
                        for name, r in report["sizes"].items())
    print(f"{checked}\n{len(report['problems'])} layout problem(s) in all")
    return 1 if report["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
