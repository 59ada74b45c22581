"""Start-up (issue 20): what a start must not import or build, so a replica answers /v1/health soon after launch.

Timing is left to bench/startup.py (load inflates it); these check what a start loads, which load does not change.
The probe does what `brimstone serve` does up to its first health answer: imports, builds the app, runs its
lifespan (store, job runners, rate limits) and answers one GET /v1/health over ASGI.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx

from scripts.export_schemas import OPENAPI
from tests.services.servers import ServerProcess, create_session, sqlite_storage

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import asyncio, json, sys
from services.api.app import create_app
from services.settings import Settings
import services.api.serve

app = create_app(Settings(db_path=sys.argv[1]))


async def start_and_ask_health():
    inbox, outbox = asyncio.Queue(), asyncio.Queue()
    await inbox.put({"type": "lifespan.startup"})
    lifespan = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}}, inbox.get, outbox.put))
    started = await outbox.get()
    assert started["type"] == "lifespan.startup.complete", started
    answers = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        answers.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": "/v1/health", "raw_path": b"/v1/health", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"127.0.0.1")], "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000)}
    await app(scope, receive, send)
    loaded = sorted(sys.modules)
    await inbox.put({"type": "lifespan.shutdown"})
    await outbox.get()
    await lifespan
    return answers[0]["status"], loaded


status, loaded = asyncio.run(start_and_ask_health())
print(json.dumps({"status": status, "modules": loaded}))
"""


def _started(tmp_path: Path) -> tuple[int, set[str]]:
    result = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "t.sqlite3")], cwd=ROOT, capture_output=True,
                            text=True, timeout=600, check=True)
    found = json.loads(result.stdout.splitlines()[-1])
    return found["status"], set(found["modules"])


def test_a_start_imports_no_graphql_library_no_page_renderer_no_engine_and_no_rate_limiter(tmp_path: Path) -> None:
    status, modules = _started(tmp_path)
    assert status == 200  # the probe's start answered health
    loaded = {name.split(".")[0] for name in modules}
    for deferred in ("strawberry", "graphql", "pydantic", "jinja2", "segno", "redis", "limits"):
        assert deferred not in loaded, f"{deferred} is imported at start-up: import it where a request needs it"
    # the engine's values (~200 frozen dataclasses) and the API model walked from them load with the first table,
    # the first command or the document; a start needs only the engine's errors
    engine = {name for name in modules if name.startswith("shared_rules.")}
    assert engine <= {"shared_rules.errors"}, f"imported at start-up: {sorted(engine - {'shared_rules.errors'})}"
    for deferred in ("services.contract.model", "services.contract.json_schema", "services.contract.public"):
        assert deferred not in modules, f"{deferred} is imported at start-up: it walks the engine's types"


def test_the_first_requests_after_a_start_load_what_they_need_and_answer_as_always(tmp_path: Path) -> None:
    """A real server whose first requests are a table, a command on it, its legal commands, a host page and the
    OpenAPI document: each loads what the start left out (the engine, the API model, limits, jinja2, the document's
    examples) and answers as the contract says."""
    with ServerProcess(sqlite_storage(tmp_path), tmp_path, build_graphql=False) as server, \
            httpx.Client(base_url=server.url, timeout=60) as client:
        created = create_session(client)  # the first request after the start: 201
        sid, token = created["session_id"], created["token"]
        auth = {"Authorization": f"Bearer {token}"}
        written = client.post(f"/v1/sessions/{sid}/commands", headers=auth, json={
            "type": "adjust", "hero": "anna", "effects": [{"op": "change", "field": "xp", "amount": 1}]})
        assert written.status_code == 200, written.text
        assert written.json()["version"] == 1
        assert next(h for h in written.json()["state"]["heroes"] if h["id"] == "anna")["xp"] == 1
        legal = client.get(f"/v1/sessions/{sid}/legal-commands", headers=auth)
        assert legal.status_code == 200 and legal.json()["legal_commands"], legal.text
        refused = client.post(f"/v1/sessions/{sid}/commands", headers=auth, json={"type": "no-such-command"})
        assert refused.status_code == 422 and refused.json()["field"] == "type"
        assert client.get("/host").status_code == 200  # the host's sign-in page (jinja2)
        document = client.get("/schema/openapi.json")
        assert document.status_code == 200 and document.json() == json.loads(OPENAPI.read_text())
        assert "Traceback" not in server.log(), server.log()
