"""Command line: `robogui render` writes a real PNG; the window starts and screenshots itself."""

from __future__ import annotations

import math
import os
import struct
import subprocess
import sys

import numpy as np
import pytest
from PySide6 import QtGui

import robogui
from robogui.cli import build_parser, parse_q, parse_size
from robogui.io.robotfile import load_robot


def png_size(path) -> tuple[int, int]:
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def run(args, tmp_path, timeout=60):
    src = os.path.dirname(os.path.dirname(robogui.__file__))  # the tree under test
    path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PYTHONPATH": path}
    return subprocess.run([sys.executable, "-m", "robogui", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=tmp_path)


def test_render_writes_a_png_of_the_right_size(tmp_path):
    out = tmp_path / "out.png"
    r = run(["render", "--robot", "puma560", "--q", "qr", "--view", "iso",
             "--size", "1600x1200", "-o", str(out)], tmp_path)
    assert r.returncode == 0, r.stderr
    assert png_size(out) == (1600, 1200)
    img = QtGui.QImage(str(out)).convertToFormat(QtGui.QImage.Format.Format_RGB888)
    arr = np.frombuffer(img.constBits(), np.uint8).reshape(1200, img.bytesPerLine())[:, :4800]
    colours = np.unique(arr.reshape(-1, 3)[::97], axis=0)
    assert len(colours) > 50  # a rendered scene, not a blank image


def test_render_with_values_in_degrees_and_errors(tmp_path):
    out = tmp_path / "front.png"
    r = run(["render", "--robot", "twolink", "--q", "30,45", "--deg", "--view", "front",
             "--size", "320x240", "-o", str(out)], tmp_path)
    assert r.returncode == 0, r.stderr
    assert png_size(out) == (320, 240)
    r = run(["render", "--robot", "nosuchrobot", "-o", str(out)], tmp_path)
    assert r.returncode != 0 and "nosuchrobot" in r.stderr
    r = run(["render", "--q", "1,2", "-o", str(out)], tmp_path)
    assert r.returncode != 0 and "needs 6 finite values" in r.stderr


def test_window_starts_and_saves_a_screenshot(tmp_path):
    shot = tmp_path / "main.png"
    r = run(["--no-restore", "--size", "1200x800", "--screenshot", str(shot),
             "--quit-after-screenshot"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert png_size(shot) == (1200, 800)


def test_time_needs_a_trajectory(tmp_path):
    r = run(["--time", "2.5"], tmp_path)
    assert r.returncode != 0 and "--time needs a --trajectory" in r.stderr


def test_parse_q_and_size():
    puma = load_robot("puma560")
    np.testing.assert_allclose(parse_q(puma, "qr"), [0, math.pi / 2, -math.pi / 2, 0, 0, 0])
    np.testing.assert_allclose(parse_q(puma, "0, 0.5,-0.5,0,0,1"), [0, 0.5, -0.5, 0, 0, 1])
    stanford = load_robot("stanford")
    q = parse_q(stanford, "90,0,0.25,0,0,0", deg=True)
    np.testing.assert_allclose(q, [math.pi / 2, 0, 0.25, 0, 0, 0])  # prismatic stays metres
    assert parse_q(puma, None) is None
    with pytest.raises(ValueError, match="pose name"):
        parse_q(puma, "ready")
    assert parse_size("640x480") == (640, 480)
    with pytest.raises(Exception, match="WIDTHxHEIGHT"):
        parse_size("big")
    args = build_parser().parse_args(["render", "--q=-0.5,0,0,0,0,0", "-o", "x.png"])
    assert args.command == "render" and args.q.startswith("-0.5") and args.size == (1600, 1200)


def test_render_a_urdf_robot_with_tip_and_package_path(tmp_path):
    from tests.urdf_files import KR5, PACKAGES, UR5

    out = tmp_path / "ur5.png"
    r = run(["render", "--robot", str(UR5), "--tip", "tool0", "--q=0,-1.2,1.4,-1.5,-1.5,0.2",
             "--size", "400x300", "-o", str(out)], tmp_path)
    assert r.returncode == 0, r.stderr
    assert png_size(out) == (400, 300)
    r = run(["render", "--robot", str(UR5), "--size", "400x300", "-o", str(out)], tmp_path)
    assert r.returncode == 0, r.stderr  # the default tip is the flange, tool0
    # the KR5 xacro needs its packages named; without them the error says which
    r = run(["render", "--robot", str(KR5), "-o", str(out)], tmp_path)
    assert r.returncode != 0 and "kuka_kr5_support" in r.stderr
    args = ["render", "--robot", str(KR5), "--size", "320x240", "-o", str(out)]
    for p in PACKAGES:
        args += ["--package-path", p]
    r = run(args, tmp_path)
    assert r.returncode == 0, r.stderr


def test_render_of_a_video_shows_its_progress_on_a_terminal(tmp_path):
    """Issue 28 item 11: on a terminal, ``robogui render`` of a video keeps a progress line
    up to date (a pipe gets only the final line)."""
    import pty

    src = os.path.dirname(os.path.dirname(robogui.__file__))
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PYTHONPATH": os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", ""))
                                         if p)}
    csv = tmp_path / "t.csv"
    csv.write_text("t,q1,q2,q3,q4,q5,q6\n0,0,0,0,0,0,0\n1,0.5,0.2,0,0,0.3,0\n")
    out = tmp_path / "move.gif"
    leader, follower = pty.openpty()  # stderr is a terminal, as when a person runs it
    proc = subprocess.Popen([sys.executable, "-m", "robogui", "render", "--trajectory",
                             str(csv), "--fps", "10", "--size", "160x120", "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=follower, env=env, cwd=tmp_path)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: the process is done
            break
        if not chunk:
            break
        seen += chunk
    stdout, _ = proc.communicate(timeout=120)
    os.close(leader)
    assert proc.returncode == 0, seen
    text = seen.decode(errors="replace")
    total = int(text.split("frame 1/")[1].split(" ")[0])
    assert total >= 10 and f"frame {total}/{total} (100 %)" in text
    assert "\r" in text  # one line, rewritten in place
    assert f"rendering {out}" in text and b"wrote" in stdout
    # through a pipe: no progress line, only the result
    r = run(["render", "--trajectory", str(csv), "--fps", "10", "--size", "160x120",
             "-o", str(out)], tmp_path)
    assert r.returncode == 0 and "frame" not in r.stderr and "wrote" in r.stdout
