"""General (non-unit) quaternion algebra against spatialmath.base as the oracle."""

import numpy as np
import pytest
import spatialmath.base as smb

from robogui.engine.spatial.quaternion_algebra import (
    Quaternion,
    q2str,
    qinv,
    qmatrix,
    qnorm,
    qpow,
    qpure,
    qqmul,
    qunit,
)

A = np.array([1.0, 2.0, 3.0, 4.0])
B = np.array([5.0, -6.0, 7.0, 0.5])


def test_against_spatialmath():
    np.testing.assert_array_equal(qpure([1, 2, 3]), smb.qpure([1, 2, 3]))
    assert qnorm(A) == pytest.approx(smb.qnorm(A)) == pytest.approx(np.sqrt(30))
    np.testing.assert_array_equal(qmatrix(A), smb.qmatrix(A))
    np.testing.assert_allclose(qmatrix(A) @ B, smb.qqmul(A, B))
    np.testing.assert_allclose(qqmul(A, B), smb.qqmul(A, B))
    for k in (0, 1, 2, 3, 5, -1, -3):
        np.testing.assert_allclose(qpow(A, k), smb.qpow(A, k), rtol=1e-14)
    assert q2str(A) == smb.q2str(A) == " 1.0000 <  2.0000,  3.0000,  4.0000 >"
    assert q2str(B, delim=("[", "]"), fmt="{:.2f}") == smb.q2str(B, ("[", "]"), "{:.2f}")
    np.testing.assert_allclose(qunit(A), smb.qunit(A))


def test_batched_and_inverse():
    Q = np.vstack([A, B])
    np.testing.assert_allclose(qnorm(Q), [np.sqrt(30), np.linalg.norm(B)])
    np.testing.assert_allclose(qmatrix(Q)[1], smb.qmatrix(B))
    np.testing.assert_allclose(qqmul(Q, qinv(Q)), [[1, 0, 0, 0]] * 2, atol=1e-15)
    # (q^3)(q^-1 q^-1 q^-1) with the true inverse is the identity, for a non-unit q too
    np.testing.assert_allclose(qqmul(qpow(A, 3), qpow(qinv(A), 3)), [1, 0, 0, 0], atol=1e-12)
    # |ab| = |a||b|
    assert qnorm(qqmul(A, B)) == pytest.approx(qnorm(A) * qnorm(B))


def test_quaternion_class():
    a, b = Quaternion(A), Quaternion(B)
    np.testing.assert_allclose((a * b).vec, smb.qqmul(A, B))
    np.testing.assert_allclose((a / b * b).vec, A)
    np.testing.assert_allclose((2 * a).vec, 2 * A)
    np.testing.assert_allclose((a + b - b).vec, A)
    np.testing.assert_allclose((a ** 2).vec, smb.qpow(A, 2))
    assert str(Quaternion.Pure([1, 2, 3])) == "0 <1, 2, 3>"
    assert a.unit().norm() == pytest.approx(1.0)


def test_bad_input():
    with pytest.raises(ValueError, match=r"shape \(4,\) or \(k, 4\)"):
        qnorm([1, 2, 3])
    with pytest.raises(ValueError, match="integer"):
        qpow(A, 1.5)
    with pytest.raises(ValueError, match="non-finite"):
        qmatrix([1, np.nan, 0, 0])
    with pytest.raises(ValueError, match="no inverse"):
        qinv([0, 0, 0, 0])
