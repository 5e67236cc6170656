"""The D-H editor: the robot's D-H parameters, limits and dynamics as an editable table.

A ``QTableView`` on :class:`DHTableModel` (a ``QAbstractTableModel`` over the session's
robot). What a cell means and how a typed text becomes a new robot is Qt-free
(:mod:`robogui.session.explain.dh_edit`); this module only shows it and commits it:

* while a cell is being typed the 3D view follows every valid keystroke (a preview,
  not recorded), an invalid text turns the editor red with the reason as its tooltip;
* Enter commits the edit as one undo step ("Edit d of link 2"); Escape puts the robot
  back; a committed invalid text keeps the robot and shows the reason on the cell
  (red, tooltip, and under the table) until the cell is edited again;
* the buttons add, insert, delete and move links (one undo step each);
* selecting a row emits :attr:`DHTable.linkSelected` (the 3D frame annotations
  highlight that link).
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.explain import dh_edit

from .. import style, undo
from ..bindings import Subscriptions

__all__ = ["DHTable", "DHTableModel", "dh_head", "dh_rows"]

_ERROR_BG = "#7a2630"
_Role = QtCore.Qt.ItemDataRole


def dh_head(robot, angle_unit: str = "deg", length_unit: str = "m") -> list[str]:
    """Column headers of the table for ``robot`` (without the cells: the header view asks
    for them once per column and repaint, and a 200-link robot has 200 rows of cells)."""
    head = [c.head for c in dh_edit.COLUMNS]
    if robot.is_general:  # general (URDF) joints: origin, axis and the constant after it
        for key, text in dh_edit.GENERAL_HEADS.items():
            head[dh_edit.column_index(key)] = text.replace("(deg)", f"({angle_unit})").replace(
                "(m)", f"({length_unit})")
    elif robot.is_mdh:
        head[dh_edit.column_index("a")] = "a(i-1)"
        head[dh_edit.column_index("alpha")] = "alpha(i-1)"
    return head


def dh_rows(robot, angle_unit: str = "deg",
            length_unit: str = "m") -> tuple[list[str], list[list[str]]]:
    """Header and text rows of the table (Qt-free, also used by tests)."""
    head = dh_head(robot, angle_unit, length_unit)
    rows = [[dh_edit.cell_text(robot, i, k, angle_unit, length_unit) for k in range(len(head))]
            for i in range(robot.n)]
    return head, rows


class DHTableModel(QtCore.QAbstractTableModel):
    """The session's robot as a table; edits go back through the session (and undo)."""

    #: a sentence for the status line: the last refused edit, or "" after a good one
    message = QtCore.Signal(str)

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.errors: dict[tuple[int, int], tuple[str, str]] = {}  # cell -> (text, reason)
        self._start = None  # RobotSnapshot when a live preview began
        self._robot = session.robot
        self._subs = Subscriptions(self)
        self._subs.connect(session.events.robot, self._on_robot)
        # the app's global units: angles and lengths shown and typed in them
        self._subs.connect(session.display.events.angle_unit, lambda _u: self._refresh_all())
        self._subs.connect(session.display.events.length_unit, lambda _u: self._refresh_all())

    # -- the table -------------------------------------------------------------------------
    @property
    def unit(self) -> str:
        """The display's angle unit ("deg" or "rad")."""
        return self.session.display.angle_unit

    @property
    def length_unit(self) -> str:
        """The display's length unit ("mm" or "m")."""
        return self.session.display.length_unit

    def rowCount(self, parent=QtCore.QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else self._robot.n

    def columnCount(self, parent=QtCore.QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(dh_edit.COLUMNS)

    def headerData(self, section, orientation, role=_Role.DisplayRole):  # noqa: N802
        if orientation == QtCore.Qt.Orientation.Vertical:
            return str(section + 1) if role == _Role.DisplayRole else None
        col = dh_edit.COLUMNS[section]
        if role == _Role.DisplayRole:
            head = dh_head(self._robot, self.unit, self.length_unit)[section]
            unit = {"angle": self.unit, "length": self.length_unit}.get(col.kind)
            if col.key == "r":
                unit = self.length_unit
            if self._robot.is_general and col.key in dh_edit.GENERAL_HEADS:
                return head
            return f"{head} [{unit}]" if unit else head
        if role == _Role.ToolTipRole:
            return dh_edit.column_tip(self._robot, section)
        return None

    def data(self, index, role=_Role.DisplayRole):
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        bad = self.errors.get((r, c))
        if role in (_Role.DisplayRole, _Role.EditRole):
            if bad is not None:
                return bad[0]
            text = dh_edit.cell_text(self._robot, r, c, self.unit, self.length_unit)
            if role == _Role.DisplayRole and dh_edit.COLUMNS[c].kind == "joint" and text != "-":
                text += " " + dh_edit.unit_of(self._robot, r, c, self.unit, self.length_unit)
            return text
        if role == _Role.ToolTipRole:
            return bad[1] if bad is not None else dh_edit.column_tip(self._robot, c)
        if role == _Role.BackgroundRole and bad is not None:
            return QtGui.QBrush(QtGui.QColor(_ERROR_BG))
        if role == _Role.ForegroundRole and c == 0:
            return QtGui.QBrush(QtGui.QColor(style.joint_color(r)))
        if role == _Role.TextAlignmentRole:
            return int(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index):
        if not index.isValid():
            return QtCore.Qt.ItemFlag.NoItemFlags
        return (QtCore.Qt.ItemFlag.ItemIsEnabled | QtCore.Qt.ItemFlag.ItemIsSelectable
                | QtCore.Qt.ItemFlag.ItemIsEditable)

    def setData(self, index, value, role=_Role.EditRole) -> bool:  # noqa: N802
        """Commit ``value`` typed into a cell: one undo step, or the reason on the cell."""
        if role != _Role.EditRole or not index.isValid():
            return False
        return self.commit(index.row(), index.column(), str(value))

    # -- editing ----------------------------------------------------------------------------
    def preview(self, row: int, col: int, text: str) -> str:
        """Show the robot with ``text`` in cell (row, col) while it is typed, without an
        undo step; returns "" when valid, else the reason (the robot stays as it was)."""
        if self._start is None:
            self._start = undo.RobotSnapshot.of(self.session)
        try:
            robot = dh_edit.edit_cell(self._start.robot, row, col, text, self.unit,
                                      self.length_unit)
        except ValueError as exc:
            self._quiet(lambda: self.session.set_robot(self._start.robot, self._start.q))
            return str(exc)
        self._quiet(lambda: self.session.set_robot(robot, self._start.q))
        return ""

    def cancel_preview(self) -> None:
        """Escape: the robot as it was before typing began."""
        start, self._start = self._start, None
        if start is not None:
            self._quiet(lambda: start.restore(self.session))

    def _quiet(self, change) -> None:
        manager = undo.manager_for(self.session)
        if manager is None:
            change()
            return
        with manager.paused():
            change()

    def commit(self, row: int, col: int, text: str) -> bool:
        base = self._start.robot if self._start is not None else self._robot
        q = self._start.q if self._start is not None else self.session.q
        head = dh_edit.COLUMNS[col].head
        try:
            robot = dh_edit.edit_cell(base, row, col, text, self.unit, self.length_unit)
        except ValueError as exc:
            self.cancel_preview()
            self.errors[(row, col)] = (text, str(exc))
            self._cell_changed(row, col)
            self.message.emit(str(exc))
            return False
        self.cancel_preview()
        self.errors.pop((row, col), None)
        self.apply(robot, q, f"Edit {head} of link {row + 1}")
        self._cell_changed(row, col)
        self.message.emit("")
        return True

    def apply(self, robot, q, text: str) -> None:
        """The one commit point: ``robot`` at ``q`` as one undo step called ``text``."""
        with undo.labelled(self.session, text):
            self.session.set_robot(robot, q)
        undo.close_merge(self.session)

    def row_edit(self, op: str, row: int) -> str:
        """"insert" (before row), "append", "delete", "up", "down": one undo step each;
        returns "" or the reason it was refused."""
        r, q = self._robot, self.session.q
        try:
            if op in ("insert", "append"):
                at = r.n if op == "append" else row
                new, q_new, text = dh_edit.insert_link(r, at), dh_edit.map_q(
                    q, r.n + 1, inserted=at), f"Insert link {at + 1}"
            elif op == "delete":
                new, q_new, text = dh_edit.delete_link(r, row), dh_edit.map_q(
                    q, r.n - 1, deleted=row), f"Delete link {row + 1}"
            elif op in ("up", "down"):
                d = -1 if op == "up" else 1
                new = dh_edit.move_link(r, row, d)
                order = list(range(r.n))
                order.insert(row + d, order.pop(row))
                q_new, text = dh_edit.map_q(q, r.n, order=order), f"Move link {row + 1} {op}"
            else:
                raise ValueError(f"unknown row operation {op!r}")
        except ValueError as exc:
            self.message.emit(str(exc))
            return str(exc)
        self.errors.clear()
        self.apply(new, q_new, text)
        self.message.emit("")
        return ""

    # -- following the session ------------------------------------------------------------
    def _on_robot(self, robot) -> None:
        old, self._robot = self._robot, robot
        if self._start is not None and robot.n == old.n:
            self._refresh_all()  # a preview: keep the open editor (no reset)
            return
        self.beginResetModel()
        if robot.n != old.n:
            self.errors.clear()
        self.endResetModel()

    def _refresh_all(self) -> None:
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(self.rowCount() - 1, self.columnCount() - 1))
        self.headerDataChanged.emit(QtCore.Qt.Orientation.Horizontal, 0, self.columnCount() - 1)

    def _cell_changed(self, row: int, col: int) -> None:
        self._refresh_all()


class _LiveDelegate(QtWidgets.QStyledItemDelegate):
    """Line editors that preview every keystroke and show why a text is refused."""

    def __init__(self, model: DHTableModel, parent=None):
        super().__init__(parent)
        self.model = model
        self._committed = False

    def createEditor(self, parent, option, index):  # noqa: N802
        editor = QtWidgets.QLineEdit(parent)
        editor.setFont(style.monospace_font())
        self._committed = False
        r, c = index.row(), index.column()
        editor.textEdited.connect(lambda text, e=editor: self._typed(e, r, c, text))
        return editor

    def _typed(self, editor: QtWidgets.QLineEdit, row: int, col: int, text: str) -> None:
        reason = self.model.preview(row, col, text)
        editor.setProperty("invalid", bool(reason))
        editor.setStyleSheet(f"background: {_ERROR_BG};" if reason else "")
        editor.setToolTip(reason)

    def setEditorData(self, editor, index):  # noqa: N802
        if not editor.isModified():  # a preview refresh must not overwrite the typing
            editor.setText(str(index.data(_Role.EditRole)))

    def setModelData(self, editor, model, index):  # noqa: N802
        self._committed = True
        model.setData(index, editor.text(), _Role.EditRole)

    def destroyEditor(self, editor, index):  # noqa: N802
        if not self._committed:
            self.model.cancel_preview()
        self._committed = False
        super().destroyEditor(editor, index)


class DHTable(QtWidgets.QWidget):
    """The D-H editor dock: table, row buttons, caption and the last refusal."""

    #: 0-based link index of the selected row (-1: none)
    linkSelected = QtCore.Signal(int)

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.model = DHTableModel(session, self)
        self.caption = QtWidgets.QLabel()
        self.caption.setWordWrap(True)
        self.table = QtWidgets.QTableView()
        self.table.setModel(self.model)
        self.delegate = _LiveDelegate(self.model, self.table)
        self.table.setItemDelegate(self.delegate)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.DoubleClicked
                                   | QtWidgets.QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QtWidgets.QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.table.setAlternatingRowColors(True)
        self.table.setFont(style.monospace_font())
        # column widths from the header and the first rows, not every row: sizing a
        # 200-link table cell by cell took ~0.3 s of the GUI thread per robot change
        self.table.horizontalHeader().setResizeContentsPrecision(24)
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.status = QtWidgets.QLabel()
        self.status.setWordWrap(True)
        self.status.setStyleSheet("color: #ff8080;")
        buttons = QtWidgets.QHBoxLayout()
        self.buttons = {}
        for op, text, tip in (("append", "Add", "append a link at the end"),
                              ("insert", "Insert", "insert a link above the selected one"),
                              ("delete", "Delete", "delete the selected link"),
                              ("up", "Up", "move the selected link up"),
                              ("down", "Down", "move the selected link down")):
            b = QtWidgets.QToolButton()
            b.setText(text)
            b.setToolTip(tip)
            b.clicked.connect(lambda _=False, o=op: self.row_edit(o))
            buttons.addWidget(b)
            self.buttons[op] = b
        buttons.addStretch(1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.caption)
        layout.addLayout(buttons)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        self.model.message.connect(self.status.setText)
        self.model.modelReset.connect(self._after_reset)
        self.table.selectionModel().currentChanged.connect(
            lambda cur, _prev: self.linkSelected.emit(cur.row() if cur.isValid() else -1))
        subs = self._subs = Subscriptions(self)
        subs.connect(session.events.robot, lambda _r: self.refresh())
        subs.connect(session.events.tool, lambda _t: self.refresh())
        subs.connect(session.display.events.length_unit, lambda _u: self.refresh())
        subs.connect(session.display.events.angle_unit, lambda _u: self.refresh())
        self.refresh()

    def selected_row(self) -> int:
        idx = self.table.currentIndex()
        return idx.row() if idx.isValid() else -1

    def row_edit(self, op: str) -> str:
        """Run a row operation on the selected row (or the last row when none)."""
        row = self.selected_row()
        if row < 0:
            row = self.session.robot.n - 1
        reason = self.model.row_edit(op, row)
        if not reason:
            target = {"insert": row, "append": self.session.robot.n - 1,
                      "delete": min(row, self.session.robot.n - 1),
                      "up": row - 1, "down": row + 1}[op]
            col = max(self.table.currentIndex().column(), 0)
            self.table.setCurrentIndex(self.model.index(target, col))
        return reason

    def _after_reset(self) -> None:
        self.table.resizeColumnsToContents()

    def refresh(self) -> None:
        r = self.session.robot
        self.table.resizeColumnsToContents()
        g = r.gravity
        extra = []
        if not np.array_equal(r.base, np.eye(4)):
            extra.append("base " + np.array2string(r.base[:3, 3], precision=3))
        if not r.tool_is_identity:
            extra.append("tool " + np.array2string(r.tool[:3, 3], precision=3))
        self.caption.setText(
            f"<b>{r.name}</b> {('(' + r.manufacturer + ')') if r.manufacturer else ''} - "
            f"{r.n} axis {r.structure}, {r.convention}, "
            f"gravity [{g[0]:.3g} {g[1]:.3g} {g[2]:.3g}] m/s<sup>2</sup>. "
            "Type into a cell (Enter commits, Esc reverts; expressions like -pi/2 work, "
            "and a unit: 1.5 rad, 30 deg, 12 mm, 0.3 m). "
            f"Lengths in {self.session.display.length_unit}, angles in "
            f"{self.session.display.angle_unit}, masses in kg, inertias in kg m<sup>2</sup> "
            "about the centre of mass; Jm, B and Tc are motor referred. " + "; ".join(extra))
