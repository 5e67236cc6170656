"""The symbolic dialog's first-n-joints choice and its A(i) / joint-location tabs."""

from __future__ import annotations

import numpy as np
import sympy
from PySide6 import QtCore
from pytestqt.qtbot import QtBot

from robogui.app.symbolic.symbolic_dialog import RAW_ROLE, SymbolicDialog
from robogui.engine.kinematics.symbolic import expression_strings
from robogui.io.robotfile import load_robot
from robogui.session import Session

TIMEOUT = 30000


def _grid(table):
    return [[table.item(r, c).data(RAW_ROLE) for c in range(table.columnCount())]
            for r in range(table.rowCount())]


def test_first_n_joints_and_link_tabs(qtbot: QtBot, errors, tmp_path):
    session = Session(load_robot("puma560"))
    out = tmp_path / "k.py"
    dlg = SymbolicDialog(session, save_file=lambda *a: str(out), present_error=errors)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitUntil(lambda: dlg.view is not None and not dlg.is_busy, timeout=TIMEOUT)
    assert dlg.links.a_table.rowCount() == 24 and dlg.links.loc_table.rowCount() == 7
    # type "2" into the joint-count box as a person would
    box = dlg.joints_box
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), "2")
    qtbot.keyClick(box.lineEdit(), QtCore.Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dlg.view is not None and dlg.view.first_n == 2 and not dlg.is_busy,
                    timeout=TIMEOUT)
    e = expression_strings(session.robot, n=2)
    assert _grid(dlg.t_table) == e["T"]
    assert dlg.j_table.columnCount() == 2
    assert dlg.links.a_table.rowCount() == 8 and dlg.links.loc_table.rowCount() == 3
    assert _grid(dlg.links.a_table)[:4] == e["A"][0]
    assert _grid(dlg.links.loc_table) == e["locations"]
    assert "first 2 of 6 joints" in dlg.caption.text()
    # the T entries evaluate to link frame 2 at a pose
    q = np.array([0.3, -0.5])
    syms = {s: sympy.Symbol(s) for s in ("q1", "q2")}
    names = dict(e["names"])
    syms.update({k: sympy.Symbol(k) for k in names})
    vals = {syms["q1"]: q[0], syms["q2"]: q[1]}
    for k, text in e["names"]:
        vals[syms[k]] = float(sympy.sympify(text, locals=syms).subs(vals))
    T = np.array([[float(sympy.sympify(s, locals=syms).subs(vals)) for s in row]
                  for row in _grid(dlg.t_table)])
    np.testing.assert_allclose(T, session.robot.fkine_all(np.r_[q, 0, 0, 0, 0])[2], atol=1e-9)
    # the Python export follows the choice: kinematics(q) with two joint values
    dlg.btn_python.click()
    ns: dict = {}
    exec(out.read_text(), ns)  # noqa: S102
    Tx, Jx = ns["kinematics"](q)
    np.testing.assert_allclose(Tx, T, atol=1e-9)
    assert Jx.shape == (6, 2)
    # a robot with fewer joints: the box follows
    session.set_robot(load_robot("twolink"))
    qtbot.waitUntil(lambda: dlg.view is not None and dlg.view.n == 2 and not dlg.is_busy,
                    timeout=TIMEOUT)
    assert box.maximum() == 2
    dlg.close()
