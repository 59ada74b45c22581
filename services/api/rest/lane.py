"""The command lane: `POST /v1/sessions/{id}/commands` in its everyday form, answered without litestar's
per-request machinery (routing, the request object, parameter parsing, response assembly).

It is an evening's one hot request: every tap at every table is one. The litestar handler stays the documented
operation and answers every other form of it; the lane takes only the plain form, where nothing needs parsing
beyond what both doors already share:

- the path's join code is of the documented form, and there is no query string;
- a `Bearer` token, an `Idempotency-Key` (if any) of 1-256 characters, no `If-Match`, no `Origin` (a browser's
  cross-origin request: litestar's CORS answers it);
- a body of the announced length, within the size limit.

Anything else goes on to litestar untouched (it has read nothing of the body). Both doors parse the body with
`parse_json_body`, call `use_cases.submit_command`, answer with `sessions.write_answer` and turn errors into
problems with `errors.problem_for`; tests/services/test_lane.py sends the same requests through both and compares
the answers byte for byte. `BRIMSTONE_COMMAND_LANE=0` closes the lane (every command then goes through litestar).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import msgspec

from services import use_cases
from services.api.errors import PROBLEM_JSON, problem_for
from services.api.middleware import ASGIApp, Message, Receive, Scope, Send
from services.api.rest.common import parse_json_body
from services.api.rest.sessions import write_answer
from services.contract.envelopes import SESSION_ID_PATTERN
from services.store.base import MAX_IDEMPOTENCY_KEY_LEN

_PATH = re.compile(r"/v1/sessions/(" + SESSION_ID_PATTERN.strip("^$") + r")/commands")
OPERATION = "postCommand"
"""The metrics label of a command the lane answered (litestar's operation id for the same request)."""


class CommandLane:
    """ASGI: the plain form of a command (see the module docstring) straight to the use case; the rest to `app`."""

    def __init__(self, app: ASGIApp, services: Callable[[], use_cases.Services], max_body: int) -> None:
        self.app = app
        self.services = services
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        taken = self._plain(scope) if scope["type"] == "http" and scope["method"] == "POST" else None
        if taken is None:
            await self.app(scope, receive, send)
            return
        session_id, token, key, length = taken
        scope["operation"] = OPERATION
        path = scope["path"]
        try:
            body = await _body(receive, length)
            written = await use_cases.submit_command(self.services(), session_id, token, parse_json_body(body),
                                                     idempotency_key=key)
            response = write_answer(written)
        except Exception as exc:  # noqa: BLE001 - every error leaves as a problem, as litestar's handler does it
            problem = problem_for(exc)
            await _send(send, problem.status, {"Content-Type": PROBLEM_JSON, **problem.headers},
                        msgspec.json.encode(problem.body(path)))
            return
        await response(scope, receive, send)  # type: ignore[arg-type]  # ASGI mappings, as litestar types them

    def _plain(self, scope: Scope) -> tuple[str, str, str | None, int] | None:
        """(join code, token, Idempotency-Key, body length) of a command in the plain form, else None."""
        if scope.get("query_string"):
            return None
        found = _PATH.fullmatch(scope["path"])
        if found is None:
            return None
        token = key = None
        length = -1
        for name, value in scope["headers"]:
            if name == b"authorization":
                scheme, _, rest = value.decode("latin-1").strip().partition(" ")
                token = rest.strip() if scheme.lower() == "bearer" else None
            elif name == b"idempotency-key":
                key = value.decode("latin-1")
                if not 0 < len(key) <= MAX_IDEMPOTENCY_KEY_LEN:
                    return None
            elif name == b"content-length":
                length = int(value) if value.isdigit() else -1
            elif name in (b"if-match", b"transfer-encoding", b"origin"):  # a browser's: litestar adds CORS headers
                return None
        if not token or not 0 < length <= self.max_body:
            return None
        return found.group(1), token, key, length


async def _body(receive: Receive, length: int) -> bytes:
    """The request body (Content-Length bytes at the most: uvicorn stops a longer one)."""
    chunks: list[bytes] = []
    while True:
        message: Message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    return b"".join(chunks)[:length]


async def _send(send: Send, status: int, headers: dict[str, str], body: bytes) -> None:
    raw = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers.items()]
    raw.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
