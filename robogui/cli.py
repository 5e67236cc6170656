"""Command line: ``robogui`` opens the window; subcommands work without it.

    robogui                                   # Puma 560 at qr
    robogui --robot stanford --q qz           # another library robot, pose by name
    robogui --robot my_arm.toml --q=0,0.5,-0.5 --view front
    robogui --robot arm.urdf --tip tool0 --package-path ~/ros/src   # URDF / xacro / MJCF
    robogui render --robot puma560 --q qr --view iso --size 1600x1200 -o out.png
    robogui render --robot puma560 --trajectory move.csv --fps 25 -o move.mp4   # or .gif
    robogui export prog.prog --robot puma560 --to rapid -o prog.mod   # urscript, rapid, krl
    robogui --listen            # remote API on ws://127.0.0.1:8765 (docs/remote-api.md)

Qt is imported only when a command needs it, so ``robogui --help`` (and future
headless commands) start quickly and run without a display.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

import numpy as np

from robogui import __version__

__all__ = ["main", "build_parser", "parse_q", "parse_size", "parse_listen",
           "no_display_message"]

ROBOT_DEFAULT = "puma560"
#: largest picture or video side (px)
MAX_SIDE = 8192
LISTEN_PORT = 8765  # robogui --listen without a port
LOOPBACK = "127.0.0.1"
VIEWS = ("iso", "front", "side", "top")


def parse_q(robot, text: str | None, deg: bool = False) -> np.ndarray | None:
    """Joint vector from a pose name (``qr``) or comma-separated values.

    Values are radians / metres; with ``deg`` revolute values are degrees. None -> None
    (the robot's default pose). Raises ValueError with a readable message.
    """
    if text is None:
        return None
    text = text.strip()
    if text in robot.poses:
        return robot.pose(text)
    parts = [p for p in text.replace(" ", ",").split(",") if p]
    try:
        values = np.array([float(p) for p in parts])
    except ValueError:
        known = ", ".join(robot.poses) or "none"
        raise ValueError(f"--q must be a pose name ({known}) or {robot.n} comma-separated "
                         f"numbers, got {text!r}") from None
    if values.shape != (robot.n,) or not np.all(np.isfinite(values)):
        raise ValueError(f"--q needs {robot.n} finite values for {robot.name!r}, "
                         f"got {len(values)}: {text!r}")
    if deg:
        rev = np.array([L.joint == "R" for L in robot.links])
        values = np.where(rev, values * math.pi / 180.0, values)
    return values


def parse_size(text: str) -> tuple[int, int]:
    """``"1600x1200"`` -> (1600, 1200)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT, got {text!r}") from None
    if w < 16 or h < 16 or w > MAX_SIDE or h > MAX_SIDE:
        raise argparse.ArgumentTypeError(f"size must be between 16 and {MAX_SIDE} pixels a "
                                         f"side, got {text!r}")
    from robogui.engine.limits import ENV, limits

    need = w * h * 4 * 4  # RGBA: GL colour buffer, depth, the QImage, the frame array
    if need > limits().memory:
        raise argparse.ArgumentTypeError(
            f"{w}x{h} needs about {need / 2**20:.0f} MiB, more than the memory limit of "
            f"{limits().memory / 2**20:.0f} MiB (raise it with {ENV['memory']}=MIB)")
    return w, h


def parse_listen(text: str) -> tuple[str, int]:
    """``--listen`` value -> (address, port): ``PORT`` binds the loopback address only;
    ``ADDRESS:PORT`` (``[v6]:PORT`` for IPv6) binds the address given. Port 0: any free one."""
    host, _, port_text = text.rpartition(":")
    host = host.strip("[]") or LOOPBACK
    try:
        port = int(port_text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"--listen takes PORT or ADDRESS:PORT (port 0-65535), "
                                         f"got {text!r}")
    return host, port


def _mag(text: str) -> float:
    v = _positive_float(text)
    if not 0.1 <= v <= 10:
        raise argparse.ArgumentTypeError(f"must lie between 0.1 and 10, got {text!r}")
    return v


def _bounded(lo: float, hi: float):
    """An argparse type: a finite number in [lo, hi] (argparse names the option)."""
    def parse(text: str) -> float:
        v = _positive_float(text)
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"must lie between {lo:g} and {hi:g}, got {text!r}")
        return v
    return parse


