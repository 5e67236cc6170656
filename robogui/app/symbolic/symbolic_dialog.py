"""The symbolic kinematics dialog: the current robot's T and J, readable, and exported.

A teaching aid after JFKengine: the end-effector pose T(q) (4 x 4) and the base-frame
Jacobian J(q) (6 x n, or 3 x n without the orientation rows) are shown entry by entry in
the textbook short-hand of :func:`robogui.engine.kinematics.symbolic.expression_strings`
(``s1 = sin(q1)``, ``c23 = cos(q2 + q3)``, shared pieces ``t1, t2, ...``). Selecting an
entry or a name shows its definition, the names it uses, its full expansion in sines and
cosines and its value at the current pose. The derivation (about 2-3 s for a 7-axis arm)
runs in a worker thread; closing the dialog while it runs is safe, and a robot or tool
change re-derives. Exports: Python/numpy, C99, plain text and LaTeX.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from robogui.engine.files import atomic_write_text

from .. import style
from ..bindings import Subscriptions
from ..files import library
from .expression_table import RAW_ROLE, ExpressionTable
from .symbolic_links import LinkTables
from .symbolic_text import (
    SymbolicView,
    code_name,
    derive_view,
    view_to_latex,
    view_to_text,
    wrap_expression,
)

__all__ = ["SymbolicDialog", "ExpressionTable", "SymbolicView", "derive_view",
           "wait_for_derivations", "SaveFileChooser", "RAW_ROLE"]

#: ``save_file(parent, caption, suggested_name, name_filter) -> path or None``
SaveFileChooser = Callable[[QtWidgets.QWidget, str, str, str], "str | None"]

T_COLUMNS = ("n", "o", "a", "p")
T_COLUMN_TIPS = ("n: x axis of the tool frame (normal)",
                 "o: y axis of the tool frame (orientation)",
                 "a: z axis of the tool frame (approach)", "p: position of the tool point")
T_ROWS = ("x", "y", "z", "")
J_ROWS = ("vx", "vy", "vz", "\u03c9x", "\u03c9y", "\u03c9z")
TOOLTIP_MAX = 1500  # characters of an expansion shown in a tooltip
MAX_ROW_LINES = 6  # taller entries are cut (ellipsis); tooltip and detail pane have them
MAX_NAME_LINES = 12
# -- the worker thread ---------------------------------------------------------------------
class _DeriveThread(QtCore.QThread):
    """Runs :func:`derive_view` off the GUI thread; the result comes back as a signal."""

    succeeded = QtCore.Signal(object)
    failed = QtCore.Signal(str)

    def __init__(self, robot, include_orientation: bool, joints: int | None = None):
        super().__init__()
        self.robot, self.include_orientation = robot, include_orientation
        self.joints = joints
        self.returned = False

    def run(self) -> None:
        try:
            extra = {} if self.joints is None else {"joints": self.joints}
            view = derive_view(self.robot, self.include_orientation, **extra)
        except Exception as exc:  # shown in the dialog, never lost in the thread
            self.returned = True
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        self.returned = True
        self.succeeded.emit(view)


# Python must keep a QThread alive until it has finished (a running QThread that is
# garbage collected aborts the program); a dialog closed mid-derivation leaves it here
_LIVE: set = set()


class _Reaper(QtCore.QObject):
    """Lives in the GUI thread; drops finished derivation threads."""

    @QtCore.Slot()
    def reap(self) -> None:
        for th in list(_LIVE):
            if th.returned:
                th.wait()  # run() has returned: this waits microseconds at most
                _LIVE.discard(th)


_REAPER: _Reaper | None = None


def _reaper() -> _Reaper:
    global _REAPER
    if _REAPER is None:
        _REAPER = _Reaper()
        app = QtCore.QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(wait_for_derivations)
    return _REAPER


def wait_for_derivations(timeout_ms: int = 60000) -> bool:
    """Wait for every running derivation (application exit, tests); True when none is left."""
    for th in list(_LIVE):
        if th.wait(timeout_ms):
            _LIVE.discard(th)
    return not _LIVE


def _default_save_file(parent, caption: str, suggested: str, name_filter: str) -> str | None:
    path, _ = QtWidgets.QFileDialog.getSaveFileName(parent, caption, suggested, name_filter)
    return path or None


# -- the dialog ------------------------------------------------------------------------------
class SymbolicDialog(QtWidgets.QDialog):
    """Non-modal view of the session robot's symbolic T and J, with exports.

    ``save_file(parent, caption, suggested_name, filter) -> path | None`` asks for an
    export file (default: a QFileDialog); ``present_error(title, text)`` shows failures
    (default: a non-modal message box). ``shown`` fires with each :class:`SymbolicView`
    put on screen. The dialog follows the session's robot and tool while it is open.
    """

    shown = QtCore.Signal(object)

    def __init__(self, session, parent=None, *, save_file: SaveFileChooser | None = None,
                 present_error: Callable[[str, str], None] | None = None):
        super().__init__(parent)
        self.session = session
        self.save_file = _default_save_file if save_file is None else save_file
        self.present_error = present_error if present_error is not None else (
            lambda t, x: library.show_error(self, t, x))
        self.setWindowTitle("Symbolic kinematics")
        self.setModal(False)
        self.setSizeGripEnabled(True)
        self._view: SymbolicView | None = None
        self._thread: _DeriveThread | None = None
        self._closed = False
        self._detail_key = None
        self._subs = Subscriptions(self)
        self._build()
        self.resize(1180, 760)
        self._subscribe()
        self.refresh()

    # -- construction --------------------------------------------------------------------
    def _build(self) -> None:
        self.caption = QtWidgets.QLabel()
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.expand_box = QtWidgets.QCheckBox("expand t1, t2, \u2026")
        self.expand_box.setToolTip("show T and J in sines and cosines only (the shared pieces "
                                   "substituted); long entries are cut, the detail pane has "
                                   "them in full")
        self.expand_box.toggled.connect(lambda _on: self._show_entries())

        self.t_table = ExpressionTable(4, 4, list(T_COLUMNS), list(T_ROWS),
                                       max_lines=MAX_ROW_LINES, fill_height=True)
        for k, tip in enumerate(T_COLUMN_TIPS):
            self.t_table.horizontalHeaderItem(k).setToolTip(tip)
        self.j_table = ExpressionTable(6, 1, ["q1"], list(J_ROWS), max_lines=MAX_ROW_LINES,
                                       fill_height=True)
        self.orientation_box = QtWidgets.QCheckBox("orientation rows (\u03c9x \u03c9y \u03c9z)")
        self.orientation_box.setChecked(True)
        self.orientation_box.setToolTip("unchecked: the 3 x n position Jacobian only "
                                        "(JFKengine's includeOrientation = false); the "
                                        "exports follow this choice")
        self.orientation_box.toggled.connect(lambda _on: self.refresh())
        j_page = QtWidgets.QWidget()
        jl = QtWidgets.QVBoxLayout(j_page)
        jl.setContentsMargins(0, 4, 0, 0)
        jl.addWidget(self.orientation_box)
        jl.addWidget(self.j_table, 1)
        self.tabs = QtWidgets.QTabWidget()
        self.tabs.addTab(self.t_table, "T  (end-effector pose)")
        self.tabs.addTab(j_page, "J  (Jacobian, base frame)")
        self.links = LinkTables()  # JFKengine's A(i) and joint locations
        self.tabs.addTab(self.links.a_table, "A(i)  (link matrices)")
        self.tabs.addTab(self.links.loc_table, "Joint locations")
        self.joints_box = QtWidgets.QSpinBox()
        self.joints_box.setPrefix("first ")
        self.joints_box.setToolTip("use the first n joints only (JFKengine's joint count): T "
                                   "and J of link frame n, without the tool")
        self.joints_box.setRange(1, self.session.robot.n)
        self.joints_box.setValue(self.session.robot.n)
        self.joints_box.setSuffix(f" of {self.session.robot.n} joints")
        self.joints_box.valueChanged.connect(lambda _v: self.refresh())

        self.names_table = ExpressionTable(0, 2, ["name", "definition"], [],
                                           max_lines=MAX_NAME_LINES, fill_height=False,
                                           wrap_columns=(1,))
        self.names_table.verticalHeader().setVisible(False)
        self.names_table.horizontalHeader().setSectionResizeMode(
            0, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        names_box = QtWidgets.QGroupBox("Named sub-expressions")
        nl = QtWidgets.QVBoxLayout(names_box)
        nl.addWidget(self.names_table)

        self.detail = QtWidgets.QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setFont(style.monospace_font())
        self.detail.setPlaceholderText("select an entry or a name to see its definition, its "
                                       "expansion and its value at the current pose")
        left = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        left.addWidget(self.tabs)
        left.addWidget(self.detail)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 1)
        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(names_box)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([760, 400])

        self.busy = QtWidgets.QProgressBar()
        self.busy.setRange(0, 0)  # indeterminate
        self.busy.setMaximumWidth(140)
        self.busy.setTextVisible(False)
        self.busy.hide()
        self.status = QtWidgets.QLabel()
        self.btn_python = QtWidgets.QPushButton("Python\u2026")
        self.btn_c = QtWidgets.QPushButton("C\u2026")
        self.btn_text = QtWidgets.QPushButton("Text\u2026")
        self.btn_latex = QtWidgets.QPushButton("LaTeX\u2026")
        tips = ("numpy function kinematics(q) -> (T, J), q (n,) or (m, n)",
                "C99 function void <robot>_kinematics(const double *q, double *T, double *J)",
                "the names, T and J as plain text", "a LaTeX document (amsmath)")
        slots = (self.export_python_dialog, self.export_c_dialog, self.export_text_dialog,
                 self.export_latex_dialog)
        for b, tip, slot in zip(self._export_buttons, tips, slots, strict=True):
            b.setToolTip(tip)
            b.clicked.connect(lambda _=False, f=slot: f())
            b.setAutoDefault(False)
        close = QtWidgets.QPushButton("Close")
        close.setAutoDefault(False)
        close.clicked.connect(self.close)
        bottom = QtWidgets.QHBoxLayout()
        bottom.addWidget(self.busy)
        bottom.addWidget(self.status, 1)
        bottom.addWidget(QtWidgets.QLabel("Export:"))
        for b in self._export_buttons:
            bottom.addWidget(b)
        bottom.addSpacing(12)
        bottom.addWidget(close)

        layout = QtWidgets.QVBoxLayout(self)
        top = QtWidgets.QHBoxLayout()
        top.addWidget(self.caption, 1)
        top.addWidget(self.joints_box)
        top.addWidget(self.expand_box)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        layout.addLayout(bottom)
        for table in (self.t_table, self.j_table, self.names_table):
            table.itemSelectionChanged.connect(lambda t=table: self._selected(t))
        copy = QtGui.QAction(self)
        copy.setShortcut(QtGui.QKeySequence.StandardKey.Copy)
        copy.triggered.connect(self.copy_selection)
        self.addAction(copy)

    @property
    def _export_buttons(self) -> tuple:
        return (self.btn_python, self.btn_c, self.btn_text, self.btn_latex)

    # -- session subscription --------------------------------------------------------------
    def _subscribe(self) -> None:
        self._subs.clear()
        ev = self.session.events
        self._subs.connect(ev.robot, lambda _r: self._robot_changed())
        self._subs.connect(ev.tool, lambda _t: self.refresh())
        self._subs.connect(ev.changed, lambda _q: self._show_detail())

    def _unsubscribe(self) -> None:
        self._subs.clear()
        self._closed = True

    @property
    def is_subscribed(self) -> bool:
        """True while the dialog follows the session (between show and close)."""
        return not self._closed

    def showEvent(self, event) -> None:  # noqa: N802
        if self._closed:  # shown again after a close: follow the session again
            self._closed = False
            self._subscribe()
            self.refresh()
        super().showEvent(event)

    def closeEvent(self, event) -> None:  # noqa: N802
        self._unsubscribe()
        super().closeEvent(event)

    def done(self, result: int) -> None:
        # Esc and reject() come here without a closeEvent
        self._unsubscribe()
        super().done(result)

    # -- derivation ----------------------------------------------------------------------------
    @property
    def view(self) -> SymbolicView | None:
        """The view on screen (None before the first derivation has finished)."""
        return self._view

    @property
    def is_busy(self) -> bool:
        """True while a derivation is running for this dialog."""
        return self._thread is not None

    @property
    def include_orientation(self) -> bool:
        return self.orientation_box.isChecked()

    @property
    def joints(self) -> int | None:
        """The joint count asked for (None: all joints and the tool)."""
        n = self.session.robot.n
        v = min(self.joints_box.value(), n)
        return None if v >= n else v

    def _robot_changed(self) -> None:
        n = self.session.robot.n
        was_all = self.joints_box.value() >= self.joints_box.maximum()
        with QtCore.QSignalBlocker(self.joints_box):
            self.joints_box.setRange(1, n)
            self.joints_box.setSuffix(f" of {n} joints")
            if was_all:
                self.joints_box.setValue(n)
        self.refresh()

    def _wanted(self) -> tuple:
        return self.session.robot.key, self.include_orientation, self.joints

    @staticmethod
    def _got(view) -> tuple:
        return view.key, view.include_orientation, view.first_n

    def refresh(self) -> None:
        """Show the session robot's T and J, deriving them in the worker thread if needed."""
        if self._closed:
            return
        if self._view is not None and self._got(self._view) == self._wanted():
            return
        if self._thread is not None:
            return  # the running derivation's result is checked when it arrives
        robot = self.session.robot
        th = _DeriveThread(robot, self.include_orientation, self.joints)
        _LIVE.add(th)
        th.succeeded.connect(self._on_result)
        th.failed.connect(self._on_failed)
        th.finished.connect(_reaper().reap)
        self._thread = th
        self.busy.show()
        self._set_exports_enabled(False)
        self.status.setText(f"deriving T and J of {robot.name}\u2026")
        th.start()

    def _on_result(self, view: SymbolicView) -> None:
        self._thread = None
        if self._closed:
            return
        if self._got(view) != self._wanted():
            self.refresh()  # the robot or the choice changed while deriving: again
            return
        self.busy.hide()
        self._show(view)

    def _on_failed(self, message: str) -> None:
        self._thread = None
        if self._closed:
            return
        self.busy.hide()
        self._view = None
        self.status.setText("derivation failed: " + message)
        self.present_error("Symbolic kinematics", message)

    def _set_exports_enabled(self, on: bool) -> None:
        for b in self._export_buttons:
            b.setEnabled(on)

    # -- display ----------------------------------------------------------------------------------
    def _show(self, view: SymbolicView) -> None:
        self._view = view
        chain = ("base \u00b7 " if view.has_base else "") + " \u00b7 ".join(
            f"A<sub>{i + 1}</sub>(q<sub>{i + 1}</sub>)" for i in range(view.n)) + (
            " \u00b7 tool" if view.has_tool else "")
        self.caption.setText(
            f"<b>{view.robot_name}</b> \u2014 {view.n} axes, "
            f"{view.convention_text}. &nbsp; T = {chain}. &nbsp; "
            "s1 = sin(q1), c23 = cos(q2 + q3); t1, t2, \u2026 are shared pieces (right). "
            "Angles in rad, lengths in m.")
        self._show_entries()
        self.links.fill(view)
        nt = self.names_table
        nt.clearContents()
        nt.setRowCount(len(view.names))
        for i, (name, text) in enumerate(view.names):
            tip = self._tip(name, text, view.expanded.get(name, text))
            nt.set_entry(i, 0, name, tip, _name_color(name))
            nt.set_entry(i, 1, text, tip)
        nt.relayout()
        cached = view.wall < 0.5 * view.seconds
        self.status.setText(
            f"{len(view.names)} names; derivation {view.seconds:.2f} s"
            + (" (cached)" if cached else "") + f", view {view.wall:.2f} s")
        self._set_exports_enabled(True)
        self._detail_key = None
        self.detail.clear()
        self.shown.emit(view)

    def _show_entries(self) -> None:
        view = self._view
        if view is None:
            return
        self._fill_grid(self.t_table, view.T, view.T_full, "T")
        rows = len(view.J)
        self.j_table.clearContents()
        self.j_table.setRowCount(rows)
        self.j_table.setColumnCount(view.n)
        self.j_table.setHorizontalHeaderLabels(view.q)
        self.j_table.setVerticalHeaderLabels(list(J_ROWS[:rows]))
        self._fill_grid(self.j_table, view.J, view.J_full, "J")

    def _fill_grid(self, table, grid, full, letter: str) -> None:
        expand = self.expand_box.isChecked()
        for r, row in enumerate(grid):
            for c, text in enumerate(row):
                tip = self._tip(f"{letter}[{r + 1},{c + 1}]", text, full[r][c])
                table.set_entry(r, c, full[r][c] if expand else text, tip)
        table.relayout()

    @staticmethod
    def _tip(label: str, text: str, full: str) -> str:
        out = f"{label} = {text}"
        if full != text:
            short = full if len(full) <= TOOLTIP_MAX else full[:TOOLTIP_MAX] + " \u2026"
            out += f"\n\nexpanded:\n{short}"
        return out

    def copy_selection(self) -> str | None:
        """Copy the selected entry or name, as the engine printed it, to the clipboard."""
        for table in (self.t_table, self.j_table, self.names_table):
            items = table.selectedItems()
            if items:
                text = items[0].data(RAW_ROLE)
                QtGui.QGuiApplication.clipboard().setText(text)
                return text
        return None

    # -- detail pane ----------------------------------------------------------------------------
    def _selected(self, table) -> None:
        items = table.selectedItems()
        if not items:
            return
        for other in (self.t_table, self.j_table, self.names_table):
            if other is not table:
                with QtCore.QSignalBlocker(other):
                    other.clearSelection()
        self._detail_key = (table, items[0].row(), items[0].column())
        self._show_detail()

    def _show_detail(self) -> None:
        view, key = self._view, getattr(self, "_detail_key", None)
        if view is None or key is None or self._closed:
            return
        table, r, c = key
        defs = view.definitions
        char = max(QtGui.QFontMetrics(self.detail.font()).horizontalAdvance("0"), 1)
        bar = self.style().pixelMetric(QtWidgets.QStyle.PixelMetric.PM_ScrollBarExtent)
        width = max((self.detail.viewport().width() - bar - 16) // char, 40)

        def eq(label: str, expr: str) -> str:
            # continuation lines start under the expression, with their operator first
            body = wrap_expression(expr, width - len(label))
            return label + body.replace("\n", "\n" + " " * len(label))

        if table is self.names_table:
            if r >= len(view.names):
                return
            name, text = view.names[r]
            lines = [eq(f"{name} = ", text)]
            full = view.expanded.get(name, text)
            value = None
            used = view.uses.get(name, [])
        else:
            grid, fgrid = (view.T, view.T_full) if table is self.t_table else (view.J, view.J_full)
            if r >= len(grid) or c >= len(grid[0]):
                return
            letter = "T" if table is self.t_table else "J"
            name, text, full = f"{letter}[{r + 1},{c + 1}]", grid[r][c], fgrid[r][c]
            lines = [eq(f"{name} = ", text)]
            num = self.session.T if letter == "T" else self.session.jacobian
            value = float(num[r, c]) if self.session.robot.key == view.key \
                and view.first_n is None else None
            used = view.entry_uses.get(text, [])
        if used:
            lines += ["", "where"] + [eq(f"  {u} = ", defs[u]) for u in used if u in defs]
        if full != text:
            lines += ["", "expanded:", eq("  ", full)]
        if value is not None:
            q = ", ".join(f"{v:.4g}" for v in self.session.q)
            lines += ["", f"at the current pose q = [{q}]:  {value:.6g}"]
        self.detail.setPlainText("\n".join(lines))

    # -- exports ----------------------------------------------------------------------------------
    def _robot_for_export(self):
        robot = self.session.robot
        if self._view is None or self._view.key != robot.key:
            raise RuntimeError("the derivation has not finished yet")
        return robot

    def export_python(self, path) -> Path:
        """Write a numpy module with ``kinematics(q) -> (T, J)`` to ``path`` (atomic)."""
        from robogui.engine.kinematics.symbolic import to_python

        robot = self._robot_for_export()
        src = to_python(robot, "kinematics", self.include_orientation, n=self.joints)
        head = f'# {robot.name}: generated by robogui (symbolic kinematics)\n'
        return atomic_write_text(path, head + src)

    def export_c(self, path) -> Path:
        """Write C99 source of ``void <robot>_kinematics(q, T, J)`` to ``path`` (atomic)."""
        from robogui.engine.kinematics.symbolic import to_c

        robot = self._robot_for_export()
        src = to_c(robot, self.c_function_name, self.include_orientation, n=self.joints)
        return atomic_write_text(path, f"/* {robot.name} */\n" + src)

    @property
    def c_function_name(self) -> str:
        return code_name(self.session.robot.name) + "_kinematics"

    def export_text(self, path) -> Path:
        """Write the names, T and J as plain text to ``path`` (atomic)."""
        self._robot_for_export()
        return atomic_write_text(path, view_to_text(self._view))

    def export_latex(self, path) -> Path:
        """Write a LaTeX document of the names, T and J to ``path`` (atomic)."""
        self._robot_for_export()
        return atomic_write_text(path, view_to_latex(self._view))

    def _export(self, caption: str, suffix: str, name_filter: str, write) -> Path | None:
        base = code_name(self.session.robot.name)
        suggested = f"{base}_kinematics{suffix}"
        path = self.save_file(self, caption, suggested, name_filter)
        if not path:
            return None
        QtWidgets.QApplication.setOverrideCursor(QtCore.Qt.CursorShape.WaitCursor)
        try:
            out = write(path)
        except (OSError, RuntimeError, ValueError) as exc:
            self.present_error("Export failed", f"{path}: {exc}")
            return None
        finally:
            QtWidgets.QApplication.restoreOverrideCursor()
        self.status.setText(f"wrote {out}")
        return out

    def export_python_dialog(self) -> Path | None:
        return self._export("Export Python", ".py", "Python (*.py)", self.export_python)

    def export_c_dialog(self) -> Path | None:
        return self._export("Export C", ".c", "C source (*.c)", self.export_c)

    def export_text_dialog(self) -> Path | None:
        return self._export("Export text", ".txt", "Text (*.txt)", self.export_text)

    def export_latex_dialog(self) -> Path | None:
        return self._export("Export LaTeX", ".tex", "LaTeX (*.tex)", self.export_latex)


def _name_color(name: str) -> str:
    # sines/cosines in the joint palette's blue, shared pieces in teal
    return style.JOINT_COLORS[0] if name[:1] in "sc" else style.JOINT_COLORS[1]
