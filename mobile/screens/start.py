"""The start screen: server address, the posse, join code and token, offline tables (layout in start.kv)."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import ObjectProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from shared_rules.state import HERO_CLASSES

from ..presenters.start import DRAFT_STATS, StartPresenter, StartView
from .widgets import text_input


class StartScreen(Screen):
    presenter: StartPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    vm: StartView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]

    def refresh(self) -> None:
        p = self.presenter
        if p is None:
            return
        self.vm = vm = p.view()
        body = self.ids.body
        body.clear_widgets()
        if vm.mode in ("create", "join"):
            body.add_widget(Factory.Section(text="Server address"))
            server = text_input(vm.server, "http://192.168.1.5:8000")
            server.bind(text=lambda _w, value: p.set_server(value))
            body.add_widget(server)
        if vm.mode == "join":
            self._join(body, vm)
            return
        if vm.mode == "offline" and vm.saved:
            body.add_widget(Factory.Section(text="Saved on this phone"))
            for code, text in vm.saved:
                body.add_widget(Factory.DarkButton(text=f"Resume {code}: {text}", halign="left",
                                                   on_release=lambda _b, c=code: p.resume_offline(c)))
        body.add_widget(Factory.Section(text="The posse (1-6 heroes, from their character sheets)"))
        for index, draft in enumerate(vm.drafts):
            body.add_widget(self._hero(index, draft))
        body.add_widget(Factory.DarkButton(text="Add a hero", disabled=not vm.can_add_hero,
                                           on_release=lambda *_: p.add_hero()))
        dice = "Physical dice: the app asks for each roll" if vm.table_dice else "App dice: the app rolls everything"
        body.add_widget(Factory.DarkButton(text=f"[{'x' if vm.table_dice else ' '}] {dice}",
                                           on_release=lambda *_: p.set_table_dice(not vm.table_dice)))
        label = "Play offline (kept on this phone)" if vm.mode == "offline" else "Create the table"
        body.add_widget(Factory.PrimaryButton(text=label, disabled=vm.busy, on_release=lambda *_: p.create()))

    def _join(self, body: Any, vm: StartView) -> None:
        p = self.presenter
        assert p is not None
        body.add_widget(Factory.Section(text="Table code and token (from the phone that created it)"))
        code = text_input(vm.join_code, "Code, e.g. K7QX2M")
        token = text_input(vm.join_token, "Token")
        code.bind(text=lambda _w, value: p.set_join(value, token.text))
        token.bind(text=lambda _w, value: p.set_join(code.text, value))
        body.add_widget(code)
        body.add_widget(token)
        body.add_widget(Factory.PrimaryButton(text="Join the table", disabled=vm.busy, on_release=lambda *_: p.join()))

    def _hero(self, index: int, draft: Any) -> Any:
        p = self.presenter
        assert p is not None
        card = Factory.Card()
        row = Factory.Row()
        name = text_input(draft.name, f"Hero {index + 1} name")
        name.bind(text=lambda _w, value, i=index: p.set_name(i, value))
        row.add_widget(name)
        row.add_widget(Factory.DarkButton(text="Remove", size_hint_x=None, width=dp(96),
                                          disabled=len(p.drafts) <= 1, on_release=lambda *_: p.remove_hero(index)))
        card.add_widget(row)
        spinner = Factory.DarkSpinner(text=draft.hero_class, values=list(HERO_CLASSES))
        spinner.bind(text=lambda _w, value, i=index: p.set_class(i, value) if value != p.drafts[i].hero_class
                     else None)
        card.add_widget(spinner)
        grid = GridLayout(cols=2, spacing=dp(8), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for key, label, _low, _high in DRAFT_STATS:
            value = draft.get(key)
            text = f"${value}" if key == "gold" else (f"{value}+" if key in ("defense", "willpower") else str(value))
            grid.add_widget(Factory.StatStepper(label=label, value=text,
                                                minus=lambda i=index, k=key: p.step_stat(i, k, -1),
                                                plus=lambda i=index, k=key: p.step_stat(i, k, 1)))
        card.add_widget(grid)
        return card
