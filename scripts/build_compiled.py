"""The engine's second build: the same `shared_rules` source with its hot modules compiled by mypyc (issue 19).

The service's workers and bulk odds run on it; the phone, and any machine without a C compiler, run the pure-Python
source, which stays the only source of truth. Only the modules a journey or an odds trial spends its time in are
compiled (a two-minute build, not the whole engine's six), the state and the values a request carries among them:
their dataclasses are rewritten in the build's copy so that mypyc compiles how they are built and copied
(`native_source`). Left interpreted: the commands (a class decorator registers each), and the odds' questions,
whose frozen Plan is pickled to worker processes.

    .venv/bin/python scripts/build_compiled.py [--out build/compiled]
    PYTHONPATH=build/compiled brimstone worker      # any process: the compiled modules are found first

A build whose source has not changed since is kept (its stamp holds the source's hash).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Where a journey and an odds trial spend their time (cProfile, tottime per file): the driver, the autoplay loop,
# the odds' trial and tally, the road and its 36 hazards, the Town's arrival.
COMPILED = (
    "flow",
    "engine",
    "simulate",
    "odds/controls",
    "odds/sample",
    "rules/travel/road",
    "rules/travel/hazards/common",
    *(f"rules/travel/hazards/d{tens}" for tens in range(1, 7)),
    "rules/town/arrival",
    "rules/travel/__init__",  # the road's command checks
    "rules/stay/days",  # the Stay's first dawn, which ends a journey
    # the state and the values a request carries: compiled so that building and copying them runs compiled
    # (`native_source`), which is most of what a journey does outside the rules
    "frozen",
    "dice",
    "events",
    "prompts",
    "state/hero",
    "state/road",
    "state/stay",
    "state/session",
    # an Adventure's turn ("does the Darkness escape?")
    "state/adventure",
    "autoplay/adventure",
    *(f"rules/adventure/{name}" for name in ("turn", "common", "activation", "explore", "depth", "end",
                                              "setup", "missions", "lost_contact", "fight", "strike", "ko")),
    "rules/area",  # the commands' rules, which every command looks up
)
# Compiled classes that interpreted modules subclass (the Town Missions are `Mission`s): mypyc refuses an
# interpreted subclass of a native class unless the class allows it, and then dispatches its methods by name. The
# decorator that says so is mypyc's at compile time: the build imports it for type checking only, as the service's
# image has no mypy_extensions where it runs.
SUBCLASSED = {"rules/adventure/missions": ("Mission",)}


# ---- the compiled build's dataclasses ---------------------------------------------------------------------------
# mypyc compiles a dataclass's methods but not the `__init__` the dataclass decorator writes at import (an
# interpreted function that sets each field by name: 2.8 us for a Hero, against 0.1 us for a compiled one), and it
# erases what the codec and the API documents read (field annotations as written, docstrings). `native_source`
# rewrites a module's text for the build only: each plain dataclass gets an `__init__` written out (so mypyc
# compiles it), a `_evolve_with` that `frozen.evolve` calls, and, when frozen, a `__reduce__` (a compiled frozen
# value cannot be unpickled field by field); `@quick` goes (a class decorator makes a class interpreted); and the
# module keeps its classes' annotations and docstrings as written in `_WRITTEN` (read by `meta.written`). A class
# that declares `with_value(self, name, value)` (one field set) or `with_values(self, changes)` (`frozen.evolve` in
# the source) gets them written out too: compiled callers then call them directly, with no lookup of the class's
# copy (and `with_value` with no dict of changes).


def native_source(source: str, subclassed: tuple[str, ...] = ()) -> str:
    """The module's source with its dataclasses made ready for mypyc (see above), and the classes named in
    `subclassed` open to interpreted subclasses; the rules are not touched."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    inserts: dict[int, list[str]] = {}  # line index -> text put before it
    replaced: dict[int, str] = {}  # line index -> the line's new text
    written: dict[str, tuple[dict[str, str], str]] = {}
    helpers = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}  # may return a `field(...)`
    left: list[str] = []
    tail = ["from typing import Any as _Any\n\n"]
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        if node.name in subclassed:
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
            inserts.setdefault(first, []).append("@_mypyc_attr(allow_interpreted_subclasses=True)\n")
            tail.append("from typing import TYPE_CHECKING as _TYPE_CHECKING\n"  # mypyc reads it; nothing imports it
                        "if _TYPE_CHECKING:\n    from mypy_extensions import mypyc_attr as _mypyc_attr\n\n")
        fields = _fields(node)
        written[node.name] = ({name: annotation for name, annotation, _, _ in fields},
                              ast.get_docstring(node, clean=False) or "")
        decorator = _dataclass_decorator(node)
        if decorator is None:
            continue
        if not _plain(node, decorator, fields, helpers):
            left.append(node.name)  # its __init__ stays the decorator's (tests/rules/test_builds.py reads these)
            continue
        options = {k.arg: ast.literal_eval(k.value) for k in decorator.keywords} if isinstance(decorator, ast.Call) else {}
        for other in node.decorator_list:
            if isinstance(other, ast.Name) and other.id == "quick":
                replaced[other.lineno - 1] = "\n"
        declared = [s for s in node.body if isinstance(s, ast.FunctionDef) and s.name in _WRITTEN_OUT]
        for method in declared:  # the source's `evolve` goes: the build writes the copy out (`_methods`)
            for index in range(min([method.lineno, *(d.lineno for d in method.decorator_list)]) - 1,
                               method.end_lineno or method.lineno):
                replaced[index] = ""
        line, end, last = (decorator.end_lineno or 0) - 1, decorator.end_col_offset or 0, node.end_lineno or 0
        text = lines[line]
        if isinstance(decorator, ast.Call):  # before its closing parenthesis
            comma = ", " if decorator.keywords or decorator.args else ""
            replaced[line] = text[:end - 1] + comma + "init=False" + text[end - 1:]
        else:
            replaced[line] = text[:end] + "(init=False)" + text[end:]
        inserts.setdefault(last, []).append(_methods(node.name, fields, bool(options.get("frozen")),
                                                     {method.name for method in declared}))
    rebound = {name for node in ast.walk(tree) if isinstance(node, ast.Global) for name in node.names}
    for node in tree.body:  # a constant mypyc reads from the module's dict at every use unless it is Final
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target = node.targets[0]
        if (isinstance(target, ast.Name) and target.id.lstrip("_").isupper() and target.id not in rebound
                and not (isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "TypeVar")):
            line, column = target.lineno - 1, target.end_col_offset or 0
            replaced[line] = replaced.get(line, lines[line])[:column] + ": _Final" + lines[line][column:]
            if "from typing import Final as _Final\n" not in tail:
                tail.append("from typing import Final as _Final\n")
    tail.append(f"_WRITTEN: dict[str, tuple[dict[str, str], str]] = {written!r}\n")
    tail.append(f"_LEFT_INTERPRETED: tuple[str, ...] = {tuple(left)!r}\n\n")
    inserts.setdefault(_after_imports(tree, len(lines)), []).insert(0, "".join(tail))  # before any code runs
    out: list[str] = []
    for index, text in enumerate(lines):
        out.extend(inserts.get(index, ()))
        out.append(replaced.get(index, text))
    out.extend(inserts.get(len(lines), ()))
    return "".join(out)


