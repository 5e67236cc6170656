"""The ``Trajectory`` container (sampling, joining, resampling) and its CSV files.

:mod:`robogui.engine.trajectory.trajectory` holds the generators and re-exports everything here.

CSV format (written by :func:`write_trajectory_csv`, read by :func:`read_trajectory_csv`)::

    # robogui trajectory: jtraj
    t,q1,q2,qd1,qd2,qdd1,qdd2
    0,0.1,0.2,0,0,0,0
    ...

* Optional comment lines starting with ``#`` before the header; a first comment of the
  form ``# robogui trajectory: NAME`` carries the trajectory name.
* A header row is required. Column names: ``t`` (time, s), ``q1..qn`` (joint
  coordinates, rad or m), ``qd1..qdn`` (rad/s or m/s), ``qdd1..qddn`` (rad/s^2 or m/s^2),
  and for Cartesian trajectories ``T11..T34``: the top three rows of each 4x4 transform,
  row by row (the bottom row is always ``0 0 0 1``). Columns may come in any order;
  ``qd``/``qdd`` are optional, and at least ``q`` or ``T`` must be present.
* Floats are written with 17 significant digits so that a round trip is exact.
* Blank lines are ignored. Time must be strictly increasing.

Every problem with a file raises :class:`TrajectoryFileError` (a ``ValueError``) whose
message names the file, the line number (1-based) and the column (1-based, with its name).
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import bounds
from ..checks import as_float_array, as_transform
from ..files import TextDecodeProblem, atomic_write_text, read_text

__all__ = [
    "Trajectory",
    "TrajectoryFileError",
    "read_trajectory_csv",
    "write_trajectory_csv",
    "T_COLUMNS",
]

#: names of the 12 transform columns: the top three rows of T, row by row
T_COLUMNS = tuple(f"T{r}{c}" for r in range(1, 4) for c in range(1, 5))
_NAME_COMMENT = "# robogui trajectory:"
_COLUMN_RE = re.compile(r"^(t|q|qd|qdd)(\d*)$")
# a transform read from a file must be a rotation to this tolerance (R^T R - I)
_ROTATION_TOL = 1e-6


class TrajectoryFileError(ValueError):
    """A trajectory file is malformed; the message names file, line and column."""


def _fail(path, line: int | None, column: int | None, colname: str | None, msg: str):
    where = f"{path}"
    if line is not None:
        where += f", line {line}"
    if column is not None:
        where += f", column {column}" + (f" ({colname!r})" if colname else "")
    elif colname:
        where += f", column {colname!r}"
    raise TrajectoryFileError(f"{where}: {msg}")


def write_trajectory_csv(path, t, q=None, qd=None, qdd=None, T=None, name: str = "") -> None:
    """Write a trajectory to ``path`` atomically (temporary file, then ``os.replace``).

    ``t`` (k,) s; ``q``, ``qd``, ``qdd`` (k, n) or None; ``T`` (k, 4, 4) or None. Only the
    columns that exist are written. Values use ``%.17g`` so reading back is exact.
    """
    path = Path(path)
    t = np.asarray(t, dtype=np.float64)
    blocks, names = [t[:, None]], ["t"]
    for prefix, arr in (("q", q), ("qd", qd), ("qdd", qdd)):
        if arr is not None:
            arr = np.asarray(arr, dtype=np.float64)
            blocks.append(arr)
            names += [f"{prefix}{j + 1}" for j in range(arr.shape[1])]
    if T is not None:
        blocks.append(np.asarray(T, dtype=np.float64)[:, :3, :].reshape(-1, 12))
        names += list(T_COLUMNS)
    data = np.hstack(blocks)
    buf = io.StringIO()
    # newlines in a name would break the comment line
    clean = " ".join(str(name).split())
    buf.write(f"{_NAME_COMMENT} {clean}\n")
    buf.write(",".join(names) + "\n")
    np.savetxt(buf, data, fmt="%.17g", delimiter=",")
    atomic_write_text(path, buf.getvalue())


def _positive_float(value, name: str) -> float:
    arr = as_float_array(value, name)
    if arr.shape != () or not np.isfinite(arr) or arr <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return float(arr)


def _frozen(arr: np.ndarray | None) -> np.ndarray | None:
    if arr is None:
        return None
    arr = np.array(arr, dtype=np.float64)  # own copy, so the caller cannot mutate it
    arr.setflags(write=False)
    return arr


def _check_time_vector(t, name: str) -> np.ndarray:
    """A finite, strictly increasing 1-D time vector with at least one sample."""
    arr = as_float_array(t, name)
    if arr.ndim != 1 or arr.size < 1:
        raise ValueError(f"{name} must be a 1-D vector of sample times, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains a non-finite value (NaN or inf)")
    steps = np.diff(arr)
    if np.any(steps <= 0):
        i = int(np.argmax(steps <= 0)) + 1
        raise ValueError(f"{name} must be strictly increasing: {name}[{i}] = {arr[i]:g} "
                         f"follows {arr[i - 1]:g}")
    return arr


@dataclass(frozen=True, eq=False)
class Trajectory:
    """A sampled trajectory: times ``t`` (k,) s, and joint ``q``/``qd``/``qdd`` (k, n)
    and/or Cartesian poses ``T`` (k, 4, 4).

    Arrays are copied and made read-only, so a Trajectory never changes; methods return
    new ones. ``t`` is strictly increasing. ``qd``/``qdd`` need ``q``. ``info`` holds
    generator extras (e.g. ``tblend`` for :func:`lspb`, ``via_times`` for :func:`mstraj`,
    ``s`` for :func:`ctraj`); it is not saved to CSV.
    """

    t: np.ndarray
    q: np.ndarray | None = None
    qd: np.ndarray | None = None
    qdd: np.ndarray | None = None
    T: np.ndarray | None = None
    name: str = ""
    info: Mapping = field(default_factory=dict)

    def __post_init__(self):
        t = _check_time_vector(self.t, "t")
        k = t.size
        if self.q is None and self.T is None:
            raise ValueError("a Trajectory needs joint coordinates q (k, n) or poses T (k, 4, 4)")
        q = None
        if self.q is not None:
            q = as_float_array(self.q, "q")
            if q.ndim == 1 and (k == 1 or q.size == k):
                q = q.reshape(k, -1)  # one sample (n,) or one axis (k,)
            if q.ndim != 2 or q.shape[0] != k:
                raise ValueError(f"q must have shape ({k}, n) to match t, got shape {q.shape}")
        for name in ("q", "qd", "qdd"):
            arr = q if name == "q" else getattr(self, name)
            if arr is None:
                continue
            if q is None:
                raise ValueError(f"{name} needs q: velocities come with positions")
            arr = as_float_array(arr, name)
            if arr.ndim == 1 and arr.size == q.size:
                arr = arr.reshape(q.shape)
            if arr.shape != q.shape:
                raise ValueError(f"{name} must have shape {q.shape} like q, got shape {arr.shape}")
            if not np.all(np.isfinite(arr)):
                raise ValueError(f"{name} contains a non-finite value (NaN or inf)")
            object.__setattr__(self, name, _frozen(arr))
        if self.T is not None:
            T = as_transform(self.T, "T")
            if T.shape != (k, 4, 4):
                raise ValueError(f"T must have shape ({k}, 4, 4) to match t, got shape {T.shape}")
            object.__setattr__(self, "T", _frozen(T))
        object.__setattr__(self, "t", _frozen(t))
        object.__setattr__(self, "name", str(self.name))
        object.__setattr__(self, "info", dict(self.info))

    # -- size ----------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of axes (joints); 0 for a purely Cartesian trajectory."""
        return 0 if self.q is None else int(self.q.shape[1])

    def __len__(self) -> int:
        return int(self.t.size)

    @property
    def start(self) -> float:
        return float(self.t[0])

    @property
    def end(self) -> float:
        return float(self.t[-1])

    @property
    def duration(self) -> float:
        """End time minus start time, s."""
        return float(self.t[-1] - self.t[0])

    @property
    def is_cartesian(self) -> bool:
        return self.T is not None

    def __repr__(self) -> str:
        parts = [f"{len(self)} samples", f"t {self.start:g}..{self.end:g} s"]
        if self.q is not None:
            parts.append(f"{self.n} axes")
        if self.T is not None:
            parts.append("poses T")
        return f"Trajectory({self.name!r}: {', '.join(parts)})"

    # -- sampling --------------------------------------------------------------------
    def _locate(self, time) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
        """Interval index i and weight w in [0, 1] for each time (clamped into the range)."""
        tt = as_float_array(time, "time")
        if tt.ndim > 1 or not np.all(np.isfinite(tt)):
            raise ValueError(f"time must be a finite scalar or shape (m,), got shape {tt.shape}")
        single = tt.ndim == 0
        tt = np.clip(np.atleast_1d(tt), self.t[0], self.t[-1])
        if len(self) == 1:
            zeros = np.zeros(tt.shape, dtype=int)
            return zeros, zeros, np.zeros(tt.shape), single
        i = np.clip(np.searchsorted(self.t, tt, side="right") - 1, 0, len(self) - 2)
        w = (tt - self.t[i]) / (self.t[i + 1] - self.t[i])
        return i, i + 1, np.clip(w, 0.0, 1.0), single

    def index_at(self, time) -> int | np.ndarray:
        """Index of the last sample at or before ``time`` (s), clamped; scalar or (m,)."""
        i0, i1, w, single = self._locate(time)
        idx = np.where(w >= 1.0, i1, i0)
        return int(idx[0]) if single else idx

    def _interp(self, arr: np.ndarray, time) -> np.ndarray:
        i0, i1, w, single = self._locate(time)
        out = arr[i0] + w[:, None] * (arr[i1] - arr[i0])
        return out[0] if single else out

    def sample(self, time) -> np.ndarray:
        """Joint coordinates at ``time`` (s): scalar -> (n,), (m,) -> (m, n).

        Linear interpolation between samples; times outside the trajectory are clamped
        to its ends (what playback needs).
        """
        if self.q is None:
            raise ValueError("this trajectory has no joint coordinates q; use sample_T")
        return self._interp(self.q, time)

    def sample_qd(self, time) -> np.ndarray:
        """Joint velocities at ``time`` (s), interpolated like :meth:`sample`."""
        return self._interp(self.with_derivatives().qd, time)

    def sample_T(self, time) -> np.ndarray:
        """Pose at ``time`` (s): scalar -> (4, 4), (m,) -> (m, 4, 4); clamped to the range.

        Position is interpolated linearly and rotation by slerp between neighbouring samples.
        """
        if self.T is None:
            raise ValueError("this trajectory has no poses T; use sample")
        i0, i1, w, single = self._locate(time)
        A, B = self.T[i0], self.T[i1]
        from scipy.spatial.transform import Rotation  # lazy: heavy import, rarely used

        rel = Rotation.from_matrix(np.einsum("kji,kjl->kil", A[:, :3, :3], B[:, :3, :3]))
        step = Rotation.from_rotvec(rel.as_rotvec() * w[:, None]).as_matrix()
        out = np.zeros(A.shape)
        out[:, :3, :3] = A[:, :3, :3] @ step
        out[:, :3, 3] = A[:, :3, 3] + w[:, None] * (B[:, :3, 3] - A[:, :3, 3])
        out[:, 3, 3] = 1.0
        return out[0] if single else out

    # -- derived trajectories ------------------------------------------------------------
    def with_derivatives(self) -> Trajectory:
        """Fill in missing ``qd``/``qdd`` by finite differences (np.gradient over ``t``).

        Second-order accurate (one-sided at the ends). Existing qd/qdd are kept; with a
        single sample both are zero. Returns self when nothing is missing.
        """
        if self.q is None:
            raise ValueError("this trajectory has no joint coordinates q to differentiate")
        if self.qd is not None and self.qdd is not None:
            return self

        def grad(y):
            if len(self) == 1:
                return np.zeros_like(y)
            return np.gradient(y, self.t, axis=0, edge_order=2 if len(self) >= 3 else 1)

        qd = self.qd if self.qd is not None else grad(self.q)
        qdd = self.qdd if self.qdd is not None else grad(qd)
        return Trajectory(self.t, self.q, qd, qdd, self.T, self.name, self.info)

    def resample(self, dt: float) -> Trajectory:
        """Uniform samples every ``dt`` s from start to end (the end is always included).

        q, qd, qdd are interpolated linearly and T by :meth:`sample_T`.
        """
        dt = _positive_float(dt, "dt")
        count = int(math.floor(self.duration / dt + 1e-9))
        t = self.start + dt * np.arange(count + 1)
        if self.end - t[-1] > 1e-9 * max(1.0, abs(self.end)):
            t = np.append(t, self.end)
        t[-1] = min(t[-1], self.end)
        kw = {}
        for name in ("q", "qd", "qdd"):
            arr = getattr(self, name)
            kw[name] = None if arr is None else self._interp(arr, t)
        T = None if self.T is None else self.sample_T(t)
        return Trajectory(t, T=T, name=self.name, info=self.info, **kw)

    def concatenate(self, other: Trajectory, gap: float = 0.0, tol: float = 1e-9) -> Trajectory:
        """This trajectory followed by ``other``, shifted to start ``gap`` s after this one ends.

        With ``gap = 0`` the first sample of ``other`` falls on the last sample of this one,
        so it is dropped; it must then be the same configuration (within ``tol``), else a
        ValueError (use ``gap > 0`` to join with a jump). Only the quantities both have
        (q, qd, qdd, T) are kept.
        """
        if not isinstance(other, Trajectory):
            raise ValueError(f"other must be a Trajectory, got {type(other).__name__}")
        gap = float(gap)
        if not math.isfinite(gap) or gap < 0:
            raise ValueError(f"gap must be a finite time >= 0 s, got {gap}")
        if self.q is not None and other.q is not None and self.n != other.n:
            raise ValueError(f"cannot join trajectories with {self.n} and {other.n} axes")
        start = 0
        if gap == 0:
            start = 1
            for name in ("q", "T"):
                a, b = getattr(self, name), getattr(other, name)
                if a is not None and b is not None and np.abs(a[-1] - b[0]).max() > tol:
                    raise ValueError(f"other does not start where this trajectory ends ({name} "
                                     "differs); give gap > 0 to allow a jump")
        t = np.concatenate([self.t, other.t[start:] - other.t[0] + self.end + gap])
        kw = {}
        for name in ("q", "qd", "qdd", "T"):
            a, b = getattr(self, name), getattr(other, name)
            kw[name] = None if a is None or b is None else np.concatenate([a, b[start:]])
        if kw["q"] is None and kw["T"] is None:
            raise ValueError("cannot join a joint-space trajectory to a Cartesian one")
        return Trajectory(t, name=self.name or other.name, **kw)

    # -- files ----------------------------------------------------------------------
    def to_csv(self, path) -> None:
        """Save as CSV (see :mod:`robogui.engine.trajectory.trajectory_io`), atomically, exact
        floats."""
        write_trajectory_csv(path, self.t, self.q, self.qd, self.qdd, self.T, self.name)

    @classmethod
    def from_csv(cls, path, n: int | None = None) -> Trajectory:
        """Load a CSV trajectory; ``n`` is the expected number of joints (checked if given).

        Raises :class:`TrajectoryFileError` naming the file, line and column of a problem.
        Missing qd/qdd stay None; call :meth:`with_derivatives` to estimate them.
        """
        d = read_trajectory_csv(path, n)
        return cls(d["t"], d["q"], d["qd"], d["qdd"], d["T"], d["name"])


