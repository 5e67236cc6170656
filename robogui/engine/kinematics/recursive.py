"""Recursive kinematics and dynamics for long chains: cost linear in the number of links.

The generated straight-line programs (:mod:`.kinematics`, :mod:`.dynamics_codegen`) are
the fastest for arms of a few joints, but their size grows with the chain (the inertia
program quadratically) and compiling them takes seconds beyond a few dozen links. Above
:data:`RECURSIVE_MIN_LINKS` joints the engine runs the algorithms below instead. They
work on the shared joint description of :mod:`.joint_model` (``pre @ Rz/Tz(v) @ post``),
so they serve any serial chain, D-H or not, and are batched over samples (numpy over
the m axis, a Python loop over the n links only for the frames).

Everything is computed in world (base-included) coordinates, spatial vectors as
``[angular; linear]`` with the linear part taken at the world origin (Featherstone's
Plücker coordinates). In that frame a serial chain needs no per-link transformation of
spatial quantities, so after the frames the recursions become cumulative sums over the
link axis:

* velocities ``V_j = sum_{i<=j} S_i qd_i`` and accelerations
  ``A_j = A_0 + sum_{i<=j} (S_i qdd_i + (V_i x S_i) qd_i)``, with ``A_0 = [0; -g]``;
* body forces ``f_j = I_j A_j + V_j x* I_j V_j`` and joint torques
  ``tau_j = S_j . sum_{k>=j} f_k`` (recursive Newton-Euler, O(n));
* the inertia matrix from composite bodies, ``M_ij = S_i . Ic_j S_j`` for i <= j with
  ``Ic_j = sum_{k>=j} I_k`` (the composite-rigid-body algorithm, O(n^2) only in the
  size of its result).

The module offers drop-in replacements for the generated programs: a kinematics kernel
object (:func:`kinematics_kernel`) with the interface of
:func:`robogui.engine.kinematics.kinematics.kernel_for`'s kernels, and a dynamics program object
(:func:`dynamics_program`) with that of :class:`robogui.engine.dynamics.dynamics_codegen.Program`.
The callers choose between them with :func:`use_recursive`.
"""

from __future__ import annotations

import numpy as np

from ..model.joint_model import joint_models

__all__ = ["RECURSIVE_MIN_LINKS", "use_recursive", "chain_frames", "kinematics_kernel",
           "dynamics_program", "RecursiveProgram"]

# From this many joints on the recursive algorithms replace the generated programs:
# measured on random standard-D-H chains (benchmarks/bench_engine.py, "n-link" rows), the
# generated code's compile time passes the recursive algorithms' cost of a few hundred
# calls there, while below it the generated code is several times faster per call.
RECURSIVE_MIN_LINKS = 16


def use_recursive(robot) -> bool:
    """True when ``robot`` is long enough for the recursive algorithms."""
    return robot.n >= RECURSIVE_MIN_LINKS


def _is_identity(A: np.ndarray) -> bool:
    return bool(np.array_equal(A, np.eye(4)))


