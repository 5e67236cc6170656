"""Time-optimal timing of a geometric joint path with TOPP-RA (PyPI ``toppra``).

The path is given as samples ``y`` (m, k) at path parameter ``s`` (m,), interpolated by
toppra's ``SplineInterpolator``; its first ``n`` columns are the joints, any further
columns are pseudo-coordinates whose speed limit expresses a tool-speed limit (the tool's
distance along the path divided by its allowed speed: a speed limit of 1 on that column
is the tool-speed limit). Joint velocity and acceleration limits are toppra's
``JointVelocityConstraint`` and ``JointAccelerationConstraint``; a torque limit, when
asked for, its ``JointTorqueConstraint`` on an inverse-dynamics function (the engine's
``rne``). The path starts and ends at rest.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["TimedPath", "time_optimal", "TimingError"]

#: a limit that never binds (an unconstrained pseudo-coordinate's acceleration)
_FREE = 1.0e9
#: fraction of a limit at which it counts as the active one
_ACTIVE = 0.98


class TimingError(ValueError):
    """TOPP-RA found no timing (a path that the limits cannot follow, e.g. zero limits)."""


@dataclass(frozen=True, eq=False)
class TimedPath:
    """A path timed by TOPP-RA: ``duration`` s, ``trajectory`` (callable on times, toppra's
    parametrised trajectory), the ``gridpoints`` (g,) in s, the time ``t_grid`` (g,) at each,
    and ``active`` (g,) the index of the binding limit at each gridpoint among ``labels``
    (-1 where none is within 2 % of its limit)."""

    duration: float
    trajectory: object
    gridpoints: np.ndarray
    t_grid: np.ndarray
    active: np.ndarray
    labels: tuple[str, ...]
    n: int

    def sample(self, dt: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Samples every ``dt`` s, the last at ``duration``: t (k,), q, qd, qdd (k, n)."""
        k = max(2, int(np.ceil(self.duration / dt - 1e-9)) + 1)
        t = np.linspace(0.0, self.duration, k)
        tr = self.trajectory
        return (t, tr(t)[:, : self.n], tr(t, 1)[:, : self.n], tr(t, 2)[:, : self.n])

    def time_at(self, s) -> np.ndarray:
        """Time (s) at which the path passes parameter ``s`` (scalar or (k,))."""
        return np.interp(s, self.gridpoints, self.t_grid)


def _gridpoints(s: np.ndarray, count: int) -> np.ndarray:
    grid = np.linspace(s[0], s[-1], count)
    return np.unique(np.concatenate([grid, [s[0], s[-1]]]))


def time_optimal(s, y, vlim, alim, *, labels=None, n: int | None = None, gridpoints: int = 100,
                 inverse_dynamics=None, tau_lim=None) -> TimedPath:
    """Time-optimal rest-to-rest timing of the path ``y(s)``.

    ``s`` (m,) strictly increasing path parameter; ``y`` (m, k) path samples; ``vlim`` and
    ``alim`` (k,) symmetric speed and acceleration limits per column (inf = none); ``n``
    the number of joint columns (default k); ``labels`` (k,) names of the speed limits
    (the acceleration labels are made from them); ``gridpoints`` the number of TOPP-RA
    grid points; ``inverse_dynamics(q, qd, qdd) -> tau`` (n,) and ``tau_lim`` (n,) add a
    torque limit. Raises :class:`TimingError` when no timing exists.
    """
    import toppra
    import toppra.algorithm as algo
    import toppra.constraint as constraint

    toppra.setup_logging("WARNING")
    s = np.asarray(s, dtype=float)
    y = np.asarray(y, dtype=float)
    k = y.shape[1]
    n = k if n is None else n
    vlim = np.where(np.isfinite(vlim), vlim, _FREE).astype(float)
    alim = np.where(np.isfinite(alim), alim, _FREE).astype(float)
    if np.any(vlim <= 0) or np.any(alim <= 0):
        raise TimingError("every speed and acceleration limit must be positive")
    path = toppra.SplineInterpolator(s, y)
    cons = [constraint.JointVelocityConstraint(np.column_stack([-vlim, vlim])),
            constraint.JointAccelerationConstraint(
                np.column_stack([-alim, alim]),
                discretization_scheme=constraint.DiscretizationType.Interpolation)]
    if inverse_dynamics is not None and tau_lim is not None:
        tau_lim = np.asarray(tau_lim, dtype=float)

        def inv_dyn(q, qd, qdd):  # toppra passes whole path rows: keep the joints
            tau = np.zeros(k)
            tau[:n] = inverse_dynamics(q[:n], qd[:n], qdd[:n])
            return tau

        lim = np.full((k, 2), [-_FREE, _FREE])
        lim[:n, 0], lim[:n, 1] = -tau_lim, tau_lim
        cons.append(constraint.JointTorqueConstraint(
            inv_dyn, lim, np.zeros(k),
            discretization_scheme=constraint.DiscretizationType.Collocation))
    grid = _gridpoints(s, gridpoints)
    inst = algo.TOPPRA(cons, path, gridpoints=grid, parametrizer="ParametrizeConstAccel")
    traj = inst.compute_trajectory(0.0, 0.0)
    if traj is None:
        raise TimingError("TOPP-RA found no timing within the limits for this path")
    sdd, sd, _ = inst.compute_parameterization(0.0, 0.0)  # (g-1,), (g,): ds/dt, d2s/dt2
    sd = np.maximum(np.asarray(sd, dtype=float), 0.0)
    ds = np.diff(grid)
    mean = sd[:-1] + sd[1:]
    t_grid = np.concatenate([[0.0], np.cumsum(np.where(mean > 0, 2.0 * ds / np.maximum(
        mean, 1e-300), 0.0))])
    duration = float(traj.duration)
    t_grid *= duration / t_grid[-1] if t_grid[-1] > 0 else 1.0
    # which limit binds where: speed and acceleration ratios at each grid point
    d1, d2 = path(grid, 1), path(grid, 2)
    sdd_g = np.concatenate([np.asarray(sdd, dtype=float), [0.0]])
    vel = np.abs(d1 * sd[:, None]) / vlim
    acc = np.abs(d1 * sdd_g[:, None] + d2 * (sd**2)[:, None]) / alim
    ratios = np.concatenate([vel, acc], axis=1)
    labels = tuple(labels) if labels is not None else tuple(
        f"joint {j + 1} speed" for j in range(k))
    all_labels = labels + tuple(x.replace("speed", "acceleration") for x in labels)
    best = np.argmax(ratios, axis=1)
    active = np.where(ratios[np.arange(grid.size), best] >= _ACTIVE, best, -1)
    return TimedPath(duration, traj, grid, t_grid, active, all_labels, n)
