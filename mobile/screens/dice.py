"""The prompt screen: dice entry, Grit re-rolls, choices and cards (layout here and in dice.kv; behaviour in
PromptPresenter). The body is rebuilt for the prompt's kind; every tap goes straight to the presenter."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import ObjectProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from .. import theme
from ..presenters.dice import PromptPresenter, PromptView
from .widgets import DieButton, Stepper, text_input


def _grid(cols: int) -> GridLayout:
    return GridLayout(cols=cols, spacing=dp(12), padding=(dp(4), dp(6)), size_hint_y=None,
                      height=0, row_default_height=dp(72), row_force_default=False)


class DiceScreen(Screen):
    presenter: PromptPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    vm: PromptView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    go_back: Any = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        if self.presenter is None:
            return
        self.vm = vm = self.presenter.view()
        body = self.ids.body
        body.clear_widgets()
        build = {"roll": self._roll, "reroll": self._reroll, "choice": self._choice, "card": self._card}.get(vm.kind)
        if build is None:
            body.add_widget(Factory.Body(text="Nothing to answer now. When a rule needs dice, a choice or a card, "
                                              "it appears here."))
            if self.go_back is not None:
                body.add_widget(Factory.DarkButton(text="Back to Travel", on_release=lambda *_: self.go_back()))
            return
        build(body, vm)

    # ---- "I rolled" / "roll for me" --------------------------------------------------------------------------------
    def _roll(self, body: Any, vm: PromptView) -> None:
        p, entry = self.presenter, vm.roll
        assert p is not None and entry is not None
        dice = _grid(min(4, max(1, len(entry.slots))))  # four 72 dp dice fit 336 dp
        for slot in entry.slots:
            cell = Factory.Column(spacing=dp(4), size_hint_x=None, width=dp(72))
            cell.add_widget(DieButton(die_colour=slot.colour, face=slot.face or 0, selected=slot.selected,
                                      on_release=lambda _b, i=slot.index: p.select_die(i)))
            cell.add_widget(Factory.Muted(text=slot.label, halign="center", font_size="12sp"))
            dice.add_widget(cell)
        dice.bind(minimum_height=dice.setter("height"))
        body.add_widget(Factory.Section(text="The dice"))
        body.add_widget(dice)
        body.add_widget(Factory.Heading(text=entry.reading, color=theme.ACCENT))
        body.add_widget(Factory.Muted(text=entry.hint))
        body.add_widget(Factory.Section(text=f"Tap the face: {entry.pad_label}"))
        pad = _grid(3)
        for face in entry.pad:
            pad.add_widget(Factory.PadButton(die_colour=entry.pad_colour, face=face,
                                             on_release=lambda _b, f=face: p.tap_face(f)))
        pad.bind(minimum_height=pad.setter("height"))
        body.add_widget(pad)
        row = Factory.Row()
        row.add_widget(Factory.DarkButton(text="Clear", size_hint_x=0.35, on_release=lambda *_: p.clear_dice()))
        row.add_widget(Factory.PrimaryButton(text="I rolled: send", disabled=not entry.complete,
                                             on_release=lambda *_: p.send_faces()))
        body.add_widget(row)
        body.add_widget(Factory.DarkButton(text="Roll for me", on_release=lambda *_: p.roll_for_me()))

    # ---- Grit re-roll offers -------------------------------------------------------------------------------------
    def _reroll(self, body: Any, vm: PromptView) -> None:
        p, entry = self.presenter, vm.reroll
        assert p is not None and entry is not None
        body.add_widget(Factory.Body(text=f"{entry.summary}. Grit left: {entry.grit}. Tap the dice to re-roll "
                                          "(a die re-rolled once is locked)."))
        dice = _grid(4)
        for die in entry.dice:
            marked = "locked" if die.locked else ("success" if die.success else "fail")
            dice.add_widget(DieButton(die_colour="white", face=die.face, selected=die.selected, marked=marked,
                                      disabled=die.locked, on_release=lambda _b, i=die.index: p.toggle_die(i)))
        dice.bind(minimum_height=dice.setter("height"))
        body.add_widget(dice)
        body.add_widget(Factory.Muted(text="Green: a success. Red: a miss. Brass: chosen to re-roll."))
        body.add_widget(Factory.PrimaryButton(text=entry.reroll_label, disabled=not entry.can_reroll,
                                              on_release=lambda *_: p.reroll()))
        body.add_widget(Factory.DarkButton(text="Keep the dice", on_release=lambda *_: p.keep()))

    # ---- choices and draws -------------------------------------------------------------------------------------------
    def _choice(self, body: Any, vm: PromptView) -> None:
        p = self.presenter
        assert p is not None
        if vm.draw:
            body.add_widget(Factory.PrimaryButton(text="Draw for me", on_release=lambda *_: p.draw_for_me()))
            body.add_widget(Factory.Section(text="Or tap what the table drew"))
        for key, label in vm.options:
            body.add_widget(Factory.DarkButton(text=label, on_release=lambda _b, k=key: p.choose(k)))

    # ---- a card read at the table --------------------------------------------------------------------------------
    def _card(self, body: Any, vm: PromptView) -> None:
        p, entry = self.presenter, vm.card
        assert p is not None and entry is not None
        body.add_widget(Factory.Muted(text=f"Chart or deck: {entry.chart}"))
        text = text_input(entry.text, "What the card says")
        text.bind(text=lambda _w, value: p.set_card_text(value))
        body.add_widget(text)
        body.add_widget(Factory.Section(text="What it changes"))
        for index, words in enumerate(entry.effects):
            body.add_widget(Factory.DarkButton(text=f"{words}   (tap to remove)",
                                               on_release=lambda _b, i=index: p.remove_effect(i)))
        body.add_widget(Factory.Muted(text="A value it changes, and by how much:"))
        labels = dict(entry.fields)
        spinner = Factory.DarkSpinner(text=labels[entry.field], values=[label for _, label in entry.fields])
        by_label = {label: key for key, label in entry.fields}
        spinner.bind(text=lambda _w, value: p.set_card_field(by_label[value]))
        body.add_widget(spinner)
        amount = Stepper(label="Amount", value=f"{entry.amount:+d}")
        amount.bind(on_step=lambda _w, d: p.step_amount(d))
        body.add_widget(amount)
        body.add_widget(Factory.DarkButton(text="Add this change", on_release=lambda *_: p.add_change()))
        ops = dict(entry.named_ops)
        op = Factory.DarkSpinner(text=ops["add_item"], values=list(ops.values()))
        body.add_widget(Factory.Muted(text="Or something it gives or takes, by name:"))
        name = Factory.DarkInput(hint_text="Item, token, Mutation or keyword")
        row = Factory.Row()
        row.add_widget(op)
        row.add_widget(Factory.DarkButton(text="Add", size_hint_x=0.4, on_release=lambda *_: p.add_named(
            next(k for k, v in ops.items() if v == op.text), name.text)))
        body.add_widget(name)
        body.add_widget(row)
        body.add_widget(Factory.PrimaryButton(text="Send the card", on_release=lambda *_: p.send_card()))