# -- frames ---------------------------------------------------------------------------
def chain_frames(jm, base: np.ndarray, C, S, D, m: int, dtype=np.float64,
                 pre_identity=None):
    """World frames of a chain from its joint values.

    ``C, S`` (n, m): cos and sin of the joint angle ``v_j = sign_j q_j + offset_j`` (read
    for revolute joints), ``D`` (n, m): ``v_j`` itself (read for prismatic joints); rows
    may also be lists of floats (m = 1). Returns ``T`` (m, n+1, 4, 4), ``T[:, 0]`` the base
    and ``T[:, j+1]`` link j's frame, and ``P`` (m, n, 4, 4), the frame of joint j
    (``T[:, j] @ pre_j``): its z axis is the joint axis, its origin a point on it.
    ``pre_identity`` (n,) bool, optional, marks identity ``pre`` (skipped).
    """
    n = jm.n
    if pre_identity is None:
        pre_identity = [_is_identity(A) for A in jm.pre]
    # joint-major while walking the chain (each step reads and writes contiguous (m, 4, 4)
    # blocks; a product by a constant matrix is one (4 m, 4) @ (4, 4) BLAS call)
    T = np.empty((n + 1, m, 4, 4), dtype=dtype)
    P = np.empty((n, m, 4, 4), dtype=dtype)
    T[0] = base
    rot = np.empty((m, 4, 4), dtype=dtype)
    for j in range(n):
        Pj = P[j]
        if pre_identity[j]:
            Pj[...] = T[j]
        else:
            np.matmul(T[j].reshape(4 * m, 4), jm.pre[j], out=Pj.reshape(4 * m, 4))
        if jm.revolute[j]:
            c = np.asarray(C[j], dtype=dtype).reshape(m, 1)
            s = np.asarray(S[j], dtype=dtype).reshape(m, 1)
            x, y = Pj[:, :3, 0], Pj[:, :3, 1]
            rot[:, :3, 0] = c * x + s * y
            rot[:, :3, 1] = c * y - s * x
            rot[:, :, 2:] = Pj[:, :, 2:]
            rot[:, 3, :2] = 0.0
        else:
            d = np.asarray(D[j], dtype=dtype).reshape(m, 1)
            rot[...] = Pj
            rot[:, :3, 3] += d * Pj[:, :3, 2]
        np.matmul(rot.reshape(4 * m, 4), jm.post[j], out=T[j + 1].reshape(4 * m, 4))
    return T.swapaxes(0, 1), P.swapaxes(0, 1)


class _Chain:
    """What the recursive algorithms need of a robot, computed once per robot object."""

    def __init__(self, robot):
        jm = joint_models(robot)
        self.jm = jm
        self.pre_identity = [_is_identity(A) for A in jm.pre]
        self.n = jm.n
        self.base = np.array(robot.base, dtype=float)
        self.tool = np.array(robot.tool, dtype=float)
        self.sign = jm.sign
        links = robot.links
        self.mass = np.array([float(L.m) for L in links])
        self.com = np.array([np.asarray(L.r, dtype=float) for L in links])  # link frame
        self.inertia = np.array([np.asarray(L.I, dtype=float) for L in links])  # at com

    def frames(self, C, S, D, m, dtype):
        return chain_frames(self.jm, self.base, C, S, D, m, dtype, self.pre_identity)

    def axes(self, P: np.ndarray) -> np.ndarray:
        """Joint motion subspaces S (m, n, 6) ``[angular; linear at origin]`` by the joint
        values v (a flipped axis, Link.flip, is the caller's business, as for the
        generated programs)."""
        z, o = P[..., :3, 2], P[..., :3, 3]
        Sx = np.zeros(z.shape[:-1] + (6,), dtype=P.dtype)
        rev = self.jm.revolute
        Sx[:, rev, :3] = z[:, rev]
        Sx[:, rev, 3:] = _cross(o[:, rev], z[:, rev])
        Sx[:, ~rev, 3:] = z[:, ~rev]
        return Sx


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.empty(np.broadcast_shapes(a.shape, b.shape), dtype=np.result_type(a, b))
    out[..., 0] = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    out[..., 1] = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    out[..., 2] = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


_CHAINS: dict = {}


def _chain(robot) -> _Chain:
    entry = _CHAINS.get(id(robot))
    if entry is not None and entry[0] is robot:
        return entry[1]
    ch = _Chain(robot)
    if len(_CHAINS) > 32:
        _CHAINS.clear()
    _CHAINS[id(robot)] = (robot, ch)
    return ch


