"""The Town Stay, the Adventure and the odds through the real service: two phones on the live GraphQL client, one
plays a stay Day and an Adventure turn on the new screens, the other sees the very same screens; the odds come from
the service's own workers (`askOdds`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from mobile.presenters import odds as odds_module
from mobile.presenters.adventure import AdventurePresenter
from mobile.presenters.dice import PromptPresenter
from mobile.presenters.odds import OddsPresenter
from mobile.presenters.stay import StayAction, StayPresenter
from mobile.presenters.table import TableSession
from mobile.presenters.travel import TravelPresenter
from shared_rules import Phase
from tests.mobile.conftest import ServerProcess
from tests.mobile.test_e2e_live import Phone, pump, two_phones


def answer_all(table: TableSession) -> None:
    """Every prompt as a quiet table answers it: the app's dice, the first card drawn, the Hotel, nothing on cards."""
    dice = PromptPresenter(table)
    while (prompt := table.snapshot.pending) is not None:
        before = table.snapshot.version
        if prompt.kind == "roll":
            dice.roll_for_me()
        elif prompt.kind == "reroll":
            dice.keep()
        elif prompt.kind == "card":
            dice.set_card_text("Nothing out of the ordinary")
            dice.send_card()
        elif prompt.purpose:
            dice.draw_for_me()
        else:
            keys = [o.key for o in prompt.options]
            dice.choose(next((k for k in ("just_another_day", "hotel") if k in keys), keys[0]))
        assert table.snapshot.version > before, table.notice


def work_odds(server: ServerProcess, answered: Callable[[], bool], phones: list[Phone]) -> None:
    """Be the service's worker (rq, on the server's Redis) until the odds are back on the phone."""
    from redis import Redis
    from rq import Queue

    from services.jobs.worker import worker_classes
    from services.settings import Settings

    connection = Redis.from_url(server.redis_url)
    queue = Queue(Settings().rq_queue, connection=connection)
    deadline = time.monotonic() + 120
    while not answered() and time.monotonic() < deadline:
        worker_classes()[1]([queue], connection=connection).work(burst=True, logging_level="WARNING")
        pump(phones, lambda: True, "the inbox")
        time.sleep(0.1)
    assert answered(), "the odds did not come back"


def test_a_stay_day_an_adventure_turn_and_the_odds_live(live_server: ServerProcess, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = two_phones(live_server, tmp_path)
    phones = [a, b]
    try:
        TravelPresenter(a.table).choose_size("small")
        answer_all(a.table)
        travel = TravelPresenter(a.table)
        while travel.view().action in ("roll_hazard", "arrive"):
            travel.act()
            answer_all(a.table)
        assert a.table.snapshot.state.phase is Phase.TOWN

        stay = StayPresenter(a.table)
        stay.act()  # Day 1
        answer_all(a.table)
        for index in range(2):
            places = stay.view().heroes[index].places
            stay.do(places[index % len(places)])
            answer_all(a.table)
            if (main := stay.view().main) is not None and main.key == "end_visit":
                stay.act()
                answer_all(a.table)
        pump(phones, lambda: b.table.snapshot.version == a.table.snapshot.version, "the Day on the second phone")
        assert StayPresenter(b.table).view() == stay.view()  # the same screen on both phones
        for key in ("end_day", "leave_town"):
            stay.do(StayAction(key, key))
            answer_all(a.table)
        assert a.table.snapshot.state.phase is Phase.BETWEEN_ADVENTURES

        monkeypatch.setattr(odds_module, "ONLINE_TRIALS", 100)
        odds = OddsPresenter(a.table)  # asked on a thread of its own; the answer comes back through the inbox
        odds.ask()
        work_odds(live_server, lambda: odds.status != "running", phones)
        view = odds.view()
        assert view.status == "done" and len(view.cards) == 3 and "on the table's service" in view.note, odds.error

        adventure = AdventurePresenter(a.table)
        setup = adventure.view().setup
        assert setup is not None and setup.start is not None
        adventure.do(setup.start)
        answer_all(a.table)
        adventure.tap_die(6)
        adventure.tap_die(2)  # Hold Back the Darkness: 8
        answer_all(a.table)
        adventure.act()  # the first hero activates
        answer_all(a.table)
        pump(phones, lambda: b.table.snapshot.version == a.table.snapshot.version, "the turn on the second phone")
        theirs = AdventurePresenter(b.table).view()
        assert theirs == adventure.view() and theirs.active and "8, held" in theirs.hbtd
        assert theirs.main is not None and theirs.main.key == "end_activation"
    finally:
        a.table.stop()
        b.table.stop()
