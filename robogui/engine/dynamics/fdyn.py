"""Forward dynamics: joint accelerations from torques, and their integration over time.

``accel`` solves ``M(q) qdd = tau - (C(q, qd) qd + G(q) - friction(qd))`` directly
(r6 uses Walker and Orin's method 1, which builds M column by column with the RNE; a
direct solve with the generated inertia program is the same equation, cheaper).
``fdyn`` integrates it with scipy's ``solve_ivp``, whose solver class is subclassed to
call back after every step, so that a GUI thread can watch progress and cancel.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..checks import as_float_array, as_joint_array, as_vector
from .dynamics import base_accel, inertia, joint_args, require_dynamics, rne

__all__ = ["accel", "fdyn", "FdynCancelled", "FdynStiffError"]


class FdynCancelled(Exception):  # noqa: N818 - the name says what happened
    """Raised by :func:`fdyn` when its ``cancel()`` hook returned True.

    ``partial`` is the :class:`~robogui.engine.trajectory.trajectory.Trajectory` integrated so far.
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
        # mimic joints: the full chain's M and bias at Q = E q + c, reduced by E
        self.cp = getattr(robot, "coupling", None)
        nf = n if self.cp is None else self.cp.n_full
        prog = self.dyn.program("inertia")
        rows = np.array([i for i, _ in prog.where])
        cols = np.array([j for _, j in prog.where])
        self.rows, self.cols = rows, cols
        self.nf, self.diag = nf, np.arange(nf)

    def tau(self, t: float, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        if self.torque is None:
            return np.zeros(self.n)
        out = self.torque(t, q.copy(), qd.copy())
        try:
            return as_vector(out, self.n, "torque(t, q, qd)")
        except ValueError as exc:
            raise ValueError(f"the torque function returned a bad value at t = {t:.6g}: "
                             f"{exc}") from None

    def qdd(self, t: float, q: np.ndarray, qd: np.ndarray, coulomb: bool = True) -> np.ndarray:
        dyn, n, cp = self.dyn, self.nf, self.cp
        tau = self.tau(t, q, qd)
        if cp is not None:
            q, qd = cp.E @ q + cp.c, cp.E @ qd
        ql, qdl = q.tolist(), qd.tolist()
        vals = dyn.run_floats("inertia", ql)
        M = np.empty((n, n))
        M[self.rows, self.cols] = vals
        M[self.cols, self.rows] = vals
        M[self.diag, self.diag] += dyn.armature
        bias = np.array(dyn.run_floats("bias", ql, qdl, None, self.g_base))
        if coulomb:
            bias -= np.array(dyn.friction_floats(qdl))
        elif dyn.has_viscous:
            bias += dyn.BG2 * qd
        if cp is not None:
            M, bias = cp.both(M), cp.rows(bias)
        return np.linalg.solve(M, tau - bias)

    def rhs(self, t: float, y: np.ndarray) -> np.ndarray:
        n = self.n
        q, qd = y[:n], y[n:]
        if not np.all(np.isfinite(y)):
            raise FloatingPointError(f"the state became non-finite at t = {t:.6g}")
        return np.concatenate([qd, self.qdd(t, q, qd)])

    def smooth_jac(self, t: float, y: np.ndarray) -> np.ndarray:
        """Jacobian of :meth:`rhs` without the Coulomb term, by forward differences.

        Given to the implicit solvers when the robot has Coulomb friction: their own
        finite-difference Jacobian, taken across the friction jump at ``qd = 0``, has
        huge entries that make the Newton iteration stop at once and accept a wrong step
        (a Puma falling with its initial acceleration for a whole second). With the
        Jacobian of the smooth part, a step across the jump either converges to a proper
        solution or is shortened, and a stuck joint shows as a stall.
        """
        n = self.n
        f0 = np.concatenate([y[n:], self.qdd(t, y[:n], y[n:], coulomb=False)])
        J = np.empty((2 * n, 2 * n))
        h = 1.5e-8 * np.maximum(1.0, np.abs(y))
        for j in range(2 * n):
            yj = y.copy()
            yj[j] += h[j]
            fj = np.concatenate([yj[n:], self.qdd(t, yj[:n], yj[n:], coulomb=False)])
            J[:, j] = (fj - f0) / h[j]
        return J


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
    The integration is scipy's ``solve_ivp`` with ``method`` one of "RK45", "DOP853",
    "Radau", "BDF", "LSODA", "RK23", and ``rtol``, ``atol``, ``max_step``.

    ``progress(fraction)`` is called after solver steps (fraction of the time span, at most
    every 1 %, and 1.0 at the end); ``cancel()`` is polled after every step and, when it
    returns True, :class:`FdynCancelled` is raised carrying the partial trajectory.
    Both make ``fdyn`` safe to run on a worker thread.

    Coulomb friction makes the right-hand side discontinuous at ``qd = 0``; when the
    steps collapse there (or ``max_steps`` is exceeded) :class:`FdynStiffError` is raised
    suggesting ``robot.nofriction()``, as the r6 manual cautions. The implicit methods
    then get the Jacobian of the friction-free part of the equations (see
    ``_Model.smooth_jac``): their own, estimated across the jump, can make them accept
    steps that are far off.
    """
    from scipy.integrate import BDF, DOP853, LSODA, RK23, RK45, Radau, solve_ivp

    from ..trajectory.trajectory import Trajectory

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
    y0 = np.concatenate([q0, qd0])
    watch = _Watch(model, t0, t1, y0, te, progress, cancel, max_steps)

    def trajectory(tt, Y):
        if tt.size == 0:  # nothing reached yet: the initial state
            tt, Y = np.array([t0]), y0[None]
        qdd = _accelerations(model, robot, tt, Y, gravity)
        return Trajectory(tt, Y[:, :n], Y[:, n:], qdd, name=name)

    options = {}
    if model.dyn.has_coulomb and method in ("Radau", "BDF", "LSODA"):
        options["jac"] = model.smooth_jac
    try:
        sol = solve_ivp(model.rhs, (t0, t1), y0, method=_hooked(solvers[method]), t_eval=te,
                        rtol=rtol, atol=atol, max_step=max_step, after_step=watch.after_step,
                        **options)
    except _Stop as stop:
        tt, Y = watch.partial()
        if stop.cancelled:
            raise FdynCancelled(trajectory(tt, Y)) from None
        raise _stall(robot, model.dyn.has_coulomb, stop.what, trajectory(tt, Y)) from None
    except FloatingPointError as exc:
        raise _stall(robot, model.dyn.has_coulomb, str(exc), trajectory(*watch.partial())) \
            from None
    if sol.status != 0:
        raise _stall(robot, model.dyn.has_coulomb, f"the solver failed at t = "
                     f"{sol.t[-1] if sol.t.size else t0:.6g} s ({sol.message})",
                     trajectory(*watch.partial()))
    return trajectory(np.asarray(sol.t, dtype=float), np.asarray(sol.y, dtype=float).T)


class _Stop(Exception):  # noqa: N818 - internal signal out of solve_ivp
    def __init__(self, what: str = "", cancelled: bool = False):
        super().__init__(what)
        self.what, self.cancelled = what, cancelled


def _hooked(base):
    """A subclass of scipy solver ``base`` that calls ``after_step(solver, t_prev)`` after
    every step; ``solve_ivp`` accepts such a class as its method."""

    class Hooked(base):
        def __init__(self, fun, t0, y0, t_bound, *, after_step, **options):
            super().__init__(fun, t0, y0, t_bound, **options)
            self._after_step = after_step

        def step(self):
            t_prev = self.t
            message = super().step()
            self._after_step(self, t_prev, message)
            return message

    Hooked.__name__ = Hooked.__qualname__ = base.__name__
    return Hooked


class _Watch:
    """Per-step bookkeeping for :func:`fdyn`: the samples so far (for a partial result),
    progress and cancel hooks and the stall detector."""

    WINDOW = 1000  # steps over which the stall detector measures the pace

    def __init__(self, model, t0, t1, y0, te, progress, cancel, max_steps):
        self.model, self.t0, self.t1, self.te = model, t0, t1, te
        self.progress, self.cancel, self.max_steps = progress, cancel, max_steps
        self.ts, self.ys = [t0], [y0]
        if te is not None:
            self.ts, self.ys = [], []
            for tk in te[te <= t0]:
                self.ts.append(tk)
                self.ys.append(y0)
        self.recent = [t0] * self.WINDOW
        self.steps = 0
        self.last_report = -1.0
        self.width = y0.size

    def partial(self) -> tuple[np.ndarray, np.ndarray]:
        Y = np.array(self.ys) if self.ys else np.empty((0, self.width))
        return np.array(self.ts, dtype=float), Y

    def after_step(self, solver, t_prev: float, message) -> None:
        if solver.status == "failed":
            raise _Stop(f"the solver failed at t = {solver.t:.6g} s ({message})")
        t, y = solver.t, solver.y
        self.recent[self.steps % self.WINDOW] = t
        self.steps += 1
        if self.te is None:
            self.ts.append(t)
            self.ys.append(y.copy())
        else:
            hit = (self.te > t_prev) & (self.te <= t)
            if np.any(hit):
                sol = solver.dense_output()
                for tk in self.te[hit]:
                    self.ts.append(tk)
                    self.ys.append(sol(tk))
        span = self.t1 - self.t0
        fraction = (t - self.t0) / span
        if self.progress is not None and (fraction - self.last_report >= 0.01
                                          or fraction >= 1.0):
            self.progress(min(fraction, 1.0))
            self.last_report = fraction
        if self.cancel is not None and solver.status == "running" and self.cancel():
            raise _Stop(cancelled=True)
        # stalled: at the recent pace, the span would take more than max_steps steps
        window, steps = self.WINDOW, self.steps
        advance = t - self.recent[steps % window]
        stalled = steps >= window and advance * self.max_steps < (window - 1) * (self.t1 - t)
        if steps > self.max_steps or stalled:
            why = (f"{steps} steps" if steps > self.max_steps else
                   f"the last {window} steps averaged {advance / (window - 1):.2g} s")
            raise _Stop(f"integration stalled at t = {t:.6g} s ({why})")


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

