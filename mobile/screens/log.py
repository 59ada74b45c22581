"""The log screen: events newest first, undo of the last step, undo of more after a confirmation (log.kv)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.factory import Factory
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from ..presenters.log import LogPresenter, LogView


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
        for row in vm.rows:
            rows.add_widget(Factory.LogLine(kind=row.kind, text=row.text, who=row.who, rule=row.rule,
                                            undone=row.undone))
        if vm.confirm is not None and self.popup is None:
            self.popup = ConfirmPopup(question=vm.confirm.question, yes=f"Undo {vm.confirm.steps} steps")
            self.popup.on_answer = self._answered
            self.popup.open()

    def _answered(self, yes: bool) -> None:
        self.popup = None
        assert self.presenter is not None
        if yes:
            self.presenter.confirm_undo()
        else:
            self.presenter.cancel()
