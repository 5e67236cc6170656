"""The main window: 3D view in the centre, joint and pose panels in docks, menus.

The teach pendant (:mod:`robogui.app.teach`) adds the Jog, Go to and Program docks
(tabbed under the pose panel), the playback timeline directly under the 3D view, ghost
robots and the end-effector trail, and the Program and Trajectory menus. Other panels
join through :meth:`MainWindow.add_panel`; the bottom dock area is kept for the plots.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from robogui import __version__
from robogui.io.robotfile import list_robots
from robogui.session.explain.ellipse import ELLIPSOID_KINDS

from ..application import create_app  # noqa: F401  (re-exported: render, tests, cli)
from ..bindings import bind_checkbox, field_ref
from ..files import library
from ..files.gallery import install_gallery
from ..files.package_folders import install_package_folders
from ..interaction.view_tools import install_view_tools
from ..panels.dh_table import DHTable
from ..panels.joint_panel import JointPanel
from ..panels.mag_control import MagControl
from ..panels.pose_panel import PosePanel
from ..plots import install_plot_docks
from ..plots.docks import PLOT_DOCK_TITLES
from ..undo import UndoManager, install_edit_menu
from ..view.compare_layer import install_compare
from ..view.ellipsoid_item import EllipsoidOverlay
from ..view.view3d import CAMERA_PRESETS, RobotView
from ..widgets.docking import placeholder_dock
from .cell_menu import install_cell
from .file_drop import FileDrop
from .fullscreen import FullScreenView
from .live_collisions import install_live_collisions
from .menu_extras import install_symbolic_and_legacy_actions
from .robot_opening import RobotOpening
from .settings import Settings
from .tasks import TaskSwitcher
from .teaching import install_teaching
from .tooltips import install_tooltips

__all__ = ["MainWindow", "SHORTCUTS", "create_app", "run_app"]

SHORTCUTS = [
    ("Ctrl+O", "open a robot file"),
    ("Ctrl+Shift+O", "open a work cell (.cell)"),
    ("Ctrl+Shift+G", "robot gallery: every robot installed, searchable"),
    ("Ctrl+Shift+S", "save a screenshot of the window"),
    ("Ctrl+Z", "undo the last change (joints, tool, robot, program)"),
    ("Ctrl+Shift+Z / Ctrl+Y", "redo"),
    ("Ctrl+D", "show or hide the D-H table"),
    ("Space", "3D view / timeline: play or pause the trajectory"),
    ("Left / Right", "3D view / timeline: step the trajectory one sample"),
    ("Q/A W/S E/D", "jog panel: +-X, +-Y, +-Z (held: continuous mode)"),
    ("R/F T/G Y/H", "jog panel: +-Rx, +-Ry, +-Rz"),
    ("Ctrl+R", "record the current configuration as a waypoint"),
    ("1 / 2 / 3 / 4", "camera: iso, front, side, top"),
    ("Ctrl+1 / Ctrl+2 / Ctrl+3 / Ctrl+4",
     "task: Drive, Teach, Analyse, Teach the class (each keeps its own layout)"),
    ("F11", "full-screen 3D view with the TCP pose and q (F11 or Esc to leave)"),
    ("F", "fit the robot in the view"),
    ("O", "perspective / orthographic"),
    ("Up / Down", "joint panel: select a joint"),
    ("Left / Right", "joint panel: step the selected joint (Ctrl: fine step)"),
    ("Mouse: drag the tool handle", "arrow: move the TCP along it; ring: turn it about it; "
     "Shift: free move in the view plane"),
    ("Mouse: on a link", "hover: its joint; click: select it; drag or wheel on the selected "
     "link: move that joint; right click: menu"),
    ("Mouse: click a cell object", "choose it: the tool handle moves and turns it (click "
     "empty space: the handle goes back to the TCP)"),
    ("Mouse: left drag", "orbit (Ctrl: pan)"),
    ("Mouse: middle drag", "pan"),
    ("Mouse: wheel", "zoom (Ctrl: field of view)"),
    ("Ctrl+Q", "quit"),
]

_TOGGLES = [  # (display field, menu text)
    ("show_floor", "Floor grid"), ("show_shadow", "Shadow"), ("show_base", "Base pedestal"),
    ("show_links", "Links"), ("show_joints", "Joints"), ("show_wrist", "Tool frame axes"),
    ("show_link_frames", "Link frames"), ("show_name", "Robot name"),
    ("show_meshes", "Meshes (URDF robots; off: sticks)"),
]


class MainWindow(RobotOpening, QtWidgets.QMainWindow):
    """robogui's window around one :class:`~robogui.session.Session`.

    ``error_presenter(title, text)`` shows failures (default: a non-modal message box);
    ``settings`` is a :class:`Settings` (default: the user's QSettings).
    """

    def __init__(self, session, settings: Settings | None = None, error_presenter=None,
                 restore: bool = True, *, teach: bool = True, autosave_path=None,
                 defer_plots: bool = False):
        super().__init__()
        self.session = session
        self.settings = settings if settings is not None else Settings()
        self.error_presenter = error_presenter if error_presenter is not None else (
            lambda title, text: library.show_error(self, title, text))
        self.library_name: str | None = None
        self.robot_path: str | None = None
        self.setWindowTitle("robogui")
        self.setDockOptions(QtWidgets.QMainWindow.DockOption.AnimatedDocks
                            | QtWidgets.QMainWindow.DockOption.AllowTabbedDocks)
        self.setCorner(QtCore.Qt.Corner.BottomLeftCorner,
                       QtCore.Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(QtCore.Qt.Corner.BottomRightCorner,
                       QtCore.Qt.DockWidgetArea.RightDockWidgetArea)

        self.settings.load_display(session.display)
        self.view = RobotView(session)
        self.setCentralWidget(self.view)
        self.joint_panel = JointPanel(session)
        self.joint_panel.set_pose_store(self.settings)  # Save pose: per robot, in settings
        self.pose_panel = PosePanel(session)
        self.dh_table = DHTable(session)
        self.joint_dock = self.add_panel(self.joint_panel, "Joints",
                                         QtCore.Qt.DockWidgetArea.LeftDockWidgetArea)
        # in a scroll area: on a short window the joint rows above keep their room and
        # the readout scrolls instead of being cut
        pose_scroll = QtWidgets.QScrollArea()
        pose_scroll.setWidgetResizable(True)
        pose_scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        pose_scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        pose_scroll.setWidget(self.pose_panel)
        self.pose_dock = self.add_panel(pose_scroll, "Pose",
                                        QtCore.Qt.DockWidgetArea.RightDockWidgetArea)
        self.dh_dock = self.add_panel(self.dh_table, "D-H table",
                                      QtCore.Qt.DockWidgetArea.BottomDockWidgetArea)
        self.dh_dock.hide()
        self.joint_dock.setMinimumWidth(400)
        self.pose_dock.setMinimumWidth(280)
        self.teach = None
        if teach:
            from ..teach import install_teach_pendant

            self.teach = install_teach_pendant(
                self, session, autosave_path=(self._autosave_path() if autosave_path is None
                               else autosave_path),
                error_presenter=self.error_presenter)
        # every user-visible change of the session and the program is one undo step
        self.undo = UndoManager(session, self.teach.state if self.teach is not None else None,
                                self, get_origin=lambda: (self.library_name, self.robot_path),
                                set_origin=self._restore_origin)
        self.destroyed.connect(lambda *_, u=self.undo: u.close())
        # the plot docks exist from the start (placed, shown or hidden by the saved layout);
        # run_app builds their panels just after the first frame: a third of a second
        # the window need not wait for
        self.plot_docks = None
        bottom = QtCore.Qt.DockWidgetArea.BottomDockWidgetArea
        self.plot_placeholders = [placeholder_dock(self, title, bottom)
                                  for title in PLOT_DOCK_TITLES]
        for dock in self.plot_placeholders[1:]:
            self.tabifyDockWidget(self.plot_placeholders[0], dock)
        self.plot_placeholders[0].raise_()
        self._restore_layout = restore
        # after the view has attached: its rebuild on a robot change runs first
        self.ellipsoid = EllipsoidOverlay(self.view, session, kind=session.display.ellipsoid)
        session.display.events.ellipsoid.connect(self.ellipsoid.set_kind)
        self.view_tools = install_view_tools(self)  # tool handle, grabbing links, labels

        self._build_actions()
        self._build_menus()
        # plots on the first show unless run_app builds them after the first frame: docks
        # tabbed in a hidden window left a stray tab bar over the Program dock (Qt)
        self._plots_on_show = not defer_plots
        self.legacy_actions = install_symbolic_and_legacy_actions(self, session)
        self.act_gallery = install_gallery(self)  # File > Robot gallery
        self._build_toolbar()
        self.tasks = TaskSwitcher(self, self.settings)  # Drive / Teach / Analyse
        self.fullscreen = FullScreenView(self)  # F11
        self.view_menu.insertActions(self._task_menu_anchor,
                                     [*self.tasks.actions.values(), self.fullscreen.action])
        self.status = self.statusBar()
        self._robot_label = QtWidgets.QLabel()
        self.status.addPermanentWidget(self._robot_label)
        # a mesh that cannot be loaded: said in the status bar (the link is drawn as a stick)
        self.view.meshWarning.connect(self._mesh_warning)
        for text in getattr(self.view, "mesh_warnings", []):
            self._mesh_warning(text)
        # D-H frames, chain panel, workspace, singularities, presentation mode, New/Save robot
        self.teaching = install_teaching(self, session)
        self.file_drop = FileDrop(self)  # robot files, programs, trajectories dropped in
        self.cell_tools = install_cell(self)  # the work cell: view, Cell dock, File > Work cell
        self.live_collisions = install_live_collisions(self)  # contacts red, stop before contact
        # Settings > Package folders; a missing package's error offers to locate it
        self.package_folders = install_package_folders(self)
        session.events.robot.connect(self._on_robot)
        self.destroyed.connect(lambda *_: session.events.robot.disconnect(self._on_robot))
        self._on_robot(session.robot)
        self.resize(1500, 900)
        # True only when a saved layout was there and restored: restoreDockWidget on a
        # fresh configuration hid the plot docks
        self._restore_layout = bool(restore and self.settings.restore_window(self))
        if self.teach is not None and self.teach.recovery_offered:
            # an autosaved program to recover: open on Teach with the Program in front
            self.tasks.start(self._restore_layout, "teach", self.teach.docks["program"])
        else:
            self.tasks.start(self._restore_layout)
        install_tooltips(self)

    # -- panels ----------------------------------------------------------------------------
    def add_panel(self, widget: QtWidgets.QWidget, title: str,
                  area=QtCore.Qt.DockWidgetArea.BottomDockWidgetArea) -> QtWidgets.QDockWidget:
        """Dock ``widget`` with ``title`` (object name from the title, for saved layouts)."""
        dock = QtWidgets.QDockWidget(title, self)
        dock.setObjectName("dock_" + title.lower().replace(" ", "_").replace("-", ""))
        dock.setWidget(widget)
        dock.setFeatures(QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetFloatable
                         | QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, dock)
        return dock

    # -- actions and menus -------------------------------------------------------------------
    def _action(self, text, slot=None, shortcut=None, checkable=False, tip=None) -> QtGui.QAction:
        act = QtGui.QAction(text, self)
        if shortcut:
            act.setShortcut(QtGui.QKeySequence(shortcut))
        if checkable:
            act.setCheckable(True)
        if slot is not None:
            act.triggered.connect(slot)
        if tip:
            act.setStatusTip(tip)
        return act

    def _build_actions(self) -> None:
        d = self.session.display
        self.act_open = self._action("&Open robot file\u2026", self.open_robot_dialog,
                                     QtGui.QKeySequence.StandardKey.Open)
        self.act_screenshot = self._action("Save &screenshot\u2026", self.save_screenshot_dialog,
                                           "Ctrl+Shift+S")
        self.act_quit = self._action("&Quit", self.close, QtGui.QKeySequence.StandardKey.Quit)
        self.act_fit = self._action("&Fit to robot", self.view.fit_to_robot, "F")
        self.camera_actions = {}
        for k, name in enumerate(CAMERA_PRESETS, 1):
            self.camera_actions[name] = self._action(
                name.capitalize(), lambda _=False, n=name: self.set_view(n), str(k))
        self.projection_group = QtGui.QActionGroup(self)
        self.act_persp = self._action("&Perspective", checkable=True)
        self.act_ortho = self._action("&Orthographic", checkable=True)
        for a, kind in ((self.act_persp, "perspective"), (self.act_ortho, "orthographic")):
            self.projection_group.addAction(a)
            a.triggered.connect(lambda _=False, k=kind: setattr(d, "projection", k))
        self.act_toggle_projection = self._action(
            "Toggle projection", lambda: setattr(
                d, "projection",
                "orthographic" if d.projection == "perspective" else "perspective"), "O")
        d.events.projection.connect(self._sync_projection)
        self._sync_projection(d.projection)
        self.toggle_actions = {}
        for name, text in _TOGGLES:
            act = self._action(text, checkable=True)
            bind_checkbox(act, field_ref(d, name))
            self.toggle_actions[name] = act
        self.act_noa = self._action("Label tool axes NOA", checkable=True)
        self.act_noa.setChecked(d.wrist_labels == "noa")
        self.act_noa.toggled.connect(lambda on: setattr(d, "wrist_labels", "noa" if on else "xyz"))
        self.ellipsoid_group = QtGui.QActionGroup(self)
        self.ellipsoid_actions = {}
        for kind in ELLIPSOID_KINDS:
            act = self._action(kind.capitalize(), checkable=True)
            act.setChecked(d.ellipsoid == kind)
            act.triggered.connect(lambda _=False, k=kind: setattr(d, "ellipsoid", k))
            self.ellipsoid_group.addAction(act)
            self.ellipsoid_actions[kind] = act
        d.events.ellipsoid.connect(lambda k: self.ellipsoid_actions[k].setChecked(True))
        self.act_shortcuts = self._action("&Keyboard shortcuts", self.show_shortcuts, "F1")
        self.act_guide = self._action("&User guide", self.show_user_guide,
                                      tip="a tour of the window, shortcuts and file formats")
        self.act_about = self._action("&About robogui", self.show_about)

    def _sync_projection(self, kind: str) -> None:
        self.view.set_projection(kind)
        (self.act_persp if kind == "perspective" else self.act_ortho).setChecked(True)

    def _build_menus(self) -> None:
        mb = self.menuBar()
        m = mb.addMenu("&File")
        m.addAction(self.act_open)
        self.recent_menu = m.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._fill_recent()
        m.addSeparator()
        self.teach_menu_anchor = m.addSeparator()
        m.addAction(self.act_screenshot)
        m.addSeparator()
        m.addAction(self.act_quit)
        self.file_menu = m
        self.edit_menu = install_edit_menu(self, self.undo)

        m = mb.addMenu("&Robot")
        lib = m.addMenu("&Library")
        for name in list_robots():
            lib.addAction(name, lambda n=name: self.open_robot(n))
        m.addAction(self._action("Choose &tip link...", self.choose_tip,
                                 tip="where the arm of a URDF or MJCF file ends"))
        m.addSeparator()
        dh = self.dh_dock.toggleViewAction()
        dh.setText("Show &D-H table")
        dh.setShortcut(QtGui.QKeySequence("Ctrl+D"))
        dh.triggered.connect(lambda on: on and self.dh_dock.raise_())
        m.addAction(dh)

        m = mb.addMenu("&View")
        self._task_menu_anchor = m.addSeparator()  # the tasks (Drive, Teach, Analyse)
        cam = m.addMenu("&Camera")
        for act in self.camera_actions.values():
            cam.addAction(act)
        m.addAction(self.act_fit)
        m.addSeparator()
        m.addAction(self.act_persp)
        m.addAction(self.act_ortho)
        self.addAction(self.act_toggle_projection)
        m.addSeparator()
        show = m.addMenu("&Show")
        for act in self.toggle_actions.values():
            show.addAction(act)
        show.addSeparator()
        show.addAction(self.act_noa)
        self.mag_control = MagControl(self, self.session, m)  # r6 'mag' (seeds)
        self.compare = install_compare(self, m)  # several robots in one view (seeds)
        ell = m.addMenu("&Ellipsoid at the end effector")
        for act in self.ellipsoid_actions.values():
            ell.addAction(act)
        m.addSeparator()
        for dock in (self.joint_dock, self.pose_dock):
            m.addAction(dock.toggleViewAction())
        if self.teach is not None:
            for act in self.teach.view_actions():
                m.addAction(act)
            self._build_teach_menus(self.file_menu)
        self.view_menu = m  # the plot docks add theirs when they are built

        m = mb.addMenu("&Help")
        m.addAction(self.act_guide)
        m.addAction(self.act_shortcuts)
        m.addAction(self.act_about)

    def _build_teach_menus(self, file_menu: QtWidgets.QMenu) -> None:
        # File > Program and File > Trajectory (the top-level menus stay File, Robot, View, Help)
        t = self.teach
        m = QtWidgets.QMenu("Teach &program", file_menu)
        file_menu.insertMenu(self.teach_menu_anchor, m)
        m.addAction("&New program", t.program.new_program)
        m.addAction("&Open program\u2026", t.program.open_dialog)
        m.addAction("&Save program", t.program.save)
        m.addAction("Save program &as\u2026", t.program.save_as_dialog)
        self.act_export_program = m.addAction("&Export program as\u2026",
                                              t.program.export_dialog)
        tip = "write the program as URScript, ABB RAPID or KUKA KRL for a real controller"
        self.act_export_program.setToolTip(tip)
        self.act_export_program.setStatusTip(tip)
        m.addSeparator()
        self.act_record = self._action("&Record waypoint", t.program.record, "Ctrl+R")
        m.addAction(self.act_record)
        m.addAction("&Check and load into the timeline", t.program.check)
        if t.planner is not None:
            m.addAction(t.planner.action)
        self.addAction(self.act_record)  # Ctrl+R works with the menu closed too
        tl = t.timeline
        m = QtWidgets.QMenu("&Trajectory", file_menu)
        file_menu.insertMenu(self.teach_menu_anchor, m)
        for act in (tl.act_load, tl.act_demo, None, tl.act_export, tl.act_images, tl.act_video,
                    None, tl.act_clear):
            if act is None:
                m.addSeparator()
            else:
                m.addAction(act)

    def _autosave_path(self) -> Path:
        """Autosave next to the settings file (tests: their temporary INI), else the
        user's application data folder."""
        from ..teach import default_autosave_path

        name = self.settings.q.fileName()
        if self.settings.q.format() == QtCore.QSettings.Format.IniFormat or name.endswith(
                (".conf", ".ini")):
            return Path(name).with_name("autosave.prog")
        return default_autosave_path()

    def _build_toolbar(self) -> None:
        tb = self.addToolBar("Main")
        tb.setObjectName("toolbar_main")
        tb.setMovable(False)
        tb.addWidget(QtWidgets.QLabel(" Robot "))
        self.picker = library.RobotPicker(self.open_robot)
        tb.addWidget(self.picker)
        tb.addAction(self.act_open)
        tb.addSeparator()
        for act in self.camera_actions.values():
            tb.addAction(act)
        tb.addAction(self.act_fit)
        tb.addSeparator()
        tb.addAction(self.act_screenshot)

    def _on_robot(self, robot) -> None:
        where = self.robot_path or (f"library: {self.library_name}" if self.library_name else "")
        self.setWindowTitle(f"{robot.name} - robogui")
        self._robot_label.setText(f"{robot.name}  |  {robot.n} axis {robot.structure}, "
                                  f"{robot.convention}"
                                  + (f"  |  {where}" if where else ""))

    def _mesh_warning(self, text: str) -> None:
        import logging

        logging.getLogger("robogui").warning(text)
        self.status.showMessage(f"Warning: {text} - drawn as a stick", 15000)

    def set_view(self, preset: str) -> None:
        self.view.set_camera(preset)
        self.view.fit_to_robot()

    # -- screenshots -----------------------------------------------------------------------------
    def save_screenshot(self, path: str | Path) -> Path:
        """Save the whole window (3D view included) as an image; raises OSError on failure."""
        path = Path(path)
        pixmap = self.grab()
        # QWidget.grab misses what the view paints over GL (labels): paint its framebuffer in
        view = self.view.grab_image()
        painter = QtGui.QPainter(pixmap)
        painter.drawImage(QtCore.QRectF(self.view.mapTo(self, QtCore.QPoint(0, 0)),
                                        QtCore.QSizeF(self.view.size())), view)
        painter.end()
        if not pixmap.save(str(path)):
            raise OSError(f"could not write the image {path}")
        return path

    def save_screenshot_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, "Save screenshot", "robogui.png", "PNG image (*.png);;JPEG image (*.jpg)")
        if path:
            try:
                self.save_screenshot(path)
                self.status.showMessage(f"saved {path}", 4000)
            except OSError as exc:
                self.error_presenter("Cannot save screenshot", str(exc))

    # -- help -----------------------------------------------------------------------------------
    def show_shortcuts(self) -> QtWidgets.QMessageBox:
        rows = "".join(f"<tr><td><b>{k}</b>&nbsp;&nbsp;</td><td>{v}</td></tr>"
                       for k, v in SHORTCUTS)
        box = QtWidgets.QMessageBox(QtWidgets.QMessageBox.Icon.NoIcon, "Keyboard shortcuts",
                                    f"<table>{rows}</table>", parent=self)
        box.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
        box.show()
        return box

    def show_user_guide(self):
        """Help > User guide: docs/user-guide.md in a browser dialog (one per window)."""
        from .user_guide import show_user_guide

        return show_user_guide(self)

    def show_about(self) -> None:
        QtWidgets.QMessageBox.about(
            self, "About robogui",
            f"<b>robogui {__version__}</b><p>Robot-arm visualiser and teach pendant.<br>"
            "Kinematics and dynamics after Corke's Robotics Toolbox (r6), ROBOOP and "
            "SpaceLib.</p>")

    def open_startup_files(self, program=None, trajectory=None, time_s=None) -> None:
        """Load a teach program and a CSV trajectory, then put the playhead at ``time_s``
        (clamped to the trajectory); a program for this robot without a trajectory is
        checked onto the timeline. Errors are reported and the rest goes on."""
        if self.teach is None:
            return
        if program and self.teach.program.load_from(program) and not trajectory \
                and not self.teach.state.program.check_robot(self.session.robot):
            self.teach.program.check()  # on the timeline, ready to play (--demo)
        if trajectory:
            self.teach.timeline.load_csv(trajectory)
        if time_s is not None and self.session.trajectory is not None:
            self.session.set_time(time_s, changing=False)

    def ensure_plots(self):
        """Build the plot docks once (torques, manipulability, joint state); returns them."""
        if self.plot_docks is None:
            # fills the placeholder docks where the layout put them, visible or not
            self.plot_docks = install_plot_docks(self, self.session)
            for act in self.plot_docks.view_actions():
                self.view_menu.addAction(act)
            self.tasks.adopt(self.plot_docks.docks.values())  # shown in Analyse
            if self.dh_dock.isHidden():
                # shown later as a full-width tab beside the plots, not squeezed beside them
                first = next(iter(self.plot_docks.docks.values()))
                if self.dockWidgetArea(first) == self.dockWidgetArea(self.dh_dock):
                    self.tabifyDockWidget(first, self.dh_dock)
                    first.raise_()
            install_tooltips(self)
        return self.plot_docks

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        if self._plots_on_show:
            self._plots_on_show = False
            self.ensure_plots()

    def closeEvent(self, event) -> None:  # noqa: N802
        if self.teach is not None:
            self.teach.close()
        self.teaching.close()
        if self.plot_docks is not None:
            self.plot_docks.close()
        self.tasks.remember()
        self.settings.set_last_robot(self.robot_path or self.library_name)
        self.settings.save_window(self)
        self.settings.save_display(self.session.display)
        self.settings.sync()
        super().closeEvent(event)