def _parse_header(path, lineno: int, cells: list[str], n: int | None):
    """Map column names to positions; return (t_col, {prefix: [cols]}, T_cols)."""
    seen: dict[str, int] = {}
    groups: dict[str, dict[int, int]] = {"q": {}, "qd": {}, "qdd": {}}
    t_col = None
    T_cols: dict[str, int] = {}
    for c, raw in enumerate(cells):
        name = raw.strip()
        if name in seen:
            _fail(path, lineno, c + 1, name,
                  f"duplicate column name (also column {seen[name] + 1})")
        seen[name] = c
        m = _COLUMN_RE.match(name)
        if name in T_COLUMNS:
            T_cols[name] = c
        elif m and m.group(1) == "t" and m.group(2) == "":
            t_col = c
        elif m and m.group(1) != "t" and m.group(2) and int(m.group(2)) >= 1:
            groups[m.group(1)][int(m.group(2))] = c
        else:
            _fail(path, lineno, c + 1, name,
                  "unknown column name; expected t, q1..qn, qd1..qdn, qdd1..qddn or T11..T34")
    if t_col is None:
        _fail(path, lineno, None, None, "header has no 't' column (a header row such as "
              "'t,q1,q2' must come first)")
    if not groups["q"] and not T_cols:
        _fail(path, lineno, None, None, "header has neither q1..qn nor T11..T34 columns")
    if T_cols and len(T_cols) != 12:
        missing = next(name for name in T_COLUMNS if name not in T_cols)
        _fail(path, lineno, None, missing,
              f"transform columns are incomplete: {missing!r} is missing")
    nq = len(groups["q"])
    cols = {}
    for prefix, got in groups.items():
        if not got:
            continue
        want = nq if nq else None
        if prefix != "q" and not nq:
            first = min(got)
            _fail(path, lineno, got[first] + 1, f"{prefix}{first}",
                  f"{prefix} columns need q columns")
        for j in range(1, (want or 0) + 1):
            if j not in got:
                _fail(path, lineno, None, f"{prefix}{j}",
                      f"column {prefix}{j} is missing: {prefix}1..{prefix}{want} are needed")
        extra = [j for j in got if j > nq]
        if extra:
            j = min(extra)
            _fail(path, lineno, got[j] + 1, f"{prefix}{j}",
                  f"{prefix}{j} has no matching q{j} column (the file has q1..q{nq})")
        cols[prefix] = [got[j] for j in range(1, nq + 1)]
    if n is not None and nq and nq != n:
        if nq > n:
            _fail(path, lineno, groups["q"][n + 1] + 1, f"q{n + 1}",
                  f"expected {n} joints (q1..q{n}), the file has {nq} (q1..q{nq})")
        _fail(path, lineno, None, f"q{n}", f"expected {n} joints (q1..q{n}), the file has "
              f"only {nq} (q1..q{nq})")
    if n is not None and not nq:
        _fail(path, lineno, None, None, f"expected {n} joint columns q1..q{n}, the file has none")
    T_list = [T_cols[name] for name in T_COLUMNS] if T_cols else None
    return t_col, cols, T_list


