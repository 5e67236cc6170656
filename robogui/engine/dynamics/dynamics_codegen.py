"""Straight-line recursive Newton-Euler programs, generated once per robot.

numpy pays a fixed price per call, so a batched RNE that works on (m, 3, 3) stacks is
dominated by call overhead and by multiplications with the many zeros of a D-H model
(twists of +-90 degrees, centres of mass on an axis, diagonal inertias). Instead, the
recursion is run once *symbolically* over scalars: constants are folded (0*x, 1*x, x+0,
sign flips), common subexpressions are shared, and unused results are dropped. What is
left is a list of elementary operations on per-sample scalars, compiled into a Python
function. The same function runs on (m,) numpy arrays (batched; also complex arrays for
complex-step derivatives) or on Python floats (the lean single-state path).

This is the "symbolic simplification" route of r6 manual Table 1 (ARM's simplified RNE),
done at run time for whatever robot is loaded. The recursions themselves are r6 section
3.1 (standard D-H, Luh-Walker-Paul in link frames) and Craig's modified-D-H form (ROBOOP
``mRobot``); see :func:`rne_outputs`.

The programs are run by :mod:`.dynamics_eval`. Their inputs, each indexable by joint j
(or component k): ``C[j], S[j]`` cos/sin of theta_j (revolute), ``D[j]`` d_j
(prismatic), ``QD[j]``, ``QDD[j]``, ``G[k]`` the base acceleration ``-g`` in base-frame
components and ``FE[k]`` the end-effector wrench. Motor armature and friction are not
part of the programs.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict

import numpy as np

__all__ = ["Program", "get_program"]


class _Sym:
    """A generated variable, possibly negated (negation is free: it is folded later)."""

    __slots__ = ("name", "neg")

    def __init__(self, name: str, neg: bool = False):
        self.name = name
        self.neg = neg


def _is_const(x) -> bool:
    return not isinstance(x, _Sym)


def _finite(x):
    """A constant that goes into generated code: refuse inf/nan (their repr is no Python
    literal, and they come only from robot parameters that overflow)."""
    if isinstance(x, (float, int)) and not math.isfinite(x):
        raise ValueError(f"a robot parameter overflows in the dynamics ({x!r}); the robot's "
                         "lengths, masses or inertias are beyond any real arm")
    return x


class _Builder:
    """Emits ``target = expr`` lines with constant folding and common-subexpression reuse."""

    def __init__(self):
        # (target, expression, operand names, operation key or None for an input)
        self.lines: list[tuple[str, str, tuple[str, ...], tuple | None]] = []
        self._cse: dict[tuple, str] = {}
        self._count = 0
        self._loaded: set[str] = set()

    def _emit(self, key: tuple, expr: str, deps: tuple[str, ...]) -> str:
        name = self._cse.get(key)
        if name is None:
            name = f"t{self._count}"
            self._count += 1
            self.lines.append((name, expr, deps, key))
            self._cse[key] = name
        return name

    def load(self, name: str, source: str) -> _Sym:
        """An input value, e.g. ``c0 = C[0]``."""
        if name not in self._loaded:
            self._loaded.add(name)
            self.lines.append((name, source, (), None))
        return _Sym(name)

    def neg(self, x):
        if _is_const(x):
            return -x
        return _Sym(x.name, not x.neg)

    def mul(self, x, y):
        if _is_const(x) and _is_const(y):
            return x * y
        if _is_const(y):
            x, y = y, x
        if _is_const(x):
            if x == 0.0:
                return 0.0
            neg = y.neg
            if x < 0:
                x, neg = -x, not neg
            if x == 1.0:
                return _Sym(y.name, neg)
            name = self._emit(("c*", _finite(x), y.name), f"{x!r} * {y.name}", (y.name,))
            return _Sym(name, neg)
        a, b = sorted((x.name, y.name))
        name = self._emit(("*", a, b), f"{a} * {b}", (a, b))
        return _Sym(name, x.neg != y.neg)

    def add(self, x, y):
        if _is_const(x) and _is_const(y):
            return x + y
        if _is_const(y):
            x, y = y, x
        if _is_const(x):
            if x == 0.0:
                return y
            # c + y = c + y ; c - y  -> emitted as (y - c) negated
            if y.neg:
                name = self._emit(("-c", y.name, _finite(x)), f"{y.name} - {x!r}", (y.name,))
                return _Sym(name, True)
            name = self._emit(("+c", y.name, _finite(x)), f"{y.name} + {x!r}", (y.name,))
            return _Sym(name, False)
        if x.neg == y.neg:
            a, b = sorted((x.name, y.name))
            name = self._emit(("+", a, b), f"{a} + {b}", (a, b))
            return _Sym(name, x.neg)
        pos, neg = (x, y) if not x.neg else (y, x)
        name = self._emit(("-", pos.name, neg.name), f"{pos.name} - {neg.name}",
                          (pos.name, neg.name))
        return _Sym(name, False)

    def sub(self, x, y):
        return self.add(x, self.neg(y))

    def materialize(self, x):
        """A constant, or a plain (non-negated) variable name."""
        if _is_const(x):
            return float(x)
        if not x.neg:
            return x.name
        return self._emit(("neg", x.name), f"-{x.name}", (x.name,))

    # -- 3-vectors as tuples -------------------------------------------------------
    def vadd(self, u, v):
        return tuple(self.add(a, b) for a, b in zip(u, v, strict=True))

    def vscale(self, k, v):
        return tuple(self.mul(k, a) for a in v)

    def cross(self, u, v):
        return (self.sub(self.mul(u[1], v[2]), self.mul(u[2], v[1])),
                self.sub(self.mul(u[2], v[0]), self.mul(u[0], v[2])),
                self.sub(self.mul(u[0], v[1]), self.mul(u[1], v[0])))

    def dot(self, u, v):
        acc = 0.0
        for a, b in zip(u, v, strict=True):
            acc = self.add(acc, self.mul(a, b))
        return acc

    def matvec(self, A, v):
        """A constant 3x3 matrix (nested sequences) times a vector."""
        return tuple(self.dot([float(A[i][k]) for k in range(3)], v) for i in range(3))

    def rotz(self, c, s, v, transpose=False):
        """Rz v (or Rz^T v) for a rotation about z with cosine c and sine s."""
        if transpose:
            s = self.neg(s)
        return (self.sub(self.mul(c, v[0]), self.mul(s, v[1])),
                self.add(self.mul(s, v[0]), self.mul(c, v[1])), v[2])

    def rotx(self, c, s, v, transpose=False):
        if transpose:
            s = self.neg(s)
        return (v[0], self.sub(self.mul(c, v[1]), self.mul(s, v[2])),
                self.add(self.mul(s, v[1]), self.mul(c, v[2])))


class _LinkRot:
    """The rotation ^{i-1}R_i of one link as a product of elementary rotations."""

    def __init__(self, b: _Builder, c, s, ca: float, sa: float, mdh: bool):
        self.b, self.c, self.s, self.ca, self.sa, self.mdh = b, c, s, ca, sa, mdh

    def apply(self, v):
        """R v: a vector in frame i expressed in frame i-1."""
        b = self.b
        if self.mdh:  # R = Rx(alpha) Rz(theta)
            return b.rotx(self.ca, self.sa, b.rotz(self.c, self.s, v))
        return b.rotz(self.c, self.s, b.rotx(self.ca, self.sa, v))  # Rz(theta) Rx(alpha)

    def apply_t(self, v):
        """R^T v: a vector in frame i-1 expressed in frame i."""
        b = self.b
        if self.mdh:
            return b.rotz(self.c, self.s, b.rotx(self.ca, self.sa, v, True), True)
        return b.rotx(self.ca, self.sa, b.rotz(self.c, self.s, v, True), True)


class _GeneralRot:
    """^{i-1}R_i = C Rz(theta) for a general joint (C constant, folded by the builder)."""

    def __init__(self, b: _Builder, C, c, s):
        Ct = [list(r) for r in zip(*C, strict=True)]
        self.b, self.C, self.Ct, self.c, self.s = b, C, Ct, c, s

    def apply(self, v):
        return self.b.matvec(self.C, self.b.rotz(self.c, self.s, v))

    def apply_t(self, v):
        return self.b.rotz(self.c, self.s, self.b.matvec(self.Ct, v), True)


class _ToolRot:
    def __init__(self, b: _Builder, R):
        self.b, self.R = b, R

    def apply(self, v):
        return self.b.matvec(self.R, v)


def rne_outputs(b: _Builder, par: dict, c, s, d, qd, qdd, grav, fext, first_row=0):
    """Joint torques of the rigid-body RNE as builder values (a list of n entries).

    ``par`` holds the per-link constants (see :func:`_link_params`); ``c, s, d, qd, qdd``
    are per-joint values (constants or symbols); ``grav`` is the base acceleration
    ``-g`` in base components; ``fext`` the end-effector wrench (6 values) or None.
    Rows below ``first_row`` are not needed (the caller drops them; dead code goes too).
    """
    n = par["n"]
    mdh = par["mdh"]
    zero = (0.0, 0.0, 0.0)
    rots, pvec = [], []
    for j in range(n if not par.get("general") else 0):
        ca, sa = par["ca"][j], par["sa"][j]
        rots.append(_LinkRot(b, c[j], s[j], ca, sa, mdh))
        a_j = par["a"][j]
        if mdh:  # origin of frame j in frame j-1 (Craig): [a_{j-1}, -d sa, d ca]
            pvec.append((a_j, b.neg(b.mul(d[j], sa)), b.mul(d[j], ca)))
        else:  # r6 eq. 28: origin of frame j from frame j-1, in frame j
            pvec.append((a_j, b.mul(d[j], sa), b.mul(d[j], ca)))

    if par.get("general"):
        # general joints, in Craig's form on the axis frames: frame j-1 -> constant C_j
        # -> motion about/along z; origin of frame j in frame j-1 is C_p + C_R (0, 0, d)
        for j in range(n):
            C = par["C"][j]
            rots.append(_GeneralRot(b, [row[:3] for row in C[:3]], c[j], s[j]))
            pvec.append(tuple(b.add(C[r][3], b.mul(C[r][2], d[j])) for r in range(3)))
    w, wd, vd = zero, zero, tuple(grav)
    Fs, Ns = [], []
    for j in range(n):
        R, p, rev = rots[j], pvec[j], par["revolute"][j]
        if mdh:
            # Craig: propagate in frame j-1, rotate into frame j, add the joint's motion
            wT = R.apply_t(w)
            if rev:
                w_new = (wT[0], wT[1], b.add(wT[2], qd[j]))
                wdT = R.apply_t(wd)
                wxz = (b.mul(wT[1], qd[j]), b.neg(b.mul(wT[0], qd[j])), 0.0)
                wd_new = b.vadd(wdT, (wxz[0], wxz[1], qdd[j]))
            else:
                w_new, wd_new = wT, R.apply_t(wd)
            acc = b.vadd(b.vadd(b.cross(wd, p), b.cross(w, b.cross(w, p))), vd)
            vd_new = R.apply_t(acc)
            if not rev:
                zq = (0.0, 0.0, qd[j])
                vd_new = b.vadd(vd_new, b.vscale(2.0, b.cross(w_new, zq)))
                vd_new = (vd_new[0], vd_new[1], b.add(vd_new[2], qdd[j]))
        else:
            # r6 eqs. 12-19: frame j sits at the far end of link j
            if rev:
                w_new = R.apply_t((w[0], w[1], b.add(w[2], qd[j])))
                wxz = (b.mul(w[1], qd[j]), b.neg(b.mul(w[0], qd[j])))
                wd_new = R.apply_t((b.add(wd[0], wxz[0]), b.add(wd[1], wxz[1]),
                                    b.add(wd[2], qdd[j])))
                vd_new = b.vadd(b.vadd(b.cross(wd_new, p), b.cross(w_new, b.cross(w_new, p))),
                                R.apply_t(vd))
            else:
                w_new, wd_new = R.apply_t(w), R.apply_t(wd)
                zt = (0.0, par["sa"][j], par["ca"][j])  # R^T z0
                vd_new = R.apply_t((vd[0], vd[1], b.add(vd[2], qdd[j])))
                vd_new = b.vadd(vd_new, b.cross(wd_new, p))
                vd_new = b.vadd(vd_new, b.vscale(2.0, b.cross(w_new, b.vscale(qd[j], zt))))
                vd_new = b.vadd(vd_new, b.cross(w_new, b.cross(w_new, p)))
        w, wd, vd = w_new, wd_new, vd_new
        r, m, I = par["r"][j], par["m"][j], par["I"][j]
        vc = b.vadd(b.vadd(b.cross(wd, r), b.cross(w, b.cross(w, r))), vd)
        Fs.append(b.vscale(m, vc))
        Ns.append(b.vadd(b.matvec(I, wd), b.cross(w, b.matvec(I, w))))

    # wrench that link n exerts on the environment, at the origin of frame n, frame n axes
    if fext is None:
        f_next, n_next = zero, zero
    else:
        tool = _ToolRot(b, par["tool_R"])
        f_next = tool.apply(fext[:3])
        n_next = b.vadd(tool.apply(fext[3:]), b.cross(par["tool_p"], f_next))

    tau = [0.0] * n
    for j in range(n - 1, first_row - 1, -1):
        p, r, rev = pvec[j], par["r"][j], par["revolute"][j]
        if mdh:
            f = b.vadd(f_next, Fs[j])
            nn = b.vadd(b.vadd(Ns[j], n_next), b.cross(r, Fs[j]))
            tau[j] = nn[2] if rev else f[2]
        else:
            f = b.vadd(f_next, Fs[j])
            nn = b.vadd(b.vadd(n_next, b.cross(p, f_next)),
                        b.vadd(b.cross(b.vadd(p, r), Fs[j]), Ns[j]))
            axis = (0.0, par["sa"][j], par["ca"][j])  # joint j axis z_{j-1} in frame j
            tau[j] = b.dot(nn, axis) if rev else b.dot(f, axis)
        if j > 0:
            # into frame j-1: force rotated; moment about origin j-1 (MDH) or stays (std)
            Rj = rots[j]
            f_next = Rj.apply(f)
            n_rot = Rj.apply(nn)
            n_next = b.vadd(n_rot, b.cross(p, f_next)) if mdh else n_rot
    return tau


def _general_params(robot) -> dict:
    """Per-link constants for a robot with general joints, on the axis frames.

    Axis frame j is link frame j-1 times ``pre_j`` times the joint motion, so the step
    from axis frame j-1 to j is ``C_j = post_{j-1} pre_j``; link j's inertials and the
    tool are moved from the link frame (``post_j`` further) into axis frame j.
    """
    jm = robot.joint_models
    n = robot.n
    C, r, inert = [], [], []
    for j in range(n):
        prev = jm.post[j - 1] if j else np.eye(4)
        C.append([[_clean(float(x)) for x in row] for row in (prev @ jm.pre[j])])
        R, p = jm.post[j][:3, :3], jm.post[j][:3, 3]
        L = robot.links[j]
        r.append(tuple(_clean(float(x)) for x in R @ L.r + p))
        inert.append([[_clean(float(x)) for x in row] for row in R @ L.I @ R.T])
    tool = jm.post[n - 1] @ robot.tool
    return {
        "n": n, "mdh": True, "general": True,
        "revolute": [bool(x) for x in jm.revolute],
        "C": C,
        "m": [float(L.m) for L in robot.links], "r": r, "I": inert,
        "tool_R": tool[:3, :3].tolist(),
        "tool_p": tuple(float(x) for x in tool[:3, 3]),
    }


def _link_params(robot) -> dict:
    if robot.is_general:
        return _general_params(robot)
    dh = robot.dh_arrays
    links = robot.links
    return {
        "n": robot.n,
        "mdh": robot.is_mdh,
        "revolute": [bool(x) for x in dh.revolute],
        "a": [float(x) for x in dh.a],
        "ca": [float(x) for x in dh.cos_alpha],
        "sa": [float(x) for x in dh.sin_alpha],
        "m": [float(L.m) for L in links],
        "r": [tuple(float(x) for x in L.r) for L in links],
        "I": [L.I.tolist() for L in links],
        "tool_R": robot.tool[:3, :3].tolist(),
        "tool_p": tuple(float(x) for x in robot.tool[:3, 3]),
    }


def _clean(x: float) -> float:
    return 0.0 if abs(x) < 1e-15 else (1.0 if x == 1.0 else x)


_ARRAY_INPUTS = ("C[", "S[", "D[", "QD[", "QDD[")


def _ufunc_call(key: tuple, out: str) -> str:
    """The ufunc call for an operation key, writing into array ``out``."""
    op = key[0]
    if op == "*":
        return f"_mul({key[1]}, {key[2]}, {out})"
    if op == "c*":
        return f"_mul({key[2]}, {key[1]!r}, {out})"
    if op == "+":
        return f"_add({key[1]}, {key[2]}, {out})"
    if op == "+c":
        return f"_add({key[1]}, {key[2]!r}, {out})"
    if op == "-":
        return f"_sub({key[1]}, {key[2]}, {out})"
    if op == "-c":
        return f"_sub({key[1]}, {key[2]!r}, {out})"
    return f"_neg({key[1]}, {out})"


class Program:
    """A compiled straight-line program and what it returns.

    ``outputs`` is a list of (row, col) pairs naming where each returned value goes
    (col is None for a torque vector entry). ``n_ops`` counts elementary operations.
    """

    def __init__(self, b: _Builder, outputs: list, where: list, signature: str):
        values = [_finite(b.materialize(v)) for v in outputs]
        names = {v for v in values if isinstance(v, str)}
        # dead-code elimination: keep the lines the outputs depend on
        deps = {line[0]: line[2] for line in b.lines}
        needed, stack = set(), list(names)
        while stack:
            name = stack.pop()
            if name not in needed:
                needed.add(name)
                stack.extend(deps.get(name, ()))
        lines = [line for line in b.lines if line[0] in needed]
        self.n_ops = sum(1 for line in lines if line[3] is not None)
        # joints whose cos/sin the program reads, as a range (the first joint's angle
        # often drops out, e.g. of M(q), which never depends on q1)
        trig = sorted(int(e[2:-1]) for _, e, _, key in lines
                      if key is None and e.startswith(("C[", "S[")))
        self.trig_range = (trig[0], trig[-1] + 1) if trig else (0, 0)
        self.where = where
        self._signature = signature
        self._lines = lines
        self._values = values
        self._funcs: dict[bool, object] = {}
        self.n_regs = 0  # registers of the array version (set when it is compiled)

    def _source(self, arrays: bool) -> str:
        """Python source of the program.

        For floats the lines are plain expressions. For arrays every intermediate result
        is written (ufunc ``out=``) into a register: a row of the caller's workspace
        ``W``, recycled as soon as its value is dead. Nothing is allocated, so there is no
        page-faulting of fresh memory, and the working set stays small and hot.
        """
        if not arrays:
            body = [f"    {t} = {e}" for t, e, _, _ in self._lines]
        else:
            body = ["    W = list(W)"]  # row views, indexed without numpy overhead
            last_use: dict[str, int] = {}
            for i, line in enumerate(self._lines):
                for name in line[2]:
                    last_use[name] = i
            keep = {v for v in self._values if isinstance(v, str)}
            is_array: dict[str, bool] = {}
            reg: dict[str, int] = {}  # live array temporaries -> register
            free: list[int] = []
            n_regs = 0
            for i, (t, e, d, key) in enumerate(self._lines):
                if key is None:  # an input: never written to
                    is_array[t] = e.startswith(_ARRAY_INPUTS)
                    body.append(f"    {t} = {e}")
                    continue
                is_array[t] = any(is_array[x] for x in d)
                for x in dict.fromkeys(d):
                    if last_use[x] == i and x not in keep and x in reg:
                        free.append(reg.pop(x))  # elementwise: may be this line's output
                if is_array[t]:
                    if free:
                        r = free.pop()
                    else:
                        r, n_regs = n_regs, n_regs + 1
                    reg[t] = r
                    body.append(f"    {t} = {_ufunc_call(key, f'W[{r}]')}")
                else:
                    body.append(f"    {t} = {e}")
            self.n_regs = n_regs
        ret = ", ".join(v if isinstance(v, str) else repr(v) for v in self._values)
        sig = self._signature + (", W" if arrays else "")
        return f"def _prog({sig}):\n" + "\n".join(body) + f"\n    return ({ret},)\n"

    def function(self, arrays: bool):
        """The compiled function: ``arrays`` True for numpy inputs, False for floats."""
        f = self._funcs.get(arrays)
        if f is None:
            ns: dict = {"_mul": np.multiply, "_add": np.add, "_sub": np.subtract,
                        "_neg": np.negative}
            exec(compile(self._source(arrays), "<robogui rne program>", "exec"), ns)  # noqa: S102
            f = self._funcs[arrays] = ns["_prog"]
        return f


_SIGNATURE = "C, S, D, QD, QDD, G, FE"


def _inputs(b: _Builder, robot, kind: str, grav_mask, fext: bool, column: int | None):
    """Per-joint builder values for a program kind."""
    dh = robot.dh_arrays
    n = robot.n
    c, s, d = [], [], []
    for j in range(n):
        if dh.revolute[j]:
            c.append(b.load(f"c{j}", f"C[{j}]"))
            s.append(b.load(f"s{j}", f"S[{j}]"))
            d.append(0.0 if robot.is_general else float(dh.d[j]))
        elif robot.is_general:  # every link on the axis frames (see _general_params)
            c.append(1.0)
            s.append(0.0)
            d.append(b.load(f"d{j}", f"D[{j}]"))
        else:
            th = float(dh.theta[j])
            c.append(_clean(math.cos(th)))
            s.append(_clean(math.sin(th)))
            d.append(b.load(f"d{j}", f"D[{j}]"))
    zeros = [0.0] * n
    qd = [b.load(f"qd{j}", f"QD[{j}]") for j in range(n)] \
        if kind in ("full", "velocity", "bias") else zeros
    if kind in ("full", "novelocity"):
        qdd = [b.load(f"qdd{j}", f"QDD[{j}]") for j in range(n)]
    elif kind == "column":
        qdd = [1.0 if j == column else 0.0 for j in range(n)]
    else:
        qdd = zeros
    if kind in ("full", "gravity", "bias"):
        grav = tuple(b.load(f"g{k}", f"G[{k}]") if grav_mask[k] else 0.0 for k in range(3))
    else:
        grav = (0.0, 0.0, 0.0)
    fe = [b.load(f"fe{k}", f"FE[{k}]") for k in range(6)] if fext else None
    return c, s, d, qd, qdd, grav, fe


def _build(robot, kind: str, grav_mask: tuple, fext: bool) -> Program:
    b = _Builder()
    par = _link_params(robot)
    n = robot.n
    if kind == "inertia":
        # column j of M is the torque for qdd = e_j (qd = 0, g = 0); rows i >= j suffice
        outputs, where = [], []
        for j in range(n):
            args = _inputs(b, robot, "column", grav_mask, False, j)
            tau = rne_outputs(b, par, *args, first_row=j)
            for i in range(j, n):
                outputs.append(tau[i])
                where.append((i, j))
        return Program(b, outputs, where, _SIGNATURE)
    if kind == "components":
        # gravity, inertial and Coriolis torques in one program (shared inputs): rows
        # 0..n-1, n..2n-1, 2n..3n-1 of the result
        outputs = []
        for part in ("gravity", "novelocity", "velocity"):
            outputs += rne_outputs(b, par, *_inputs(b, robot, part, grav_mask, False, None))
        return Program(b, outputs, [(k, None) for k in range(3 * n)], _SIGNATURE)
    args = _inputs(b, robot, kind, grav_mask, fext, None)
    tau = rne_outputs(b, par, *args)
    return Program(b, tau, [(j, None) for j in range(n)], _SIGNATURE)


_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 128
_LOCK = threading.Lock()


def _robot_key(robot, fext: bool) -> tuple:
    # the programs depend on the links (and on the tool when a wrench acts there);
    # base and gravity enter at run time, so robots differing only there share programs
    links = tuple(L._key() for L in robot.links)
    return (links, tuple(robot.tool.ravel()) if fext else None)


def get_program(robot, kind: str, grav_mask=(False, False, False), fext: bool = False):
    """The cached program of ``kind`` for ``robot``; ``grav_mask`` marks the non-zero
    gravity components. Kinds: "full" (q, qd, qdd, gravity, optional wrench), "gravity"
    (q), "velocity" (q, qd), "bias" (q, qd, gravity), "novelocity" (q, qdd), "inertia"
    (q; returns the lower triangle of M by columns) and "components" (q, qd, qdd, gravity;
    returns the gravity, novelocity and velocity torques one after the other)."""
    key = (_robot_key(robot, fext), kind, tuple(bool(x) for x in grav_mask), bool(fext))
    with _LOCK:
        prog = _CACHE.get(key)
        if prog is not None:
            _CACHE.move_to_end(key)
            return prog
    prog = _build(robot, kind, grav_mask, fext)
    with _LOCK:
        _CACHE[key] = prog
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return prog
