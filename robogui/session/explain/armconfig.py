"""Arm configuration (left/right, elbow up/down, wrist flip) of Puma-like arms, from frames.

A Puma-like arm is 6R, standard D-H, with the Puma's twists
``alpha = (+-pi/2, 0, -+pi/2, +-pi/2, -+pi/2, 0)``, ``a1 = a4 = a5 = a6 = 0`` and
``d5 = 0`` so that frames 4 and 5 share the wrist centre W.

The three indicators are the ones that select a branch in Paul & Zhang's closed
form solution as written in the Robotics Toolbox r6 ``ikine560`` (this is not an
inverse kinematics: it reads the branch off a configuration already known):

* **left/right** - r6 picks ``theta1 = atan2(Py, Px) + asin(d3/r)`` for a right arm and
  ``atan2(Py, Px) + pi - asin(d3/r)`` for a left arm, which makes
  ``V114 = Px cos(theta1) + Py sin(theta1)`` non-negative (right) or negative (left).
  ``V114`` is the wrist centre's coordinate along x1: ``W1.x`` with
  ``W1 = R1^T (W - o1)``.
* **up/down** - r6 takes ``theta2 = atan2(Pz, V114) + n2 * Psi`` with ``Psi`` in [0, pi]
  and ``n2 = +1`` for right-up / left-down, ``-1`` for right-down / left-up. In frame 1,
  ``(V114, Pz)`` is ``(W1.x, W1.y)`` and ``theta2`` is the angle of x2, so
  ``n2 = sign(wrap(angle(x2 in frame 1) - atan2(W1.y, W1.x)))`` and the elbow is up when
  ``n2`` has the sign of the arm (+1 right, -1 left).
* **flip** - r6 takes ``theta4 = atan2(n4 V323, n4 V313)`` (``n4 = +1`` no flip, ``-1``
  flip), which gives ``theta5 = atan2(-n4 * rho, .)`` with ``rho >= 0``: no flip has
  ``sin(theta5) <= 0``. ``sin(theta5) = z4 . (x4 x x5)``.

Letters follow r6: ``"l"|"r"``, ``"u"|"d"``, ``"n"|"f"``; e.g. ``"lun"``.

:func:`config_of` extends the three signs to any 6-axis arm with a spherical wrist
(KUKA, ABB, Stanford, modified D-H Pumas, ...) and to UR-type arms: Puma-like arms keep
the r6 reading above; arms of a closed-form family
(:func:`robogui.engine.kinematics.arm_family.config_flags`, shoulder side read against
axis 1) and the others read the same quantities off the joint axes (points and directions with the
joints' senses), so the letters belong to the posture, not to a D-H convention:

* **left/right** - the wrist centre W in front of (right) or behind (left) axis 2 along
  ``x1 = u1 x u2``, the common normal from axis 1 towards axis 2 (r6's ``V114``);
* **up/down** - in the plane normal to axis 2 (``x1``, ``y1 = u2 x x1``, which is u1 on
  a Puma), the elbow (where axis 3 meets the plane) on the side of the line from the
  shoulder to W that r6 calls up: ``sign(V114) * (r * e_y - z * e_x) > 0``;
* **flip** - ``sin(theta5) = u5 . (u4 x u6) > 0`` (r6: no flip has ``sin(theta5) <= 0``).

On the Puma 560 these equal the r6 letters everywhere (the ``ikine560_all`` branch that
reproduces q carries them), and puma560akb (modified D-H) at q gets the letters of the
Puma 560 at ``q + (pi, pi, pi, 0, 0, pi)``, the same posture. Reading x1 and the flip off
the modified D-H frames instead gave the opposite shoulder letter on every akb pose.
"""

from __future__ import annotations

import math

import numpy as np

from .arm_axes import _closest_point, _joint_axes, has_spherical_wrist

__all__ = ["is_puma_like", "arm_config", "describe_config", "config_of", "val_words",
           "abb_conf"]

