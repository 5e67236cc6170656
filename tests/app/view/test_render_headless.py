"""Pictures and videos with no display: each render runs in a subprocess with DISPLAY
removed and QT_QPA_PLATFORM=offscreen (the suite itself runs under Xvfb), and the
files are read back with imageio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest

import robogui

SRC = Path(robogui.__file__).resolve().parents[1]  # the tree under test
DEMO = SRC / "assets" / "puma560-demo.csv"
PROGRAM = SRC / "assets" / "pick-and-place.prog"
DEMO_SECONDS = 6.0


def headless_env(tmp_path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY")}
    path = os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH", "")) if p)
    env.update(QT_QPA_PLATFORM="offscreen", PYTHONPATH=path, HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    return env


def robogui_cli(args, tmp_path, timeout=240):
    return subprocess.run([sys.executable, "-m", "robogui", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout,
                          env=headless_env(tmp_path), cwd=tmp_path)


def ok(r):
    assert r.returncode == 0, f"exit {r.returncode}\nstdout: {r.stdout}\nstderr: {r.stderr}"
    return r


def moved(a: np.ndarray, b: np.ndarray) -> float:
    """Fraction of pixels that changed clearly between two frames."""
    return float(np.mean(np.abs(a.astype(int) - b.astype(int)).max(axis=-1) > 40))


def test_still_without_a_display(tmp_path):
    out = tmp_path / "still.png"
    r = ok(robogui_cli(["render", "--robot", "puma560", "--trajectory", DEMO, "--time", "3",
                        "--size", "800x600", "-o", out], tmp_path))
    assert "wrote" in r.stdout and "Segmentation" not in r.stderr
    img = iio.imread(out)
    assert img.shape[:2] == (600, 800)
    colours = np.unique(img[..., :3].reshape(-1, 3), axis=0)
    assert len(colours) > 200  # shaded robot, floor, grid and labels: a rendered scene
    # the demo passes through qr at 3 s (qz -> qr -> qn): the same picture as --q qr
    ref = tmp_path / "qr.png"
    ok(robogui_cli(["render", "--q", "qr", "--size", "800x600", "-o", ref], tmp_path))
    assert np.abs(iio.imread(ref).astype(int) - img).max() <= 2
    # and not the picture of another pose
    ok(robogui_cli(["render", "--trajectory", DEMO, "--time", "4.5", "--size", "800x600",
                    "-o", ref], tmp_path))
    assert moved(iio.imread(ref)[..., :3], img[..., :3]) > 0.005


def test_mp4_of_the_demo_without_a_display(tmp_path):
    out = tmp_path / "demo.mp4"
    ok(robogui_cli(["render", "--robot", "puma560", "--trajectory", DEMO, "--fps", "25",
                    "--size", "320x240", "-o", out], tmp_path))
    video = iio.imread(out, index=None, plugin="pyav")
    assert abs(len(video) - DEMO_SECONDS * 25) <= 1
    assert video.shape[1:] == (240, 320, 3)
    # the robot moves from qz to qr to qn: the middle and the end differ from the start
    assert moved(video[0], video[len(video) // 2]) > 0.005
    assert moved(video[len(video) // 2], video[-1]) > 0.005
    assert moved(video[0], video[1]) < moved(video[0], video[40])  # gradually
    meta = iio.immeta(out, plugin="pyav")
    assert meta["fps"] == pytest.approx(25)


def test_gif_of_the_demo_at_half_speed_without_a_display(tmp_path):
    out = tmp_path / "demo.gif"
    ok(robogui_cli(["render", "--robot", "puma560", "--trajectory", DEMO, "--fps", "10",
                    "--speed", "2", "--size", "240x180", "-o", out], tmp_path))
    gif = iio.imread(out, index=None, plugin="pillow")
    assert abs(len(gif) - DEMO_SECONDS / 2 * 10) <= 1  # speed 2: 3 s of video
    assert gif.shape[1:3] == (180, 240)
    assert moved(gif[0][..., :3], gif[-1][..., :3]) > 0.005


def test_webm_and_image_sequence_of_a_program_without_a_display(tmp_path):
    out = tmp_path / "prog.webm"
    ok(robogui_cli(["render", "--program", PROGRAM, "--fps", "10", "--size", "160x120",
                    "--overlay", "time,q,torque", "-o", out], tmp_path))
    video = iio.imread(out, index=None, plugin="pyav")
    from robogui.io.robotfile import load_robot
    from robogui.session.video import load_motion

    traj = load_motion(load_robot("puma560"), program=PROGRAM)
    assert abs(len(video) - (traj.t[-1] - traj.t[0]) * 10) <= 1
    seq = tmp_path / "frames"
    ok(robogui_cli(["render", "--trajectory", DEMO, "--fps", "2", "--size", "1000x500",
                    "-o", f"{seq}/"], tmp_path))
    files = sorted(seq.glob("frame_*.png"))
    assert len(files) == 13 and iio.imread(files[0]).shape[:2] == (500, 1000)


_LABELS = textwrap.dedent("""
    import json, sys
    from robogui.app.view.headless import configure_headless_gl
    configure_headless_gl()
    import numpy as np
    from robogui.app.view.render import image_to_array, render_robot
    from robogui.io.robotfile import load_robot
    from robogui.session.session import DisplayOptions
    robot = load_robot("puma560")
    out = {}
    for w, h in ((800, 600), (3200, 2400)):
        a, b = (image_to_array(render_robot(robot, view="front", size=(w, h), samples=4,
                                            display=DisplayOptions(show_name=s)))
                for s in (True, False))
        rows = np.nonzero((np.abs(a.astype(int) - b).max(axis=-1) > 30).any(axis=1))[0]
        out[f"{w}x{h}"] = int(rows.max() - rows.min() + 1) if rows.size else 0
    print(json.dumps(out))
