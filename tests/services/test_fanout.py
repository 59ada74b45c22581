"""The subscription fan-out (services/api/graphql/fanout.py): subscribers of one table with the same query and
credential share one execution and one encoding of each change; another shape, or another credential (a spectator
beside the players), gets its own; and the frames spliced around a shared payload are what the protocols expect."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from services import hosting, use_cases
from services.api.graphql import fanout
from services.api.graphql.schema import schema
from services.settings import Settings
from services.store.sqlite import SqliteStore

pytestmark = pytest.mark.anyio
HEROES = [{"id": "anna", "name": "Anna"}]
GOLD = {"type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "gold", "amount": 1}]}
VERSIONS = "subscription ($sid: String!) { sessionChanges(sessionId: $sid, afterVersion: 0) { version } }"
WITH_STATE = ("subscription ($sid: String!) { sessionChanges(sessionId: $sid, afterVersion: 0) "
              "{ version state events { type } } }")


@pytest.fixture
async def services(tmp_path: Path) -> AsyncIterator[use_cases.Services]:
    store = SqliteStore(tmp_path / "fan.sqlite3")
    yield use_cases.Services(store, Settings(db_path=str(tmp_path / "fan.sqlite3")))
    await store.close()


async def _first(services: use_cases.Services, query: str, sid: str, token: str) -> Any:
    """The first result a subscriber with this token and query receives (version 1, written before it came)."""
    context = {"services": services, "connection_params": {"token": token}}
    stream = await schema.subscribe(query, variable_values={"sid": sid}, context_value=context)
    try:
        return await stream.__anext__()  # type: ignore[union-attr]
    finally:
        await stream.aclose()  # type: ignore[union-attr]


async def test_one_shape_shares_one_result_another_shape_or_credential_gets_its_own(
        services: use_cases.Services) -> None:
    created = await use_cases.create_session(services, {"heroes": HEROES})
    sid, player = created["session_id"], created["token"]
    spectator = (await hosting.issue_token(services, sid, player, "spectator", ""))["token"]
    await use_cases.submit_command(services, sid, player, GOLD)  # version 1, before anyone subscribes: no race
    executed, shared = fanout.memo.executed, fanout.memo.shared

    first = await _first(services, VERSIONS, sid, player)
    second = await _first(services, VERSIONS, sid, player)
    other_shape = await _first(services, WITH_STATE, sid, player)
    watcher = await _first(services, VERSIONS, sid, spectator)

    assert not (first.errors or second.errors or other_shape.errors or watcher.errors)
    assert first.data == {"sessionChanges": {"version": 1}}
    assert second.data is first.data  # the same object: executed once, encoded once
    assert other_shape.data["sessionChanges"]["version"] == 1 and "state" in other_shape.data["sessionChanges"]
    assert other_shape.data is not first.data
    assert watcher.data == first.data and watcher.data is not first.data  # a spectator never gets a player's result
    assert (fanout.memo.executed - executed, fanout.memo.shared - shared) == (3, 1)


class _Socket:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_data(self, data: str) -> None:
        self.sent.append(data)


class _View:
    @staticmethod
    def encode_json_string(data: object) -> str:
        return json.dumps(data, separators=(",", ":"))

    encode_json = encode_json_string


@pytest.mark.parametrize("kind", ["next", "data"])  # graphql-transport-ws, graphql-ws
async def test_a_shared_payload_is_encoded_once_and_framed_with_each_subscriptions_id(kind: str) -> None:
    data = fanout.SharedData({"sessionChanges": {"version": 3, "text": 'a "quoted" \u00e9 line'}})
    adapters = [fanout.FanoutWebSocketAdapter.__new__(fanout.FanoutWebSocketAdapter) for _ in range(2)]
    for adapter in adapters:
        adapter.view, adapter.ws = _View(), _Socket()  # type: ignore[assignment]
    ids = ["1", 'sub "2"']
    for adapter, operation in zip(adapters, ids, strict=True):
        await adapter.send_json({"id": operation, "type": kind, "payload": {"data": data}})
    frames = [json.loads(adapter.ws.sent[0]) for adapter in adapters]  # type: ignore[attr-defined]
    assert frames == [{"id": operation, "type": kind, "payload": {"data": data}} for operation in ids]
    assert data.payload_text is not None and all(data.payload_text in a.ws.sent[0] for a in adapters)  # type: ignore[attr-defined]

    plain = {"id": "9", "type": kind, "payload": {"data": {"x": 1}, "errors": [{"message": "no"}]}}
    await adapters[0].send_json(plain)  # anything not shared goes the ordinary way, whole
    assert json.loads(adapters[0].ws.sent[1]) == plain  # type: ignore[attr-defined]
