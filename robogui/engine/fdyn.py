"""Forward dynamics: joint accelerations from torques, and their integration over time.

``accel`` solves ``M(q) qdd = tau - (C(q, qd) qd + G(q) - friction(qd))`` directly
(r6 uses Walker and Orin's method 1, which builds M column by column with the RNE; a
direct solve with the generated inertia program is the same equation, cheaper).
``fdyn`` integrates it with scipy's explicit or implicit ODE solvers (the ones behind
``solve_ivp``), stepping them itself so that a GUI thread can watch progress and cancel.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .checks import as_float_array, as_joint_array, as_vector
from .dynamics import base_accel, inertia, joint_args, require_dynamics, rne

__all__ = ["accel", "fdyn", "FdynCancelled", "FdynStiffError"]


class FdynCancelled(Exception):  # noqa: N818 - the name says what happened
    """Raised by :func:`fdyn` when its ``cancel()`` hook returned True.

    ``partial`` is the :class:`~robogui.engine.trajectory.Trajectory` integrated so far.
    """

    def __init__(self, partial):
        super().__init__(f"forward dynamics cancelled at t = {partial.t[-1]:.6g} s")
        self.partial = partial


class FdynStiffError(RuntimeError):
    """The integration stalled (steps collapsed), typically at a Coulomb-friction
    discontinuity; ``partial`` holds the trajectory up to that point."""

    def __init__(self, message: str, partial=None):
        super().__init__(message)
        self.partial = partial


def accel(robot, q, qd, tau, gravity=None, fext=None) -> np.ndarray:
    """Joint accelerations for applied joint torques: (n,) or (m, n) (rad/s^2 or m/s^2).

    ``q, qd, tau`` (n,) or (m, n); ``gravity``, ``fext`` as in :func:`rne`. The model is
    the full one of :func:`rne` (armature inertia and friction included).
    Raises ValueError where M(q) is singular (e.g. a massless link without armature).
    """
    dyn = require_dynamics(robot, "accel")
    (q2d, qd2d, tau2d), single = joint_args(robot, (q, "q"), (qd, "qd"), (tau, "tau"))
    M = inertia(robot, q2d)
    bias = rne(robot, q2d, qd2d, np.zeros_like(q2d), gravity=gravity, fext=fext)
    bias = np.asarray(bias).reshape(q2d.shape)
    try:
        qdd = np.linalg.solve(M, (tau2d - bias)[..., None])[..., 0]
    except np.linalg.LinAlgError:
        raise ValueError(f"the inertia matrix of {dyn.robot_name!r} is singular at some q; "
                         "forward dynamics needs mass or motor inertia on every joint") from None
    return qdd[0] if single else qdd


class _Model:
    """The right-hand side of the state equation for one state (lean float path)."""

    def __init__(self, robot, torque, gravity, n: int):
        self.dyn = require_dynamics(robot, "fdyn")
        self.g_base = base_accel(self.dyn, gravity)
        self.torque = torque
        self.n = n
        prog = self.dyn.program("inertia")
        rows = np.array([i for i, _ in prog.where])
        cols = np.array([j for _, j in prog.where])
        self.rows, self.cols = rows, cols
        self.diag = np.arange(n)

    def tau(self, t: float, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        if self.torque is None:
            return np.zeros(self.n)
        out = self.torque(t, q.copy(), qd.copy())
        try:
            return as_vector(out, self.n, "torque(t, q, qd)")
        except ValueError as exc:
            raise ValueError(f"the torque function returned a bad value at t = {t:.6g}: "
                             f"{exc}") from None

    def qdd(self, t: float, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        dyn, n = self.dyn, self.n
        ql, qdl = q.tolist(), qd.tolist()
        vals = dyn.run_floats("inertia", ql)
        M = np.empty((n, n))
        M[self.rows, self.cols] = vals
        M[self.cols, self.rows] = vals
        M[self.diag, self.diag] += dyn.armature
        bias = np.array(dyn.run_floats("bias", ql, qdl, None, self.g_base))
        bias -= np.array(dyn.friction_floats(qdl))
        return np.linalg.solve(M, self.tau(t, q, qd) - bias)

    def rhs(self, t: float, y: np.ndarray) -> np.ndarray:
        n = self.n
        q, qd = y[:n], y[n:]
        if not np.all(np.isfinite(y)):
            raise FloatingPointError(f"the state became non-finite at t = {t:.6g}")
        return np.concatenate([qd, self.qdd(t, q, qd)])


def _time_span(T) -> tuple[float, float]:
    arr = as_float_array(T, "T")
    if arr.ndim == 0:
        t0, t1 = 0.0, float(arr)
    elif arr.shape == (2,):
        t0, t1 = float(arr[0]), float(arr[1])
    else:
        raise ValueError(f"T must be a final time or (t0, t1), got shape {arr.shape}")
    if not (math.isfinite(t0) and math.isfinite(t1)) or t1 <= t0:
        raise ValueError(f"T must give a time span with t1 > t0, got ({t0}, {t1})")
    return t0, t1


def _output_times(t0, t1, t_eval, dt):
    if t_eval is not None and dt is not None:
        raise ValueError("give t_eval or dt, not both")
    if dt is not None:
        dt = float(dt)
        if not dt > 0:
            raise ValueError(f"dt must be positive, got {dt}")
        k = int(math.floor((t1 - t0) / dt + 1e-9))
        te = np.minimum(t0 + dt * np.arange(k + 1), t1)  # rounding must not pass t1
        return te if te[-1] >= t1 - 1e-9 * dt else np.append(te, t1)
    if t_eval is None:
        return None
    te = as_float_array(t_eval, "t_eval")
    if te.ndim != 1 or te.size == 0 or not np.all(np.isfinite(te)):
        raise ValueError("t_eval must be a non-empty 1-D array of finite times")
    if np.any(np.diff(te) <= 0) or te[0] < t0 or te[-1] > t1:
        raise ValueError(f"t_eval must increase strictly and lie within [{t0}, {t1}]")
    return te


def fdyn(robot, T, q0, qd0=None, torque: Callable | None = None, *, t_eval=None, dt=None,
         method: str = "RK45", rtol: float = 1e-6, atol: float = 1e-8,
         max_step: float = math.inf, gravity=None, progress: Callable | None = None,
         cancel: Callable | None = None, max_steps: int = 100_000, name: str = "fdyn"):
    """Integrate the equations of motion from ``(q0, qd0)``: a Trajectory with t, q, qd, qdd.

    ``T`` final time (start 0) or ``(t0, t1)``, s. ``q0``, ``qd0`` (n,) (qd0 default
    zero). ``torque(t, q, qd) -> (n,)`` gives the actuator torques (e.g. a PD controller,
    as the r6 ``fdyn`` example); None applies zero torque. Output samples at ``t_eval``
    (times) or every ``dt`` seconds, else at the solver's own steps (as r6 with ode45).
    ``method``: any scipy ``solve_ivp`` method ("RK45", "DOP853", "Radau", "BDF", "LSODA",
    "RK23"), with ``rtol``, ``atol``, ``max_step``.

    ``progress(fraction)`` is called after solver steps (fraction of the time span, at most
    every 1 %, and 1.0 at the end); ``cancel()`` is polled after every step and, when it
    returns True, :class:`FdynCancelled` is raised carrying the partial trajectory.
    Both make ``fdyn`` safe to run on a worker thread.

    Coulomb friction makes the right-hand side discontinuous at ``qd = 0``; when the
    steps collapse there (or ``max_steps`` is exceeded) :class:`FdynStiffError` is raised
    suggesting ``robot.nofriction()``, as the r6 manual cautions.
    """
    from scipy.integrate import BDF, DOP853, LSODA, RK23, RK45, Radau

    from .trajectory import Trajectory

    solvers = {"RK45": RK45, "RK23": RK23, "DOP853": DOP853, "Radau": Radau, "BDF": BDF,
               "LSODA": LSODA}
    if method not in solvers:
        raise ValueError(f"method must be one of {', '.join(solvers)}, got {method!r}")
    n = robot.n
    t0, t1 = _time_span(T)
    q0 = as_vector(q0, n, "q0")
    qd0 = np.zeros(n) if qd0 is None else as_vector(qd0, n, "qd0")
    te = _output_times(t0, t1, t_eval, dt)
    if torque is not None and not callable(torque):
        raise ValueError("torque must be a function torque(t, q, qd) -> (n,) or None")
    model = _Model(robot, torque, gravity, n)
    solver = solvers[method](model.rhs, t0, np.concatenate([q0, qd0]), t1, rtol=rtol,
                             atol=atol, max_step=max_step)
    span = t1 - t0
    has_coulomb = model.dyn.has_coulomb
    ts, ys = [t0], [np.concatenate([q0, qd0])]
    if te is not None:
        ts, ys, k = [], [], 0
        while k < te.size and te[k] <= t0:
            ts.append(te[k])
            ys.append(np.concatenate([q0, qd0]))
            k += 1

    def trajectory():
        Y = np.array(ys) if ys else np.empty((0, 2 * n))
        tt = np.array(ts)
        if tt.size == 0:  # nothing reached yet: the initial state
            tt, Y = np.array([t0]), np.concatenate([q0, qd0])[None]
        qdd = _accelerations(model, robot, tt, Y, gravity)
        return Trajectory(tt, Y[:, :n], Y[:, n:], qdd, name=name)

    window = 1000
    recent = [t0] * window  # times of the last `window` steps, for the stall detector
    last_report, steps = -1.0, 0
    while solver.status == "running":
        t_prev = solver.t
        try:
            message = solver.step()
        except FloatingPointError as exc:
            raise _stall(robot, has_coulomb, str(exc), trajectory()) from None
        if solver.status == "failed":
            raise _stall(robot, has_coulomb, f"the solver failed at t = {solver.t:.6g} s "
                         f"({message})", trajectory())
        recent[steps % window] = solver.t
        steps += 1
        if te is None:
            ts.append(solver.t)
            ys.append(solver.y.copy())
        else:
            hit = (te > t_prev) & (te <= solver.t)
            if np.any(hit):
                sol = solver.dense_output()
                for tk in te[hit]:
                    ts.append(tk)
                    ys.append(sol(tk))
        fraction = (solver.t - t0) / span
        if progress is not None and (fraction - last_report >= 0.01 or fraction >= 1.0):
            progress(min(fraction, 1.0))
            last_report = fraction
        if cancel is not None and solver.status == "running" and cancel():
            raise FdynCancelled(trajectory())
        # stalled: at the recent pace, the span would take more than max_steps steps
        advance = solver.t - recent[steps % window]
        stalled = steps >= window and advance * max_steps < (window - 1) * (t1 - solver.t)
        if steps > max_steps or stalled:
            why = (f"{steps} steps" if steps > max_steps else
                   f"the last {window} steps averaged {advance / (window - 1):.2g} s")
            raise _stall(robot, has_coulomb, f"integration stalled at t = {solver.t:.6g} s "
                         f"({why})", trajectory())
    return trajectory()


def _stall(robot, has_coulomb: bool, what: str, partial) -> FdynStiffError:
    if has_coulomb:
        hint = ("Coulomb friction makes the equations discontinuous at zero velocity; "
                "simulate robot.nofriction() instead")
    else:
        hint = "the equations may be stiff: try method='Radau', 'BDF' or 'LSODA'"
    return FdynStiffError(f"fdyn on {robot.name!r}: {what}. {hint}", partial)


def _accelerations(model: _Model, robot, t: np.ndarray, Y: np.ndarray, gravity) -> np.ndarray:
    """qdd at the output samples: torques from the user's function, then one batched solve."""
    n = model.n
    q, qd = Y[:, :n], Y[:, n:]
    if model.torque is None:
        tau = np.zeros_like(q)
    else:  # the user's function takes one state at a time
        tau = np.array([model.tau(float(tk), q[k], qd[k]) for k, tk in enumerate(t)])
    q2d, _ = as_joint_array(q, n, "q")
    return accel(robot, q2d, qd, tau, gravity=gravity).reshape(q.shape)

