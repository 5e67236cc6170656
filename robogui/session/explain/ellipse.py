"""The end-effector velocity or force ellipsoid shown in the 3D view, on demand.

Computed from the session's cached Jacobian (``session.jacobian``, ``jacob0``) with
:func:`robogui.engine.dynamics.manipulability.vellipse` / ``fellipse``; the view only places a
unit sphere with the 4x4 matrix from :func:`ellipsoid_matrix`. Qt-free.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from robogui.engine.dynamics.manipulability import Ellipsoid, fellipse, vellipse

__all__ = ["ELLIPSOID_KINDS", "end_effector_ellipsoid", "ellipsoid_scale", "ellipsoid_matrix",
           "ellipsoid_transform"]

#: what the display option offers: nothing, Yoshikawa's velocity ellipsoid, the force one
ELLIPSOID_KINDS = ("none", "velocity", "force")
#: drawn size of a typical ellipsoid (median over random configurations), times the reach
TYPICAL_SIZE = 0.2


def _check(kind: str, axes: str) -> None:
    if kind not in ("velocity", "force"):
        raise ValueError(f"kind must be 'velocity' or 'force', got {kind!r}")
    if axes not in ("trans", "rot"):
        raise ValueError(f"axes must be 'trans' or 'rot', got {axes!r}")


def end_effector_ellipsoid(session, kind: str = "velocity", axes: str = "trans") -> Ellipsoid:
    """The ellipsoid at the session's configuration: centre (3,) m at the tool point,
    radii (3,) largest first (m/s per rad/s for velocity, N per N m for force; inf along a
    direction the arm cannot move), rotation (3, 3) whose columns are the axes."""
    _check(kind, axes)
    fn = vellipse if kind == "velocity" else fellipse
    return fn(session.robot, session.q, axes=axes, J=session.jacobian)


@lru_cache(maxsize=64)
def ellipsoid_scale(robot, kind: str = "velocity", axes: str = "trans") -> float:
    """Metres drawn per unit of radius, so that a typical ellipsoid of ``robot`` is
    ``TYPICAL_SIZE * reach`` across its largest axis (fixed per robot, so the ellipsoid
    visibly grows and shrinks as the arm moves). Batched over 128 random configurations."""
    _check(kind, axes)
    fn = vellipse if kind == "velocity" else fellipse
    radii = np.asarray(fn(robot, robot.random_q(128, seed=11), axes=axes).radii)
    finite = np.where(np.isfinite(radii), radii, np.nan)
    typical = np.nanmedian(np.nanmax(finite, axis=1)) if np.isfinite(finite).any() else np.nan
    if not np.isfinite(typical) or typical <= 0:
        return 1.0
    return float(TYPICAL_SIZE * robot.reach / typical)


def ellipsoid_matrix(ellipsoid: Ellipsoid, scale: float = 1.0, max_radius: float = np.inf,
                     min_radius: float = 0.0) -> np.ndarray:
    """4x4 matrix mapping the unit sphere onto the drawn ellipsoid (metres).

    Radii times ``scale``, clipped to ``[min_radius, max_radius]``: an infinite force
    radius is drawn at ``max_radius`` and a zero velocity radius (a flat ellipsoid at a
    singularity) at ``min_radius``, which keeps the matrix invertible for lighting.
    """
    r = np.clip(np.asarray(ellipsoid.radii, dtype=float) * float(scale), min_radius, max_radius)
    M = np.eye(4)
    M[:3, :3] = np.asarray(ellipsoid.rotation, dtype=float) * r  # R @ diag(r)
    M[:3, 3] = ellipsoid.centre
    return M


def ellipsoid_transform(session, kind: str = "velocity", axes: str = "trans") -> np.ndarray:
    """The 4x4 drawing matrix of the session's ellipsoid, scaled for the 3D view."""
    robot = session.robot
    ell = end_effector_ellipsoid(session, kind, axes)
    reach = robot.reach
    return ellipsoid_matrix(ell, ellipsoid_scale(robot, kind, axes),
                            max_radius=0.75 * reach, min_radius=2e-3 * reach)
