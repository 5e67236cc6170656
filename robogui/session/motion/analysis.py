"""Quantities along a trajectory for the plot panels, computed once with the batched engine.

:meth:`TrajectoryAnalysis.compute` evaluates, for every sample of a trajectory and in
chunks of samples (numpy over the samples, no per-sample Python loop):

* joint torques ``rne`` and their parts (gravity, inertial, Coriolis/centripetal,
  friction; they add up to the total), torque limits and the peaks over them;
* Yoshikawa and Asada manipulability and the inverse condition number, with the
  singularity threshold drawn as a line;
* the end-effector path (the trail in the 3D view).

Between chunks it calls ``progress(fraction)`` and ``cancel()``, so the app can run it
in a worker thread, show progress and stop it. A robot without dynamic parameters gets
``tau* = None`` and a ``dynamics_message`` for the torque panel instead of zeros.

:class:`ManipulabilityHistory` is the ring buffer behind the live strip chart.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from robogui.engine.kinematics.kinematics import fkine

__all__ = [
    "TrajectoryAnalysis",
    "TorquePeak",
    "analyze_trajectory",
    "ManipulabilityHistory",
    "singularity_threshold",
    "manipulability_measures",
    "torque_limits",
    "DEFAULT_CHUNK",
]

DEFAULT_CHUNK = 2048
#: the singularity line sits at this fraction of the robot's typical manipulability
SINGULARITY_FRACTION = 0.05
COMPONENTS = ("gravity", "inertial", "coriolis", "friction")


def mask_runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Inclusive (start, end) index pairs of the runs of True in a 1-D mask."""
    if not mask.any():
        return []
    edges = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1) - 1
    return list(zip(starts.tolist(), ends.tolist(), strict=True))


def manipulability_measures(robot, q2d: np.ndarray, J: np.ndarray | None = None,
                            asada: bool = True) -> dict[str, np.ndarray | None]:
    """Yoshikawa, inverse condition number and Asada measures for q (m, n): each (m,).

    The same quantities as ``robogui.engine.dynamics.manipulability.manipulability`` (methods
    "yoshikawa", "condition", "asada"), over the task directions the robot controls
    (all six for a 6-joint arm; see :func:`robogui.session.teach.jog.task_mask`), computed
    from symmetric eigenproblems, which is several times faster than SVD and pinv for
    long trajectories: sigma_i^2 are the eigenvalues of J J^T, and the Asada ratio of
    ``Mx = J^-T M J^-1`` equals that of its inverse ``J M^-1 J^T``. Asada is None for a
    robot without dynamics, when ``asada`` is False, or for an arm with fewer joints
    than task directions.
    """
    from robogui.engine.kinematics.jacobians import jacob0

    q2d = np.asarray(q2d, dtype=float).reshape(-1, robot.n)
    m, n = q2d.shape
    if J is None:
        J = np.asarray(jacob0(robot, q2d)).reshape(-1, 6, n)
    rows = _task_rows_mask(robot)
    Js = J[:, rows]
    k = Js.shape[1]
    if k == 0:  # the arm controls no task direction (a pan-tilt head): nothing to measure
        return {"yoshikawa": np.zeros(m), "condition": np.zeros(m), "asada": None}
    A = Js @ np.swapaxes(Js, 1, 2)  # (m, k, k)
    if k <= n:
        yosh = np.sqrt(np.clip(np.linalg.det(A), 0.0, None))
    else:
        yosh = np.zeros(m)
    lam = np.clip(np.linalg.eigvalsh(A), 0.0, None)  # ascending sigma^2
    smin = np.sqrt(lam[:, 0]) if k <= n else np.zeros(m)
    smax = np.sqrt(lam[:, -1])
    cond = np.divide(smin, smax, out=np.zeros(m), where=smax > 0)
    out: dict[str, np.ndarray | None] = {"yoshikawa": yosh, "condition": cond, "asada": None}
    if asada and robot.has_dynamics and k <= n:
        from robogui.engine.dynamics.dynamics import inertia

        M = np.asarray(inertia(robot, q2d)).reshape(m, n, n)
        # a robot file may leave a joint without inertia about its axis (point masses on
        # the axis): M is singular there and Asada's measure is undefined (NaN), not an error
        singular = np.zeros(m, dtype=bool)
        try:
            Minv_JT = np.linalg.solve(M, np.swapaxes(Js, 1, 2))  # M^-1 J^T, (m, n, k)
        except np.linalg.LinAlgError:  # rare: find the singular samples (costly) and skip them
            singular = np.linalg.cond(M) > 1e12
            M = np.where(singular[:, None, None], np.eye(n), M)
            Minv_JT = np.linalg.solve(M, np.swapaxes(Js, 1, 2))
        W = Js @ Minv_JT
        W = 0.5 * (W + np.swapaxes(W, 1, 2))
        e = np.clip(np.linalg.eigvalsh(W), 0.0, None)
        asada = np.divide(e[:, 0], e[:, -1], out=np.zeros(m), where=e[:, -1] > 0)
        asada[singular] = np.nan
        out["asada"] = asada
    return out


