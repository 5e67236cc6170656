"""Issue 14, item 6, beyond the fixed corpus: good files mutated at random (bytes replaced,
inserted, deleted, lines cut, numbers blown up) either load or raise the format's own
error naming the file; never a bare UnicodeDecodeError, IndexError, OverflowError, ..."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robogui.engine.trajectory.trajectory_io import TrajectoryFileError
from robogui.io.legacy.robmat import read_mot
from robogui.io.legacy.roboop import LegacyFormatError, LegacyFormatWarning
from robogui.io.robotfile import RobotFileError, load_robot
from robogui.session.motion.trajectories import load_trajectory_csv
from robogui.session.teach.program_file import ProgramFileError, load_program

ROOT = Path(__file__).resolve().parents[2]
PUMA = load_robot("puma560")
GOOD = {
    ".toml": (ROOT / "robots" / "puma560.toml", load_robot, RobotFileError),
    ".prog": (ROOT / "assets" / "pick-and-place.prog", load_program, ProgramFileError),
    ".csv": (ROOT / "tests" / "data" / "bad" / "make_bad_files.py", None, TrajectoryFileError),
    ".conf": (ROOT / "tests" / "data" / "legacy" / "puma560_std_dh.conf", load_robot,
              LegacyFormatError),
    ".dat": (ROOT / "tests" / "data" / "legacy" / "smart.dat", load_robot, LegacyFormatError),
    ".mot": (ROOT / "tests" / "data" / "legacy" / "smart.mot",
             lambda p: read_mot(p, nlink=6), LegacyFormatError),
}
CSV = "t,q1,q2,q3,q4,q5,q6\n" + "".join(f"{k * 0.1:.1f},{0.01 * k},0.5,-0.5,0,0.2,0\n"
                                          for k in range(8))
BIG = ["1e308", "1.7e308", "-1e300", "1e-320", "nan", "inf", "9" * 30, "0", "-0", "1e6"]


def original(suffix: str) -> bytes:
    if suffix == ".csv":
        return CSV.encode()
    return GOOD[suffix][0].read_bytes()


@st.composite
def mutated(draw, suffix: str) -> bytes:
    data = bytearray(original(suffix))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["replace", "insert", "delete", "cut", "number"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "replace" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 40))]
        elif kind == "cut":
            del data[at:]
        else:  # one number in the file replaced by an absurd one
            text = data.decode("utf-8", errors="replace")
            numbers = list(re.finditer(r"-?\d+(\.\d+)?(e-?\d+)?", text))
            if numbers:
                m = numbers[draw(st.integers(0, len(numbers) - 1))]
                text = text[:m.start()] + draw(st.sampled_from(BIG)) + text[m.end():]
                data = bytearray(text.encode("utf-8"))
    return bytes(data)


def check(suffix: str, data: bytes, tmp_path: Path) -> None:
    path = tmp_path / f"fuzz{suffix}"
    path.write_bytes(data)
    _, loader, error = GOOD[suffix]
    if suffix == ".csv":
        loader = lambda p: load_trajectory_csv(p, PUMA)  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LegacyFormatWarning)
        try:
            loader(path)
        except error as exc:
            assert str(path) in str(exc)


FUZZ = settings(max_examples=120, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@FUZZ
@given(data=mutated(".toml"))
def test_mutated_robot_files(data, tmp_path):
    check(".toml", data, tmp_path)


@FUZZ
@given(data=mutated(".prog"))
def test_mutated_programs(data, tmp_path):
    check(".prog", data, tmp_path)


@FUZZ
@given(data=mutated(".csv"))
def test_mutated_trajectories(data, tmp_path):
    check(".csv", data, tmp_path)


@FUZZ
@given(data=mutated(".conf"))
def test_mutated_roboop_files(data, tmp_path):
    check(".conf", data, tmp_path)


@FUZZ
@given(data=mutated(".dat"))
def test_mutated_robmat_robots(data, tmp_path):
    check(".dat", data, tmp_path)


@FUZZ
@given(data=mutated(".mot"))
def test_mutated_robmat_motions(data, tmp_path):
    check(".mot", data, tmp_path)
