"""Fan-out of subscription events: a change is executed through GraphQL and encoded to JSON once per query shape,
and the same text goes to every subscriber of that shape in the process, with only the operation id spliced in.

A featured table has a thousand spectators on one replica: executing the selection set and encoding the state once
per subscriber per change made each change cost a thousand executions. Each subscriber still runs its own stream
(its own authorization, start version, gap filling and end), so what it receives is exactly what it would receive
alone; only the execution of an event and the encoding of its payload are shared. Once a shape's payload for an
event is encoded, the other subscribers' streams send it themselves (`Follower.sent`) instead of handing the event to
the GraphQL machinery: it is the frame the machinery would send, built from the same text.

A result is shared between two subscribers only when all of these are the same: the event object itself (one
version of one incarnation of a table, as `History.change` keeps it), the query text, the operation name, the
variables and the credential the subscriber connected with (a spectator never receives what was executed for a
player's token, nor the reverse). Results with errors or extensions are never shared.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping
from contextvars import ContextVar
from typing import Any, TypeVar

from graphql import ExecutionResult, GraphQLError
from graphql.language import print_ast
from graphql.pyutils import is_awaitable as default_is_awaitable
from litestar.exceptions import WebSocketDisconnect
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.litestar.controller import LitestarWebSocketAdapter
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler, Operation
from strawberry.subscriptions.protocols.graphql_ws.handlers import BaseGraphQLWSHandler
from strawberry.types import Info

from services.api.graphql.context import graphql_error, token_from_context

T = TypeVar("T")

MEMO_SIZE = 256
"""Events whose shared results are remembered (the latest versions of the tables with live subscribers)."""


class SharedData(dict[str, Any]):
    """The `data` of one event's result for one shape, the same object for every subscriber of that shape; it
    remembers its encoded payload (`{"data": ...}` as JSON) once it has been encoded."""

    __slots__ = ("payload_text",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__(data)
        self.payload_text: str | None = None


class _Entry:
    __slots__ = ("event", "results")

    def __init__(self, event: object) -> None:
        self.event = event  # held, so its id() cannot be reused while the entry exists
        self.results: dict[tuple[str, ...], Any] = {}


class _Memo:
    """Results by event (identity) and shape; bounded, oldest event first out."""

    def __init__(self, size: int = MEMO_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[int, _Entry] = OrderedDict()
        self.executed = 0
        """Event executions (a shape's first subscriber, or one whose result could not be shared)."""
        self.shared = 0
        """Event results handed out from the memo without executing."""
        self.sent = 0
        """Frames a subscriber's stream sent itself from an encoded payload (no GraphQL machinery at all)."""

    def get(self, event: object, shape: tuple[str, ...]) -> Any:
        entry = self._entries.get(id(event))
        if entry is None or entry.event is not event:
            return None
        return entry.results.get(shape)

    def put(self, event: object, shape: tuple[str, ...], result: Any) -> None:
        entry = self._entries.get(id(event))
        if entry is None or entry.event is not event:
            entry = self._entries[id(event)] = _Entry(event)
            self._entries.move_to_end(id(event))
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        entry.results[shape] = result

    def clear(self) -> None:
        self._entries.clear()


memo = _Memo()


def _credential(context: Any) -> str:
    """Who the subscriber is, as far as what it may see goes: a digest of its token (no token: anonymous)."""
    found = token_from_context(context) if isinstance(context, dict) else None
    return "" if found is None else hashlib.sha256(found.encode()).hexdigest()


def shape_of(operation: Any, variables: Mapping[str, Any], context: Any) -> tuple[str, ...]:
    """What two subscribers must have in common to share a result: the query, the operation, the variables (as
    coerced) and the credential."""
    source = operation.loc.source.body if operation.loc is not None else print_ast(operation)
    name = operation.name.value if operation.name is not None else ""
    return source, name, json.dumps(variables, sort_keys=True, default=repr), _credential(context)


def _shareable(result: Any) -> bool:
    return isinstance(result, ExecutionResult) and not result.errors and not result.extensions \
        and isinstance(result.data, dict)


class FanoutExecutor(StrawberryGraphQLCoreExecutionContext):
    """graphql-core's executor, sharing each subscription event's result between subscribers of the same shape."""

    _fanout_shape: tuple[str, ...] | None = None
    _fanout_event = False

    def _shape(self) -> tuple[str, ...]:
        return shape_of(self.operation, self.variable_values.coerced, self.context_value)

    def build_per_event_executor(self, payload: Any) -> Any:
        if self._fanout_shape is None:
            self._fanout_shape = self._shape()  # once per subscription: the per-event copies inherit it
        executor = super().build_per_event_executor(payload)
        executor._fanout_event = True  # type: ignore[attr-defined]
        return executor

    def execute_operation(self, serially: bool | None = None) -> Any:  # noqa: D102
        if not self._fanout_event or self._fanout_shape is None:
            return super().execute_operation(serially)
        event, shape = self.root_value, self._fanout_shape
        found = memo.get(event, shape)
        if found is not None:
            memo.shared += 1
            return found
        memo.executed += 1
        result = super().execute_operation(serially)
        if default_is_awaitable(result):
            return self._finish(event, shape, result)
        return self._keep(event, shape, result)

    async def _finish(self, event: Any, shape: tuple[str, ...], pending: Any) -> Any:
        return self._keep(event, shape, await pending)

    @staticmethod
    def _keep(event: Any, shape: tuple[str, ...], result: Any) -> Any:
        if not _shareable(result):
            return result
        shared = ExecutionResult(data=SharedData(result.data))
        memo.put(event, shape, shared)
        return shared


_FRAME_TYPES = frozenset({"next", "data"})  # graphql-transport-ws and graphql-ws name the message differently


class FanoutWebSocketAdapter(LitestarWebSocketAdapter):
    """Sends a shared result's payload as the text encoded once, with this message's type and id around it."""

    async def send_json(self, message: Mapping[str, object]) -> None:
        payload = message.get("payload")
        if message.get("type") not in _FRAME_TYPES or not isinstance(payload, dict) or len(payload) != 1:
            return await super().send_json(message)
        data = payload.get("data")
        if type(data) is not SharedData:
            return await super().send_json(message)
        text = data.payload_text
        if text is None:
            text = data.payload_text = self.view.encode_json_string(payload)
        await self.send_frame(_prefix(str(message["type"]), str(message["id"])) + text + "}")
        return None

    async def send_frame(self, frame: str) -> None:
        """Send one message already encoded."""
        try:
            await self.ws.send_data(data=frame)
        except WebSocketDisconnect as exc:
            raise WebSocketDisconnected from exc


def _prefix(kind: str, operation_id: str) -> str:
    return f'{{"type":{json.dumps(kind)},"id":{json.dumps(operation_id)},"payload":'


class _Outlet:
    """Where the subscription running in this task sends its frames: its socket and its message's type and id."""

    __slots__ = ("adapter", "prefix")

    def __init__(self, adapter: FanoutWebSocketAdapter, kind: str, operation_id: str) -> None:
        self.adapter = adapter
        self.prefix = _prefix(kind, operation_id)


_outlet: ContextVar[_Outlet | None] = ContextVar("brimstone_fanout_outlet", default=None)


def _open_outlet(adapter: Any, kind: str, operation_id: str) -> None:
    if isinstance(adapter, FanoutWebSocketAdapter):
        _outlet.set(_Outlet(adapter, kind, operation_id))  # the operation's own task: its context only


class FanoutTransportWSHandler(BaseGraphQLTransportWSHandler[Any, Any]):
    """graphql-transport-ws, telling the operation's stream where its frames go."""

    async def run_operation(self, operation: Operation[Any, Any]) -> None:
        _open_outlet(self.websocket, "next", operation.id)
        await super().run_operation(operation)


class FanoutWSHandler(BaseGraphQLWSHandler[Any, Any]):
    """graphql-ws (the legacy protocol), telling the operation's stream where its frames go."""

    async def handle_async_results(self, operation_id: str, query: str, operation_name: str | None,
                                   variables: dict[str, object] | None) -> None:
        _open_outlet(self.websocket, "data", operation_id)
        await super().handle_async_results(operation_id, query, operation_name, variables)


class Follower:
    """A subscription's stream, sending itself each event whose payload another subscriber's has encoded."""

    __slots__ = ("outlet", "shape")

    def __init__(self, outlet: _Outlet, shape: tuple[str, ...]) -> None:
        self.outlet = outlet
        self.shape = shape

    async def sent(self, event: object) -> bool:
        """Send the event's shared payload if there is one (True), else leave it to GraphQL (False)."""
        result = memo.get(event, self.shape)
        text = result.data.payload_text if result is not None else None
        if text is None:
            return False
        memo.sent += 1
        await self.outlet.adapter.send_frame(self.outlet.prefix + text + "}")
        return True


def follower(info: Info) -> Follower | None:
    """The fan-out for the subscription resolving `info` (None outside a websocket operation)."""
    outlet = _outlet.get()
    if outlet is None:
        return None
    return Follower(outlet, shape_of(info.operation, info.variable_values, info.context))


async def stream(info: Info, source: AsyncIterator[T]) -> AsyncIterator[T]:
    """A use case's stream as a subscription's events (refusals translated like `context.stream`): each event whose
    payload another subscriber of the same shape has encoded is sent from here; the others go to GraphQL."""
    fan = follower(info)
    try:
        async for item in source:
            if fan is None or not await fan.sent(item):
                yield item
    except GraphQLError:
        raise
    except Exception as exc:
        raise graphql_error(exc) from exc
    finally:
        await source.aclose()  # type: ignore[attr-defined]
