"""The prompt screen: dice entry, Grit re-rolls, choices and cards (layout here and in dice.kv; behaviour in
PromptPresenter). The body is rebuilt for the prompt's kind; the buttons that send sit in a bar pinned above the
tabs, so they are never scrolled away or under the tab bar."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import ObjectProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.stacklayout import StackLayout

from .. import theme
from ..i18n import _
from ..presenters.dice import PromptPresenter, PromptView
from .widgets import DieButton, Stepper, text_input


def _grid(cols: int) -> GridLayout:
    return GridLayout(cols=cols, spacing=dp(12), padding=(dp(4), dp(6)), size_hint_y=None,
                      height=0, row_default_height=dp(72), row_force_default=False)


def _flow() -> StackLayout:
    """Buttons that wrap onto as many lines as the width and the text size need."""
    box = StackLayout(size_hint_y=None, spacing=dp(8), padding=(0, dp(4)))
    box.bind(minimum_height=box.setter("height"))
    return box


class DiceScreen(Screen):
    presenter: PromptPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    vm: PromptView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    go_back: Any = ObjectProperty(None, allownone=True)
    show_odds: Any = ObjectProperty(None, allownone=True)
    odds_fit: Any = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        if self.presenter is None:
            return
        self.vm = vm = self.presenter.view()
        body, actions = self.ids.body, self.ids.actions
        self.unfocus()
        body.clear_widgets()
        actions.clear_widgets()
        if vm.kind == "none":
            body.add_widget(Factory.Body(text=_("Nothing to answer now. When a rule needs dice, a choice or a card, "
                                               "it appears here.")))
            if self.go_back is not None:
                actions.add_widget(Factory.DarkButton(text=_("Back"), on_release=lambda *_a: self.go_back()))
            return
        if not vm.mine:
            body.add_widget(Factory.Body(text=_("{who}'s phone answers this one.").format(who=vm.who),
                                         color=theme.INFO))
            actions.add_widget(Factory.DarkButton(text=_("Answer it on this phone"),
                                                  on_release=lambda *_a: self.presenter.take_over()))
            return
        build = {"roll": self._roll, "reroll": self._reroll, "choice": self._choice, "card": self._card}[vm.kind]
        build(body, actions, vm)

    def unfocus(self) -> None:
        """A card's field losing its place (the body rebuilt, the screen left) gives the keyboard back: a field
        removed while focused would keep it."""
        for widget in self.ids.body.walk():
            if getattr(widget, "focus", False):
                widget.focus = False

    def on_leave(self, *_args: Any) -> None:
        self.unfocus()

    # ---- "I rolled" / "roll for me" --------------------------------------------------------------------------------
    def _roll(self, body: Any, actions: Any, vm: PromptView) -> None:
        p, entry = self.presenter, vm.roll
        assert p is not None and entry is not None
        if entry.posse:
            self._posse(body, actions, entry)
        if entry.grit and entry.target:  # a fail is offered the Grit re-roll; a pass only when asked (FF-GRIT-01)
            mark = theme.icon("☑" if entry.grit_after else "☐")
            body.add_widget(Factory.DarkButton(
                markup=True, text=_("{mark} Re-roll misses with Grit even if some hit ({n} Grit)").format(
                    mark=mark, n=entry.grit), on_release=lambda *_a: p.toggle_grit_after()))
        if entry.ones:
            for what, counts, chosen, title in (
                    ("hits", entry.hits, entry.hits_chosen, _("How many dice show {n} or more?").format(n=entry.target)),
                    ("ones", entry.ones, entry.ones_chosen, _("How many dice show 1?"))):
                body.add_widget(Factory.Section(text=title))
                row = _flow()
                for n in counts:
                    row.add_widget(Factory.CountButton(text=str(n), state="down" if n == chosen else "normal",
                                                       on_release=lambda _b, w=what, k=n: p.count(w, k)))
                body.add_widget(row)
        elif entry.hits:
            body.add_widget(Factory.Section(text=(_("Or only {who}'s dice: how many show {n} or more?") if entry.posse
                                                  else _("How many dice show {n} or more?")).format(
                n=entry.target, who=vm.who)))
            row = _flow()
            for n in entry.hits:
                row.add_widget(Factory.CountButton(text=str(n), on_release=lambda _b, k=n: p.send_hits(k)))
            body.add_widget(row)
        if entry.totals:
            body.add_widget(Factory.Section(text=_("The total of the two dice, then what the card says")
                                            if entry.card_totals else _("The total of the two dice")))
            row = _flow()
            for n in entry.totals:
                row.add_widget(Factory.CountButton(text=str(n), on_release=lambda _b, k=n: p.send_total(k)))
            body.add_widget(row)
        if entry.card_totals:  # the card read with these dice changes nothing: the total says it all
            body.add_widget(Factory.Section(text=_("Or the total, when the card has nothing to record")))
            row = _flow()
            for n in entry.card_totals:
                row.add_widget(Factory.CountButton(text=str(n), on_release=lambda _b, k=n: p.send_total_nothing(k)))
            body.add_widget(row)
        if entry.hits or entry.totals:
            body.add_widget(Factory.Section(text=_("Or each die's face")))
        dice = _grid(min(4, max(1, len(entry.slots))))  # four 72 dp dice fit 336 dp
        for slot in entry.slots:
            cell = Factory.Column(spacing=dp(4))  # the grid's width shared out: room for "Ones (white)"
            cell.add_widget(DieButton(die_colour=slot.colour, face=slot.face or 0, selected=slot.selected,
                                      pos_hint={"center_x": 0.5}, on_release=lambda _b, i=slot.index: p.select_die(i)))
            cell.add_widget(Factory.Muted(text=_(slot.label), halign="center", font_size=f"{min(12, 16)}sp"))
            dice.add_widget(cell)
        dice.bind(minimum_height=dice.setter("height"))
        body.add_widget(dice)
        body.add_widget(Factory.Heading(text=entry.reading, color=theme.ACCENT))
        body.add_widget(Factory.Muted(text=entry.hint))
        body.add_widget(Factory.Section(text=_("Tap the face: {die}").format(die=_(entry.pad_label))))
        pad = _grid(3)
        for face in entry.pad:
            pad.add_widget(Factory.PadButton(die_colour=entry.pad_colour, face=face,
                                             on_release=lambda _b, f=face: p.tap_face(f)))
        pad.bind(minimum_height=pad.setter("height"))
        body.add_widget(pad)
        if entry.sending:
            actions.add_widget(Factory.BarText(text=_("Sending {reading}…").format(reading=entry.reading),
                                            color=theme.INFO))
        row = Factory.Row()
        started = any(slot.face for slot in entry.slots)
        if entry.sending:
            row.add_widget(Factory.DarkButton(text=_("Wait, fix it"), on_release=lambda *_a: p.hold()))
        elif started or not (entry.hits or entry.totals):  # a count or a total is one tap: no send button
            row.add_widget(Factory.DarkButton(text=_("Clear"), size_hint_x=0.4, on_release=lambda *_a: p.clear_dice()))
            row.add_widget(Factory.PrimaryButton(text=_("I rolled: send"), disabled=not entry.complete,
                                                 on_release=lambda *_a: p.send_faces()))
        if row.children:
            actions.add_widget(row)
        if not entry.sending:
            actions.add_widget(Factory.DarkButton(text=_("Roll for me"), on_release=lambda *_a: p.roll_for_me()))

    def _posse(self, body: Any, actions: Any, entry: Any) -> None:
        """A test every hero takes in turn: each hero's row says passed or failed (a tap turns it), and one tap
        sends everyone's; a fail is still offered its Grit re-roll."""
        p = self.presenter
        assert p is not None
        body.add_widget(Factory.Section(text=_("Everyone takes this test: tap who failed")))
        for row in entry.posse:
            line = Factory.Row()
            line.add_widget(Factory.Body(text=_("{name}: {n} dice").format(name=row.name, n=row.dice),
                                         pos_hint={"center_y": 0.5}))
            said = (_("Passed") + " " + theme.icon("✓")) if row.passed else (_("Failed") + " " + theme.icon("✗"))
            line.add_widget(Factory.DarkButton(markup=True, text=said, size_hint_x=None, width=dp(132),
                                               on_release=lambda _b, h=row.hero: p.toggle_passed(h)))
            body.add_widget(line)
        failed = [row.name for row in entry.posse if not row.passed]
        text = (_("Everyone passed") if not failed
                else _("Send: {names} failed").format(names=", ".join(failed)))
        actions.add_widget(Factory.PrimaryButton(text=text, on_release=lambda *_a: p.send_posse()))

    # ---- Grit re-roll offers -------------------------------------------------------------------------------------
    def _reroll(self, body: Any, actions: Any, vm: PromptView) -> None:
        p, entry = self.presenter, vm.reroll
        assert p is not None and entry is not None
        body.add_widget(Factory.Body(text=_("{summary}. Grit left: {grit}.").format(summary=entry.summary,
                                                                                     grit=entry.grit)))
        dice = _grid(4)
        for die in entry.dice:
            marked = "locked" if die.locked else ("success" if die.success else "fail")
            dice.add_widget(DieButton(die_colour="white", face=die.face, selected=die.selected, marked=marked,
                                      mark=die.mark, disabled=die.locked,
                                      on_release=lambda _b, i=die.index: p.toggle_die(i)))
        dice.bind(minimum_height=dice.setter("height"))
        body.add_widget(dice)
        body.add_widget(Factory.Muted(markup=True, text=_("{hit} a hit (green), {miss} a miss (red). Tap dice to choose "
                                                          "them; a die re-rolled once is locked.").format(
            hit=theme.icon("✓"), miss=theme.icon("✗"))))
        if entry.after_hits:
            body.add_widget(Factory.Section(text=_("Re-rolled the {n} missed dice for 1 Grit? How many hit now?")
                                            .format(n=entry.misses)))
            row = _flow()
            for n in entry.after_hits:
                row.add_widget(Factory.CountButton(text=str(n), on_release=lambda _b, k=n: p.reroll_misses_hits(k)))
            body.add_widget(row)
        keep = Factory.PrimaryButton if entry.passed else Factory.DarkButton
        actions.add_widget(keep(text=_("Keep the dice") + (" " + _("(passed)") if entry.passed else ""),
                                on_release=lambda *_a: p.keep()))
        actions.add_widget(Factory.DarkButton(text=entry.reroll_label if entry.can_reroll
                                              else _("Re-roll the misses (1 Grit)"),
                                              disabled=not (entry.can_reroll or entry.misses),
                                              on_release=lambda *_a: p.reroll() if entry.can_reroll
                                              else p.reroll_misses()))

    # ---- choices and draws -------------------------------------------------------------------------------------------
    def _choice(self, body: Any, actions: Any, vm: PromptView) -> None:
        p = self.presenter
        assert p is not None
        if vm.draw:
            actions.add_widget(Factory.PrimaryButton(text=_("Draw all for me"), on_release=lambda *_a: p.draw_all()))
            actions.add_widget(Factory.DarkButton(text=_("Draw this one for me"),
                                                  on_release=lambda *_a: p.draw_for_me()))
            body.add_widget(Factory.Section(text=_("Or tap what the table drew")))
        if vm.asked:
            body.add_widget(Factory.Section(text=_("Each hero's answer: tap one to change it")))
            for row in vm.asked:
                body.add_widget(Factory.DarkButton(text=_("{name}: {answer}").format(name=row.name, answer=row.label),
                                                   on_release=lambda _b, h=row.hero: p.turn_pick(h)))
            actions.add_widget(Factory.PrimaryButton(text=_("Send everyone's answers"),
                                                     on_release=lambda *_a: p.send_asked()))
            body.add_widget(Factory.Section(text=_("Or only {who}:").format(who=vm.who)))
        for key, label in vm.options:
            body.add_widget(Factory.DarkButton(text=label, on_release=lambda _b, k=key: p.choose(k)))
        if vm.alike:
            body.add_widget(Factory.Section(text=_("Or the same for everyone left in this hazard:")))
            for key, label in vm.options:
                body.add_widget(Factory.DarkButton(text=_("Everyone: {answer}").format(answer=label),
                                                   on_release=lambda _b, k=key: p.choose(k, everyone=True)))
        if self.odds_fit is not None and self.odds_fit() and self.show_odds is not None:  # each option played out
            actions.add_widget(Factory.DarkButton(text=_("Our odds?"), on_release=lambda *_a: self.show_odds()))

    # ---- a card read at the table --------------------------------------------------------------------------------
    def _card(self, body: Any, actions: Any, vm: PromptView) -> None:
        p, entry = self.presenter, vm.card
        assert p is not None and entry is not None
        body.add_widget(Factory.Muted(text=entry.hint))
        text = text_input(entry.text, _("What the card says"), "WrapInput")
        text.bind(text=lambda _w, value: p.set_card_text(value))
        body.add_widget(text)
        if not entry.text and not entry.effects:  # the card's words are the first thing typed: the keyboard is up
            from kivy.clock import Clock

            Clock.schedule_once(lambda _dt: setattr(text, "focus", True) if text.get_root_window() else None, 0)
        body.add_widget(Factory.Section(text=_("What it changes")))
        for index, words in enumerate(entry.effects):
            body.add_widget(Factory.DarkButton(text=f"{words}   " + _("(tap to remove)"),
                                               on_release=lambda _b, i=index: p.remove_effect(i)))
        body.add_widget(Factory.Muted(text=_("A value it changes, and by how much:")))
        labels = dict(entry.fields)
        spinner = Factory.DarkSpinner(text=labels[entry.field], values=[label for _k, label in entry.fields])
        by_label = {label: key for key, label in entry.fields}
        spinner.bind(text=lambda _w, value: p.set_card_field(by_label[value]))
        body.add_widget(spinner)
        amount = Stepper(label=_("Amount"), value=f"{entry.amount:+d}")
        amount.bind(on_step=lambda _w, d: p.step_amount(d))
        body.add_widget(amount)
        body.add_widget(Factory.DarkButton(text=_("Add this change"), on_release=lambda *_a: p.add_change()))
        ops = dict(entry.named_ops)
        op = Factory.DarkSpinner(text=ops["add_item"], values=list(ops.values()))
        body.add_widget(Factory.Muted(text=_("Or something it gives or takes, by name:")))
        name = Factory.DarkInput(hint_text=_("Item, token, Mutation or keyword"))
        body.add_widget(name)
        body.add_widget(op)
        body.add_widget(Factory.DarkButton(text=_("Add"), on_release=lambda *_a: p.add_named(
            next(k for k, v in ops.items() if v == op.text), name.text)))
        row = Factory.Row()  # a card that changes nothing the app keeps is one tap; one that does is typed first
        row.add_widget(Factory.DarkButton(text=_("Nothing to record"), on_release=lambda *_a: p.send_nothing()))
        row.add_widget(Factory.PrimaryButton(text=_("Send the card"), on_release=lambda *_a: p.send_card()))
        actions.add_widget(row)
