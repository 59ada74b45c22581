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


def test_sorting_keeps_ties_in_table_order_and_puts_alerts_first_by_default() -> None:
    def table(number: int, kinds: list[str]) -> dict[str, object]:
        return {"number": number, "session_id": f"T{number}", "status": "playing", "last_activity": 0.0,
                "posse": [], "where": {"phase": "travel", "text": ""},
                "alerts": [{"kind": k, "text": k, "since": 0.0} for k in kinds]}

    tables = [table(1, []), table(2, ["stuck"]), table(3, ["hero_died"]), table(4, ["stuck"]),
              table(5, ["host_called"]), table(6, ["idle"])]
    assert [t["number"] for t in arranged(tables, view_of({}))] == [5, 3, 2, 4, 6, 1]  # the default: alerts first
    # the first click on the Alerts column is the same order (it once put the tables without alerts first)
    assert [t["number"] for t in arranged(tables, view_of({"resort": "alerts"}))] == [5, 3, 2, 4, 6, 1]
    assert [t["number"] for t in arranged(tables, view_of({"sort": "alerts:desc"}))] == [1, 6, 2, 4, 3, 5]
    assert [t["number"] for t in arranged(tables, view_of({"alerts": "1", "sort": "number"}))] == [2, 3, 4, 5, 6]


def test_the_view_is_kept_in_the_address_with_only_what_differs() -> None:
    from services.api.web.pages import view_query

    assert view_query(view_of({})) == ""
    assert view_query(view_of({"density": "list", "sort": "number", "alerts": "1", "q": "kenji"})) == \
        "q=kenji&alerts=1&sort=number&density=list"
    assert view_of({"density": "huge"})["density"] == "room"
    assert view_of({})["sort"] == "alerts"


# ---- the room: a table calling its host, tables never played, the tokens on the cards (issue 21) ----------------


class _Room:
    """A deployment in this process (TestClient, SQLite) with one event and `count` tables."""

    def __init__(self, tmp_path: Path, count: int = 2, store: Any = None) -> None:
        from litestar.testing import TestClient

        from services.api.app import create_app
        from services.store.sqlite import SqliteStore
        from services.use_cases import Services

        settings = Settings(db_path=str(tmp_path / "db.sqlite3"), host_token="admin-secret")
        self.store = store or SqliteStore(settings.db_path)
        self.client = TestClient(create_app(settings, services=Services(self.store, settings)))
        self.client.__enter__()
        admin = {"Authorization": "Bearer admin-secret"}
        event = self.client.post("/v1/events", json={"name": "Room"}, headers=admin).json()
        self.event_id, self.host = event["event_id"], {"Authorization": f"Bearer {event['host_token']}"}
        self.host_token = event["host_token"]
        made = self.client.post(f"/v1/events/{self.event_id}/tables", headers=self.host,
                                json={"count": count, "heroes": [{"id": "ann", "name": "Ann"}]}).json()
        self.tables = made["tables"]

    def board(self) -> dict[str, Any]:
        response = self.client.get(f"/v1/events/{self.event_id}", headers=self.host)
        assert response.status_code == 200, response.text
        return {t["session_id"]: t for t in response.json()["tables"]}

    def graphql(self, query: str, token: str, **variables: Any) -> dict[str, Any]:
        response = self.client.post("/graphql", json={"query": query, "variables": variables},
                                    headers={"Authorization": f"Bearer {token}"})
        body: dict[str, Any] = response.json()
        return body

    def close(self) -> None:
        self.client.__exit__(None, None, None)


def test_a_table_calls_its_host_over_and_the_host_clears_it(tmp_path: Path) -> None:
    room = _Room(tmp_path)
    try:
        table = room.tables[0]
        sid, player = table["session_id"], {"Authorization": f"Bearer {table['token']}"}
        called = room.client.post(f"/v1/sessions/{sid}/host-call", json={"reason": "  rules   question "},
                                  headers=player)
        assert called.status_code == 200, called.text
        assert called.json()["host_call"]["reason"] == "rules question"
        first_at = called.json()["host_call"]["at"]
        seen = room.board()[sid]
        assert seen["host_call"] == {"at": first_at, "reason": "rules question"}
        assert [a["kind"] for a in seen["alerts"]] == ["host_called"]
        assert seen["alerts"][0]["text"] == "calls the host: rules question"
        # calling again (an empty body) keeps the time the table first called
        again = room.client.post(f"/v1/sessions/{sid}/host-call", headers=player)
        assert again.status_code == 200 and again.json()["host_call"] == {"at": first_at, "reason": ""}
        # the host never raises a table's hand; another table's token opens nothing here
        assert room.client.post(f"/v1/sessions/{sid}/host-call", headers=room.host).status_code == 403
        other = {"Authorization": f"Bearer {room.tables[1]['token']}"}
        assert room.client.post(f"/v1/sessions/{sid}/host-call", headers=other).status_code == 403
        assert room.client.post(f"/v1/sessions/{sid}/host-call", json={"reason": "x" * 201},
                                headers=player).status_code == 422
        cleared = room.client.delete(f"/v1/sessions/{sid}/host-call", headers=room.host)
        assert cleared.status_code == 200 and cleared.json() == {"session_id": sid, "host_call": None}
        assert room.board()[sid]["host_call"] is None and room.board()[sid]["alerts"] == []

        # GraphQL: the same use case, the same owner
        mutation = "mutation ($s: String!, $r: String!) { callHost(sessionId: $s, reason: $r) { hostCall { reason } } }"
        assert room.graphql(mutation, table["token"], s=sid, r="a break")["data"] == {
            "callHost": {"hostCall": {"reason": "a break"}}}
        refused = room.graphql(mutation, room.host_token, s=sid, r="no")
        assert refused["errors"][0]["extensions"]["status"] == 403
        assert room.board()[sid]["host_call"]["reason"] == "a break"
        clear = "mutation ($s: String!) { clearHostCall(sessionId: $s) { hostCall { reason } } }"
        assert room.graphql(clear, room.host_token, s=sid)["data"] == {"clearHostCall": {"hostCall": None}}
        assert room.board()[sid]["host_call"] is None

        # a closed table cannot call
        assert room.client.post(f"/v1/sessions/{sid}/archive", headers=player).status_code in (200, 204)
        assert room.client.post(f"/v1/sessions/{sid}/host-call", headers=player).status_code == 409
    finally:
        room.close()


