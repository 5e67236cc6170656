"""Trajectories: joint-space polynomials, trapezoidal profiles, via-point paths, Cartesian lines.

Generators (all return a :class:`Trajectory`):

* :func:`jtraj` - quintic polynomial (``order=7``: the r6 manual's 7th-order variant with
  zero jerk at both ends) between two joint vectors, with optional boundary velocities;
* :func:`lspb` (alias :func:`trapezoidal`) - linear segment with parabolic blends, per axis;
* :func:`mstraj` - multi-segment, multi-axis path through via points with per-axis speed
  limits and smooth blends;
* :func:`ctraj` - straight-line Cartesian motion with slerp rotation (``T`` stack);
* :func:`qinterp` - slerp between two unit quaternions (r6 ``qinterp``).

Time conventions (where robogui differs from roboticstoolbox-python, said at each function):
``jtraj(q0, q1, n)`` runs over unit time, ``t = linspace(0, 1, n)``; ``lspb(q0, q1, n)`` uses
the step index ``t = 0, 1, ..., n-1`` like RTB and MATLAB RTB; a time vector is used as given.
Velocities are per second of ``t`` (per step for ``lspb`` with an int).
"""

from __future__ import annotations

import numbers

import numpy as np

from ..checks import as_float_array, as_transform, as_vector
from .trajectory_io import (
    Trajectory,
    TrajectoryFileError,
    _check_time_vector,
    _positive_float,
)

__all__ = [
    "Trajectory",
    "TrajectoryFileError",
    "jtraj",
    "lspb",
    "trapezoidal",
    "mstraj",
    "ctraj",
    "qinterp",
]


# ---------------------------------------------------------------------------------------
# argument helpers


def _endpoints(q0, q1, names=("q0", "q1")) -> tuple[np.ndarray, np.ndarray]:
    """Two finite vectors of the same length n >= 1 (scalars count as n = 1)."""
    a = np.atleast_1d(as_float_array(q0, names[0]))
    if a.ndim != 1 or a.size < 1:
        raise ValueError(f"{names[0]} must be a scalar or a vector (n,), got shape {a.shape}")
    a = as_vector(a, a.size, names[0])
    b = np.atleast_1d(as_float_array(q1, names[1]))
    if b.shape != a.shape:
        raise ValueError(
            f"{names[1]} must have shape {a.shape} like {names[0]}, got shape {b.shape}")
    return a, as_vector(b, a.size, names[1])


def _axis_vector(value, n: int, name: str) -> np.ndarray:
    """A finite vector (n,); a scalar is accepted when n == 1."""
    return as_vector(np.atleast_1d(as_float_array(value, name)), n, name)


def _time_or_steps(t_or_n, name: str, steps: str) -> tuple[np.ndarray, bool]:
    """An int >= 2 -> (default time vector, True); a time vector -> (it, False).

    ``steps`` is "unit" (linspace(0, 1, n)) or "index" (0, 1, ..., n-1).
    """
    if isinstance(t_or_n, bool):
        raise ValueError(f"{name} must be an int number of samples or a time vector, got a bool")
    if isinstance(t_or_n, numbers.Integral):
        n = int(t_or_n)
        if n < 2:
            raise ValueError(f"{name} must be at least 2 samples, got {n}")
        return (np.linspace(0.0, 1.0, n) if steps == "unit" else np.arange(n, dtype=float)), True
    arr = as_float_array(t_or_n, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be an int number of samples (>= 2) or a 1-D time "
                         f"vector, got shape {arr.shape}")
    if arr.size < 2:
        raise ValueError(f"{name} must have at least 2 time samples, got {arr.size}")
    return _check_time_vector(arr, name), False


# ---------------------------------------------------------------------------------------
# jtraj

# 7th order with q, qd given and qdd = qddd = 0 at both ends, unit time (tau in [0, 1]):
# q = q0 + v0 tau + c4 tau^4 + ... + c7 tau^7, c = M7 @ [D, v0, v1], D = q1 - q0
_M7 = np.array([[35.0, -20.0, -15.0],
                [-84.0, 45.0, 39.0],
                [70.0, -36.0, -34.0],
                [-20.0, 10.0, 10.0]])