def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not (math.isfinite(v) and v > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return v


def _robot_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--robot", default=None, metavar="NAME|FILE",
                   help="library robot name or robot file (default: the window reopens the "
                        "robot you had last, puma560 the first time; render: puma560)")
    p.add_argument("--q", metavar="POSE|VALUES",
                   help="pose name (qz, qr, ...) or comma-separated joint values in rad/m; "
                        "write --q=-0.5,1,... when the first value is negative")
    p.add_argument("--deg", action="store_true", help="--q values of revolute joints in degrees")
    p.add_argument("--tip", metavar="LINK", help="URDF/xacro/MJCF: the chain's last link "
                   "(MJCF: body or site; default: the arm's flange)")
    p.add_argument("--package-path", action="append", default=[], metavar="DIR|NAME=DIR",
                   help="URDF/xacro: where package://NAME and $(find NAME) are (repeatable; "
                        "searched after the file's ancestor folders, before ROS_PACKAGE_PATH)")
    p.add_argument("--xacro-arg", action="append", default=[], metavar="NAME:=VALUE",
                   help="xacro: the value of $(arg NAME) (repeatable), e.g. "
                        "--xacro-arg ur_type:=ur5e")
    p.add_argument("--view", choices=VIEWS, default=None,
                   help="camera preset (default iso; the window: its start view, iso looking "
                        "down more steeply on a robot too flat to fill half the view)")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="robogui",
                                description="Robot-arm visualiser and teach pendant.")
    p.add_argument("--version", action="version", version=f"robogui {__version__}")
    _robot_args(p)
    p.add_argument("--size", type=parse_size, metavar="WxH", help="window size")
    p.add_argument("--program", metavar="PROG", help="teach program (.prog) to open")
    p.add_argument("--trajectory", metavar="CSV",
                   help="trajectory to load on the timeline (CSV: t, q1..qn[, qd.., qdd..])")
    p.add_argument("--time", type=float, metavar="SECONDS",
                   help="start with the playhead at this time of the --trajectory")
    p.add_argument("--screenshot", metavar="PNG", help="save a screenshot of the window once shown")
    p.add_argument("--quit-after-screenshot", action="store_true",
                   help="quit after saving the --screenshot")
    p.add_argument("--report-first-frame", action="store_true",
                   help="print the wall-clock time of the first rendered frame and quit "
                        "(used by benchmarks/bench_app.py)")
    p.add_argument("--no-restore", action="store_true",
                   help="ignore the saved window layout")
    p.add_argument("--listen", nargs="?", type=parse_listen, const=(LOOPBACK, LISTEN_PORT),
                   metavar="[ADDRESS:]PORT",
                   help=f"serve the remote API (docs/remote-api.md) on ws://{LOOPBACK}:PORT "
                        f"(default port {LISTEN_PORT}; 0: a free one); only on the loopback "
                        "address unless ADDRESS is given. Prints the session's token and "
                        "writes it to a runtime file only you can read")
    p.add_argument("--token-file", metavar="FILE",
                   help="with --listen: write the runtime file (address, port, token; mode "
                        "0600) here instead of the runtime folder")
    p.add_argument("--cell", metavar="CELL",
                   help="work cell (.cell) to open at start, with the robot it names unless "
                        "--robot is given (docs/cell-file-format.md)")
    p.add_argument("--demo", action="store_true",
                   help="open the sample work cell (a table, two bins and a part around a "
                        "Puma 560) and its pick-and-place program, which ship with robogui")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    r = sub.add_parser(
        "render", help="render a picture or a video of a robot without a window (no display "
                       "needed: see README, 'Pictures and videos')")
    _robot_args(r)
    r.add_argument("--size", type=parse_size, default=(1600, 1200), metavar="WxH",
                   help="picture or video frame size (default 1600x1200)")
    r.add_argument("--projection", choices=("perspective", "orthographic"), default="perspective")
    r.add_argument("--noa", action="store_true", help="label the tool axes N, O, A")
    r.add_argument("--no-shadow", action="store_true")
    r.add_argument("--frames", action="store_true", help="draw every link frame")
    r.add_argument("--mag", type=_mag, default=1.0, metavar="FACTOR",
                   help="annotation size (joints, axes, labels) times FACTOR, as r6's plot "
                        "'mag' (default 1; 0.1 to 10)")
    r.add_argument("--trajectory", metavar="CSV", help="render this trajectory as a video")
    r.add_argument("--program", metavar="PROG",
                   help="render this teach program's compiled trajectory as a video")
    r.add_argument("--fps", type=_bounded(0.01, 1000.0), default=30.0,
                   help="video frames per second (default 30)")
    r.add_argument("--speed", type=_bounded(1e-3, 1e3), default=1.0,
                   help="playback rate: trajectory seconds per video second (default 1)")
    r.add_argument("--strict", action="store_true",
                   help="fail (exit 1) when the loader warns: a refused or broken mesh, a "
                        "dropped visual, --q beyond the joint limits")
    r.add_argument("--time", type=float, metavar="SECONDS",
                   help="with --trajectory/--program and a picture: the robot at this time")
    r.add_argument("--overlay", default="", metavar="LIST",
                   help="comma-separated video overlays: time, q, torque, trail (the "
                        "tool path)")
    r.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="picture (.png, .jpg), video (.mp4, .webm, .gif) or image sequence "
                        "(a folder/ or a name with %%04d)")

    c = sub.add_parser(
        "check", help="check a teach program for collisions with itself and a work cell, "
                      "continuously (exit 1 on contact, 0 when clear, 2 on a bad file)")
    c.add_argument("program", metavar="PROGRAM", help="teach program (.prog)")
    c.add_argument("--robot", metavar="NAME|FILE",
                   help="library robot name or robot file (default: the cell's robot, else "
                        "puma560)")
    c.add_argument("--tip", metavar="LINK", help="URDF/xacro: the chain's last link")
    c.add_argument("--package-path", action="append", default=[], metavar="DIR|NAME=DIR",
                   help="URDF/xacro: where package://NAME and $(find NAME) are")
    c.add_argument("--cell", metavar="CELL", help="work cell (.cell); without it the robot is "
                   "checked against itself only")
    c.add_argument("--json", action="store_true", help="print the result as JSON")

    e = sub.add_parser(
        "export", help="write a teach program as URScript, ABB RAPID or KUKA KRL (see "
                       "docs/robot-languages.md)")
    e.add_argument("program", metavar="PROGRAM", help="teach program (.prog)")
    e.add_argument("--robot", default=ROBOT_DEFAULT, metavar="NAME|FILE",
                   help="library robot name or robot file the program runs on (default: "
                        "puma560)")
    e.add_argument("--tip", metavar="LINK", help="URDF/xacro: the chain's last link")
    e.add_argument("--package-path", action="append", default=[], metavar="DIR|NAME=DIR",
                   help="URDF/xacro: where package://NAME and $(find NAME) are")
    e.add_argument("--to", required=True, choices=("urscript", "rapid", "krl"),
                   help="robot language")
    e.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="file to write (.script, .mod; KRL writes FILE.src and FILE.dat, the "
                        "stem made a KRL name)")

    # its options are parsed by robogui.io.legacy.robmat itself (see main)
    sub.add_parser("robmat", add_help=False,
                   help="SpaceLib Rob_Mat: positions, velocities, accelerations and joint "
                        "actions of ROBOT.DAT along MOTION.MOT (robogui robmat -h)")
    sub.add_parser("elbow", add_help=False,
                   help="SpaceLib's Elbow robot programs: direct kinematics (D-H or parallel "
                        "frames) and inverse kinematics by Newton (robogui elbow -h)")

    return p


