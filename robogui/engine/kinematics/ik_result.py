"""What an inverse-kinematics solve returns and how its error is measured, shared by the
numeric solver (:mod:`.ikine`) and the analytic Puma solution (:mod:`.ikine_puma`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["IKResult", "pose_error"]


@dataclass(frozen=True)
class IKResult:
    """Outcome of an inverse-kinematics solve.

    q: joint coordinates (n,) (or (m, n) for a stack; (8, n) / (m, 8, n) for
    ikine560_all), always finite. success: pose reached within tolerance and q inside
    the joint limits. iterations: solver iterations used over all restarts (0 for the
    analytic solution). residual: pose error ``max(|position error| m, |rotation error|
    rad)`` of q, weighted by the mask (in its frame) for ikine. reason: "converged",
    "analytic", or why it failed, in words.
    config: the ikine560 branch(es) as r6 letters, e.g. "lun" (None for ikine).
    """

    q: np.ndarray
    success: bool | np.ndarray
    iterations: int | np.ndarray
    residual: float | np.ndarray
    reason: str | tuple
    config: str | tuple | None = None

    def __bool__(self) -> bool:
        return bool(np.all(self.success))


# -- pose error ----------------------------------------------------------------------

def pose_error(T, Tc) -> np.ndarray:
    """Error twist taking pose Tc to pose T, world frame: (..., 4, 4) -> (..., 6).

    ``[p - pc, theta * axis]`` where ``R Rc^T = rot(axis, theta)``, theta in [0, pi]
    (the exact rotation vector, not the small-angle difference of r6 ``tr2diff``).
    """
    T = np.asarray(T, dtype=float)
    Tc = np.asarray(Tc, dtype=float)
    return _pose_error(T[..., :3, :], Tc[..., :3, :])


def _pose_error(T, Tc) -> np.ndarray:
    """T, Tc as (..., 3, 4) (the top rows suffice)."""
    Re = T[..., :3, :3] @ np.swapaxes(Tc[..., :3, :3], -1, -2)
    v = 0.5 * np.stack([Re[..., 2, 1] - Re[..., 1, 2], Re[..., 0, 2] - Re[..., 2, 0],
                        Re[..., 1, 0] - Re[..., 0, 1]], axis=-1)
    s = np.sqrt(np.sum(v * v, axis=-1))
    c = 0.5 * (Re[..., 0, 0] + Re[..., 1, 1] + Re[..., 2, 2] - 1.0)
    th = np.arctan2(s, c)
    k = np.where(s > 1e-12, th / np.where(s > 1e-12, s, 1.0), 1.0)
    w = v * k[..., None]
    near_pi = (s <= 1e-6) & (c < 0)
    if np.any(near_pi):
        # rotation by ~pi: the axis is the dominant column of Re + I (sign is immaterial)
        B = Re[near_pi] + np.eye(3)
        col = np.argmax(np.sum(B * B, axis=-2), axis=-1)
        ax = B[np.arange(len(B)), :, col]
        ax /= np.linalg.norm(ax, axis=-1, keepdims=True)
        w[near_pi] = ax * th[near_pi][..., None]
    return np.concatenate([T[..., :3, 3] - Tc[..., :3, 3], w], axis=-1)


def _residual(e, w):
    ep = np.sqrt(np.sum((e[:, :3] * w[:3]) ** 2, axis=1))
    er = np.sqrt(np.sum((e[:, 3:] * w[3:]) ** 2, axis=1))
    return np.maximum(ep, er)


def _into_limits(q, qlim, revolute):
    """Shift revolute angles by multiples of 2 pi into [lo, hi] when possible.

    Returns the shifted q and a mask (m,) of rows inside the limits.
    """
    lo, hi = qlim[:, 0], qlim[:, 1]
    two_pi = 2.0 * math.pi
    k = np.ceil((lo - q) / two_pi - 1e-12)
    shifted = np.where(revolute, q + two_pi * k, q)
    # the angle may already sit in range without a shift when the range spans > 2 pi
    shifted = np.where(revolute & (q >= lo) & (q <= hi), q, shifted)
    ok = np.all((shifted >= lo - 1e-12) & (shifted <= hi + 1e-12), axis=1)
    return np.clip(shifted, lo, hi), ok
