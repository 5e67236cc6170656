"""Task switcher: the docks grouped by what the user is doing, one remembered layout each.

Three tasks share the window around the 3D view:

======== ========== ===============================================================
Drive    Ctrl+1     joint sliders above the pose readout, one column on the right
Teach    Ctrl+2     Jog | Go to | Program, tabbed in one column on the right
Analyse  Ctrl+3     torque, manipulability, joint-state and clearance plots under the view
Class    Ctrl+4     teach the class: the D-H table under the view, every row shown,
                    the chain step-through on the right, the D-H frames on the model
======== ========== ===============================================================

A task shows its docks and hides the other tasks' docks. Each task keeps its own dock
layout (``QMainWindow.saveState``, stored in QSettings under ``tasks/<name>``), so a
dock moved while teaching is where it was the next time Teach is chosen, also after a
restart. Docks of no task (the D-H table, later panels) are left as the user put them.

The default layouts give the 3D view most of the window on a first start: at least 55 %
of the window's area at 1600 x 1000 and 45 % at 1280 x 800 (one compact column of
docks, or a plot strip under the view).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["Task", "TASKS", "TaskSwitcher", "view_area_fraction"]


@dataclass(frozen=True)
class Task:
    """One task: its key, menu text, dock object names and where they go by default."""

    key: str
    title: str
    docks: tuple[str, ...]
    area: QtCore.Qt.DockWidgetArea
    tabbed: bool  # default layout: tabbed in one place, else stacked top to bottom
    tip: str
    #: per dock, where it goes when not all go to ``area`` (Class: table below, chain right)
    areas: tuple[QtCore.Qt.DockWidgetArea, ...] | None = None

    def area_of(self, k: int) -> QtCore.Qt.DockWidgetArea:
        """Where dock ``k`` of this task goes by default."""
        return self.area if self.areas is None else self.areas[k]


_RIGHT = QtCore.Qt.DockWidgetArea.RightDockWidgetArea
_BOTTOM = QtCore.Qt.DockWidgetArea.BottomDockWidgetArea

TASKS = (
    Task("drive", "Drive", ("dock_joints", "dock_pose"), _RIGHT, False,
         "Drive the robot: joint sliders and the pose readout"),
    Task("teach", "Teach", ("dock_jog", "dock_go_to", "dock_program"), _RIGHT, True,
         "Teach: jog, go to a target, edit the program"),
    Task("analyse", "Analyse", ("dock_torques", "dock_manipulability", "dock_joint_state",
                                "dock_clearance"),
         _BOTTOM, True, "Analyse the trajectory: torques, manipulability, joint state, "
         "clearance"),
    Task("class", "Teach the class", ("dock_chain", "dock_dh_table"), _RIGHT, False,
         "Teach the class: the D-H table, the chain step by step, the D-H frames",
         areas=(_RIGHT, _BOTTOM)),
)
#: the most of the window's height the D-H table takes to show all its rows
TABLE_MAX_SHARE = 0.46
#: the default column width (px) of a right-hand task, and the plot strip's share of height
COLUMN_WIDTH = 430
PLOT_SHARE = 0.30
#: the most of a right-hand column the upper of two docks takes to show itself whole
UPPER_SHARE = 0.6
#: the widest a right-hand column grows to show its panels whole, as a share of the window
COLUMN_MAX_SHARE = 0.45


def view_area_fraction(window: QtWidgets.QMainWindow) -> float:
    """The share of the window's area the 3D view (``window.view``) covers."""
    v = window.view
    return v.width() * v.height() / max(1, window.width() * window.height())


