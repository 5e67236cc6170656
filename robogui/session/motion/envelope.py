"""Curves reduced to screen resolution by a min/max envelope (Qt-free).

A plot of a 1,000,000-sample trajectory shows at most a few thousand pixel columns.
Handing pyqtgraph all the samples made the plot panels spend over a second on the GUI
thread per new trajectory (its own downsampling runs there). :func:`minmax_envelope`
keeps, for each of ``columns`` equal runs of samples, the sample with the smallest and
the one with the largest value, in their time order: the line drawn through them
reaches every extreme the full curve reaches in that column, so it looks the same on
screen, with at most 2 points per column. :func:`analysis_envelopes` does it for every
curve of a :class:`~robogui.session.motion.analysis.TrajectoryAnalysis`, off the GUI thread.
"""

from __future__ import annotations

import weakref

import numpy as np

__all__ = ["minmax_envelope", "visible_envelope", "analysis_envelopes", "ENVELOPE_COLUMNS",
           "ENVELOPE_FIELDS"]

#: pixel columns of the widest plot a screen shows (a 4K monitor is 3840 wide; a plot in a
#: dock is far narrower, and pyqtgraph thins further what falls in one pixel)
ENVELOPE_COLUMNS = 2048

#: the (k,) or (k, n) arrays of a TrajectoryAnalysis that the plot panels draw
ENVELOPE_FIELDS = ("q", "qd", "qdd", "tau", "tau_gravity", "tau_inertial", "tau_coriolis",
                   "tau_friction", "yoshikawa", "condition", "asada")


def minmax_envelope(x: np.ndarray, y: np.ndarray,
                    columns: int = ENVELOPE_COLUMNS) -> tuple[np.ndarray, np.ndarray]:
    """The min/max envelope of the curve(s) ``y`` over ``x`` in ``columns`` runs of samples.

    ``x`` (k,) increasing (time, s); ``y`` (k,) or (k, m), any unit (returned unchanged).
    Returns ``(xe, ye)``: for k <= 2 * columns the data itself (copies, ``xe`` broadcast to
    ``ye``'s shape); otherwise ``xe`` and ``ye`` of shape (2 * columns,) or
    (2 * columns, m), per column the smallest and the largest sample of each curve in
    time order, with their own ``x``. So ``ye[2c:2c+2].min() == y[run c].min()`` and the
    same for the max. NaN samples are skipped (a column of only NaN gives NaN). One numpy
    pass over the samples, no Python loop.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    flat = y.ndim == 1
    y2 = y[:, None] if flat else y
    if y2.ndim != 2 or x.ndim != 1 or len(x) != len(y2):
        raise ValueError(f"x must be (k,) and y (k,) or (k, m) with the same k; got x "
                         f"{x.shape}, y {y.shape}")
    if columns < 1:
        raise ValueError(f"columns must be >= 1, got {columns}")
    k, m = y2.shape
    if k <= 2 * columns:
        xe, ye = np.repeat(x[:, None], m, axis=1), y2.copy()
    else:
        per = -(-k // columns)  # samples per column (the last column may be shorter)
        cols = -(-k // per)
        # the last, shorter run is padded with its own last sample: no new extreme
        idx = np.minimum(np.arange(cols * per), k - 1).reshape(cols, per)
        block = y2[idx]  # (cols, per, m)
        nan = np.isnan(block)
        if nan.any():
            lo = np.nanargmin(np.where(nan.all(axis=1, keepdims=True), 0.0, block), axis=1)
            hi = np.nanargmax(np.where(nan.all(axis=1, keepdims=True), 0.0, block), axis=1)
        else:
            lo, hi = block.argmin(axis=1), block.argmax(axis=1)  # (cols, m)
        first, second = np.minimum(lo, hi), np.maximum(lo, hi)  # time order in the column
        base = (np.arange(cols) * per)[:, None]
        order = np.stack([base + first, base + second], axis=1).reshape(2 * cols, m)
        order = np.minimum(order, k - 1)
        xe = x[order]
        ye = np.take_along_axis(y2, order, axis=0)
        if nan.any():  # columns of only NaN stay NaN (a gap in the line, as in the data)
            allnan = np.repeat(nan.all(axis=1), 2, axis=0)
            ye[allnan] = np.nan
    if flat:
        return xe[:, 0], ye[:, 0]
    return xe, ye


def visible_envelope(x: np.ndarray, y: np.ndarray, x0: float, x1: float,
                     columns: int = ENVELOPE_COLUMNS) -> tuple[np.ndarray, np.ndarray]:
    """The envelope of the part of ``y`` (k,) between ``x0`` and ``x1`` (plus one sample
    on each side, so the line runs to the plot's edges); cost grows with the samples in
    view, not with k. For re-drawing a zoomed plot at full detail."""
    x = np.asarray(x, dtype=float)
    i0 = max(int(np.searchsorted(x, x0, side="left")) - 1, 0)
    i1 = min(int(np.searchsorted(x, x1, side="right")) + 1, len(x))
    return minmax_envelope(x[i0:i1], np.asarray(y)[i0:i1], columns)


# analysis -> its envelopes: computed once (by the analysis worker thread), read by every
# panel; dropped with the analysis
_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def analysis_envelopes(analysis) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Field name -> ``(xe, ye)`` envelope (see :func:`minmax_envelope`) of every curve
    array of ``analysis`` in :data:`ENVELOPE_FIELDS` that is not None, in SI units (a
    panel scales ``ye`` to its display unit: a positive factor keeps the envelope).

    Computed once per analysis and kept while the analysis lives: the analysis worker
    calls it off the GUI thread, the panels then only read.
    """
    out = _CACHE.get(analysis)
    if out is None:
        out = {}
        for name in ENVELOPE_FIELDS:
            values = getattr(analysis, name, None)
            if values is not None:
                out[name] = minmax_envelope(analysis.t, values, ENVELOPE_COLUMNS)
        _CACHE[analysis] = out
    return out
