"""Cartesian jogging: resolved-rate steps with damped least squares, limits and reasons.

A jog moves the tool centre point along or about an axis of the world (base) frame or
of the tool frame. One step is:

1. the target pose ``T1`` (translation along the axis, or rotation about the axis
   through the TCP, keeping the TCP in place);
2. a damped-least-squares (DLS) joint step towards it; the damping grows as the
   smallest singular value of the Jacobian falls below ``sigma_threshold`` so steps
   stay bounded near singularities;
3. the step is scaled down so that no joint leaves its limits and no joint moves more
   than ``max_joint_step`` (never a jump); the target is scaled with it, so a partial
   step still moves along the commanded line;
4. up to three Newton iterations (usually one or two) remove the linearisation error,
   so a full step moves the TCP by exactly the step (to ~1e-9) and leaves the
   orientation unchanged for translation jogs.

When the jog stalls or falls short, :class:`JogResult` says why in words: which joint
is at which limit, or that the arm is near a singularity, with the Yoshikawa
manipulability and, for Puma-like arms (6R with a spherical wrist), which kind:
wrist (q5 ~ 0), elbow (arm stretched or folded) or shoulder (wrist centre on axis 1).

Arms with fewer than six joints jog in the task directions they control: Jacobian
rows that are zero in every configuration are ignored, and if more rows remain than
joints, translation jogs ignore orientation and rotation jogs ignore position.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from robogui.engine.checks import as_vector
from robogui.engine.kinematics.kinematics import fkine
from robogui.engine.spatial.transforms import tr2angvec

from ..explain.arm_axes import (  # noqa: F401  (re-exported: picking)
    _closest_point,
    _jacob0,
    _joint_axes,
    _task_rows,
    is_puma_like,
    task_mask,
)
from ..explain.readout import _fmt_angle, _fmt_length, angle_scale, length_scale
from ..explain.singularity import (
    _puma_singularity,
    decoupled_words,
    explain_singularity,
    singularity_kind,
)

__all__ = [
    "AXES",
    "JOG_STEPS_MM",
    "JOG_STEPS_DEG",
    "JOG_STEP_PRESETS",
    "JOG_LINEAR_SPEED",
    "JOG_ANGULAR_SPEED",
    "MAX_JOG_DT",
    "JogResult",
    "jog_step",
    "jog_delta",
    "jog_velocity",
    "jog_twist",
    "singularity_info",
    "is_puma_like",
    "joint_label",
    "task_mask",
    "stop_before_contact",
]

AXES = ("x", "y", "z", "rx", "ry", "rz")
#: incremental step presets shown on the pendant: translation in mm, rotation in degrees
JOG_STEPS_MM = (10.0, 1.0, 0.1)
JOG_STEPS_DEG = (5.0, 1.0, 0.1)
#: the same presets in SI units (m, rad), coarse to fine
JOG_STEP_PRESETS = {
    "linear": tuple(s / 1000.0 for s in JOG_STEPS_MM),
    "angular": tuple(math.radians(s) for s in JOG_STEPS_DEG),
}
#: continuous-jog speeds at 100 % override (teach mode speeds: 250 mm/s, 45 deg/s)
JOG_LINEAR_SPEED = 0.25
JOG_ANGULAR_SPEED = math.radians(45.0)
#: a longer frame gap (GUI hiccup) is not turned into one big move
MAX_JOG_DT = 0.1

_DEFAULT_MAX_STEP_R = math.radians(10.0)  # rad per step, revolute joints
_DEFAULT_MAX_STEP_P = 0.02  # m per step, prismatic joints


@dataclass(frozen=True, eq=False)
class JogResult:
    """Outcome of one jog step.

    ``q_new`` (n,) joint vector after the step (equal to the input when stalled);
    ``moved`` whether any joint changed; ``message`` None for a clean full step,
    otherwise a sentence for the status bar; ``limiting_joint`` 0-based index of the
    joint whose limit cut the step (None if none); ``manipulability`` Yoshikawa
    measure at ``q_new`` (over the task directions jogged); ``singularity_kind``
    "wrist"|"elbow"|"shoulder" for Puma-like arms, "general" for others, None when
    not near a singularity; ``fraction`` of the commanded motion achieved (0..1);
    ``sigma_min`` smallest singular value of the task Jacobian at ``q_new``.
    """

    q_new: np.ndarray
    moved: bool
    message: str | None
    limiting_joint: int | None
    manipulability: float
    singularity_kind: str | None
    fraction: float = 1.0
    sigma_min: float = math.inf

    @property
    def stalled(self) -> bool:
        """True when the jog achieved (almost) none of the commanded motion."""
        return self.fraction < 0.01


# -- small helpers ------------------------------------------------------------------
def joint_label(robot, j: int) -> str:
    """``"joint 3 (elbow)"`` for 0-based ``j``; the name only when the robot file gives one."""
    name = robot.links[j].name
    return f"joint {j + 1} ({name})" if name else f"joint {j + 1}"


def _fmt_joint_value(robot, j: int, value: float, angle_unit: str = "deg",
                     length_unit: str = "mm") -> str:
    """A joint value (rad or m) in the display units, for messages: "+45.0°", "+0.785 rad"."""
    if robot.links[j].joint == "R":
        return _fmt_angle(value, angle_unit)
    return _fmt_length(value, length_unit)


def _rotvec(R: np.ndarray) -> np.ndarray:
    """Rotation vector (axis * angle, rad) of a rotation matrix, robust near identity.

    On the hot path of every jog and handle drag step (several calls each): from the skew
    part and the trace directly, without tr2angvec's validation; near 180 degrees, where
    the skew part vanishes, tr2angvec decides the axis.
    """
    w = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])  # 2 sin(t) axis
    s = 0.5 * math.sqrt(float(w @ w))
    c = 0.5 * (float(R[0, 0] + R[1, 1] + R[2, 2]) - 1.0)
    if s > 1e-6:
        return w * (math.atan2(s, c) / (2.0 * s))
    if c > 0:
        return 0.5 * w  # near the identity: axis * angle to third order
    theta, v = tr2angvec(R)
    return theta * v


def _exp(w: np.ndarray) -> np.ndarray:
    """Rotation matrix of the rotation vector ``w`` (Rodrigues)."""
    theta = math.sqrt(float(w @ w))
    if theta < 1e-15:
        return np.eye(3)
    k = w / theta
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(theta) * K + (1.0 - math.cos(theta)) * (K @ K)


def _dls(J: np.ndarray, e: np.ndarray, sigma_threshold: float, lambda_max: float):
    """Damped least squares ``dq`` for ``J dq = e`` (Nakamura/Maciejewski variable damping).

    Returns (dq, singular values). Damping is zero while the smallest singular value is
    above ``sigma_threshold`` and grows to ``lambda_max`` as it falls to zero.
    """
    U, s, Vt = np.linalg.svd(J, full_matrices=False)
    smin = float(s[-1]) if s.size else 0.0
    lam2 = 0.0
    if smin < sigma_threshold:
        lam2 = (1.0 - (smin / sigma_threshold) ** 2) * lambda_max**2
    gain = np.divide(s, s**2 + lam2, out=np.zeros_like(s), where=(s**2 + lam2) > 1e-300)
    return Vt.T @ (gain * (U.T @ e)), s


def singularity_info(robot, q, angle_unit: str = "deg",
                     length_unit: str = "mm") -> tuple[str | None, str]:
    """Which singularity the arm at ``q`` (n,) is closest to, and a description.

    Returns ("wrist"|"elbow"|"shoulder", sentence) for arms with a spherical wrist and
    ("general", sentence) for others; the sentence ends with the lost Cartesian
    direction(s) from the SVD of J (:mod:`robogui.session.explain.singularity`). Each kind has a
    normalised measure in [0, 1] (sine of an angle, or a distance ratio) whose product with
    the others is the Jacobian determinant up to constant factors; the smallest one names
    the kind. Angles and lengths in the sentence are in ``angle_unit`` / ``length_unit``.
    """
    q = as_vector(q, robot.n, "q")
    kind, text = (_puma_singularity(robot, q, angle_unit, length_unit) if is_puma_like(robot)
                  else singularity_kind(robot, q))  # any arm with a spherical wrist
    how = decoupled_words(robot, q, kind)
    if how:  # the textbook words, at the wrist centre
        return kind, f"{text}, {how}"
    lost = explain_singularity(robot, q, weakest=True).lost
    return kind, text + "".join(f", {d.text}" for d in lost)


def _limit_fraction(dq: np.ndarray, q0: np.ndarray, lim: np.ndarray) -> tuple[float, int | None]:
    """Largest fraction of ``dq`` (<= 1) keeping ``q0 + s dq`` inside ``lim``, and the joint."""
    s_lim, limiting = 1.0, None
    for j in range(q0.size):
        if dq[j] > 1e-15:
            room = lim[j, 1] - q0[j]
        elif dq[j] < -1e-15:
            room = lim[j, 0] - q0[j]
        else:
            continue
        s_j = max(0.0, room / dq[j])
        if s_j < s_lim:
            s_lim, limiting = s_j, j
    return s_lim, limiting


def _limited_step(J, e, q0, lim, sigma_threshold, lambda_max):
    """DLS step and the fraction of it the joint limits allow.

    When a joint's limit cuts the step and the other joints can still do the whole task
    (redundant arms, or tasks of fewer dimensions than joints), that joint is frozen and
    the step recomputed without it. Returns (dq, fraction, limiting joint, frozen mask).
    """
    locked = np.zeros(q0.size, dtype=bool)
    while True:
        Jf = J.copy()
        Jf[:, locked] = 0.0
        dq, _ = _dls(Jf, e, sigma_threshold, lambda_max)
        s_lim, limiting = _limit_fraction(dq, q0, lim)
        if limiting is None or s_lim >= 1.0:
            return dq, s_lim, limiting, locked
        trial = locked.copy()
        trial[limiting] = True
        if np.linalg.matrix_rank(J[:, ~trial], tol=1e-9) < J.shape[0]:
            # freezing it would leave the task under-determined: stop at the limit
            return dq, s_lim, limiting, locked
        locked = trial



# -- jogging --------------------------------------------------------------------------
def _target(T0: np.ndarray, delta: np.ndarray, frame: str, s: float) -> np.ndarray:
    """Pose after the fraction ``s`` of the motion ``delta`` in ``frame``."""
    T = np.eye(4)
    R0, p0 = T0[:3, :3], T0[:3, 3]
    if frame == "world":
        T[:3, 3] = p0 + s * delta[:3]
        T[:3, :3] = _exp(s * delta[3:]) @ R0
    else:
        T[:3, 3] = p0 + R0 @ (s * delta[:3])
        T[:3, :3] = R0 @ _exp(s * delta[3:])
    return T


def _pose_error(T_goal: np.ndarray, T: np.ndarray) -> np.ndarray:
    """World-frame twist [dp, dtheta] taking ``T`` to ``T_goal``."""
    return np.concatenate([T_goal[:3, 3] - T[:3, 3], _rotvec(T_goal[:3, :3] @ T[:3, :3].T)])


def _motion(T0: np.ndarray, T: np.ndarray, frame: str) -> np.ndarray:
    """The motion from ``T0`` to ``T`` expressed like a jog delta in ``frame``."""
    e = _pose_error(T, T0)
    if frame == "tool":
        R0 = T0[:3, :3]
        return np.concatenate([R0.T @ e[:3], R0.T @ e[3:]])
    return e


def jog_delta(robot, q, delta, frame: str = "world", *,
              max_joint_step: float = _DEFAULT_MAX_STEP_R,
              max_prismatic_step: float = _DEFAULT_MAX_STEP_P,
              sigma_threshold: float = 0.04, lambda_max: float = 0.04,
              newton_iterations: int = 3, angle_unit: str = "deg",
              length_unit: str = "mm", explain: bool = True) -> JogResult:
    """Move the TCP by the small motion ``delta`` = [dx dy dz, drx dry drz] (m, rad).

    ``frame`` "world": translation along and rotation about the world (base) axes,
    rotations about the TCP; "tool": the same in the tool frame. A joint of ``q`` (n,)
    that lies outside its limits (a loaded trajectory, a pose typed elsewhere) is not
    clipped, which would be a jump: it may only move back towards its range. See the
    module docstring for the algorithm; ``max_joint_step`` (rad) and
    ``max_prismatic_step`` (m) bound every joint's move per call. The result's message
    gives joint values and distances in ``angle_unit`` ("deg"/"rad") and ``length_unit``
    ("mm"/"m"), the user's display units. ``explain`` False leaves the singularity's
    explanation out (its kind and sentence: the costly part of a step near one), for
    trial steps whose message nobody reads.
    """
    angle_scale(angle_unit), length_scale(length_unit)  # refuse an unknown unit up front
    if frame not in ("world", "tool"):
        raise ValueError(f"frame must be 'world' or 'tool', got {frame!r}")
    q0 = as_vector(q, robot.n, "q")
    delta = as_vector(delta, 6, "delta")
    qlim = robot.qlim
    # a joint outside its range: its range stretches to where it is (no further out)
    lim = np.column_stack([np.minimum(qlim[:, 0], q0), np.maximum(qlim[:, 1], q0)])
    revolute = np.array([L.joint == "R" for L in robot.links])
    max_step = np.where(revolute, max_joint_step, max_prismatic_step)
    rotation_jog = np.abs(delta[3:]).max() > 0 and np.abs(delta[:3]).max() == 0
    rows = _task_rows(robot, bool(rotation_jog))

    T0 = fkine(robot, q0)
    J = _jacob0(robot, q0)[rows]
    e0 = _pose_error(_target(T0, delta, frame, 1.0), T0)[rows]
    dq, s_lim, limiting, locked = _limited_step(J, e0, q0, lim, sigma_threshold, lambda_max)
    over = np.abs(dq) / max_step
    s_max = 1.0 / over.max() if over.max() > 1.0 else 1.0
    s = min(1.0, s_lim, s_max)

    # Newton refinement towards the (possibly shortened) target on the commanded line
    goal = _target(T0, delta, frame, s)
    q1 = np.clip(q0 + s * dq, lim[:, 0], lim[:, 1])
    for _ in range(newton_iterations):
        e = _pose_error(goal, fkine(robot, q1))[rows]
        if np.abs(e).max() < 1e-12:
            break
        Jc = _jacob0(robot, q1)[rows]
        Jc[:, locked] = 0.0  # joints frozen at a limit stay there
        corr, _ = _dls(Jc, e, sigma_threshold, lambda_max)
        # corrections never take the whole step past max_step either (never a jump)
        room = np.where(corr > 0, q0 + max_step - q1, q0 - max_step - q1)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(np.abs(corr) > 1e-15, room / corr, np.inf)
        corr = corr * float(np.clip(ratio.min(), 0.0, 1.0))
        q1 = np.clip(q1 + corr, lim[:, 0], lim[:, 1])
    if not np.all(np.isfinite(q1)):  # cannot happen with the guards above; never emit NaN
        q1 = q0.copy()

    T1 = fkine(robot, q1)
    achieved = _motion(T0, T1, frame)
    norm2 = float(delta @ delta)
    fraction = float(np.clip(achieved @ delta / norm2, 0.0, 1.0)) if norm2 > 0 else 1.0
    s_vals = np.linalg.svd(_jacob0(robot, q1)[rows], compute_uv=False)
    manip = float(np.prod(s_vals)) if s_vals.size else 0.0
    smin = float(s_vals[-1]) if s_vals.size else 0.0
    near = smin < sigma_threshold
    kind, sing_text = (singularity_info(robot, q1, angle_unit, length_unit)
                       if near and explain else (None, ""))

    message = None
    moved_part = f"; moved {fraction * 100:.0f} % of the step" if fraction < 0.99 else ""
    limited_by_joint = limiting is not None and s_lim <= s and s_lim < 1.0
    units = (angle_unit, length_unit)
    if limited_by_joint:
        j = limiting
        side = "upper" if dq[j] > 0 else "lower"
        value = qlim[j, 1] if dq[j] > 0 else qlim[j, 0]
        outside = q0[j] > qlim[j, 1] if dq[j] > 0 else q0[j] < qlim[j, 0]
        if outside:  # it started beyond that limit and may only come back
            message = (f"{joint_label(robot, j)} is beyond its {side} limit "
                       f"({_fmt_joint_value(robot, j, value, *units)}) at "
                       f"{_fmt_joint_value(robot, j, q0[j], *units)} and may only move back "
                       "towards its range")
        else:
            verb = "is at" if s_lim < 1e-9 else "reached"
            message = (f"{joint_label(robot, j)} {verb} its {side} limit "
                       f"({_fmt_joint_value(robot, j, value, *units)})")
    if near and explain and (fraction < 0.99 or not limited_by_joint):
        text = f"{sing_text[0].upper()}{sing_text[1:]}: manipulability {manip:.3g}"
        message = text if message is None else f"{message}. {text}"
    if message is not None:
        message += moved_part  # said once, at the end
    elif fraction < 0.99:
        reason = ("the step was limited to avoid a jump" if s_max < 1.0
                  else "the motion is not reachable from here")
        message = f"Moved {fraction * 100:.0f} % of the step: {reason}"
    if message is not None and message[0].islower():
        message = message[0].upper() + message[1:]
    return JogResult(q_new=q1, moved=bool(np.abs(q1 - q0).max() > 1e-12), message=message,
                     limiting_joint=limiting if limited_by_joint else None,
                     manipulability=manip, singularity_kind=kind, fraction=fraction,
                     sigma_min=smin)


def _axis_delta(axis: str, direction: int, step: float) -> np.ndarray:
    if axis not in AXES:
        raise ValueError(f"axis must be one of {', '.join(AXES)}, got {axis!r}")
    if direction not in (1, -1):
        raise ValueError(f"direction must be +1 or -1, got {direction!r}")
    try:
        step = float(step)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"step must be a number, got {step!r}") from exc
    if not math.isfinite(step) or step < 0:
        raise ValueError(f"step must be a finite non-negative size (m or rad), got {step}")
    d = np.zeros(6)
    d[AXES.index(axis)] = direction * step
    return d


def jog_step(robot, q, axis: str, direction: int, step: float, frame: str = "world",
             **options) -> JogResult:
    """One incremental jog: ``step`` m (axes x, y, z) or rad (rx, ry, rz), ``direction`` +-1.

    ``frame`` "world" (base) or "tool". ``options`` go to :func:`jog_delta`. A step
    bigger than the joints may move at once is shortened (see the result's message).

    >>> from robogui.io.robotfile import load_robot
    >>> r = load_robot("puma560"); q = r.pose("qn")
    >>> res = jog_step(r, q, "z", +1, 0.001)
    >>> bool(abs((r.fkine(res.q_new) - r.fkine(q))[2, 3] - 0.001) < 1e-9)
    True
    """
    return jog_delta(robot, q, _axis_delta(axis, direction, step), frame, **options)


def jog_twist(axis: str, direction: int, linear_speed: float = JOG_LINEAR_SPEED,
              angular_speed: float = JOG_ANGULAR_SPEED) -> np.ndarray:
    """The (6,) twist [v (m/s), w (rad/s)] of a held jog button at 100 % override."""
    d = _axis_delta(axis, direction, 1.0)
    d[:3] *= linear_speed
    d[3:] *= angular_speed
    return d


def jog_velocity(robot, q, twist, dt: float, speed: float = 100.0, frame: str = "world",
                 **options) -> JogResult:
    """One tick of continuous jogging: move by ``twist * dt * speed / 100``.

    ``twist`` (6,) [v (m/s), w (rad/s)] at 100 % (see :func:`jog_twist`); ``dt`` the
    wall-clock time since the previous tick in s (capped at ``MAX_JOG_DT`` so a GUI
    hiccup does not become a leap); ``speed`` the override in percent, 1-100.
    """
    twist = as_vector(twist, 6, "twist")
    dt = float(as_vector([dt], 1, "dt")[0])
    sp = float(as_vector([speed], 1, "speed")[0])
    if dt < 0:
        raise ValueError(f"dt must not be negative, got {dt}")
    sp = min(100.0, max(1.0, sp))
    return jog_delta(robot, q, twist * min(dt, MAX_JOG_DT) * sp / 100.0, frame, **options)


def stop_before_contact(session, res: JogResult) -> JogResult:
    """``res`` (a jog step or a handle drag step from the session's q) with the session's
    collision guard applied (:meth:`~robogui.session.session.Session.check_step`, on when
    ``session.stop_before_contact``): a step that would bring a link into contact stops at
    the last state before it, and the message says why, e.g. ``forearm would hit 'table'
    (clearance 3 mm)``. A clear step is returned unchanged."""
    if not res.moved:
        return res
    check = session.check_step(res.q_new)
    if not check.blocked:
        return res
    q = np.array(check.q, dtype=float)
    moved = bool(np.abs(q - session.q).max() > 1e-12)
    return JogResult(q_new=q, moved=moved, message=check.reason, limiting_joint=None,
                     manipulability=res.manipulability, singularity_kind=res.singularity_kind,
                     fraction=res.fraction * check.fraction, sigma_min=res.sigma_min)
