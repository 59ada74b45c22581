"""The command lane (services/api/rest/lane.py) answers exactly as the litestar handler does: the same requests,
sent to two apps on one store (the lane open and closed) for two tables opened alike, get the same status,
headers and bytes, successes and every kind of refusal; and only the plain form takes the lane."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from services.api.app import create_app
from services.api.rest.lane import CommandLane
from services.settings import Settings
from services.store.sqlite import SqliteStore
from services.use_cases import Services

HEROES = {"heroes": [{"id": "anna", "name": "Anna"}, {"id": "bo", "name": "Bó"}], "seed": 7}
GOLD = {"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "gold", "amount": 1}]}
VARYING = {"x-request-id", "date"}


class Passed:
    """Counts the writes (commands, undos) the lane handed on to litestar."""

    def __init__(self, app: Any) -> None:
        self.app, self.count = app, 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.count += scope["type"] == "http" and scope["path"].endswith(("/commands", "/undo"))
        await self.app(scope, receive, send)


def _lane(app: Litestar) -> CommandLane:
    handler: Any = app.asgi_handler
    while not isinstance(handler, CommandLane):
        handler = handler.app
    return handler


@pytest.fixture
def doors(tmp_path: Path) -> Iterator[tuple[TestClient[Litestar], TestClient[Litestar], Passed]]:
    """(the lane open, the lane closed, what the open one handed on) over one SQLite store."""
    settings = Settings(db_path=str(tmp_path / "tables.sqlite3"), rate_limit_address="", rate_limit_token="")
    store = SqliteStore(settings.db_path)
    services = Services(store, settings)
    lane_app = create_app(settings, services=services)
    closed_app = create_app(dataclasses.replace(settings, command_lane=False), services=services)
    assert not any(isinstance(h, CommandLane) for h in _chain(closed_app))
    lane = _lane(lane_app)
    passed = lane.app = Passed(lane.app)
    with TestClient(lane_app) as open_door, TestClient(closed_app) as closed_door:
        yield open_door, closed_door, passed


def _chain(app: Litestar) -> Iterator[Any]:
    handler: Any = app.asgi_handler
    while handler is not None:
        yield handler
        handler = getattr(handler, "app", None)


def _table(client: TestClient[Litestar]) -> tuple[str, str]:
    created = client.post("/v1/sessions", json=HEROES)
    assert created.status_code == 201, created.text
    return created.json()["session_id"], created.json()["token"]


def _answer(response: Any, session_id: str) -> tuple[int, dict[str, str], str]:
    headers = {k: v for k, v in response.headers.items() if k not in VARYING}
    return response.status_code, headers, response.text.replace(session_id, "<table>")


def test_the_lane_answers_byte_for_byte_as_litestar(doors: Any) -> None:
    open_door, closed_door, passed = doors
    tables = [_table(open_door), _table(closed_door)]

    def both(body: Any, *, token: str | None = None, table: str | None = None, raw: bytes | None = None,
             **headers: str) -> tuple[int, dict[str, str], str]:
        answers = []
        for client, (session_id, own_token) in zip((open_door, closed_door), tables, strict=True):
            sent = {"Content-Type": "application/json", "Authorization": f"Bearer {token or own_token}", **headers}
            path = f"/v1/sessions/{table or session_id}/commands"
            content = raw if raw is not None else json.dumps(body).encode()
            answers.append(_answer(client.post(path, content=content, headers=sent), session_id))
        assert answers[0] == answers[1]
        return answers[0]

    assert both(GOLD)[0] == 200
    assert both(GOLD, **{"Idempotency-Key": "tap-1"})[0] == 200
    replay = both(GOLD, **{"Idempotency-Key": "tap-1"})  # the phone's retry: the first answer again
    assert replay[0] == 200 and replay[1]["idempotent-replayed"] == "true"
    assert both({**GOLD, "hero": "bo"}, **{"Idempotency-Key": "tap-1"})[0] == 422  # the key, for another request
    assert both({**GOLD, "hero": "zed"})[0] == 409  # no such hero at this table: the rules say no
    assert both({"type": "no_such_command"})[0] == 422
    assert both({"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "gold", "amount": "1"}]})[0] == 422
    assert both(None, raw=b'{"type": "adjust", ')[0] == 422  # not JSON
    assert both(None, raw=b'["\\ud800"]')[0] == 422  # a lone surrogate
    assert both(GOLD, token="not-this-table")[0] == 403
    assert both(GOLD, table="NOSUCHTABLE")[0] == 404
    assert both({"type": "roll_hazard", "dice": [[7]]})[0] in (409, 422)  # a face no die shows
    flawed = {  # what the body parser refuses (issue 20), naming the path, in both doors alike
        b'{"type": "adjust", "hero": "anna", "hero": "bo", "effects": []}': "hero",  # a key twice
        b'{"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "gold", "amount": 1e400}]}':
            "effects[0].amount",
        b'{"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "gold", "amount": NaN}]}':
            "effects[0].amount",
        b'{"type": "adjust", "hero": "\\ud800", "effects": []}': "hero",  # a lone surrogate
        b'{"type": "roll", "dice": [[2]]}': "dice",  # a roll answer's faces are `faces`
    }
    for raw, field in flawed.items():
        status, _, text = both(None, raw=raw)
        assert (status, json.loads(text)["field"]) == (422, field), raw
    assert passed.count == 0  # every one of those took the lane

    for kind, extra in (("a precondition", {"If-Match": '"99"'}), ("no token", {"Authorization": ""})):
        before = passed.count
        answer = both(GOLD, **extra)
        assert answer[0] in (401, 412), kind
        assert passed.count == before + 1, f"{kind}: litestar answers it"
    state = [c.get(f"/v1/sessions/{t}", headers={"Authorization": f"Bearer {k}"}).json()
             for c, (t, k) in zip((open_door, closed_door), tables, strict=True)]
    assert state[0]["version"] == state[1]["version"] == 2
    assert state[0]["state"]["heroes"] == state[1]["state"]["heroes"]


def test_only_the_plain_form_takes_the_lane(doors: Any) -> None:
    open_door, _closed, passed = doors
    session_id, token = _table(open_door)
    auth = {"Authorization": f"Bearer {token}"}
    path = f"/v1/sessions/{session_id}/commands"
    taken = [open_door.post(path, json=GOLD, headers=auth),
             open_door.post(path, json=GOLD, headers={**auth, "Idempotency-Key": "k" * 256})]
    assert [r.status_code for r in taken] == [200, 200] and passed.count == 0
    handed_on = [
        open_door.post(f"{path}?expected_version=2", json=GOLD, headers=auth),  # a query: litestar reads it
        open_door.post(path, json=GOLD, headers={**auth, "Idempotency-Key": "k" * 257}),  # too long: its 422
        open_door.post(path, json=GOLD, headers={**auth, "If-Match": '"3"'}),
        open_door.post(path, json=GOLD),  # no token: its 401
        open_door.post(path, content=b"", headers=auth),  # no body: its 422
        open_door.post(path, json=GOLD, headers={**auth, "Origin": "https://example.org"}),  # a browser: CORS
        open_door.post(f"/v1/sessions/{session_id}/undo", json={}, headers=auth),  # not a command
    ]
    assert [r.status_code for r in handed_on] == [200, 422, 200, 401, 422, 200, 200]
    assert passed.count == len(handed_on)
