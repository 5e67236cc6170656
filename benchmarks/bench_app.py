"""Desktop app timings: first-frame time and 3D view frame rate (run under an X server).

    xvfb-run -a -s "-screen 0 1920x1080x24" python benchmarks/bench_app.py

* first frame: wall-clock time from launching ``python -m robogui`` (a new process,
  imports included) to the first frame the 3D view swaps to the screen. Target <= 1.5 s.
* frame rate: a joint slider of the drivebot panel is moved (as a drag), the session
  updates the frames, the view sets its transforms and repaints at 1280x800. On screen:
  the next slider value is set only when the previous frame was swapped to the window
  (``frameSwapped``) and finished (``glFinish``). Off screen: every frame is rendered and
  read back with ``grab_image`` (always multisampled, as for screenshots and exports).
  Puma 560. Target >= 60 fps.
* MSAA: the view's multisample count. On hardware GL every frame is multisampled; on
  software GL (llvmpipe) frames that follow each other quickly, as in a drag, are
  single-sampled with smoothed lines and the frame after the scene settles is
  multisampled (see robogui/app/gl_host.py); ``--every-frame`` also measures MSAA on
  every frame, for comparison.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def first_frame_times(runs: int) -> list[float]:
    """Seconds from process launch to the first rendered frame, one per run."""
    out = []
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": home,
               "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        for _ in range(runs):
            t0 = time.time()
            p = subprocess.run([sys.executable, "-m", "robogui", "--report-first-frame",
                                "--no-restore"], capture_output=True, text=True, env=env,
                               timeout=60)
            line = next((ln for ln in p.stdout.splitlines() if ln.startswith("first-frame")), None)
            if line is None:
                raise RuntimeError(f"no first frame reported:\n{p.stdout}\n{p.stderr}")
            out.append(float(line.split()[1]) - t0)
    return out


def frame_rate(frames: int, readback: bool, samples: int, size=(1280, 800),
               every_frame: bool = False, robot=None) -> float:
    """Frames per second from slider change to finished frame.

    ``every_frame``: multisample every frame, also while dragging on software GL.
    ``robot``: default the Puma 560 (bench_urdf.py passes the Panda URDF with meshes).
    """
    from PySide6 import QtCore, QtTest, QtWidgets

    from robogui.app.joint_panel import JointPanel  # first: sets up PyOpenGL
    from robogui.app.main_window import create_app
    from robogui.app.view3d import RobotView
    from robogui.io.robotfile import load_robot
    from robogui.session import Session

    GL = importlib.import_module("OpenGL.GL")  # after robogui.app configured PyOpenGL

    app = create_app()
    if robot is None:
        robot = load_robot("puma560")
    session = Session(robot, q=robot.pose("qn") if "qn" in robot.poses else None)
    host = QtWidgets.QWidget()
    layout = QtWidgets.QHBoxLayout(host)
    panel = JointPanel(session)
    view = RobotView(session, samples=samples)
    view.setFixedSize(*size)
    if every_frame:
        view.scene.settle_ms = -1.0  # every frame counts as settled: multisampled
    layout.addWidget(panel)
    layout.addWidget(view)
    host.show()
    QtTest.QTest.qWaitForWindowExposed(host)
    for _ in range(10):
        app.processEvents()
    slider = panel.rows[0].slider
    slider.setSliderDown(True)  # a drag: "changing", frames only
    lo, hi = 200, 1800
    values = [int(lo + (hi - lo) * (0.5 + 0.5 * ((k * 37) % 100 - 50) / 50))
              for k in range(frames + 10)]
    if readback:
        # every frame rendered off screen and read back: cannot be skipped or merged
        for v in values[:10]:  # warm up: shader compile, buffer upload
            slider.setValue(v)
            view.grab_image()
        t0 = time.perf_counter()
        for v in values[10:]:
            slider.setValue(v)
            view.grab_image()
        dt = time.perf_counter() - t0
    else:
        # the real path: slider -> session -> transforms -> update() -> paintGL -> swap;
        # the next value is set when the previous frame has been presented and finished
        loop = QtCore.QEventLoop()
        state = {"k": 0, "t0": 0.0, "dt": None}

        def swapped():
            view.makeCurrent()
            GL.glFinish()
            k = state["k"]
            if k == 10:
                state["t0"] = time.perf_counter()
            if k == len(values) - 1:
                state["dt"] = time.perf_counter() - state["t0"]
                loop.quit()
                return
            state["k"] = k + 1
            slider.setValue(values[k + 1])

        view.frameSwapped.connect(swapped)
        QtCore.QTimer.singleShot(120_000, loop.quit)  # never hang a benchmark run
        slider.setValue(values[0])
        loop.exec()
        view.frameSwapped.disconnect(swapped)
        if state["dt"] is None:
            raise RuntimeError("the view stopped presenting frames")
        dt = state["dt"]
    slider.setSliderDown(False)
    assert (view.width(), view.height()) == size
    host.close()
    return frames / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="first-frame launches")
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--msaa", type=int, nargs="+", default=[4, 0],
                    help="multisample counts to measure (4 is the default view)")
    ap.add_argument("--every-frame", action="store_true",
                    help="also measure MSAA on every frame of a drag (software GL)")
    args = ap.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    ff = first_frame_times(args.runs)
    print(f"first frame (process start -> first frame): median {statistics.median(ff):.2f} s, "
          f"min {min(ff):.2f} s over {len(ff)} runs  (target <= 1.5 s)")
    for samples in args.msaa:
        fps = frame_rate(args.frames, readback=False, samples=samples)
        fps_rb = frame_rate(args.frames, readback=True, samples=samples)
        print(f"frame rate, slider -> finished frame, 1280x800, Puma 560, MSAA {samples}: "
              f"{fps:.0f} fps on screen (frameSwapped + glFinish), "
              f"{fps_rb:.0f} fps off screen (grab_image)  "
              "(target >= 60 fps)")
        if args.every_frame and samples:
            fps_all = frame_rate(args.frames, readback=False, samples=samples, every_frame=True)
            print(f"  MSAA {samples} on every frame of the drag too: {fps_all:.0f} fps on screen")
    print(f"GL renderer: {_renderer()}")


def _renderer() -> str:
    from robogui.app.main_window import create_app
    from robogui.app.view3d import RobotView
    from robogui.io.robotfile import load_robot
    from robogui.session import Session

    create_app()
    view = RobotView(Session(load_robot("twolink")))
    view.grab_image()  # makes a context current: the renderer is known
    name = view.scene.renderer
    view.close()
    return name


if __name__ == "__main__":
    main()
