"""Per-robot runtime of the generated RNE programs: batching, workspace, motors.

:func:`robot_dynamics` gives the :class:`RobotDynamics` of a Robot: its compiled
programs (from :mod:`.dynamics_codegen`), the motor and friction constants, and the
default gravity in base coordinates. ``run`` evaluates a program over m samples in
chunks, in a per-thread workspace that is reused across calls (fresh arrays would be
page-faulted in on every call, which costs more than the arithmetic); ``run_floats``
evaluates it for one state on Python floats.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from ..kinematics.kinematics import cos_sin, cos_sin_floats
from ..kinematics.recursive import RecursiveProgram, dynamics_program, use_recursive
from .dynamics_codegen import Program, get_program

__all__ = ["RobotDynamics", "robot_dynamics"]

_LOCK = threading.Lock()


class RobotDynamics:
    """Per-robot data for the dynamics: programs, motor/friction constants, gravity.

    Obtained with :func:`robot_dynamics`, which keeps one per live Robot object (a Robot
    is immutable, so nothing here can go stale).
    """

    def __init__(self, robot):
        L = robot.links
        dh = robot.dh_arrays
        self.robot_name = robot.name
        self.n = robot.n
        self.has_dynamics = robot.has_dynamics
        G = np.array([x.G for x in L])
        self.armature = np.array([x.Jm * x.G ** 2 for x in L])
        self.absG = np.abs(G)
        self.B = np.array([x.B for x in L])
        self.Tc_plus = np.array([x.Tc[0] for x in L])
        self.Tc_minus = np.array([x.Tc[1] for x in L])
        self.has_coulomb = bool(np.any(self.Tc_plus) or np.any(self.Tc_minus))
        self.has_friction = self.has_coulomb or bool(np.any(self.B))
        self.has_viscous = bool(np.any(self.B))
        self.has_armature = bool(np.any(self.armature))
        self.BG2 = self.B * self.absG ** 2
        self.absG_Tc_plus = self.absG * self.Tc_plus
        self.absG_Tc_minus = self.absG * self.Tc_minus
        self._arm_list = self.armature.tolist()
        self._absG_list = self.absG.tolist()
        self._B_list = self.B.tolist()
        self._tp_list = self.Tc_plus.tolist()
        self._tm_list = self.Tc_minus.tolist()
        self.revolute = np.array(dh.revolute, dtype=bool)
        self.offset = dh.offset.copy()
        self.offset_list = self.offset.tolist()
        self.has_offset = bool(np.any(self.offset))
        # flipped axes (Link.flip): the programs run on the D-H joint values
        # sign * q (rates and accelerations likewise); torques come back times sign
        self.sign = dh.sign.copy()
        self.sign_list = self.sign.tolist()
        self.has_flip = dh.has_flip
        self._gravity_f = None
        self.base_R = np.array(robot.base[:3, :3])
        self.g_default = self.base_accel(np.asarray(robot.gravity))
        self._robot = robot
        self._programs: dict = {}

    def base_accel(self, g) -> tuple[float, float, float]:
        """Base-frame acceleration ``-R_base^T g`` that brings in gravity (r6 eq. 29)."""
        return tuple(float(x) for x in -(self.base_R.T @ g))

    def program(self, kind: str, g_base=(0.0, 0.0, 0.0), fext: bool = False) -> Program:
        key = (kind, g_base[0] != 0.0, g_base[1] != 0.0, g_base[2] != 0.0, fext)
        prog = self._programs.get(key)
        if prog is None:
            if use_recursive(self._robot):  # long chains: O(n) recursions, no codegen
                prog = dynamics_program(self._robot, kind, fext)
            else:
                prog = get_program(self._robot, kind, key[1:4], fext)
            self._programs[key] = prog
        return prog

    def run_floats(self, kind: str, q, qd=None, qdd=None, g_base=(0.0, 0.0, 0.0), fe=None):
        """One state given as lists of floats: the program's output values (a tuple)."""
        prog = self.program(kind, g_base, fe is not None)
        if self.has_flip:
            sg = self.sign_list
            q, qd, qdd = ([a * b for a, b in zip(x, sg, strict=True)] if x is not None
                          else None for x in (q, qd, qdd))
        if self.has_offset:
            q = [a + b for a, b in zip(q, self.offset_list, strict=True)]
        c, s = cos_sin_floats(q)
        vals = prog.function(False)(c, s, q, qd, qdd, g_base, fe)
        return self._unflip_floats(prog, kind, vals) if self.has_flip else vals

    def _unflip_floats(self, prog: Program, kind: str, vals) -> tuple:
        """Program outputs by the D-H joint values -> by q (Link.flip signs)."""
        sg, n = self.sign_list, self.n
        if kind == "inertia":
            return tuple(v * sg[i] * sg[j] for v, (i, j) in zip(vals, prog.where, strict=True))
        return tuple(v * sg[i % n] for v, (i, _) in zip(vals, prog.where, strict=True))

    def gravload_floats(self, q: list[float]) -> list[float]:
        """Gravity torque for one state under the robot's own gravity (the lean path)."""
        f = self._gravity_f
        if f is None:
            f = self._gravity_f = self.program("gravity", self.g_default).function(False)
        if self.has_flip:
            q = [a * b for a, b in zip(q, self.sign_list, strict=True)]
        if self.has_offset:
            q = [a + b for a, b in zip(q, self.offset_list, strict=True)]
        c, s = cos_sin_floats(q)
        vals = f(c, s, q, None, None, self.g_default, None)
        if self.has_flip:
            vals = self._unflip_floats(self.program("gravity", self.g_default), "gravity", vals)
        return vals

    def friction_floats(self, qd: list[float]) -> list[float]:
        """Friction torque (as :func:`robogui.engine.dynamics.dynamics.friction`) for one state."""
        if not self.has_friction:
            return [0.0] * self.n
        out = []
        for v, g, b, tp, tm in zip(qd, self._absG_list, self._B_list, self._tp_list,
                                   self._tm_list, strict=True):
            coulomb = tp if v > 0 else (tm if v < 0 else 0.0)
            out.append(-g * (b * g * v + coulomb))
        return out

    def rne_floats(self, q, qd, qdd, g_base=None) -> list[float]:
        """Full inverse dynamics (armature and friction included) for one state as floats."""
        g_base = self.g_default if g_base is None else g_base
        vals = self.run_floats("full", q, qd, qdd, g_base)
        fr = self.friction_floats(qd)
        return [t + a * x - f for t, a, x, f in zip(vals, self._arm_list, qdd, fr, strict=True)]

    def run_checked(self, *args, **kwargs):
        """:meth:`run` with numpy's overflow warnings off, for callers that check the result
        with ``check_finite_result``: huge finite inputs (qd = 1e308) may overflow, and the
        ValueError naming the argument says it, so the warnings would only be noise."""
        with np.errstate(over="ignore", invalid="ignore"):
            return self.run(*args, **kwargs)

    def run(self, kind: str, q2d, qd2d=None, qdd2d=None, g_base=(0.0, 0.0, 0.0), fext2d=None,
            diag=None, motor: bool = False):
        """Evaluate over m samples: (m, n) torques, (m, n, n) for kind "inertia" (with
        ``diag`` (n,) added to the diagonal), (m, 3 n) for kind "components". Arrays may
        be complex (complex-step derivatives). The programs are rigid-body only; ``motor``
        adds the armature torque ``Jm G^2 qdd`` (when qdd is given) and subtracts the
        friction torque (when qd is).

        The result is a transposed view of an (n, m) / (n, n, m) array (contiguous rows
        per output during the computation).
        """
        prog = self.program(kind, g_base, fext2d is not None)
        n, m = self.n, q2d.shape[0]
        if isinstance(prog, RecursiveProgram):  # all samples at once, no per-output rows
            res = prog.evaluate(q2d, qd2d, qdd2d, g_base, fext2d)
            if kind == "inertia":
                if diag is not None:
                    res[:, np.arange(n), np.arange(n)] += diag
            elif motor:
                self._motor(res.T, None if qd2d is None else qd2d.T,
                            None if qdd2d is None else qdd2d.T)
            return res
        cplx = any(a is not None and np.iscomplexobj(a) for a in (q2d, qd2d, qdd2d, fext2d))
        dtype = np.complex128 if cplx else np.float64
        if kind == "inertia":
            out = np.empty((n, n, m), dtype=dtype)
        else:
            out = np.empty((len(prog.where), m), dtype=dtype)
        if m == 1 and not cplx:
            # one state: plain Python floats beat numpy's per-call overhead by ~20x
            vals = self.run_floats(
                kind, q2d[0].tolist(), None if qd2d is None else qd2d[0].tolist(),
                None if qdd2d is None else qdd2d[0].tolist(), g_base,
                None if fext2d is None else fext2d[0].tolist())
            self._store(prog, kind, vals, out, slice(0, 1))
            if motor:
                self._motor(out, qd2d.T if qd2d is not None else None,
                            qdd2d.T if qdd2d is not None else None)
        else:
            func = prog.function(True)
            fe_rows = fext2d is not None and fext2d.shape[0] > 1
            fe_const = fext2d[0].tolist() if fext2d is not None and not fe_rows else None
            n_chunks = -(-m // _CHUNK)
            size = max(1, -(-m // max(1, n_chunks)))  # m = 0: no chunk, empty result
            for a in range(0, m, size):
                b = min(m, a + size)
                rows = _workspace(b - a, dtype, 5 * n + 6 + prog.n_regs)
                qT, C, S = rows[0:n], rows[n:2 * n], rows[2 * n:3 * n]
                if self.has_flip:
                    np.multiply(q2d[a:b].T, self.sign[:, None], out=qT)
                    qT += self.offset[:, None]
                else:
                    np.add(q2d[a:b].T, self.offset[:, None], out=qT)
                lo, hi = prog.trig_range
                if cplx:
                    np.cos(qT[lo:hi], out=C[lo:hi])
                    np.sin(qT[lo:hi], out=S[lo:hi])
                else:  # numpy's tan is vectorised where cos and sin are not (see kinematics)
                    C[lo:hi], S[lo:hi] = cos_sin(qT[lo:hi])
                QD = QDD = None
                if qd2d is not None:
                    QD = rows[3 * n:4 * n]
                    np.copyto(QD, qd2d[a:b].T)
                    if self.has_flip:
                        QD *= self.sign[:, None]
                if qdd2d is not None:
                    QDD = rows[4 * n:5 * n]
                    np.copyto(QDD, qdd2d[a:b].T)
                    if self.has_flip:
                        QDD *= self.sign[:, None]
                FE = fe_const
                if fe_rows:
                    FE = rows[5 * n:5 * n + 6]
                    np.copyto(FE, fext2d[a:b].T)
                vals = func(C, S, qT, QD, QDD, g_base, FE, rows[5 * n + 6:])
                self._store(prog, kind, vals, out, slice(a, b))
                if self.has_flip:
                    self._unflip_block(kind, out[..., a:b])
                    QD = None if QD is None else QD * self.sign[:, None]
                    QDD = None if QDD is None else QDD * self.sign[:, None]
                if motor:
                    self._motor(out[:, a:b], QD, QDD)
        if kind == "inertia":
            if diag is not None:
                for i in range(n):
                    out[i, i] += diag[i]
            return out.transpose(2, 0, 1)
        return out.T

    def _unflip_block(self, kind: str, block: np.ndarray) -> None:
        """Outputs by the D-H joint values -> by q, in place (Link.flip signs)."""
        if kind == "inertia":
            block *= (self.sign[:, None] * self.sign[None, :])[..., None]
        else:
            block *= np.tile(self.sign, block.shape[0] // self.n)[:, None]

    def _motor(self, block: np.ndarray, QD, QDD) -> None:
        """Add armature torque and friction compensation to an (n, k) torque block."""
        if QDD is not None and self.has_armature:
            block += self.armature[:, None] * QDD
        if QD is not None and self.has_friction:
            if self.has_viscous:
                block += self.BG2[:, None] * QD
            if self.has_coulomb:
                qr = QD.real
                block += self.absG_Tc_plus[:, None] * (qr > 0)
                block += self.absG_Tc_minus[:, None] * (qr < 0)

    @staticmethod
    def _store(prog: Program, kind: str, vals, out: np.ndarray, sl: slice) -> None:
        # copy now: array results live in the workspace, which the next chunk reuses
        if kind == "inertia":
            for v, (i, j) in zip(vals, prog.where, strict=True):
                out[i, j, sl] = v
                if i != j:
                    out[j, i, sl] = v
        else:
            for v, (i, _) in zip(vals, prog.where, strict=True):
                out[i, sl] = v


_CHUNK = 16384  # samples per program run: bounds the workspace (~10 MB per thread)
_POOL = threading.local()


def _workspace(m: int, dtype, rows: int) -> np.ndarray:
    """A per-thread (rows, m) scratch array, reused across calls (not zeroed)."""
    pool = getattr(_POOL, "arrays", None)
    if pool is None:
        pool = _POOL.arrays = OrderedDict()
    key = (m, np.dtype(dtype).char)
    arr = pool.get(key)
    if arr is None or arr.shape[0] < rows:
        arr = np.empty((max(rows, 0 if arr is None else arr.shape[0]), m), dtype=dtype)
        pool[key] = arr
    pool.move_to_end(key)
    while len(pool) > 3:  # a few sizes: the chunk size, a remainder, one more
        pool.popitem(last=False)
    return arr


_BY_ID: OrderedDict = OrderedDict()
_BY_ID_SIZE = 64


def robot_dynamics(robot) -> RobotDynamics:
    """The :class:`RobotDynamics` of a Robot object, created on first use.

    Looked up by object identity (cheaper than hashing the robot's description on every
    call); entries hold the robot itself, so an id cannot be reused while its entry
    lives, and the oldest entries are dropped beyond a few dozen robots.
    """
    entry = _BY_ID.get(id(robot))  # atomic; first-in first-out eviction is good enough
    if entry is not None and entry[0] is robot:
        return entry[1]
    rid = id(robot)
    dyn = RobotDynamics(robot)
    with _LOCK:
        _BY_ID[rid] = (robot, dyn)
        while len(_BY_ID) > _BY_ID_SIZE:
            _BY_ID.popitem(last=False)
    return dyn
