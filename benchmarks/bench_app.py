"""Desktop app timings: first frame, 3D view frame rate, long trajectories (X server needed).

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
  multisampled (see robogui/app/view/gl_host.py); ``--every-frame`` also measures MSAA on
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

    from robogui.app.panels.joint_panel import JointPanel  # first: sets up PyOpenGL
    from robogui.app.shell.main_window import create_app
    from robogui.app.view.view3d import RobotView
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


# -- long trajectories (issue 14): cost per frame independent of the trajectory's length --
def _window(k: int, size=(1600, 1000)):
    """A full main window (plots included) on the Puma 560 with a ``k``-sample trajectory
    (none for k = 0), once the analysis and the trail are ready."""
    import numpy as np
    from PySide6 import QtCore, QtTest

    from robogui.app.shell.main_window import MainWindow, create_app
    from robogui.app.shell.settings import Settings
    from robogui.engine.trajectory.trajectory import Trajectory
    from robogui.io.robotfile import load_robot
    from robogui.session import Session

    app = create_app()
    robot = load_robot("puma560")
    session = Session(robot, q=robot.pose("qn"))
    ini = tempfile.NamedTemporaryFile(suffix=".ini", delete=False).name
    settings = Settings(QtCore.QSettings(ini, QtCore.QSettings.Format.IniFormat))
    win = MainWindow(session, settings=settings, restore=False, autosave_path=False)
    win.resize(*size)
    win.show()
    QtTest.QTest.qWaitForWindowExposed(win)
    win.ensure_plots()
    if k:
        t = np.linspace(0.0, k / 1000.0, k)
        q = robot.pose("qz") + np.outer(np.sin(t), np.ones(6)) * 0.5
        session.set_trajectory(Trajectory(t, q))
        session.finish_change()
        win.teach.trail.wait(120)
        end = time.monotonic() + 300
        while session.analysis is None and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.02)
    for _ in range(30):
        app.processEvents()
        time.sleep(0.01)
    return app, win, session


def _until_swapped(app, view, GL, act) -> float:
    """Seconds from ``act()`` to the next frame presented and finished."""
    from PySide6 import QtCore

    loop = QtCore.QEventLoop()
    out = {}

    def swapped():
        view.makeCurrent()
        GL.glFinish()
        out["t"] = time.perf_counter()
        loop.quit()

    view.frameSwapped.connect(swapped)
    QtCore.QTimer.singleShot(30_000, loop.quit)
    t0 = time.perf_counter()
    act()
    loop.exec()
    view.frameSwapped.disconnect(swapped)
    return out.get("t", float("nan")) - t0


def slider_latency(k: int, moves: int = 30) -> float:
    """Median seconds from a joint-slider move (a complete change, as a click or a key
    on the slider gives) to the finished frame, full window, ``k``-sample trajectory."""
    GL = importlib.import_module("OpenGL.GL")
    app, win, session = _window(k)
    slider = win.joint_panel.rows[0].slider
    times = []
    for i in range(moves + 5):
        dt = _until_swapped(app, win.view, GL, lambda v=800 + 17 * i: slider.setValue(v))
        for _ in range(5):  # the deferred work of the change (plots) before the next move
            app.processEvents()
            time.sleep(0.005)
        if i >= 5:
            times.append(dt)
    win.close()
    return statistics.median(times)


def playback_fps(k: int, seconds: float = 4.0) -> float:
    """Frames presented per second while the timeline plays a ``k``-sample trajectory."""
    app, win, session = _window(k)
    frames = []
    win.view.frameSwapped.connect(lambda: frames.append(time.perf_counter()))
    session.play()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
    session.pause()
    win.close()
    span = [f for f in frames if f >= frames[0] + 0.5] if frames else []  # after start-up
    return (len(span) - 1) / (span[-1] - span[0]) if len(span) > 2 else 0.0


def csv_load_gap(k: int) -> tuple[float, float, float]:
    """Load a ``k``-row CSV (t, q, qd, qdd) through the timeline: (seconds until the
    trajectory and its trail are shown, seconds until the plots show its analysis, longest
    event-loop gap in s meanwhile)."""
    import numpy as np
    from PySide6 import QtCore

    from robogui.engine.trajectory.trajectory import Trajectory

    app, win, session = _window(0)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "long.csv"
        t = np.linspace(0.0, k / 1000.0, k)
        q = session.robot.pose("qz") + np.outer(np.sin(t), np.ones(6)) * 0.5
        Trajectory(t, q).with_derivatives().to_csv(path)
        ticks = []
        timer = QtCore.QTimer()
        timer.setInterval(5)
        timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
        timer.start()
        t0 = time.perf_counter()
        win.teach.timeline.load_csv(path)
        while (session.trajectory is None or win.teach.trail.busy) and \
                time.perf_counter() - t0 < 300:
            app.processEvents()
            time.sleep(0.002)
        total = time.perf_counter() - t0
        # then the plots' analysis (a worker thread) and its drawing, on the GUI thread
        runner = win.plot_docks.runner
        while (runner.busy or runner.analysis is None) and time.perf_counter() - t0 < 600:
            app.processEvents()
            time.sleep(0.002)
        plotted = time.perf_counter() - t0
        for _ in range(50):
            app.processEvents()
            time.sleep(0.002)
        timer.stop()
    win.close()
    gaps = np.diff([t0] + ticks)
    return total, plotted, float(gaps.max())


def handle_drag(robot_name, frames: int, size=(1280, 800), q0=None,
                robot=None) -> tuple[float, float]:
    """Frames per second of a tool-handle drag, mouse move to finished frame, and the
    median IK time per drag event (ms).

    The TCP handle's z arrow is pressed, then the mouse moves along it back and forth
    (+-5 cm); each move runs one damped-least-squares IK step
    (``robogui.session.geometry.handle.follow_pose``), the session updates the frames and the view
    repaints. The next move is sent when the previous frame was presented and finished
    (``frameSwapped`` + ``glFinish``). The IK time is measured around ``follow_pose``.
    ``q0``: the start pose (default the robot's qn, else qr). The process's CPU time
    per frame (this thread, Mesa's rendering threads) is left in
    ``handle_drag.cpu_per_frame``: on a loaded machine it stays what a frame costs.
    """
    import numpy as np
    from PySide6 import QtCore, QtGui, QtTest, QtWidgets

    import robogui.app.interaction.handle as handle_mod
    from robogui.app.interaction.handle import HandleController
    from robogui.app.shell.main_window import create_app
    from robogui.app.view.view3d import RobotView
    from robogui.io.robotfile import load_robot
    from robogui.session import Session

    GL = importlib.import_module("OpenGL.GL")
    app = create_app()
    robot = load_robot(robot_name) if robot is None else robot  # robot: one already loaded
    if q0 is None:  # a URDF arm has neither: the caller gives its start pose (None: the session's)
        q0 = (robot.pose("qn") if "qn" in robot.poses else robot.pose("qr")
              if "qr" in robot.poses else None)
    session = Session(robot, q=q0)
    view = RobotView(session)
    view.setFixedSize(*size)
    handle = HandleController(view, session)
    view.show()
    QtTest.QTest.qWaitForWindowExposed(view)
    for _ in range(10):
        app.processEvents()
    view.scene.grab_image()  # a frame with the handle placed
    origin, axes, hsize = handle.geometry()
    pts = [origin + (0.9 * hsize + 0.05 * np.sin(k * 2 * np.pi / 60)) * axes[2]
           for k in range(frames + 11)]
    xy = view.project(np.array(pts))
    ik_times = []
    follow = handle_mod.follow_pose

    def timed(*args, **kw):
        t = time.perf_counter()
        res = follow(*args, **kw)
        ik_times.append(time.perf_counter() - t)
        return res

    drag_step = handle_mod.follow_drag  # a drag along the arrow: the constrained step

    def timed_drag(*args, **kw):
        t = time.perf_counter()
        res = drag_step(*args, **kw)
        ik_times.append(time.perf_counter() - t)
        return res

    handle_mod.follow_pose = timed
    handle_mod.follow_drag = timed_drag

    def send(kind, p):
        T = QtCore.QEvent.Type
        etype = {"press": T.MouseButtonPress, "move": T.MouseMove}[kind]
        left = QtCore.Qt.MouseButton.LeftButton
        local = QtCore.QPointF(*map(float, p))
        btn = left if kind == "press" else QtCore.Qt.MouseButton.NoButton
        QtWidgets.QApplication.sendEvent(view.scene, QtGui.QMouseEvent(
            etype, local, view.scene.mapToGlobal(local), btn, left,
            QtCore.Qt.KeyboardModifier.NoModifier))

    send("press", xy[0])
    if handle.drag is None:
        raise RuntimeError("the benchmark's press missed the handle")
    loop = QtCore.QEventLoop()
    state = {"k": 0, "t0": 0.0, "dt": None}

    def swapped():
        view.makeCurrent()
        GL.glFinish()
        k = state["k"]
        if k == 10:
            state["t0"] = time.perf_counter()
            state["c0"] = time.process_time()
            ik_times.clear()
        if k == len(xy) - 1:
            state["dt"] = time.perf_counter() - state["t0"]
            handle_drag.cpu_per_frame = (time.process_time() - state["c0"]) / frames
            loop.quit()
            return
        state["k"] = k + 1
        send("move", xy[k + 1])

    view.frameSwapped.connect(swapped)
    QtCore.QTimer.singleShot(120_000, loop.quit)
    send("move", xy[0])
    loop.exec()
    view.frameSwapped.disconnect(swapped)
    handle_mod.follow_pose = follow
    handle_mod.follow_drag = drag_step
    if state["dt"] is None:
        raise RuntimeError("the view stopped presenting frames")
    view.close()
    return frames / state["dt"], (1000.0 * statistics.median(ik_times) if ik_times
                                  else float("nan"))


def open_long_chain(n: int = 200, runs: int = 3) -> list[tuple[float, float, float]]:
    """Open an ``n``-link robot file (File > Open's path, ``MainWindow.open_robot``) in a
    1600x1000 main window with its plot docks, from the Puma 560, ``runs`` times.

    Per run: (seconds inside ``open_robot``, longest event-loop gap, total time in gaps
    over 100 ms), the gaps measured by a 5 ms timer from the call until the window has
    presented a frame of the new robot and 1 s has passed: the time the GUI is blocked.
    """
    import numpy as np
    from bench_scale import random_chain  # benchmarks/, on the path when run as a script
    from PySide6 import QtCore

    from robogui.io.robotfile import save_robot

    out = []
    with tempfile.TemporaryDirectory() as d:
        path = save_robot(random_chain(n, seed=n), Path(d) / f"chain{n}.toml")
        for _ in range(runs):
            app, win, session = _window(0)
            ticks: list[float] = []
            frames: list[float] = []
            timer = QtCore.QTimer()
            timer.setInterval(5)
            timer.timeout.connect(lambda ticks=ticks: ticks.append(time.perf_counter()))
            win.view.frameSwapped.connect(
                lambda frames=frames: frames.append(time.perf_counter()))
            timer.start()
            t0 = time.perf_counter()
            if not win.open_robot(path) or session.robot.n != n:
                raise RuntimeError(f"the {n}-link robot did not open")
            t_call = time.perf_counter() - t0
            while (not [f for f in frames if f > t0 + t_call] or
                   time.perf_counter() - t0 < t_call + 1.0) and time.perf_counter() - t0 < 60:
                app.processEvents()
                time.sleep(0.002)
            timer.stop()
            win.close()
            gaps = np.diff([t0] + [t for t in ticks if t > t0])
            out.append((t_call, float(gaps.max()), float(gaps[gaps > 0.1].sum())))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="first-frame launches")
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--msaa", type=int, nargs="+", default=[4, 0],
                    help="multisample counts to measure (4 is the default view)")
    ap.add_argument("--every-frame", action="store_true",
                    help="also measure MSAA on every frame of a drag (software GL)")
    ap.add_argument("--skip-long", action="store_true",
                    help="skip the long-trajectory figures (slider latency, playback, CSV)")
    ap.add_argument("--only-long", action="store_true",
                    help="only the long-trajectory figures")
    ap.add_argument("--only-open", action="store_true",
                    help="only the time the GUI is blocked while a 200-link robot opens")
    args = ap.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    runs = open_long_chain(200)
    best = min(runs, key=lambda r: r[1])
    print(f"opening a 200-link robot (File > Open, 1600x1000 window with plots), best of "
          f"{len(runs)}: open_robot {1000 * best[0]:.0f} ms, GUI blocked (longest event-loop "
          f"gap) {1000 * best[1]:.0f} ms, {1000 * best[2]:.0f} ms in gaps over 100 ms; "
          f"median longest gap {1000 * statistics.median(r[1] for r in runs):.0f} ms  "
          "(target: no freeze)")
    if args.only_open:
        return
    if args.only_long:
        args.runs, args.msaa = 0, []
    ff = first_frame_times(args.runs) if args.runs else [float("nan")]
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
    if not args.skip_long:
        base = slider_latency(0)
        long = slider_latency(300_000)
        print(f"joint slider -> finished frame, 1600x1000 window with plots: "
              f"{1000 * base:.0f} ms without a trajectory, {1000 * long:.0f} ms with 300,000 "
              f"samples: {long / base:.2f}x  (target <= 1.5x)")
        for k in (1_000, 1_000_000):
            print(f"playback of {k:,} samples, 1600x1000 window with plots: "
                  f"{playback_fps(k):.0f} fps  (target >= 30 fps for 1,000,000)")
        total, plotted, gap = csv_load_gap(1_000_000)
        print(f"1,000,000-row CSV (t, q, qd, qdd) loaded off the GUI thread: shown after "
              f"{total:.1f} s, plotted after {plotted:.1f} s, longest event-loop gap "
              f"{1000 * gap:.0f} ms  (target <= 100 ms)")
    for name in ("puma560", "panda"):
        fps, ik_ms = handle_drag(name, args.frames)
        print(f"tool handle drag, mouse move -> finished frame, 1280x800, {name}: {fps:.0f} fps "
              f"(target >= 60 fps); IK per drag event: median {ik_ms:.2f} ms (target <= 1 ms)")
    print(f"GL renderer: {_renderer()}")


def _renderer() -> str:
    from robogui.app.shell.main_window import create_app
    from robogui.app.view.view3d import RobotView
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
