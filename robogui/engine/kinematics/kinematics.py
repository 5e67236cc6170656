"""Forward kinematics for standard and modified D-H chains, batched over joint states.

All functions take ``q`` of shape (n,) or (m, n); the (m, n) form returns a leading m
axis. The work is vectorised over samples; the only loop is the chain over the n links.

Speed: for each robot (D-H constants, base and tool) a straight-line "kernel" is
generated once and cached (``_Gen`` below). It walks the chain
column by column, with every product by a constant 0 or +-1 folded away. The same
kernel runs on Python floats for one state (a few microseconds, no numpy call per
link) and on numpy rows of length m for a batch, so the two give identical numbers.
"""

from __future__ import annotations

import threading

import numpy as np

from ..checks import as_joint_array, check_finite_result
from ..model.joint_model import link_matrices  # re-exported: the link transforms A_j(q)
from ..model.mimic import coupled
from .recursive import kinematics_kernel, use_recursive

__all__ = ["link_matrices", "fkine", "fkine_all", "joint_locations", "link_transform",
           "run_kernel", "kernel_for", "check_prismatic_overflow"]


# -- kernel generation ---------------------------------------------------------------
# A symbolic value is (coef, name): a constant when name is None, else +-1 times a
# variable. Folding products by 0 and +-1 and sums with 0 is exact, so the generated
# code computes exactly the plain D-H chain. The op list is emitted twice: as float
# expressions (one state) and as ufunc calls writing into output rows or recycled
# scratch rows (a batch), so both paths do the same arithmetic in the same order.

_SYM = {"mul": "*", "add": "+", "sub": "-"}


class _Gen:
    def __init__(self):
        self.ops: list[tuple[str, str, object, object]] = []  # (dest, op, x, y)

    def emit(self, op: str, x, y, coef: float = 1.0):
        name = f"t{len(self.ops)}"
        self.ops.append((name, op, x, y))
        return (coef, name)

    def mul(self, a, b):
        (ka, na), (kb, nb) = a, b
        if na is None and nb is None:
            return (ka * kb, None)
        if na is None or nb is None:
            k, (c, v) = (ka, b) if na is None else (kb, a)
            k = k * c
            if k == 0.0:
                return (0.0, None)
            if k in (1.0, -1.0):
                return (k, v)
            return self.emit("mul", k, v)
        return self.emit("mul", na, nb, ka * kb)

    def add(self, a, b):
        (ka, na), (kb, nb) = a, b
        if na is None and nb is None:
            return (ka + kb, None)
        if na is None and ka == 0.0:
            return b
        if nb is None and kb == 0.0:
            return a
        if na is None or nb is None:
            k, (c, v) = (ka, b) if na is None else (kb, a)
            return self.emit("add", v, k) if c > 0 else self.emit("sub", k, v)
        if ka > 0 and kb > 0:
            return self.emit("add", na, nb)
        if ka > 0:
            return self.emit("sub", na, nb)
        if kb > 0:
            return self.emit("sub", nb, na)
        return self.emit("add", na, nb, -1.0)

    @staticmethod
    def neg(a):
        return (-a[0], a[1])

    def sub(self, a, b):
        return self.add(a, self.neg(b))

    def lin(self, coefs, vecs):
        """sum_k coefs[k] * vecs[k] for constant coefs, componentwise over 3-vectors."""
        out = []
        for r in range(3):
            acc = (0.0, None)
            for c, v in zip(coefs, vecs, strict=True):
                acc = self.add(acc, self.mul((float(c), None), v[r]))
            out.append(acc)
        return out


def _arg(x) -> str:
    return repr(float(x)) if isinstance(x, float) else x


def _emit_float(head, ops, outs) -> str:
    lines = [f"    {d} = {_arg(x)} {_SYM[op]} {_arg(y)}" for d, op, x, y in ops]
    body = ", ".join(repr(float(k)) if v is None else (v if k > 0 else f"-{v}")
                     for k, v in outs)
    return "\n".join(["def kernel(c, s, d):", *head, *lines, f"    return ({body},)", ""])


