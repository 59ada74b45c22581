"""Fan-out of subscription events: a change is executed through GraphQL and encoded to JSON once per query shape,
and the same text goes to every subscriber of that shape in the process, with only the operation id spliced in.

A featured table has a thousand spectators on one replica: executing the selection set and encoding the state once
per subscriber per change made each change cost a thousand executions, and a stream task per subscriber woke, read
and sent for each change. Over a websocket, a table's subscribers of one shape now share one `Sender` (one task, one
store subscription): it hears each change once, executes and encodes it once and writes the same text to every
socket, each operation id spliced in. Each subscriber keeps its own authorization (when it subscribes), its own
catch-up from its start version (sent by its own stream before it joins; a shape's payload already encoded is sent
as is, `Follower.sent`) and its own end (its token checked again on an access notice, its socket), so what it
receives is exactly what its own `watch_session` stream would send.

The frames leave pre-framed (`services/api/wire.py`): each one written straight onto its socket's transport in one
pass, without an await, when uvicorn would write exactly those bytes (no deflate negotiated, socket open and not
paused); a socket that does not take it gets it afterwards through the ordinary send (`deliver`).

A result is shared between two subscribers only when all of these are the same: the event object itself (one
version of one incarnation of a table, as `History.change` keeps it), the query text, the operation name, the
variables and the credential the subscriber connected with (a spectator never receives what was executed for a
player's token, nor the reverse). Results with errors or extensions are never shared.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping
from contextvars import ContextVar
from typing import Any, TypeVar

from graphql import ExecutionResult, GraphQLError
from graphql.language import OperationType, print_ast
from graphql.pyutils import is_awaitable as default_is_awaitable
from litestar.exceptions import WebSocketDisconnect
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.litestar.controller import LitestarWebSocketAdapter
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler, Operation
from strawberry.subscriptions.protocols.graphql_ws.handlers import BaseGraphQLWSHandler
from strawberry.types import Info

from services.api import wire as wires
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

    def build_resolve_info(self, field_def: Any, field_nodes: Any, parent_type: Any, path: Any) -> Any:
        if not self._fanout_event and path.prev is None and self.operation.operation is OperationType.SUBSCRIPTION:
            _subscribing.set(self)  # the subscription's resolver is called next: it may join a shared sender
        return super().build_resolve_info(field_def, field_nodes, parent_type, path)

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

    @property
    def wire(self) -> wires.Wire | None:
        """The connection's transport for pre-framed writes (services/api/wire.py), if the server offers one."""
        return wires.of(getattr(self.ws, "scope", None))


def _prefix(kind: str, operation_id: str) -> str:
    return f'{{"type":{json.dumps(kind)},"id":{json.dumps(operation_id)},"payload":'


class _Outlet:
    """Where the subscription running in this task sends its frames: its socket (and its wire, when it has one)
    and its message's type and id."""

    __slots__ = ("adapter", "head", "prefix", "wire")

    def __init__(self, adapter: FanoutWebSocketAdapter, kind: str, operation_id: str) -> None:
        self.adapter = adapter
        self.prefix = _prefix(kind, operation_id)
        self.head = self.prefix.encode()
        self.wire = adapter.wire

    def write(self, body: bytes) -> bool:
        """Write the frame `prefix + body` (the payload's UTF-8 text and the closing brace) now, if the wire takes
        it (see `Wire.write`); False: send it the ordinary way."""
        return self.wire is not None and self.wire.write(self.head, body)

    def paused(self) -> bool:
        """Whether the socket's transport is over its high-water mark (its client is not reading): a send waits."""
        return self.wire is not None and self.wire.paused()

    async def send(self, text: str) -> None:
        """Send the frame around the encoded payload `text`: written at once when the wire takes it, else through
        the socket's ordinary send (which waits while the socket is paused)."""
        if not self.write((text + "}").encode()):
            await self.adapter.send_frame(self.prefix + text + "}")


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
        await self.outlet.send(text)
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


# ---- one sender per shape ------------------------------------------------------------------------------------

_subscribing: ContextVar[Any] = ContextVar("brimstone_fanout_executor", default=None)
"""The executor of the subscription whose resolver is being called (the operation's own task)."""