""")


def test_labels_scale_with_the_picture(tmp_path):
    """The robot's name, rendered with and without: the rows that differ are the label."""
    r = ok(subprocess.run([sys.executable, "-c", _LABELS], capture_output=True, text=True,
                          timeout=300, env=headless_env(tmp_path), cwd=tmp_path))
    heights = json.loads(r.stdout.strip().splitlines()[-1])
    assert heights["800x600"] >= 8  # a readable line of text
    assert heights["3200x2400"] >= 3 * heights["800x600"]


def test_orthographic_is_not_perspective(tmp_path):
    """Front view (camera level with the scene centre, above the floor): in perspective
    the floor recedes to a horizon and fills the lower rows; in an orthographic
    projection a horizontal plane seen at elevation 0 is edge-on, a line."""
    imgs = {}
    for proj in ("perspective", "orthographic"):
        out = tmp_path / f"{proj}.png"
        ok(robogui_cli(["render", "--q", "qr", "--view", "front", "--size", "400x300",
                        "--projection", proj, "-o", out], tmp_path))
        imgs[proj] = iio.imread(out)[..., :3].astype(int)
    floor_rows = {}
    for proj, img in imgs.items():
        column = img[:, 20]  # far left of the robot and its label
        floor_rows[proj] = int(np.sum(np.abs(column - img[5, 20]).max(axis=-1) > 3))
    assert floor_rows["perspective"] > 40
    assert floor_rows["orthographic"] <= 4
    assert moved(imgs["perspective"], imgs["orthographic"]) > 0.001


@pytest.mark.parametrize("args,words", [
    (["-o", "x.mp4"], "give --trajectory or --program"),
    (["--trajectory", DEMO, "-o", "x.png"], "is a picture; give --time"),
    (["--trajectory", DEMO, "--time", "7", "-o", "x.png"], "outside the trajectory [0, 6]"),
    (["--time", "1", "-o", "x.png"], "--time picks one moment"),
    (["--trajectory", DEMO, "-o", "x.avi"], "unknown output type"),
    (["--trajectory", DEMO, "--size", "321x240", "-o", "x.mp4"], "even width"),
    (["--trajectory", DEMO, "--overlay", "speed", "-o", "x.mp4"], "unknown speed"),
    (["--trajectory", "missing.csv", "-o", "x.mp4"], "missing.csv"),
    (["--trajectory", DEMO, "--fps", "0", "-o", "x.mp4"], "positive number"),
])
def test_bad_render_requests_say_why(tmp_path, args, words):
    r = robogui_cli(["render", *args], tmp_path)
    assert r.returncode != 0
    assert words in r.stderr
    assert not list(tmp_path.glob("x.*")) and not list(tmp_path.glob(".x.*"))


def test_which_environments_go_headless(monkeypatch):
    from robogui.app.view import headless

    assert headless.needs_headless_gl({})  # nothing to draw on
    assert headless.needs_headless_gl({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"})
    assert not headless.needs_headless_gl({"DISPLAY": ":0"})
    assert not headless.needs_headless_gl({"WAYLAND_DISPLAY": "wayland-0"})
    assert not headless.needs_headless_gl({"QT_QPA_PLATFORM": "xcb"})  # the user's choice
    env = {"QT_QPA_PLATFORM": "offscreen", "EGL_PLATFORM": "mine"}
    assert headless.configure_headless_gl(env)
    assert env["QT_QPA_PLATFORM"] == "eglfs" and env["QT_QPA_EGLFS_INTEGRATION"] == "none"
    assert env["EGL_PLATFORM"] == "mine"  # values the user set are kept
    assert not headless.configure_headless_gl({"DISPLAY": ":0"})
    monkeypatch.setattr(headless, "_have_egl", lambda: False)
    with pytest.raises(RuntimeError, match="libegl-mesa0"):
        headless.configure_headless_gl({})


def test_trail_overlay_draws_the_whole_tool_path_in_every_frame(tmp_path):
    """``--overlay trail``: the tool path of the whole trajectory in the trail's colour,
    already complete in the first frame; without it no such pixels."""
    def trail_pixels(img):
        rgb = img[..., :3].astype(int)
        want = np.array([0xF2, 0xC1, 0x4E])
        return int((np.abs(rgb - want).max(axis=-1) < 40).sum())

    counts = {}
    for name, extra in (("plain", []), ("trail", ["--overlay", "trail"])):
        seq = tmp_path / name
        ok(robogui_cli(["render", "--trajectory", DEMO, "--fps", "1", "--size", "400x300",
                        *extra, "-o", f"{seq}/"], tmp_path))
        files = sorted(seq.glob("frame_*.png"))
        counts[name] = [trail_pixels(iio.imread(f)) for f in (files[0], files[-1])]
    assert max(counts["plain"]) < 20
    assert min(counts["trail"]) > 50, counts
