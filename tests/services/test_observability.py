"""Request ids: on every answer, on the log lines of the request, and quoted in a 500's body."""

from __future__ import annotations

import logging
from pathlib import Path

from litestar.testing import TestClient

from services.api.app import create_app
from services.observability import RequestIdFilter
from services.settings import Settings
from services.store import StoredSession
from services.store.sqlite import SqliteStore
from services.use_cases import Services


class BrokenStore(SqliteStore):
    """A store whose reads fail the way nothing should: the server's fault, so a 500."""

    async def load(self, session_id: str, *, known_version: int | None = None,
                   idempotency_key: str | None = None) -> StoredSession | None:
        raise RuntimeError("disk on fire")


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.addFilter(RequestIdFilter())

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_a_500_quotes_the_request_id_that_its_log_lines_carry(tmp_path: Path) -> None:
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"))
    store = BrokenStore(settings.db_path)
    app = create_app(settings, services=Services(store, settings))
    collect = Collect()
    logging.getLogger("brimstone").addHandler(collect)
    try:
        with TestClient(app) as client:
            response = client.get("/v1/sessions/ABCDEF", headers={"Authorization": "Bearer t",
                                                                  "X-Request-ID": "req-1234-abcd"})
            fresh = client.get("/v1/health")
    finally:
        logging.getLogger("brimstone").removeHandler(collect)
    assert response.status_code == 500
    assert response.headers["x-request-id"] == "req-1234-abcd"
    body = response.json()
    assert body["request_id"] == "req-1234-abcd" and "req-1234-abcd" in body["detail"]
    assert "disk on fire" not in response.text  # no internals in the answer
    logged = collect.records
    assert logged and all(getattr(r, "request_id", None) == "req-1234-abcd" for r in logged)
    assert fresh.headers["x-request-id"] not in ("", "req-1234-abcd")