def _parse_rows_slowly(path, lines: list[str], linenos: list[int], width: int, header: list[str]):
    """Cell-by-cell parse that names the first bad cell (used only when the fast parse fails)."""
    for text, lineno in zip(lines, linenos, strict=True):
        cells = text.split(",")
        if len(cells) != width:
            col = min(len(cells), width) + 1
            name = header[col - 1].strip() if col <= width else None
            _fail(path, lineno, col, name,
                  f"row has {len(cells)} cells but the header has {width} columns")
        for c, cell in enumerate(cells):
            s = cell.strip()
            try:
                float(s)
            except ValueError:
                what = "empty cell" if not s else f"non-numeric value {s!r}"
                _fail(path, lineno, c + 1, header[c].strip(), what)
    # fast and slow parsers disagree only on exotic text; report it plainly
    _fail(path, linenos[0], None, None, "could not parse the numbers in this file")


#: bounds of the values in a trajectory file, by column group (see docs/bounds.md)
_VALUE_BOUNDS = {"q": bounds.MAX_ANGLE, "qd": 1e9, "qdd": 1e15}


def _check_bounds(path, data: np.ndarray, t_col: int, cols: dict, linenos, header) -> None:
    """Times within +-MAX_TIME with steps of at least MIN_DT, joint values within bounds:
    what the derivatives and the playback need to stay finite."""
    t = data[:, t_col]
    big = np.abs(t) > bounds.MAX_TIME
    if big.any():
        r = int(np.argmax(big))
        _fail(path, linenos[r], t_col + 1, "t", f"time {float(t[r]):g} s is beyond the bound "
              f"of {bounds.MAX_TIME:g} s")
    small = np.diff(t) < bounds.MIN_DT
    if small.any():
        r = int(np.argmax(small)) + 1
        _fail(path, linenos[r], t_col + 1, "t", f"time step {float(t[r] - t[r - 1]):g} s is "
              f"shorter than {bounds.MIN_DT:g} s")
    for prefix, idx in cols.items():
        block = np.abs(data[:, idx])
        over = block > _VALUE_BOUNDS[prefix]
        if over.any():
            r, j = np.argwhere(over)[0]
            c = idx[j]
            _fail(path, linenos[r], c + 1, header[c].strip(),
                  f"value {float(data[r, c]):g} is beyond the bound of "
                  f"{_VALUE_BOUNDS[prefix]:g}")


