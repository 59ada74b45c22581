"""Issue 18 and 21 on a live table, through the real service: redo after an undo (the phone that sent the steps
applies them again), and the phone's "Call the host" button (GraphQL callHost / clearHostCall)."""

from __future__ import annotations

from pathlib import Path

from mobile.presenters.log import LogPresenter
from mobile.presenters.posse import PossePresenter
from mobile.presenters.shell import host_call_label, press_host_call
from mobile.presenters.start import HeroDraft
from tests.mobile.conftest import ServerProcess
from tests.mobile.test_e2e_live import Phone, pump


def test_a_live_phone_redoes_what_it_undid_and_calls_the_host(live_server: ServerProcess, tmp_path: Path) -> None:
    phone = Phone(live_server.url, tmp_path / "a")
    phone.start.drafts = (HeroDraft("Ann"), HeroDraft("Bob"))
    phone.start.create()
    pump([phone], lambda: bool(phone.opened) and phone.table.status == "live", "the table to open live")
    table = phone.table
    try:
        posse, log = PossePresenter(table), LogPresenter(table)
        posse.adjust("ann", "gold", +1)
        posse.adjust("ann", "gold", +1)
        pump([phone], lambda: table.snapshot.version == 2 and table.waiting == 0, "two Gold steps")
        log.undo(2)  # SVC-UNDO: back to version 0, written as version 3
        pump([phone], lambda: table.snapshot.version == 3 and table.waiting == 0, "the undo")
        assert table.snapshot.state.hero("ann").gold == 0
        assert log.view().redo_label.startswith("Redo 2 steps: ")
        log.redo()
        pump([phone], lambda: table.snapshot.version == 5 and table.waiting == 0, "the redo")
        assert table.snapshot.state.hero("ann").gold == 50 and log.view().redo_label == ""

        assert host_call_label(table) == "Call the host"  # a live table: the button shows
        press_host_call(table)
        pump([phone], lambda: table.host_called, "the server to take the call")
        assert host_call_label(table) == "The host is called: tap when they came" and table.notice is None
        press_host_call(table)  # the host came: the call is cleared on the server
        pump([phone], lambda: not table.host_called, "the server to clear the call")
        assert host_call_label(table) == "Call the host" and table.notice is None
    finally:
        table.stop()