def _task_rows_mask(robot) -> np.ndarray:
    from ..explain.arm_axes import task_mask

    return task_mask(robot)


@lru_cache(maxsize=32)
def singularity_threshold(robot) -> float:
    """Yoshikawa value under which the arm counts as near a singularity.

    5 % of the median manipulability over 512 random configurations within the limits:
    scale-aware (the measure has units m^k rad^l) and the same for every trajectory.
    """
    q = robot.random_q(512, seed=2024)
    w = manipulability_measures(robot, q, asada=False)["yoshikawa"]
    med = float(np.median(w))
    return SINGULARITY_FRACTION * med if med > 0 else 0.0


def torque_limits(robot) -> np.ndarray:
    """Torque (force) limit of each joint (n,), N m or N; NaN where the robot file gives none."""
    return np.array([np.nan if L.tau_max is None else float(L.tau_max) for L in robot.links])


@dataclass(frozen=True)
class TorquePeak:
    """A stretch of time where ``|tau|`` of ``joint`` (0-based) exceeds its ``limit``.

    ``index``/``time`` locate the peak value ``value`` (signed, N m); ``t_start``/``t_end``
    bound the stretch.
    """

    joint: int
    index: int
    time: float
    value: float
    limit: float
    t_start: float
    t_end: float


@dataclass(frozen=True, eq=False)
class TrajectoryAnalysis:
    """Everything the plot panels show for one trajectory (arrays read-only).

    Shapes: ``t`` (k,), ``q``/``qd``/``qdd`` (k, n), ``ee_path`` (k, 3) m,
    ``yoshikawa``/``condition`` (k,), ``asada`` (k,) or None, torques (k, n) N m or None.
    ``tau_max`` (n,) limits with NaN where unknown; ``torque_peaks`` the stretches over
    them; ``threshold`` the singularity line for ``yoshikawa``.
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    ee_path: np.ndarray
    yoshikawa: np.ndarray
    condition: np.ndarray
    asada: np.ndarray | None
    threshold: float
    has_dynamics: bool
    dynamics_message: str | None
    tau: np.ndarray | None
    tau_gravity: np.ndarray | None
    tau_inertial: np.ndarray | None
    tau_coriolis: np.ndarray | None
    tau_friction: np.ndarray | None
    tau_max: np.ndarray
    torque_peaks: tuple[TorquePeak, ...]
    robot_key: tuple = ()

    @property
    def n_samples(self) -> int:
        return int(self.t.size)

    @property
    def inv_condition(self) -> np.ndarray:
        """Inverse condition number sigma_min / sigma_max (alias of ``condition``)."""
        return self.condition

    @property
    def components(self) -> dict[str, np.ndarray] | None:
        """The torque parts by name (gravity, inertial, coriolis, friction), or None."""
        if not self.has_dynamics:
            return None
        return {name: getattr(self, f"tau_{name}") for name in COMPONENTS}

    @property
    def near_singular(self) -> np.ndarray:
        """(k,) bool: Yoshikawa below the threshold."""
        return self.yoshikawa < self.threshold

    def over_limit(self) -> np.ndarray | None:
        """(k, n) bool: |tau| above the joint's limit (False where none); None without dynamics."""
        if self.tau is None:
            return None
        lim = np.where(np.isnan(self.tau_max), np.inf, self.tau_max)
        return np.abs(self.tau) > lim

    @classmethod
    def compute(cls, robot, trajectory, *, chunk: int = DEFAULT_CHUNK,
                progress: Callable[[float], object] | None = None,
                cancel: Callable[[], bool] | None = None) -> TrajectoryAnalysis | None:
        """Analyse ``trajectory`` (a Trajectory with q; qd/qdd are differentiated if missing).

        ``chunk`` samples are computed at a time; after each chunk ``progress(fraction)``
        is called, and before each chunk ``cancel()``: True stops and returns None.
        """
        return analyze_trajectory(robot, trajectory, chunk=chunk, progress=progress,
                                  cancel=cancel)


def _frozen(a):
    if a is None:
        return None
    a = np.ascontiguousarray(a, dtype=float)
    a.setflags(write=False)
    return a


def _peaks(t: np.ndarray, tau: np.ndarray, tau_max: np.ndarray) -> tuple[TorquePeak, ...]:
    out = []
    for j in range(tau.shape[1]):
        if math.isnan(tau_max[j]):
            continue
        for a, b in mask_runs(np.abs(tau[:, j]) > tau_max[j]):
            i = a + int(np.argmax(np.abs(tau[a:b + 1, j])))
            out.append(TorquePeak(j, i, float(t[i]), float(tau[i, j]), float(tau_max[j]),
                                  float(t[a]), float(t[b])))
    out.sort(key=lambda p: (p.time, p.joint))
    return tuple(out)


