"""All eight closed-form inverse-kinematics branches of an industrial 6R arm, whatever its
description: the family is read off the joint axes (:mod:`.arm_family`), the family's
solver (:mod:`.ikine_spherical`, :mod:`.ikine_ur`) gives the branches, and each branch is
labelled with the configuration flags read off its own joint axes, so the branch that
reproduces a configuration carries that configuration's letters.

Letters as r6's ``ikine560``: ``"l"|"r"`` shoulder (lefty/righty), ``"u"|"d"`` elbow
up/down (above/below), ``"n"|"f"`` wrist no flip/flip.
"""

from __future__ import annotations

import math

import numpy as np

from ..checks import as_transform
from .arm_family import arm_model, config_flags, letters
from .ik_result import IKResult, _into_limits, _pose_error, _residual

__all__ = ["ikine_analytic_all", "analytic_config", "BRANCHES"]

#: the branch order of the results, the same as ikine560_all's
BRANCHES = tuple(a + e + w for a in "lr" for e in "ud" for w in "nf")


def _nearest_rotation(T: np.ndarray) -> np.ndarray:
    U, _, Vt = np.linalg.svd(T[:, :3, :3])
    out = T.copy()
    out[:, :3, :3] = U @ Vt
    out[:, 3] = (0.0, 0.0, 0.0, 1.0)
    return out


def analytic_config(robot, q) -> str | list[str] | None:
    """Configuration letters (``"run"``) of ``robot`` at q (n,) -> str or (m, n) -> list,
    for an arm of a closed-form family (spherical wrist or UR type); None for others."""
    model = arm_model(robot)
    if model is None:
        return None
    q = np.asarray(q, dtype=float)
    out = letters(config_flags(model, np.atleast_2d(q)))
    return out[0] if q.ndim == 1 else out


def _sort_by_label(q: np.ndarray, exists: np.ndarray, codes: np.ndarray):
    """Put each existing branch in the slot of its label; the rest (branches that do not
    exist, or a second branch with the same letters at a singularity) fill the free slots
    in order. q (m, 8, 6), exists (m, 8), codes (m, 8) -> the same, reordered."""
    m = q.shape[0]
    rows = np.arange(m)[:, None]
    order = np.full((m, 8), -1)
    # the first existing branch of each code wins its slot (written last to first)
    for b in range(7, -1, -1):
        e = exists[:, b]
        order[e, codes[e, b]] = b
    placed = np.zeros((m, 8), dtype=bool)
    r, k = np.nonzero(order >= 0)
    placed[r, order[r, k]] = True
    free, rest = order < 0, ~placed
    slot_k = np.argsort(~free, axis=1, kind="stable")  # free slots first, in order
    rest_k = np.argsort(~rest, axis=1, kind="stable")  # unplaced branches first
    use = np.arange(8) < free.sum(axis=1, keepdims=True)
    order[np.broadcast_to(rows, (m, 8))[use], slot_k[use]] = rest_k[use]
    take = lambda a: np.take_along_axis(a, order.reshape((m, 8) + (1,) * (a.ndim - 2)),  # noqa: E731
                                        axis=1)
    return take(q), take(exists), np.take_along_axis(codes, order, axis=1)


def _reasons(exists, reached, inside, labelled, res, bad) -> np.ndarray:
    """Words (m, 8) for each branch; bad (m, 8, 6) the joints outside their limits."""
    names = np.array([", ".join(str(j + 1) for j in range(6) if k >> j & 1)
                      for k in range(64)], dtype=object)
    pattern = (bad * (1 << np.arange(6))).sum(axis=2)
    why = np.full(exists.shape, "analytic", dtype=object)
    why[~labelled] = "analytic (singular: another branch has the same letters)"
    why[~inside] = "joint " + names[pattern[~inside]] + " outside its limits"
    err = np.array([f"{v:.3g}" for v in res[exists & ~reached]], dtype=object)
    why[exists & ~reached] = "out of reach: pose error " + err + " after solving"
    some = np.broadcast_to(exists.any(axis=1, keepdims=True), exists.shape)
    lab = np.broadcast_to(np.array(BRANCHES, dtype=object), exists.shape)
    why[~exists & some] = ("out of reach: no " + lab[~exists & some]
                           + " configuration reaches the pose")
    why[~exists & ~some] = "out of reach: the pose is beyond the arm"
    return why


def ikine_analytic_all(robot, T) -> IKResult:
    """All eight closed-form branches of a 6R arm with a spherical wrist or of UR type.

    T: (4, 4) -> q (8, 6); (m, 4, 4) -> q (m, 8, 6); base and tool included. ``config``
    is :data:`BRANCHES` (``"lun", "luf", ... "rdf"``): branch b has those letters;
    ``success`` (8,) / (m, 8) marks the branches that reach the pose within the joint
    limits, ``reason`` says why the others do not. Angles are wrapped to (-pi, pi] and
    shifted by 2 pi into the limits when that fits. ValueError if the arm is of neither
    family (the message says what the axes are).
    """
    from .kinematics import fkine

    model = arm_model(robot)
    if model is None:
        raise ValueError(
            f"no closed-form solution for {robot.name!r}: it needs six revolute joints with "
            "axes 2 and 3 parallel and either a spherical wrist (axes 4-6 meeting in a "
            "point) or axes 2-4 parallel with axes 5 and 6 meeting (UR type)")
    Tt = as_transform(T, "T")
    single = Tt.ndim == 2
    Tt = _nearest_rotation(Tt.reshape(-1, 4, 4))
    m = Tt.shape[0]
    if model.family == "spherical":
        from .ikine_spherical import spherical_branches as solve
    else:
        from .ikine_ur import ur_branches as solve
    q, exists = solve(model, Tt)
    q = np.where(np.isfinite(q), q, 0.0)
    q = np.mod(q + math.pi, 2 * math.pi) - math.pi
    f = config_flags(model, q.reshape(-1, 6))  # [right, up, flip]: code as in BRANCHES
    codes = 4 * f[:, 0] + 2 * ~f[:, 1] + f[:, 2]
    q, exists, codes = _sort_by_label(q, exists, codes.reshape(m, 8).astype(int))
    flat = q.reshape(-1, 6)
    shifted, inside = _into_limits(flat, robot.qlim, np.ones(6, dtype=bool))
    flat = np.where(inside[:, None], shifted, flat)
    res = _residual(_pose_error(np.repeat(Tt, 8, axis=0)[:, :3], fkine(robot, flat)[:, :3]),
                    np.ones(6)).reshape(m, 8)
    inside = inside.reshape(m, 8)
    reached = exists & (res < 1e-9)
    ok = reached & inside
    labelled = codes == np.arange(8)
    qq = flat.reshape(m, 8, 6)
    bad = (qq < robot.qlim[:, 0]) | (qq > robot.qlim[:, 1])
    why = _reasons(exists, reached, inside, labelled, res, bad)
    q = flat.reshape(m, 8, 6)
    it = np.zeros((m, 8), dtype=int)
    if single:
        return IKResult(q[0], ok[0], it[0], res[0], tuple(why[0]), BRANCHES)
    return IKResult(q, ok, it, res, tuple(tuple(w) for w in why), BRANCHES)
