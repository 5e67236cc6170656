"""SpaceLib linears / solve_l / minvers and the TEST-LIN program (manual chapter 4)."""

import numpy as np
import pytest

from robogui.engine.spacelib.linear import (
    linears,
    minvers,
    read_inp_dat,
    solve_l,
    solve_linear,
    test_lin,
)

# manual eq. 4.6 / table 4.2 (INP.DAT)
A = np.array([[1, 1, 1, 2, 1], [0, 1, 1, 2, 1], [0, 0, 2, 2, 1], [0, 0, 2, 2, 1]], float)
B = np.array([6, 5, 3, 3], float)
INP_DAT = "4 5\n1 1 1 2 1 6\n0 1 1 2 1 5\n0 0 2 2 1 3\n0 0 2 2 1 3\n"


def test_linears_manual_example():
    H, ivet, rank, arm = linears(np.hstack([A, B[:, None]]), 4, 5, 1, [-1])
    # "linear detects that matrix A has a rank of 3 ... you can assign any value to
    # elements 1 and 4 of x (a1 and a4)"
    assert rank == 3
    assert sorted(ivet[3:]) == [1, 4] and sorted(ivet[:3]) == [0, 2, 3]
    np.testing.assert_allclose(H[:3, :3], np.eye(3), atol=1e-15)
    np.testing.assert_allclose(H[3, :6], 0, atol=1e-15)  # the block of zeros, b4' = 0
    s = solve_linear(A, B)
    assert s.consistent and s.rank == 3
    # "If you put a1 = a4 = 0 ... a3 = 3.5, a0 = 1, a2 = -2"
    np.testing.assert_allclose(s.x(), [1, 0, -2, 3.5, 0], atol=1e-14)
    # "If a1 = 7 and a4 = 4 then a3 = -5.5, a0 = 1 and a2 = 5"
    free = dict(zip(s.free.tolist(), [0, 0], strict=True))
    free.update({1: 7, 4: 4})
    x = s.x([free[j] for j in s.free])
    np.testing.assert_allclose(x, [1, 7, 5, -5.5, 4], atol=1e-14)
    np.testing.assert_allclose(A @ x, B, atol=1e-13)


def test_main_variables_and_several_right_hand_sides():
    # vpr: force a1 and a4 to be main variables, so a2, a3 become free instead
    s = solve_linear(A, B, main=[1, 4])
    assert s.main[:2].tolist() == [1, 4] and s.rank == 3
    np.testing.assert_allclose(A @ s.x(), B, atol=1e-13)
    rng = np.random.default_rng(1)
    M = rng.normal(size=(5, 5))
    Bs = rng.normal(size=(5, 3))
    s = solve_linear(M, Bs)
    np.testing.assert_allclose(s.x0, np.linalg.solve(M, Bs), rtol=1e-10)
    bad = solve_linear(A, B + [0, 0, 0, 1])  # rows 3 and 4 now contradict
    assert not bad.consistent
    with pytest.raises(ValueError, match="no solution"):
        bad.x()


def test_solve_l_minvers():
    x, r = solve_l(A, B)
    assert r == 3
    np.testing.assert_allclose(x, np.linalg.pinv(A) @ B)
    M = np.array([[4.0, 1, 2], [0, 3, 1], [1, 0, 5]])
    np.testing.assert_allclose(minvers(M) @ M, np.eye(3), atol=1e-15)
    np.testing.assert_allclose(minvers(M), np.linalg.inv(M), rtol=1e-13)
    with pytest.raises(ValueError, match="singular"):
        minvers(A[:4, :4])
    with pytest.raises(ValueError, match="non-finite"):
        linears(np.array([[1.0, np.nan]]), 1, 1)
    with pytest.raises(ValueError, match="vpr"):
        linears(np.hstack([A, B[:, None]]), 4, 5, 1, [7, -1])


def test_test_lin_program():
    A2, b2 = read_inp_dat(text=INP_DAT)
    np.testing.assert_array_equal(A2, A)
    np.testing.assert_array_equal(b2, B)
    report = test_lin(A2, b2)
    assert "number of rows and columns are different." in report
    assert "The rank of the matrix is: 3" in report
    assert "  1.000  1.000  1.000  2.000  1.000  6.000" in report
    square = test_lin(np.array([[2.0, 1], [1, 3]]), np.array([3.0, 5]))
    assert "x = 0.8 1.4" in square
    with pytest.raises(ValueError, match="expected 4 rows of 6 values"):
        read_inp_dat(text="4 5\n1 2 3\n")
