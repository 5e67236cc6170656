"""The work cell's files in the app: File > Open cell, Save cell, Save cell as, recent
cells, Close cell, and the cell's autosave.

Opening a cell is one undo step: the robot the cell names (``robot = ...``: a file
relative to the cell file, else a library name) is opened first when it is not the one
shown, then the cell replaces the current one. A cell file that does not read
(:class:`~robogui.session.planning_scene.cell_file.CellFileError`, naming the file, line
and field) is reported and nothing changes; a robot that does not open leaves the cell
unopened too. Saving copies meshes from outside the file's folder into
``<name>-meshes/`` beside it, since a cell file may only name meshes in its own folder tree.

The autosave works as the teach program's: edits mark the cell dirty, a one-second timer
writes it atomically at most every 3 s (:class:`~robogui.session.planning_scene.
cell_autosave.CellAutosaver`), opening or saving a file marks it saved; at start-up an
autosave newer than the last save is offered back (File > Restore autosaved cell).
"""

from __future__ import annotations

import contextlib
import shutil
import time
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from robogui.session.planning_scene.cell_autosave import CellAutosaver, recover_cell
from robogui.session.planning_scene.cell_file import (
    CELL_SUFFIX,
    CellFileError,
    load_cell,
    save_cell,
)
from robogui.session.planning_scene.edits import meshes_beside

from .. import undo
from ..bindings import Subscriptions

__all__ = ["CellFiles", "CELL_FILTER", "cell_robot"]

CELL_FILTER = f"robogui cell (*{CELL_SUFFIX});;All files (*)"


def cell_robot(cell, cell_path) -> str | None:
    """What to open for the robot ``cell`` names: a file beside the cell file (the name
    taken relative to it) when there is one, else the name itself (a library robot); None
    when the cell names no robot."""
    if not cell.robot:
        return None
    near = (Path(cell_path).resolve().parent / cell.robot)
    return str(near) if near.is_file() else cell.robot