class TaskSwitcher(QtCore.QObject):
    """Task actions (toolbar, View menu, Ctrl+1..3) and per-task layouts for ``window``.

    ``settings`` is the window's :class:`~robogui.app.shell.settings.Settings`; call
    :meth:`start` once the window's saved layout was (or was not) restored.
    """

    changed = QtCore.Signal(str)

    def __init__(self, window: QtWidgets.QMainWindow, settings):
        super().__init__(window)
        self.window, self.settings = window, settings
        self.current: str | None = None
        self.group = QtGui.QActionGroup(self)
        self.actions: dict[str, QtGui.QAction] = {}
        for k, task in enumerate(TASKS, 1):
            act = QtGui.QAction(task.title, self)
            act.setCheckable(True)
            act.setShortcut(QtGui.QKeySequence(f"Ctrl+{k}"))
            act.setToolTip(f"{task.tip} (Ctrl+{k})")
            act.setStatusTip(task.tip)
            act.triggered.connect(lambda _=False, key=task.key: self.switch(key))
            self.group.addAction(act)
            window.addAction(act)  # the shortcuts work wherever the focus is
            self.actions[task.key] = act
        self.toolbar = QtWidgets.QToolBar("Tasks", window)
        self.toolbar.setObjectName("toolbar_tasks")
        self.toolbar.setMovable(False)
        self.toolbar.addWidget(QtWidgets.QLabel(" Task "))
        for act in self.actions.values():
            self.toolbar.addAction(act)
        window.addToolBar(self.toolbar)
        self._arranged_default = False
        self.actions["drive"].setChecked(True)
        self.current = "drive"
        _OnEvent(window, QtCore.QEvent.Type.Resize, self.fit_toolbar, once=False)

    def fit_toolbar(self) -> None:
        """The task buttons go to a second toolbar row when the window is too narrow for
        both toolbars (presentation mode's font at 1280 px), instead of hiding behind the
        main toolbar's overflow arrow; back on one row when there is room."""
        w = self.window
        try:
            main = w.findChild(QtWidgets.QToolBar, "toolbar_main")
            if main is None or w.toolBarArea(self.toolbar) != w.toolBarArea(main):
                return
            need = main.sizeHint().width() + self.toolbar.sizeHint().width()
            broken = w.toolBarBreak(self.toolbar)
            if need > w.width() and not broken:
                w.insertToolBarBreak(self.toolbar)
            elif need <= w.width() and broken:
                w.removeToolBarBreak(self.toolbar)
        except RuntimeError:  # the window is going away
            pass

    def start(self, restored: bool, initial: str = "drive", front=None) -> None:
        """Take the task saved with a restored window layout, or lay out ``initial`` by
        default when the window is first shown (its docks then have their real sizes),
        with the dock ``front`` raised in its tab group."""
        saved = str(self.settings.q.value("tasks/current", "") or "")
        if restored and saved in self.actions and initial == "drive":
            self.current = saved  # the restored window layout is this task's
            self.actions[saved].setChecked(True)
            self._arranged_default = False
            return
        self.task(initial)
        self.current = initial
        self.actions[initial].setChecked(True)
        self._arranged_default = True

        def lay_out():
            self.arrange_default(initial)
            if front is not None:
                front.raise_()
                QtCore.QTimer.singleShot(0, front.raise_)

        _OnEvent(self.window, QtCore.QEvent.Type.Show, lay_out, once=True)

    # -- tasks -----------------------------------------------------------------------------
    @staticmethod
    def task(key: str) -> Task:
        for t in TASKS:
            if t.key == key:
                return t
        raise ValueError(f"unknown task {key!r}; tasks: {', '.join(t.key for t in TASKS)}")

    def docks(self, key: str) -> list[QtWidgets.QDockWidget]:
        """The docks of task ``key`` that exist in the window (plots may come later)."""
        found = []
        for name in self.task(key).docks:
            dock = self.window.findChild(QtWidgets.QDockWidget, name)
            if dock is not None:
                found.append(dock)
        return found

    def switch(self, key: str) -> None:
        """Show task ``key``: its remembered layout, or its default one the first time."""
        task = self.task(key)
        if key == self.current:
            self.actions[key].setChecked(True)
            return
        ensure = getattr(self.window, "ensure_plots", None)
        if callable(ensure) and len(self.docks(key)) < len(task.docks):
            ensure()  # the plot docks are built on demand
        if self.current is not None:
            self.remember()
        self.current = key
        self.actions[key].setChecked(True)
        state = self.settings.q.value(f"tasks/{key}")
        if (isinstance(state, QtCore.QByteArray) and not state.isEmpty()
                and self.window.restoreState(state) and self._any_shown(key)):
            self._arranged_default = False
        else:  # never laid out, or every dock of it was closed: its default layout
            self.arrange_default(key)
        self.settings.q.setValue("tasks/current", key)
        self.hide_stale_tab_bars()
        QtCore.QTimer.singleShot(0, self.hide_stale_tab_bars)
        self.changed.emit(key)

    def hide_stale_tab_bars(self) -> None:
        """Hide dock tab bars the layout no longer uses.

        ``restoreState`` builds new tab bars and leaves the previous ones on screen
        (Qt 6): a "Torques | Manipulability" bar stayed over the timeline in Drive. A bar
        is stale when a dock it names is hidden, or when a newer bar names the same docks.
        """
        try:
            bars = [b for b in self.window.findChildren(QtWidgets.QTabBar)
                    if b.parent() is self.window and b.isVisible()]
        except RuntimeError:  # the window is gone
            return
        docks = {d.windowTitle(): d for d in self.window.findChildren(QtWidgets.QDockWidget)}
        seen = set()
        for bar in reversed(bars):  # newest first
            names = tuple(bar.tabText(i) for i in range(bar.count()))
            shown = all(n in docks and not docks[n].isHidden() for n in names)
            if not shown or names in seen:
                bar.hide()
            seen.add(names)

    def _any_shown(self, key: str) -> bool:
        return any(not d.isHidden() for d in self.docks(key))

    def remember(self) -> None:
        """Store the current task's layout (called on a switch and when the window closes)."""
        if self.current is not None:
            self.settings.q.setValue(f"tasks/{self.current}", self.window.saveState())
            self.settings.q.setValue("tasks/current", self.current)

    def adopt(self, docks) -> None:
        """Docks built after the layout (the plots): hidden unless the current task has
        them; with a default layout, the current task is laid out again."""
        if self._arranged_default:
            self.arrange_default(self.current)
            return
        mine = {d.objectName() for d in self.docks(self.current)}
        for dock in docks:
            if dock.objectName() not in mine and self._task_of(dock) is not None:
                dock.hide()

    def _task_of(self, dock) -> str | None:
        for t in TASKS:
            if dock.objectName() in t.docks:
                return t.key
        return None

    def arrange_default(self, key: str) -> None:
        """Lay out task ``key`` as on a first start and hide the other tasks' docks."""
        task = self.task(key)
        w = self.window
        mine = self.docks(key)
        for t in TASKS:
            if t.key != key:
                for dock in self.docks(t.key):
                    dock.hide()
        if not mine:
            return
        first = mine[0]
        names = list(task.docks)
        area = {d: task.area_of(names.index(d.objectName())) for d in mine}
        for dock in mine:
            dock.setFloating(False)
            w.addDockWidget(area[dock], dock)
        for prev, dock in zip(mine, mine[1:], strict=False):
            if area[prev] != area[dock]:
                continue  # each in its own area
            if task.tabbed:
                w.tabifyDockWidget(first, dock)
            else:
                w.splitDockWidget(prev, dock, QtCore.Qt.Orientation.Vertical)
        for dock in mine:
            dock.show()
        first.raise_()
        self._arranged_default = True
        # sizes once the window has its size (and again after Qt's layout has run)
        self._size_default(task, mine)
        QtCore.QTimer.singleShot(0, lambda: self._size_default(task, mine))

    def fit_column(self, docks=None) -> None:
        """A right-hand column as wide as its panels need (up to ``COLUMN_MAX_SHARE`` of
        the window); in a column of two stacked docks that cannot both show whole (Drive:
        joints above the pose) the upper one gets what it needs up to ``UPPER_SHARE`` of
        the column: the joint sliders are what the task is for, the readout below
        scrolls. A wider column or a taller upper dock (the user's choice) is kept.
        ``docks`` None: the current task's."""
        task = self.task(self.current) if self.current else None
        if docks is None:
            if task is None or task.area != _RIGHT:
                return
            docks = self.docks(task.key)
            if task.areas is not None:  # the column only, not the strip below
                names = list(task.docks)
                docks = [d for d in docks if task.area_of(names.index(d.objectName())) == _RIGHT]
        shown = [d for d in docks if d.isVisible() and not d.isFloating()]
        if not shown:
            return
        # presentation mode's font widens the panels; the view keeps the rest
        need = min(max(_needed_width(d) for d in shown),
                   int(COLUMN_MAX_SHARE * self.window.width()))
        if shown[0].width() < need:
            self.window.resizeDocks([shown[0]], [need], QtCore.Qt.Orientation.Horizontal)
        if len(shown) != 2 or shown[0].y() == shown[1].y():  # not two stacked docks
            return
        total = shown[0].height() + shown[1].height()
        # the dock's own title bar and frame come on top of what its panel wants
        chrome = shown[0].height() - (shown[0].widget().height() if shown[0].widget() else 0)
        upper = min(_content_height(shown[0]) + max(chrome, 0), int(UPPER_SHARE * total))
        if shown[0].height() < upper:
            self.window.resizeDocks(shown, [upper, total - upper],
                                    QtCore.Qt.Orientation.Vertical)

    def _size_default(self, task: Task, docks) -> None:
        w = self.window
        try:
            if task.areas is not None:  # a column on the right and a strip below
                names = list(task.docks)
                right = [d for d in docks if task.area_of(names.index(d.objectName())) == _RIGHT]
                below = [d for d in docks if task.area_of(names.index(d.objectName())) != _RIGHT]
                if right:
                    width = max(min(COLUMN_WIDTH, max(320, w.width() // 3)),
                                *(_needed_width(d) for d in right))
                    w.resizeDocks(right[:1], [width], QtCore.Qt.Orientation.Horizontal)
                if below:
                    want = max(_content_height(d) for d in below) + 40  # title bar, margins
                    height = min(want, int(TABLE_MAX_SHARE * w.height()))
                    w.resizeDocks(below[:1], [height], QtCore.Qt.Orientation.Vertical)
            elif task.area == _RIGHT:
                width = max(min(COLUMN_WIDTH, max(320, w.width() // 3)),
                            *(_needed_width(d) for d in docks))
                w.resizeDocks([docks[0]], [width], QtCore.Qt.Orientation.Horizontal)
                if not task.tabbed and len(docks) == 2:
                    lower = docks[1].widget()
                    # what the readout needs whole (inside its scroll area), and its frame
                    want = (_content_height(docks[1]) + 2 * lower.frameWidth() + 24
                            if isinstance(lower, QtWidgets.QScrollArea)
                            else lower.sizeHint().height() if lower is not None else 0)
                    total = docks[0].height() + docks[1].height()
                    # the upper dock whole (Drive: every joint row), title bar included
                    upper = _content_height(docks[0]) + (docks[0].height()
                                                          - docks[0].widget().height())
                    if want and total >= want + upper:
                        w.resizeDocks(docks, [total - want, want], QtCore.Qt.Orientation.Vertical)
                    else:  # not both whole (a short window, presentation mode's big font):
                        # the joint rows first, the readout below scrolls
                        self.fit_column(docks)
            else:
                height = int(PLOT_SHARE * w.height())
                w.resizeDocks([docks[0]], [height], QtCore.Qt.Orientation.Vertical)
        except RuntimeError:  # the window is gone (closed before the timer fired)
            pass


def _content_height(dock: QtWidgets.QDockWidget) -> int:
    """The height a dock's panel wants (a panel in a scroll area: its content's; a panel
    with a table: with every row of the table shown)."""
    inner = dock.widget()
    if isinstance(inner, QtWidgets.QScrollArea) and inner.widget() is not None:
        inner = inner.widget()
    if inner is None:
        return 0
    want = inner.sizeHint().height()
    for table in inner.findChildren(QtWidgets.QTableView):
        rows = table.model().rowCount() if table.model() is not None else 0
        whole = (table.horizontalHeader().height() + 2 * table.frameWidth()
                 + sum(table.rowHeight(r) for r in range(rows))
                 + table.horizontalScrollBar().sizeHint().height())
        want += max(0, whole - table.sizeHint().height())
    return want


def _needed_width(dock: QtWidgets.QDockWidget) -> int:
    """The width a dock needs so nothing is cut off at the sides: its panel's minimum,
    and for every scroll area in it (the dock's own, the joint rows' list) its content's
    minimum plus what sits beside that area's viewport (scroll bar, frames, margins)."""
    inner = dock.widget()
    if inner is None:
        return 0
    best = max(inner.minimumSizeHint().width(), inner.minimumWidth())
    for area in [inner, *inner.findChildren(QtWidgets.QScrollArea)]:
        if not isinstance(area, QtWidgets.QScrollArea) or area.widget() is None:
            continue
        content = area.widget()
        want = max(content.minimumSizeHint().width(), content.minimumWidth())
        beside = inner.width() - area.viewport().width()
        if not area.verticalScrollBar().isVisible():
            beside += area.verticalScrollBar().sizeHint().width()
        best = max(best, want + beside)
    return best


class _OnEvent(QtCore.QObject):
    """Calls ``fn`` on ``window``'s events of type ``kind``: at once on the first only
    (``once``), or on the next event-loop turn after each (a resize: once the layout
    has its new size)."""

    def __init__(self, window, kind: QtCore.QEvent.Type, fn, once: bool):
        super().__init__(window)
        self._kind, self._fn, self._once = kind, fn, once
        window.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        if event.type() == self._kind:
            if self._once:
                obj.removeEventFilter(self)
                self._fn()
            else:
                QtCore.QTimer.singleShot(0, self, self._fn)
        return False
