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

import functools
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
    """A path timed by TOPP-RA: ``duration`` s; the ``gridpoints`` (g,) in s, the path speed
    ``sd`` (g,) ds/dt at each and the constant path acceleration ``sdd`` (g-1,) between them
    (toppra's ``ParametrizeConstAccel`` reading), the time ``t_grid`` (g,) at each grid point,
    and ``active`` (g,) the index of the binding limit at each among ``labels`` (-1 where
    none is within 2 % of its limit). ``path`` is toppra's spline through the samples."""

    duration: float
    path: object
    gridpoints: np.ndarray
    sd: np.ndarray
    sdd: np.ndarray
    t_grid: np.ndarray
    active: np.ndarray
    labels: tuple[str, ...]
    n: int

    def evaluate(self, t) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Joint positions, speeds and accelerations (k, n) at times ``t`` (k,), s."""
        t = np.clip(np.asarray(t, dtype=float), 0.0, self.duration)
        i = np.clip(np.searchsorted(self.t_grid, t, side="right") - 1, 0, self.sdd.size - 1)
        tau = t - self.t_grid[i]
        sdd = self.sdd[i]
        sd = self.sd[i] + sdd * tau
        s = np.clip(self.gridpoints[i] + self.sd[i] * tau + 0.5 * sdd * tau * tau,
                    self.gridpoints[0], self.gridpoints[-1])
        d1 = self.path(s, 1)[:, : self.n]
        return (self.path(s)[:, : self.n], d1 * sd[:, None],
                d1 * sdd[:, None] + self.path(s, 2)[:, : self.n] * (sd * sd)[:, None])

    def sample(self, dt: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Samples every ``dt`` s, the last at ``duration``: t (k,), q, qd, qdd (k, n)."""
        k = max(2, int(np.ceil(self.duration / dt - 1e-9)) + 1)
        t = np.linspace(0.0, self.duration, k)
        return (t, *self.evaluate(t))

    def time_at(self, s) -> np.ndarray:
        """Time (s) at which the path passes parameter ``s`` (scalar or (k,))."""
        return np.interp(s, self.gridpoints, self.t_grid)


@functools.lru_cache(maxsize=32)
def _box_constraints(vlim: tuple, alim: tuple) -> tuple:
    """toppra's joint velocity and acceleration constraints for these limits. Made once per
    set of limits: the constraints hold no path state, and toppra's constructors format
    every limit row into a description string, a third of the time of a short move."""
    import toppra.constraint as constraint

    v, a = np.array(vlim), np.array(alim)
    return (constraint.JointVelocityConstraint(np.column_stack([-v, v])),
            constraint.JointAccelerationConstraint(
                np.column_stack([-a, a]),
                discretization_scheme=constraint.DiscretizationType.Interpolation))


def _gridpoints(s: np.ndarray, y: np.ndarray, count: int, most: int = 1500) -> np.ndarray:
    """``count`` even grid points plus every sample where the path bends (a TOPP-RA grid
    coarser than a bend lets the acceleration between grid points run far over)."""
    grid = [np.linspace(s[0], s[-1], count)]
    if len(s) > 2:
        h = np.diff(s)
        slope = np.diff(y, axis=0) / h[:, None]
        bend = np.linalg.norm(np.diff(slope, axis=0), axis=1) > 1e-9
        bent = s[1:-1][bend]
        if bent.size > most:
            bent = bent[:: int(np.ceil(bent.size / most))]
        grid.append(bent)
    return np.unique(np.concatenate(grid + [[s[0], s[-1]]]))


def time_optimal(s, y, vlim, alim, *, labels=None, n: int | None = None, gridpoints: int = 100,
                 inverse_dynamics=None, tau_lim=None) -> TimedPath:
    """Time-optimal rest-to-rest timing of the path ``y(s)``.

    ``s`` (m,) strictly increasing path parameter; ``y`` (m, k) path samples; ``vlim`` and
    ``alim`` (k,) symmetric speed and acceleration limits per column (inf = none); ``n``
    the number of joint columns (default k); ``labels`` (k,) names of the speed limits
    (the acceleration labels are made from them); ``gridpoints`` the number of even TOPP-RA
    grid points (every sample where the path bends is one too);
    ``inverse_dynamics(q, qd, qdd) -> tau`` (n,) and ``tau_lim`` (n,) add a torque limit.
    Raises :class:`TimingError` when no timing exists.
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
    cons = list(_box_constraints(tuple(vlim), tuple(alim)))
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
    grid = _gridpoints(s, y, gridpoints)
    inst = algo.TOPPRA(cons, path, gridpoints=grid, parametrizer="ParametrizeConstAccel")
    sdd, sd, _ = inst.compute_parameterization(0.0, 0.0)
    if sd is None or sdd is None or not np.all(np.isfinite(sd)):
        raise TimingError("TOPP-RA found no timing within the limits for this path")
    sd = np.maximum(np.asarray(sd, dtype=float), 0.0)  # (g,) ds/dt at the grid points
    sdd = np.asarray(sdd, dtype=float)  # (g-1,) constant between them
    mean = sd[:-1] + sd[1:]
    if np.any(mean <= 0):
        raise TimingError("TOPP-RA's timing stops on the way (a limit of zero speed)")
    t_grid = np.concatenate([[0.0], np.cumsum(2.0 * np.diff(grid) / mean)])
    duration = float(t_grid[-1])
    # which limit binds where: speed and acceleration ratios at each grid point
    d1, d2 = path(grid, 1), path(grid, 2)
    sdd_g = np.concatenate([np.asarray(sdd, dtype=float), [0.0]])
    vel = np.abs(d1 * sd[:, None]) / vlim
    acc_raw = d1 * sdd_g[:, None] + d2 * (sd**2)[:, None]
    acc = np.abs(acc_raw) / alim
    ratios = np.concatenate([vel, acc], axis=1)
    labels = tuple(labels) if labels is not None else tuple(
        f"joint {j + 1} speed" for j in range(k))
    all_labels = labels + tuple(x.replace("speed", "acceleration") for x in labels)
    if inverse_dynamics is not None and tau_lim is not None:
        q_g = path(grid)[:, :n]
        tau = np.asarray(inverse_dynamics(q_g, (d1 * sd[:, None])[:, :n], acc_raw[:, :n]))
        ratios = np.concatenate([ratios, np.abs(tau) / tau_lim], axis=1)
        all_labels += tuple(f"joint {j + 1} torque" for j in range(n))
    best = np.argmax(ratios, axis=1)
    active = np.where(ratios[np.arange(grid.size), best] >= _ACTIVE, best, -1)
    return TimedPath(duration, path, grid, sd, sdd, t_grid, active, all_labels, n)