def jtraj(q0, q1, t_or_n, qd0=None, qd1=None, *, order: int = 5) -> Trajectory:
    """Joint-space polynomial trajectory from ``q0`` to ``q1`` (n,) (rad or m).

    ``t_or_n``: an int number of samples (>= 2) over unit time, ``t = linspace(0, 1, n)``,
    or a strictly increasing time vector (k,) s (any start; duration ``t[-1] - t[0]``).
    ``qd0``, ``qd1``: boundary velocities (n,) per second, default zero.
    ``order=5`` (default): the quintic with zero boundary accelerations, the same as
    roboticstoolbox-python's ``jtraj`` (which assumes t starts at 0).
    ``order=7``: the r6 manual's 7th-order polynomial: zero boundary acceleration and jerk.

    Returns a Trajectory with t (k,), q, qd (per s), qdd (per s^2), each (k, n).
    """
    a, b = _endpoints(q0, q1)
    n = a.size
    v0 = np.zeros(n) if qd0 is None else _axis_vector(qd0, n, "qd0")
    v1 = np.zeros(n) if qd1 is None else _axis_vector(qd1, n, "qd1")
    if order not in (5, 7):
        raise ValueError(f"order must be 5 (quintic) or 7 (r6 7th order), got {order!r}")
    t, _ = _time_or_steps(t_or_n, "t_or_n", "unit")
    T = t[-1] - t[0]
    tau = (t - t[0]) / T
    # velocities in normalised time
    w0, w1, D = v0 * T, v1 * T, b - a
    if order == 5:
        c = np.stack([a, w0, np.zeros(n), 10 * D - 6 * w0 - 4 * w1,
                      -15 * D + 8 * w0 + 7 * w1, 6 * D - 3 * (w0 + w1)])
    else:
        high = _M7 @ np.stack([D, w0, w1])
        c = np.vstack([a, w0, np.zeros((2, n)), high])
    deg = c.shape[0] - 1
    powers = tau[:, None] ** np.arange(deg + 1)  # (k, deg+1)
    p = np.arange(deg + 1, dtype=float)
    cd = (p[1:, None] * c[1:])  # derivative coefficients, degree deg-1
    cdd = (p[2:, None] * (p[2:, None] - 1) * c[2:])
    q = powers @ c
    qd = powers[:, :deg] @ cd / T
    qdd = powers[:, : deg - 1] @ cdd / T**2
    return Trajectory(t, q, qd, qdd, name="jtraj")


# ---------------------------------------------------------------------------------------
# lspb / trapezoidal


