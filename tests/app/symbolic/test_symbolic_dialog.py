"""The symbolic kinematics dialog: shown entries, re-derivation, exports, safe closing."""

from __future__ import annotations

import ctypes
import importlib.util
import re
import shutil
import subprocess

import numpy as np
import pytest
import sympy
from PySide6 import QtCore, QtWidgets

from robogui.app.symbolic.symbolic_dialog import RAW_ROLE, SymbolicDialog, wait_for_derivations
from robogui.app.symbolic.symbolic_text import view_to_latex, wrap_expression
from robogui.engine.kinematics.jacobians import jacob0
from robogui.engine.kinematics.kinematics import fkine
from robogui.engine.kinematics.symbolic import expression_strings
from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.engine.spatial.transforms import rpy2tr, transl
from robogui.io.robotfile import load_robot
from robogui.session import Session

TIMEOUT = 20000


class SaveTo:
    """An injectable save-file chooser: answers with the next queued path, records calls."""

    def __init__(self, *paths):
        self.paths, self.calls = list(paths), []

    def __call__(self, parent, caption, suggested, name_filter):
        self.calls.append((caption, suggested, name_filter))
        return str(self.paths.pop(0)) if self.paths else None


@pytest.fixture
def twolink_session():
    return Session(load_robot("twolink"))


def open_dialog(qtbot, session, errors, save=None):
    dlg = SymbolicDialog(session, save_file=save or SaveTo(), present_error=errors)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitUntil(lambda: dlg.view is not None and not dlg.is_busy, timeout=TIMEOUT)
    return dlg


def shown_grid(table) -> list[list[str]]:
    return [[table.item(r, c).data(RAW_ROLE) for c in range(table.columnCount())]
            for r in range(table.rowCount())]


def shown_names(dlg) -> list[tuple[str, str]]:
    t = dlg.names_table
    return [(t.raw(r, 0), t.raw(r, 1)) for r in range(t.rowCount())]


def evaluate_shown(names, grid, qnames, q) -> np.ndarray:
    """Numbers of displayed entries: the names are evaluated in order with sympy."""
    syms = {s: sympy.Symbol(s) for s in qnames}
    syms.update({name: sympy.Symbol(name) for name, _ in names})
    values = {syms[s]: float(v) for s, v in zip(qnames, q, strict=True)}
    for name, text in names:
        values[syms[name]] = float(sympy.sympify(text, locals=syms).subs(values))
    return np.array([[float(sympy.sympify(s, locals=syms).subs(values)) for s in row]
                     for row in grid])


def test_entries_equal_the_engine_strings_and_evaluate_to_fkine(qtbot, twolink_session,
                                                                 errors):
    robot = twolink_session.robot
    dlg = open_dialog(qtbot, twolink_session, errors)
    e = expression_strings(robot)
    assert shown_grid(dlg.t_table) == e["T"]
    assert shown_grid(dlg.j_table) == e["J"]
    assert shown_names(dlg) == e["names"]
    assert dlg.j_table.rowCount() == 6 and dlg.j_table.columnCount() == 2
    # the tip x position of a two-link arm with a1 = a2 = 1, in textbook short-hand
    defs = dict(e["names"])
    assert dlg.view.T_full[0][3] == "c1 + c12" and defs["c12"] == "cos(q1 + q2)"
    assert defs[e["T"][0][3]] == "c1 + c12"
    # the cells show the same text (short entries are not wrapped)
    assert dlg.t_table.item(0, 3).text() == e["T"][0][3]
    for q in ([0.3, -1.1], [2.0, 0.7]):
        np.testing.assert_allclose(evaluate_shown(e["names"], e["T"], e["q"], q),
                                   fkine(robot, q), atol=1e-12)
        np.testing.assert_allclose(evaluate_shown(e["names"], e["J"], e["q"], q),
                                   jacob0(robot, q), atol=1e-12)
    assert errors == []


