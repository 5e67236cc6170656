"""The README's API tour runs as written."""

import os
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_api_tour_runs(tmp_path, capsys):
    code = re.search(r"## API tour\n\n```python\n(.*?)```", README.read_text(), re.S).group(1)
    cwd = os.getcwd()
    os.chdir(tmp_path)  # the tour writes move.csv
    try:
        exec(compile(code, "README API tour", "exec"), {})
    finally:
        os.chdir(cwd)
    assert "0.98877 <0.14944, 0, 0>" in capsys.readouterr().out
    assert (tmp_path / "move.csv").read_text().splitlines()[1].startswith("t,q1,")


def test_the_command_that_finds_the_urdf_examples_prints_two_files_that_exist():
    """Issue 28 item 11: the README shows where panda.urdf and ur5_robot.urdf are."""
    import shlex
    import subprocess
    import sys

    text = README.read_text()
    line = next(ln for ln in text.splitlines()
                if ln.startswith(".venv/bin/python -c") and "example-robot-data" in ln)
    argv = shlex.split(line)
    out = subprocess.run([sys.executable, *argv[1:]], capture_output=True, text=True,
                         check=True, timeout=60).stdout.split()
    assert [Path(p).name for p in out] == ["panda.urdf", "ur5_robot.urdf"]
    assert all(Path(p).is_file() for p in out)


def test_readme_render_commands_leave_the_tracked_assets_alone():
    """The GIF command writes elsewhere than the tracked assets/puma560-demo.gif."""
    text = README.read_text()
    assert "-o assets/" not in text
