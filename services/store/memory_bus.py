"""In-process publish/subscribe: an asyncio fan-out with one bounded queue per subscriber.

Publishing must happen on the event loop's thread (use loop.call_soon_threadsafe from other threads).
Notifications do not cross processes; for several workers or replicas use the Redis store.
"""

from __future__ import annotations

import asyncio
from typing import Final

from services.store.base import Subscription

DEFAULT_MAX_QUEUE = 10_000
"""Messages a subscriber may fall behind before its subscription is ended."""

_CLOSED: Final = object()


class MemorySubscription(Subscription):
    """A subscriber's queue; it is registered (live) as soon as it is created.

    If the subscriber falls `max_queue` messages behind, it is detached: the queued messages are still
    delivered, then iteration ends (the consumer should reload state and subscribe again).
    """

    def __init__(self, bus: MemoryBus, session_id: str, max_queue: int) -> None:
        self._bus = bus
        self.session_id = session_id
        self._queue: asyncio.Queue[object] = asyncio.Queue(max_queue)
        self._closed = False
        self._detached = False
        self.overflowed = False
        bus._attach(self)

    def _deliver(self, message: str) -> None:
        if self._detached:
            return
        try:
            self._queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True
            self._detach()

    def _detach(self) -> None:
        if not self._detached:
            self._detached = True
            self._bus._detach(self)

    async def start(self) -> None:
        """Nothing to do: the subscription is live from construction."""

    async def __anext__(self) -> str:
        if self._closed or (self._detached and self._queue.empty()):
            raise StopAsyncIteration
        item = await self._queue.get()
        if item is _CLOSED or self._closed:
            raise StopAsyncIteration
        assert isinstance(item, str)
        return item

    async def aclose(self) -> None:
        """Detach from the bus and wake a pending reader."""
        self.close_nowait()

    def close_nowait(self) -> None:
        """Synchronous aclose(), for the bus and for cleanup code that cannot await."""
        if self._closed:
            return
        self._closed = True
        self._detach()
        while not self._queue.empty():
            self._queue.get_nowait()
        self._queue.put_nowait(_CLOSED)


class MemoryBus:
    """Fan-out of messages to the subscribers of each session within one process."""

    def __init__(self, max_queue: int = DEFAULT_MAX_QUEUE) -> None:
        self.max_queue = max_queue
        self._subscribers: dict[str, set[MemorySubscription]] = {}

    def subscribe(self, session_id: str) -> MemorySubscription:
        """Register and return a new subscriber for `session_id`."""
        return MemorySubscription(self, session_id, self.max_queue)

    def total(self) -> int:
        """Live subscribers of every session."""
        return sum(len(subs) for subs in self._subscribers.values())

    def sessions(self) -> list[str]:
        """Sessions that have at least one live subscriber."""
        return list(self._subscribers)

    def publish(self, session_id: str, message: str) -> int:
        """Queue `message` for every subscriber of `session_id`; return how many received it."""
        subscribers = list(self._subscribers.get(session_id, ()))
        for sub in subscribers:
            sub._deliver(message)
        return len(subscribers)

    def subscriber_count(self, session_id: str) -> int:
        """Number of live subscribers of `session_id`."""
        return len(self._subscribers.get(session_id, ()))

    def close(self) -> None:
        """End every subscription."""
        for subs in list(self._subscribers.values()):
            for sub in list(subs):
                sub.close_nowait()
        self._subscribers.clear()

    def _attach(self, sub: MemorySubscription) -> None:
        self._subscribers.setdefault(sub.session_id, set()).add(sub)

    def _detach(self, sub: MemorySubscription) -> None:
        subs = self._subscribers.get(sub.session_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subscribers[sub.session_id]