log = logging.getLogger("brimstone.fanout")


class Member:
    """One subscriber of a shared sender: its socket's frame prefix, its token (checked again when access changes),
    the executor its subscription was built with, and the future its stream waits on until the sender ends it."""

    __slots__ = ("ended", "executor", "joined", "outlet", "token")

    def __init__(self, outlet: _Outlet, token: str | None, executor: Any) -> None:
        self.outlet = outlet
        self.token = token
        self.executor = executor
        self.joined = False
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def end(self) -> None:
        if not self.ended.done():
            self.ended.set_result(None)


class Sender:
    """Every subscriber of one table with one shape on this process: one task hears the table's notifications (one
    subscription to the store's shared pub/sub), reads each change once, executes and encodes it once and writes the
    same text, each operation id spliced in, to every joined subscriber's socket.

    A subscriber joins only after its own catch-up (the versions after its start version up to the sender's last,
    sent by its own stream), so it receives each version exactly once and in order. Ends, as `watch_session`'s:
    the table deleted or another incarnation (every subscriber), a token revoked or rotated (each subscriber's own
    token is checked again on the access notice), the notification queue overflowed (every subscriber: they
    subscribe again), a socket closed or paused over `SLOW_SOCKET_SECONDS` (that subscriber)."""

    def __init__(self, key: tuple[Any, ...], services: Any, session_id: str, incarnation: str,
                 shape: tuple[str, ...]) -> None:
        self.key = key
        self.services = services
        self.session_id = session_id
        self.incarnation = incarnation
        self.shape = shape
        self.members: dict[int, Member] = {}
        self.last = -1
        self.closed = False
        self.ready = asyncio.Event()
        self.failure: BaseException | None = None
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"brimstone-fanout-{session_id}")

    def _close(self) -> None:
        self.closed = True
        if _senders.get(self.key) is self:
            del _senders[self.key]
        for member in self.members.values():
            member.end()
        self.ready.set()

    async def _run(self) -> None:
        from services import use_cases

        services, sid = self.services, self.session_id
        try:
            async with services.store.subscribe(sid) as subscription:
                table = await services.history.latest(sid)
                if table is None or table.token_hash != self.incarnation:
                    return
                self.last = table.version
                self.ready.set()
                async for notice in use_cases.notices(subscription):
                    if notice.get("deleted"):
                        return
                    if notice.get("access"):  # a token rotated or revoked: check each subscriber's own
                        latest = await services.history.latest(sid)
                        for member in list(self.members.values()):
                            if not await use_cases.still_opens(services, latest, self.incarnation, member.token):
                                member.end()
                        continue
                    version = notice.get("version")
                    if notice.get("resync"):
                        latest = await services.history.latest(sid)
                        if latest is None or latest.token_hash != self.incarnation:
                            return
                        version = latest.version
                    if not isinstance(version, int) or version <= self.last:
                        continue
                    async for change in use_cases.versions_between(services, sid, self.incarnation, self.last,
                                                                    version):
                        await self._send(change)
                    self.last = version
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the store went away: the subscribers end (and subscribe again)
            self.failure = exc
            log.warning("fan-out of %s ended: %r", sid, exc)
        finally:
            self._close()

    async def _send(self, change: Any) -> None:
        self.last = change["version"]  # a subscriber joining from now on has this version from its own catch-up
        targets = [m for m in self.members.values() if m.joined and not m.ended.done()]
        if not targets:
            return
        result = targets[0].executor.build_per_event_executor(change).execute_operation(False)
        if default_is_awaitable(result):
            result = await result
        data = result.data
        if type(data) is SharedData:
            text = data.payload_text
            if text is None:
                text = data.payload_text = self._encode({"data": data})
        else:  # errors: sent as they are, never shared with anyone else
            payload: dict[str, Any] = {"data": data}
            if result.errors:
                payload["errors"] = [error.formatted for error in result.errors]
            text = self._encode(payload)
        memo.sent += len(targets) - 1  # the first one's is the execution (or the reuse) counted above
        await deliver(targets, text)

    def _encode(self, payload: Mapping[str, Any]) -> str:
        for member in self.members.values():
            return member.outlet.adapter.view.encode_json_string(payload)  # type: ignore[no-any-return]
        return json.dumps(payload, separators=(",", ":"))

    def leave(self, member: Member) -> None:
        self.members.pop(id(member), None)
        member.end()
        if not self.members and not self.closed:
            self.task.cancel()
            self._close()


