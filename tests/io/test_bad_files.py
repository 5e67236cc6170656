"""Issue 14, item 6: every loader raises only its own error type, naming the file, for
every malformed file of the corpus in tests/data/bad/ (made by make_bad_files.py); a
byte-order mark is accepted in every format; saves are atomic and leave no temp files."""

from __future__ import annotations

import os
import time
import warnings
from importlib.metadata import distribution
from pathlib import Path

import numpy as np
import pytest

from robogui.engine.files import atomic_write_text, remove_stale_temp_files
from robogui.engine.trajectory.trajectory_io import TrajectoryFileError
from robogui.io.legacy.robmat import read_mot
from robogui.io.legacy.roboop import (
    LegacyFormatError,
    LegacyFormatWarning,
    read_roboop,
    save_roboop,
)
from robogui.io.robotfile import RobotFileError, load_robot
from robogui.session.motion.trajectories import load_trajectory_csv
from robogui.session.planning_scene.cell_file import CellFileError, load_cell
from robogui.session.teach.program import ProgramError
from robogui.session.teach.program_file import ProgramFileError, load_program

BAD = Path(__file__).resolve().parents[1] / "data" / "bad"
FILES = sorted(p for p in BAD.iterdir() if p.is_file() and p.suffix != ".py")
PUMA = load_robot("puma560")


def load(path: Path):
    """The loader of each format, as the app calls it (6-joint robot for motions)."""
    suffix = path.suffix
    if suffix in (".toml", ".conf", ".dat", ".urdf"):
        return load_robot(path)
    if suffix == ".mot":
        return read_mot(path, nlink=6)
    if suffix == ".prog":
        return load_program(path)
    if suffix == ".cell":
        return load_cell(path)
    return load_trajectory_csv(path, PUMA)


ERRORS = {".toml": RobotFileError, ".conf": LegacyFormatError, ".dat": LegacyFormatError,
          ".mot": LegacyFormatError, ".prog": ProgramFileError, ".csv": TrajectoryFileError,
          ".urdf": RobotFileError, ".cell": CellFileError}


def test_the_corpus_has_over_a_hundred_files_in_every_format():
    assert len(FILES) >= 100
    counts = {s: sum(p.suffix == s for p in FILES) for s in ERRORS}
    assert all(c >= 15 for c in counts.values()), counts
    # the committed files are what the script makes
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_bad_files", BAD / "make_bad_files.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    made = mod.files()
    assert sorted(made) == [p.name for p in FILES]
    for name, content in made.items():
        data = content.encode() if isinstance(content, str) else content
        assert (BAD / name).read_bytes() == data, name


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_bad_file_gives_the_formats_own_error_naming_the_file(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LegacyFormatWarning)
        with pytest.raises(ERRORS[path.suffix]) as info:
            load(path)
    assert str(path) in str(info.value)
    assert type(info.value) is ERRORS[path.suffix]


@pytest.mark.parametrize("name, words", [
    ("robot-link-length-1.7e308.toml", "link 1: field 'a': 1.7e+308 is outside the bounds"),
    ("robot-deep-arrays.toml", "nested too deeply"),
    ("program-deep-arrays.prog", "nested too deeply"),
    ("program-duration-1e6.prog", "move 2: field 'duration': a move duration must be at most"),
    ("program-duration-1e300.prog", "field 'duration'"),
    ("program-blend-1e300.prog", "field 'blend'"),
    ("program-speed-1e-300.prog", "field 'speed'"),
    ("program-q-1e308.prog", "field 'q'"),
    ("program-grasp-in-version-2.prog", "move 3: field 'kind': a grasp step is a version 3 kind"),
    ("program-grasp-without-part.prog", "move 3: field 'part': is missing"),
    ("program-release-with-target.prog", "field 'target': a release step has no target"),
    ("program-grasp-duration-1e300.prog", "field 'duration'"),
    ("program-release-with-speed.prog", "field 'speed'"),
    ("roboop-dof-100000000.conf", "'dof: 100000000' is more than the 256 joints"),
    ("robmat-nlink-1e9.dat", "line 1, token '1000000000': nlink must be between 1 and 256"),
    ("robmat-nlink-1e23.dat", "line 1, token '100000000000000000000000'"),
    ("trajectory-utf16-no-bom.csv", "not a text file"),
    ("trajectory-latin1.csv", "not UTF-8 text: byte 0xfc on line 1"),
    ("trajectory-binary-random.csv", "binary data"),
    ("robmat-motion-dt-1e-320.mot", "dt must be a sample period between 1e-06"),
])
def test_the_issue_reproductions_name_file_and_field(name, words):
    with pytest.raises(ERRORS[Path(name).suffix]) as info:
        load(BAD / name)
    assert words in str(info.value)