def read_trajectory_csv(path, n: int | None = None) -> dict:
    """Read and validate a trajectory CSV file.

    Returns a dict with ``t`` (k,), ``q``/``qd``/``qdd`` (k, n) or None, ``T`` (k, 4, 4) or
    None and ``name`` (str). ``n``, when given, is the expected number of joints.
    Raises :class:`TrajectoryFileError` naming the file, line and column on any problem,
    an unreadable file included.
    """
    path = Path(path)
    try:
        text = read_text(path, bounds.MAX_DATA_FILE_BYTES)
    except OSError as exc:
        _fail(path, None, None, None, f"cannot read the file ({exc.strerror or exc})")
    except TextDecodeProblem as exc:
        _fail(path, exc.line, None, None, str(exc))
    text = text.removeprefix("\ufeff")
    name = ""
    header = header_line = None
    data_lines: list[str] = []
    linenos: list[int] = []
    for i, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if header is None:
            if stripped.startswith("#"):
                if stripped.startswith(_NAME_COMMENT) and not name:
                    name = stripped[len(_NAME_COMMENT):].strip()
                continue
            header, header_line = stripped.split(","), i
            try:
                float(header[0])
            except ValueError:
                pass
            else:
                # a number where the column names belong
                _fail(path, i, 1, None, "the header row is missing: the first row must name "
                      "the columns, e.g. 't,q1,q2'")
            continue
        data_lines.append(stripped)
        linenos.append(i)
        if len(data_lines) > bounds.MAX_SAMPLES:
            _fail(path, i, None, None, f"more than {bounds.MAX_SAMPLES} samples; split the "
                  "trajectory or resample it")
    if header is None:
        _fail(path, None, None, None, "the file is empty (no header row)")
    t_col, cols, T_list = _parse_header(path, header_line, header, n)
    if not data_lines:
        _fail(path, header_line + 1, None, None, "no data rows after the header")
    width = len(header)
    try:
        # comments=None: a '#' inside a data row is an error, not a silent truncation
        data = np.loadtxt(data_lines, delimiter=",", dtype=np.float64, ndmin=2, comments=None)
        if data.shape[1] != width:
            raise ValueError("width")
    except ValueError:
        _parse_rows_slowly(path, data_lines, linenos, width, header)
    bad = ~np.isfinite(data)
    if bad.any():
        r, c = np.argwhere(bad)[0]
        _fail(path, linenos[r], c + 1, header[c].strip(),
              f"value {float(data[r, c])!r} is not finite")
    t = data[:, t_col]
    steps = np.diff(t)
    if np.any(steps <= 0):
        r = int(np.argmax(steps <= 0)) + 1
        _fail(path, linenos[r], t_col + 1, "t",
              f"time must be strictly increasing: {float(t[r])!r} follows {float(t[r - 1])!r}")
    _check_bounds(path, data, t_col, cols, linenos, header)
    out = {"t": t, "q": None, "qd": None, "qdd": None, "T": None, "name": name}
    for prefix, idx in cols.items():
        out[prefix] = data[:, idx]
    if T_list is not None:
        k = data.shape[0]
        T = np.zeros((k, 4, 4))
        T[:, :3, :] = data[:, T_list].reshape(k, 3, 4)
        T[:, 3, 3] = 1.0
        R = T[:, :3, :3]
        err = np.abs(np.einsum("kji,kjl->kil", R, R) - np.eye(3)).max(axis=(1, 2))
        det = np.linalg.det(R)
        badrot = (err > _ROTATION_TOL) | (det <= 0)
        if badrot.any():
            r = int(np.argmax(badrot))
            c = T_list[0]
            _fail(path, linenos[r], c + 1, "T11",
                  f"T11..T33 are not a rotation matrix (|R^T R - I| = {err[r]:.3g}, "
                  f"det = {det[r]:.3g})")
        out["T"] = T
    return out