def run_app(session, *, screenshot: str | None = None, quit_after_screenshot: bool = False,
            report_first_frame: bool = False, size: tuple[int, int] | None = None,
            view: str | None = None, restore: bool = True, library_name: str | None = None,
            program: str | None = None, trajectory: str | None = None,
            time_s: float | None = None, reopen_last: bool = False,
            listen: tuple[str, int] | None = None, token_file: str | None = None,
            cell: str | None = None, cell_robot: bool = True) -> int:
    """Show the main window for ``session`` and run the event loop; returns the exit code.

    ``program`` (a .prog file) and ``trajectory`` (a CSV file) are loaded at start-up,
    and the playhead put at ``time_s`` seconds. ``reopen_last``: open the robot of the
    last session instead of ``session``'s (no robot was asked for; ``restore`` too).
    ``listen`` (address, port) serves the remote API there (:mod:`robogui.app.remote`),
    its runtime file at ``token_file``. ``cell`` (a .cell file) opens at start, with the
    robot it names when ``cell_robot``.
    """
    from robogui.engine.bounded_work import warm_up

    from .errors import install_excepthook

    if reopen_last or any(v.kind == "mesh" for v in getattr(session.robot, "visuals", ())):
        warm_up()  # the mesh-reading worker processes start while the window is built
    app = create_app()
    win = MainWindow(session, restore=restore, defer_plots=True)
    install_excepthook(win.error_presenter)
    if library_name is not None:
        win.set_origin(library_name)
    if reopen_last and restore:
        win.reopen_last_robot()
    if size is not None:
        win.resize(*size)
    if cell:
        with win.undo.paused():  # where the session starts, not an edit
            win.cell_tools.open_at_start(cell, with_robot=cell_robot)
    win.open_startup_files(program=program, trajectory=trajectory, time_s=time_s)
    remote = None
    if listen is not None:
        from ..remote.link import close_on_signals, default_token, install_remote

        try:
            remote = install_remote(win, *listen, token=default_token(), token_file=token_file)
        except OSError as exc:
            win.close()
            raise SystemExit(f"robogui: {exc}") from None
        print(f"robogui: remote API on {remote.url}  token {remote.token}  "
              f"(runtime file {remote.runtime_file})", flush=True)
        close_on_signals(win)
    win.show()
    if view is not None:
        win.set_view(view)

    def first_frame():
        win.view.frameSwapped.disconnect(first_frame)
        QtCore.QTimer.singleShot(0, win.ensure_plots)
        if report_first_frame:
            # wall-clock time: the benchmark subtracts its own launch time
            print(f"first-frame {time.time():.6f}", flush=True)
            if not screenshot:
                QtCore.QTimer.singleShot(0, win.close)
        if screenshot:
            def shoot():
                if win.view.meshes_pending():  # a draft: the picture shows the finished meshes
                    QtCore.QTimer.singleShot(100, shoot)
                    return
                win.save_screenshot(screenshot)
                print(f"saved {screenshot}", flush=True)
                if quit_after_screenshot:
                    win.close()
            QtCore.QTimer.singleShot(400, shoot)  # let docks settle and the view repaint

    win.view.frameSwapped.connect(first_frame)
    try:
        return app.exec()
    finally:
        if remote is not None:
            remote.close()
