"""The Kivy App: the frame (status bar, notice, prompt and banner bars, tabs), the screen registry, and the wiring
to presenters.

Screens are `screens/<name>.kv` (layout) + `screens/<name>.py` (a thin class); every decision is made in
`presenters/`. The tabs come from `presenters.shell.SCREENS` (a later phase's screen registers there). Backend
calls run on one worker thread; their results, and live updates, come back to the UI thread through a call queue
drained by the Kivy clock.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.metrics import Metrics, dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.togglebutton import ToggleButton

from . import platform, theme
from .client import GraphQLBackend, OfflineBackend, TableBackend
from .i18n import _, set_language
from .presenters.adventure import BOARD_SCREEN, AdventurePresenter
from .presenters.board import BoardPresenter
from .presenters.dice import PromptPresenter
from .presenters.log import LogPresenter
from .presenters.odds import OddsPresenter
from .presenters.posse import PossePresenter
from .presenters.shell import (
    LOCKOUT,
    SCREENS,
    ShellPresenter,
    StatusView,
    host_call_label,
    phase_screen,
    press_host_call,
    tabs,
)
from .presenters.start import StartPresenter, join_link
from .presenters.stay import StayPresenter
from .presenters.table import CallQueue, Post, TableSession, ThreadWorker, Worker
from .presenters.town import TownPresenter
from .presenters.travel import TravelPresenter
from .screens.adventure import AdventureScreen
from .screens.board import BoardScreen
from .screens.dice import DiceScreen
from .screens.log import LogScreen
from .screens.more import ChoicePopup, FormPopup  # noqa: F401  (more.kv's rules find them)
from .screens.odds import OddsScreen
from .screens.posse import PosseScreen
from .screens.start import StartScreen
from .screens.stay import StayScreen
from .screens.town import TownScreen
from .screens.travel import TravelScreen

SCREENS_DIR = Path(__file__).parent / "screens"
KV_FILES = ("widgets", "posse", "dice", "travel", "town", "log", "start", "stay", "adventure", "more", "odds",
            "board", "app")
SCREEN_CLASSES: dict[str, Any] = {"posse": PosseScreen, "travel": TravelScreen, "dice": DiceScreen,
                                  "town": TownScreen, "log": LogScreen, "stay": StayScreen,
                                  "adventure": AdventureScreen, "odds": OddsScreen}  # fmt: skip
PAGES: dict[str, Any] = {BOARD_SCREEN: BoardScreen}  # screens with no tab, opened from another screen
PRESENTERS: dict[str, Callable[[TableSession], Any]] = {
    "posse": PossePresenter, "travel": TravelPresenter, "dice": PromptPresenter, "town": TownPresenter,
    "log": LogPresenter, "stay": StayPresenter, "adventure": AdventurePresenter, "odds": OddsPresenter,
    BOARD_SCREEN: BoardPresenter.for_table,
}  # fmt: skip


def qr_texture(text: str) -> Any:
    """A QR code of `text` as a Kivy texture (segno writes the PNG, pure Python)."""
    import segno
    from kivy.core.image import Image as CoreImage

    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=8, border=2, dark="#000000", light="#ffffff")
    buffer.seek(0)
    return CoreImage(buffer, ext="png").texture


class InfoPopup(ModalView):
    title = StringProperty("")
    text = StringProperty("")
    qr = StringProperty("")  # text shown as a QR code (a join link)
    leave = ObjectProperty(None, allownone=True)

    def on_qr(self, *_args: Any) -> None:
        if self.qr:
            self.ids.qr.texture = qr_texture(self.qr)


class NumberPopup(ModalView):
    """Tap a number to type it: the keypad opens on its value; "Set" sends it and closes, "Next" (or the keyboard's
    enter key) sends it and moves on to the next number of the sheet. A number refused stays, with why beside it."""

    title = StringProperty("")
    value = StringProperty("")
    error = StringProperty("")  # why the typed number was refused, shown under the field
    has_next = BooleanProperty(False)
    # what "Set" sends the typed text to (not `on_value`: Kivy would take that name as the `value` property's handler);
    # it returns False when the number is refused, and `problem` then says why
    send: Callable[[str], Any] | None = None
    problem: Callable[[], str] | None = None
    following: Callable[[], NumberField | None] | None = None  # the next number to type, if any

    def on_open(self) -> None:
        self._select()

    def _select(self) -> None:
        field = self.ids.field
        field.text = self.value
        field.focus = True
        field.select_all()

    def done(self, text: str, go_on: bool = False) -> None:
        if self.send is None or not text.strip():
            self.dismiss()
            return
        taken = self.send(text)
        if taken is False and self.problem is not None:
            self.error = self.problem() or _("That number cannot be used here")
            self.ids.field.select_all()
            return
        after = self.following() if go_on and self.following is not None else None
        if after is None:
            self.dismiss()
            return
        self.show(after)

    def show(self, number: NumberField) -> None:
        self.title, self.value, self.send, self.problem, self.following = number
        self.has_next, self.error = self.following is not None, ""
        self._select()


# a number to type on the keypad: its title, value, where it goes, why it was refused, and the next one
NumberField = tuple[str, str, Callable[[str], Any], Callable[[], str] | None, Callable[[], Any] | None]


class TabButton(ToggleButton):
    icon = StringProperty("")
    label = StringProperty("")
    screen = StringProperty("")


class TableFrame(BoxLayout):
    """Status bar, notice, prompt and banner bars, the screens, and the tab bar."""

    in_table = BooleanProperty(False)
    current = StringProperty("start")
    status: StatusView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    app: BrimstoneApp | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    insets = ListProperty([0, 0, 0, 0])
    locked_until = NumericProperty(0)

    def go(self, name: str) -> None:
        if self.app is not None:
            self.app.go(name)

    def dismiss_notice(self) -> None:
        if self.app is not None and self.app.table is not None and not (self.status and self.status.ask):
            self.app.table.notice = None
            self.app.table.changed()

    def apply_again(self, yes: bool) -> None:
        if self.app is not None and self.app.table is not None:
            self.app.table.apply_again(yes)

    def show_table(self) -> None:
        if self.app is not None:
            self.app.show_table_info()

    def on_touch_down(self, touch: Any) -> bool:
        """A tap in the first moments after a screen change the player did not ask for is dropped."""
        if Clock.get_boottime() < self.locked_until:
            return True
        return bool(super().on_touch_down(touch))


def load_kv() -> None:
    """Load every layout once (the screen classes are imported above, so the rules find them)."""
    for name in KV_FILES:
        path = str(SCREENS_DIR / f"{name}.kv")
        if path not in Builder.files:
            Builder.load_file(path)


def clock_schedule(delay: float, call: Callable[[], None]) -> Callable[[], None]:
    event = Clock.schedule_once(lambda _dt: call(), delay)
    return event.cancel  # type: ignore[no-any-return]


class BrimstoneApp(App):
    """The table companion. `worker`/`post` default to a background thread and the Kivy clock."""

    title = "Brimstone Table"
    text_scale = NumericProperty(1.0)

    def __init__(self, *, data_dir: str | Path | None = None, online: Callable[[str], TableBackend] | None = None,
                 worker: Worker | None = None, post: Post | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._data_dir = Path(data_dir) if data_dir is not None else None
        self._online = online or GraphQLBackend
        self._worker = worker
        self._post = post
        self.inbox = CallQueue()
        self.table: TableSession | None = None
        self.shell: ShellPresenter | None = None
        self.frame: TableFrame | None = None
        self.screens: dict[str, Any] = {}
        self._ticks: list[Any] = []
        self.start: StartPresenter | None = None
        self.system_fontscale = Metrics.fontscale

    @property
    def data_dir(self) -> Path:
        return self._data_dir if self._data_dir is not None else Path(self.user_data_dir)

    def build(self) -> TableFrame:
        set_language()
        Window.clearcolor = theme.BG
        Window.softinput_mode = "below_target"
        Window.bind(on_keyboard=self._on_key)
        load_kv()
        post = self._post or self.inbox.post
        worker = self._worker or ThreadWorker(post)
        self._worker, self._post = worker, post
        self._ticks.append(Clock.schedule_interval(lambda _dt: self.inbox.drain(), 1 / 30))
        self._refresh_soon = Clock.create_trigger(lambda _dt: self.refresh())  # many changes, one redraw
        self.start = StartPresenter(online=self._online, offline_dir=self.data_dir / "tables", worker=worker,
                                    post=post, on_open=self.open_table)
        self._start_soon = Clock.create_trigger(lambda _dt: self.screens["start"].refresh())
        self.start.listeners.append(self._start_soon)
        frame = self._build_frame()
        link = platform.launch_link()
        if link:  # opened by a scanned QR code: join the table, or take in the posse
            Clock.schedule_once(lambda _dt: self.start.import_text(link) if self.start else None, 0)
        return frame

    def _build_frame(self) -> TableFrame:
        """The frame and its screens (again after a text size change: the layouts read the size when built)."""
        self.frame = frame = TableFrame(app=self, insets=list(platform.insets()))
        manager = frame.ids.screens
        self.screens = {"start": StartScreen(name="start")}
        self.tab_buttons: dict[str, TabButton] = {}
        self.screens["start"].presenter = self.start
        self.screens["start"].ask_number = self.ask_number  # the keypad, before any table is open
        manager.add_widget(self.screens["start"])
        for spec in SCREENS:
            screen = SCREEN_CLASSES[spec.name](name=spec.name)
            self.screens[spec.name] = screen
            manager.add_widget(screen)
            self.tab_buttons[spec.name] = TabButton(icon=spec.icon, label=_(spec.label), screen=spec.name,
                                                    on_release=lambda b: self.go(b.screen))
        self._show_tabs(frame)
        for name, page in PAGES.items():
            self.screens[name] = page(name=name)
            manager.add_widget(self.screens[name])
        for screen in self.screens.values():
            screen.bind(on_pre_enter=lambda s: s.refresh())
        if self.table is not None:
            self._attach(self.table)
            frame.in_table = True
        manager.current = "start"
        self.screens["start"].refresh()
        return frame

    def set_text_scale(self, scale: float) -> None:
        """The in-app text size, on top of the phone's font scale: the screens are built again at the new size."""
        self.text_scale = scale
        Metrics.fontscale = self.system_fontscale * scale
        self.rebuild()

    def rebuild(self) -> None:
        current = self.frame.current if self.frame is not None else "start"
        old = self.root
        self.root = self._build_frame()
        if old is not None and old.parent is not None:
            window = old.parent
            window.remove_widget(old)
            window.add_widget(self.root)
        if self.table is not None:
            self.go(current)

    # ---- a table is open -------------------------------------------------------------------------------------
    def _attach(self, table: TableSession) -> None:
        s = self.screens
        if self.shell is None or self.shell.table is not table:
            self.shell = ShellPresenter(table)
            self.presenters = {name: make(table) for name, make in PRESENTERS.items()}
        for name, presenter in self.presenters.items():
            s[name].presenter = presenter
        s["travel"].show_prompt = lambda: self.go("dice")
        s["dice"].go_back = lambda: self.go(phase_screen(table.read.phase.value))
        s["posse"].ask_number = self.ask_number
        for name in ("stay", "adventure"):
            s[name].show_prompt = lambda: self.go("dice")
        for name in ("travel", "dice", "stay", "adventure"):
            s[name].show_odds = lambda: self.go("odds")
            s[name].odds_fit = lambda: self.presenters["odds"].question() is not None
        s["adventure"].open_board = lambda: self.go(BOARD_SCREEN) if BOARD_SCREEN in self.screens else None
        s["odds"].go_back = lambda: self.go(phase_screen(table.read.phase.value))
        s["start"].ask_number = self.ask_number

    def open_table(self, table: TableSession) -> None:
        if self.table is not None:
            self.table.stop()
        self.table = table
        table.schedule = clock_schedule
        self.shell = None
        self._attach(table)
        table.listen(self._refresh_soon)
        self._ticks.append(Clock.schedule_interval(lambda _dt: table.tick(), 3))
        assert self.frame is not None
        self.frame.in_table = True
        platform.keep_awake(True)
        self.go(phase_screen(table.read.phase.value) if table.read.prompt is None
                or not table.is_mine(table.read.prompt) else "dice")
        start = self.start
        if start is not None and start.created is not None:
            self.show_table_info()

    def refresh(self) -> None:
        if self.table is None or self.frame is None or self.shell is None:
            return
        target = self.shell.follow(self.frame.current)
        if target is not None:
            self.frame.locked_until = Clock.get_boottime() + LOCKOUT  # the old screen's tap must not land here
            self.go(target)
            return
        self.frame.status = self.shell.status()
        self._show_tabs()
        home = self.shell.left_behind(self.frame.current)
        if home is not None:  # its tab is gone with the phase (the Stay after leaving town)
            self.go(home)
            return
        screen = self.screens.get(self.frame.current)
        if screen is not None:
            screen.refresh()

    def _show_tabs(self, frame: TableFrame | None = None) -> None:
        """The tabs of the table's phase (a later phase's screen shows its tab only in its phases)."""
        frame = frame or self.frame
        if frame is None:
            return
        phase = self.table.read.phase.value if self.table is not None else ""
        wanted = [self.tab_buttons[name] for name in tabs(phase) if name in self.tab_buttons]
        if list(reversed(frame.ids.tabs.children)) != wanted:
            frame.ids.tabs.clear_widgets()
            for button in wanted:
                frame.ids.tabs.add_widget(button)

    def go(self, name: str) -> None:
        assert self.frame is not None
        self._show_tabs()
        self.frame.current = name
        if self.shell is not None:
            self.frame.status = self.shell.status()
        for tab in self.frame.ids.tabs.children:
            tab.state = "down" if tab.screen == name else "normal"
        manager = self.frame.ids.screens
        transition = manager.transition
        if transition.is_active:  # a change during a transition: Kivy's stop() would leave the old screen in the
            transition.stop()  # tree, over the new one, taking its touches; finish it here instead
            for stale in [c for c in manager.children if c is not manager.current_screen]:
                manager.real_remove_widget(stale)
            if manager.current_screen is not None:
                manager.current_screen.pos = manager.pos
        if manager.current == name:
            self.screens[name].refresh()
        else:
            if hasattr(manager.transition, "duration"):
                manager.transition.duration = 0.15
            manager.current = name

    def ask_number(self, title: str, value: str, done: Callable[[str], Any],
                   problem: Callable[[], str] | None = None, following: Callable[[], Any] | None = None) -> None:
        popup = NumberPopup()
        popup.show((title, value.lstrip("$").rstrip("+").split("/")[0], done, problem, following))
        popup.open()

    def show_table_info(self, text: str = "") -> None:
        if self.table is None:
            return
        info = self.table.snapshot.table
        link = ""
        if not text:
            if info.server:
                text = _("Other phones join by scanning this code, or with the code {code} and the token "
                         "{token}.").format(code=info.code, token=info.token)
                link = join_link(info.server, info.code, info.token)
            else:
                text = _("Table {code}, kept on this phone (offline).").format(code=info.code or info.session_id)
        popup = InfoPopup(title=_("This table") + f" · {info.code}", text=text, leave=self.leave_table)
        popup.qr = link
        self._table_extras(popup.ids.extra)
        popup.open()

    def _table_extras(self, box: Any) -> None:
        """In the Table popup: which heroes this phone plays, the text size, and the posse's export code."""
        from kivy.factory import Factory

        table = self.table
        assert table is not None
        if host_call_label(table):  # a live table: its event's host can be called over
            button = Factory.DarkButton(text=host_call_label(table), on_release=lambda _b: press_host_call(table))
            stop = table.listen(lambda: setattr(button, "text", host_call_label(table)))  # the answer's words
            button.bind(parent=lambda b, parent: stop() if parent is None else None)
            box.add_widget(button)
        box.add_widget(Factory.Section(text=_("This phone plays")))
        for hero in table.heroes():
            on = hero.id in table.claimed
            box.add_widget(Factory.DarkButton(
                text=theme.icon("☑ " if on else "☐ ") + hero.name, markup=True,
                on_release=lambda b, h=hero.id: self._toggle_claim(b, h)))
        box.add_widget(Factory.Muted(text=_("Its heroes' dice and choices open this phone's Dice tab; the others' "
                                            "show as a line at the top. None ticked: this phone answers all.")))
        box.add_widget(Factory.Section(text=_("Text size")))
        row = Factory.StackLayout(size_hint_y=None, spacing=dp(6))
        row.bind(minimum_height=row.setter("height"))
        for scale in theme.TEXT_SCALES:
            row.add_widget(Factory.CountButton(text=f"{round(scale * 100)}%", font_size=Factory.Body().font_size,
                                               bold=scale == self.text_scale,
                                               on_release=lambda _b, s=scale: self.set_text_scale(s)))
        box.add_widget(row)

    def _toggle_claim(self, button: Any, hero_id: str) -> None:
        table = self.table
        assert table is not None
        claimed = set(table.claimed) ^ {hero_id}
        table.claim(claimed)
        name = table.hero_name(hero_id)
        button.text = theme.icon("☑ " if hero_id in claimed else "☐ ") + name
        if self.start is not None and table.snapshot.table.code:
            self.start.claim(table.snapshot.table.code, tuple(sorted(claimed)))

    def leave_table(self) -> None:
        if self.table is not None:
            self.table.stop()
            self.table = None
        platform.keep_awake(False)
        for tick in self._ticks[1:]:
            tick.cancel()
        del self._ticks[1:]
        assert self.frame is not None
        self.frame.in_table = False
        self.frame.status = None
        self.frame.current = "start"
        self.frame.ids.screens.current = "start"
        self.screens["start"].refresh()

    # ---- the phone around the app -------------------------------------------------------------------------------
    def _on_key(self, _window: Any, key: int, *_args: Any) -> bool:
        """Back (Escape on a desktop): close the popup on top, else go to the phase's screen."""
        if key != 27:
            return False
        popups = [w for w in Window.children if isinstance(w, ModalView)]
        current = self.frame.current if self.frame is not None else "start"
        action = ShellPresenter.back(current, bool(popups))
        if action == "close_popup":
            popups[0].dismiss()
            return True
        if action == "home" and self.table is not None:
            home = phase_screen(self.table.read.phase.value)
            if current != home:
                self.go(home)
                return True
        return False  # the system's Back: the app goes to the background

    def on_pause(self) -> bool:
        """Going to the background: the offline file gets the head state; the app stays alive."""
        if self.table is not None and isinstance(self.table.backend, OfflineBackend):
            self.table.backend.checkpoint()
        return True

    def on_resume(self) -> None:
        """Back in front: load what the table did meanwhile, keep the screen awake again."""
        if self.table is not None:
            self.table.refresh()
            platform.keep_awake(True)

    def on_stop(self) -> None:
        if self.table is not None:
            self.table.stop()
        if isinstance(self._worker, ThreadWorker):
            self._worker.stop()
