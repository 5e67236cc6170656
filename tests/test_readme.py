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
