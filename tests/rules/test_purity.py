"""The rules engine is pure: it loads nothing but the standard library and itself, and does no I/O of its own.

Its only file access is reading the shipped charts once at import (`importlib.resources`); play never touches
the disk or the network, so the service, the CLI and the phone app can all run it as a plain function.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

import shared_rules

PACKAGE = Path(shared_rules.__file__).resolve().parent
SOURCES = sorted(PACKAGE.rglob("*.py"))

PROBE = """
import json, sys
before = set(sys.modules)
import shared_rules
import shared_rules.simulate  # the workers' bulk journeys are part of the engine too
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_importing_the_engine_loads_only_the_standard_library_and_itself() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=PACKAGE.parent, capture_output=True, text=True, timeout=120, check=True
    )
    loaded = json.loads(result.stdout)
    assert "shared_rules" in loaded and "shared_rules.engine" in loaded
    outside = [
        name
        for name in loaded
        if name.split(".")[0] not in sys.stdlib_module_names and name.split(".")[0] != "shared_rules"
        and not name.endswith("__mypyc")  # the compiled build's shared runtime (scripts/build_compiled.py)
    ]
    assert outside == [], f"the engine imported {outside}"


def test_the_probe_would_see_a_third_party_import() -> None:
    probe = PROBE.replace("import shared_rules\n", "import shared_rules\nimport hypothesis\n", 1)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert "hypothesis" in json.loads(result.stdout)
    assert "hypothesis" not in sys.stdlib_module_names


CALLS = {"open", "print", "input", "__import__"}  # builtins that do I/O or load modules
NAMES = {"socket", "requests", "urllib", "http", "subprocess", "httpx", "asyncio", "threading", "sqlite3", "shutil"}
OS_CALLS = {"system", "popen", "remove", "unlink", "environ", "getenv"}


def io_uses(text: str) -> list[str]:
    """The I/O a module's code uses: bare calls of `open(` and friends, network/process modules, os calls.

    Reads code tokens only, so docstrings and comments ("yields requests") do not count.
    """
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type in (tokenize.NAME, tokenize.OP)]
    found = []
    for index, token in enumerate(tokens):
        before = tokens[index - 1] if index else None
        after = tokens[index + 1] if index + 1 < len(tokens) else None
        attribute = before is not None and before.string == "."
        if token.string in CALLS and not attribute and after is not None and after.string == "(":
            found.append(f"{token.string}(")
        elif token.string in NAMES and not attribute:
            found.append(token.string)
        elif token.string in OS_CALLS and attribute and index >= 2 and tokens[index - 2].string == "os":
            found.append(f"os.{token.string}")
    return found


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_io_in_the_engine_source(source: Path) -> None:
    assert io_uses(source.read_text(encoding="utf-8")) == []


def test_the_static_check_finds_what_it_looks_for() -> None:
    assert io_uses("with open(path) as f:\n    pass\n") == ["open("]
    assert io_uses("import socket\nimport requests\nfrom urllib import request\n") == ["socket", "requests", "urllib"]
    assert io_uses("print('x')\nos.system('ls')\npool.remove(x)\n") == ["print(", "os.system"]
    assert io_uses('"""yields requests; open(the door)"""\n# print(x)\nreopen(x)\n') == []
    assert len(SOURCES) > 10
