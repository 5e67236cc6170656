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
_CODE = {c: i for i, c in enumerate(BRANCHES)}


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
    """Put each existing branch in the slot of its label; the rest fill the free slots."""
    m = q.shape[0]
    order = np.empty((m, 8), dtype=int)
    for i in range(m):  # 8 entries per pose: bookkeeping, not arithmetic
        slots = [-1] * 8
        rest = []
        for b in range(8):
            if exists[i, b] and slots[codes[i, b]] < 0:
                slots[codes[i, b]] = b
            else:
                rest.append(b)
        free = [s for s in range(8) if slots[s] < 0]
        for s, b in zip(free, rest, strict=True):
            slots[s] = b
        order[i] = slots
    take = lambda a: np.take_along_axis(a, order.reshape((m, 8) + (1,) * (a.ndim - 2)),  # noqa: E731
                                        axis=1)
    return take(q), take(exists), np.take_along_axis(codes, order, axis=1)


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
    codes = np.array([_CODE[c] for c in letters(config_flags(model, q.reshape(-1, 6)))])
    q, exists, codes = _sort_by_label(q, exists, codes.reshape(m, 8))
    flat = q.reshape(-1, 6)
    shifted, inside = _into_limits(flat, robot.qlim, np.ones(6, dtype=bool))
    flat = np.where(inside[:, None], shifted, flat)
    res = _residual(_pose_error(np.repeat(Tt, 8, axis=0)[:, :3], fkine(robot, flat)[:, :3]),
                    np.ones(6)).reshape(m, 8)
    inside = inside.reshape(m, 8)
    reached = exists & (res < 1e-9)
    ok = reached & inside
    labelled = codes == np.arange(8)
    why = np.empty((m, 8), dtype=object)
    lim = robot.qlim
    for i in range(m):
        for b in range(8):
            if not exists[i, b]:
                why[i, b] = (f"out of reach: no {BRANCHES[b]} configuration reaches the pose"
                             if exists[i].any() else "out of reach: the pose is beyond the arm")
            elif not reached[i, b]:
                why[i, b] = f"out of reach: pose error {res[i, b]:.3g} after solving"
            elif not inside[i, b]:
                qq = flat.reshape(m, 8, 6)[i, b]
                bad = [str(j + 1) for j in range(6) if not lim[j, 0] <= qq[j] <= lim[j, 1]]
                why[i, b] = f"joint {', '.join(bad)} outside its limits"
            elif not labelled[i, b]:
                why[i, b] = "analytic (singular: another branch has the same letters)"
            else:
                why[i, b] = "analytic"
    q = flat.reshape(m, 8, 6)
    it = np.zeros((m, 8), dtype=int)
    if single:
        return IKResult(q[0], ok[0], it[0], res[0], tuple(why[0]), BRANCHES)
    return IKResult(q, ok, it, res, tuple(tuple(w) for w in why), BRANCHES)
