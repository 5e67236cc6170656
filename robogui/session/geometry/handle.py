"""The tool handle's geometry: which part a ray grabs, and what a drag asks of the TCP.

The handle sits at a pose's origin (the TCP, or a go-to target) with three translation
arrows and three rotation rings along the axes of the world or of the pose itself
("tool", the jog frame setting). Its size on screen is constant: the view passes
``size``, the world length of one arrow at the handle's depth.

In handle units (multiples of ``size``) an arrow runs from :data:`ARROW_START` to 1 along
its axis and a ring has radius :data:`RING_RADIUS` in the plane normal to its axis.

A drag (:class:`HandleDrag`) turns each new mouse ray into a goal pose, always measured
from where the drag started (so nothing accumulates): along an arrow, the point of the
axis line nearest the ray; on a ring, the angle swept about the axis in the ring's
plane (unwrapped, so several turns add up); free (Shift), the point under the mouse in
the plane through the handle facing the camera. :func:`follow_pose` moves a robot
towards a goal with the jog's damped least squares (limits, no jumps, same branch).

A drag is constrained: an arrow keeps the TCP on its axis line and the orientation as
it was, a ring keeps the TCP in place and turns only about its axis, a free move stays
in its plane. Where the damped step would leave the constraint (the arm at the edge of
its reach, a limit, a singularity: least squares then trades a sideways move for
progress) :func:`follow_drag` takes a shorter step along the constraint, and when no
step keeps to it, stops and says why. Qt-free; tested without a window.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from robogui.engine.kinematics.kinematics import fkine
from robogui.engine.spatial.transforms import angvec2r

from ..teach.jog import JogResult, _rotvec, jog_delta
from .picking import Ray

__all__ = ["ARROW_START", "RING_RADIUS", "HandlePart", "handle_axes", "hit_handle",
           "HandleDrag", "follow_pose", "follow_drag", "pose_motion", "OFF_AXIS_M",
           "OFF_AXIS_RAD"]

ARROW_START = 0.18
RING_RADIUS = 0.72
KINDS = ("translate", "rotate", "free")
#: how far a constrained drag may leave its axis line / plane (m) and turn away from the
#: orientation it keeps (rad) before the step is shortened: well below what one sees
OFF_AXIS_M = 2e-4
OFF_AXIS_RAD = math.radians(0.02)


@dataclass(frozen=True)
class HandlePart:
    """A part of the handle: ``kind`` "translate" | "rotate" | "free"; ``axis`` 0, 1, 2
    (x, y, z of the handle frame; -1 for free)."""

    kind: str
    axis: int = -1

    @property
    def name(self) -> str:
        if self.kind == "free":
            return "free move"
        letter = "XYZ"[self.axis]
        return f"move along {letter}" if self.kind == "translate" else f"rotate about {letter}"


def handle_axes(T, frame: str = "world") -> tuple[np.ndarray, np.ndarray]:
    """Origin (3,) and axes (3, 3) (rows: unit x, y, z) of the handle at pose ``T`` (4, 4)
    in ``frame`` "world" (the base axes) or "tool" (the pose's own axes)."""
    T = np.asarray(T, dtype=float)
    if frame == "world":
        return T[:3, 3].copy(), np.eye(3)
    if frame == "tool":
        return T[:3, 3].copy(), T[:3, :3].T.copy()
    raise ValueError(f"frame must be 'world' or 'tool', got {frame!r}")


def _ray_line(ray: Ray, p: np.ndarray, a: np.ndarray) -> tuple[float, float, float] | None:
    """Closest approach of ``ray`` and the line ``p + s a``: (s, t along the ray, distance);
    None when they are parallel."""
    w = ray.origin - p
    b = float(ray.direction @ a)
    den = 1.0 - b * b
    if den < 1e-10:
        return None
    d, e = float(ray.direction @ w), float(a @ w)
    t = (b * e - d) / den
    s = (e - b * d) / den
    gap = float(np.linalg.norm(ray.origin + t * ray.direction - (p + s * a)))
    return s, t, gap


def _ray_plane(ray: Ray, p: np.ndarray, n: np.ndarray) -> tuple[float, np.ndarray] | None:
    """Where ``ray`` meets the plane through ``p`` with normal ``n``: (t, point), or None
    when it is parallel to the plane or the plane is behind it."""
    den = float(ray.direction @ n)
    if abs(den) < 1e-9:
        return None
    t = float((p - ray.origin) @ n) / den
    if t < 0:
        return None
    return t, ray.at(t)


def hit_handle(ray: Ray, origin, axes, size: float, tolerance: float = 0.09
               ) -> HandlePart | None:
    """The handle part under ``ray``: an arrow within ``tolerance * size`` of the ray, or a
    ring whose circle passes within that of the ray's crossing of its plane. Where several
    qualify (an arrow seen end-on over a ring) the one nearest the mouse wins: the
    smallest miss, as a fraction of the tolerance. ``axes`` (3, 3) rows are unit axes."""
    o = np.asarray(origin, dtype=float)
    A = np.asarray(axes, dtype=float)
    tol = tolerance * size
    best: tuple[float, HandlePart] | None = None
    for i in range(3):
        near = _ray_line(ray, o, A[i])
        if near is not None:
            s, t, gap = near
            if ARROW_START * size <= s <= 1.08 * size and gap <= tol and t >= 0:
                if best is None or gap / tol < best[0]:
                    best = (gap / tol, HandlePart("translate", i))
        cross = _ray_plane(ray, o, A[i])
        if cross is not None:
            _t, point = cross
            r = float(np.linalg.norm(point - o))
            # an edge-on ring is thin on screen: widen its band as the plane turns away
            slant = max(abs(float(ray.direction @ A[i])), 0.25)
            miss = abs(r - RING_RADIUS * size) * slant  # about the distance from the ray
            if miss <= tol:
                if best is None or miss / tol < best[0]:
                    best = (miss / tol, HandlePart("rotate", i))
    return None if best is None else best[1]


def _rot(axis: np.ndarray, angle: float) -> np.ndarray:
    return angvec2r(angle, axis) if angle != 0.0 else np.eye(3)


@dataclass
class HandleDrag:
    """One drag of ``part`` of the handle, started on ``ray`` with the pose at ``T0``.

    ``axes`` (3, 3) the handle's axes at the start (they stay fixed during the drag);
    ``view_dir`` (3,) the camera's viewing direction (for free moves).
    :meth:`goal` gives the goal pose for a new mouse ray and :attr:`amount` what was
    dragged so far: metres along the axis, radians about it, or a (3,) vector (free).
    """

    part: HandlePart
    T0: np.ndarray
    axes: np.ndarray
    ray: Ray
    view_dir: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, -1.0]))
    amount: float | np.ndarray = 0.0

    def __post_init__(self):
        if self.part.kind not in KINDS:
            raise ValueError(f"part kind must be one of {KINDS}, got {self.part.kind!r}")
        self.T0 = np.asarray(self.T0, dtype=float).copy()
        self.axes = np.asarray(self.axes, dtype=float).copy()
        self._o = self.T0[:3, 3].copy()
        self._ref = self._measure(self.ray)
        if self._ref is None:  # grabbed edge-on: measure from the handle's centre
            self._ref = 0.0 if self.part.kind == "translate" else (
                self.axes[(self.part.axis + 1) % 3] if self.part.kind == "rotate" else self._o)
        self._angle = 0.0
        self.amount = np.zeros(3) if self.part.kind == "free" else 0.0

    @property
    def axis(self) -> np.ndarray:
        """The unit axis (3,) of an arrow or ring drag."""
        return self.axes[self.part.axis]

    def _measure(self, ray: Ray):
        kind = self.part.kind
        if kind == "translate":
            near = _ray_line(ray, self._o, self.axis)
            return None if near is None else near[0]
        if kind == "rotate":
            cross = _ray_plane(ray, self._o, self.axis)
            if cross is None:
                return None
            v = cross[1] - self._o
            v -= (v @ self.axis) * self.axis
            n = float(np.linalg.norm(v))
            return None if n < 1e-12 else v / n
        vd = np.asarray(self.view_dir, dtype=float)
        cross = _ray_plane(ray, self._o, vd / np.linalg.norm(vd))
        return None if cross is None else cross[1]

    def goal(self, ray: Ray) -> np.ndarray:
        """Goal pose (4, 4) for the mouse ray ``ray``: the start pose moved by the drag.

        Where the ray says nothing (parallel to the axis or plane) the last amount holds.
        """
        m = self._measure(ray)
        kind = self.part.kind
        if m is not None:
            if kind == "translate":
                self.amount = float(m - self._ref)
            elif kind == "rotate":
                a = self.axis
                step = math.atan2(float(a @ np.cross(self._ref, m)), float(self._ref @ m))
                # unwrap against the previous angle: turning past 180 degrees goes on
                turns = round((self._angle - step) / (2 * math.pi))
                self._angle = step + 2 * math.pi * turns
                self.amount = self._angle
            else:
                self.amount = np.asarray(m - self._ref, dtype=float)
        return self.pose_at(self.amount)

    def pose_at(self, amount) -> np.ndarray:
        """The start pose moved by ``amount`` (m along the arrow, rad about the ring, or a
        (3,) vector for a free move): (4, 4)."""
        T = self.T0.copy()
        kind = self.part.kind
        if kind == "translate":
            T[:3, 3] += float(amount) * self.axis
        elif kind == "rotate":
            T[:3, :3] = _rot(self.axis, float(amount)) @ self.T0[:3, :3]
        else:
            T[:3, 3] += np.asarray(amount, dtype=float)
        return T

    def progress(self, T) -> tuple[float | np.ndarray, float, float]:
        """Where pose ``T`` (4, 4) is along this drag and how far it strays from it:
        (amount like :attr:`amount`, distance off the axis line / point / plane (m),
        rotation away from the allowed one (rad))."""
        T = np.asarray(T, dtype=float)
        d = T[:3, 3] - self._o
        w = _rotvec(T[:3, :3] @ self.T0[:3, :3].T)
        kind = self.part.kind
        if kind == "translate":
            s = float(d @ self.axis)
            return s, float(np.linalg.norm(d - s * self.axis)), float(np.linalg.norm(w))
        if kind == "rotate":
            a = float(w @ self.axis)
            turns = round((float(self.amount) - a) / (2 * math.pi))  # unwrapped like goal()
            return (a + 2 * math.pi * turns, float(np.linalg.norm(d)),
                    float(np.linalg.norm(w - a * self.axis)))
        n = np.asarray(self.view_dir, dtype=float)
        n = n / np.linalg.norm(n)
        return d - (d @ n) * n, abs(float(d @ n)), float(np.linalg.norm(w))


