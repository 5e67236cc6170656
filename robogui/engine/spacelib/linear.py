"""SpaceLib's linear-system functions (manual chapter 4): ``linears`` (Gauss-Jordan
elimination with double pivoting, any rank, rectangular systems, several right-hand sides,
chosen main variables), ``solve_l`` and ``minvers``, and the TEST-LIN sample program.

``linears`` transforms ``[A | b_1 ... b_k]`` so that the leading ``rank x rank`` block of
A becomes the identity (columns permuted as ``ivet`` says), the columns after it hold the
coefficients ``y`` of the free variables and the rows below it are zero (figure 4.2).
With ``x_main`` the variables ``ivet[:rank]`` and ``x_free`` the others:
``x_main = b' - Y x_free``. The system has a solution when the transformed ``b`` is zero
below the rank; the free variables may then take any values (``LinearSolution.x``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..checks import as_float_array

__all__ = ["linears", "solve_linear", "LinearSolution", "solve_l", "minvers", "read_inp_dat",
           "test_lin"]


def linears(H, n: int, m: int, nsol: int = 1, vpr=(-1,), tol: float = 1e-12):
    """SpaceLib ``[H, ivet, irank, arm] = linears(H, idim, jdim, imax, jmax, nsol, vpr)``.

    ``H`` holds A (n x m, top-left) and the ``nsol`` right-hand sides in the next columns;
    it may be larger (the physical size), the rest is left alone. ``vpr`` lists the
    variables (0-based, as SpaceLib's C numbering) to take as main variables first,
    terminated by -1 (``[-1]``: free choice by full pivoting). ``tol`` is the pivot below
    which the rest of A counts as zero, relative to the largest element of A.

    Returns ``(H, ivet, irank, arm)``: the transformed copy of H; ``ivet`` (m,) the
    variable in each position (``x[ivet[i]] = H[i, m + k]`` for a full-rank square system,
    solution k); the rank; ``arm`` the largest absolute element of the remaining A at the
    last elimination pass.
    """
    H = as_float_array(H, "H").copy()
    if H.ndim != 2:
        raise ValueError(f"H must be a matrix, got shape {H.shape}")
    for name, v in (("n", n), ("m", m), ("nsol", nsol)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < (0 if name ==
                                                                              "nsol" else 1):
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if n > H.shape[0] or m + nsol > H.shape[1]:
        raise ValueError(f"H of shape {H.shape} cannot hold an {n} x {m} matrix and {nsol} "
                         "right-hand side(s)")
    if not np.all(np.isfinite(H[:n, :m + nsol])):
        raise ValueError("H contains a non-finite value (NaN or inf)")
    main = []
    for v in np.atleast_1d(np.asarray(vpr)).tolist():
        if v == -1:
            break
        if v != int(v) or not 0 <= v < m or v in main:
            raise ValueError(f"vpr must list distinct variables in 0..{m - 1} ended by -1, "
                             f"got {vpr!r}")
        main.append(int(v))
    W = H[:n, :m + nsol]  # a view: the work happens in H's used part
    ivet = np.arange(m)
    scale = float(np.abs(W[:, :m]).max()) if n and m else 0.0
    limit = tol * scale
    rank, arm = 0, 0.0
    for p in range(min(n, m)):
        block = np.abs(W[p:, p:m])
        # forced main variables first (their column only), then full pivoting
        if p < len(main):
            col = p + int(np.flatnonzero(ivet[p:] == main[p])[0])
            r = p + int(np.argmax(block[:, col - p]))
            c = col
        else:
            r, c = np.unravel_index(int(np.argmax(block)), block.shape)
            r, c = p + int(r), p + int(c)
        arm = float(np.abs(W[r, c]))
        if arm <= limit:
            break
        W[[p, r]] = W[[r, p]]
        W[:, [p, c]] = W[:, [c, p]]
        ivet[[p, c]] = ivet[[c, p]]
        W[p] /= W[p, p]
        others = np.arange(n) != p
        W[others] -= np.outer(W[others, p], W[p])
        W[others, p] = 0.0  # exact zeros in the eliminated column
        rank += 1
    return H, ivet, rank, arm


@dataclass(frozen=True)
class LinearSolution:
    """Result of :func:`solve_linear` for ``A x = b`` (A n x m, b (n,) or (n, k)).

    ``rank``; ``main`` / ``free`` the variable indices (0-based) solved for and left free;
    ``consistent``: a solution exists (the transformed b is zero below the rank);
    ``x0``: the solution with every free variable 0, (m,) or (m, k).
    """

    rank: int
    main: np.ndarray
    free: np.ndarray
    consistent: bool
    x0: np.ndarray
    _Y: np.ndarray  # (rank, m - rank): x_main = b' - Y x_free
    _b: np.ndarray  # (rank,) or (rank, k)

    def x(self, free_values=None) -> np.ndarray:
        """The solution with the free variables set to ``free_values`` (len(free),), in
        the order of :attr:`free`; default 0."""
        if not self.consistent:
            raise ValueError("the system has no solution (inconsistent right-hand side)")
        fv = np.zeros(len(self.free)) if free_values is None else as_float_array(
            free_values, "free_values")
        if fv.shape != (len(self.free),):
            raise ValueError(f"free_values must have {len(self.free)} values (variables "
                             f"{self.free.tolist()}), got shape {fv.shape}")
        x = np.zeros((len(self.main) + len(self.free),) + self._b.shape[1:])
        rhs = self._b - (self._Y @ fv if self._b.ndim == 1 else (self._Y @ fv)[:, None])
        x[self.main] = rhs
        x[self.free] = fv if self._b.ndim == 1 else fv[:, None]
        return x


def solve_linear(A, b, main=None, tol: float = 1e-12) -> LinearSolution:
    """``A x = b`` for any A (n x m, any rank) by :func:`linears`; ``main`` lists variables
    (0-based) to solve for first (SpaceLib ``vpr``), so the others are the free ones.

    >>> s = solve_linear([[1, 1, 1, 2, 1], [0, 1, 1, 2, 1], [0, 0, 2, 2, 1],
    ...                   [0, 0, 2, 2, 1]], [6, 5, 3, 3])
    >>> s.rank, s.free.tolist(), s.x().tolist()  # SpaceLib manual, section 4.3.2
    (3, [1, 4], [1.0, 0.0, -2.0, 3.5, 0.0])
    """
    A = as_float_array(A, "A")
    b = as_float_array(b, "b")
    if A.ndim != 2:
        raise ValueError(f"A must be a matrix, got shape {A.shape}")
    n, m = A.shape
    if b.shape[:1] != (n,) or b.ndim > 2:
        raise ValueError(f"b must have shape ({n},) or ({n}, k), got shape {b.shape}")
    B = b.reshape(n, -1)
    vpr = list(main or []) + [-1]
    H, ivet, rank, _ = linears(np.hstack([A, B]), n, m, B.shape[1], vpr, tol)
    bt = H[:, m:]
    consistent = bool(np.all(np.abs(bt[rank:]) <= 1e-9 * max(1.0, np.abs(B).max())))
    sol_b = bt[:rank] if b.ndim == 2 else bt[:rank, 0]
    res = LinearSolution(rank=rank, main=ivet[:rank].copy(), free=ivet[rank:].copy(),
                         consistent=consistent, x0=np.zeros(0), _Y=H[:rank, rank:m].copy(),
                         _b=sol_b.copy())
    x0 = res.x() if consistent else np.full((m,) + b.shape[1:], np.nan)
    object.__setattr__(res, "x0", x0)
    return res


def solve_l(A, b) -> tuple[np.ndarray, int]:
    """SpaceLib ``[x, irank] = solve_l(A, b)``: the least-squares (pseudo-inverse) solution
    and the rank of A (any shape), as the MATLAB version does with ``pinv``."""
    A = as_float_array(A, "A")
    b = as_float_array(b, "b")
    if A.ndim != 2 or b.shape != (A.shape[0],):
        raise ValueError(f"A must be a matrix and b a vector of as many values as A has "
                         f"rows, got shapes {A.shape} and {b.shape}")
    if not (np.all(np.isfinite(A)) and np.all(np.isfinite(b))):
        raise ValueError("A or b contains a non-finite value (NaN or inf)")
    return np.linalg.pinv(A) @ b, int(np.linalg.matrix_rank(A))


def minvers(A, dim: int | None = None) -> np.ndarray:
    """SpaceLib ``Ai = minvers(A, dim)``: the inverse of a square full-rank matrix, by
    :func:`linears` on ``[A | I]``. ValueError if A is singular."""
    A = as_float_array(A, "A")
    n = A.shape[0] if dim is None else int(dim)
    if A.ndim != 2 or A.shape[0] < n or A.shape[1] < n:
        raise ValueError(f"A must be a square matrix of size {n}, got shape {A.shape}")
    A = A[:n, :n]
    H, ivet, rank, _ = linears(np.hstack([A, np.eye(n)]), n, n, n)
    if rank < n:
        raise ValueError(f"A is singular (rank {rank} < {n}); it has no inverse")
    Ai = np.empty((n, n))
    Ai[ivet] = H[:, n:]
    return Ai


def read_inp_dat(path=None, *, text: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """TEST-LIN's input file INP.DAT: ``n m`` then n rows of m coefficients and b_i."""
    if text is None:
        text = Path(path).read_text()
    where = path or "INP.DAT"
    try:
        vals = [float(t) for t in text.split()]
    except ValueError as exc:
        raise ValueError(f"{where}: not a number: {exc}") from None
    if len(vals) < 2 or vals[0] != int(vals[0]) or vals[1] != int(vals[1]) \
            or vals[0] < 1 or vals[1] < 1:
        raise ValueError(f"{where}: must start with the matrix dimensions n m")
    n, m = int(vals[0]), int(vals[1])
    if len(vals) != 2 + n * (m + 1):
        raise ValueError(f"{where}: expected {n} rows of {m + 1} values after 'n m', got "
                         f"{len(vals) - 2} values")
    rows = np.array(vals[2:]).reshape(n, m + 1)
    return rows[:, :m], rows[:, m]


def test_lin(A, b) -> str:
    """The report of SpaceLib's TEST-LIN program for ``A x = b``: the input, then the
    solution (square full-rank system) or the rank, ivet and the transformed matrix."""
    A = as_float_array(A, "A")
    b = as_float_array(b, "b")
    n, m = A.shape
    H0 = np.hstack([A, b.reshape(n, 1)])
    out = ["", " Matrix and right-and side vector", ""]
    out += ["".join(f"{v:7.3f}" for v in row) for row in H0]
    H, ivet, rank, _ = linears(H0, n, m, 1)
    if n == m and rank == n:
        x = np.empty(n)
        x[ivet] = H[:, n]
        out += ["", " The solution is:", " x = " + " ".join(f"{v:g}" for v in x)]
    else:
        if n != m:
            out += ["", " number of rows and columns are different."]
        out += [f"The rank of the matrix is: {rank}", " ivet: " + " ".join(map(str, ivet)),
                "", "The matrix is"]
        out += ["  ".join(f"{v + 0.0:.3f}" for v in row) for row in H]
    return "\n".join(out)


test_lin.__test__ = False  # a SpaceLib program name, not a pytest test
