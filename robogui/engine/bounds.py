"""Sane bounds on what a file may hold, so that nothing downstream overflows.

A finite but absurd value (a link 1.7e308 m long, a move lasting 1e300 s, a header that
announces 1e9 links) passes every "is it a number" check and then overflows deep inside
the kinematics, the code generator or an allocation. The loaders refuse such values up
front, naming the file and the field, with these bounds (documented in
docs/bounds.md). They are generous: several orders of magnitude beyond any real arm.

Everything is SI: metres, radians, kilograms, seconds.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "MAX_LENGTH", "MAX_ANGLE", "MAX_MASS", "MAX_INERTIA", "MAX_GRAVITY", "MAX_MOTOR",
    "MAX_TORQUE", "MAX_JOINT_RATE",
    "MAX_JOINTS", "MAX_SAMPLES", "MAX_TIME", "MIN_DT", "MAX_MOVE_TIME",
    "MIN_LINEAR_SPEED", "MIN_JOINT_SPEED_FRACTION", "MAX_LINEAR_SPEED", "MAX_FILE_BYTES",
    "MAX_DATA_FILE_BYTES",
    "out_of_bounds", "link_bound_problems", "robot_bound_problems", "check_count",
]

#: |length| (m): D-H a and d, centres of mass, base/tool translations, prismatic values
MAX_LENGTH = 1.0e3
#: |angle| (rad): D-H theta and alpha, offsets, revolute limits and joint values
MAX_ANGLE = 1.0e3
#: link mass (kg)
MAX_MASS = 1.0e6
#: |inertia tensor entry| (kg m^2)
MAX_INERTIA = 1.0e6
#: |gravity component| (m/s^2)
MAX_GRAVITY = 1.0e3
#: motor inertia Jm (kg m^2), |gear ratio| G, viscous B (N m s/rad), Coulomb Tc (N m)
MAX_MOTOR = 1.0e6
#: joint torque/force limit tau_max (N m or N)
MAX_TORQUE = 1.0e9
#: joint speed limit qd_max (rad/s or m/s) and acceleration limit qdd_max (rad/s^2, m/s^2)
MAX_JOINT_RATE = 1.0e6
#: joints in one robot (ROBOOP ``dof``, Rob_Mat ``nlink``, TOML links)
# long chains run on the O(n) recursive algorithms (engine/kinematics/recursive.py)
MAX_JOINTS = 256
#: samples in one trajectory (file or compiled program): 5 M x 6 joints x 3 = 720 MB
MAX_SAMPLES = 5_000_000
#: |time| (s) of any sample, and the largest duration of a trajectory
MAX_TIME = 1.0e6
#: smallest sample period (s) of a trajectory or a Rob_Mat motion
MIN_DT = 1.0e-6
#: longest single move of a teach program, blend included (s): one hour
MAX_MOVE_TIME = 3600.0
#: smallest speed of a joint move, as a fraction of the joints' maximum speeds
MIN_JOINT_SPEED_FRACTION = 1.0e-3
#: tool speed of a linear move (m/s)
MIN_LINEAR_SPEED = 1.0e-4
MAX_LINEAR_SPEED = 100.0
#: size of a robot or program file (bytes); trajectory and motion files may be larger
MAX_FILE_BYTES = 16 * 2**20
MAX_DATA_FILE_BYTES = 2 * 2**30


def out_of_bounds(value, limit: float, *, low: float | None = None) -> str | None:
    """Why ``value`` (a number or array) is not in [-limit, limit] (or [low, limit]),
    or None when it is. Non-finite values are out of bounds too."""
    lo = -limit if low is None else low
    if isinstance(value, float | int) and lo <= value <= limit:
        return None  # the common case without numpy: a 200-link file checks ~8,000 values
    arr = np.asarray(value, dtype=float)
    if arr.size == 0:
        return None
    if not np.all(np.isfinite(arr)):
        bad = arr[~np.isfinite(arr)].flat[0]
        return f"{bad!r} is not a finite number"
    worst = arr.flat[int(np.argmax(np.maximum(arr - limit, lo - arr)))]
    if worst > limit or worst < lo:
        return f"{float(worst):g} is outside the bounds [{lo:g}, {limit:g}]"
    return None


def link_bound_problems(L) -> list[tuple[str, str]]:
    """(field, why) for every value of link ``L`` beyond the bounds."""
    out = []
    for name, value, limit, low in _link_fields(L):
        why = out_of_bounds(value, limit, low=low)
        if why:
            out.append((name, why))
    return out


def _link_fields(L) -> list[tuple[str, object, float, float | None]]:
    """(field, value, limit, low) for the bounds of one link."""
    prismatic = L.joint == "P"
    q_limit = MAX_LENGTH if prismatic else MAX_ANGLE
    out = [("a", L.a, MAX_LENGTH, None), ("d", L.d, MAX_LENGTH, None),
           ("theta", L.theta, MAX_ANGLE, None), ("alpha", L.alpha, MAX_ANGLE, None),
           ("offset", L.offset, q_limit, None), ("m", L.m, MAX_MASS, 0.0),
           ("r", L.r, MAX_LENGTH, None), ("I", L.I, MAX_INERTIA, None),
           ("Jm", L.Jm, MAX_MOTOR, 0.0), ("G", L.G, MAX_MOTOR, None),
           ("B", L.B, MAX_MOTOR, 0.0), ("Tc", L.Tc, MAX_MOTOR, None)]
    if L.qlim is not None:
        out.append(("qlim", L.qlim, q_limit, None))
    tau = getattr(L, "tau_max", None)
    if tau is not None:
        out.append(("tau_max", tau, MAX_TORQUE, 0.0))
    for key in ("qd_max", "qdd_max"):
        rate = getattr(L, key, None)
        if rate is not None:
            out.append((key, rate, MAX_JOINT_RATE, 0.0))
    return out


def robot_bound_problems(robot) -> list[str]:
    """Every value of ``robot`` beyond the bounds, as messages naming link and field
    (empty when the robot is sane). Used on robots that did not come from a loader."""
    problems = []
    if robot.n > MAX_JOINTS:
        problems.append(f"{robot.n} joints is more than the {MAX_JOINTS} robogui handles")
    for k, L in enumerate(robot.links, 1):
        problems += [f"link {k}: field '{name}': {why}" for name, why in link_bound_problems(L)]
    for name, T in (("base", robot.base), ("tool", robot.tool)):
        why = out_of_bounds(np.asarray(T)[:3, 3], MAX_LENGTH)
        if why:
            problems.append(f"field '{name}': translation {why}")
    why = out_of_bounds(robot.gravity, MAX_GRAVITY)
    if why:
        problems.append(f"field 'gravity': {why}")
    for name in robot.poses:
        q = robot.pose(name)
        for j, L in enumerate(robot.links):
            why = out_of_bounds(q[j], MAX_LENGTH if L.joint == "P" else MAX_ANGLE)
            if why:
                problems.append(f"field 'poses.{name}': joint {j + 1}: {why}")
                break
    return problems


def check_count(count, limit: int, what: str) -> str | None:
    """Why an integer count from a header is not in 1..limit, or None."""
    try:
        ok = 1 <= count <= limit and math.isfinite(count)
    except TypeError:
        ok = False
    return None if ok else f"{what} must be between 1 and {limit}, got {count}"
