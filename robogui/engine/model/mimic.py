"""Mimic (coupled) joints: a chain whose joint k follows joint l as
``q_k = multiplier * q_l + offset`` (URDF ``<mimic>``).

The chain has ``n_full`` joints (one per body); ``n`` of them are independent. The full
joint vector is a linear map of the independent one, ``Q = E q + c``, with ``E``
(n_full, n) holding 1 for an independent joint and the multiplier in its leader's column
for a follower, and ``c`` the followers' offsets. So rates map by ``E`` alone and, by
virtual work (``tau . dq = Tau . dQ`` for every ``dq``), torques map back by ``E^T``:

- kinematics: ``fkine(q) = fkine_full(E q + c)``, ``J = J_full E``, ``Jdot = Jdot_full E``
  (E is constant, so the time derivative only sees ``J_full`` along ``Qd = E qd``);
- dynamics: ``tau = E^T rne_full(E q + c, E qd, E qdd)``, ``M = E^T M_full E``,
  ``C = E^T C_full E``, ``G = E^T G_full`` (the reduced Lagrangian is the full one
  restricted to the constraint surface).

A coupled :class:`robogui.engine.model.robot.Robot` keeps the whole chain (``robot.chain``,
``robot.full``) and has ``robot.n`` independent joints; the engine's public functions
carry :func:`coupled`, which expands the joint arguments at the door, calls the
function on ``robot.full`` and maps the result back.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Mapping

import numpy as np

from ..checks import as_joint_array

__all__ = ["Coupling", "coupled", "check_mimic"]


def check_mimic(mimic, n_full: int) -> dict[int, tuple[int, float, float]]:
    """``mimic`` {follower: (leader, multiplier, offset)} (0-based chain indices) checked:
    indices in range, a leader is not itself a follower, numbers finite. ValueError."""
    if not isinstance(mimic, Mapping):
        raise ValueError("mimic must be a mapping {follower: (leader, multiplier, offset)}, "
                         f"got {type(mimic).__name__}")
    out = {}
    for k, spec in mimic.items():
        try:
            leader, mult, off = spec
            k, leader, mult, off = int(k), int(leader), float(mult), float(off)
        except (TypeError, ValueError):
            raise ValueError(f"mimic[{k!r}] must be (leader index, multiplier, offset), got "
                             f"{spec!r}") from None
        for idx in (k, leader):
            if not 0 <= idx < n_full:
                raise ValueError(f"mimic joint index {idx} out of range 0..{n_full - 1}")
        if not (np.isfinite(mult) and np.isfinite(off)):
            raise ValueError(f"mimic joint {k + 1}: multiplier and offset must be finite, got "
                             f"{mult}, {off}")
        if k == leader:
            raise ValueError(f"mimic joint {k + 1} cannot follow itself")
        out[k] = (leader, mult, off)
    for k, (leader, _, _) in out.items():
        if leader in out:
            raise ValueError(f"mimic joint {k + 1} follows joint {leader + 1}, itself a "
                             "follower: give the chain's independent joint as leader")
    if len(out) == n_full:
        raise ValueError("every joint is a follower: a robot needs an independent joint")
    return out


class Coupling:
    """``Q = E q + c``: the full joint vector from the independent one (see the module).

    ``independent`` (n,) chain indices of the independent joints; ``E`` (n_full, n);
    ``c`` (n_full,). Arrays are read-only.
    """

    def __init__(self, mimic: Mapping[int, tuple[int, float, float]], n_full: int):
        self.mimic = dict(mimic)
        self.independent = np.array([k for k in range(n_full) if k not in self.mimic], int)
        col = {int(k): i for i, k in enumerate(self.independent)}
        E = np.zeros((n_full, len(self.independent)))
        c = np.zeros(n_full)
        E[self.independent, np.arange(len(self.independent))] = 1.0
        for k, (leader, mult, off) in self.mimic.items():
            E[k, col[leader]] = mult
            c[k] = off
        E.setflags(write=False)
        c.setflags(write=False)
        self.E, self.c = E, c
        self.n_full, self.n = n_full, len(self.independent)
        self.key = tuple(sorted(self.mimic.items()))

    def expand(self, x, n: int, name: str, rate: bool) -> np.ndarray:
        """Full vector(s) from independent ``x`` (n,) or (m, n): ``E x (+ c)``; same rank."""
        x2d, single = as_joint_array(x, n, name)
        X = x2d @ self.E.T
        if not rate:
            X = X + self.c
        return X[0] if single else X

    def rows(self, y) -> np.ndarray:
        """Torques (..., n_full) -> (..., n): ``E^T y``."""
        return np.asarray(y) @ self.E

    def both(self, A) -> np.ndarray:
        """Matrices (..., n_full, n_full) -> (..., n, n): ``E^T A E``."""
        return self.E.T @ np.asarray(A) @ self.E

    def leader_limits(self, k: int, qlim) -> tuple[float, float] | None:
        """The leader's interval implied by follower ``k``'s limits ``qlim`` (or None)."""
        leader, mult, off = self.mimic[k]
        if qlim is None or mult == 0.0:
            return None
        a, b = (qlim[0] - off) / mult, (qlim[1] - off) / mult
        return (min(a, b), max(a, b))


# joint-argument names: "q" maps with the offsets, the others are rates (E only)
_POSITIONS = {"q"}


def coupled(out: str, *joint_args: str):
    """Decorator of an engine function ``f(robot, ...)``: for a coupled robot, expand the
    named joint arguments to the full chain, call ``f(robot.full, ...)`` and map the result:
    ``out`` "same" (poses, frames, scalars), "cols" (``J E``), "rows" (``E^T tau``), "both"
    (``E^T M E``), "pair" (a tuple of torques), "parts" (TorqueComponents)."""
    def deco(f):
        sig = inspect.signature(f)

        @functools.wraps(f)
        def wrapper(robot, *args, **kw):
            cp = getattr(robot, "coupling", None)
            if cp is None:
                return f(robot, *args, **kw)
            ba = sig.bind(robot, *args, **kw)
            for name in joint_args:
                val = ba.arguments.get(name)
                if val is not None:
                    ba.arguments[name] = cp.expand(val, robot.n, name, name not in _POSITIONS)
            ba.arguments["robot"] = robot.full
            return _mapped(cp, f(*ba.args, **ba.kwargs), out)

        return wrapper

    return deco


def _mapped(cp: Coupling, res, out: str):
    if out == "same":
        return res
    if out == "cols":
        return np.asarray(res) @ cp.E
    if out == "rows":
        return cp.rows(res)
    if out == "both":
        return cp.both(res)
    if out == "pair":
        return tuple(cp.rows(r) for r in res)
    if out == "parts":
        return type(res)(*(cp.rows(p) for p in (res.gravity, res.inertial, res.coriolis,
                                                  res.friction)))
    raise ValueError(f"unknown coupling map {out!r}")