def test_a_table_never_played_is_not_started_and_raises_no_alert(tmp_path: Path) -> None:
    room = _Room(tmp_path)
    try:
        services: Any = SimpleNamespace(settings=Settings(alert_idle=1200, alert_stuck=300))
        state = new_session([Hero("ann", "Ann")], seed=1)
        assert hosting.alerts(services, state, 0.0, 5000.0, "not_started") == []  # hours after it was opened
        assert hosting.alerts(services, state, 0.0, 5000.0, "playing")[0]["kind"] == "idle"

        first, second = room.tables[0], room.tables[1]
        assert {t["status"] for t in room.board().values()} == {"not_started"}
        moved = room.client.post(f"/v1/sessions/{first['session_id']}/commands",
                                 json={"type": "choose_town_size", "size": "small"},
                                 headers={"Authorization": f"Bearer {first['token']}"})
        assert moved.status_code == 200, moved.text
        board = room.board()
        assert board[first["session_id"]]["status"] == "playing"
        assert board[second["session_id"]]["status"] == "not_started"
        paused = room.client.post(f"/v1/sessions/{second['session_id']}/pause", headers=room.host).json()
        assert paused["status"] == "paused"
        resumed = room.client.post(f"/v1/sessions/{second['session_id']}/resume", headers=room.host).json()
        assert resumed["status"] == "not_started"
    finally:
        room.close()


def test_tokens_issued_before_the_new_alphabet_keep_working(tmp_path: Path, monkeypatch: Any) -> None:
    """Cards printed before the look-alike-free alphabet (issue 21) still open their tables: only hashes are kept."""
    from services import use_cases

    old = "l1O0-old_style_token_urlsafe_base64x"
    monkeypatch.setattr(use_cases, "new_token", lambda: old)
    room = _Room(tmp_path, count=1)
    monkeypatch.undo()
    try:
        table = room.tables[0]
        assert table["token"] == old
        read = room.client.get(f"/v1/sessions/{table['session_id']}", headers={"Authorization": f"Bearer {old}"})
        assert read.status_code == 200, read.text
        fresh = room.client.post(f"/v1/sessions/{table['session_id']}/tokens/player", headers=room.host).json()
        assert not set(fresh["token"]) & set("O0I1l"), fresh
    finally:
        room.close()


class _Flaky:
    """Makes a SqliteStore's event reads and ping fail as an unreachable Redis does, while `down`."""

    def __init__(self, path: str) -> None:
        from services.store import StoreUnavailable
        from services.store.sqlite import SqliteStore

        class Store(SqliteStore):
            down = False

            async def event(self, event_id: str) -> Any:
                if self.down:
                    raise StoreUnavailable("Redis is unreachable: connection refused")
                return await super().event(event_id)

            async def ping(self) -> None:
                if self.down:
                    raise StoreUnavailable("Redis is unreachable: connection refused")

        self.store = Store(path)


def test_host_pages_say_the_storage_is_down_in_html_not_problem_json(tmp_path: Path) -> None:
    flaky = _Flaky(str(tmp_path / "db.sqlite3"))
    room = _Room(tmp_path, count=1, store=flaky.store)
    try:
        cookie = {"Cookie": f"brimstone_host={room.host_token}"}
        page = f"/host/{room.event_id}"
        assert room.client.get(page, headers=cookie).status_code == 200
        assert room.client.get(f"{page}/beat").text == "ok"
        flaky.store.down = True
        reloaded = room.client.get(page, headers=cookie)
        assert reloaded.status_code == 503
        assert reloaded.headers["content-type"].startswith("text/html")
        assert "The storage is down" in reloaded.text and 'http-equiv="refresh"' in reloaded.text
        assert int(reloaded.headers["retry-after"]) >= 1
        sid = room.tables[0]["session_id"]
        paused = room.client.post(f"{page}/tables/{sid}/pause", headers={**cookie, "HX-Request": "true"})
        assert paused.status_code == 503 and "storage is down" in paused.text
        assert paused.headers["content-type"].startswith("text/html")
        beat = room.client.get(f"{page}/beat")
        assert (beat.status_code, beat.text) == (503, "down")
        flaky.store.down = False
        assert room.client.get(page, headers=cookie).status_code == 200
        # an action refused for another reason says why, in words, on the page (not a bounce to the sign-in)
        gone = room.client.post(f"{page}/tables/NOPE99/pause", headers={**cookie, "HX-Request": "true"})
        assert gone.status_code == 404 and "NOPE99" in gone.text and "does not exist" in gone.text
    finally:
        room.close()