def _after_imports(tree: ast.Module, end: int) -> int:
    """The index of the line where the module's first statement after its docstring and imports begins (`end`
    when there is none): what runs at import (a pack decoded there) finds `_WRITTEN` already set."""
    for node in tree.body:
        docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        if not (docstring or isinstance(node, (ast.Import, ast.ImportFrom))):
            decorators: list[ast.expr] = getattr(node, "decorator_list", [])
            return min([node.lineno, *(d.lineno for d in decorators)]) - 1
    return end


def _dataclass_decorator(node: ast.ClassDef) -> ast.expr | None:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Name) and target.id == "dataclass":
            return decorator
    return None


def _fields(node: ast.ClassDef) -> list[tuple[str, str, str | None, str | None]]:
    """(name, annotation, default, default factory) of each field, in order; ClassVars left out."""
    found = []
    for statement in node.body:
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        annotation = ast.unparse(statement.annotation)
        if annotation.startswith(("ClassVar", "typing.ClassVar")):
            continue
        default = factory = None
        value = statement.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "field":
            for keyword in value.keywords:
                if keyword.arg == "default":
                    default = ast.unparse(keyword.value)
                elif keyword.arg == "default_factory":
                    factory = ast.unparse(keyword.value)
                elif keyword.arg in ("init", "kw_only"):
                    factory = default = "<unsupported>"
        elif value is not None:
            default = ast.unparse(value)
        found.append((statement.target.id, annotation, default, factory))
    return found


def _plain(node: ast.ClassDef, decorator: ast.expr, fields: list[tuple[str, str, str | None, str | None]],
           helpers: set[str]) -> bool:
    """Whether the class is a record this rewrite can give an `__init__`: no base, no `__init__` or
    `__post_init__` of its own, no option that changes the generated `__init__`, no default made by one of the
    module's own functions (it may be a `field(...)`, which only the decorator understands)."""
    for statement in node.body:
        value = statement.value if isinstance(statement, ast.AnnAssign) else None
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in helpers:
            return False
    if node.bases or node.keywords:
        return False
    if any(isinstance(s, ast.FunctionDef) and s.name in ("__init__", "__post_init__") for s in node.body):
        return False
    if isinstance(decorator, ast.Call) and any(k.arg in ("init", "kw_only") for k in decorator.keywords):
        return False
    return all(default != "<unsupported>" for _, _, default, _ in fields)


