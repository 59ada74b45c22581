"""Hosting pieces that need no server: the join link the cards print is the phone app's, the alerts a host reads,
a posse pasted into the dashboard (issue 13)."""

from __future__ import annotations

import base64
import json
import time
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from mobile.presenters.start import StartPresenter
from mobile.presenters.start import join_link as app_join_link
from services import hosting
from services.api.web.pages import arranged, read_posse, view_of
from services.settings import Settings
from shared_rules.codec import encode
from shared_rules.engine import new_session
from shared_rules.state import Hero


def test_the_cards_join_link_is_the_phone_apps_and_the_app_opens_it(tmp_path: Path) -> None:
    link = hosting.join_link("https://10.0.0.5:8443", "K7QX2M", "t0k3n-with_odd/chars")
    assert link == app_join_link("https://10.0.0.5:8443", "K7QX2M", "t0k3n-with_odd/chars")
    joined: list[tuple[str, str, str]] = []
    presenter = StartPresenter.__new__(StartPresenter)  # only what open_link touches
    presenter.server, presenter.mode, presenter.message = "", "", ""
    presenter.changed = lambda: None  # type: ignore[method-assign]
    presenter.set_join = lambda code, token: joined.append((presenter.server, code, token))  # type: ignore[method-assign]
    presenter.join = lambda: None  # type: ignore[method-assign]
    assert presenter.open_link(link)
    assert joined == [("https://10.0.0.5:8443", "K7QX2M", "t0k3n-with_odd/chars")]


def test_alerts_a_host_acts_on() -> None:
    services: Any = SimpleNamespace(settings=Settings(alert_idle=1200, alert_stuck=300))
    state = new_session([Hero("ann", "Ann"), Hero("kenji", "Kenji", removed=True)], seed=1)
    now = time.time()

    def summary(quiet: float, paused: bool = False) -> list[str]:
        return [a["kind"] for a in hosting.alerts(services, state, now - quiet, now, "paused" if paused else "playing")]

    assert summary(10) == ["hero_died"]
    assert summary(1300) == ["hero_died", "idle"]  # 20 minutes without a write
    assert summary(1300, paused=True) == ["hero_died"]  # the host paused it: not the table's fault


def test_a_posse_link_from_the_app_opens_tables(tmp_path: Path) -> None:
    heroes = [encode(Hero("ann", "Ann", "Assassin")), encode(Hero("bo", "Bo"))]
    packed = base64.urlsafe_b64encode(zlib.compress(json.dumps(heroes).encode(), 9)).decode().rstrip("=")
    assert [h["name"] for h in read_posse(f"brimstone://posse?d={packed}")] == ["Ann", "Bo"]
    assert [h["id"] for h in read_posse(json.dumps({"format": "brimstone-posse", "heroes": heroes}))] == ["ann", "bo"]


def test_sorting_keeps_ties_in_table_order() -> None:
    def table(number: int, kinds: list[str]) -> dict[str, object]:
        return {"number": number, "session_id": f"T{number}", "status": "playing", "last_activity": 0.0,
                "posse": [], "where": {"phase": "travel", "text": ""},
                "alerts": [{"kind": k, "text": k, "since": 0.0} for k in kinds]}

    tables = [table(1, []), table(2, ["stuck"]), table(3, ["hero_died"]), table(4, ["stuck"])]
    assert [t["number"] for t in arranged(tables, view_of({"sort": "alerts:desc"}))] == [3, 2, 4, 1]
    assert [t["number"] for t in arranged(tables, view_of({"alerts": "1"}))] == [2, 3, 4]