# -- kinematics kernel ------------------------------------------------------------------
class _KinematicsKernel:
    """Stands in for a generated kinematics kernel (see ``kernel_for``): the same calls,
    the same outputs (``what`` in "all", "end", "jac", "endjac")."""

    def __init__(self, robot, what: str, batch: bool):
        self.chain = _chain(robot)
        self.what = what
        self.batch = batch
        n = robot.n
        self.n_out = {"all": 16 * (n + 1), "end": 16, "jac": 6 * n, "endjac": 12 + 6 * n}[what]
        self.base, self.tool = robot.base, robot.tool
        self.source = f"<recursive {what} kernel for {n} links>"

    def fill(self, o) -> None:  # no constant rows to pre-fill: every row is written
        return None

    def samples(self, C, S, D) -> np.ndarray:
        """All outputs for m samples: (m, n_out). C, S, D as for :func:`chain_frames`."""
        ch = self.chain
        m = len(D[0]) if hasattr(D[0], "__len__") else 1
        T, P = ch.frames(C, S, D, m, np.float64)
        n = ch.n
        tooled = T[:, n] @ ch.tool
        if self.what == "all":
            T[:, n] = tooled
            return T.reshape(m, -1)
        if self.what == "end":
            return tooled.reshape(m, 16)
        J = _jacobian(ch, P, tooled[:, :3, 3]).reshape(m, 6 * n)
        if self.what == "jac":
            return J
        return np.concatenate([tooled[:, :3].reshape(m, 12), J], axis=1)

    def __call__(self, c, s, d, o=None):
        if o is None:  # one state as floats
            return tuple(self.samples(c, s, d)[0].tolist())
        vals = self.samples(c, s, d)
        for k in range(self.n_out):
            o[k][...] = vals[:, k]
        return None


def _jacobian(ch: _Chain, P: np.ndarray, pe: np.ndarray) -> np.ndarray:
    """jacob0 (m, 6, n) from joint frames P and the end point pe (m, 3)."""
    z, o = P[..., :3, 2], P[..., :3, 3]
    rev = ch.jm.revolute
    Jv = np.where(rev[:, None], _cross(z, pe[:, None, :] - o), z)
    Jw = np.where(rev[:, None], z, 0.0)
    J = np.concatenate([Jv, Jw], axis=2)
    if np.any(ch.sign != 1.0):
        J *= ch.sign[:, None]
    return J.transpose(0, 2, 1)


def kinematics_kernel(robot, what: str, batch: bool = False) -> _KinematicsKernel:
    """A kernel object for ``what`` with the interface of the generated ones."""
    return _KinematicsKernel(robot, what, batch)


# -- dynamics -----------------------------------------------------------------------------
def _spatial_inertia_times(mass, com, Icw, V):
    """I V for bodies with mass (n,), world com (m, n, 3), world inertia about the com
    (m, n, 3, 3) and spatial motion V (m, n, 6): ``[Ic w + c x p; p]``, ``p = m (v + w x c)``.
    """
    w, v = V[..., :3], V[..., 3:]
    p = mass[:, None] * (v + _cross(w, com))
    L = (Icw @ w[..., None])[..., 0] + _cross(com, p)
    return np.concatenate([L, p], axis=-1)


def _cross_force(V, F):
    """Spatial force cross product V x* F: ``[w x n + v x f; w x f]``."""
    w, v = V[..., :3], V[..., 3:]
    n, f = F[..., :3], F[..., 3:]
    return np.concatenate([_cross(w, n) + _cross(v, f), _cross(w, f)], axis=-1)


def _cross_motion(V, X):
    """Spatial motion cross product V x X: ``[w x a; w x b + v x a]``."""
    w, v = V[..., :3], V[..., 3:]
    a, b = X[..., :3], X[..., 3:]
    return np.concatenate([_cross(w, a), _cross(w, b) + _cross(v, a)], axis=-1)


def _bodies(ch: _Chain, T: np.ndarray):
    """World centre of mass (m, n, 3) and inertia about it (m, n, 3, 3) of every link."""
    R, p = T[:, 1:, :3, :3], T[:, 1:, :3, 3]
    com = (R @ ch.com[:, :, None])[..., 0] + p
    Icw = R @ ch.inertia @ np.swapaxes(R, -1, -2)
    return com, Icw


def _rows(X, m: int, dtype) -> np.ndarray:
    """Per-joint rows (n, m) (or None) as a (m, n) array."""
    return np.asarray(X, dtype=dtype).reshape(len(X), m).T