def _emit_array(head, ops, outs) -> str:
    """ufunc calls with out=: outputs land in rows of o, other temporaries in scratch
    rows that are recycled after their last use (a small, cache-resident working set)."""
    home = {}
    for k, (c, v) in enumerate(outs):
        if v is not None and c > 0 and v.startswith("t") and v not in home:
            home[v] = f"o[{k}]"
    last = {}
    for i, (_, _, x, y) in enumerate(ops):
        for a in (x, y):
            if isinstance(a, str):
                last[a] = i
    for _, v in outs:
        if v is not None:
            last[v] = len(ops)
    free, nreg, loc, lines = [], 0, {}, []
    for i, (d, op, x, y) in enumerate(ops):
        args = [loc.get(a, a) if isinstance(a, str) else repr(float(a)) for a in (x, y)]
        for a in (x, y):  # elementwise ufuncs may write over an input they no longer need
            if isinstance(a, str) and last.get(a) == i and a in loc and a not in home:
                free.append(loc.pop(a))
        if d in home:
            loc[d] = home[d]
        else:
            if not free:
                free.append(f"r[{nreg}]")
                nreg += 1
            loc[d] = free.pop()
        lines.append(f"    {op}({args[0]}, {args[1]}, out={loc[d]})")
    for k, (c, v) in enumerate(outs):
        if v is None:
            continue  # constant rows are filled once per buffer (kernel.fill)
        if home.get(v) != f"o[{k}]":
            src = loc.get(v, v)
            lines.append(f"    o[{k}][...] = {src}" if c > 0 else f"    neg({src}, out=o[{k}])")
    return "\n".join(["def kernel(c, s, d, o):", f"    r = empty(({max(nreg, 1)}, len(o[0])))",
                      *head, *lines, ""])


def _const(x) -> tuple:
    return (float(x), None)


def _times_const(g: _Gen, frame, M: np.ndarray):
    """frame @ M for a constant 4x4 M, folding its zeros and ones."""
    X, Y, Z, P = frame
    cols = (X, Y, Z)
    rot = tuple(g.lin(M[:3, k], cols) for k in range(3))
    Pt = g.lin(M[:3, 3], cols)
    return (*rot, [g.add(P[r], Pt[r]) for r in range(3)])


def _general_step(g: _Gen, frame, jm, j: int, head: list):
    """One general joint: pre (constant), motion about/along z, post (constant).

    Returns the new frame and the axis frame (after pre)."""
    frame = _times_const(g, frame, jm.pre[j])
    axis_frame = frame
    X, Y, Z, P = frame
    if jm.revolute[j]:
        head += [f"    c{j} = c[{j}]", f"    s{j} = s[{j}]"]
        C, S = (1.0, f"c{j}"), (1.0, f"s{j}")
        U = [g.add(g.mul(C, X[r]), g.mul(S, Y[r])) for r in range(3)]
        V = [g.sub(g.mul(C, Y[r]), g.mul(S, X[r])) for r in range(3)]
        frame = (U, V, Z, P)
    else:
        head.append(f"    d{j} = d[{j}]")
        D = (1.0, f"d{j}")
        frame = (X, Y, Z, [g.add(P[r], g.mul(D, Z[r])) for r in range(3)])
    return _times_const(g, frame, jm.post[j]), axis_frame


