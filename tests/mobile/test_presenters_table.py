"""A lost connection loses no command: the outbox keeps it, resends it with the same idempotency key, and the
backend applies it once; a table that moved on is handled per command; pushed updates replace older ones."""

from __future__ import annotations

import time
from pathlib import Path

from mobile.client import OfflineBackend
from mobile.presenters.posse import PossePresenter
from mobile.presenters.shell import ShellPresenter
from mobile.presenters.table import LIVE, RECONNECTING, CallQueue, TableSession, ThreadWorker
from mobile.presenters.travel import TravelPresenter
from shared_rules import Adjust, Effect, RuleOptions
from tests.mobile.helpers import FlakyBackend, hero


def flaky_table(tmp_path: Path, **kwargs: object) -> tuple[TableSession, FlakyBackend]:
    inner = OfflineBackend(tmp_path)
    inner.create([hero("ann", "Ann"), hero("bob", "Bob")], RuleOptions(dice="table"), seed=3)
    backend = FlakyBackend(inner)
    table = TableSession(backend, inner.load(), **kwargs)  # type: ignore[arg-type]
    table.start()
    table.connection(LIVE)
    return table, backend


def test_a_command_tapped_while_offline_waits_and_is_resent_with_the_same_key(tmp_path: Path) -> None:
    table, backend = flaky_table(tmp_path)
    posse = PossePresenter(table)
    backend.down = True
    posse.adjust("ann", "gold", +1)
    assert table.status == RECONNECTING and table.waiting == 1
    assert "1 change waiting" in ShellPresenter(table).status().text
    table.tick()  # still down: tried again, still kept
    backend.down = False
    table.connection(LIVE)  # the subscription is back: reload, then resend
    assert table.waiting == 0 and table.snapshot.state.hero("ann").gold == 25
    keys = [key for kind, key, _ in backend.sent]
    assert len(keys) == 3 and len(set(keys)) == 1  # three tries, one key


def test_a_lost_answer_is_not_applied_twice(tmp_path: Path) -> None:
    table, backend = flaky_table(tmp_path)
    backend.lose_answers = True  # applied on the server, the reply lost
    PossePresenter(table).adjust("ann", "gold", +1)
    assert table.waiting == 1 and backend.inner.load().state.hero("ann").gold == 25
    backend.lose_answers = False
    table.tick()
    assert table.waiting == 0 and table.snapshot.state.hero("ann").gold == 25
    assert table.snapshot.version == 1


def test_commands_queued_offline_go_out_in_order_each_on_the_last(tmp_path: Path) -> None:
    table, backend = flaky_table(tmp_path)
    posse = PossePresenter(table)
    backend.down = True
    posse.adjust("ann", "gold", +1)
    posse.adjust("ann", "gold", +1)
    posse.adjust("bob", "xp", +1)
    assert table.waiting == 3
    backend.down = False
    table.tick()
    state = table.snapshot.state
    assert (state.hero("ann").gold, state.hero("bob").xp, table.snapshot.version) == (50, 10, 3)
    assert table.notice is None  # chained commands are based on their predecessors: no conflict


def test_an_adjustment_is_reapplied_when_the_table_moved_on(tmp_path: Path) -> None:
    table, backend = flaky_table(tmp_path)
    backend.push = False  # the other phone's change has not reached this one yet
    other = Adjust("bob", (Effect("change", "gold", 100),))
    backend.inner.submit(other, "from-another-phone", None)  # the table is now at version 1
    PossePresenter(table).adjust("ann", "gold", +1)  # tapped on version 0
    state = table.snapshot.state
    assert (state.hero("ann").gold, state.hero("bob").gold) == (25, 100)
    assert table.notice is not None and table.notice.level == "info" and "moved on" in table.notice.text


def test_a_rules_step_is_dropped_when_the_table_moved_on(tmp_path: Path) -> None:
    table, backend = flaky_table(tmp_path)
    travel = TravelPresenter(table)
    backend.push = False
    backend.inner.submit(Adjust("bob", (Effect("change", "gold", 100),)), "from-another-phone", None)
    travel.choose_size("large")
    assert table.snapshot.state.phase.value == "between_adventures" and table.waiting == 0
    assert table.notice is not None and "Not applied" in table.notice.text
    assert table.snapshot.version == 1  # reloaded: this phone now shows the other phone's change


