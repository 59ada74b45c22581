"""The log: every event newest first; undo of the last step at once, of more after a confirmation.

Undo works as the service does it (SVC-UNDO: the state of version v-N is written again as v+1), and the log
presenter counts steps in effect, so a second "undo last step" takes back the step before, never redoes.
"""

from __future__ import annotations

from pathlib import Path

from mobile.client import LogStep, history
from mobile.presenters.log import LogPresenter
from mobile.presenters.posse import PossePresenter
from mobile.presenters.travel import TravelPresenter
from tests.mobile.helpers import hero, offline_table


def played(tmp_path: Path) -> tuple[LogPresenter, PossePresenter]:
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    posse = PossePresenter(table)
    posse.adjust("ann", "gold", +1)  # v1: $25
    posse.adjust("ann", "xp", +1)  # v2: 10 XP
    posse.adjust("ann", "gold", +1)  # v3: $50
    return LogPresenter(table), posse


def test_events_are_listed_newest_first_in_plain_words(tmp_path: Path) -> None:
    log, _ = played(tmp_path)
    rows = log.view().rows
    steps = [r.version for r in rows if r.kind == "step"]
    assert steps == sorted(steps, reverse=True) and steps[-1] == 0
    first_event = next(r for r in rows if r.kind == "event")
    assert "Gold" in first_event.text and "25 -> 50" in first_event.text and first_event.who == ""  # the name is in the words
    assert rows[-1].text.startswith("Table opened for Ann")


def test_undo_last_step_takes_back_one_step_and_marks_it_undone(tmp_path: Path) -> None:
    log, _ = played(tmp_path)
    table = log.table
    assert log.view().undoable == 3 and log.view().undo_last_label == "Undo: Ann: Gold +$25 at the table"
    log.undo_last()
    assert table.snapshot.state.hero("ann").gold == 25 and table.snapshot.version == 4
    undone = [r for r in log.view().rows if r.kind == "step" and r.undone]
    assert [r.version for r in undone] == [3] and undone[0].text.endswith("(taken back)")
    log.undo_last()  # the step before, not a redo
    ann = table.snapshot.state.hero("ann")
    assert (ann.gold, ann.xp) == (25, 0) and log.view().undoable == 1


def test_undo_of_more_needs_a_confirmation_that_names_the_steps(tmp_path: Path) -> None:
    log, _ = played(tmp_path)
    table = log.table
    log.step_more(+5)
    assert log.view().undo_steps == 3  # never more than there is
    log.step_more(-1)
    confirm = log.ask_undo()
    assert confirm is not None and confirm.steps == 2 and "2 steps" in confirm.question
    assert table.snapshot.version == 3  # nothing happens before the confirmation
    log.cancel()
    assert log.view().confirm is None and table.snapshot.version == 3
    log.ask_undo(2)
    log.confirm_undo()
    ann = table.snapshot.state.hero("ann")
    assert (ann.gold, ann.xp) == (25, 0) and log.view().confirm is None


def test_nothing_to_undo_at_the_start(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    log = LogPresenter(table)
    assert log.view().undoable == 0 and log.view().undo_last_label == "Nothing to undo"
    log.undo_last()
    assert log.ask_undo(1) is None and table.snapshot.version == 0


def test_undo_inside_a_hazard_goes_back_to_its_prompt(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    TravelPresenter(table).choose_size("medium")
    TravelPresenter(table).roll_hazard()
    prompt = table.snapshot.pending
    assert prompt is not None
    from mobile.presenters.dice import PromptPresenter

    dice = PromptPresenter(table)
    dice.send_raw([2, 4])
    assert table.snapshot.pending is None
    LogPresenter(table).undo_last()
    assert table.snapshot.pending == prompt


def test_history_follows_undos_of_undos() -> None:
    log = [LogStep(0, "create"), LogStep(1, "adjust"), LogStep(2, "adjust"), LogStep(3, "undo", undo_to=1),
           LogStep(4, "adjust"), LogStep(5, "undo", undo_to=3), LogStep(6, "undo", undo_to=4)]
    assert history(log, 2) == [0, 1, 2]
    assert history(log, 3) == [0, 1]  # 2 undone
    assert history(log, 4) == [0, 1, 4]
    assert history(log, 5) == [0, 1]  # back to version 3's state, which is version 1's
    assert history(log, 6) == [0, 1, 4]
    assert history(log[2:], 4) == [4]  # versions older than the log held: the path stops there


def test_a_long_log_shows_the_newest_steps_first_and_older_on_request(tmp_path: Path) -> None:
    from mobile.presenters.log import PAGE

    table = offline_table(tmp_path, [hero("ann", "Ann")])
    posse = PossePresenter(table)
    for _ in range(PAGE + 5):
        posse.adjust("ann", "xp", +1)
    log = LogPresenter(table)
    view = log.view()
    shown = [r.version for r in view.rows if r.kind == "step"]
    assert shown[0] == PAGE + 5 and len(shown) == PAGE and view.older == 6
    log.show_older()
    assert log.view().older == 0 and [r.version for r in log.view().rows if r.kind == "step"][-1] == 0


def test_an_undo_says_what_it_took_back_and_rules_hide_behind_why(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    PossePresenter(table).adjust("ann", "gold", +1)
    log = LogPresenter(table)
    log.undo_last()
    view = log.view()
    assert view.steps[0].events[0].text == "Taken back: Ann: Gold +$25 at the table"
    assert all(not row.rule and not row.who for step in view.steps for row in step.events)
    log.toggle_why()
    assert any(row.rule == "MANUAL" for step in log.view().steps for row in step.events) and log.view().why


def test_a_spanish_phone_reads_the_log_its_headings_and_undo_in_spanish(tmp_path: Path) -> None:
    """The log's headings, what undo and redo take back and the confirmation are the app's words, and a value
    moved by hand is worded from the engine's facts (which value, by how much), not from an English reason."""
    from mobile import i18n

    log, _ = played(tmp_path)
    i18n.set_language("es")
    try:
        view = log.view()
        assert view.undo_last_label == "Deshacer: Ann: Oro +$25 en la mesa"
        assert view.undo_more_label == "Deshacer 2 pasos..."
        assert [s.title for s in view.steps][:3] == ["Cambiado en la mesa"] * 3
        log.undo_last()
        view = log.view()
        assert view.steps[0].title == "Deshecho" and view.steps[0].events[0].text == "Deshecho: Ann: Oro +$25 en la mesa"
        assert view.steps[1].title == "Cambiado en la mesa (deshecho)"
        assert view.redo_label == "Rehacer: Ann: Oro +$25 en la mesa"
        confirm = log.ask_undo(2)
        assert confirm is not None and confirm.question.startswith("¿Deshacer los últimos 2 pasos (Ann: PX +10 en la mesa")
        english = ("Undo", "Redo", "Taken back", "at the table", "Changed", "steps")
        shown = [view.undo_last_label, view.undo_more_label, view.redo_label, confirm.question,
                 *(s.title for s in view.steps), *(e.text for s in view.steps for e in s.events)]
        assert not [text for text in shown if any(word in text for word in english)]
    finally:
        i18n.set_language("en")