def _build(robot, what: str) -> tuple[list[str], list, list]:
    """The op list of the kernel ``what`` for ``robot``: see ``run_kernel``."""
    g = _Gen()
    dh = robot.dh_arrays
    n = robot.n
    head = []
    B = np.asarray(robot.base, dtype=float)
    frame = tuple([_const(B[r, k]) for r in range(3)] for k in range(4))  # X, Y, Z, P
    frames = [frame]
    axes = []  # per joint: the frame whose z is the joint axis (origin on the axis)
    jm = robot.joint_models if robot.is_general else None
    for j in range(n):
        if jm is not None and robot.links[j].is_general:
            frame, axis_frame = _general_step(g, frame, jm, j, head)
            frames.append(frame)
            axes.append(axis_frame)
            continue
        ca, sa, a = _const(dh.cos_alpha[j]), _const(dh.sin_alpha[j]), _const(dh.a[j])
        if dh.revolute[j]:
            head += [f"    c{j} = c[{j}]", f"    s{j} = s[{j}]"]
            C, S, D = (1.0, f"c{j}"), (1.0, f"s{j}"), _const(dh.d[j])
        else:
            head.append(f"    d{j} = d[{j}]")
            C, S = _const(np.cos(dh.theta[j])), _const(np.sin(dh.theta[j]))
            D = (1.0, f"d{j}")
        X, Y, Z, P = frame
        axes.append(frame)
        if robot.links[j].mdh:  # Rx(alpha) Tx(a) Rz(theta) Tz(d)
            Y1 = [g.add(g.mul(ca, Y[r]), g.mul(sa, Z[r])) for r in range(3)]
            Z1 = [g.sub(g.mul(ca, Z[r]), g.mul(sa, Y[r])) for r in range(3)]
            P = [g.add(P[r], g.mul(a, X[r])) for r in range(3)]
            U = [g.add(g.mul(C, X[r]), g.mul(S, Y1[r])) for r in range(3)]
            V = [g.sub(g.mul(C, Y1[r]), g.mul(S, X[r])) for r in range(3)]
            P = [g.add(P[r], g.mul(D, Z1[r])) for r in range(3)]
            frame = (U, V, Z1, P)
            axes[-1] = frame
        else:  # Rz(theta) Tz(d) Tx(a) Rx(alpha)
            P = [g.add(P[r], g.mul(D, Z[r])) for r in range(3)]
            U = [g.add(g.mul(C, X[r]), g.mul(S, Y[r])) for r in range(3)]
            V = [g.sub(g.mul(C, Y[r]), g.mul(S, X[r])) for r in range(3)]
            P = [g.add(P[r], g.mul(a, U[r])) for r in range(3)]
            Y2 = [g.add(g.mul(ca, V[r]), g.mul(sa, Z[r])) for r in range(3)]
            Z2 = [g.sub(g.mul(ca, Z[r]), g.mul(sa, V[r])) for r in range(3)]
            frame = (U, Y2, Z2, P)
        frames.append(frame)
    Tt = np.asarray(robot.tool, dtype=float)
    X, Y, Z, P = frames[-1]
    cols = (X, Y, Z)
    tooled = tuple(g.lin(Tt[:3, k], cols) for k in range(3))
    Pt = g.lin(Tt[:3, 3], cols)
    tooled = (*tooled, [g.add(P[r], Pt[r]) for r in range(3)])

    def rows16(fr):
        out = []
        for r in range(3):
            out += [fr[0][r], fr[1][r], fr[2][r], fr[3][r]]
        return out + [_const(0), _const(0), _const(0), _const(1)]

    outs = []
    if what == "all":
        for fr in frames[:-1] + [tooled]:
            outs += rows16(fr)
    if what in ("end", "endjac"):
        outs += rows16(tooled)[:12]
    if what in ("jac", "endjac"):
        pe = tooled[3]
        Jv, Jw = [[None] * n for _ in range(3)], [[None] * n for _ in range(3)]
        for j in range(n):
            z, o = axes[j][2], axes[j][3]
            # a flipped axis (Link.flip) moves the other way: the column changes sign
            fl = g.neg if dh.has_flip and dh.sign[j] < 0 else (lambda x: x)
            if dh.revolute[j]:
                dd = [g.sub(pe[r], o[r]) for r in range(3)]
                for r in range(3):
                    r1, r2 = (r + 1) % 3, (r + 2) % 3
                    Jv[r][j] = fl(g.sub(g.mul(z[r1], dd[r2]), g.mul(z[r2], dd[r1])))
                    Jw[r][j] = fl(z[r])
            else:
                for r in range(3):
                    Jv[r][j] = fl(z[r])
                    Jw[r][j] = _const(0)
        for rows in (Jv, Jw):
            for r in range(3):
                outs += rows[r]
    if what == "end":
        outs += [_const(0), _const(0), _const(0), _const(1)]
    return head, g.ops, outs


def kernel_for(robot, what: str, batch: bool = False):
    """The cached generated kernel ``what`` of ``robot`` (built on first use).

    ``batch=False``: ``kernel(c, s, d) -> tuple of floats``; ``batch=True``:
    ``kernel(c, s, d, o)`` fills the rows of ``o`` (k, m). The source is in ``.source``.
    """
    dh = robot.dh_arrays
    kern = dh.kernels.get((what, batch))
    # a Robot's base and tool arrays are frozen and owned by it, so identity is enough
    # in the common case; other duck-typed robots fall back to comparing the values
    if kern is not None and (kern.base is robot.base or np.array_equal(kern.base, robot.base)) \
            and (kern.tool is robot.tool or np.array_equal(kern.tool, robot.tool)):
        return kern
    if use_recursive(robot):  # long chains: recursive algorithms, no generated code
        kern = dh.kernels[(what, batch)] = kinematics_kernel(robot, what, batch)
        return kern
    head, ops, outs = _build(robot, what)
    src = (_emit_array if batch else _emit_float)(head, ops, outs)
    scope: dict = {"mul": np.multiply, "add": np.add, "sub": np.subtract,
                   "neg": np.negative, "empty": np.empty}
    exec(compile(src, f"<robogui kinematics kernel {what}>", "exec"), scope)  # noqa: S102
    kern = scope["kernel"]
    kern.source = src
    kern.n_out = len(outs)
    const = [(k, c) for k, (c, v) in enumerate(outs) if v is None]

    def fill(o, const=const):
        for k, c in const:
            o[k][...] = c

    kern.fill = fill
    kern.base, kern.tool = robot.base, robot.tool
    dh.kernels[(what, batch)] = kern
    return kern


