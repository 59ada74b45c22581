"""The log screen: events newest first, undo of the last step, undo of more after a confirmation (log.kv)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.factory import Factory
from kivy.metrics import sp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from .. import theme
from ..i18n import _
from ..presenters.log import LogPresenter, LogView, StepView


def _hex(colour: tuple[float, ...]) -> str:
    return "".join(f"{round(c * 255):02x}" for c in colour[:3])


def block_markup(step: StepView) -> str:
    """A step's title and its events as Kivy markup: title in brass, who and rule small and muted."""
    title_colour = _hex(theme.MUTED if step.undone else theme.ACCENT)
    title = escape_markup(step.title)
    lines = [f"[b][color={title_colour}]{'[s]' + title + '[/s]' if step.undone else title}[/color][/b]"]
    text_colour = _hex(theme.MUTED if step.undone else theme.TEXT)
    for event in step.events:
        meta = " · ".join(x for x in (event.who, event.rule) if x)
        lines.append(f"[color={text_colour}]{escape_markup(event.text)}[/color]"
                     + (f"\n[size={round(sp(12))}][color={_hex(theme.MUTED)}]{escape_markup(meta)}[/color][/size]"
                        if meta else ""))
    return "\n".join(lines)


class ConfirmPopup(ModalView):
    question = StringProperty("")
    yes = StringProperty("Yes")
    on_answer: Callable[[bool], None] | None = None

    def answer(self, yes: bool) -> None:
        self.dismiss()
        if self.on_answer is not None:
            self.on_answer(yes)


class LogScreen(Screen):
    presenter: LogPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    vm: LogView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    popup: ConfirmPopup | None = None

    def refresh(self) -> None:
        p = self.presenter
        if p is None:
            return
        self.vm = vm = p.view()
        rows = self.ids.rows
        rows.clear_widgets()
        for step in vm.steps:  # one label per step (markup): a long log stays quick to draw
            rows.add_widget(Factory.LogBlock(text=block_markup(step)))
        if vm.confirm is not None and self.popup is None:
            self.popup = ConfirmPopup(question=vm.confirm.question,
                                      yes=_("Take back {n} steps").format(n=vm.confirm.steps))
            self.popup.on_answer = self._answered
            self.popup.open()

    def _answered(self, yes: bool) -> None:
        self.popup = None
        assert self.presenter is not None
        if yes:
            self.presenter.confirm_undo()
        else:
            self.presenter.cancel()