def test_pushed_updates_replace_older_ones_only(tmp_path: Path) -> None:
    table, backend = flaky_table(tmp_path)
    old = table.snapshot
    seen: list[int] = []
    table.listen(lambda: seen.append(table.snapshot.version))
    newer = backend.inner.submit(Adjust("ann", (Effect("change", "xp", 5),)), "k1", None)
    table.receive(newer)
    table.receive(old)  # late and stale
    table.receive(newer)  # a duplicate
    assert table.snapshot.version == 1 and seen == [1]


def test_rejections_show_the_engines_message_and_leave_the_outbox(tmp_path: Path) -> None:
    table, _ = flaky_table(tmp_path)
    TravelPresenter(table).arrive()  # not allowed between adventures
    assert table.waiting == 0 and table.notice is not None
    assert "FT-TRAVEL-04" not in table.notice.text and table.notice.rule == "FT-TRAVEL-04"  # the id: behind "why?"
    assert "not allowed" in table.notice.text and "arrive" in table.notice.text


def test_the_thread_worker_brings_results_back_through_the_call_queue(tmp_path: Path) -> None:
    inbox = CallQueue()
    worker = ThreadWorker(inbox.post)
    table, _ = flaky_table(tmp_path, worker=worker, post=inbox.post)
    PossePresenter(table).adjust("ann", "gold", +1)
    assert table.snapshot.state.hero("ann").gold == 0  # sent in the background: nothing yet on this thread
    for _ in range(500):  # the UI thread's clock: drain what the worker posted
        inbox.drain()
        if table.waiting == 0:
            break
        time.sleep(0.01)
    worker.stop()
    assert table.snapshot.state.hero("ann").gold == 25 and table.waiting == 0


# ---- two phones, one table ----------------------------------------------------------------------------------------
def test_the_same_tap_on_two_phones_asks_apply_again_instead_of_doubling(tmp_path: Path) -> None:
    table, backend = flaky_table(tmp_path)
    backend.push = False  # the other phone's tap has not reached this one yet
    backend.inner.submit(Adjust("ann", (Effect("change", "gold", 25),), reason="Gold +$25"), "other-phone", None)
    PossePresenter(table).adjust("ann", "gold", +1)  # the same tap, on version 0
    assert table.snapshot.state.hero("ann").gold == 25  # not $50
    assert table.notice is not None and table.notice.level == "ask" and "Apply it again?" in table.notice.text
    table.apply_again(True)
    assert table.snapshot.state.hero("ann").gold == 50 and table.notice is None


def test_declining_apply_again_keeps_one_change(tmp_path: Path) -> None:
    table, backend = flaky_table(tmp_path)
    backend.push = False
    backend.inner.submit(Adjust("ann", (Effect("change", "gold", 25),)), "other-phone", None)
    PossePresenter(table).adjust("ann", "gold", +1)
    table.apply_again(False)
    assert table.snapshot.state.hero("ann").gold == 25 and table.waiting == 0 and table.snapshot.version == 1


def test_an_undo_made_on_another_phone_is_announced_with_what_it_took_back(tmp_path: Path) -> None:
    table, backend = flaky_table(tmp_path)
    PossePresenter(table).adjust("ann", "gold", +1)
    backend.inner.undo(1, "other-phone-undo", None)  # pushed through the subscription
    assert table.snapshot.state.hero("ann").gold == 0
    assert table.notice is not None and table.notice.text.startswith("Another phone took back")
    assert "Gold" in table.notice.text


def test_my_own_undo_is_not_announced(tmp_path: Path) -> None:
    table, _ = flaky_table(tmp_path)
    PossePresenter(table).adjust("ann", "gold", +1)
    table.undo_to(0)
    assert table.snapshot.state.hero("ann").gold == 0 and table.notice is None