def rne_world(ch: _Chain, T, P, qd, qdd, a0, fe_world=None) -> np.ndarray:
    """Joint torques (m, n) by recursive Newton-Euler in world coordinates.

    qd, qdd (m, n) or None (zero); a0 (3,) or (m, 3): the base's linear acceleration
    ``-g`` in world components; fe_world (m, 6) or None: the spatial force the end
    effector exerts on its environment, about the world origin.
    """
    m, n = T.shape[0], ch.n
    dtype = T.dtype
    Sx = ch.axes(P)
    A = np.zeros((m, n, 6), dtype=dtype)
    A[..., 3:] = np.asarray(a0, dtype=dtype).reshape(-1, 1, 3)
    if qd is not None:
        V = np.cumsum(Sx * qd[..., None], axis=1)
        A += np.cumsum(_cross_motion(V, Sx) * qd[..., None], axis=1)
    else:
        V = None
    if qdd is not None:
        A += np.cumsum(Sx * qdd[..., None], axis=1)
    com, Icw = _bodies(ch, T)
    f = _spatial_inertia_times(ch.mass, com, Icw, A)
    if V is not None:
        f += _cross_force(V, _spatial_inertia_times(ch.mass, com, Icw, V))
    F = np.cumsum(f[:, ::-1], axis=1)[:, ::-1]  # force transmitted across each joint
    if fe_world is not None:
        F = F + fe_world[:, None, :]
    return (Sx * F).sum(axis=-1)


def crba_world(ch: _Chain, T, P) -> np.ndarray:
    """Joint-space inertia (m, n, n), rigid bodies only, by composite rigid bodies.

    The spatial inertia of links j..n-1 about the world origin is
    ``[[J, h~], [h~^T, M 1]]`` with their total mass M, first moment h = sum m c and
    rotational inertia about the origin J = sum (Ic + m (|c|^2 1 - c c^T)): three
    cumulative sums from the tip."""
    n = ch.n
    Sx = ch.axes(P)
    com, Icw = _bodies(ch, T)
    mass = ch.mass
    mc = mass[:, None] * com  # first moments (m, n, 3)
    J = Icw - mc[..., :, None] * com[..., None, :]
    diag = np.einsum("mni,mni->mn", mc, com)
    J[..., 0, 0] += diag
    J[..., 1, 1] += diag
    J[..., 2, 2] += diag
    Mc = np.cumsum(mass[::-1])[::-1]  # composite bodies j..n-1
    hc = np.cumsum(mc[:, ::-1], axis=1)[:, ::-1]
    Jc = np.cumsum(J[:, ::-1], axis=1)[:, ::-1]
    w, v = Sx[..., :3], Sx[..., 3:]
    F = np.empty_like(Sx)  # Ic_j S_j = [J w + h x v; M v - h x w]
    F[..., :3] = (Jc @ w[..., None])[..., 0] + _cross(hc, v)
    F[..., 3:] = Mc[:, None] * v - _cross(hc, w)
    G = Sx @ np.swapaxes(F, -1, -2)  # G_ij = S_i . Ic_j S_j, M_ij for i <= j
    upper = np.triu(np.ones((n, n), dtype=bool))
    return np.where(upper, G, np.swapaxes(G, -1, -2))