_PUMA_ALPHA = np.array([1.0, 0.0, -1.0, 1.0, -1.0, 0.0]) * (math.pi / 2)


def is_puma_like(robot) -> bool:
    """True for a 6R standard D-H arm with the Puma 560's joint layout and a spherical wrist."""
    if robot.n != 6 or robot.is_mdh or robot.structure != "RRRRRR":
        return False
    dh = robot.dh_arrays
    # the whole arm mirrored (all twists negated) is the same layout
    same = np.allclose(dh.alpha, _PUMA_ALPHA, atol=1e-6)
    mirrored = np.allclose(dh.alpha, -_PUMA_ALPHA, atol=1e-6)
    return bool((same or mirrored) and np.allclose(dh.a[[0, 3, 4, 5]], 0.0, atol=1e-9)
                and abs(dh.d[4]) < 1e-9)


def _wrap(angle: np.ndarray) -> np.ndarray:
    return (angle + np.pi) % (2 * np.pi) - np.pi


def arm_config(frames: np.ndarray) -> str | list[str]:
    """Configuration letters of a Puma-like arm from its ``fkine_all`` frames.

    frames: (7, 4, 4) -> ``"lun"``-style string; (m, 7, 4, 4) -> list of m strings.
    The caller checks :func:`is_puma_like`; the tool does not matter (frames 0-5 are used).
    """
    F = np.asarray(frames, dtype=float)
    if F.shape[-3:] != (7, 4, 4):
        raise ValueError(f"frames must have shape (7, 4, 4) or (m, 7, 4, 4), got {F.shape}")
    single = F.ndim == 3
    F = F.reshape(-1, 7, 4, 4)

    R1, o1 = F[:, 1, :3, :3], F[:, 1, :3, 3]
    W = F[:, 5, :3, 3]  # wrist centre: o4 = o5 for a spherical wrist
    W1 = np.einsum("mji,mj->mi", R1, W - o1)  # R1^T (W - o1)
    right = W1[:, 0] >= 0.0

    x2_in_1 = np.einsum("mji,mj->mi", R1, F[:, 2, :3, 0])
    delta = _wrap(np.arctan2(x2_in_1[:, 1], x2_in_1[:, 0]) - np.arctan2(W1[:, 1], W1[:, 0]))
    n2 = np.where(delta >= 0.0, 1, -1)
    up = n2 == np.where(right, 1, -1)

    x4, z4, x5 = F[:, 4, :3, 0], F[:, 4, :3, 2], F[:, 5, :3, 0]
    sin5 = np.einsum("mi,mi->m", z4, np.cross(x4, x5))
    flip = sin5 > 1e-12

    out = [("r" if r else "l") + ("u" if u else "d") + ("f" if f else "n")
           for r, u, f in zip(right, up, flip, strict=True)]
    return out[0] if single else out


def describe_config(config: str) -> str:
    """Words for a configuration string: ``"lun"`` -> ``"left, elbow up, no flip"``."""
    if len(config) != 3 or config[0] not in "lr" or config[1] not in "ud" or config[2] not in "nf":
        raise ValueError(f"config must be three letters l|r, u|d, n|f, got {config!r}")
    return ", ".join([
        "left" if config[0] == "l" else "right",
        "elbow up" if config[1] == "u" else "elbow down",
        "no flip" if config[2] == "n" else "wrist flipped",
    ])


def val_words(config: str) -> str:
    """The Unimation VAL words that r6's letters abbreviate: ``"lun"`` ->
    ``"LEFTY ABOVE NOFLIP"`` (Denso and Staubli still use lefty/righty, above/below,
    flip/noflip)."""
    describe_config(config)  # the same check
    return " ".join([
        "LEFTY" if config[0] == "l" else "RIGHTY",
        "ABOVE" if config[1] == "u" else "BELOW",
        "NOFLIP" if config[2] == "n" else "FLIP",
    ])


