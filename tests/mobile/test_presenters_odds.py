"""The odds screen: the question that fits the table now, played on the phone offline until every chance is within
2 in 100 (online: 1 in 100), every figure in words with its range ("about 7 in 10 ..."), and no question where none
fits."""

from __future__ import annotations

from pathlib import Path

from mobile.presenters.odds import OFFLINE_PRECISION, OddsPresenter, card_of, chance_words, in_ten
from tests.mobile.helpers import hero, offline_table
from tests.mobile.phases import in_town


def inline(job, done):  # type: ignore[no-untyped-def]
    try:
        done(job(), None)
    except Exception as error:  # noqa: BLE001
        done(None, error)


def test_chances_in_a_players_words() -> None:
    assert in_ten(0.71) == "about 7 in 10" and in_ten(0.03) == "about 3 in 100"
    assert in_ten(0.999) == "almost certainly" and in_ten(0.001) == "fewer than 1 in 100"
    assert chance_words({"p": 0.7, "ci": [0.62, 0.77]}) == "about 7 in 10 (likely between 62% and 77%)"
    # known to within a point or two: said in hundreds, so the range does not contradict "about 2 in 10"
    assert chance_words({"p": 0.155, "ci": [0.148, 0.162]}) == "about 16 in 100 (likely between 14.8% and 16.2%)"
    assert chance_words({"p": 0.155, "ci": [0.13, 0.18]}) == "about 16 in 100 (likely between 13% and 18%)"
    assert chance_words({"p": None, "ci": None}) == "not known yet"


def test_after_an_adventure_the_town_sizes_are_compared_on_the_phone(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob")], dice="server")
    odds = OddsPresenter(table, runner=inline)
    view = odds.view()
    assert view.question == "Which town size?" and view.can_ask and view.status == "idle"
    odds.ask()
    view = odds.view()
    assert view.status == "done" and [c.label for c in view.cards] == ["Small Town", "Medium Town", "Large Town"]
    first = view.cards[0].lines[0]
    assert first.startswith("Reach town with everyone alive: ") and "%" in first
    assert odds.answer is not None and odds.answer["precision_met"]  # each option stopped within 2 in 100
    assert odds.answer["precision"]["reached"] <= OFFLINE_PRECISION
    assert _played_note(odds.answer) in view.note and "on this phone" in view.note
    assert not any("posse." in line or "None" in line for card in view.cards for line in card.lines)


def test_the_figures_so_far_show_while_the_question_runs(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob")], dice="server")
    held = []
    odds = OddsPresenter(table, runner=lambda job, done: held.append((job, done)))
    odds.ask()
    assert odds.view().status == "running" and odds.view().cards == ()
    job, done = held[0]
    result = job()  # on the phone, on a thread of its own: each answer so far is posted to the UI thread
    view = odds.view()
    assert view.status == "running" and not view.can_ask and len(view.cards) == 3
    assert view.note.startswith("So far, each option played ") and "times" in view.note
    done(result, None)
    view = odds.view()
    assert view.status == "done" and _played_note(result) in view.note and "on this phone" in view.note


def _played_note(answer: dict) -> str:  # type: ignore[type-arg]
    """How the note says the trials the options took: "played 550 times", or "played 300 to 550 times"."""
    low, high = min(answer["done"].values()), max(answer["done"].values())
    return f"played {low} times" if low == high else f"played {low} to {high} times"


def test_no_question_fits_in_the_middle_of_a_town_day(tmp_path: Path) -> None:
    table = in_town(tmp_path, [hero("ann", "Ann", gold=100)])
    view = OddsPresenter(table, runner=inline).view()
    assert view.question == "" and not view.can_ask and "choose" in view.note


def test_an_old_answer_is_not_shown_once_the_table_moved_on(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")], dice="server")
    odds = OddsPresenter(table, runner=inline)
    odds.ask()
    table.submit(__import__("shared_rules").Adjust("ann", (__import__("shared_rules").Effect("change", "gold", 5),)))
    assert odds.view().cards == ()  # the figures were for the table as it was


def test_a_card_names_the_clear_best() -> None:
    option = {"key": "small", "label": "Small Town", "chances": {}, "heroes": [], "town_types": {}}
    comparison = [{"figure": "posse.xp", "label": "XP", "values": {"small": {"mean": 20.0, "ci": [18.0, 22.0]}},
                   "best": "small", "clear": True}]
    card = card_of(option, comparison)
    assert card.best == ("XP",) and card.lines == ("XP for the posse: 20.0 on average (18.0 to 22.0)",)


def test_online_the_service_answers_with_more_trials(tmp_path: Path) -> None:
    from mobile.client import OfflineBackend
    from mobile.presenters.odds import ONLINE_PRECISION, ONLINE_TRIALS
    from mobile.presenters.table import TableSession
    from shared_rules import RuleOptions
    from shared_rules import odds as engine_odds
    from tests.mobile.helpers import Clock, FlakyBackend

    inner = OfflineBackend(tmp_path)
    backend = FlakyBackend(inner)
    snapshot = backend.create([hero("ann", "Ann")], RuleOptions(dice="server"), seed=3)
    asked: list[tuple[str, dict[str, object], int, float | None]] = []

    def ask_odds(question: str, params: dict[str, object], trials: int, precision: float | None = None,
                 partial: object = None) -> dict[str, object]:
        asked.append((question, params, trials, precision))
        return engine_odds.ask(engine_odds.plan(snapshot.state, question, params), 20, seed=1)

    backend.ask_odds = ask_odds  # type: ignore[attr-defined]
    table = TableSession(backend, snapshot, schedule=Clock())  # type: ignore[arg-type]
    table.start()
    odds = OddsPresenter(table, runner=inline)
    odds.ask()
    view = odds.view()
    assert asked == [("town_size", {}, ONLINE_TRIALS, ONLINE_PRECISION)] and view.status == "done"
    assert "on the table's service" in view.note and len(view.cards) == 3
