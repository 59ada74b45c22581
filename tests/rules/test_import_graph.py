"""Imports inside `shared_rules` run one way: no module reaches itself again through what it imports.

Every import counts: at module level, inside a function (it runs later, but it runs), and the names a module
loads by string (`meta.ref("shared_rules.x", ...)`, `importlib.import_module("shared_rules.x")`). Importing
`a.b.c` runs `a/__init__` and `a/b/__init__` first, so those count too, unless the importer is inside them (its
own packages are already loading). Only imports under `if TYPE_CHECKING:` never run; they are allowed to close a
loop just where a value holds the other's type (`TYPE_ONLY`). The layering is in docs/dev-notes.md ("Layers").
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import shared_rules

PACKAGE = Path(shared_rules.__file__).resolve().parent
ROOT = PACKAGE.name

TYPE_ONLY = {
    # A Session holds its pending prompt, and a Pending holds the Session to resume from (its checkpoint).
    ("shared_rules.state.session", "shared_rules.prompts"),
}


def _modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


MODULES = _modules()


def _known(name: str) -> str | None:
    """The deepest module of ours that `name` (a module or a name inside one) lives in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(module: str) -> Iterator[tuple[str, int, bool]]:
    """(what `module` imports, the line, whether only under TYPE_CHECKING) for every import in it."""
    path, package = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = module if package else module.rpartition(".")[0]
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            typing_only |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *([node.module] if node.module else [])])
            # `from pkg import name` loads pkg.name when it is a module, else takes name from pkg
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, (ast.Name, ast.Attribute))
            and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) in ("ref", "import_module")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = [node.args[0].value]
        for name in names:
            if name.split(".")[0] == ROOT:
                yield name, node.lineno, id(node) in typing_only


def _graph() -> dict[str, dict[str, tuple[int, bool]]]:
    """module -> {module it loads: (first line, type-only)}; the packages a load runs first included."""
    graph: dict[str, dict[str, tuple[int, bool]]] = {module: {} for module in MODULES}
    for module in MODULES:
        own = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 2)}
        for name, line, typing in _imported(module):
            target = _known(name)
            assert target is not None, f"{module}:{line} imports {name}, which is not a module of {ROOT}"
            parts = target.split(".")
            for loaded in (".".join(parts[:i]) for i in range(1, len(parts) + 1)):
                if loaded in own and loaded != target:
                    continue  # a package the importer is inside is loading already
                before = graph[module].get(loaded)
                if before is None or (before[1] and not typing):
                    graph[module][loaded] = (line, typing)
    return graph


def _cycles(graph: dict[str, dict[str, tuple[int, bool]]]) -> list[list[str]]:
    """The strongly connected components with a loop in them (Tarjan, iterative), each as one loop through them."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph[node]:
                        components.append(sorted(component))
    return components


def _loop(graph: dict[str, dict[str, tuple[int, bool]]], component: list[str]) -> str:
    """One loop through a component, each module with the line that imports the next: a:12 -> b:3 -> a."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:  # breadth-first: the shortest way from start back to start
        node = queue.pop(0)
        for target in graph[node]:
            if target == start:
                path = [*paths[node], start]
                steps = [f"{a}:{graph[a][b][0]}" for a, b in zip(path, path[1:], strict=False)]
                return " -> ".join([*steps, start])
            if target in members and target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    return start


def test_no_import_circle_in_the_engine() -> None:
    graph = _graph()
    for importer, target in TYPE_ONLY:
        found = graph[importer].get(target)
        assert found is not None and found[1], f"{importer} -> {target} is allowed only as a TYPE_CHECKING import"
        del graph[importer][target]
    cycles = [
        f"{_loop(graph, c)}  ({len(c)} modules in the circle: {', '.join(c[:12])}{' ...' if len(c) > 12 else ''})"
        for c in _cycles(graph)
    ]
    assert not cycles, "import circles in shared_rules (move the shared name to its one home):\n" + "\n".join(cycles)


def test_the_graph_sees_imports_inside_functions_and_by_name() -> None:
    """The test above would be blind without these: a lazy import and a `ref` are edges too."""
    graph = _graph()
    assert "shared_rules.rules.adventure" in graph["shared_rules.engine"]  # imported inside _load_areas
    assert "shared_rules.commands" in graph["shared_rules.legal"]  # meta.ref("shared_rules.commands", ...)
    assert "shared_rules.state" in graph["shared_rules.commands"]  # the package runs before its module
    assert _cycles({"a": {"b": (1, False)}, "b": {"a": (2, False)}, "c": {"c": (3, False)}}) == [["a", "b"], ["c"]]