class CellFiles(QtCore.QObject):
    """File actions of the work cell for one window.

    ``open_robot(name_or_path) -> bool`` opens a robot as the window does (errors shown);
    ``robot_origin() -> (library name, file path)`` says where the current robot came from;
    ``status(text)`` writes to the status bar; ``autosave_path``: where the cell is
    autosaved (None: no autosave).
    """

    def __init__(self, session, settings, *, open_robot, robot_origin, error_presenter,
                 status=None, autosave_path=None, parent=None):
        super().__init__(parent)
        self.session, self.settings = session, settings
        self.open_robot, self.robot_origin = open_robot, robot_origin
        self.error_presenter = error_presenter
        self.status = status or (lambda text: None)
        self.path: Path | None = None
        self._quiet = 0  # loading or saving: not an edit to autosave
        self.autosaver = CellAutosaver(autosave_path) if autosave_path else None
        self.recovered = recover_cell(autosave_path) if autosave_path else None
        self._subs = Subscriptions(self)
        self._subs.connect(session.events.cell, self._on_cell)
        self._timer = None
        if self.autosaver is not None:
            self._timer = QtCore.QTimer(self)
            self._timer.setInterval(1000)
            self._timer.timeout.connect(self.autosave_tick)
            self._timer.start()

    # -- opening ---------------------------------------------------------------------------
    def open_cell(self, path, *, with_robot: bool = True) -> bool:
        """Open the cell file ``path`` (and the robot it names, unless ``with_robot`` is
        False); one undo step. A bad file or robot is reported and the state stays as it
        was. True when opened."""
        path = Path(path)
        try:
            cell = load_cell(path)
        except CellFileError as exc:
            self.error_presenter("Cannot open the cell", str(exc))
            return False
        robot = cell_robot(cell, path)
        with undo.labelled(self.session, f"Open cell {path.name}"):
            if with_robot and robot is not None and not self._is_current_robot(robot):
                if not self.open_robot(robot):
                    return False
            self._quiet += 1
            try:
                self.session.set_cell(cell)
            except ValueError as exc:
                self.error_presenter("Cannot open the cell", f"{path}: {exc}")
                return False
            finally:
                self._quiet -= 1
        self._set_path(path)
        self.status(f"Opened cell {path.name} ({len(cell.objects)} objects)")
        return True

    def _is_current_robot(self, robot: str) -> bool:
        library_name, robot_path = self.robot_origin()
        if library_name is not None and robot == library_name:
            return True
        return robot_path is not None and Path(robot).is_file() and \
            Path(robot).resolve() == Path(robot_path).resolve()

    def open_dialog(self) -> bool:
        start = str(self.path.parent) if self.path else ""
        path, _ = QtWidgets.QFileDialog.getOpenFileName(None, "Open cell", start, CELL_FILTER)
        return bool(path) and self.open_cell(path)

    def _set_path(self, path: Path) -> None:
        self.path = Path(path).resolve()
        self.settings.add_recent_cell(self.path)
        if self.autosaver is not None:
            self.autosaver.mark_saved()

    def fill_recent(self, menu: QtWidgets.QMenu) -> None:
        """Fill ``menu`` with the recent cells (newest first)."""
        menu.clear()
        files = self.settings.recent_cells()
        for p in files:
            menu.addAction(Path(p).name, lambda p=p: self.open_cell(p)).setToolTip(p)
        menu.setEnabled(bool(files))

    def close_cell(self) -> None:
        """No cell any more (one undo step)."""
        if self.session.cell is not None:
            with undo.labelled(self.session, "Close cell"):
                self.session.set_cell(None)
            self.path = None

    # -- saving ------------------------------------------------------------------------------
    def save_to(self, path) -> bool:
        """Write the cell to ``path`` (meshes from elsewhere copied beside it); True if done."""
        cell = self.session.cell
        if cell is None:
            self.error_presenter("Cannot save the cell", "there is no cell: add an object "
                                 "in the Cell panel or open a cell first")
            return False
        path = Path(path)
        if not path.suffix:
            path = path.with_suffix(CELL_SUFFIX)
        try:
            to_write, copies = meshes_beside(cell, path)
            for src, dst in copies:
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)
            save_cell(to_write, path)
        except (OSError, ValueError) as exc:
            self.error_presenter("Cannot save the cell", f"{path}: {exc}")
            return False
        if copies:  # the cell now names the copies (not an edit: nothing to undo)
            manager = undo.manager_for(self.session)
            with manager.paused() if manager is not None else contextlib.nullcontext():
                self._quiet += 1
                try:
                    self.session.set_cell(to_write)
                finally:
                    self._quiet -= 1
        self._set_path(path)
        self.status(f"Saved cell {path}")
        return True

    def save(self) -> bool:
        return self.save_to(self.path) if self.path is not None else self.save_as_dialog()

    def save_as_dialog(self) -> bool:
        name = (self.session.cell.name if self.session.cell is not None else "") or "cell"
        start = str(self.path or Path.home() / f"{name}{CELL_SUFFIX}")
        path, _ = QtWidgets.QFileDialog.getSaveFileName(None, "Save cell as", start,
                                                        CELL_FILTER)
        return bool(path) and self.save_to(path)

    # -- autosave -------------------------------------------------------------------------------
    def _on_cell(self, cell) -> None:
        if self.autosaver is not None and not self._quiet:
            self.autosaver.mark_dirty(cell)

    def autosave_tick(self, now: float | None = None) -> bool:
        """Write the dirty cell if it is due; errors go to the status bar. True if written."""
        if self.autosaver is None:
            return False
        try:
            return self.autosaver.maybe_save(time.monotonic() if now is None else now)
        except (OSError, ValueError) as exc:
            self.status(f"Autosave of the cell failed: {exc}")
            return False

    def restore_recovered(self) -> bool:
        """Put the autosaved cell back (one undo step); True when there was one."""
        cell, self.recovered = self.recovered, None
        if cell is None:
            return False
        with undo.labelled(self.session, "Restore autosaved cell"):
            self.session.set_cell(cell)
        self.status("Restored the autosaved cell (not saved to a file yet)")
        return True

    def close(self) -> None:
        """The window closes: write what is not autosaved yet, stop the timer."""
        if self._timer is not None:
            self._timer.stop()
        if self.autosaver is not None:
            try:
                self.autosaver.save_now()
            except (OSError, ValueError):
                pass