async def deliver(targets: list[Member], text: str) -> None:
    """Send one change's encoded payload `text` to every member: first, in one turn of the loop, to each socket that
    takes a pre-framed write now (the last of 600 no longer waits for the others' awaits); then through the
    ordinary send to those that do not: one at a time those that are not paused (with an extension, or served
    otherwise), then the paused ones together, each waiting at most `SLOW_SOCKET_SECONDS` (two stalled phones hold
    the table's sender 1 s, not 2). A member whose socket is closed or stays paused that long ends (it resumes from
    its last version when it subscribes again); the others go on."""
    body = (text + "}").encode()
    later = [member for member in targets if not member.outlet.write(body)]
    if not later:
        return
    paused: list[Member] = []
    for member in later:
        if member.outlet.paused():
            paused.append(member)
        else:
            await _send_slowly(member, text)
    if paused:
        await asyncio.gather(*(_send_slowly(member, text) for member in paused))


async def _send_slowly(member: Member, text: str) -> None:
    """The ordinary send of one member's frame, at most `SLOW_SOCKET_SECONDS`; a failure or the time out ends it."""
    if member.ended.done():
        return
    try:
        async with asyncio.timeout(SLOW_SOCKET_SECONDS):  # a timer, not a task: cheap when the send is instant
            await member.outlet.adapter.send_frame(member.outlet.prefix + text + "}")
    except Exception:  # its socket closed, or its client stopped reading: that subscriber ends, the others go on
        member.end()


SLOW_SOCKET_SECONDS = 1.0
"""How long one socket may hold up its shape's sender: a client that has stopped reading (its socket's buffer full)
is ended after this, and resumes from its last version when it subscribes again, instead of stalling every other
subscriber of the table."""

_senders: dict[tuple[Any, ...], Sender] = {}


def senders() -> int:
    """Live shared senders in this process (a figure for the tests and the benchmarks)."""
    return len(_senders)


def session_changes(info: Info, services: Any, session_id: str, token: str | None, after_version: int | None
                    ) -> AsyncIterator[Any]:
    """The `sessionChanges` subscription: over a websocket, its subscriber joins its table's shared sender for its
    shape after its own authorization and catch-up; elsewhere (no socket), its own `watch_session` stream."""
    outlet, executor = _outlet.get(), _subscribing.get()
    if outlet is None or executor is None:
        from services import use_cases

        return stream(info, use_cases.watch_session(services, session_id, token, after_version=after_version))
    return _joined(info, outlet, executor, services, session_id, token, after_version)


async def _joined(info: Info, outlet: _Outlet, executor: Any, services: Any, session_id: str, token: str | None,
                  after_version: int | None) -> AsyncIterator[Any]:
    from services import use_cases

    try:
        table, start = await use_cases.watch_door(services, session_id, token, after_version)
        shape = shape_of(info.operation, info.variable_values, info.context)
        key = (id(services), session_id, table.token_hash, shape)
        sender = _senders.get(key)
        if sender is None or sender.closed:
            sender = _senders[key] = Sender(key, services, session_id, table.token_hash, shape)
        member = Member(outlet, token, executor)
        sender.members[id(member)] = member
        fan = Follower(outlet, shape)
        try:
            await sender.ready.wait()
            if sender.closed:
                if sender.failure is not None:
                    raise sender.failure
                return
            last = sender.last if start is None else min(start, sender.last)
            while last < sender.last and not sender.closed:  # its own catch-up, then it joins
                upto = sender.last
                async for change in use_cases.versions_between(services, session_id, table.token_hash, last, upto):
                    if not await fan.sent(change):
                        yield change
                last = upto
            if sender.closed:
                return
            member.joined = True  # no await since the last check: the sender sends it every version after `last`
            await member.ended
        finally:
            sender.leave(member)
    except GraphQLError:
        raise
    except Exception as exc:
        raise graphql_error(exc) from exc
