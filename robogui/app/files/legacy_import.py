"""Legacy robot files in the app: ROBOOP ``.conf`` and SpaceLib Rob_Mat ``.DAT``/``.MOT``.

The File menu calls these functions (see :mod:`robogui.app.shell.menu_extras`). They never
raise on a bad file: the reader's message (which names the line and token) is shown
through ``present_error(title, text)`` and None is returned, so the current robot stays.
Questions the file cannot answer (which robot of several, standard or modified D-H for
a ``.conf`` without the ``DH`` key) go through ``choose(parent, title, label, items)``;
every presenter and chooser is injectable, so tests and scripts need no dialog.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PySide6 import QtWidgets

from robogui.engine.files import atomic_write_text
from robogui.engine.model.robot import Robot
from robogui.engine.trajectory.trajectory import Trajectory
from robogui.io.robotfile import RobotFileError, load_robot

from ..widgets.message_box import message_box, show_error

__all__ = ["open_legacy_robot", "load_robmat_motion", "open_robmat_motion", "export_roboop",
           "choose_item", "show_info", "ask_yes_no", "CONVENTION_CHOICES", "IMPORT_FILTER",
           "MOTION_FILTER", "CONF_FILTER"]

#: ``choose(parent, title, label, items) -> item or None`` (None: cancelled)
Chooser = Callable[[QtWidgets.QWidget | None, str, str, list], "str | None"]
#: ``present(title, text)``
Presenter = Callable[[str, str], None]

CONVENTION_CHOICES = ("Standard D-H (ROBOOP class Robot)",
                      "Modified D-H (ROBOOP class mRobot)")
IMPORT_FILTER = ("ROBOOP and Rob_Mat robots (*.conf *.CONF *.dat *.DAT);;"
                 "ROBOOP robot (*.conf *.CONF);;SpaceLib Rob_Mat robot (*.dat *.DAT);;"
                 "All files (*)")
MOTION_FILTER = "SpaceLib Rob_Mat motion (*.mot *.MOT);;All files (*)"
CONF_FILTER = "ROBOOP robot (*.conf);;All files (*)"
_FAILURES = (RobotFileError, OSError, ValueError)


# -- default dialogs ------------------------------------------------------------------------
def choose_item(parent, title: str, label: str, items: list) -> str | None:
    """A modal list choice (QInputDialog); None when cancelled."""
    item, ok = QtWidgets.QInputDialog.getItem(parent, title, label, list(items), 0, False)
    return item if ok else None


def show_info(parent, title: str, text: str) -> QtWidgets.QMessageBox:
    """A non-modal information box (nothing waits for it)."""
    return message_box(parent, QtWidgets.QMessageBox.Icon.Information, title, text,
                               "infoBox")


def ask_yes_no(parent, title: str, text: str) -> bool:
    """A modal yes/no question; True for yes."""
    answer = QtWidgets.QMessageBox.question(parent, title, text)
    return answer == QtWidgets.QMessageBox.StandardButton.Yes


def _presenters(parent, present_error, present_info):
    # 'is None', not 'or': a presenter may be a callable that is falsy (an empty log)
    err = present_error if present_error is not None else (
        lambda t, x: show_error(parent, t, x))
    inf = present_info if present_info is not None else (lambda t, x: show_info(parent, t, x))
    return err, inf


# -- robots -------------------------------------------------------------------------------------
def open_legacy_robot(parent, path, *, choose: Chooser | None = None,
                      present_error: Presenter | None = None,
                      present_info: Presenter | None = None,
                      notify: Callable[[str], None] | None = None) -> Robot | None:
    """Read a ROBOOP ``.conf`` or Rob_Mat ``.DAT`` robot (other files: ``load_robot``).

    Asks (``choose``) which robot to take when a .conf holds several, and standard or
    modified D-H when its section lacks the ``DH`` key. Reader warnings go to
    ``present_info`` (non-blocking); a short note (e.g. that Rob_Mat motions load as a
    trajectory) goes to ``notify(text)``. Returns the Robot, or None after showing the
    error (or when the user cancelled).
    """
    choose = choose_item if choose is None else choose
    show_err, show_inf = _presenters(parent, present_error, present_info)
    path = Path(path)
    suffix = path.suffix.lower()
    try:
        if suffix == ".conf":
            got = _read_conf(parent, path, choose)
            if got is None:
                return None
            robot, msgs = got
            note = f"imported ROBOOP robot {robot.name!r} ({robot.n} axes, " \
                   f"{'modified' if robot.is_mdh else 'standard'} D-H)"
        elif suffix == ".dat":
            from robogui.io.legacy.robmat import load_robmat_dat

            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                robot = load_robmat_dat(path)
            msgs = [str(w.message) for w in caught]
            motions = sorted(p.name for p in path.parent.glob(path.stem + ".*")
                             if p.suffix.lower() == ".mot")
            note = (f"imported Rob_Mat robot {robot.name!r} ({robot.n} axes); its motions "
                    "(.MOT) load as a trajectory with File > Load Rob_Mat motion"
                    + (f" (found {', '.join(motions)})" if motions else ""))
        else:
            robot, msgs, note = load_robot(path), [], f"opened {path.name}"
        robot, travel = _give_prismatic_travel(robot)
    except _FAILURES as exc:
        show_err("Cannot import robot", _message(exc, path))
        return None
    if travel:
        msgs = [*msgs, travel]
    if msgs:
        show_inf("Imported with warnings", f"{path.name}:\n\n" + "\n".join(
            f"\u2022 {m}" for m in msgs))
    if notify is not None:
        notify(note)
    return robot


def _give_prismatic_travel(robot: Robot) -> tuple[Robot, str | None]:
    """Limits for prismatic joints the file leaves without (Rob_Mat files have none; a
    .conf with theta_min = theta_max = 0 neither): the app's sliders and its initial pose
    need a travel. Returns the robot and a note saying what was assumed (or None)."""
    missing = [j for j, L in enumerate(robot.links) if L.joint == "P" and L.qlim is None]
    if not missing:
        return robot, None
    span = max(robot.reach, 0.5)  # the arm's length scale, in metres
    links = [L.replace(qlim=(-span, span)) if j in missing else L
             for j, L in enumerate(robot.links)]
    joints = ", ".join(str(j + 1) for j in missing)
    return robot.with_links(links), (
        f"the file gives no travel for prismatic joint{'s' if len(missing) > 1 else ''} "
        f"{joints}; assumed \u00b1{span:.3g} m (the arm's reach) for the sliders")


def _message(exc: Exception, path: Path) -> str:
    if isinstance(exc, OSError):
        return f"{path}: {exc.strerror or exc}"
    return str(exc)


def _read_conf(parent, path: Path, choose: Chooser):
    """(robot, warnings) from a .conf, asking what the file leaves open; None: cancelled."""
    from robogui.io.legacy.roboop import parse_conf, read_conf_text, read_roboop

    text = read_conf_text(path)  # LegacyFormatError for binary or non-UTF-8 files
    conf = parse_conf(text, path, strict=True)
    bases = [s for s, entries in conf.sections.items() if "dof" in entries]
    section = None
    if len(bases) > 1:
        labels = [f"{s}  ({conf.get(s, 'Name')[0]})" if conf.get(s, "Name") else s
                  for s in bases]
        picked = choose(parent, "Import ROBOOP robot",
                        f"{path.name} holds {len(bases)} robots; which one?", labels)
        if picked is None:
            return None
        section = bases[labels.index(picked)]
    elif bases:
        section = bases[0]
    mdh = None
    if section is not None and conf.get(section, "DH") is None:
        picked = choose(parent, "Import ROBOOP robot",
                        f"[{section}] in {path.name} does not say which D-H convention it "
                        "uses (no 'DH' key): ROBOOP takes it from the class the program "
                        "creates. Read it as:", list(CONVENTION_CHOICES))
        if picked is None:
            return None
        mdh = picked == CONVENTION_CHOICES[1]
    # a file without any robot section: read_roboop gives the precise message
    return read_roboop(path, section, mdh, text=text, strict=True)


# -- motions ------------------------------------------------------------------------------------
def load_robmat_motion(path, robot: Robot) -> Trajectory:
    """A Rob_Mat MOTION file (``.MOT``) as a Trajectory for ``robot``.

    The file holds the sample period ``dt`` and, per step, q, qd, qdd of every joint
    (rad, m; per s, per s^2). Rob_Mat's q is added to the DATA file's theta (revolute) or
    s (prismatic), which robogui keeps as the joint offset, so q carries over unchanged.
    Returns ``Trajectory(t = dt * arange(k), q, qd, qdd)`` with ``info`` holding ``dt``,
    ``source`` and the reader's ``warnings``. Raises LegacyFormatError for a bad file.
    """
    from robogui.io.legacy.robmat import read_mot

    mot = read_mot(path, nlink=robot.n)
    return Trajectory(mot.t, mot.q, mot.qd, mot.qdd, name=Path(path).stem,
                      info={"dt": mot.dt, "source": str(path), "warnings": list(mot.warnings)})


def open_robmat_motion(parent, path, robot: Robot, *, present_error: Presenter | None = None,
                       present_info: Presenter | None = None) -> Trajectory | None:
    """:func:`load_robmat_motion` with errors shown (None) and warnings reported."""
    show_err, show_inf = _presenters(parent, present_error, present_info)
    try:
        traj = load_robmat_motion(path, robot)
    except _FAILURES as exc:
        show_err("Cannot load motion", _message(exc, Path(path)))
        return None
    if traj.info["warnings"]:
        show_inf("Motion loaded with warnings", f"{Path(path).name}:\n\n" + "\n".join(
            f"\u2022 {m}" for m in traj.info["warnings"]))
    return traj


# -- export -------------------------------------------------------------------------------------
def export_roboop(parent, robot: Robot, path, *,
                  confirm: Callable[[QtWidgets.QWidget | None, str, str], bool] | None = None,
                  present_error: Presenter | None = None) -> Path | None:
    """Write ``robot`` as a ROBOOP ``.conf`` file (atomic); returns the path or None.

    A .conf file has no base or tool transform: for a robot with one, ``confirm(parent,
    title, text)`` (default: a yes/no box) decides whether to write it without them.
    """
    from robogui.io.legacy.roboop import robot_to_conf

    confirm = ask_yes_no if confirm is None else confirm
    show_err, _ = _presenters(parent, present_error, None)
    drop = False
    parts = [p for p, on in (("base", not np.array_equal(robot.base, np.eye(4))),
                             ("tool", not robot.tool_is_identity)) if on]
    if parts:
        if not confirm(parent, "Export as ROBOOP .conf",
                       f"A ROBOOP .conf file cannot hold a {' or '.join(parts)} transform. "
                       f"Write {robot.name} without its {' and '.join(parts)}?"):
            return None
        drop = True
    try:
        return atomic_write_text(path, robot_to_conf(robot, drop_base_tool=drop))
    except _FAILURES as exc:
        show_err("Cannot export robot", _message(exc, Path(path)))
        return None