def test_puma_entries_are_wrapped_in_cells_and_still_exact(qtbot, session, errors):
    dlg = open_dialog(qtbot, session, errors)
    v = dlg.view
    assert shown_grid(dlg.t_table) == v.T and shown_names(dlg) == v.names
    # a long entry is broken before its operators to fit the column
    long_cells = [dlg.t_table.item(r, c) for r in range(3) for c in range(4)
                  if len(v.T[r][c]) > 30]
    assert long_cells
    for item in long_cells:
        shown = item.text()
        assert "\n" in shown and re.search(r"\n[+-] ", shown)
        if not shown.endswith("\u2026"):
            assert " ".join(shown.split()) == " ".join(item.data(RAW_ROLE).split())
    q = session.robot.random_q(seed=3)
    np.testing.assert_allclose(evaluate_shown(v.names, v.T, v.q, q), fkine(session.robot, q),
                               atol=1e-10)
    np.testing.assert_allclose(evaluate_shown(v.names, v.J, v.q, q),
                               jacob0(session.robot, q), atol=1e-10)
    # the detail pane: definition, names used, expansion, value at the current pose
    dlg.t_table.setCurrentCell(0, 3)
    text = dlg.detail.toPlainText()
    assert text.startswith(f"T[1,4] = {v.T[0][3]}")
    assert "expanded:" in text and f"{session.T[0, 3]:.6g}" in text
    assert dlg.copy_selection() == v.T[0][3]
    assert "expanded" in dlg.t_table.item(0, 3).toolTip()
    # cells in sines and cosines only
    dlg.expand_box.setChecked(True)
    assert shown_grid(dlg.t_table) == v.T_full and shown_grid(dlg.j_table) == v.J_full
    assert not any(re.search(r"\bt\d+\b", s) for row in v.T_full for s in row)
    np.testing.assert_allclose(evaluate_shown(v.names, v.T_full, v.q, q),
                               fkine(session.robot, q), atol=1e-10)
    dlg.expand_box.setChecked(False)
    assert shown_grid(dlg.t_table) == v.T


def test_wrap_expression_breaks_before_operators():
    text = "c1*c23*c4*c5*c6 - c6*s1*t6 - c6*s5*t5 - s6*t4 - t2"
    assert wrap_expression(text, 20) == "c1*c23*c4*c5*c6\n- c6*s1*t6\n- c6*s5*t5 - s6*t4\n- t2"
    assert wrap_expression(text, 80) == text
    cut = wrap_expression(text, 12, max_lines=2)
    assert cut.count("\n") == 1 and cut.endswith("\u2026")
    assert all(len(line) <= 12 for line in wrap_expression("0.088*c1*c2*c3*c4*c5", 12).split())


def test_tool_change_and_orientation_rows_rederive(qtbot, twolink_session, errors):
    dlg = open_dialog(qtbot, twolink_session, errors)
    first = dlg.view
    seen = []
    dlg.shown.connect(seen.append)
    tool = transl(0.5, 0, 0) @ rpy2tr([0.0, 0.0, 0.4])
    twolink_session.set_tool(tool)
    qtbot.waitUntil(lambda: len(seen) == 1, timeout=TIMEOUT)
    robot = twolink_session.robot
    assert dlg.view.key == robot.key != first.key
    e = expression_strings(robot)
    assert shown_grid(dlg.t_table) == e["T"] and e["T"] != first.T
    q = [0.4, 0.9]
    np.testing.assert_allclose(evaluate_shown(e["names"], e["T"], e["q"], q),
                               fkine(robot, q), atol=1e-12)
    assert "tool" in dlg.caption.text()
    # position-only Jacobian (JFKengine includeOrientation = false)
    dlg.orientation_box.setChecked(False)
    qtbot.waitUntil(lambda: len(seen) == 2, timeout=TIMEOUT)
    e3 = expression_strings(robot, include_orientation=False)
    assert dlg.j_table.rowCount() == 3 and shown_grid(dlg.j_table) == e3["J"]
    np.testing.assert_allclose(evaluate_shown(e3["names"], e3["J"], e3["q"], q),
                               jacob0(robot, q)[:3], atol=1e-12)
    # an unchanged robot is not derived again
    twolink_session.set_q([0.1, 0.2])
    assert not dlg.is_busy


def _test_robot() -> Robot:
    """Revolute and prismatic joints, offsets, a base and a tool: every path of the engine."""
    links = [Link(joint="R", d=0.4, a=0.1, alpha=np.pi / 2, offset=0.2, qlim=(-2, 2)),
             Link(joint="R", a=0.5, alpha=0.3, qlim=(-2, 2)),
             Link(joint="P", theta=0.5, a=0.05, alpha=-np.pi / 2, offset=0.1, qlim=(0, 0.4)),
             Link(joint="R", d=0.1, alpha=0.7, offset=-0.3, qlim=(-2, 2))]
    return Robot(links, name="test rrpr", base=transl(0.1, 0.2, 0.3), tool=transl(0, 0, 0.15))