def _load(args) -> tuple[object, np.ndarray | None]:
    from robogui.io.robotfile import RobotFileError, load_robot

    if args.robot is None:
        args.robot = ROBOT_DEFAULT

    try:
        from robogui.io.ros.urdf import set_package_path, set_xacro_args
        from robogui.io.ros.xacro_expand import parse_xacro_args

        set_package_path(args.package_path)  # also for robots opened later in the app
        set_xacro_args(parse_xacro_args(args.xacro_arg))
        robot = load_robot(args.robot, tip=args.tip)
    except (RobotFileError, OSError, ValueError) as exc:
        # the library's words name its argument; on the command line it is the option
        raise SystemExit(f"robogui: {exc}".replace("(tip=...)", "with --tip NAME")) from None
    try:
        q = parse_q(robot, args.q, args.deg)
    except ValueError as exc:
        raise SystemExit(f"robogui: {exc}") from None
    return robot, q


def _check_output(output: str, kind: str) -> None:
    """A clear error before rendering when the output's folder is missing or read-only."""
    p = Path(output)
    folder = p if kind == "sequence" and "%" not in p.name and "{" not in p.name else p.parent
    folder = folder if str(folder) else Path(".")
    probe = folder if folder.exists() or kind != "sequence" else folder.parent
    if not probe.exists():
        raise SystemExit(f"robogui: {output}: the folder {probe} does not exist")
    if not probe.is_dir():
        raise SystemExit(f"robogui: {output}: {probe} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise SystemExit(f"robogui: {output}: the folder {probe} is read-only")


def _loader_warnings(robot, q, strict: bool, program: str | None = None) -> None:
    """Print what the loader warns about on stderr (as the app shows it and as Check
    says it); --strict fails."""
    from robogui.session.geometry.visual_meshes import load_visuals

    warnings = list(load_visuals(robot).warnings) if robot.visuals else []
    if program:
        from robogui.session.teach.program_file import load_program

        try:
            mismatch = load_program(program).robot_mismatch(robot)
        except (OSError, ValueError):
            mismatch = None  # load_motion said what is wrong with the file already
        if mismatch:
            warnings.append(f"{program}: {mismatch}")
    if q is not None and getattr(robot, "qlim", None) is not None:
        qlim = np.asarray(robot.qlim, float)
        qq = np.asarray(q, float).ravel()
        if qlim.shape == (qq.size, 2):
            out = [k for k in range(qq.size) if not qlim[k, 0] - 1e-9 <= qq[k] <= qlim[k, 1] + 1e-9]
            if out:
                warnings.append("--q is beyond the joint limits of joint(s) "
                                + ", ".join(str(k + 1) for k in out[:12]))
    for text in warnings[:50]:
        print(f"robogui: warning: {text}", file=sys.stderr)
    if len(warnings) > 50:
        print(f"robogui: warning: ... and {len(warnings) - 50} more", file=sys.stderr)
    if strict and warnings:
        raise SystemExit(f"robogui: --strict: {len(warnings)} warning(s); nothing written")


def _render(args) -> int:
    from robogui.app.view.headless import configure_headless_gl
    from robogui.io.video import video_kind

    robot, q = _load(args)
    from robogui.session.session import DisplayOptions

    try:
        kind = video_kind(args.output)
        overlays = _parse_overlays(args.overlay)
    except ValueError as exc:
        raise SystemExit(f"robogui: {exc}") from None
    moving = args.trajectory is not None or args.program is not None
    if kind != "still" and not moving:
        raise SystemExit(f"robogui: {args.output} is a video; give --trajectory or --program")
    if kind == "still" and moving and args.time is None:
        raise SystemExit(f"robogui: {args.output} is a picture; give --time for the robot at "
                         "one time of the trajectory, or write .mp4, .webm, .gif or an image "
                         "sequence to render all of it")
    if args.time is not None and (kind != "still" or not moving):
        raise SystemExit("robogui: --time picks one moment of --trajectory/--program for a "
                         "picture (.png, .jpg)")
    motion = None
    if moving:
        from robogui.session.video import load_motion, pose_at

        try:
            motion = load_motion(robot, trajectory=args.trajectory, program=args.program)
            if args.time is not None:
                q, motion = pose_at(motion, args.time), None
        except (OSError, ValueError) as exc:
            raise SystemExit(f"robogui: {exc}") from None
    _check_output(args.output, kind)
    _loader_warnings(robot, q if motion is None else None, args.strict, args.program)
    display = DisplayOptions(projection=args.projection, show_shadow=not args.no_shadow,
                             wrist_labels="noa" if args.noa else "xyz",
                             show_link_frames=args.frames, mag=args.mag)
    try:
        headless = configure_headless_gl()  # before Qt: no display -> EGL without a window
    except RuntimeError as exc:
        raise SystemExit(f"robogui: {exc}") from None
    if headless:
        from robogui.app.view.headless import quiet_qt_messages

        quiet_qt_messages()
    from robogui.app.view import render  # Qt only from here on

    try:
        if motion is None:
            img = render.render_robot(robot, q, view=args.view or "iso", size=args.size,
                                      path=args.output, display=display)
            print(f"wrote {args.output} ({img.width()}x{img.height()})")
            return 0
        size = args.size
        count = render.render_video(robot, motion, args.output, fps=args.fps, speed=args.speed,
                                    size=size, view=args.view or "iso", display=display,
                                    overlays=overlays,
                                    progress=terminal_progress(f"rendering {args.output}"))
    except (OSError, ValueError, RuntimeError) as exc:
        raise SystemExit(f"robogui: {exc}") from None
    print(f"wrote {args.output} ({count} frames, {size[0]}x{size[1]}, {args.fps:g} fps)")
    return 0


def _export(args) -> int:
    from robogui.session.teach.export import export_program
    from robogui.session.teach.program_file import load_program

    args.q, args.deg = None, False
    robot, _ = _load(args)
    try:
        program = load_program(args.program)
        written = export_program(program, robot, args.to, args.output)
    except (OSError, ValueError) as exc:
        raise SystemExit(f"robogui: {exc}") from None
    mismatch = program.robot_mismatch(robot)
    if mismatch:
        print(f"robogui: note: {mismatch}", file=sys.stderr)
    print("wrote " + ", ".join(str(p) for p in written))
    return 0


def _parse_overlays(text: str):
    names = [t.strip() for t in text.split(",") if t.strip()]
    bad = [t for t in names if t not in ("time", "q", "torque", "trail")]
    if bad:
        raise ValueError(f"--overlay: unknown {', '.join(bad)}; choose from time, q, torque, "
                         "trail")
    from robogui.session.video import Overlays

    return Overlays(time="time" in names, q="q" in names, torque="torque" in names,
                    trail="trail" in names)


def _check(args) -> int:
    """``robogui check``: contacts along a program, continuously; 1 on contact, 0 clear."""
    import json
    from pathlib import Path

    from robogui.io.robotfile import RobotFileError, load_robot
    from robogui.io.ros.urdf import set_package_path
    from robogui.session.planning_scene.cell_file import load_cell
    from robogui.session.teach.compile import compile_program, cycle_time_line
    from robogui.session.teach.preflight import _move_index_per_sample, program_contacts
    from robogui.session.teach.program import ProgramError
    from robogui.session.teach.program_file import load_program

    def fail(message: str) -> int:
        print(f"robogui check: {message}", file=sys.stderr)
        return 2

    try:
        cell = load_cell(args.cell) if args.cell else None
        name = args.robot or (cell.robot if cell is not None and cell.robot else ROBOT_DEFAULT)
        if not args.robot and cell is not None and cell.robot:
            near = Path(args.cell).parent / cell.robot  # a path relative to the cell file
            name = str(near) if near.is_file() else cell.robot
        set_package_path(args.package_path)
        robot = load_robot(name, tip=args.tip)
        program = load_program(args.program)
        compiled = compile_program(program, robot, cell=cell)  # grasped parts ride the tool
    except (RobotFileError, ProgramError, OSError, ValueError) as exc:
        return fail(str(exc))
    errors = [p for p in compiled.problems if p.severity == "error"]
    if errors or compiled.trajectory is None:
        return fail(f"{args.program}: the program does not compile: "
                    f"{errors[0].message if errors else 'no trajectory'}")
    traj = compiled.trajectory
    report = program_contacts(robot, compiled, cell)
    move_of = _move_index_per_sample(compiled, len(traj.t))
    rows = [{"pair": list(c.pair), "t_start": c.t_start, "t_end": c.t_end,
             "t_deepest": c.t_deepest, "depth_m": c.depth,
             "move": None if move_of[c.index] is None else move_of[c.index] + 1}
            for c in report.contacts]
    if args.json:
        print(json.dumps({"program": str(args.program), "robot": robot.name,
                          "cell": args.cell, "clear": report.clear,
                          "duration_s": float(traj.t[-1] - traj.t[0]),
                          "cycle_time_s": float(compiled.cycle_time),
                          "checked_states": len(report.t), "max_step_m": report.max_step,
                          "contacts": rows}, indent=2))
    else:
        for r in rows:
            where = f"move {r['move']}" if r["move"] else "start"
            print(f"t = {r['t_start']:.3f}..{r['t_end']:.3f} s  {where}: {r['pair'][0]!r} hits "
                  f"{r['pair'][1]!r}, up to {r['depth_m'] * 1e3:.3g} mm deep at "
                  f"t = {r['t_deepest']:.3f} s")
        what = f"{len(rows)} contact(s)" if rows else "clear"
        print(f"{args.program}: {what} ({robot.name}"
              f"{', cell ' + str(args.cell) if args.cell else ', no cell'}; "
              f"{len(report.t)} states checked over {traj.t[-1] - traj.t[0]:.2f} s, no link "
              f"point moving more than {report.max_step * 1e3:.2f} mm between two)")
        print(cycle_time_line(compiled))
    return 1 if rows else 0


def terminal_progress(what: str, stream=None):
    """A ``progress(done, total)`` callback that keeps one line on a terminal up to date
    (``what: frame 12/250 (4 %)``, rewritten in place, at most once per percent), or None
    when ``stream`` (default stderr) is not a terminal: logs and pipes get only the
    final "wrote ..." line."""
    stream = sys.stderr if stream is None else stream
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    shown = [-1]

    def progress(done: int, total: int) -> None:
        pct = int(100 * done / max(total, 1))
        if pct == shown[0] and done != total:
            return
        shown[0] = pct
        stream.write(f"\r{what}: frame {done}/{total} ({pct} %)")
        if done == total:
            stream.write("\n")
        stream.flush()

    return progress


def no_display_message(env=None, platform: str | None = None) -> str | None:
    """One line saying why the window cannot open here, or None when it can.

    On Linux Qt's xcb (X11) platform needs ``DISPLAY`` and its wayland platform
    ``WAYLAND_DISPLAY``; without them Qt aborts with a misleading message (about
    xcb-cursor0) and a core dump. Other platforms chosen with ``QT_QPA_PLATFORM``
    (offscreen, eglfs, vnc, ...) are left alone.
    """
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux"):
        return None
    qpa = env.get("QT_QPA_PLATFORM", "").split(":")[0].split(";")[0].strip().lower()
    has_x, has_wayland = bool(env.get("DISPLAY")), bool(env.get("WAYLAND_DISPLAY"))
    if qpa in ("", "xcb"):
        can = has_x or (qpa == "" and has_wayland)  # Qt picks wayland itself when it runs
    elif qpa.startswith("wayland"):
        can = has_wayland
    else:
        can = True
    if can:
        return None
    return ("robogui: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not "
            "set); run it under a virtual X server, e.g. 'xvfb-run -a robogui', or make "
            "pictures and videos with 'robogui render' (see 'robogui render --help')")


def _gui(args) -> int:
    cell_robot = args.robot is None  # the cell's robot unless one was asked for
    if args.demo:
        from robogui.io.samples import DEMO_ROBOT, demo_cell_files

        try:
            cell, program = demo_cell_files()
        except FileNotFoundError as exc:
            raise SystemExit(f"robogui: --demo: {exc}") from None
        args.cell = args.cell or str(cell)
        args.program = args.program or str(program)
        if args.robot is None:
            args.robot = DEMO_ROBOT
    if args.time is not None and not args.trajectory:
        raise SystemExit("robogui: --time needs a --trajectory to move along")
    if args.token_file and not args.listen:
        raise SystemExit("robogui: --token-file goes with --listen")
    message = no_display_message()
    if message:  # before Qt is imported: Qt would abort the process
        raise SystemExit(message)
    # no robot asked for (nor a pose of one): the window reopens the last session's robot
    reopen_last = args.robot is None and args.q is None
    robot, q = _load(args)
    from robogui.session.session import Session

    session = Session(robot, q)
    from robogui.app.shell.main_window import run_app  # Qt only from here on

    return run_app(session, screenshot=args.screenshot,
                   quit_after_screenshot=args.quit_after_screenshot,
                   report_first_frame=args.report_first_frame, size=args.size,
                   view=args.view,
                   restore=not args.no_restore, library_name=args.robot,
                   program=args.program, trajectory=args.trajectory, time_s=args.time,
                   reopen_last=reopen_last, listen=args.listen,
                   token_file=args.token_file, cell=args.cell, cell_robot=cell_robot)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["robmat"]:
        from robogui.io.legacy.robmat import robmat_main

        return robmat_main(argv[1:])
    if argv[:1] == ["elbow"]:
        from robogui.io.legacy.elbow import elbow_main

        return elbow_main(argv[1:])
    args = build_parser().parse_args(argv)
    if args.command == "render":
        return _render(args)
    if args.command == "check":
        return _check(args)
    if args.command == "export":
        return _export(args)
    return _gui(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
