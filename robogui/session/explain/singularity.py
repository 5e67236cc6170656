"""Singularities explained on any arm, from the singular value decomposition of J.

At a joint vector ``q`` the world-frame Jacobian ``J = U S V^T`` (rows
``[vx vy vz wx wy wz]``, restricted to the task directions the arm controls, see
:func:`robogui.session.teach.jog.task_mask`) says everything a student asks at a singularity:

* a left singular vector ``u_k`` with a (near) zero singular value is a Cartesian
  direction the tool cannot move in: "cannot translate along ..." when its translational
  part dominates, "cannot rotate about ..." when its rotational part does;
* a right singular vector ``v_k`` with a (near) zero singular value is a joint motion
  that does not move the tool (the null space: e.g. joints 4 and 6 turning against each
  other when the wrist axes line up); redundant arms (n > task rows) always have one.

For a 6R arm with a spherical wrist (axes 4, 5, 6 meet in one point W), ``det J`` splits
into a wrist factor and an arm factor, which names the kind (any such arm, not only
Puma-like ones; :func:`singularity_kind`):

* wrist: the three wrist axes coplanar (axes 4 and 6 aligned), measure ``|det[z4 z5 z6]|``;
* elbow: axes 2 and 3 push W along parallel lines (the arm stretched out or folded back),
  measure the sine of the angle between ``z2 x (W - o2)`` and ``z3 x (W - o3)``;
* shoulder: the motion of W due to joint 1 falls into the plane the other two span (W on
  the first axis, or for an arm with a shoulder offset, in the plane of axes 1 and 2).

Everything here is Qt-free and computed from the engine's Jacobian and frames.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from robogui.engine.checks import as_vector
from robogui.engine.kinematics.jacobians import jacob0

from .arm_axes import _closest_point, _joint_axes, has_spherical_wrist, is_puma_like, task_mask
from .readout import _fmt_angle, _fmt_length

__all__ = ["LostDirection", "SingularityExplanation", "explain_singularity",
           "has_spherical_wrist", "singularity_kind", "decoupled_words", "wrist_centre",
           "direction_words", "REL_TOL"]

#: a singular value below this fraction of the largest counts as lost
REL_TOL = 0.02


@dataclass(frozen=True)
class LostDirection:
    """One Cartesian direction the tool cannot move in (or only very slowly).

    ``twist`` (6,) the unit left singular vector ``[v; w]`` of J in world coordinates;
    ``sigma`` its singular value (m/s or rad/s per rad/s); ``motion`` "translate" or
    "rotate" (its dominant part); ``axis`` (3,) that part as a unit vector; ``text``
    the sentence, e.g. "cannot translate along z".
    """

    twist: np.ndarray
    sigma: float
    motion: str
    axis: np.ndarray
    text: str


@dataclass(frozen=True)
class SingularityExplanation:
    """What the SVD of J says at one joint vector (see the module docstring).

    ``singular_values`` (k,) of the task rows, largest first; ``near`` whether the
    smallest is below ``REL_TOL`` of the largest; ``lost`` the lost directions (empty
    when not near); ``null_space`` (r, n) unit joint motions that leave the tool still,
    ``null_text`` one sentence per row; ``kind`` "wrist"|"elbow"|"shoulder" for 6R arms
    with a spherical wrist, "general" for other arms, None when not near; ``kind_text``
    the sentence naming it.
    """

    singular_values: np.ndarray
    near: bool
    lost: list[LostDirection] = field(default_factory=list)
    null_space: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    null_text: list[str] = field(default_factory=list)
    kind: str | None = None
    kind_text: str = ""

    @property
    def summary(self) -> str:
        """All of it in a few sentences (for the status bar and the pre-flight list)."""
        if not self.near and not self.null_text:
            return "not near a singularity"
        parts = []
        if self.near:
            parts.append(self.kind_text or "near a singularity")
            parts.extend(d.text for d in self.lost)
        parts.extend(self.null_text)
        return "; ".join(parts)


def direction_words(v: np.ndarray) -> str:
    """A unit 3-vector in words: "z" / "-x" when it is (nearly) an axis, else "[a, b, c]"."""
    v = np.asarray(v, float)
    k = int(np.argmax(np.abs(v)))
    if abs(v[k]) > 0.995:
        return ("-" if v[k] < 0 else "") + "xyz"[k]
    return "[" + ", ".join(f"{x + 0.0:.2f}" for x in v) + "]"


def _canonical(v: np.ndarray) -> np.ndarray:
    """Sign chosen so that the largest component is positive (SVD signs are arbitrary)."""
    k = int(np.argmax(np.abs(v)))
    return v if v[k] >= 0 else -v


def _joint_name(robot, j: int) -> str:
    return f"q{j + 1}"


def _null_sentence(robot, v: np.ndarray) -> str:
    v = _canonical(v)
    big = [j for j in range(v.size) if abs(v[j]) >= 0.1]
    moves = ", ".join(f"{_joint_name(robot, j)} {v[j]:+.2f}" for j in big)
    who = (f"joint {big[0] + 1}" if len(big) == 1 else
           "joints " + ", ".join(str(j + 1) for j in big[:-1]) + f" and {big[-1] + 1}")
    return f"{who} can move together ({moves}) without moving the tool"


def explain_singularity(robot, q, J=None, rel_tol: float = REL_TOL, *,
                        weakest: bool = False) -> SingularityExplanation:
    """Explain the (near) singularity of ``robot`` at ``q`` (n,) from the SVD of ``J``.

    ``J`` (6, n) is ``jacob0(robot, q)`` when already computed (the session caches it).
    ``rel_tol``: a singular value below ``rel_tol * sigma_max`` counts as lost;
    ``weakest``: report the weakest direction even above that (the caller already
    knows the arm is near a singularity by another measure).
    """
    q = as_vector(q, robot.n, "q")
    J = jacob0(robot, q) if J is None else np.asarray(J, float)
    if J.shape != (6, robot.n):
        raise ValueError(f"J must have shape (6, {robot.n}) (jacob0 of q), got {J.shape}")
    rows = np.flatnonzero(task_mask(robot))
    Jt = J[rows]
    k, n = Jt.shape
    U, s, Vt = np.linalg.svd(Jt)  # U (k, k), s (min(k, n),), Vt (n, n)
    smax = float(s[0]) if s.size else 0.0
    tol = rel_tol * smax
    small = [i for i in range(s.size) if s[i] <= tol]
    if weakest and not small and s.size == k:
        small = [s.size - 1]
    # rows beyond the rank: k > n leaves directions no joint can reach at all
    lost_idx = small + list(range(s.size, k))
    near = bool(lost_idx)
    lost = []
    for i in lost_idx:
        u6 = np.zeros(6)
        u6[rows] = U[:, i]
        u6 = _canonical(u6)
        vt, wr = np.linalg.norm(u6[:3]), np.linalg.norm(u6[3:])
        if vt >= wr:
            motion, axis = "translate", u6[:3] / vt
            text = f"cannot translate along {direction_words(axis)}"
        else:
            motion, axis = "rotate", u6[3:] / wr
            text = f"cannot rotate about {direction_words(axis)}"
        other = wr if motion == "translate" else vt
        if other > 0.2:  # a screw: say the coupled part too
            part = u6[3:] / wr if motion == "translate" else u6[:3] / vt
            how = "rotation about" if motion == "translate" else "translation along"
            text += f" (combined with {how} {direction_words(part)})"
        sigma = float(s[i]) if i < s.size else 0.0
        lost.append(LostDirection(u6, sigma, motion, axis, text))
    # joint motions that do not move the tool: small singular values and the n - k extra
    null_idx = small + list(range(s.size, n))
    null = np.array([Vt[i] for i in null_idx]).reshape(-1, n)
    null = np.array([_canonical(v) for v in null]).reshape(-1, n)
    null_text = [_null_sentence(robot, v) for v in null]
    kind, kind_text = (singularity_kind(robot, q) if near else (None, ""))
    if near and kind != "general":
        kind_text += "; " + decoupled_words(robot, q, kind)
    return SingularityExplanation(s, near, lost, null, null_text, kind, kind_text)


# -- naming the kind ------------------------------------------------------------------
def wrist_centre(robot, q) -> np.ndarray:
    """The point where the wrist axes meet (3,), m; the robot must have a spherical wrist."""
    pts, dirs = _joint_axes(robot, as_vector(q, robot.n, "q"))
    return _closest_point(pts[3:], dirs[3:])[0]


def _unit(v: np.ndarray) -> tuple[np.ndarray, float]:
    n = float(np.linalg.norm(v))
    return (v / n if n > 1e-12 else np.zeros(3)), n


def _kind_measures(robot, q) -> dict[str, float]:
    """Normalised measures in [0, 1] of the three kinds (0 at that singularity)."""
    pts, dirs = _joint_axes(robot, q)
    W = _closest_point(pts[3:], dirs[3:])[0]
    wrist = abs(float(np.linalg.det(dirs[3:])))
    cols = []  # how joints 1-3 move the wrist centre (prismatic: along the axis)
    for j in range(3):
        if robot.links[j].joint == "R":
            cols.append(np.cross(dirs[j], W - pts[j]))
        else:
            cols.append(dirs[j].copy())
    (c1, n1), (c2, _), (c3, _) = (_unit(c) for c in cols)
    cross23 = np.cross(c2, c3)
    elbow = float(np.linalg.norm(cross23))
    scale = max(robot.reach, 1e-9)
    if n1 < 1e-3 * scale:  # the wrist centre on the first axis
        shoulder = 0.0
    elif elbow > 1e-9:
        shoulder = abs(float(np.dot(c1, cross23))) / elbow
    else:
        shoulder = 1.0
    return {"wrist": wrist, "elbow": elbow, "shoulder": shoulder}


def singularity_kind(robot, q) -> tuple[str, str]:
    """("wrist"|"elbow"|"shoulder", sentence) for a 6-axis arm with a spherical wrist,
    ("general", "near a singularity") for other arms. Puma-like arms keep the words of
    :func:`robogui.session.teach.jog.singularity_info` (with joint angles)."""
    q = as_vector(q, robot.n, "q")
    if is_puma_like(robot):
        return _puma_singularity(robot, q)
    if not has_spherical_wrist(robot):
        return "general", "near a singularity"
    m = _kind_measures(robot, q)
    kind = min(m, key=m.get)
    if kind == "wrist":
        text = "near a wrist singularity (wrist axes 4 and 6 nearly aligned)"
    elif kind == "elbow":
        text = "near an elbow singularity (arm stretched out or folded back)"
    else:
        text = ("near a shoulder singularity (wrist centre on the first axis, or in the "
                "plane of axes 1 and 2)")
    return kind, text


def decoupled_words(robot, q, kind: str) -> str:
    """The textbook sentence for a spherical-wrist arm, at the wrist centre W.

    J at W is block triangular: a wrist singularity loses the rotation about
    ``z4 x z5`` (with W fixed), an arm singularity loses the translation of W along the
    left singular vector of the 3x3 arm Jacobian ``[z_j x (W - o_j)]``, j = 1..3.
    """
    if kind not in ("wrist", "elbow", "shoulder") or not has_spherical_wrist(robot):
        return ""
    q = as_vector(q, robot.n, "q")
    pts, dirs = _joint_axes(robot, q)
    if kind == "wrist":
        a = _canonical(_unit(np.cross(dirs[3], dirs[4]))[0])
        return f"with the wrist centre held, the tool cannot rotate about {direction_words(a)}"
    W = _closest_point(pts[3:], dirs[3:])[0]
    A = np.stack([np.cross(dirs[j], W - pts[j]) if robot.links[j].joint == "R" else dirs[j]
                  for j in range(3)], axis=1)
    n = _canonical(np.linalg.svd(A)[0][:, -1])
    return f"the wrist centre cannot move along {direction_words(n)}"


def _puma_singularity(robot, q: np.ndarray, angle_unit: str = "deg",
                      length_unit: str = "mm") -> tuple[str, str]:
    pts, dirs = _joint_axes(robot, q)
    wc, _ = _closest_point(pts[3:], dirs[3:])
    # wrist: axes 4, 5, 6 become coplanar (4 and 6 aligned)
    wrist = abs(float(np.linalg.det(dirs[3:])))
    # elbow: wrist centre, axis 2 and axis 3 in one line, seen along axis 3
    z = dirs[2]
    perp = lambda v: v - np.dot(v, z) * z
    u, f = perp(pts[2] - pts[1]), perp(wc - pts[2])
    nu, nf = float(np.linalg.norm(u)), float(np.linalg.norm(f))
    if nu > 1e-12 and nf > 1e-12:
        psi = math.atan2(float(np.dot(np.cross(u, f), z)), float(np.dot(u, f)))
        elbow = abs(math.sin(psi))
    else:
        psi, elbow = 0.0, 1.0
    # shoulder: wrist centre on the axis of joint 1, or with a shoulder offset (Puma d3)
    # in the plane of axes 1 and 2: then joint 1 moves it within the arm plane only
    r = wc - pts[0]
    normal = np.cross(dirs[1], dirs[0])
    nn = float(np.linalg.norm(normal))
    if nn > 1e-9:
        radial = abs(float(np.dot(r, normal))) / nn
    else:  # axes 1 and 2 parallel: plain distance from axis 1
        radial = float(np.linalg.norm(r - np.dot(r, dirs[0]) * dirs[0]))
    shoulder = min(1.0, radial / max(nu + nf, 1e-12))
    kind = min((wrist, "wrist"), (elbow, "elbow"), (shoulder, "shoulder"))[1]
    if kind == "wrist":
        text = (f"near a wrist singularity (axes 4 and 6 nearly aligned, "
                f"q5 = {_fmt_angle(q[4], angle_unit)})")
    elif kind == "elbow":
        straight = q[2] - psi
        straight = (straight + math.pi) % (2 * math.pi) - math.pi
        how = "stretched out" if abs(psi) < math.pi / 2 else "folded back"
        if how == "folded back":
            straight = q[2] - (psi - math.copysign(math.pi, psi))
            straight = (straight + math.pi) % (2 * math.pi) - math.pi
        text = (f"near an elbow singularity (arm {how}: q3 = {_fmt_angle(q[2], angle_unit)}, "
                f"{'straight' if how == 'stretched out' else 'folded'} at "
                f"{_fmt_angle(straight, angle_unit)})")
    else:
        dist = _fmt_length(radial, length_unit, sign="")
        text = (f"near a shoulder singularity (wrist centre {dist} from "
                "the axis of joint 1, in the arm's plane)")
    return kind, text