def pose_motion(T_from, T_to) -> np.ndarray:
    """World twist (6,) [dp (m), rotation vector (rad)] from pose ``T_from`` to ``T_to``,
    rotating about the moving point (the jog's convention)."""
    A, B = np.asarray(T_from, dtype=float), np.asarray(T_to, dtype=float)
    return np.concatenate([B[:3, 3] - A[:3, 3], _rotvec(B[:3, :3] @ A[:3, :3].T)])


def follow_pose(robot, q, T_goal, **options) -> JogResult:
    """One IK step of a handle drag: move ``robot`` from ``q`` (n,) towards the pose
    ``T_goal`` (4, 4) with the jog's damped least squares (:func:`~.jog.jog_delta`):
    joint limits respected, no joint moves more than the jog allows per step (no
    jumps, the branch is kept), and the result says why when it falls short.

    One Newton refinement instead of the jog's three (``newton_iterations`` in
    ``options`` overrides it): a drag's goal is measured from where it started, so what
    one mouse move leaves over is taken up by the next; ~0.5 ms per call for the Puma.
    """
    options.setdefault("newton_iterations", 1)
    T = fkine(robot, np.asarray(q, dtype=float))
    delta = pose_motion(T, T_goal)
    # numerical dust in the part not dragged would make a pure rotation look mixed
    scale = max(float(robot.reach), 1e-9)
    if np.abs(delta[:3]).max() < 1e-12 * scale:
        delta[:3] = 0.0
    if np.abs(delta[3:]).max() < 1e-12:
        delta[3:] = 0.0
    return jog_delta(robot, q, delta, "world", **options)


