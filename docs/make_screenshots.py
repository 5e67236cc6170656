"""Regenerate the README screenshots in assets/ (run under an X server):

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python docs/make_screenshots.py [NAME ...]

(NAME: only those pictures, e.g. ``cell``; the names are the keys of ``PICTURES``.)

(``.venv`` is what ``bash .ci/app`` or ``bash .ci/test`` makes; any Python with robogui's
dependencies works.)

Real windows, real GL (the app's own ``save_screenshot`` and headless ``render``).
``make_screenshots.py arms [ur5 panda kuka-kr5-xacro mjcf-jaco]`` makes only the README's
gallery of real arms (docs/images/arm-*.png, 1600x1000 and 1280x800).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's robogui, installed or not
try:
    from PySide6 import QtCore, QtGui
except ImportError:
    raise SystemExit("make_screenshots: PySide6 is missing; run it with robogui's environment, "
                     "e.g. .venv/bin/python docs/make_screenshots.py (bash .ci/app makes .venv)"
                     ) from None
ASSETS = ROOT / "assets"


def pump(app, ms: int) -> None:
    end = QtCore.QDeadlineTimer(ms)
    while not end.hasExpired():
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
        QtCore.QThread.msleep(10)


def window(app, robot="puma560", size=(1600, 1000)):
    from robogui.app.shell.main_window import MainWindow
    from robogui.app.shell.settings import Settings
    from robogui.io.robotfile import load_robot
    from robogui.session import Session

    ini = Path(tempfile.mkdtemp()) / "robogui.ini"
    settings = Settings(QtCore.QSettings(str(ini), QtCore.QSettings.Format.IniFormat))
    win = MainWindow(Session(load_robot(robot)), settings=settings, restore=False,
                     autosave_path=False)
    win.set_origin(robot)
    win.resize(*size)
    win.show()
    pump(app, 600)
    return win


def main_screenshot(app) -> None:
    win = window(app)
    win.open_startup_files(program=ASSETS / "pick-and-place.prog",
                           trajectory=ASSETS / "puma560-demo.csv", time_s=4.2)
    win.tasks.switch("analyse")  # the plots under the view
    pump(app, 800)
    win.save_screenshot(ASSETS / "screenshot-main.png")
    win.close()


def handle_screenshot(app) -> None:
    """The tool handle in use: the TCP dragged sideways until the waist stops at its limit,
    the reason written next to the handle (a real press, moves and hold on the view)."""
    import numpy as np

    win = window(app, size=(1280, 800))
    q = win.session.robot.pose("qn").copy()
    q[0] = np.radians(148.0)
    win.session.set_q(q)
    win.view.set_camera(azimuth=-20.0, elevation=22.0)
    win.view.fit_to_robot()
    pump(app, 300)
    handle = win.view_tools.handle
    origin, axes, size = handle.geometry()
    pts = [origin + (0.9 * size - s) * axes[1] for s in np.linspace(0, 0.35, 36)]
    xy = win.view.project(np.array(pts))
    scene = win.view.scene
    T = QtCore.QEvent.Type
    left = QtCore.Qt.MouseButton.LeftButton
    for k, (x, y) in enumerate(xy):
        local = QtCore.QPointF(float(x), float(y))
        kind = T.MouseButtonPress if k == 0 else T.MouseMove
        app.sendEvent(scene, QtGui.QMouseEvent(kind, local, scene.mapToGlobal(local),
                                               left if k == 0 else QtCore.Qt.MouseButton.NoButton,
                                               left, QtCore.Qt.KeyboardModifier.NoModifier))
        pump(app, 15)
    pump(app, 500)  # still held: the multisampled frame, the reason beside the handle
    win.save_screenshot(ASSETS / "screenshot-handle.png")
    win.close()


def teach_screenshot(app) -> None:
    """Go-to panel: a target under the tool, all eight analytic branches as ghosts."""
    win = window(app)
    t = win.teach
    t.program.load_from(ASSETS / "pick-and-place.prog")
    win.session.go_to_pose("qn")
    win.tasks.switch("teach")
    t.docks["target"].raise_()
    target = t.target
    target.fill_current(preview=False)
    x, y, z = (b.value() for b in target.boxes[:3])
    target.set_pose([x / 1000 - 0.1, y / 1000 + 0.25, z / 1000 + 0.15],
                    [0.0, 1.5707963, 0.0])
    pump(app, 800)
    win.save_screenshot(ASSETS / "screenshot-teach.png")
    win.close()


def robots_grid(app) -> None:
    from robogui.app.view.render import render_robot

    names = ["stanford", "panda", "puma560akb", "scara"]
    tiles = [render_robot(_load(n), None, view="iso", size=(800, 600)) for n in names]
    out = QtGui.QImage(1600, 1200, QtGui.QImage.Format.Format_RGB32)
    p = QtGui.QPainter(out)
    for k, img in enumerate(tiles):
        p.drawImage((k % 2) * 800, (k // 2) * 600, img)
    p.end()
    out.save(str(ASSETS / "robots.png"))


def demo_gif(app) -> None:
    """The README's GIF, as ``robogui render --trajectory assets/puma560-demo.csv --fps 12
    --size 480x360 --overlay time -o assets/puma560-demo.gif`` makes it."""
    from robogui.app.view.render import render_video
    from robogui.session.motion.trajectories import load_trajectory_csv
    from robogui.session.video import Overlays

    robot = _load("puma560")
    traj = load_trajectory_csv(ASSETS / "puma560-demo.csv", robot)
    render_video(robot, traj, ASSETS / "puma560-demo.gif", fps=12, size=(480, 360),
                 overlays=Overlays(time=True))


def urdf_screenshot(app) -> None:
    """The Franka Panda URDF of example-robot-data with its meshes, in the Drive task."""
    from importlib.metadata import distribution

    import numpy as np

    from robogui.app.shell.main_window import MainWindow
    from robogui.app.shell.settings import Settings
    from robogui.io.robotfile import load_robot
    from robogui.session import Session

    urdf = Path(distribution("example-robot-data").locate_file(
        "cmeel.prefix/share/example-robot-data/robots")) / "panda_description/urdf/panda.urdf"
    robot = load_robot(urdf, tip="panda_hand")
    ini = Path(tempfile.mkdtemp()) / "robogui.ini"
    settings = Settings(QtCore.QSettings(str(ini), QtCore.QSettings.Format.IniFormat))
    win = MainWindow(Session(robot), settings=settings, restore=False, autosave_path=False)
    win.set_origin(str(urdf))
    win.resize(1600, 1000)
    win.show()
    pump(app, 600)
    win.session.set_q(np.radians([20, -20, 0, -125, 0, 110, 45]))
    win.session.gripper.set_opening(0.75)  # the fingers apart (the Gripper row)
    win.view.fit_to_robot()
    pump(app, 800)
    win.save_screenshot(ASSETS / "screenshot-urdf-panda.png")
    win.close()


def cell_screenshot(app) -> None:
    """The sample work cell as ``robogui --demo`` opens it, its program checked onto the
    timeline and the playhead where the tool is over the part, in the Teach task."""
    from robogui.io.samples import demo_cell_files

    cell, program = demo_cell_files()
    win = window(app)
    win.cell_tools.open_at_start(cell)
    win.cell_tools.show_panel()
    win.tasks.switch("teach")
    win.teach.program.load_from(program)
    win.teach.docks["program"].raise_()
    win.teach.program.check()
    pump(app, 1500)  # compiled and loaded onto the timeline
    s = win.session
    if s.trajectory is not None:  # the playhead where the tool is nearest above the part
        import numpy as np

        T = s.cell.base @ s.robot.fkine(np.asarray(s.trajectory.q))
        part = np.array(s.cell.object("part").xyz)
        gap = np.linalg.norm(T[:, :2, 3] - part[:2], axis=1) + 0.2 * np.abs(
            T[:, 2, 3] - part[2] - 0.15)
        s.set_time(float(np.asarray(s.trajectory.t)[int(np.argmin(gap))]), changing=False)
    win.resizeDocks([win.cell_tools.dock], [400], QtCore.Qt.Orientation.Vertical)
    win.view.set_camera(azimuth=-62.0, elevation=24.0)
    win.view.fit_to_robot()
    win.cell_tools.panel.select("part")  # the handle sits on the part
    pump(app, 800)
    win.save_screenshot(ASSETS / "screenshot-cell.png")
    win.close()


#: (picture name, how to find the file among the installed robots) of the arms in the
#: README's gallery: (catalogue source, file name)
ARM_SHOTS = [("ur5", "example-robot-data", "ur5_robot.urdf"),
             ("panda", "example-robot-data", "panda.urdf"),
             ("kuka-kr5-xacro", "rtb-data", "kr5_arc.xacro"),
             ("mjcf-jaco", "dm_control", "jaco_arm.xml")]
ARM_SIZES = [(1600, 1000), (1280, 800)]
IMAGES = ROOT / "docs" / "images"


def arm_screenshots(app, names=None) -> list[Path]:
    """docs/images/arm-<name>-<w>x<h>.png: each arm of ARM_SHOTS as it opens in the app
    (File > Robot gallery's catalogue finds the file; the start pose and view a user gets),
    at each of ARM_SIZES, through the window's own save_screenshot."""
    from robogui.app.files.gallery import open_in_window
    from robogui.io.robot_catalogue import find_robots

    entries = find_robots(sources=("example-robot-data", "rtb-data", "dm_control"))
    IMAGES.mkdir(parents=True, exist_ok=True)
    written = []
    for shot, source, filename in ARM_SHOTS:
        if names and shot not in names:
            continue
        found = [e for e in entries if e.source == source and e.path.name == filename]
        if not found:
            print(f"make_screenshots: {filename} of {source} is not installed; skipped")
            continue
        for size in ARM_SIZES:
            win = window(app, "twolink", size)
            problem = open_in_window(win, found[0])
            if problem is not None:
                raise SystemExit(f"make_screenshots: {found[0].path}: {problem}")
            pump(app, 1200)
            out = IMAGES / f"arm-{shot}-{size[0]}x{size[1]}.png"
            win.save_screenshot(out)
            written.append(out)
            win.close()
    return written


def ur3_screenshot(app) -> None:
    """The UR3 of example-robot-data: its COLLADA materials' ambient, diffuse and specular
    terms (blue caps, grey joints and tubes)."""
    from importlib.metadata import distribution

    import numpy as np

    urdf = Path(distribution("example-robot-data").locate_file(
        "cmeel.prefix/share/example-robot-data/robots")) / "ur_description/urdf/ur3_robot.urdf"
    win = window(app, str(urdf))
    win.session.set_q(np.radians([30, -60, 90, -120, -90, 0]))
    win.view.fit_to_robot()
    pump(app, 800)
    win.save_screenshot(ASSETS / "screenshot-urdf-ur3.png")
    win.close()


def _load(name):
    from robogui.io.robotfile import load_robot

    return load_robot(name)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from robogui.app.shell.main_window import create_app

    PICTURES = {"main": main_screenshot, "teach": teach_screenshot,
                "handle": handle_screenshot, "urdf": urdf_screenshot, "ur3": ur3_screenshot,
                "cell": cell_screenshot,
                "robots": robots_grid, "gif": demo_gif}
    app = create_app([])
    if sys.argv[1:2] == ["arms"]:  # only the arm gallery: make_screenshots.py arms [NAME...]
        print("wrote", ", ".join(p.name for p in arm_screenshots(app, sys.argv[2:])))
        raise SystemExit(0)
    unknown = set(sys.argv[1:]) - set(PICTURES)
    if unknown:
        raise SystemExit(f"make_screenshots: unknown {sorted(unknown)}; names: arms, "
                         f"{', '.join(PICTURES)}")
    for name, make in PICTURES.items():
        if not sys.argv[1:] or name in sys.argv[1:]:
            make(app)
    if not sys.argv[1:]:
        arm_screenshots(app)
    print("wrote", ", ".join([*(p.name for p in sorted(ASSETS.glob("*.png"))), "puma560-demo.gif"]))
