"""The rooms inside each layer (issue 22): small folders that say what lives in them, and
imports between rooms that follow what each room's ``__init__.py`` says it may import.

Every sub-package's docstring names what lives there and, on a line starting with
"May import:", the sibling rooms and the layer's top modules it may use. This test reads
that line, so the docstring is the contract: an import the docstring does not allow, or a
circle between rooms, fails here with the module and the edge.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from tests.test_import_cycles import PACKAGE_DIR, import_graph, strongly_connected

LAYERS = ("engine", "io", "session", "app")
MAX_MODULES = 16


def _packages() -> list[Path]:
    return sorted(p.parent for p in PACKAGE_DIR.rglob("__init__.py"))


def _rooms(layer: str) -> list[str]:
    base = PACKAGE_DIR / layer
    return sorted(p.name for p in base.iterdir() if (p / "__init__.py").is_file())


def _top_modules(layer: str) -> list[str]:
    return sorted(p.stem for p in (PACKAGE_DIR / layer).glob("*.py") if p.stem != "__init__")


def _may_import(layer: str, room: str) -> tuple[set[str], set[str]]:
    """(sibling rooms, top modules of the layer) that ``room``'s docstring allows."""
    doc = ast.get_docstring(ast.parse((PACKAGE_DIR / layer / room / "__init__.py").read_text()))
    assert doc, f"robogui/{layer}/{room}/__init__.py has no docstring"
    paragraphs = [" ".join(par.split()) for par in doc.split("\n\n")]
    rule = next((par for par in paragraphs if par.startswith("May import:")), None)
    assert rule, f"robogui/{layer}/{room}/__init__.py: no 'May import:' paragraph"
    words = set(re.findall(r"[a-z_]+", rule))
    rooms = set(_rooms(layer)) - {room}
    if "every" in words and "other" in words:
        return rooms, set(_top_modules(layer))
    return rooms & words, set(_top_modules(layer)) & words


def test_no_folder_holds_more_than_sixteen_modules():
    crowded = {str(p.relative_to(PACKAGE_DIR.parent)): n for p in _packages()
               if (n := len([m for m in p.glob("*.py") if m.name != "__init__.py"])) > MAX_MODULES}
    assert not crowded, crowded


def test_every_room_says_what_lives_there_and_what_it_may_import():
    for layer in LAYERS:
        assert _rooms(layer), layer
        for room in _rooms(layer):
            doc = ast.get_docstring(
                ast.parse((PACKAGE_DIR / layer / room / "__init__.py").read_text()))
            assert doc and len(doc.splitlines()) >= 2, f"{layer}/{room}: docstring too short"
            _may_import(layer, room)


def test_rooms_import_only_what_their_docstring_allows():
    graph = import_graph()
    bad = []
    for layer in LAYERS:
        prefix = f"robogui.{layer}."
        rooms = set(_rooms(layer))
        tops = set(_top_modules(layer))
        for room in rooms:
            allowed_rooms, allowed_tops = _may_import(layer, room)
            for module, targets in graph.items():
                if not module.startswith(f"{prefix}{room}.") and module != f"{prefix}{room}":
                    continue
                for target in targets:
                    if not target.startswith(prefix):
                        continue
                    head = target[len(prefix):].split(".")[0]
                    if head == room:
                        continue
                    if head in rooms and head not in allowed_rooms:
                        bad.append(f"{module} -> {target} (room {head!r} not allowed)")
                    elif head in tops and head not in allowed_tops:
                        bad.append(f"{module} -> {target} (top module {head!r} not allowed)")
    assert not bad, "\n".join(sorted(bad))


def test_no_circle_between_rooms():
    graph = import_graph()
    for layer in LAYERS:
        prefix = f"robogui.{layer}."
        rooms = set(_rooms(layer))
        room_graph: dict[str, set[str]] = {r: set() for r in rooms}
        for module, targets in graph.items():
            if not module.startswith(prefix):
                continue
            src = module[len(prefix):].split(".")[0]
            if src not in rooms:
                continue
            for target in targets:
                if target.startswith(prefix):
                    dst = target[len(prefix):].split(".")[0]
                    if dst in rooms and dst != src:
                        room_graph[src].add(dst)
        circles = [c for c in strongly_connected(room_graph) if len(c) > 1]
        assert not circles, f"{layer}: rooms import each other: {circles}"


def test_nothing_imports_the_shell_back():
    graph = import_graph()
    back = sorted(f"{m} -> {t}" for m, ts in graph.items() for t in ts
                  if t.startswith("robogui.app.shell") and not m.startswith("robogui.app.shell")
                  and m != "robogui.cli")
    assert not back, back


def test_the_wheel_lists_every_package():
    listed = set(tomllib.loads((PACKAGE_DIR.parent / "pyproject.toml").read_text())
                 ["tool"]["setuptools"]["packages"])
    have = {".".join(p.relative_to(PACKAGE_DIR.parent).parts) for p in _packages()}
    assert have <= listed, sorted(have - listed)