def lspb(q0, q1, t_or_n, V=None) -> Trajectory:
    """Trapezoidal velocity profile (linear segment, parabolic blends) per axis.

    ``q0``, ``q1``: scalars or vectors (n,). ``t_or_n``: an int number of samples (>= 2),
    giving ``t = 0, 1, ..., n-1`` (step units, as roboticstoolbox-python and MATLAB RTB), or
    a strictly increasing time vector (k,) s. ``V``: cruise speed (scalar or (n,), sign
    ignored, units per unit of t); default 1.5 x the average speed ``|q1 - q0| / T``. It must
    exceed the average speed and be at most twice it, else ValueError. Axes that do not
    move stay still whatever V.

    Returns a Trajectory (t, q, qd, qdd each (k, n)); ``info["tblend"]`` (n,) blend times
    and ``info["V"]`` (n,) signed cruise speeds.
    """
    a, b = _endpoints(q0, q1)
    n = a.size
    t, _ = _time_or_steps(t_or_n, "t_or_n", "index")
    T = t[-1] - t[0]
    tau = (t - t[0])[:, None]
    D = b - a
    moving = D != 0
    avg = np.abs(D) / T
    if V is None:
        vel = 1.5 * D / T
    else:
        Vv = np.atleast_1d(as_float_array(V, "V"))
        if Vv.shape == (1,):
            Vv = np.full(n, Vv[0])  # one speed for every axis
        Vv = np.abs(as_vector(Vv, n, "V"))
        for j in np.flatnonzero(moving):
            if Vv[j] <= avg[j]:
                raise ValueError(f"V = {Vv[j]:g} is too small for axis {j + 1}: it must exceed the "
                                 f"average speed |q1 - q0| / T = {avg[j]:g}")
            if Vv[j] > 2 * avg[j] * (1 + 1e-12):
                raise ValueError(f"V = {Vv[j]:g} is too big for axis {j + 1}: it can be at most "
                                 f"twice the average speed, 2 |q1 - q0| / T = {2 * avg[j]:g}")
        vel = np.where(moving, Vv * np.sign(D), 0.0)
    safe = np.where(moving, vel, 1.0)  # still axes: any non-zero divisor, a = 0 below
    tb = np.where(moving, T - D / safe, 0.0)
    acc = np.where(moving, vel / np.where(tb > 0, tb, 1.0), 0.0)
    first, last = tau <= tb, tau >= T - tb
    cruise = 0.5 * (a + b - vel * T) + vel * tau
    braking = b - 0.5 * acc * (T - tau) ** 2
    q = np.where(first, a + 0.5 * acc * tau**2, np.where(last, braking, cruise))
    qd = np.where(first, acc * tau, np.where(last, acc * (T - tau), vel))
    qdd = np.where(first, acc, np.where(last, -acc, 0.0))
    return Trajectory(t, q, qd, qdd, name="lspb", info={"tblend": tb, "V": vel})


trapezoidal = lspb


# ---------------------------------------------------------------------------------------
# mstraj


def _ceil_to(x: np.ndarray | float, dt: float):
    """Round up to a multiple of dt, ignoring rounding noise (1.0 / 0.1 -> 10, not 11)."""
    return np.ceil(np.asarray(x) / dt - 1e-9) * dt


