"""Two phones at one table, through the real service: presenters + client.py over GraphQL, the live subscription
over a websocket, the service on a throwaway Redis. One phone creates the table and travels to town; the other
joins with the code and token and sees every step arrive; a lost connection loses no command.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from mobile.client import GraphQLBackend
from mobile.presenters.dice import PromptPresenter
from mobile.presenters.log import LogPresenter
from mobile.presenters.posse import PossePresenter
from mobile.presenters.start import HeroDraft, StartPresenter
from mobile.presenters.table import LIVE, RECONNECTING, CallQueue, TableSession
from mobile.presenters.town import TownPresenter
from mobile.presenters.travel import TravelPresenter
from shared_rules import Phase
from tests import processes
from tests.mobile.conftest import ServerProcess


class Phone:
    """One app: its start screen, and the table it opened; updates pushed by the server wait in `inbox` until
    the test (as the UI thread) drains it."""

    def __init__(self, server: str, tmp_path: Path) -> None:
        self.inbox = CallQueue()
        self.opened: list[TableSession] = []
        self.start = StartPresenter(online=GraphQLBackend, offline_dir=tmp_path, post=self.inbox.post,
                                    on_open=self.opened.append)
        self.start.set_server(server)

    @property
    def table(self) -> TableSession:
        assert self.opened, self.start.message
        return self.opened[-1]


def pump(phones: list[Phone], until: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    """Play the UI thread: run what the network threads posted until `until()` holds (or fail, naming `what`)."""
    deadline = time.monotonic() + processes.start_timeout(timeout)  # scaled with the machine's load
    while time.monotonic() < deadline:
        for phone in phones:
            phone.inbox.drain()
        if until():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def tap(dice: PromptPresenter, *faces: int) -> None:
    """Tap the faces; the last die sends them by itself (no clock here: the send window passes at once)."""
    for face in faces:
        dice.tap_face(face)
    assert not dice.table.notice, dice.table.notice


def two_phones(live_server: ServerProcess, tmp_path: Path) -> tuple[Phone, Phone]:
    a, b = Phone(live_server.url, tmp_path / "a"), Phone(live_server.url, tmp_path / "b")
    a.start.drafts = (HeroDraft("Ann"), HeroDraft("Bob"))
    a.start.create()
    assert a.start.created is not None, a.start.message
    code, token = a.start.created
    b.start.set_mode("join")
    b.start.set_join(code, token)
    b.start.join()
    pump([a, b], lambda: a.table.status == LIVE and b.table.status == LIVE, "both phones live")
    assert b.table.snapshot.state == a.table.snapshot.state
    return a, b


def test_a_second_phone_follows_the_road_to_town_live(live_server: ServerProcess, tmp_path: Path) -> None:
    a, b = two_phones(live_server, tmp_path)
    try:
        travel, dice = TravelPresenter(a.table), PromptPresenter(a.table)
        travel.choose_size("medium")  # FT-TRAVEL-02: one hazard per hero
        pump([a, b], lambda: b.table.snapshot.state.phase is Phase.TRAVEL, "the second phone to see the road")
        assert TravelPresenter(b.table).view().hazard_total == 2

        travel.roll_hazard()
        tap(dice, 2, 4)  # 24 Dark Stone Convoy
        travel.roll_hazard()
        # the D36 prompt reaches the other phone, and that phone answers it
        pump([a, b], lambda: b.table.snapshot.pending is not None, "the prompt on the second phone")
        other = PromptPresenter(b.table)
        assert other.view().kind == "roll" and other.view().who == "Bob"
        tap(other, 2, 6)  # 26 Void Storm
        pump([a, b], lambda: a.table.snapshot.state.phase is Phase.ARRIVAL, "the answer back on the first phone")

        travel.arrive()
        while (prompt := a.table.snapshot.pending) is not None:
            if prompt.kind == "roll":
                dice.roll_for_me()
            else:
                dice.draw_for_me()
        assert a.table.snapshot.state.phase is Phase.TOWN and a.table.waiting == 0
        pump([a, b], lambda: b.table.snapshot.version == a.table.snapshot.version, "the town on the second phone")

        mine, theirs = TownPresenter(a.table).view(), TownPresenter(b.table).view()
        assert theirs.in_town and theirs == mine and theirs.destroyed_count == 2  # the Void Storm's two (D26)
        assert [s.version for s in b.table.snapshot.log] == list(range(a.table.snapshot.version + 1))
        assert LogPresenter(b.table).view().rows == LogPresenter(a.table).view().rows
        assert b.table.status == LIVE
    finally:
        a.table.stop()
        b.table.stop()


def test_a_command_tapped_while_the_server_is_down_is_sent_once_it_is_back(
    live_server: ServerProcess, tmp_path: Path
) -> None:
    a, b = two_phones(live_server, tmp_path)
    try:
        live_server.stop()
        pump([a, b], lambda: b.table.status == RECONNECTING, "the lost connection to show")
        PossePresenter(b.table).adjust("ann", "gold", +1)  # tapped while the server is down
        assert b.table.waiting == 1 and b.table.snapshot.state.hero("ann").gold == 0

        live_server.start()  # same port, same Redis: the table is still there
        pump([a, b], lambda: b.table.waiting == 0 and a.table.snapshot.version == 1, "the resend, seen on both",
             timeout=30)
        assert b.table.snapshot.state.hero("ann").gold == 25 == a.table.snapshot.state.hero("ann").gold
        assert [s.command for s in a.table.snapshot.log] == ["create", "adjust"]  # applied once
    finally:
        a.table.stop()
        b.table.stop()
