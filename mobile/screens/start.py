"""The start screen: remembered tables, a join link or code, the posse (typed from the sheets or imported from last
night's export), offline tables (layout in start.kv, behaviour in StartPresenter)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import ObjectProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from .. import theme
from ..i18n import _
from ..presenters.start import DRAFT_STATS, TAGS, StartPresenter, StartView, tag_word, tag_words
from .widgets import text_input


def stat_text(key: str, value: int) -> str:
    return f"${value}" if key == "gold" else (f"{value}+" if key in ("defense", "willpower") else str(value))


class StartScreen(Screen):
    presenter: StartPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    vm: StartView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    ask_number = ObjectProperty(None, allownone=True)
    focus_name: int | None = None  # the hero whose name field gets the keyboard at the next refresh
    _shape: StartView | None = None  # what the widgets were built for, numbers aside
    _steppers: dict[tuple[int, str], Any] = {}  # noqa: RUF012 - replaced per build


    def refresh(self) -> None:
        p = self.presenter
        if p is None:
            return
        self.vm = vm = p.view()
        shape = replace(vm, drafts=tuple(replace(d, stats=()) for d in vm.drafts), message="")
        if shape == self._shape and self._steppers:  # only numbers changed (the keypad): update them in place
            for (index, key), stepper in self._steppers.items():
                stepper.value = stat_text(key, vm.drafts[index].get(key))
            return
        self._shape, self._steppers = shape, {}
        body = self.ids.body
        body.clear_widgets()
        if vm.mode in ("create", "join"):
            body.add_widget(Factory.Section(text=_("Server address")))
            server = text_input(vm.server, "http://192.168.1.5:8000", "UrlInput")
            server.bind(text=lambda _w, value: p.set_server(value))
            body.add_widget(server)
        if vm.mode == "join":
            self._join(body, vm)
            return
        if vm.mode == "offline" and vm.saved:
            body.add_widget(Factory.Section(text=_("Saved on this phone")))
            for code, text in vm.saved:
                body.add_widget(Factory.DarkButton(text=_("Resume") + f" {code}: {text}", halign="left",
                                                   on_release=lambda _b, c=code: p.resume_offline(c)))
        self._packs(body, vm)
        body.add_widget(Factory.Section(text=_("The posse (1-6 heroes, from their character sheets)")))
        body.add_widget(self._import_row())
        for index, draft in enumerate(vm.drafts):
            body.add_widget(self._hero(index, draft))
        body.add_widget(Factory.DarkButton(text=_("Add a hero"), disabled=not vm.can_add_hero,
                                           on_release=lambda *_a: self._add_hero()))
        dice = (_("Physical dice: the app asks for each roll") if vm.table_dice
                else _("App dice: the app rolls everything"))
        body.add_widget(Factory.DarkButton(text=theme.icon("☑ " if vm.table_dice else "☐ ") + dice, markup=True,
                                           on_release=lambda *_a: p.set_table_dice(not vm.table_dice)))
        label = _("Play offline (kept on this phone)") if vm.mode == "offline" else _("Create the table")
        body.add_widget(Factory.PrimaryButton(text=label, disabled=vm.busy, on_release=lambda *_a: p.create()))

    def _packs(self, body: Any, vm: StartView) -> None:
        """The content pack: the packs on this phone (one tap chooses), and taking one in from a file, its text,
        a link, or another phone's code; what the engine's check said, next to the field."""
        p = self.presenter
        assert p is not None
        body.add_widget(Factory.Section(text=_("Content pack (class sheets and cards)")))
        for name, holds in vm.packs:
            on = name == vm.pack
            body.add_widget(Factory.DarkButton(
                text=theme.icon("☑ " if on else "☐ ") + escape_markup(f"{name}: {holds}"), markup=True,
                halign="left", on_release=lambda _b, n=name: p.choose_pack(n)))
        field = text_input("", _("A pack file's path, the pack, or its link"))
        field.bind(on_text_validate=lambda w: p.import_pack(w.text))
        body.add_widget(field)
        if vm.pack_message:  # next to the field: taken in, or why not in the game's words
            body.add_widget(Factory.Body(text=vm.pack_message, bold=True,
                                         color=theme.DANGER if vm.pack_refused else theme.INFO))
        for path in vm.pack_files:
            body.add_widget(Factory.DarkButton(text=_("Take in") + " " + escape_markup(Path(path).name),
                                               halign="left", on_release=lambda _b, f=path: p.import_pack(f)))
        row = Factory.Row()
        row.add_widget(Factory.DarkButton(text=_("Take in the pack"), on_release=lambda *_a: p.import_pack(field.text)))
        row.add_widget(Factory.DarkButton(text=_("Show as a code"), on_release=lambda *_a: self._show_pack()))
        body.add_widget(row)
        if vm.mode == "create" and vm.pack != "default":
            body.add_widget(Factory.Muted(text=_("On a server table the pack fills in the heroes' starting numbers; "
                                                 "the cards come from the packs the server has.")))

    def _show_pack(self) -> None:
        """The chosen pack as a QR code another phone's camera opens (or, too big for a code, its file)."""
        p = self.presenter
        assert p is not None
        from ..app import InfoPopup

        link = p.pack_link()
        text = (_("Scan this code with the other phone's camera to take in the pack {name}.") if link
                else _("The pack {name} is too big for one code: send the other phone its file, {path}.")).format(
            name=p.pack, path=p.pack_file())
        popup = InfoPopup(title=_("Content pack") + f" · {p.pack}", text=text)
        popup.qr = link
        popup.open()

    def _add_hero(self) -> None:
        """A new hero's card, its name field ready for the keyboard (the next thing to type)."""
        p = self.presenter
        assert p is not None
        p.add_hero()
        self.focus_name = len(p.drafts) - 1

    def _import_row(self) -> Any:
        p = self.presenter
        assert p is not None
        box = Factory.Column()
        paste = text_input("", _("Paste an exported posse or a posse link"))
        row = Factory.Row()
        row.add_widget(Factory.DarkButton(text=_("Import"), on_release=lambda *_a: p.import_text(paste.text)))
        row.add_widget(Factory.DarkButton(text=_("Export"), on_release=lambda *_a: self._export()))
        box.add_widget(paste)
        box.add_widget(row)
        return box

    def _export(self) -> None:
        """The posse as a file in the app's folder and as a QR code to scan the next night."""
        p = self.presenter
        assert p is not None
        from ..app import InfoPopup

        path = Path(p.offline_dir).parent / "posse.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(p.export_text(), encoding="utf-8")
        popup = InfoPopup(title=_("The posse, to carry over"),
                          text=_("Saved as {path}. Or scan this code with the other phone's camera.").format(
                              path=path))
        popup.qr = p.export_link()
        popup.open()

    def _join(self, body: Any, vm: StartView) -> None:
        p = self.presenter
        assert p is not None
        if vm.remembered:
            body.add_widget(Factory.Section(text=_("Tables you joined")))
            for row in vm.remembered:
                body.add_widget(Factory.DarkButton(text=_("Rejoin") + f" {row.code}: {row.posse}", halign="left",
                                                   on_release=lambda _b, c=row.code: p.rejoin(c)))
        body.add_widget(Factory.Section(text=_("Scan the table's QR code with the camera, or paste its link")))
        link = text_input("", "brimstone://join?…")
        body.add_widget(link)
        body.add_widget(Factory.DarkButton(text=_("Open the link"), on_release=lambda *_a: p.open_link(link.text)))
        body.add_widget(Factory.Section(text=_("Or the table's code and token (from the phone that created it)")))
        code = text_input(vm.join_code, _("Code, e.g. K7QX2M"))
        token = text_input(vm.join_token, _("Token"))
        code.bind(text=lambda _w, value: p.set_join(value, token.text))
        token.bind(text=lambda _w, value: p.set_join(code.text, value))
        body.add_widget(code)
        body.add_widget(token)
        body.add_widget(Factory.PrimaryButton(text=_("Join the table"), disabled=vm.busy,
                                              on_release=lambda *_a: p.join()))

    def _hero(self, index: int, draft: Any) -> Any:
        p = self.presenter
        assert p is not None
        card = Factory.Card()
        name = text_input(draft.name, _("Hero {n} name").format(n=index + 1))
        name.bind(text=lambda _w, value, i=index: p.set_name(i, value))
        card.add_widget(name)
        if self.focus_name == index:
            self.focus_name = None
            Clock.schedule_once(lambda _dt: setattr(name, "focus", True), 0)
        cls = text_input(draft.hero_class, _("Class (pick one or type any)"))
        cls.bind(on_text_validate=lambda w, i=index: p.set_class(i, w.text))
        card.add_widget(cls)
        picks = p.class_suggestions("")
        spinner = Factory.DarkSpinner(text=_("Pick a class"), values=list(picks))
        spinner.bind(text=lambda _w, value, i=index: self._picked(i, value) if value in picks else None)
        card.add_widget(spinner)
        grid = GridLayout(cols=2, spacing=dp(8), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for key, label, _low, _high in DRAFT_STATS:
            stepper = Factory.StatStepper(
                label=_(label), value=stat_text(key, draft.get(key)), minus=lambda i=index, k=key: p.step_stat(i, k, -1),
                plus=lambda i=index, k=key: p.step_stat(i, k, 1), typed=lambda i=index, k=key: self._type(i, k))
            self._steppers[(index, key)] = stepper
            grid.add_widget(stepper)
        card.add_widget(grid)
        keywords = text_input(", ".join(draft.keywords), _("Keywords, e.g. Law, Showman"))
        keywords.bind(on_text_validate=lambda w, i=index: p.set_keywords(i, w.text))
        card.add_widget(keywords)
        card.add_widget(Factory.Section(text=_("Items (with the keywords hazards read)")))
        for number, item in enumerate(draft.items):
            tags = ", ".join([w for w in (tag_words(item.tags),) if w]
                             + ([_("{n} Hourglass").format(n=item.hourglass)] if item.hourglass else []))
            card.add_widget(Factory.DarkButton(text=escape_markup(f"{item.name}" + (f" ({tags})" if tags else ""))
                                               + "   " + theme.icon("✕"), markup=True, halign="left",
                                               on_release=lambda _b, i=index, n=number: p.remove_item(i, n)))
        item = text_input("", _("Item name (enter adds it)"))
        chosen: set[str] = set()

        def add(i: int = index) -> None:
            p.add_item(i, item.text, tuple(t for t in TAGS if t in chosen), 1 if "hourglass" in chosen else 0)

        item.bind(on_text_validate=lambda _w: add())
        chips = Factory.StackLayout(size_hint_y=None, spacing=dp(6))
        chips.bind(minimum_height=chips.setter("height"))
        for tag in (*TAGS, "hourglass"):  # the keywords, and the black Hourglass icon (Raging River reads it)
            chip = Factory.ToggleButton(text=tag_word(tag) if tag != "hourglass" else _("1 Hourglass"),
                                        size_hint=(None, None), background_normal="", background_down="",
                                        background_color=theme.SURFACE_2, color=theme.TEXT)
            chip.bind(texture_size=lambda b, size: setattr(b, "size", (max(dp(48), size[0] + dp(20)),
                                                                       max(dp(48), size[1] + dp(16)))))
            chip.bind(state=lambda b, s, t=tag: (chosen.add(t) if s == "down" else chosen.discard(t),
                                                 setattr(b, "background_color",
                                                         theme.ACCENT if s == "down" else theme.SURFACE_2),
                                                 setattr(b, "color", theme.ON_ACCENT if s == "down" else theme.TEXT)))
            chips.add_widget(chip)
        card.add_widget(chips)  # the keywords first, then the name: the keyboard's enter adds the item
        card.add_widget(item)
        card.add_widget(Factory.DarkButton(text=_("Add the item"), on_release=lambda *_a: add()))
        card.add_widget(Factory.DarkButton(text=_("Remove this hero"), disabled=len(p.drafts) <= 1,
                                           on_release=lambda *_a: p.remove_hero(index)))
        return card

    def _picked(self, index: int, hero_class: str) -> None:
        """A class picked: its sheet fills in what the pack has, and the keypad opens on the first number left."""
        p = self.presenter
        assert p is not None
        p.set_class(index, hero_class)
        order = p.number_order(index)
        if order and self.ask_number is not None:
            self.ask_number(*self._number(index, order[0]))

    def _type(self, index: int, key: str) -> None:
        if self.presenter is None or self.ask_number is None:
            return
        self.ask_number(*self._number(index, key))

    def _number(self, index: int, key: str) -> tuple[Any, ...]:
        """A number of the hero's sheet for the keypad: its title, value, where it goes, and the next one."""
        p = self.presenter
        assert p is not None
        label = next(lbl for k, lbl, *_ in DRAFT_STATS if k == key)
        after = p.next_number(index, key)
        following = (lambda: self._number(index, after)) if after is not None else None
        return (_(label), str(p.drafts[index].get(key)), lambda text: p.set_stat(index, key, text),
                lambda: p.message, following)