def mstraj(viapoints, dt: float, tacc, qdmax=None, tsegment=None, q0=None) -> Trajectory:
    """Multi-segment, multi-axis trajectory through via points (roboticstoolbox ``mstraj``).

    ``viapoints`` (m, n): one via point per row; the motion starts at ``q0`` (n,) if given,
    else at the first row. ``dt`` sample interval (s). ``tacc`` blend duration (s), scalar
    or one per via point including the start and the end (m + 1 values when ``q0`` is given,
    m otherwise). Exactly one of ``qdmax`` (max speed per axis, scalar or (n,), > 0) or
    ``tsegment`` (duration of each segment, s) sets the timing; with ``qdmax`` each segment
    lasts as long as its slowest axis needs.

    Between via points all axes move together at constant speed; around each via point a
    polynomial blend of duration tacc (continuous velocity and acceleration; the quintic
    roboticstoolbox uses, which reduces to a quartic) changes the velocity, so the path
    passes within ``3/32 * tacc * |dv|`` of an interior via point. With ``tacc = 0`` every via
    point is reached exactly. The motion starts and ends at rest, at q0 and the last point.

    Differences from roboticstoolbox-python: blends are centred on the via points at the
    start and end too, so no axis exceeds qdmax (RTB overshoots it by up to 50 % in its
    first and last blend); segment times and half blend times are rounded up to multiples
    of dt, so every via time is a sample time; the returned trajectory starts with q0 at t=0.

    Returns a Trajectory with t (k,), q, qd, qdd (k, n); ``info``: ``via`` (the targets),
    ``via_times`` (the time of each via point, including the start), ``tsegment``.
    """
    dt = _positive_float(dt, "dt")
    via = as_float_array(viapoints, "viapoints")
    if via.ndim != 2 or via.shape[0] < 1 or via.shape[1] < 1:
        raise ValueError(f"viapoints must have shape (m, n), got shape {via.shape}")
    if not np.all(np.isfinite(via)):
        raise ValueError("viapoints contains a non-finite value (NaN or inf)")
    n = via.shape[1]
    if q0 is None:
        if via.shape[0] < 2:
            raise ValueError("viapoints needs at least 2 rows when q0 is not given")
        start, targets = via[0], via[1:]
    else:
        start, targets = as_vector(q0, n, "q0"), via
    points = np.vstack([start, targets])  # all via points including the start
    ns = targets.shape[0]

    acc = as_float_array(tacc, "tacc")
    if acc.ndim == 0:
        acc = np.full(ns + 1, float(acc))
    if acc.shape != (ns + 1,) or not np.all(np.isfinite(acc)) or np.any(acc < 0):
        raise ValueError(f"tacc must be a finite scalar >= 0 or shape ({ns + 1},) (one per via "
                         f"point including the start), got {tacc!r}")
    half = _ceil_to(acc / 2, dt)  # half blend widths, on the sample grid

    dq = np.diff(points, axis=0)  # (ns, n)
    if (qdmax is None) == (tsegment is None):
        raise ValueError("give exactly one of qdmax (max speed per axis) or tsegment "
                         "(segment times)")
    if qdmax is not None:
        vmax = as_float_array(qdmax, "qdmax")
        vmax = np.full(n, float(vmax)) if vmax.ndim == 0 else as_vector(vmax, n, "qdmax")
        if not np.all(np.isfinite(vmax)) or np.any(vmax <= 0):
            raise ValueError(f"qdmax must be finite and > 0 for every axis, got {qdmax!r}")
        need = (np.abs(dq) / vmax).max(axis=1)
        # the blends at both ends of a segment must fit into it
        tseg = np.maximum(_ceil_to(need, dt), half[:-1] + half[1:])
    else:
        tseg = as_float_array(tsegment, "tsegment")
        if tseg.shape != (ns,) or not np.all(np.isfinite(tseg)) or np.any(tseg <= 0):
            raise ValueError(f"tsegment must have shape ({ns},) with finite times > 0, "
                             f"got {tsegment!r}")
        tseg = _ceil_to(tseg, dt)
        short = tseg < half[:-1] + half[1:] - 1e-9
        if short.any():
            j = int(np.argmax(short))
            raise ValueError(f"tsegment[{j}] = {tseg[j]:g} s is shorter than the blends at its "
                             f"ends need ({half[j] + half[j + 1]:g} s); reduce tacc or lengthen it")
    tseg = np.maximum(tseg, dt)  # a zero-length segment still takes one step
    vel = dq / tseg[:, None]  # (ns, n) cruise velocity of each segment
    via_t = half[0] + np.concatenate([[0.0], np.cumsum(tseg)])
    total = via_t[-1] + half[-1]
    k = int(round(total / dt)) + 1
    t = dt * np.arange(k)

    q = np.empty((k, n))
    qd = np.empty((k, n))
    qdd = np.zeros((k, n))
    tc = t[:, None]
    # linear parts (a loop over segments, vectorised over samples)
    for j in range(ns):
        m = (t >= via_t[j] - 1e-9) & (t <= via_t[j + 1] + 1e-9)
        q[m] = points[j] + vel[j] * (tc[m] - via_t[j])
        qd[m] = vel[j]
    # blends replace the linear parts near each via point (including start and end)
    vin = np.vstack([np.zeros(n), vel])
    vout = np.vstack([vel, np.zeros(n)])
    for i in range(ns + 1):
        h = half[i]
        m = (t >= via_t[i] - h - 1e-9) & (t <= via_t[i] + h + 1e-9)
        if h == 0 or not m.any():
            continue
        s = np.clip((tc[m] - (via_t[i] - h)) / (2 * h), 0.0, 1.0)
        dv = vout[i] - vin[i]
        q[m] = points[i] - h * vin[i] + 2 * h * (vin[i] * s + dv * (s**3 - 0.5 * s**4))
        qd[m] = vin[i] + dv * (3 * s**2 - 2 * s**3)
        qdd[m] = dv * (6 * s - 6 * s**2) / (2 * h)
    info = {"via": targets, "via_times": via_t, "tsegment": tseg}
    return Trajectory(t, q, qd, qdd, name="mstraj", info=info)


