"""``robogui export PROGRAM --robot R --to urscript|rapid|krl -o FILE`` (no Qt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from robogui.cli import main

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "robot_languages"
SAMPLE = str(ROOT / "assets" / "pick-and-place.prog")


@pytest.mark.parametrize(("dialect", "out", "files"), [
    ("urscript", "demo.script", ["pick_and_place.script"]),
    ("rapid", "demo.mod", ["pick_and_place.mod"]),
    ("krl", "pick_and_place.src", ["pick_and_place.src", "pick_and_place.dat"])])
def test_export_writes_the_golden_files(tmp_path, capsys, dialect, out, files):
    assert main(["export", SAMPLE, "--robot", "puma560", "--to", dialect,
                 "-o", str(tmp_path / out)]) == 0
    assert "wrote" in capsys.readouterr().out
    written = sorted(tmp_path.iterdir())
    assert len(written) == len(files)
    for path, golden in zip(sorted(written, key=lambda p: p.suffix != ".src"),
                            files, strict=True):
        assert path.read_text() == (GOLDEN / golden).read_text()


def test_export_refuses_what_the_language_cannot_express(tmp_path):
    with pytest.raises(SystemExit, match="joint 3 of 'Stanford arm' is prismatic"):
        main(["export", SAMPLE, "--robot", "stanford", "--to", "urscript",
              "-o", str(tmp_path / "x.script")])
    with pytest.raises(SystemExit, match="has 7"):
        main(["export", SAMPLE, "--robot", "panda", "--to", "rapid", "-o", str(tmp_path / "x")])
    assert list(tmp_path.iterdir()) == []


def test_export_of_a_missing_program_names_it(tmp_path):
    with pytest.raises(SystemExit, match="nowhere.prog"):
        main(["export", str(tmp_path / "nowhere.prog"), "--to", "krl",
              "-o", str(tmp_path / "x.src")])