def test_exports_compile_import_and_match_the_numeric_engine(qtbot, errors, tmp_path):
    robot = _test_robot()
    session = Session(robot)
    py, c, txt, tex = (tmp_path / n for n in ("kin.py", "kin.c", "kin.txt", "kin.tex"))
    save = SaveTo(py, c, txt, tex)
    dlg = open_dialog(qtbot, session, errors, save)
    assert dlg.export_python_dialog() == py
    assert dlg.export_c_dialog() == c
    assert dlg.export_text_dialog() == txt
    assert dlg.export_latex_dialog() == tex
    assert [s for _, s, _ in save.calls] == ["test_rrpr_kinematics" + x
                                             for x in (".py", ".c", ".txt", ".tex")]
    assert not list(tmp_path.glob(".*.tmp")) and errors == []  # atomic writes, no leftovers
    q = robot.random_q(5, seed=2)
    T_ref, J_ref = fkine(robot, q), jacob0(robot, q)

    spec = importlib.util.spec_from_file_location("exported_kinematics", py)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    T, J = mod.kinematics(q)
    np.testing.assert_allclose(T, T_ref, atol=1e-12)
    np.testing.assert_allclose(J, J_ref, atol=1e-12)

    cc = shutil.which("cc")
    assert cc, "a C compiler is needed for this test"
    subprocess.run([cc, "-std=c99", "-Wall", "-Werror", "-fsyntax-only", str(c)], check=True)
    lib = tmp_path / "libkin.so"
    subprocess.run([cc, "-std=c99", "-shared", "-fPIC", "-O1", "-o", str(lib), str(c), "-lm"],
                   check=True)
    fn = getattr(ctypes.CDLL(str(lib)), dlg.c_function_name)
    dp = ctypes.POINTER(ctypes.c_double)
    for k in range(q.shape[0]):
        qk = np.ascontiguousarray(q[k])
        Tk, Jk = np.zeros(16), np.zeros(6 * robot.n)
        fn(qk.ctypes.data_as(dp), Tk.ctypes.data_as(dp), Jk.ctypes.data_as(dp))
        np.testing.assert_allclose(Tk.reshape(4, 4), T_ref[k], atol=1e-12)
        np.testing.assert_allclose(Jk.reshape(6, robot.n), J_ref[k], atol=1e-12)

    text = txt.read_text()
    v = dlg.view
    assert f"T[1,4] = {v.T[0][3]}" in text and f"{v.names[0][0]} = {v.names[0][1]}" in text
    assert "T = base * A1(q1) * A2(q2) * A3(q3) * A4(q4) * tool" in text
    latex = tex.read_text()
    assert latex == view_to_latex(v)
    assert "\\begin{document}" in latex and latex.count("{") == latex.count("}")
    assert "&= \\sin{\\left(q_{1} + 0.2 \\right)}" in latex and "t_{1} &= " in latex
    # long sums are broken over aligned lines before their signs
    assert "\\\\\n    &\\quad - " in latex or "\\\\\n    &\\quad + " in latex


def test_export_failure_is_shown(qtbot, twolink_session, errors, tmp_path):
    dlg = open_dialog(qtbot, twolink_session, errors,
                      SaveTo(tmp_path / "no such dir" / "k.py"))
    assert dlg.export_python_dialog() is None
    assert errors and errors[0][0] == "Export failed" and "no such dir" in errors[0][1]
    assert SaveTo()(None, "", "", "") is None
    dlg.save_file = SaveTo()  # cancelled: nothing happens
    assert dlg.export_c_dialog() is None and len(errors) == 1


def test_close_while_deriving_is_safe_and_unsubscribes(qtbot, errors):
    from robogui.engine.kinematics.symbolic import clear_cache

    clear_cache()  # make sure the derivation really runs in the thread
    robot = _test_robot().with_tool(transl(0, 0.3, 0))
    session = Session(robot)
    before = {name: len(session.events[name]) for name in ("robot", "tool", "changed")}
    dlg = SymbolicDialog(session, save_file=SaveTo(), present_error=errors)
    qtbot.addWidget(dlg)
    dlg.show()
    assert dlg.is_busy and dlg.busy.isVisible() and not dlg.btn_python.isEnabled()
    assert all(len(session.events[n]) == before[n] + 1 for n in before)
    dlg.close()
    assert not dlg.is_subscribed
    assert all(len(session.events[n]) == before[n] for n in before)
    assert wait_for_derivations()
    QtWidgets.QApplication.processEvents()
    assert dlg.view is None and errors == []  # the late result is ignored
    session.set_tool(np.eye(4))  # no longer followed: nothing starts
    assert not dlg.is_busy
    # shown again, it follows the session once more
    dlg.show()
    qtbot.waitUntil(lambda: dlg.view is not None, timeout=TIMEOUT)
    assert dlg.view.key == session.robot.key
    dlg.reject()  # Esc
    assert not dlg.is_subscribed


def test_derivation_error_is_presented(qtbot, errors, monkeypatch):
    import robogui.app.symbolic.symbolic_dialog as mod

    def boom(robot, include_orientation=True):
        raise ValueError("no symbols today")

    monkeypatch.setattr(mod, "derive_view", boom)
    session = Session(load_robot("twolink"))
    dlg = SymbolicDialog(session, save_file=SaveTo(), present_error=errors)
    qtbot.addWidget(dlg)
    qtbot.waitUntil(lambda: not dlg.is_busy, timeout=TIMEOUT)
    assert errors == [("Symbolic kinematics", "ValueError: no symbols today")]
    assert "no symbols today" in dlg.status.text() and dlg.view is None
    QtCore.QCoreApplication.processEvents()