def test_program_file_errors_are_program_errors():
    assert issubclass(ProgramFileError, ProgramError)
    assert issubclass(LegacyFormatError, RobotFileError)


# -- byte-order marks and UTF-16 ------------------------------------------------------------------
GOOD = {
    ".toml": Path(__file__).resolve().parents[2] / "robots" / "twolink.toml",
    ".prog": Path(__file__).resolve().parents[2] / "assets" / "pick-and-place.prog",
    ".csv": Path(__file__).resolve().parents[2] / "assets" / "puma560-demo.csv",
    ".conf": Path(__file__).resolve().parents[1] / "data" / "legacy" / "puma560_std_dh.conf",
    ".dat": Path(__file__).resolve().parents[1] / "data" / "legacy" / "smart.dat",
    ".mot": Path(__file__).resolve().parents[1] / "data" / "legacy" / "smart.mot",
    # example-robot-data's Panda (an XML declaration without an encoding)
    ".urdf": Path(distribution("example-robot-data").locate_file(
        "cmeel.prefix/share/example-robot-data/robots/panda_description/urdf/panda.urdf")),
}


@pytest.mark.parametrize("suffix", sorted(GOOD))
@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_a_byte_order_mark_is_accepted_in_every_format(suffix, encoding, tmp_path):
    src = GOOD[suffix]
    text = src.read_text(encoding="utf-8")
    plain, marked = tmp_path / f"plain{suffix}", tmp_path / f"marked{suffix}"
    plain.write_text(text, encoding="utf-8", newline="")
    marked.write_bytes(text.encode(encoding))  # both codecs write the mark
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LegacyFormatWarning)
        if suffix == ".mot":
            a, b = read_mot(plain, nlink=6), read_mot(marked, nlink=6)
            np.testing.assert_array_equal(a.q, b.q)
            return
        a, b = load(plain), load(marked)
    if suffix == ".csv":
        np.testing.assert_array_equal(a.q, b.q)
    elif suffix in (".toml", ".conf", ".dat", ".urdf"):
        assert a.key[0] == b.key[0]  # the same links
    else:
        assert a == b


# -- ROBOOP keys and atomic saves -----------------------------------------------------------------
def test_a_misspelt_roboop_key_warns_with_line_and_suggestion():
    text = GOOD[".conf"].read_text().replace("Ixx:", "Ixxx:", 1)
    _, msgs = read_roboop("p.conf", text=text)
    hits = [m for m in msgs if "unknown key 'Ixxx'" in m]
    assert len(hits) == 1 and "did you mean 'Ixx'?" in hits[0] and hits[0].startswith("line ")


def test_save_roboop_is_atomic(tmp_path, monkeypatch):
    robot, _ = read_roboop(GOOD[".conf"])
    target = tmp_path / "arm.conf"
    save_roboop(robot, target)
    before = target.read_bytes()

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        save_roboop(robot.with_tool(np.eye(4)), target, section="OTHER")
    assert target.read_bytes() == before  # the old file is intact
    assert not list(tmp_path.glob(".arm.conf.*"))  # and no temp file is left


def test_stale_temp_files_of_killed_saves_are_removed(tmp_path):
    target = tmp_path / "prog.prog"
    stale = tmp_path / ".prog.prog.abc123.tmp"
    fresh = tmp_path / ".prog.prog.def456.tmp"  # a save running now in another process
    other = tmp_path / ".other.prog.xyz.tmp"
    for p in (stale, fresh, other):
        p.write_text("half a file")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    atomic_write_text(target, "format = 1\n")
    assert not stale.exists() and fresh.exists() and other.exists()
    assert target.read_text() == "format = 1\n"
    assert remove_stale_temp_files(target, max_age_s=0) == [fresh]
