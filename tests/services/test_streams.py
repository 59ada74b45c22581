"""The server-sent event streams' pacing: keep-alive comments while nothing changes (so a venue's proxy keeps an
evening's connection open), the end of a burst (the dashboard's counters once per burst), the source closed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from services.api.rest.common import change_stream, paced

pytestmark = pytest.mark.anyio


async def test_a_quiet_stream_sends_keep_alives_and_marks_the_end_of_each_burst() -> None:
    closed: list[bool] = []

    async def source() -> AsyncIterator[int]:
        try:
            yield 1
            yield 2
            await asyncio.sleep(0.25)  # a quiet table
            yield 3
        finally:
            closed.append(True)

    seen = [item async for item in paced(source(), keep_alive=0.1)]
    items = [item for item in seen if item is not None]
    assert items == [(1, True), (2, False), (3, False)]  # 1 arrives with 2 waiting; 2 and 3 end their bursts
    assert seen.count(None) >= 1 and seen.index(None) > seen.index((2, False))  # keep-alives in the quiet
    assert closed == [True]


async def test_the_change_stream_names_each_version() -> None:
    async def changes() -> AsyncIterator[dict[str, int]]:
        yield {"version": 7}

    messages = [m async for m in change_stream(changes())]
    assert messages[0].comment == "following the table" and messages[0].retry == 2000
    assert (messages[1].event, messages[1].id, messages[1].data) == ("change", "7", '{"version":7}')
