"""Pre-framed websocket writes: the subscription fan-out writes a change's text frame straight onto each socket's
transport, bypassing litestar's and uvicorn's per-message layers, when that is exactly what uvicorn would write.

Why: a featured table's change goes to ~600 sockets per replica. Through `websocket.send` each delivery passed
litestar's two send wrappers, uvicorn's `send` coroutine, websockets' `Frame` and (when negotiated) a deflate
compressor of its own: ~40 us of a core each, and the last socket of a change waited for all of that. A server text
frame without extensions is a 2-10 byte header and the UTF-8 text (server frames are not masked), so it is framed
here in one join and written in the same turn of the loop.

Only when the connection is served by uvicorn's `websockets-sansio` protocol (as `brimstone serve` runs it), its
handshake done, open (no close sent or received, not lost), no extension negotiated (permessage-deflate would
compress) and its transport below the high-water mark (`writable`): otherwise `Wire.write` declines and the caller
sends the ordinary way (which waits for a paused socket). That protocol writes each message whole with one
`transport.write` and never fragments, so a frame written here never lands inside another.
"""

from __future__ import annotations

import struct
from collections.abc import MutableMapping
from typing import Any

SCOPE_KEY = "brimstone.wire"
"""Where the edge leaves the server's websocket protocol in a websocket scope (an ASGI `send` bound to it)."""

try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.protocol import State

    _OPEN: Any = State.OPEN
except ImportError:  # pragma: no cover - the service extras install both
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]
    _OPEN = None


def remember(scope: MutableMapping[str, Any], send: Any) -> None:
    """Note the websocket protocol behind `send` in the scope (when it is one `Wire` can write to)."""
    protocol = getattr(send, "__self__", None)
    if WebSocketsSansIOProtocol is not None and type(protocol) is WebSocketsSansIOProtocol:
        scope[SCOPE_KEY] = Wire(protocol)


def of(scope: MutableMapping[str, Any] | None) -> Wire | None:
    """The connection's wire, if the edge found one."""
    return scope.get(SCOPE_KEY) if scope is not None else None


def header(size: int) -> bytes:
    """The header of a final, unmasked text frame of `size` bytes (RFC 6455 5.2: as a server sends it)."""
    if size < 126:
        return bytes((0x81, size))
    if size < 65536:
        return struct.pack("!BBH", 0x81, 126, size)
    return struct.pack("!BBQ", 0x81, 127, size)


class Wire:
    """One websocket connection's transport, for whole text frames written without awaiting."""

    __slots__ = ("protocol",)

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol

    def paused(self) -> bool:
        """Whether the transport is over its high-water mark (uvicorn's send waits until it drains)."""
        return not self.protocol.writable.is_set()

    def write(self, head: bytes, body: bytes) -> bool:
        """Write the text message `head + body` as one frame now (True), or decline (False: the socket is paused,
        closing, closed or has an extension), leaving it to the ordinary send."""
        protocol = self.protocol
        if protocol.close_sent or protocol.disconnected or not protocol.handshake_complete \
                or protocol.initial_response is not None or not protocol.writable.is_set():
            return False
        conn = protocol.conn
        if conn.state is not _OPEN or conn.extensions:
            return False
        transport = protocol.transport
        if transport.is_closing():
            return False
        transport.write(b"".join((header(len(head) + len(body)), head, body)))
        return True
