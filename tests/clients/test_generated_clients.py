"""The API as a third-party developer meets it: the committed documents pass Redocly's and Spectral's recommended
rules, a Python client generated from openapi/openapi.json plays a journey against a real server, the TypeScript
types openapi-typescript generates compile, and GraphQL Code Generator's types for real queries (the docs' and
the phone app's) type-check.

The tools are installed on first use under .cache/api-clients (tools.py) and reused by reruns; the first run
downloads them (about a minute), so the module is `slow`.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.clients import tools
from tests.services.servers import ServerProcess, sqlite_storage

pytestmark = pytest.mark.slow
OPENAPI = tools.ROOT / "openapi" / "openapi.json"
GRAPHQL = tools.ROOT / "openapi" / "schema.graphql"
TSCONFIG = {"compilerOptions": {"strict": True, "noEmit": True, "target": "ES2022", "module": "ESNext",
                                "moduleResolution": "Bundler", "noUncheckedIndexedAccess": True,
                                "exactOptionalPropertyTypes": True}}


@pytest.fixture(scope="module")
def npm_bin() -> Path:
    return tools.npm_tools()


def _ok(result: object) -> None:
    assert getattr(result, "returncode", 1) == 0, f"{getattr(result, 'stdout', '')}\n{getattr(result, 'stderr', '')}"


def test_redocly_recommended_rules_pass(npm_bin: Path) -> None:
    result = tools.run([str(npm_bin / "redocly"), "lint", str(OPENAPI), "--config", str(tools.HERE / "redocly.yaml"),
                        "--format=json"], cwd=tools.HERE)
    report = json.loads(result.stdout)
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}, report["problems"][:5]


def test_spectral_oas_rules_pass(npm_bin: Path) -> None:
    result = tools.run([str(npm_bin / "spectral"), "lint", str(OPENAPI), "--ruleset",
                        str(tools.HERE / "spectral.yaml"), "--format", "json", "--quiet"], cwd=tools.HERE)
    findings = json.loads(result.stdout or "[]")
    assert findings == [], findings[:5]  # not even a warning or a hint


def _tsc(npm_bin: Path, where: Path, files: list[str]) -> None:
    (where / "tsconfig.json").write_text(json.dumps({**TSCONFIG, "files": files}))
    _ok(tools.run([str(npm_bin / "tsc"), "-p", str(where / "tsconfig.json")], cwd=where))


def test_typescript_types_from_the_openapi_document_compile(npm_bin: Path, tmp_path: Path) -> None:
    # fields with a default are optional in requests (openapi-typescript makes them required by default)
    _ok(tools.run([str(npm_bin / "openapi-typescript"), str(OPENAPI), "-o", str(tmp_path / "api.d.ts"),
                   "--default-non-nullable", "false"], cwd=tmp_path))
    shutil.copy(tools.HERE / "typescript" / "rest_use.ts", tmp_path)
    _tsc(npm_bin, tmp_path, ["api.d.ts", "rest_use.ts"])


def test_graphql_codegen_types_for_real_queries_type_check(npm_bin: Path, tmp_path: Path) -> None:
    from mobile.client import QUERIES

    documents = tmp_path / "documents"
    documents.mkdir()
    shutil.copy(tools.HERE / "graphql" / "docs.graphql", documents)
    for name, text in QUERIES.items():  # the phone app's own queries
        (documents / f"app_{name}.graphql").write_text(text)
    config = {"schema": str(GRAPHQL), "documents": str(documents / "*.graphql"), "generates": {
        str(tmp_path / "gql.ts"): {"plugins": ["typescript-operations"], "config": {
            "strictScalars": True, "enumsAsTypes": True,
            "scalars": {"Long": "number", "Value": "number | string | boolean", "JSON": "unknown"}}}}}
    (tmp_path / "codegen.json").write_text(json.dumps(config))
    # run where the plugins are installed: codegen looks them up from its working directory
    _ok(tools.run([str(npm_bin / "graphql-codegen"), "--config", str(tmp_path / "codegen.json")],
                  cwd=npm_bin.parent.parent))
    shutil.copy(tools.HERE / "typescript" / "graphql_use.ts", tmp_path)
    _tsc(npm_bin, tmp_path, ["gql.ts", "graphql_use.ts"])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_storage(tmp_path_factory.mktemp("client-db")),
                       tmp_path_factory.mktemp("client-logs")) as process:
        yield process
        assert "Traceback" not in process.log(), process.log()


def test_a_generated_python_client_plays_a_journey(server: ServerProcess, tmp_path: Path) -> None:
    venv = tools.python_client_generator()
    env = {**os.environ, "PATH": f"{venv}{os.pathsep}{os.environ.get('PATH', '')}"}  # its ruff formats the code
    generated = tools.subprocess.run(
        [str(venv / "openapi-python-client"), "generate", "--path", str(OPENAPI), "--meta", "none",
         "--output-path", str(tmp_path / "brimstone_client")], cwd=tmp_path, capture_output=True, text=True,
        timeout=300, env=env)
    _ok(generated)
    assert "Warning" not in generated.stdout, generated.stdout  # every schema and response was understood
    played = tools.run([str(venv / "python"), str(tools.HERE / "journey_python.py"), str(tmp_path), server.url],
                       cwd=tmp_path)
    _ok(played)
    assert "undone to" in played.stdout, played.stdout
