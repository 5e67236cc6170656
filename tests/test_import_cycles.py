"""No import circle among robogui modules (the architecture's rule: "No import cycles").

The graph is read from the source, not from ``sys.modules``: every ``import`` statement in
every module counts, at module level and inside functions alike, because a lazy import
inside a function still ties the two modules together in the design (it only hides the
circle from the interpreter). Imports under ``if TYPE_CHECKING:`` count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import robogui

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "robogui"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _all_modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE_DIR.rglob("*.py"))}


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The robogui module that ``name`` (a module or a module.attribute) lives in."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _imports(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Every robogui module that ``module`` imports anywhere in its source."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                if not is_package:
                    base = base[:-1]
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            # "from pkg import name": name is a submodule or an attribute of pkg
            targets = [f"{prefix}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            resolved = _resolve(target, modules)
            if resolved is not None and resolved != module:
                found.add(resolved)
    return found


def import_graph() -> dict[str, set[str]]:
    """robogui module -> the robogui modules it imports."""
    modules = _all_modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative): the strongly connected components of ``graph``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def _describe(component: list[str], graph: dict[str, set[str]]) -> str:
    members = set(component)
    edges = [f"  {a} -> {b}" for a in component for b in sorted(graph[a] & members)]
    return "cycle among " + ", ".join(component) + ":\n" + "\n".join(edges)


def test_graph_sees_the_package():
    graph = import_graph()
    assert "robogui.engine.model.robot" in graph
    # a known edge at module level and a known lazy one, so the parser is not vacuous
    assert "robogui.engine.model.link" in graph["robogui.engine.model.robot"]
    assert len(graph) > 50
    assert robogui.__name__ == "robogui"


def test_strongly_connected_finds_a_planted_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    components = [c for c in strongly_connected(graph) if len(c) > 1]
    assert components == [["a", "b", "c"]]


def test_no_import_cycle_in_robogui():
    graph = import_graph()
    cycles = [c for c in strongly_connected(graph) if len(c) > 1]
    report = "\n".join(_describe(c, graph) for c in cycles)
    print(report)
    assert not cycles, report
