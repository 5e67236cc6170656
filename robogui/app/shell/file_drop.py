"""Files dropped on the window open as if chosen from the File menu.

A robot file (robogui TOML, URDF, xacro, MuJoCo MJCF, ROBOOP ``.conf``, Rob_Mat ``.dat``) opens as
File > Open robot does (tip chooser, legacy questions, recent files); a teach program
(``.prog``) and a trajectory (``.csv``) open in the Program dock and on the timeline. Several
files dropped together open robot first, then program, then trajectory, so a robot and
its program can be dropped in one go. A work cell (``.cell``) opens as File > Work cell >
Open cell does (after a robot, before a program); a mesh (STL, OBJ, DAE, glTF) becomes an
object of the cell, at the tool centre point, as the Cell panel's Add mesh does. A file of
any other kind is named in a message.

The 3D view is a separate native window inside the main window, so the drop is watched
on both (an event filter on the main window and on the view's QWindow).
"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtGui

from robogui.session.planning_scene.cell_file import CELL_SUFFIX
from robogui.session.planning_scene.edits import MESH_SUFFIXES

__all__ = ["FileDrop", "file_kind", "dropped_paths", "OPEN_ORDER"]

_SUFFIXES = {"robot": (".toml", ".urdf", ".xacro", ".xml", ".mjcf", ".conf", ".dat"),
             "cell": (CELL_SUFFIX,), "program": (".prog",), "trajectory": (".csv",),
             "mesh": MESH_SUFFIXES}
OPEN_ORDER = ("robot", "cell", "program", "trajectory", "mesh")


def file_kind(path: str | Path) -> str | None:
    """"robot", "cell", "program", "trajectory" or "mesh" by the file's suffix (any
    case); None if robogui does not open such files."""
    suffix = Path(path).suffix.lower()
    for kind, suffixes in _SUFFIXES.items():
        if suffix in suffixes:
            return kind
    return None


def dropped_paths(mime: QtCore.QMimeData | None) -> list[Path]:
    """The local files among the dragged URLs."""
    if mime is None or not mime.hasUrls():
        return []
    return [Path(u.toLocalFile()) for u in mime.urls() if u.isLocalFile()]


class FileDrop(QtCore.QObject):
    """Opens the files dropped on ``window`` (a MainWindow) or its 3D view."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        window.setAcceptDrops(True)
        window.installEventFilter(self)
        scene = getattr(window.view, "scene", None)
        if isinstance(scene, QtGui.QWindow):
            scene.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        t = event.type()
        if t in (QtCore.QEvent.Type.DragEnter, QtCore.QEvent.Type.DragMove):
            if any(file_kind(p) for p in dropped_paths(event.mimeData())):
                event.acceptProposedAction()
                return True
            return False
        if t == QtCore.QEvent.Type.Drop:
            paths = dropped_paths(event.mimeData())
            if not paths:
                return False
            event.acceptProposedAction()
            # after the drop returns: the tip chooser and message boxes are modal, and a
            # modal loop inside the drag source's drop would hold the other application
            QtCore.QTimer.singleShot(0, self, lambda: self.open(paths))
            return True
        return False

    def open(self, paths) -> dict[Path, bool]:
        """Open ``paths`` (robot, then program, then trajectory); returns what each did.
        Unknown kinds are named in one message and left alone."""
        win = self.window
        done: dict[Path, bool] = {}
        unknown = [Path(p) for p in paths if file_kind(p) is None]
        for kind in OPEN_ORDER:
            for p in (Path(p) for p in paths if file_kind(p) == kind):
                done[p] = self._open_one(kind, p)
        if unknown:
            names = ", ".join(p.name for p in unknown)
            win.error_presenter(
                "Cannot open the dropped file" + ("s" if len(unknown) > 1 else ""),
                f"{names}: robogui opens robot files (.toml, .urdf, .xacro, .xml, .mjcf, "
                ".conf, .dat), work cells (.cell), teach programs (.prog), trajectories "
                "(.csv) and meshes for the cell (" + ", ".join(MESH_SUFFIXES) + ")")
            done.update({p: False for p in unknown})
        return done

    def _open_one(self, kind: str, path: Path) -> bool:
        win = self.window
        if kind == "robot":
            return bool(win.open_robot(str(path)))
        cell = getattr(win, "cell_tools", None)
        if kind in ("cell", "mesh") and cell is not None:
            if kind == "cell":
                ok = cell.files.open_cell(path)
            else:
                ok = cell.panel.add("mesh", path) is not None
            if ok:
                cell.show_panel()
            return ok
        if win.teach is None:  # the viewer without the teach pendant
            win.error_presenter("Cannot open the dropped file",
                                f"{path.name}: this window has no teach pendant")
            return False
        if kind == "program":
            return bool(win.teach.program.load_from(str(path)))
        return bool(win.teach.timeline.load_csv(str(path)))
