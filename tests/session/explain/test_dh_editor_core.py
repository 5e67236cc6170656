"""The D-H editor's Qt-free core: a typed cell gives a new robot or the reason why not."""

from __future__ import annotations

import math

import numpy as np
import pytest

from robogui.io.robotfile import load_robot, robot_from_toml, robot_to_toml
from robogui.session.explain.chain import chain_step
from robogui.session.explain.dh_edit import (
    cell_text,
    column_index,
    delete_link,
    edit_cell,
    insert_link,
    map_q,
    move_link,
    one_link_robot,
    parse_number,
)


def test_dh_editor_core_cells_round_trip_through_text():
    puma = load_robot("puma560")
    for row in range(puma.n):
        for key in ("a", "alpha", "offset", "qmin", "qmax", "m", "r", "I", "Tc", "G", "Jm"):
            col = column_index(key)
            text = cell_text(puma, row, col, "rad")
            again = edit_cell(puma, row, col, text, "rad")
            # 6 significant digits shown: the value comes back to that precision
            L0, L1 = puma.links[row], again.links[row]
            assert np.allclose([L1.a, L1.alpha, L1.offset, L1.m, L1.G, L1.Jm, *L1.qlim],
                               [L0.a, L0.alpha, L0.offset, L0.m, L0.G, L0.Jm, *L0.qlim],
                               rtol=1e-5, atol=1e-12)
            assert np.allclose(L1.I, L0.I, rtol=1e-3, atol=1e-12)
            assert np.allclose(L1.r, L0.r, rtol=1e-3) and np.allclose(L1.Tc, L0.Tc, rtol=1e-3)
    assert cell_text(puma, 0, column_index("theta")) == "q1"
    assert cell_text(puma, 2, column_index("d")) == "0.15005"


def test_dh_editor_core_expressions_units_and_reasons():
    assert parse_number("-pi/2") == -math.pi / 2
    assert parse_number("0.15 + 0.02") == pytest.approx(0.17)
    for bad, why in (("abc", "not a number"), ("1/0", "not a number"), ("1e999", "finite"),
                     ("", "empty"), ("__import__('os')", "not a number")):
        with pytest.raises(ValueError, match=why):
            parse_number(bad)
    puma = load_robot("puma560")
    r = edit_cell(puma, 0, column_index("alpha"), "45", "deg")
    assert r.links[0].alpha == pytest.approx(math.pi / 4)
    with pytest.raises(ValueError, match="link 2, m: .*must not be negative"):
        edit_cell(puma, 1, column_index("m"), "-3")
    with pytest.raises(ValueError, match="link 1, I .*positive semi-definite"):
        edit_cell(puma, 0, column_index("I"), "-1 0 0 0 0 0")
    with pytest.raises(ValueError, match="type 3 numbers"):
        edit_cell(puma, 0, column_index("r"), "1 2")
    with pytest.raises(ValueError, match="joint variable q1"):
        edit_cell(puma, 0, column_index("theta"), "10")
    mod = edit_cell(puma, 0, column_index("convention"), "modified")
    assert mod.is_mdh and all(L.mdh for L in mod.links)


def test_dh_editor_core_rows_and_joint_vector():
    puma = load_robot("puma560")
    r = insert_link(puma, 2)
    assert r.n == 7 and r.links[3:] == puma.links[2:] and r.pose("qr").shape == (7,)
    assert delete_link(r, 2).links == puma.links
    m = move_link(puma, 0, 1)
    assert m.links[0] == puma.links[1] and m.links[1] == puma.links[0]
    assert np.allclose(m.pose("qr"), puma.pose("qr")[[1, 0, 2, 3, 4, 5]])
    with pytest.raises(ValueError, match="last one"):
        delete_link(one_link_robot(), 0)
    with pytest.raises(ValueError, match="cannot move link 6"):
        move_link(puma, 5, 1)
    q = np.arange(6.0)
    assert np.allclose(map_q(q, 7, inserted=2), [0, 1, 0, 2, 3, 4, 5])
    assert np.allclose(map_q(q, 5, deleted=0), [1, 2, 3, 4, 5])


def test_dh_editor_core_new_robot_saves_and_reloads(tmp_path):
    r = insert_link(one_link_robot(), 1)
    r = edit_cell(r, 1, column_index("alpha"), "90")
    r = edit_cell(r, 1, column_index("joint"), "P")
    back = robot_from_toml(robot_to_toml(r))
    assert back.links == r.links and back.structure == "RP"


def test_step_through_chain_matches_engine_link_transforms():
    for name in ("puma560", "stanford", "puma560akb"):
        robot = load_robot(name)
        q = robot.random_q(seed=11)
        F = robot.fkine_all(q)
        for i in range(1, robot.n + 1):
            s = chain_step(robot, q, i)
            assert np.allclose(s.A, robot.link_transform(i - 1, q[i - 1]), atol=1e-12)
            expect = F[i] @ np.linalg.inv(robot.tool) if i == robot.n else F[i]
            assert np.allclose(s.T, expect, atol=1e-12)
            # the symbolic A(i) evaluated at q_i gives the same numbers
            import sympy

            sym = sympy.Matrix([[sympy.sympify(e) for e in row] for row in s.symbolic])
            val = np.array(sym.subs({sympy.Symbol(f"q{i}", real=True): q[i - 1],
                                     sympy.Symbol(f"q{i}"): q[i - 1]}), dtype=float)
            assert np.allclose(val, s.A, atol=1e-9)
    with pytest.raises(ValueError, match="i must be in 1..6"):
        chain_step(load_robot("puma560"), np.zeros(6), 7)
