"""The Kivy App: the frame (status bar, prompt bar, tabs), the screen registry, and the wiring to presenters.

Screens are `screens/<name>.kv` (layout) + `screens/<name>.py` (a thin class); every decision is made in
`presenters/`. Backend calls run on one worker thread; their results, and live updates, come back to the UI thread
through a call queue drained by the Kivy clock.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from . import theme
from .client import GraphQLBackend, TableBackend
from .presenters.dice import PromptPresenter
from .presenters.log import LogPresenter
from .presenters.posse import PossePresenter
from .presenters.shell import ShellPresenter, StatusView
from .presenters.start import StartPresenter
from .presenters.table import CallQueue, Post, TableSession, ThreadWorker, Worker
from .presenters.town import TownPresenter
from .presenters.travel import TravelPresenter
from .screens.dice import DiceScreen
from .screens.log import LogScreen
from .screens.posse import PosseScreen
from .screens.start import StartScreen
from .screens.town import TownScreen
from .screens.travel import TravelScreen

SCREENS = Path(__file__).parent / "screens"
KV_FILES = ("widgets", "posse", "dice", "travel", "town", "log", "start", "app")
TABLE_SCREENS = ("posse", "travel", "dice", "town", "log")


class InfoPopup(ModalView):
    title = StringProperty("")
    text = StringProperty("")
    leave = ObjectProperty(None, allownone=True)


class TableFrame(BoxLayout):
    """Status bar, notice and prompt bars, the screens, and the tab bar."""

    in_table = BooleanProperty(False)
    current = StringProperty("start")
    status: StatusView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    app: BrimstoneApp | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]

    def go(self, name: str) -> None:
        if self.app is not None:
            self.app.go(name)

    def dismiss_notice(self) -> None:
        if self.app is not None and self.app.table is not None:
            self.app.table.notice = None
            self.app.table.changed()

    def show_table(self) -> None:
        if self.app is not None:
            self.app.show_table_info()


def load_kv() -> None:
    """Load every layout once (the screen classes are imported above, so the rules find them)."""
    for name in KV_FILES:
        path = str(SCREENS / f"{name}.kv")
        if path not in Builder.files:
            Builder.load_file(path)


class BrimstoneApp(App):
    """The table companion. `worker`/`post` default to a background thread and the Kivy clock."""

    title = "Brimstone Table"

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

    @property
    def data_dir(self) -> Path:
        return self._data_dir if self._data_dir is not None else Path(self.user_data_dir)

    def build(self) -> TableFrame:
        Window.clearcolor = theme.BG
        Window.softinput_mode = "below_target"
        load_kv()
        post = self._post or self.inbox.post
        worker = self._worker or ThreadWorker(post)
        self._worker, self._post = worker, post
        self._ticks.append(Clock.schedule_interval(lambda _dt: self.inbox.drain(), 1 / 30))
        self._refresh_soon = Clock.create_trigger(lambda _dt: self.refresh())  # many changes, one redraw
        self.frame = frame = TableFrame(app=self)
        manager = frame.ids.screens
        for screen in (StartScreen(name="start"), PosseScreen(name="posse"), TravelScreen(name="travel"),
                       DiceScreen(name="dice"), TownScreen(name="town"), LogScreen(name="log")):
            self.screens[screen.name] = screen
            screen.bind(on_pre_enter=lambda s: s.refresh())
            manager.add_widget(screen)
        start = StartPresenter(online=self._online, offline_dir=self.data_dir / "tables", worker=worker, post=post,
                               on_open=self.open_table)
        start_soon = Clock.create_trigger(lambda _dt: self.screens["start"].refresh())
        start.listeners.append(start_soon)
        self.screens["start"].presenter = start
        manager.current = "start"
        self.screens["start"].refresh()
        return frame

    # ---- a table is open -------------------------------------------------------------------------------------
    def open_table(self, table: TableSession) -> None:
        if self.table is not None:
            self.table.stop()
        self.table = table
        self.shell = ShellPresenter(table)
        s = self.screens
        s["posse"].presenter = PossePresenter(table)
        s["travel"].presenter = TravelPresenter(table)
        s["travel"].show_prompt = lambda: self.go("dice")
        s["dice"].presenter = PromptPresenter(table)
        s["dice"].go_back = lambda: self.go("travel")
        s["town"].presenter = TownPresenter(table)
        s["log"].presenter = LogPresenter(table)
        table.listen(self._refresh_soon)
        self._ticks.append(Clock.schedule_interval(lambda _dt: table.tick(), 3))
        assert self.frame is not None
        self.frame.in_table = True
        self.go("travel" if table.snapshot.pending is None else "dice")
        start = s["start"].presenter
        if start is not None and start.created is not None:
            code, token = start.created
            self.show_table_info(f"Table {code} is open. Other phones join with the code {code} and the token "
                                 f"{token}")

    def refresh(self) -> None:
        if self.table is None or self.frame is None or self.shell is None:
            return
        target = self.shell.follow(self.frame.current)
        if target is not None:
            self.go(target)
            return
        self.frame.status = self.shell.status()
        screen = self.screens.get(self.frame.current)
        if screen is not None:
            screen.refresh()

    def go(self, name: str) -> None:
        assert self.frame is not None
        self.frame.current = name
        if self.shell is not None:
            self.frame.status = self.shell.status()
        manager = self.frame.ids.screens
        if manager.current == name:
            self.screens[name].refresh()
        else:
            manager.transition.duration = 0.15
            manager.current = name

    def show_table_info(self, text: str = "") -> None:
        if self.table is None:
            return
        info = self.table.snapshot.table
        if not text:
            where = f"on {info.server}" if info.server else "on this phone (offline)"
            text = f"Table {info.code or info.session_id} {where}."
            if info.token:
                text += f" Other phones join with the code {info.code} and the token {info.token}"
        InfoPopup(title="This table", text=text, leave=self.leave_table).open()

    def leave_table(self) -> None:
        if self.table is not None:
            self.table.stop()
            self.table = None
        for tick in self._ticks[1:]:
            tick.cancel()
        del self._ticks[1:]
        assert self.frame is not None
        self.frame.in_table = False
        self.frame.status = None
        self.frame.current = "start"
        self.frame.ids.screens.current = "start"
        self.screens["start"].refresh()

    def on_stop(self) -> None:
        if self.table is not None:
            self.table.stop()
        if isinstance(self._worker, ThreadWorker):
            self._worker.stop()
