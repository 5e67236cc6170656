"""Issue 14, item 9: what a fresh Debian/Ubuntu machine needs from the README's commands.

The .ci scripts install the C compiler and python3-venv and stop at once on an old
Python; with no display ``robogui`` prints one line and exits non-zero before Qt is
imported; ``robogui --demo`` opens the samples that ship with the package.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import robogui
from robogui import cli
from robogui.io.samples import (
    DEMO_PROGRAM,
    DEMO_TRAJECTORY,
    demo_cell_files,
    demo_files,
    samples_path,
)

ROOT = Path(__file__).resolve().parents[1]
CI = ROOT / ".ci"


def test_system_deps_install_a_c_compiler_and_python_venv():
    text = (CI / "system-deps.sh").read_text()
    packages = text.split('ROBOGUI_APT_PACKAGES="', 1)[1].split('"', 1)[0].split()
    assert {"gcc", "libc6-dev", "xvfb"} <= set(packages)
    assert "import ensurepip" in text and "python3-venv" in text and '"python$ver-venv"' in text


def fake_python(tmp_path: Path, version: str) -> Path:
    """A stand-in interpreter that reports ``version`` (no such Python needs to exist)."""
    major, minor = (int(x) for x in version.split(".")[:2])
    old = "1" if (major, minor) < (3, 11) else "0"
    script = tmp_path / f"python{version}"
    script.write_text("#!/bin/sh\n"
                      f'case "$2" in *print*) echo {version};; *) exit {old};; esac\n')
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("script", ["test", "app"])
def test_ci_scripts_stop_early_with_one_line_on_an_old_python(script, tmp_path):
    text = (CI / script).read_text()
    # the check comes before anything is installed
    assert text.index("check-python.sh") < text.index("system-deps.sh") < text.index("-m venv")
    py = fake_python(tmp_path, "3.9.18")
    r = subprocess.run(["bash", str(CI / script)], capture_output=True, text=True,
                       env={**os.environ, "PYTHON": str(py)}, timeout=60)
    assert r.returncode == 1 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "needs Python >= 3.11" in lines[0] and "3.9.18" in lines[0]


def test_python_check_passes_a_new_python_and_names_a_missing_one(tmp_path):
    ok = subprocess.run(["bash", str(CI / "check-python.sh")], capture_output=True, text=True,
                        env={**os.environ, "PYTHON": str(fake_python(tmp_path, "3.12.1"))})
    assert ok.returncode == 0 and ok.stderr == ""
    missing = subprocess.run(["bash", str(CI / "check-python.sh")], capture_output=True,
                             text=True, env={**os.environ, "PYTHON": "no-such-python3"})
    assert missing.returncode == 1 and "cannot run 'no-such-python3'" in missing.stderr


# -- no display -------------------------------------------------------------------------------
def test_no_display_message_depends_on_the_qt_platform():
    assert cli.no_display_message({}, "linux")
    assert cli.no_display_message({"QT_QPA_PLATFORM": "xcb"}, "linux")
    assert cli.no_display_message({"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"}, "linux")
    assert cli.no_display_message({"DISPLAY": ":0"}, "linux") is None
    assert cli.no_display_message({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert cli.no_display_message({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert cli.no_display_message({"QT_QPA_PLATFORM": "eglfs"}, "linux") is None
    assert cli.no_display_message({}, "darwin") is None


def test_robogui_without_a_display_prints_one_line_and_exits_non_zero(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    src = str(Path(robogui.__file__).resolve().parents[1])
    env["PYTHONPATH"] = src
    code = ("import sys, runpy\n"
            "sys.argv = ['robogui']\n"
            "try:\n"
            "    runpy.run_module('robogui', run_name='__main__')\n"
            "finally:\n"
            "    print('qt imported' if 'PySide6.QtWidgets' in sys.modules else 'no qt')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=env, cwd=tmp_path, timeout=60)
    assert r.returncode == 1
    assert r.stdout.strip() == "no qt"  # stopped before Qt could abort the process
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert "no display" in lines[0] and "xvfb-run" in lines[0] and "robogui render" in lines[0]
    assert "xcb-cursor" not in r.stderr and "core dumped" not in r.stderr


# -- samples and --demo --------------------------------------------------------------------
def test_the_samples_are_package_data():
    import tomllib

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    setuptools = pyproject["tool"]["setuptools"]
    assert "robogui._assets" in setuptools["packages"]
    assert setuptools["package-dir"]["robogui._assets"] == "assets"
    data = setuptools["package-data"]["robogui._assets"]
    assert "*.prog" in data and "*.csv" in data
    program, trajectory = demo_files()
    assert program.name == DEMO_PROGRAM and trajectory.name == DEMO_TRAJECTORY
    assert program.parent == samples_path()


def test_demo_opens_the_samples(monkeypatch):
    seen = {}

    def fake_run_app(session, **kw):
        seen.update(kw, robot=session.robot.name)
        return 0

    import robogui.app.shell.main_window as mw

    monkeypatch.setattr(mw, "run_app", fake_run_app)
    monkeypatch.setenv("DISPLAY", ":99")
    assert cli.main(["--demo", "--no-restore"]) == 0
    cell, program = demo_cell_files()  # the work cell and its pick-and-place program
    assert seen["cell"] == str(cell) and seen["program"] == str(program)
    assert cell.name == "pick-and-place.cell" and program.parent == cell.parent
    assert seen["trajectory"] is None and seen["cell_robot"] is True
    # the window's start view (iso for the Puma; a flat arm seen from higher up)
    assert seen["robot"] == "Puma 560" and seen["view"] is None
    # explicit files win over the samples; --cell alone opens that cell and its robot
    assert cli.main(["--demo", "--trajectory", "mine.csv", "--program", "my.prog"]) == 0
    assert seen["trajectory"] == "mine.csv" and seen["program"] == "my.prog"
    assert cli.main(["--cell", "mine.cell"]) == 0
    assert seen["cell"] == "mine.cell" and seen["cell_robot"] is True
    assert cli.main(["--cell", "mine.cell", "--robot", "stanford"]) == 0
    assert seen["cell_robot"] is False and seen["robot"] == "Stanford arm"


def _sandbox(tmp_path: Path, installed: bool) -> tuple[Path, Path]:
    """A copy of the checkout's .ci/app in ``tmp_path`` with stand-ins: checks that pass,
    a .venv whose python logs what it is asked (and says robogui is installed from here
    or not) and whose robogui is the real command line of this checkout."""
    repo = tmp_path / "repo"
    (repo / ".ci").mkdir(parents=True)
    (repo / ".ci" / "app").write_text((CI / "app").read_text())
    for name in ("check-python.sh", "system-deps.sh"):
        (repo / ".ci" / name).write_text("exit 0\n")
    bin_dir = repo / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    log = tmp_path / "pip.log"
    (bin_dir / "python").write_text(
        "#!/bin/sh\n"
        f'case "$1" in -c) exit {0 if installed else 1};; esac\n'
        f'echo "$@" >> "{log}"\n')
    (bin_dir / "robogui").write_text(
        f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m robogui "$@"\n')
    for f in (bin_dir / "python", bin_dir / "robogui"):
        f.chmod(0o755)
    return repo, log


@pytest.mark.parametrize("installed", [True, False])
def test_ci_app_without_a_display_says_so_suggests_a_picture_and_exits(tmp_path, installed):
    """Issue 28 item 11: headless, .ci/app prints robogui's one line and a render command
    and exits 1 (it no longer runs the app under xvfb-run for nobody to see); it installs
    robogui once, editable, and not again on later starts."""
    repo, log = _sandbox(tmp_path, installed)
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    r = subprocess.run(["bash", str(repo / ".ci" / "app")], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 1
    lines = r.stderr.strip().splitlines()
    assert lines[0].startswith("robogui: no display to open the window on")
    assert lines[1] == ("robogui: for a picture here: .venv/bin/robogui render --robot "
                        "puma560 --q qr -o puma.png")
    pip = log.read_text().splitlines() if log.exists() else []
    assert pip == ([] if installed else ["-m pip install -q -e ."])
    text = (CI / "app").read_text()
    assert "xvfb-run -a -s" not in text  # the README's xvfb-run is for a person to choose
