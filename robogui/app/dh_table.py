"""Read-only table of the current robot's D-H parameters, limits and dynamics."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.engine.link import inertia_vector
from robogui.session import readout

from . import style
from .bindings import Subscriptions

__all__ = ["DHTable", "dh_rows"]


def dh_rows(robot, angle_unit: str = "deg") -> tuple[list[str], list[list[str]]]:
    """Header and text rows of the table (Qt-free, also used by tests)."""
    a_scale = readout.angle_scale(angle_unit)
    mdh = robot.is_mdh
    kin = ["theta", "d", "a(i-1)" if mdh else "a", "alpha(i-1)" if mdh else "alpha"]
    if robot.is_general:  # general (URDF) joints: origin, axis and the constant after it
        kin = ["origin xyz (m)", f"origin rpy ({angle_unit})", "axis", "then xyz / rpy"]
    head = ["joint", "name", *kin, "offset", "qlim min", "qlim max",
            "m", "r (com)", "I [xx yy zz xy yz xz]", "Jm", "G", "B", "Tc [+ -]", "tau max"]
    qlim = robot.qlim
    rows = []

    def g(x, digits=4):
        return f"{x:.{digits}g}"

    for j, L in enumerate(robot.links):
        rev = L.joint == "R"
        unit = angle_unit if rev else "m"
        scale = a_scale if rev else 1.0
        rows.append([
            f"{j + 1} {'R' if rev else 'P'}",
            L.name,
            *(_general_cells(L, a_scale, g) if L.is_general else [
                f"q{j + 1}" if rev else g(L.theta * a_scale) + f" {angle_unit}",
                g(L.d) if rev else f"q{j + 1}",
                g(L.a),
                g(L.alpha * a_scale) + f" {angle_unit}"]),
            g(L.offset * scale) + f" {unit}",
            g(qlim[j, 0] * scale) + f" {unit}",
            g(qlim[j, 1] * scale) + f" {unit}",
            g(L.m),
            " ".join(g(v, 3) for v in L.r),
            " ".join(g(v, 3) for v in inertia_vector(L.I)),
            g(L.Jm),
            g(L.G),
            g(L.B),
            f"{g(L.Tc[0], 3)} {g(L.Tc[1], 3)}",
            "-" if L.tau_max is None else g(L.tau_max),
        ])
    return head, rows


def _general_cells(L, a_scale: float, g) -> list[str]:
    """origin xyz, origin rpy, axis and the constant transform after the motion."""
    from robogui.engine.transforms import tr2rpy

    def xyz(T):
        return " ".join(g(v + 0.0) for v in T[:3, 3])

    def rpy(T):
        return " ".join(g(v * a_scale + 0.0) for v in tr2rpy(T))

    post = "-" if np.array_equal(L.post, np.eye(4)) else f"{xyz(L.post)} / {rpy(L.post)}"
    return [xyz(L.origin), rpy(L.origin), " ".join(g(v + 0.0, 3) for v in L.axis), post]


class DHTable(QtWidgets.QWidget):
    """The D-H and dynamics table, following the session's robot (read-only)."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.caption = QtWidgets.QLabel()
        self.caption.setWordWrap(True)
        self.table = QtWidgets.QTableWidget()
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.setFont(style.monospace_font())
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.caption)
        layout.addWidget(self.table, 1)
        subs = self._subs = Subscriptions(self)
        subs.connect(session.events.robot, lambda _r: self.refresh())
        subs.connect(session.events.tool, lambda _t: self.refresh())
        subs.connect(session.display.events.angle_unit, lambda _u: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        r = self.session.robot
        head, rows = dh_rows(r, self.session.display.angle_unit)
        self.table.clear()
        self.table.setColumnCount(len(head))
        self.table.setRowCount(len(rows))
        self.table.setHorizontalHeaderLabels(head)
        for i, row in enumerate(rows):
            for k, text in enumerate(row):
                item = QtWidgets.QTableWidgetItem(text)
                item.setFlags(item.flags() & ~QtCore.Qt.ItemFlag.ItemIsEditable)  # read-only
                item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignRight
                                      | QtCore.Qt.AlignmentFlag.AlignVCenter)
                if k == 0:
                    item.setForeground(QtGui.QBrush(QtGui.QColor(style.joint_color(i))))
                self.table.setItem(i, k, item)
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
            "Lengths in m, masses in kg, inertias in kg m<sup>2</sup> about the centre of "
            "mass; Jm, B and Tc are motor referred. " + "; ".join(extra))

