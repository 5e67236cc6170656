"""What the main window adds for the work cell: the cell drawn in the view, the Cell dock,
picking objects and moving them with the tool handle, and File > Work cell (open, recent,
save, save as, close, restore the autosave).

:func:`install_cell` wires the parts of :mod:`robogui.app.planning_scene` and
:mod:`robogui.app.view.cell_items` into a window; the window keeps the result as
``window.cell_tools``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6 import QtCore, QtGui, QtWidgets

from ..planning_scene.cell_files import CellFiles
from ..planning_scene.cell_panel import CellPanel
from ..planning_scene.object_handle import ObjectPicker, ObjectTarget
from ..view.cell_items import CellLayer

__all__ = ["CellTools", "install_cell"]


@dataclass
class CellTools:
    """The work cell's parts in one window."""

    layer: CellLayer
    panel: CellPanel
    dock: QtWidgets.QDockWidget
    files: CellFiles
    picker: ObjectPicker
    actions: dict[str, QtGui.QAction] = field(default_factory=dict)
    menu: QtWidgets.QMenu | None = None
    recent_menu: QtWidgets.QMenu | None = None

    def open_at_start(self, path, *, with_robot: bool = True) -> bool:
        """Open a cell given on the command line (``--cell``, ``--demo``): the camera takes
        in the robot and the cell."""
        ok = self.files.open_cell(path, with_robot=with_robot)
        if ok:
            # the Cell panel stays where View > Cell panel puts it: at start the task's own
            # panels keep their room (the status bar says the cell was opened)
            self.layer.view.fit_to_robot()
        return ok

    def show_panel(self) -> None:
        """Show the Cell dock in front of its tab group: tabbed with the Pose panel when
        that is docked, so the joint sliders above keep their whole height."""
        win, dock = self.dock.parentWidget(), self.dock
        pose = getattr(win, "pose_dock", None)
        if (pose is not None and not pose.isFloating() and not dock.isFloating()
                and dock not in win.tabifiedDockWidgets(pose)):
            win.tabifyDockWidget(pose, dock)
        dock.show()
        dock.raise_()


class _CloseWatcher(QtCore.QObject):
    """Writes the cell's autosave when the window closes."""

    def __init__(self, window, files: CellFiles):
        super().__init__(window)
        self.files = files
        window.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.Close:
            self.files.close()
        return False


def install_cell(window) -> CellTools:
    """Add the work cell to ``window`` (a MainWindow, after its view tools and menus)."""
    view, session = window.view, window.session
    layer = CellLayer(view, session)
    panel = CellPanel(session, error_presenter=window.error_presenter)
    dock = window.add_panel(panel, "Cell", QtCore.Qt.DockWidgetArea.RightDockWidgetArea)
    window.tabifyDockWidget(window.pose_dock, dock)
    dock.hide()  # a dock of no task: shown from View or when a cell is opened
    window.pose_dock.raise_()

    handle = window.view_tools.handle
    tcp_target = handle.target

    def chosen(name) -> None:
        # the tool handle sits on the chosen object, else on the TCP
        layer.select(name)
        handle.drag, handle.reason = None, None
        handle.target = ObjectTarget(session, layer, name) if name else tcp_target
        view.update()

    panel.objectSelected.connect(chosen)

    def picked(name) -> None:
        if name is not None:
            tools.show_panel()
        panel.select(name)

    picker = ObjectPicker(view, layer, picked)

    def object_distance(ray):
        hit = layer.object_at(ray)
        return None if hit is None else hit[1]

    # an object in front of a link is what the click meant (the link picker runs first)
    window.view_tools.links.occluders.append(object_distance)
    autosave = window._autosave_path().with_name("autosave.cell")
    files = CellFiles(session, window.settings, open_robot=window.open_robot,
                      robot_origin=lambda: (window.library_name, window.robot_path),
                      error_presenter=window.error_presenter,
                      status=lambda text: window.statusBar().showMessage(text, 8000),
                      autosave_path=autosave, parent=window)
    tools = CellTools(layer, panel, dock, files, picker)
    _CloseWatcher(window, files)
    _build_menu(window, tools)
    if files.recovered is not None:
        window.statusBar().showMessage(
            "A work cell with unsaved edits was autosaved: File > Work cell > Restore "
            "autosaved cell brings it back", 20000)
    return tools


def _build_menu(window, tools: CellTools) -> None:
    files = tools.files
    m = QtWidgets.QMenu("Work &cell", window.file_menu)
    window.file_menu.insertMenu(window.teach_menu_anchor, m)

    def opened(ok: bool) -> None:
        if ok:
            tools.show_panel()

    def act(text, slot, shortcut=None, tip=None) -> QtGui.QAction:
        a = m.addAction(text)
        a.triggered.connect(lambda _=False: slot())
        if shortcut:
            a.setShortcut(QtGui.QKeySequence(shortcut))
        if tip:
            a.setToolTip(tip)
            a.setStatusTip(tip)
        return a

    tools.actions["open"] = act("&Open cell\u2026", lambda: opened(files.open_dialog()),
                                "Ctrl+Shift+O", "open a work cell (.cell) and the robot it names")
    recent = m.addMenu("Open &recent cell")
    recent.aboutToShow.connect(lambda: files.fill_recent(recent))
    files.fill_recent(recent)
    tools.actions["save"] = act("&Save cell", files.save, tip="write the cell to its file")
    tools.actions["save_as"] = act("Save cell &as\u2026", files.save_as_dialog)
    tools.actions["close"] = act("&Close cell", files.close_cell,
                                 tip="no cell: the robot alone (undo brings it back)")
    m.addSeparator()
    restore = act("Restore autosaved cell", files.restore_recovered,
                  tip="the cell as autosaved, with edits never saved to a file")
    restore.setEnabled(files.recovered is not None)
    restore.triggered.connect(lambda _=False: restore.setEnabled(False))
    tools.actions["restore"] = restore
    window.addAction(tools.actions["open"])  # the shortcut works with the menu closed
    tools.menu, tools.recent_menu = m, recent
    show = tools.dock.toggleViewAction()
    show.setText("&Cell panel")
    tip = "the work cell's objects: add, move, rename, hide, colour"
    show.setToolTip(tip)
    show.setStatusTip(tip)
    window.view_menu.addAction(show)
    tools.actions["panel"] = show