def abb_conf(robot, q) -> tuple[int, int, int, int] | None:
    """ABB ``confdata`` ``(cf1, cf4, cf6, cfx)`` of a 6-axis arm with a spherical wrist at
    q (n,) (:func:`robogui.engine.kinematics.arm_family.abb_confdata`); None for others."""
    from robogui.engine.kinematics.arm_family import abb_confdata, arm_model

    model = arm_model(robot) if robot.n == 6 else None
    if model is None or model.family != "spherical":
        return None
    return tuple(int(v) for v in abb_confdata(model, np.asarray(q, dtype=float))[0])


def config_of(robot, q, frames: np.ndarray | None = None) -> str | None:
    """Configuration letters (``"run"`` style) at ``q`` (n,) of any 6-axis arm with a
    spherical wrist or of UR type (the branches of
    :func:`~robogui.engine.kinematics.ikine_branches.ikine_analytic_all` carry the same
    letters); None for other arms. ``frames`` is ``fkine_all(robot, q)`` if known."""
    from robogui.engine.kinematics.ikine_branches import analytic_config

    q = np.asarray(q, dtype=float)
    # the closed-form families first: the same reading as their branches' labels (on a
    # Puma 560 it equals arm_config's r6 reading everywhere)
    letters = analytic_config(robot, q) if robot.n == 6 else None
    if letters is not None:
        return letters
    if robot.n == 6 and is_puma_like(robot):
        F = robot.fkine_all(q) if frames is None else np.asarray(frames, dtype=float)
        return arm_config(F)
    if not has_spherical_wrist(robot):
        return None
    F = robot.fkine_all(q) if frames is None else np.asarray(frames, dtype=float)
    pts, dirs = _joint_axes(robot, q)
    return _geometric_config(pts, dirs, F)


def _geometric_config(pts: np.ndarray, dirs: np.ndarray, F: np.ndarray) -> str:
    """r6's three signs read off the joint axes (points, directions with their senses),
    not off the D-H frames: the same posture gives the same letters in any D-H
    convention (puma560akb at q is the Puma 560 at q + (pi, pi, pi, 0, 0, pi), every
    axis the same line and sense, and gets the Puma's letters).

    On a Puma, frame 1 of r6 is built from the axes: ``x1 = u1 x u2`` (the common normal
    from axis 1 to axis 2), ``y1 = u2 x x1`` (= u1, up); ``V114`` is the wrist centre
    along x1, the elbow is tested in that plane against the line shoulder-wrist, and
    ``sin(theta5) = u5 . (u4 x u6)``.
    """
    W = _closest_point(pts[3:], dirs[3:])[0]  # the wrist centre
    u1, u2 = dirs[0], dirs[1]
    x1 = np.cross(u1, u2)
    if np.linalg.norm(x1) < 1e-9:  # axes 1 and 2 parallel: the frames' x1 instead
        x1 = F[1, :3, 0] - np.dot(F[1, :3, 0], u2) * u2
    x1 = x1 / np.linalg.norm(x1)
    y1 = np.cross(u2, x1)
    shoulder = pts[1]  # any point of axis 2 (the plane is normal to it)
    r = float(np.dot(W - shoulder, x1))
    z = float(np.dot(W - shoulder, y1))
    right = r >= 0.0
    # the elbow: where axis 3 meets the plane (a point of it projected; on a Puma-like
    # arm axis 3 is parallel to axis 2, normal to the plane, so any point will do)
    ex, ey = float(np.dot(pts[2] - shoulder, x1)), float(np.dot(pts[2] - shoulder, y1))
    up = (1.0 if right else -1.0) * (r * ey - z * ex) > 0.0  # r6: sign(V114) * cross
    flip = float(np.dot(dirs[4], np.cross(dirs[3], dirs[5]))) > 1e-12
    return ("r" if right else "l") + ("u" if up else "d") + ("f" if flip else "n")
