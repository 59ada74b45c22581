"""buildozer.spec stays coherent with the code it packages (it cannot be built on these machines): the entry point
exists, every runtime dependency of mobile/ and shared_rules/ is listed (python-for-android installs only what is
listed), the layouts and content files are packaged, portrait, INTERNET."""

from __future__ import annotations

import ast
import configparser
import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
PACKAGED = ("mobile", "shared_rules")


def spec() -> configparser.SectionProxy:
    parser = configparser.ConfigParser()
    parser.read(ROOT / "buildozer.spec")
    return parser["app"]


def listed(app: configparser.SectionProxy) -> set[str]:
    names = [re.split(r"[=<>]", item.strip())[0] for item in app["requirements"].split(",")]
    return {metadata.distribution(n).metadata["Name"].lower() if n not in ("python3",) else n for n in names}


def third_party_imports() -> set[str]:
    """Top-level modules imported by the packaged code (mobile/, shared_rules/, main.py) outside the stdlib."""
    found: set[str] = set()
    files = [ROOT / "main.py", *(p for pkg in PACKAGED for p in (ROOT / pkg).rglob("*.py"))]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return {m for m in found if m not in sys.stdlib_module_names and m not in PACKAGED}


def runtime_closure(dists: set[str]) -> set[str]:
    """The distributions and what they need at run time on Python 3.11 (no extras, no test/doc deps)."""
    seen: set[str] = set()
    todo = list(dists)
    while todo:
        name = todo.pop().lower()
        if name in seen:
            continue
        seen.add(name)
        for raw in metadata.requires(name) or []:
            req = Requirement(raw)
            if req.marker is not None and not req.marker.evaluate({"extra": "", "python_version": "3.11"}):
                continue
            todo.append(req.name)
    return seen


def test_the_entry_point_starts_the_app() -> None:
    app = spec()
    main = ROOT / app["source.dir"] / "main.py"
    assert main.is_file() and "BrimstoneApp" in main.read_text()
    assert "main.py" in app["source.include_patterns"]


def test_every_runtime_dependency_is_listed() -> None:
    app = spec()
    modules = third_party_imports()
    assert {"kivy", "gql", "httpx"} <= modules  # what the client is built on
    dists = {d.lower() for m in modules for d in metadata.packages_distributions()[m]} - {"kivy"}
    needed = runtime_closure(dists | {"websockets"})  # gql's websocket transport imports websockets lazily
    assert "kivy" in listed(app)  # its own recipe brings what it needs
    missing = needed - listed(app)
    assert not missing, f"add to requirements: {sorted(missing)}"
    assert "python3" in listed(app)


def test_layouts_and_content_are_packaged() -> None:
    app = spec()
    exts = {e.strip() for e in app["source.include_exts"].split(",")}
    assert {"py", "kv", "json"} <= exts
    patterns = app["source.include_patterns"]
    for kv in (ROOT / "mobile" / "screens").glob("*.kv"):
        assert "mobile/screens/*.kv" in patterns, kv
    assert "shared_rules/content/*.json" in patterns and list((ROOT / "shared_rules" / "content").glob("*.json"))
    for excluded in ("tests", "services"):
        assert excluded in app["source.exclude_dirs"]


def test_a_portrait_phone_app_that_may_use_the_network() -> None:
    app = spec()
    assert app["orientation"] == "portrait"
    assert "android.permission.INTERNET" in app["android.permissions"]
    assert re.fullmatch(r"[a-z][a-z0-9]*", app["package.name"]) and app["package.domain"].count(".") >= 1