def analyze_trajectory(robot, trajectory, *, chunk: int = DEFAULT_CHUNK,
                       progress: Callable[[float], object] | None = None,
                       cancel: Callable[[], bool] | None = None) -> TrajectoryAnalysis | None:
    """See :meth:`TrajectoryAnalysis.compute`."""
    from robogui.engine.kinematics.jacobians import jacob0

    if getattr(trajectory, "q", None) is None:
        raise ValueError("trajectory must have joint coordinates q (k, n)")
    if trajectory.n != robot.n:
        raise ValueError(f"trajectory has {trajectory.n} joints but {robot.name!r} has {robot.n}")
    if int(chunk) < 1:
        raise ValueError(f"chunk must be a positive number of samples, got {chunk!r}")
    tr = trajectory.with_derivatives()
    t, q, qd, qdd = (np.asarray(a, dtype=float) for a in (tr.t, tr.q, tr.qd, tr.qdd))
    k, n = q.shape
    dyn = robot.has_dynamics
    message = None if dyn else (
        f"{robot.name} has no dynamic parameters (masses, inertias), so joint torques "
        "cannot be computed; load a robot file with dynamics to see them")
    path = np.empty((k, 3))
    meas = {name: np.empty(k) for name in ("yoshikawa", "condition")}
    asada = np.empty(k) if dyn else None
    parts = {name: np.empty((k, n)) for name in COMPONENTS} if dyn else None
    if dyn:
        from robogui.engine.dynamics.dynamics import torque_components

    starts = range(0, k, int(chunk))
    for c, a in enumerate(starts):
        if cancel is not None and cancel():
            return None
        b = min(k, a + int(chunk))
        J = np.asarray(jacob0(robot, q[a:b])).reshape(-1, 6, n)
        path[a:b] = np.asarray(fkine(robot, q[a:b])).reshape(-1, 4, 4)[:, :3, 3]
        m = manipulability_measures(robot, q[a:b], J=J)
        meas["yoshikawa"][a:b] = m["yoshikawa"]
        meas["condition"][a:b] = m["condition"]
        if dyn:
            asada[a:b] = m["asada"] if m["asada"] is not None else np.nan
            tc = torque_components(robot, q[a:b], qd[a:b], qdd[a:b])
            for name in COMPONENTS:
                parts[name][a:b] = np.asarray(getattr(tc, name)).reshape(-1, n)
        if progress is not None:
            progress((c + 1) / len(starts))
    tau_max = torque_limits(robot)
    tau = None
    peaks: tuple[TorquePeak, ...] = ()
    if dyn:
        tau = parts["gravity"] + parts["inertial"] + parts["coriolis"] + parts["friction"]
        peaks = _peaks(t, tau, tau_max)
    if asada is not None and np.all(np.isnan(asada)):
        asada = None
    return TrajectoryAnalysis(
        t=_frozen(t), q=_frozen(q), qd=_frozen(qd), qdd=_frozen(qdd), ee_path=_frozen(path),
        yoshikawa=_frozen(meas["yoshikawa"]), condition=_frozen(meas["condition"]),
        asada=_frozen(asada), threshold=singularity_threshold(robot), has_dynamics=dyn,
        dynamics_message=message, tau=_frozen(tau),
        tau_gravity=_frozen(parts["gravity"]) if dyn else None,
        tau_inertial=_frozen(parts["inertial"]) if dyn else None,
        tau_coriolis=_frozen(parts["coriolis"]) if dyn else None,
        tau_friction=_frozen(parts["friction"]) if dyn else None,
        tau_max=_frozen(tau_max), torque_peaks=peaks, robot_key=robot.key)


class ManipulabilityHistory:
    """Ring buffer of (time s, Yoshikawa) for the live strip chart of slider and jog changes.

    ``append`` is O(1); :meth:`arrays` returns copies in time order, optionally only the
    last ``window_s`` seconds before the newest sample.
    """

    def __init__(self, capacity: int = 1000):
        if int(capacity) < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity!r}")
        self.capacity = int(capacity)
        self._t = np.zeros(self.capacity)
        self._w = np.zeros(self.capacity)
        self._head = 0  # next slot to write
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def append(self, time: float, value: float) -> None:
        """Add one sample (non-finite values are stored as NaN so the chart shows a gap)."""
        time, value = float(time), float(value)
        if not math.isfinite(time):
            raise ValueError(f"time must be finite, got {time}")
        self._t[self._head] = time
        self._w[self._head] = value if math.isfinite(value) else np.nan
        self._head = (self._head + 1) % self.capacity
        self._size = min(self._size + 1, self.capacity)

    def clear(self) -> None:
        self._head = 0
        self._size = 0

    @property
    def latest(self) -> tuple[float, float] | None:
        if self._size == 0:
            return None
        i = (self._head - 1) % self.capacity
        return float(self._t[i]), float(self._w[i])

    def arrays(self, window_s: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(times (k,), values (k,)) oldest first; ``window_s`` keeps the recent part only."""
        idx = (self._head - self._size + np.arange(self._size)) % self.capacity
        t, w = self._t[idx].copy(), self._w[idx].copy()
        if window_s is not None and t.size:
            keep = t >= t[-1] - float(window_s)
            t, w = t[keep], w[keep]
        return t, w
