"""Teaching tools in the main window: D-H frames, chain panel, workspace, singularities,
File > New robot / Save robot as, and presentation mode.

:func:`install_teaching` adds them to a :class:`~robogui.app.shell.main_window.MainWindow`
(one call, so the window's own code stays small) and returns a :class:`Teaching` that
holds the pieces (``frames``, ``chain``, ``workspace``, ``singularity``, the actions).
"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from robogui.io.robotfile import save_robot
from robogui.session.explain.dh_edit import one_link_robot

from .. import undo
from ..panels.chain_panel import ChainPanel
from ..panels.singularity_panel import SingularityPanel
from ..panels.workspace_panel import WorkspacePanel
from ..view.dh_frames_item import DHFramesOverlay
from .presentation import Presentation

__all__ = ["Teaching", "install_teaching", "robot_file_filters"]

_AREA = QtCore.Qt.DockWidgetArea


def robot_file_filters() -> list[str]:
    """Save-as filters: robogui's TOML, and URDF when the io layer can write it."""
    filters = ["Robot file (*.toml)"]
    try:
        from robogui.io.ros import urdf_write  # save_robot(robot, "x.urdf") writes URDF

        if hasattr(urdf_write, "robot_to_urdf"):
            filters.append("URDF (*.urdf)")
    except ImportError:
        pass
    return filters


class Teaching:
    """The teaching tools of one main window (see the module docstring)."""

    def __init__(self, win, session):
        self.win, self.session = win, session
        view = win.view
        self.frames = DHFramesOverlay(view, session)
        win.dh_table.linkSelected.connect(self.frames.highlight)
        self.chain = ChainPanel(session, self.frames)
        self.workspace = WorkspacePanel(session, view)
        self.singularity = SingularityPanel(session, view)
        self.chain_dock = win.add_panel(self.chain, "Chain", _AREA.RightDockWidgetArea)
        self.workspace_dock = win.add_panel(self.workspace, "Workspace",
                                            _AREA.RightDockWidgetArea)
        self.singularity_dock = win.add_panel(self.singularity, "Singularity",
                                              _AREA.RightDockWidgetArea)
        for dock in (self.chain_dock, self.workspace_dock, self.singularity_dock):
            dock.hide()  # not tabified: tabs beside the pose dock raised the window's height
        self.chain.stepped.connect(self._on_step)
        self._frames_for_step = False  # stepping turned the D-H frames on
        # a closed panel leaves nothing of its own in the view (the step's triad, the cloud)
        # (on the next turn: restoring a layout, presentation mode, hides and shows docks
        # for a moment, which is no closing)
        self.chain_dock.visibilityChanged.connect(
            lambda _on: QtCore.QTimer.singleShot(0, self.chain, self._chain_shown))
        self.workspace_dock.visibilityChanged.connect(
            lambda _on: QtCore.QTimer.singleShot(0, self.workspace, lambda: (
                self.workspace.set_panel_open(not self.workspace_dock.isHidden()))))

        # D-H frames: off / all links / the selected link
        self.frame_group = QtGui.QActionGroup(win)
        self.frame_actions = {}
        for mode, text in (("off", "Off"), ("all", "All links"),
                           ("one", "Selected link only")):
            act = QtGui.QAction(text, win, checkable=True)
            act.setChecked(mode == "off")
            act.triggered.connect(lambda _=False, m=mode: self.frames.set_mode(m))
            self.frame_group.addAction(act)
            self.frame_actions[mode] = act
        self.act_new_robot = QtGui.QAction("&New robot (one link)", win)
        self.act_new_robot.triggered.connect(self.new_robot)
        self.act_save_robot = QtGui.QAction("Save robot &as\u2026", win)
        self.act_save_robot.triggered.connect(self.save_robot_dialog)
        self.presentation = Presentation(win, self)
        tasks = getattr(win, "tasks", None)
        if tasks is not None:  # Teach the class: the D-H frames on the model with the table
            tasks.changed.connect(
                lambda key: key == "class" and self.frames.mode == "off"
                and self.frame_actions["all"].trigger())
        self._build_menus()

    def _build_menus(self) -> None:
        win = self.win
        fm = win.file_menu
        first = fm.actions()[0] if fm.actions() else None
        fm.insertAction(first, self.act_new_robot)
        fm.insertAction(win.teach_menu_anchor, self.act_save_robot)
        robot_menu = next(a.menu() for a in win.menuBar().actions()
                          if a.text().replace("&", "") == "Robot")
        robot_menu.addSeparator()
        frames = robot_menu.addMenu("D-H &frames on the model")
        for act in self.frame_actions.values():
            frames.addAction(act)
        for dock, text, key in ((self.chain_dock, "Step through the &chain", "Ctrl+K"),
                                (self.workspace_dock, "&Workspace", None),
                                (self.singularity_dock, "&Singularity explained", None)):
            act = dock.toggleViewAction()
            act.setText(text)
            if key:
                act.setShortcut(QtGui.QKeySequence(key))
            act.triggered.connect(lambda on, d=dock: on and d.raise_())
            robot_menu.addAction(act)
        win.view_menu.addSeparator()
        win.view_menu.addAction(self.presentation.action)

    def _chain_shown(self) -> None:
        """The chain panel closed (or hidden by a task): stepping stops, its triad goes,
        and D-H frames the stepping turned on go off again."""
        if not self.chain_dock.isHidden() or self.chain.i == 0:
            return
        self.chain.go(0)
        if self._frames_for_step and self.frames.mode == "one":
            self.frame_actions["off"].trigger()
        self._frames_for_step = False

    def _on_step(self, i: int) -> None:
        if i > 0 and self.frames.mode == "off":
            self.frame_actions["one"].trigger()
            self._frames_for_step = True
        if i > 0:
            table = self.win.dh_table.table
            col = max(table.currentIndex().column(), 0)
            table.setCurrentIndex(table.model().index(i - 1, col))

    # -- robot files ------------------------------------------------------------------------
    def new_robot(self) -> None:
        """File > New robot: a one-link arm to build on in the D-H editor (one undo step)."""
        with undo.labelled(self.session, "New robot"):
            self.session.set_robot(one_link_robot())
        win = self.win
        win.library_name = win.robot_path = None
        win.show_origin()
        win.dh_dock.show()
        win.dh_dock.raise_()
        self.frame_actions["all"].trigger()

    def save_robot_as(self, path) -> Path:
        """Write the session's robot to ``path`` (.toml, or .urdf when supported)."""
        path = Path(path)
        if path.suffix.lower() not in (".toml", ".urdf"):
            path = path.with_suffix(".toml")
        saved = save_robot(self.session.robot, path)
        self.win.set_origin(saved)
        self.win.settings.add_recent(self.win.robot_path)
        return saved

    def save_robot_dialog(self) -> None:
        start = self.win.robot_path or f"{self.session.robot.name}.toml"
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self.win, "Save robot as", start, ";;".join(robot_file_filters()))
        if not path:
            return
        try:
            saved = self.save_robot_as(path)
            self.win.status.showMessage(f"saved {saved}", 4000)
        except (OSError, ValueError) as exc:
            self.win.error_presenter("Cannot save the robot", str(exc))

    def close(self) -> None:
        self.workspace.close_worker()
        self.frames.close()


def install_teaching(win, session) -> Teaching:
    """Add the teaching tools to ``win`` (a MainWindow following ``session``)."""
    return Teaching(win, session)