# ---------------------------------------------------------------------------------------
# ctraj and qinterp


def ctraj(T0, T1, t_or_s, *, t=None, profile: str = "trapezoidal") -> Trajectory:
    """Straight-line Cartesian trajectory from pose ``T0`` to ``T1`` (4, 4).

    ``t_or_s``:

    * an int number of samples (>= 2): the path parameter s follows ``profile`` over
      uniform times: ``"trapezoidal"`` (default, lspb with 1.5 x average speed, as
      roboticstoolbox-python), ``"quintic"`` (jtraj) or ``"linear"`` (equal spacing, as the
      r6 manual's ``ctraj(T0, T1, m)``);
    * a vector (k,) of path parameters s in [0, 1] (r6 ``ctraj(T0, T1, r)``), used as given.

    ``t``: sample times (k,) s for the result; default ``linspace(0, 1, k)``. With an int and
    ``t`` given, the profile is evaluated at those (possibly non-uniform) times.

    Position moves along the straight line, rotation by slerp (``transforms.trinterp``).
    Returns a Trajectory with t and T (k, 4, 4); ``info["s"]`` is the path parameter.
    """
    from ..spatial.transforms import trinterp  # written alongside; imported when first used

    A = as_transform(T0, "T0", stack=False)
    B = as_transform(T1, "T1", stack=False)
    if profile not in ("trapezoidal", "quintic", "linear"):
        raise ValueError(f"profile must be 'trapezoidal', 'quintic' or 'linear', got {profile!r}")
    times = None if t is None else _check_time_vector(t, "t")
    if isinstance(t_or_s, numbers.Integral) and not isinstance(t_or_s, bool):
        k = int(t_or_s)
        if k < 2:
            raise ValueError(f"t_or_s must be at least 2 samples, got {k}")
        if times is not None and times.size != k:
            raise ValueError(f"t must have {k} samples like t_or_s, got {times.size}")
        if times is None:
            u = np.linspace(0.0, 1.0, k)
        else:
            u = (times - times[0]) / (times[-1] - times[0])
        if profile == "trapezoidal":
            s = lspb(0.0, 1.0, u).q[:, 0]
        elif profile == "quintic":
            s = jtraj(0.0, 1.0, u).q[:, 0]
        else:
            s = u
    else:
        s = as_float_array(t_or_s, "t_or_s")
        if s.ndim != 1 or s.size < 1:
            raise ValueError(f"t_or_s must be an int number of samples or a path-parameter "
                             f"vector (k,), got shape {s.shape}")
        if not np.all(np.isfinite(s)):
            raise ValueError("t_or_s contains a non-finite value (NaN or inf)")
        if np.any((s < 0) | (s > 1)):
            raise ValueError("t_or_s path parameters must lie in [0, 1]")
        if times is not None and times.size != s.size:
            raise ValueError(f"t must have {s.size} samples like t_or_s, got {times.size}")
        k = s.size
    if times is None:
        times = np.linspace(0.0, 1.0, k) if k > 1 else np.zeros(1)
    Ts = np.asarray(trinterp(A, B, s)).reshape(k, 4, 4)
    return Trajectory(times, T=Ts, name="ctraj", info={"s": s})


def qinterp(Q1, Q2, r, shortest: bool = False):
    """Slerp between two rotations (r6 ``qinterp``): r = 0 gives Q1, r = 1 gives Q2.

    ``Q1``, ``Q2``: UnitQuaternion, or anything it accepts (R (3, 3), T (4, 4), [s, vx, vy, vz]).
    ``r`` scalar in [0, 1] -> UnitQuaternion; (k,) -> list of k UnitQuaternions.
    ``shortest=False`` follows r6 (the given 4-vectors are interpolated as they are).
    """
    from ..spatial.quaternion import UnitQuaternion

    a = Q1 if isinstance(Q1, UnitQuaternion) else UnitQuaternion(Q1)
    b = Q2 if isinstance(Q2, UnitQuaternion) else UnitQuaternion(Q2)
    return a.interp(b, r, shortest=shortest)

