"""The model/view wall: engine, io and session modules (and the CLI) load no Qt or GL.

Each module is imported in a fresh interpreter, so one module's imports cannot hide
another's. Subprocesses run in parallel to keep this quick.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import robogui

FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "OpenGL", "PyQt5", "PyQt6", "PySide2")
ROOT = Path(robogui.__file__).resolve().parent


def walled_modules() -> list[str]:
    names = ["robogui", "robogui.cli"]
    for layer in ("engine", "io", "session"):
        pkg = f"robogui.{layer}"
        names.append(pkg)
        for info in pkgutil.walk_packages([str(ROOT / layer)], prefix=pkg + "."):
            names.append(info.name)
    return names


CHECK = """
import importlib, sys
importlib.import_module({name!r})
bad = sorted(m for m in sys.modules if m.split('.')[0] in {forbidden!r})
print(','.join(bad))
"""


def test_engine_io_session_and_cli_import_no_qt():
    modules = walled_modules()
    assert "robogui.session.session" in modules
    assert "robogui.engine.kinematics.kinematics" in modules
    procs = {
        name: subprocess.Popen([sys.executable, "-c", CHECK.format(name=name, forbidden=FORBIDDEN)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for name in modules
    }
    failures = {}
    for name, p in procs.items():
        out, err = p.communicate(timeout=120)
        if p.returncode != 0:
            failures[name] = f"import failed: {err.strip().splitlines()[-1] if err else '?'}"
        elif out.strip():
            failures[name] = f"loaded {out.strip()}"
    assert not failures, failures


def test_cli_help_runs_without_qt():
    code = ("import sys; from robogui.cli import build_parser; build_parser().format_help();"
            f"print([m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
