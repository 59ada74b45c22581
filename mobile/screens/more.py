"""The popups of a tap that needs one more (the Hits an Attack landed, whom an enemy struck: `ChoicePopup`) and of
a card the content pack lacks, typed in (`FormPopup`). Layout in more.kv; the choices, the fields and the commands
they make come from presenters/abilities.py through the Adventure presenter."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.modalview import ModalView

from .widgets import Stepper


class ChoicePopup(ModalView):
    """The -/+ numbers, then one button per answer; a button sends its action and closes the popup."""

    title = StringProperty("")
    text = StringProperty("")
    presenter: Any = ObjectProperty(None, allownone=True)
    action: Any = ObjectProperty(None, allownone=True)  # the tap that opened it (asked again after a -/+)

    def on_open(self) -> None:
        self.show()

    def show(self) -> None:
        choices = self.presenter.choices(self.action)
        if choices is None:
            self.dismiss()
            return
        self.title, self.text = choices.title, choices.text
        ids = self.ids
        ids.numbers.clear_widgets()
        ids.options.clear_widgets()
        for key, label, value in choices.numbers:
            stepper = Stepper(label=label, value=str(value))
            stepper.bind(on_step=lambda _w, d, k=key: self._step(k, d))
            ids.numbers.add_widget(stepper)
        for option in choices.options:
            ids.options.add_widget(Factory.DarkButton(text=option.label, disabled=not option.enabled,
                                                      on_release=lambda *_a, o=option: self.pick(o)))

    def _step(self, key: str, direction: int) -> None:
        self.presenter.step("more." + key, direction)
        self.show()

    def pick(self, option: Any) -> None:
        from ..presenters.adventure import AdventureAction

        self.dismiss()
        self.presenter.do(AdventureAction(option.key, option.label, option.arg, option.enabled))


class FormPopup(ModalView):
    """A card's name and numbers typed in; "send" makes the command (the popup stays open on a missing field)."""

    title = StringProperty("")
    text = StringProperty("")
    send_label = StringProperty("")
    presenter: Any = ObjectProperty(None, allownone=True)
    form: Any = ObjectProperty(None, allownone=True)

    def on_open(self) -> None:
        form = self.form
        self.title, self.text, self.send_label = form.title, form.text, form.send
        box = self.ids.fields
        box.clear_widgets()
        self.inputs: dict[str, Any] = {}
        for field in form.fields:
            box.add_widget(Factory.Muted(text=field.label))
            entry = Factory.DarkInput(text=field.value, multiline=False,
                                      input_filter="int" if field.number else None,
                                      input_type="number" if field.number else "text")
            self.inputs[field.key] = entry
            box.add_widget(entry)

    def send(self) -> None:
        values = {key: entry.text for key, entry in self.inputs.items()}
        if self.presenter.send_form(self.form, values):
            self.dismiss()
