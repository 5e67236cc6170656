"""JFKengine's "first n joints" for the symbolic T and J, and the A(i) / joint-location texts."""

import numpy as np
import pytest
import sympy

from robogui import load_robot
from robogui.engine.kinematics import symbolic as S

Q = np.array([0.1, -0.4, 0.3, 0.5, -0.2, 0.7])


def _num(expr, q):
    syms = sympy.symbols(f"q1:{len(q) + 1}", real=True)
    return np.array(sympy.lambdify(syms, expr, "numpy")(*q), dtype=float)


def test_first_n_joints_T_and_J():
    puma = load_robot("puma560").with_tool([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.1],
                                            [0, 0, 0, 1]])
    for n in (1, 3):
        T = S.fkine_sym(puma, n)
        J = S.jacobian_sym(puma, n=n)
        assert T.free_symbols <= set(sympy.symbols(f"q1:{n + 1}", real=True))
        assert J.shape == (6, n)
        # link frame n (no tool), and the columns of jacob0(q, end=n)
        np.testing.assert_allclose(_num(T, Q[:n]), puma.fkine_all(Q)[n], atol=1e-12)
        np.testing.assert_allclose(_num(J, Q[:n]), puma.jacob0(Q, end=n)[:, :n], atol=1e-12)
        assert S.jacobian_sym(puma, False, n=n).shape == (3, n)
        assert len(S.link_matrices_sym(puma, n)) == n
        assert len(S.joint_locations_sym(puma, n)) == n + 1
    # all joints (the default) keeps the tool
    assert S.fkine_sym(puma, 6) == S.fkine_sym(puma)
    np.testing.assert_allclose(S.evaluate(puma, Q[:2], n=2)[0], puma.fkine_all(Q)[2], atol=1e-12)
    assert "q3" not in S.to_python(puma, n=2) and "q2" in S.to_c(puma, n=2)
    with pytest.raises(ValueError, match=r"1\.\.6"):
        S.fkine_sym(puma, 0)


def test_expression_strings_link_matrices_and_locations():
    puma = load_robot("puma560")
    e = S.expression_strings(puma, n=2)
    assert len(e["A"]) == 2 and len(e["locations"]) == 3
    # A1 of the Puma (alpha1 = 90 deg, a = d = 0): [c1 0 s1 0; s1 0 -c1 0; 0 1 0 0; 0 0 0 1]
    assert e["A"][0] == [["c1", "0", "s1", "0"], ["s1", "0", "-c1", "0"],
                         ["0", "1", "0", "0"], ["0", "0", "0", "1"]]
    assert e["locations"][0] == ["0", "0", "0"]  # the base frame at the shoulder
    names = dict(e["names"])
    assert names["c1"] == "cos(q1)"
    # every location evaluates to the frame origins of fkine_all
    local = {k: sympy.sympify(v) for k, v in names.items() if k[0] in "sc"}
    q1, q2 = sympy.symbols("q1 q2")
    for k, loc in enumerate(e["locations"]):
        vals = [float(sympy.sympify(t).subs(local).subs({q1: Q[0], q2: Q[1]})) for t in loc]
        np.testing.assert_allclose(vals, puma.fkine_all(Q)[k][:3, 3], atol=1e-4)