def cos_sin(x: np.ndarray):
    """cos and sin from one tangent of the half angle (Weierstrass).

    numpy's tan is vectorised (SIMD) where its cos and sin are not, so this is about
    five times faster than np.cos + np.sin, and accurate to an ulp or two; at x = pi
    the tangent is finite (about 1.6e16) and the formulas give -1 and ~1e-16.
    """
    t = np.tan(0.5 * x)
    t2 = t * t
    d = 1.0 / (1.0 + t2)
    c = (1.0 - t2) * d
    t *= 2.0
    t *= d
    return c, t


def cos_sin_floats(x: list[float]) -> tuple[list[float], list[float]]:
    """:func:`cos_sin` for a few angles as Python floats, with the same arithmetic, so a
    single-state path gives exactly the numbers of the batched one."""
    c, s = [], []
    for t in np.tan(np.multiply(0.5, x)).tolist():
        t2 = t * t
        d = 1.0 / (1.0 + t2)
        c.append((1.0 - t2) * d)
        s.append(2.0 * t * d)
    return c, s




def run_kernel(robot, q2d: np.ndarray, single: bool, what: str, layout: str = "rows"):
    """Evaluate the generated kernel ``what`` ("all", "end", "jac", "endjac").

    Returns a flat tuple of Python floats when ``single`` (``q2d`` holds one row). For a
    batch returns the outputs for every sample: ``layout="rows"`` gives (k, m) (row i is
    output i), ``layout="samples"`` gives (m, k). ``q2d`` is taken as already checked.
    Internal helper shared by the Jacobian and IK modules. A robot with mimic joints
    evaluates its full chain's kernel (Jacobians mapped to the independent joints).
    """
    if getattr(robot, "coupling", None) is not None:
        return run_kernel_coupled(robot, q2d, single, what, layout)
    dh = robot.dh_arrays
    if single:
        kern = kernel_for(robot, what)
        if dh.has_flip:
            qo = [qj * sj + oj for qj, sj, oj in zip(q2d[0].tolist(), dh.sign_list,
                                                     dh.offset_list, strict=True)]
        else:
            qo = [qj + oj for qj, oj in zip(q2d[0].tolist(), dh.offset_list, strict=True)]
        c, s = cos_sin_floats(qo)
        return kern(c, s, qo)
    kern = kernel_for(robot, what, batch=True)
    m, k = q2d.shape[0], kern.n_out
    # (n, m) C-ordered so that each joint's row is contiguous for the kernel's ufuncs
    qT = q2d.T * dh.sign[:, None] if dh.has_flip else q2d.T
    qo = np.add(qT, dh.offset[:, None], order="C")
    if hasattr(kern, "samples"):  # a recursive kernel computes all samples at once
        out = kern.samples(*cos_sin(qo), qo)
        return out.T if layout == "rows" else out  # rows: a (k, m) view
    step = max(1, _SCRATCH_SIZE // max(k, 1))  # samples per pass: bounds the scratch
    if layout == "rows":
        out = np.empty((k, m))
        for i in range(0, m, step):  # the kernel's registers hold one pass of samples
            rows = list(out[:, i:i + step])
            kern.fill(rows)
            blk = qo[:, i:i + step]
            kern(*cos_sin(blk), blk, rows)
        return out
    # All rows first, into a per-thread scratch array whose pages are already mapped
    # (a fresh 9 MB array costs more in page faults than the whole computation), then
    # one transposing copy into the result: the result's write is the only pass over
    # fresh memory.
    out = np.empty((m, k))
    for i in range(0, m, step):
        blk = qo[:, i:i + step]
        rows_arr = _scratch(k, blk.shape[1])
        rows = list(rows_arr)
        kern.fill(rows)
        kern(*cos_sin(blk), blk, rows)
        out[i:i + step] = rows_arr.T
    return out


_SCRATCH = threading.local()
_SCRATCH_SIZE = 1 << 22  # doubles (32 MB): 37,000 Puma states of fkine_all per pass


def _scratch(k: int, m: int) -> np.ndarray:
    """A (k, m) scratch array reused by the thread's next batched kernel call of the same
    or a smaller size (not zeroed)."""
    buf = getattr(_SCRATCH, "buf", None)
    if buf is None or buf.size < k * m:
        buf = _SCRATCH.buf = np.empty(k * m)
    return buf[:k * m].reshape(k, m)


def check_prismatic_overflow(robot, vals, q2d: np.ndarray, what: str) -> None:
    """ValueError if a huge prismatic joint value made a result overflow. Revolute angles
    enter only through cos and sin, so an all-revolute chain skips the check."""
    dh = robot.dh_arrays
    only_revolute = dh.kernels.get("only revolute")  # cached: this runs on every call
    if only_revolute is None:
        only_revolute = dh.kernels["only revolute"] = bool(dh.revolute.all())
    if not only_revolute:
        check_finite_result(vals, what, q=q2d[:, ~dh.revolute])


def _checked_kernel(robot, q2d: np.ndarray, single: bool, what: str, name: str,
                    layout: str = "samples"):
    """run_kernel, then :func:`check_prismatic_overflow`. A huge prismatic value may
    overflow in the batched kernel; the check raises a ValueError naming q, so numpy's
    warnings would only be noise (the single path runs on Python floats: no warnings)."""
    if single:
        vals = run_kernel(robot, q2d, single, what, layout=layout)
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            vals = run_kernel(robot, q2d, single, what, layout=layout)
    check_prismatic_overflow(robot, vals, q2d, name)
    return vals


@coupled("same", "q")
def fkine(robot, q) -> np.ndarray:
    """End-effector pose, base and tool included: (n,) -> (4, 4); (m, n) -> (m, 4, 4).

    Lengths in the robot's units (metres), angles of revolute joints in radians.
    """
    q2d, single = as_joint_array(q, robot.n)
    vals = _checked_kernel(robot, q2d, single, "end", "fkine")
    return np.array(vals).reshape(4, 4) if single else vals.reshape(-1, 4, 4)


@coupled("same", "q")
def fkine_all(robot, q) -> np.ndarray:
    """Frames of the base and every link: (n,) -> (n+1, 4, 4); (m, n) -> (m, n+1, 4, 4).

    Frame 0 is the base transform; frame n has the tool applied. With mimic joints there
    is a frame per body: ``robot.n_bodies + 1`` frames.

    Layout of a batch: the (m, n+1, 4, 4) result is a transposed view of an
    (n+1, 4, 4, m) array, samples last, as the kernel computes it (one contiguous row per
    matrix entry). Turning 16 (n+1) rows into m contiguous samples would cost more than
    the whole computation, and most readers want few entries of many samples (a tool
    path ``F[:, -1, :3, 3]``, every origin ``F[..., :3, 3]``), which this layout serves
    best. ``np.ascontiguousarray(F)`` gives sample-major memory when a caller needs it.
    """
    q2d, single = as_joint_array(q, robot.n)
    n = robot.n
    if single:
        vals = _checked_kernel(robot, q2d, single, "all", "fkine_all")
        return np.array(vals).reshape(n + 1, 4, 4)
    rows = _checked_kernel(robot, q2d, single, "all", "fkine_all", layout="rows")
    return rows.T.reshape(-1, n + 1, 4, 4)


@coupled("same", "q")
def joint_locations(robot, q) -> np.ndarray:
    """Origins of the frames of ``fkine_all``: (n,) -> (n+1, 3); (m, n) -> (m, n+1, 3).

    JFKengine's getJointLocations.
    """
    return fkine_all(robot, q)[..., :3, 3]


def link_transform(robot, j: int, qj) -> np.ndarray:
    """Transform of link ``j`` (0-based) for joint value ``qj``.

    scalar -> (4, 4); (m,) -> (m, 4, 4), vectorised over m.
    """
    if isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)) \
            or not 0 <= j < robot.n:
        raise ValueError(f"j must be an integer link index in 0..{robot.n - 1}, got {j!r}")
    return robot.links[int(j)].A(qj, name="qj")


def run_kernel_coupled(robot, q2d: np.ndarray, single: bool, what: str, layout: str):
    """:func:`run_kernel` of a coupled robot: the full chain's
    kernel at ``E q + c``, Jacobian outputs mapped by ``E`` (the IK solver's door)."""
    cp = robot.coupling
    Q = q2d @ cp.E.T + cp.c
    vals = np.asarray(run_kernel(robot.full, Q, single, what, layout="samples"), float)
    vals = vals.reshape(Q.shape[0], -1)
    if what in ("jac", "endjac"):
        head = 12 if what == "endjac" else 0
        J = vals[:, head:].reshape(-1, 6, cp.n_full) @ cp.E
        vals = np.concatenate([vals[:, :head], J.reshape(Q.shape[0], -1)], axis=1)
    if single:
        return tuple(vals[0].tolist())
    return vals.T if layout == "rows" else vals