def _strays(drag: HandleDrag, T, before: tuple[float, float]) -> bool:
    """Whether pose ``T`` leaves ``drag``'s constraint: more than the tolerances off it
    and further off than the pose it came from (``before``: its (m, rad) off)."""
    _, off_m, off_rad = drag.progress(T)
    return ((off_m > OFF_AXIS_M and off_m > before[0] + 1e-9)
            or (off_rad > OFF_AXIS_RAD and off_rad > before[1] + 1e-9))


def follow_drag(robot, q, drag: HandleDrag, T_goal, *, halvings: int = 6,
                **options) -> JogResult:
    """One IK step of the constrained ``drag`` towards ``T_goal`` (4, 4), from ``q`` (n,).

    Like :func:`follow_pose`, but the TCP keeps to the drag's axis line, point or plane
    (within :data:`OFF_AXIS_M` and :data:`OFF_AXIS_RAD`): a step that would leave it is
    halved along the drag (up to ``halvings`` times); when even the shortest leaves it,
    the robot stays and the result says it can go no further and why.
    """
    q = np.asarray(q, dtype=float)
    T_now = fkine(robot, q)
    here, off_m, off_rad = drag.progress(T_now)
    want = drag.progress(T_goal)[0]
    threshold = options.get("sigma_threshold", 0.04)

    def explained(res: JogResult, goal) -> JogResult:
        # the trial steps leave a singularity's explanation out (half of a step's time
        # near one: up to seven steps per mouse move); the step kept gets it, the same
        # step taken again with it
        if res.sigma_min < threshold:
            return follow_pose(robot, q, goal, **options)
        return res

    trial = dict(options, explain=False)
    res = follow_pose(robot, q, T_goal, **trial)
    if not _strays(drag, fkine(robot, res.q_new), (off_m, off_rad)):
        return explained(res, T_goal)
    first = res
    for k in range(1, halvings + 1):
        f = 0.5 ** k
        amount = here + f * (np.asarray(want) - np.asarray(here))
        goal = drag.pose_at(amount)
        res = follow_pose(robot, q, goal, **trial)
        if not _strays(drag, fkine(robot, res.q_new), (off_m, off_rad)):
            res = explained(res, goal)
            # a shorter step along the constraint: the next mouse move tries again
            return JogResult(q_new=res.q_new, moved=res.moved, message=res.message,
                             limiting_joint=res.limiting_joint,
                             manipulability=res.manipulability,
                             singularity_kind=res.singularity_kind, fraction=f * res.fraction,
                             sigma_min=res.sigma_min)
    first = explained(first, T_goal)
    why = first.message or "the motion is not reachable from here"
    why = why.split("; moved ")[0]
    why = why[0].lower() + why[1:] if why[:1].isupper() and not why[1:2].isupper() else why
    what = {"translate": "along", "rotate": "about"}.get(drag.part.kind)
    where = (f"{what} {'XYZ'[drag.part.axis]}" if what else "in this plane")
    message = f"Can go no further {where} without leaving it: {why}"
    return JogResult(q_new=q.copy(), moved=False, message=message,
                     limiting_joint=first.limiting_joint,
                     manipulability=first.manipulability,
                     singularity_kind=first.singularity_kind, fraction=0.0,
                     sigma_min=first.sigma_min)
