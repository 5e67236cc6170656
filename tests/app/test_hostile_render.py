"""Issue 23 through ``robogui render``: a representative subset of the hostile files of
tests/data/bad/hostile/ (one per kind: code, bomb, read outside, number, bad geometry;
every file is tested at the loader in tests/io/test_hostile_files.py, and each render
here is a process of a few seconds), the output pattern, sizes, --fps/--speed, loader
warnings on stderr and --strict, --q beyond the limits, a program taught on another
robot, and --xacro-arg."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.test_cli import png_size, run

HOSTILE = Path(__file__).resolve().parents[1] / "data" / "bad" / "hostile"
ASSETS = Path(__file__).resolve().parents[2] / "assets"
SMALL = ["--size", "64x48"]

REFUSED = ["xacro-code-popen.xacro", "xacro-bomb-recursive-macro.xacro",
           "xacro-read-yaml-etc-passwd.xacro", "xacro-read-include-file-url.xacro",
           "urdf-number-mimic-multiplier-nan.urdf", "urdf-duplicate-joint.urdf",
           "urdf-chain-300-joints.urdf", "mjcf-mesh-dotdot.xml"]


@pytest.mark.parametrize("name", REFUSED)
def test_a_hostile_robot_is_refused_by_render_naming_the_file(tmp_path, name):
    out = tmp_path / "out.png"
    r = run(["render", "--robot", str(HOSTILE / name), *SMALL, "-o", str(out)], tmp_path)
    assert r.returncode != 0
    assert str(HOSTILE / name) in r.stderr and "Traceback" not in r.stderr
    assert not out.exists() and not (tmp_path / "CANARY").exists()


def test_bad_geometry_is_printed_and_strict_fails(tmp_path):
    out = tmp_path / "out.png"
    robot = str(HOSTILE / "mesh-etc-passwd.urdf")
    r = run(["render", "--robot", robot, *SMALL, "-o", str(out)], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "warning: link 'tool': cannot load mesh /etc/passwd (outside the robot's " \
           "folders" in r.stderr
    assert png_size(out) == (64, 48)
    out.unlink()
    r = run(["render", "--robot", robot, "--strict", *SMALL, "-o", str(out)], tmp_path)
    assert r.returncode != 0 and "--strict: 1 warning(s); nothing written" in r.stderr
    assert not out.exists()


@pytest.mark.parametrize("pattern", ["f_{0.__class__.__mro__}.png", "f_{}_{}.png",
                                     "f_%04d_%s.png", "f_{:04d}}.png"])
def test_output_patterns_take_only_the_frame_field(tmp_path, pattern):
    r = run(["render", "--trajectory", str(ASSETS / "puma560-demo.csv"), *SMALL,
             "-o", str(tmp_path / pattern)], tmp_path)
    assert r.returncode != 0 and "exactly one frame field" in r.stderr
    assert list(tmp_path.glob("f_*")) == []


def test_a_sequence_pattern_names_the_frames(tmp_path):
    r = run(["render", "--trajectory", str(ASSETS / "puma560-demo.csv"), *SMALL,
             "--fps", "2", "--speed", "4", "-o", str(tmp_path / "f_{:03d}.png")], tmp_path)
    assert r.returncode == 0, r.stderr
    names = sorted(p.name for p in tmp_path.glob("f_*.png"))
    assert names[0] == "f_000.png" and len(names) >= 2


@pytest.mark.parametrize("args, words", [
    (["--size", "16384x16384"], "argument --size: size must be between 16 and 8192"),
    (["--fps", "1e-308"], "argument --fps: must lie between"),
    (["--speed", "1e308"], "argument --speed: must lie between"),
    (["--fps", "nan"], "argument --fps: must be a positive number"),
])
def test_absurd_options_are_refused_naming_the_option(tmp_path, args, words):
    r = run(["render", "--trajectory", str(ASSETS / "puma560-demo.csv"), *args,
             "-o", str(tmp_path / "a.mp4")], tmp_path)
    assert r.returncode != 0 and words in r.stderr


def test_a_missing_folder_is_a_clear_error(tmp_path):
    r = run(["render", *SMALL, "-o", str(tmp_path / "nowhere" / "a.png")], tmp_path)
    assert r.returncode != 0 and "does not exist" in r.stderr


def test_q_beyond_the_limits_and_a_program_of_another_robot_are_said(tmp_path):
    out = tmp_path / "q.png"
    r = run(["render", "--q=9,0,0,0,0,0", *SMALL, "-o", str(out)], tmp_path)
    assert r.returncode == 0 and "--q is beyond the joint limits of joint(s) 1" in r.stderr
    r = run(["render", "--robot", "irb140", "--program", str(ASSETS / "pick-and-place.prog"),
             "--time", "0", *SMALL, "-o", str(out)], tmp_path)
    assert "taught on 'puma560'" in r.stderr or r.returncode != 0, r.stderr


def test_xacro_arguments_on_the_command_line(tmp_path):
    path = tmp_path / "arm.xacro"
    path.write_text((HOSTILE / "xacro-read-missing-arg.xacro").read_text()
                    .replace('<link name="c$(arg secret_name)"/>', "")
                    .replace('<link name="tool"/>', '<link name="$(arg secret_name)"/>')
                    .replace('<child link="tool"/>', '<child link="$(arg secret_name)"/>'))
    out = tmp_path / "x.png"
    r = run(["render", "--robot", str(path), *SMALL, "-o", str(out)], tmp_path)
    assert r.returncode != 0 and "--xacro-arg secret_name:=VALUE" in r.stderr
    r = run(["render", "--robot", str(path), "--xacro-arg", "secret_name:=x", *SMALL,
             "-o", str(out)], tmp_path)
    assert r.returncode == 0, r.stderr
    assert png_size(out) == (64, 48)