_WRITTEN_OUT = ("with_value", "with_values")  # copies a class may declare, which the build writes out


def _methods(cls: str, fields: list[tuple[str, str, str | None, str | None]], frozen: bool, declared: set[str]) -> str:
    ignore = "  # type: ignore[misc]" if frozen else ""  # a frozen field is set once, here
    parameters, body = [], []
    for name, annotation, default, factory in fields:
        if factory is not None:
            parameters.append(f"{name}: {annotation} | None = None")
            body.append(f"self.{name} = {name} if {name} is not None else ({factory})(){ignore}")
        else:
            parameters.append(f"{name}: {annotation}" + (f" = {default}" if default is not None else ""))
            body.append(f"self.{name} = {name}{ignore}")
    names = [name for name, *_ in fields]
    values = ", ".join(f"self.{name}" for name in names)
    text = [f"def __init__(self{''.join(', ' + p for p in parameters)}) -> None:", *(f"    {b}" for b in body or ["pass"]),
            "", f"def _evolve_with(self, changes: dict[str, _Any]) -> {cls}:",
            f"    new = {cls}({values})",
            "    for name, value in changes.items():",  # each change set through its own slot, no lookup by name
            *_set_named(cls, names, "        ", ignore),
            "    return new"]
    if "with_values" in declared:
        text += ["", f"def with_values(self, changes: dict[str, _Any]) -> {cls}:", "    return self._evolve_with(changes)"]
    if "with_value" in declared:  # one field, named at run time: set through its own slot
        text += ["", f"def with_value(self, name: str, value: _Any) -> {cls}:", f"    new = {cls}({values})",
                 *_set_named(cls, names, "    ", ignore), "    return new"]
    if frozen:
        text += ["", "def __reduce__(self) -> tuple[_Any, ...]:", f"    return ({cls}, ({values}{',' if len(names) == 1 else ''}))"]
    return "".join(f"    {t}\n" if t else "\n" for t in ["", *text])


def _set_named(cls: str, names: list[str], indent: str, ignore: str) -> list[str]:
    """`new.<name> = value` for the field `name` names, else a TypeError: the names are told apart by their length
    first, then compared within it (a Hero's Gold is two comparisons, not the seventeenth of a chain)."""
    refuse = f"raise TypeError(f'{cls} has no field {{name!r}}')"
    if not names:
        return [indent + refuse]
    lengths = sorted({len(name) for name in names})
    lines = [f"{indent}size = len(name)"]
    for index, length in enumerate(lengths):
        lines.append(f"{indent}{'if' if index == 0 else 'elif'} size == {length}:")
        alike = [name for name in names if len(name) == length]
        for at, name in enumerate(alike):
            lines += [f"{indent}    {'if' if at == 0 else 'elif'} name == {name!r}:",
                      f"{indent}        new.{name} = value{ignore}"]
        lines += [f"{indent}    else:", f"{indent}        {refuse}"]
    return [*lines, f"{indent}else:", f"{indent}    {refuse}"]


def source_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted((ROOT / "shared_rules").rglob("*.py")):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    digest.update(repr(COMPILED).encode())
    digest.update(Path(__file__).read_bytes())  # the rewrite of the dataclasses is part of the build
    return digest.hexdigest()


def build(into: Path) -> None:
    """Compile COMPILED inside `into`, which holds a copy of `shared_rules`."""
    sources = [f"shared_rules/{name}.py" for name in COMPILED]
    for name, source in zip(COMPILED, sources, strict=True):
        path = into / source
        path.write_text(native_source(path.read_text(), SUBCLASSED.get(name, ())))
    mypyc = Path(sys.executable).with_name("mypyc")
    env = {**os.environ, "MYPYC_OPT_LEVEL": os.environ.get("MYPYC_OPT_LEVEL", "3")}
    done = subprocess.run([str(mypyc), *sources], cwd=into, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"mypyc failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    shutil.rmtree(into / "build", ignore_errors=True)
    missing = [name for name in COMPILED if not list((into / "shared_rules").glob(f"{name}.*.so"))]
    if missing:
        sys.exit(f"mypyc built no extension for {missing}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "compiled", help="the build's directory")
    args = parser.parse_args()
    into = args.out.resolve()
    stamp = into / ".compiled-source"
    wanted = source_hash()
    if stamp.exists() and stamp.read_text() == wanted:
        print(f"compiled build up to date: {into}")
        return
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    shutil.copytree(ROOT / "shared_rules", into / "shared_rules", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    build(into)
    stamp.write_text(wanted)
    print(f"compiled {len(COMPILED)} modules of shared_rules: {into}")


if __name__ == "__main__":
    main()