class RecursiveProgram:
    """Stands in for a generated dynamics program (:class:`.dynamics_codegen.Program`):
    the same ``function(arrays)`` call signature ``(C, S, D, QD, QDD, G, FE[, W])`` and the
    same outputs in the order of ``where``."""

    def __init__(self, robot, kind: str, fext: bool):
        self.chain = _chain(robot)
        self.kind = kind
        n = robot.n
        self.n_regs = 0
        self.trig_range = (0, n)
        self.n_ops = 0
        if kind == "inertia":
            self.where = [(i, j) for j in range(n) for i in range(j, n)]
        elif kind == "components":
            self.where = [(k, None) for k in range(3 * n)]
        else:
            self.where = [(j, None) for j in range(n)]
        self._fext = fext
        self._rows = np.array([i for i, _ in self.where], dtype=int)
        self._cols = np.array([0 if j is None else j for _, j in self.where], dtype=int)
        ch = self.chain
        self._base_R = ch.base[:3, :3]

    def evaluate(self, q2d, qd2d=None, qdd2d=None, g_base=(0.0, 0.0, 0.0), fext2d=None):
        """The program's result for m samples at once, without the per-output rows of
        ``function``: (m, n) torques, (m, n, n) for "inertia" (both triangles), (m, 3 n)
        for "components". q2d, qd2d, qdd2d (m, n) (real or complex), fext2d (m, 6) or
        (1, 6) or None."""
        jm = self.chain.jm
        sign = jm.sign
        flip = bool(np.any(sign != 1.0))
        v = (q2d * sign + jm.offset).T if flip else (q2d + jm.offset).T
        C, S = np.cos(v), np.sin(v)
        FE = None if fext2d is None else np.asarray(fext2d).T
        if self.kind == "inertia":
            ch = self.chain
            T, P = ch.frames(C, S, v, v.shape[1], v.dtype)
            M = crba_world(ch, T, P)
            return M * np.outer(sign, sign) if flip else M
        if flip:  # the recursions run on v; rates and torques by q carry the sign
            qd2d = None if qd2d is None else qd2d * sign
            qdd2d = None if qdd2d is None else qdd2d * sign
        tau = self._torques(C, S, v, qd2d, qdd2d, g_base, FE, rows=False)
        return tau * np.tile(sign, tau.shape[1] // len(sign)) if flip else tau

    def function(self, arrays: bool):
        return self._call

    def _call(self, C, S, D, QD, QDD, G, FE, W=None):
        ch = self.chain
        if isinstance(D, np.ndarray):
            m, dtype = D.shape[1], np.result_type(D, C, S)
        else:
            m, dtype = 1, np.float64
        T, P = ch.frames(C, S, D, m, dtype)
        kind = self.kind
        if kind == "inertia":
            M = crba_world(ch, T, P)
            if not isinstance(D, np.ndarray):
                return tuple(M[0][self._rows, self._cols].tolist())
            return tuple(M[:, i, j] for i, j in self.where)
        tau = self._torques(C, S, D, QD, QDD, G, FE, rows=True, frames=(T, P))
        if not isinstance(D, np.ndarray):
            return tuple(tau[0].tolist())
        return tuple(tau.T)

    def _torques(self, C, S, D, QD, QDD, G, FE, rows: bool, frames=None):
        """(m, n) torques, (m, 3 n) for "components"; QD, QDD as rows (n, m) or lists
        when ``rows``, else (m, n) arrays."""
        ch = self.chain
        kind = self.kind
        if frames is None:
            m = D.shape[1]
            T, P = ch.frames(C, S, D, m, D.dtype)
        else:
            T, P = frames
            m = T.shape[0]
        dtype = T.dtype
        if rows:
            qd = _rows(QD, m, dtype) if QD is not None else None
            qdd = _rows(QDD, m, dtype) if QDD is not None else None
        else:
            qd, qdd = QD, QDD
        a0 = self._base_R @ np.asarray(G, dtype=float)
        zero = np.zeros(3)
        fe = self._wrench(T, FE, m) if self._fext and FE is not None else None
        if kind == "components":
            tau = np.concatenate([rne_world(ch, T, P, None, None, a0),
                                  rne_world(ch, T, P, None, qdd, zero),
                                  rne_world(ch, T, P, qd, None, zero)], axis=1)
        else:
            grav = a0 if kind in ("full", "gravity", "bias") else zero
            use_qd = qd if kind in ("full", "velocity", "bias") else None
            use_qdd = qdd if kind in ("full", "novelocity") else None
            tau = rne_world(ch, T, P, use_qd, use_qdd, grav, fe)
        return tau

    def _wrench(self, T, FE, m):
        """The end-effector wrench (tool frame, at the tool point) as a world spatial
        force about the origin, (m, 6)."""
        ch = self.chain
        Tt = T[:, ch.n] @ ch.tool
        fe = np.asarray(FE, dtype=np.result_type(T, np.asarray(FE[0])))
        fe = fe.reshape(6, -1).T if fe.ndim == 2 else fe.reshape(1, 6)
        fe = np.broadcast_to(fe, (m, 6))
        R, p = Tt[:, :3, :3], Tt[:, :3, 3]
        f = np.einsum("mij,mj->mi", R, fe[:, :3])
        mom = np.einsum("mij,mj->mi", R, fe[:, 3:]) + _cross(p, f)
        return np.concatenate([mom, f], axis=1)


def dynamics_program(robot, kind: str, fext: bool = False) -> RecursiveProgram:
    """The recursive stand-in for the generated program ``kind`` (see ``get_program``)."""
    return RecursiveProgram(robot, kind, fext)
