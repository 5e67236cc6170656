"""The D-H frames and parameters of every link drawn as the textbook figure, Qt-free.

For link i (1-based) between frames {i-1} and {i} (world poses from ``fkine_all``):

* standard D-H, ``A = Rz(theta) Tz(d) Tx(a) Rx(alpha)``: d along z(i-1) from o(i-1),
  theta an arc about z(i-1) from x(i-1) to x(i), a along x(i) to o(i), alpha an arc
  about x(i) at o(i) from z(i-1) to z(i);
* modified D-H, ``A = Rx(alpha) Tx(a) Rz(theta) Tz(d)``: alpha an arc about x(i-1) at
  o(i-1) from z(i-1) to z(i), a along x(i-1), theta an arc about z(i) from x(i-1) to
  x(i), d along z(i) to o(i).

theta and d are the values at the current q (``q + offset`` for the joint variable).
:func:`dh_annotations` returns, per link, the four parameters as polylines in world
coordinates with a label position and text; the app draws them
(:mod:`robogui.app.view.dh_frames_item`) and tests check the numbers here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from robogui.engine.checks import as_vector

__all__ = ["ParameterMark", "LocalMark", "dh_annotations", "local_marks", "frame_label",
           "ARC_POINTS"]

ARC_POINTS = 24


@dataclass(frozen=True)
class ParameterMark:
    """One D-H parameter of one link, drawn: ``link`` 0-based, ``name`` "d"|"theta"|"a"|
    "alpha", ``value`` (m or rad), ``points`` (k, 3) world polyline (a segment for d
    and a, an arc for theta and alpha), ``label_at`` (3,) and ``text`` e.g. "d1 = 0.672 m"."""

    link: int
    name: str
    value: float
    points: np.ndarray
    label_at: np.ndarray
    text: str


def frame_label(i: int) -> str:
    """The label of frame i: ``{i}``."""
    return "{" + str(i) + "}"


def _arc(centre, axis, start, angle: float, radius: float) -> np.ndarray:
    """Points (ARC_POINTS, 3) of an arc about unit ``axis`` from unit ``start`` by ``angle``."""
    t = np.linspace(0.0, angle, ARC_POINTS)[:, None]
    perp = np.cross(axis, start)
    return centre + radius * (np.cos(t) * start + np.sin(t) * perp)


def _fmt(name: str, i: int, value: float, angular: bool, angle_unit: str,
         length_unit: str = "m") -> str:
    greek = {"theta": "\u03b8", "alpha": "\u03b1"}.get(name, name)
    if angular:
        v = math.degrees(value) if angle_unit == "deg" else value
        unit = "\u00b0" if angle_unit == "deg" else " rad"
        return f"{greek}{i} = {v + 0.0:.1f}{unit}" if angle_unit == "deg" else (
            f"{greek}{i} = {v + 0.0:.3f}{unit}")
    if length_unit == "mm":
        return f"{greek}{i} = {value * 1000.0 + 0.0:.1f} mm"
    return f"{greek}{i} = {value + 0.0:.3f} m"


def dh_annotations(robot, q, frames: np.ndarray | None = None, *, radius: float | None = None,
                   angle_unit: str = "deg", length_unit: str = "m") -> list[ParameterMark]:
    """The four parameter marks of every link at ``q`` (n,): a list of 4n marks in link
    order (d, theta, a, alpha for standard D-H; alpha, a, theta, d for modified); links
    with a general (URDF) joint have none.

    ``frames`` is ``fkine_all(robot, q)`` when known; ``radius`` (m) of the arcs, default
    8 % of the robot's reach. The base is included (frame 0 is the base), the tool is not:
    frame n is the last link frame. The labels give angles in ``angle_unit`` ("deg" or
    "rad") and lengths in ``length_unit`` ("m" or "mm"), the app's display units.
    """
    if length_unit not in ("m", "mm"):
        raise ValueError(f"length_unit must be 'm' or 'mm', got {length_unit!r}")
    if getattr(robot, "coupling", None) is not None:  # mimic joints: every body's frame
        q, robot = robot.coupling.expand(q, robot.n, "q", rate=False), robot.full
    q = as_vector(q, robot.n, "q")
    F = robot.fkine_all(q) if frames is None else np.asarray(frames, dtype=float)
    if F.shape != (robot.n + 1, 4, 4):
        raise ValueError(f"frames must have shape ({robot.n + 1}, 4, 4), got {F.shape}")
    F = F.copy()
    F[-1] = F[-1] @ np.linalg.inv(robot.tool)  # the last link frame, not the tool
    r = 0.08 * robot.reach if radius is None else float(radius)
    dh = robot.dh_arrays
    marks: list[ParameterMark] = []
    for k, L in enumerate(robot.links):
        if getattr(L, "is_general", False):
            continue  # a URDF joint has no D-H parameters to draw (its frames still are)
        i = k + 1
        theta = q[k] + L.offset if L.joint == "R" else L.theta
        d = q[k] + L.offset if L.joint == "P" else L.d
        a, alpha = L.a, L.alpha
        P, C = F[k], F[i]  # frames {i-1} and {i}
        o0, x0, z0 = P[:3, 3], P[:3, 0], P[:3, 2]
        o1, x1, z1 = C[:3, 3], C[:3, 0], C[:3, 2]
        # modified D-H: a and alpha are a(i-1), alpha(i-1) (Craig's names)
        fmt = lambda name, v, ang, i=i: _fmt(  # noqa: E731
            name, i - 1 if dh.mdh and name in ("a", "alpha") else i, v, ang, angle_unit,
            length_unit)
        if not dh.mdh:
            foot = o0 + d * z0  # where the common normal a(i) leaves axis z(i-1)
            marks.append(ParameterMark(k, "d", d, np.array([o0, foot]),
                                       o0 + 0.5 * d * z0 + 0.3 * r * x0, fmt("d", d, False)))
            arc = _arc(foot, z0, x0, theta, r)
            marks.append(ParameterMark(k, "theta", theta, arc, arc[ARC_POINTS // 2],
                                       fmt("theta", theta, True)))
            marks.append(ParameterMark(k, "a", a, np.array([foot, o1]),
                                       0.5 * (foot + o1) - 0.3 * r * z0, fmt("a", a, False)))
            arc = _arc(o1, x1, z0, alpha, r)
            marks.append(ParameterMark(k, "alpha", alpha, arc, arc[ARC_POINTS // 2],
                                       fmt("alpha", alpha, True)))
        else:
            arc = _arc(o0, x0, z0, alpha, r)
            marks.append(ParameterMark(k, "alpha", alpha, arc, arc[ARC_POINTS // 2],
                                       fmt("alpha", alpha, True)))
            corner = o0 + a * x0  # where axis z(i) crosses the common normal
            marks.append(ParameterMark(k, "a", a, np.array([o0, corner]),
                                       0.5 * (o0 + corner) + 0.3 * r * z1, fmt("a", a, False)))
            arc = _arc(corner, z1, x0, theta, r)
            marks.append(ParameterMark(k, "theta", theta, arc, arc[ARC_POINTS // 2],
                                       fmt("theta", theta, True)))
            marks.append(ParameterMark(k, "d", d, np.array([corner, o1]),
                                       0.5 * (corner + o1) + 0.3 * r * x1, fmt("d", d, False)))
    return marks


@dataclass(frozen=True)
class LocalMark:
    """A parameter mark in the coordinates of one link frame, for drawing it once and
    moving it by that frame's transform: ``frame`` 0..n (the fkine_all index),
    ``points`` (k, 3) in that frame, ``varies`` True when the shape depends on q (the
    theta arc of a revolute joint, the d segment of a prismatic one)."""

    link: int
    name: str
    frame: int
    points: np.ndarray
    varies: bool


def local_marks(robot, q, radius: float) -> list[LocalMark]:
    """The marks of :func:`dh_annotations` in link-frame coordinates (same order).

    Standard D-H: d and theta live in frame {i-1}, a and alpha in frame {i} (where
    ``z(i-1) = (0, sin alpha, cos alpha)``); modified D-H: alpha and a in frame {i-1},
    theta and d in frame {i} (where ``x(i-1) = (cos theta, -sin theta, 0)``).
    """
    if getattr(robot, "coupling", None) is not None:  # mimic joints: every body's frame
        q, robot = robot.coupling.expand(q, robot.n, "q", rate=False), robot.full
    q = as_vector(q, robot.n, "q")
    ex, ez = np.array([1.0, 0, 0]), np.array([0, 0, 1.0])
    out: list[LocalMark] = []
    o = np.zeros(3)
    for k, L in enumerate(robot.links):
        if getattr(L, "is_general", False):
            continue
        rev = L.joint == "R"
        theta = q[k] + L.offset if rev else L.theta
        d = q[k] + L.offset if not rev else L.d
        a, al = L.a, L.alpha
        if not robot.dh_arrays.mdh:
            out.append(LocalMark(k, "d", k, np.array([o, d * ez]), not rev))
            out.append(LocalMark(k, "theta", k, _arc(d * ez, ez, ex, theta, radius), rev))
            out.append(LocalMark(k, "a", k + 1, np.array([-a * ex, o]), False))
            z_prev = np.array([0.0, math.sin(al), math.cos(al)])
            out.append(LocalMark(k, "alpha", k + 1, _arc(o, ex, z_prev, al, radius), False))
        else:
            out.append(LocalMark(k, "alpha", k, _arc(o, ex, ez, al, radius), False))
            out.append(LocalMark(k, "a", k, np.array([o, a * ex]), False))
            x_prev = np.array([math.cos(theta), -math.sin(theta), 0.0])
            out.append(LocalMark(k, "theta", k + 1, _arc(-d * ez, ez, x_prev, theta, radius),
                                 rev))
            out.append(LocalMark(k, "d", k + 1, np.array([-d * ez, o]), not rev))
    return out
