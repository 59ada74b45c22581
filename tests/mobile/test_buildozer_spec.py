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
    return {metadata.distribution(n).metadata["Name"].lower() if n not in ("python3", "hostpython3") else n
            for n in names}


def third_party_imports() -> set[str]:
    """Top-level modules imported by the packaged code (mobile/, shared_rules/, main.py) outside the stdlib."""
    found: set[str] = set()
    files = [ROOT / "main.py", *(p for pkg in PACKAGED for p in (ROOT / pkg).rglob("*.py"))]
    for path in files:
        tree = ast.parse(path.read_text(), str(path))
        typing_only = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If) and _type_checking(node.test)
                       for statement in node.body for inner in ast.walk(statement)}  # never imported when run
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    on_device = {"jnius", "android"}  # python-for-android's own modules (pyjnius, android), on the phone only
    return {m for m in found if m not in sys.stdlib_module_names and m not in PACKAGED and m not in on_device}


def _type_checking(test: ast.expr) -> bool:
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING" or \
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


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
    assert {"py", "kv", "json", "mo", "png"} <= exts
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


def test_python_and_the_build_tools_are_pinned() -> None:
    app = spec()
    pins = {re.split(r"==", item.strip())[0]: item for item in app["requirements"].split(",")}
    assert re.fullmatch(r"python3==3\.\d+\.\d+", pins["python3"].strip())
    assert "==" in pins["hostpython3"] and pins["hostpython3"].split("==")[1] == pins["python3"].split("==")[1]
    unpinned = [name for name, item in pins.items() if "==" not in item]
    assert not unpinned, f"pin these: {unpinned}"
    assert re.fullmatch(r"v\d{4}\.\d{2}\.\d{2}", app["p4a.branch"])


def test_the_play_api_level_the_wakelock_the_icon_and_splash() -> None:
    app = spec()
    assert int(app["android.api"]) >= 35  # Google Play's target level for new apps from Aug 2025
    assert app["android.wakelock"] == "True" and "android.permission.WAKE_LOCK" in app["android.permissions"]
    for key in ("icon.filename", "presplash.filename"):
        path = ROOT / app[key].replace("%(source.dir)s", app["source.dir"])
        assert path.is_file() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", key
        assert path.relative_to(ROOT).as_posix().startswith("mobile/assets/")


def test_the_c_extension_libraries_run_as_pure_python_on_the_phone() -> None:
    text = (ROOT / "main.py").read_text()
    names = ("YARL_NO_EXTENSIONS", "MULTIDICT_NO_EXTENSIONS", "PROPCACHE_NO_EXTENSIONS")
    assert all(name in text for name in names)
    assert text.index("PROPCACHE_NO_EXTENSIONS") < text.index("from mobile.app import")  # set before any import


def test_the_app_handles_pause_resume_back_and_the_system_bars() -> None:
    """What an Android build relies on, present in the app (it cannot be run on a phone here)."""
    source = (ROOT / "mobile" / "app.py").read_text()
    for hook in ("def on_pause", "def on_resume", "def _on_key", "platform.insets()", "platform.keep_awake(True)"):
        assert hook in source, hook
    from mobile import platform

    assert platform.insets() == (0, 0, 0, 0) and platform.keep_awake(True) is False  # a desktop: no-ops


def test_every_module_of_the_app_and_the_engine_is_packaged() -> None:
    """A file python-for-android leaves out is an ImportError on the phone only (new rule-area packages included)."""
    from fnmatch import fnmatch

    patterns = [p.strip() for p in spec()["source.include_patterns"].split(",")]
    files = [p.relative_to(ROOT).as_posix() for pkg in PACKAGED for ext in ("py", "json", "kv")
             for p in (ROOT / pkg).rglob(f"*.{ext}")]
    missing = [f for f in files if "__pycache__" not in f and not any(fnmatch(f, pat) for pat in patterns)]
    assert not missing, f"add patterns for: {missing}"


def test_a_scanned_join_or_posse_code_opens_the_app() -> None:
    app = spec()
    filters = ROOT / app["android.manifest.intent_filters"]
    assert filters.is_file() and 'android:scheme="brimstone"' in filters.read_text()
    from mobile.presenters.start import LINK_SCHEME

    assert LINK_SCHEME == "brimstone" and "platform.launch_link()" in (ROOT / "mobile" / "app.py").read_text()
