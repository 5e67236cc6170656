"""The min/max envelope that hands plots screen-resolution data (Qt-free)."""

import numpy as np
import pytest

from robogui.engine.trajectory.trajectory import Trajectory
from robogui.io.robotfile import load_robot
from robogui.session.motion.analysis import TrajectoryAnalysis
from robogui.session.motion.envelope import (
    ENVELOPE_COLUMNS,
    analysis_envelopes,
    minmax_envelope,
    visible_envelope,
)


def _columns(k: int, columns: int) -> list[slice]:
    per = -(-k // columns)
    return [slice(s, min(s + per, k)) for s in range(0, k, per)]


def test_every_column_keeps_its_extremes_exactly():
    rng = np.random.default_rng(3)
    k, cols = 1_000_003, 1000  # not a multiple: the last column is shorter
    x = np.linspace(0.0, 1000.0, k)
    y = np.column_stack([np.sin(x) + 0.1 * rng.standard_normal(k), rng.standard_normal(k)])
    y[500_000, 1] = 25.0  # a single-sample spike must survive
    xe, ye = minmax_envelope(x, y, cols)
    runs = _columns(k, cols)
    assert xe.shape == ye.shape == (2 * len(runs), 2)
    assert len(runs) <= cols
    full_min = np.array([y[r].min(axis=0) for r in runs])
    full_max = np.array([y[r].max(axis=0) for r in runs])
    pairs = ye.reshape(len(runs), 2, 2)
    np.testing.assert_array_equal(pairs.min(axis=1), full_min)
    np.testing.assert_array_equal(pairs.max(axis=1), full_max)
    assert ye[:, 1].max() == 25.0 and ye.min() == y.min()
    # every kept point is a real sample at its own time, in time order
    for j in range(2):
        idx = np.searchsorted(x, xe[:, j])
        np.testing.assert_array_equal(x[idx], xe[:, j])
        np.testing.assert_array_equal(y[idx, j], ye[:, j])
        assert np.all(np.diff(xe[:, j]) >= 0)


def test_short_curves_are_returned_whole_and_1d_stays_1d():
    x = np.arange(10.0)
    xe, ye = minmax_envelope(x, x**2, 100)
    np.testing.assert_array_equal(xe, x)
    np.testing.assert_array_equal(ye, x**2)
    xe, ye = minmax_envelope(np.arange(5000.0), np.arange(5000.0), 100)
    assert xe.shape == ye.shape == (200,)
    assert ye[0] == 0.0 and ye[-1] == 4999.0


def test_nan_columns_stay_gaps_and_nan_samples_are_skipped():
    x = np.arange(1000.0)
    y = x.copy()
    y[0:10] = np.nan  # column 0: all NaN
    y[15] = np.nan  # column 1: one NaN
    xe, ye = minmax_envelope(x, y, 100)
    assert np.isnan(ye[0:2]).all()
    assert ye[2] == 10.0 and ye[3] == 19.0


def test_visible_envelope_covers_the_view_at_full_detail():
    k = 1_000_000
    x = np.linspace(0.0, 1000.0, k)
    y = np.sin(x)
    xe, ye = visible_envelope(x, y, 100.0, 101.0, columns=2048)
    # 1 s of 1000 samples: fewer than 2 per column, so the samples themselves
    assert xe[0] <= 100.0 and xe[-1] >= 101.0
    assert len(xe) <= 1003
    np.testing.assert_array_equal(ye, np.sin(xe))


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match="same k"):
        minmax_envelope(np.arange(3.0), np.arange(4.0))


def test_analysis_envelopes_hold_two_points_per_column_of_a_long_trajectory():
    robot = load_robot("puma560")
    k = 200_000
    t = np.linspace(0.0, 200.0, k)
    q = robot.pose("qz") + np.outer(np.sin(t), np.ones(6)) * 0.5
    a = TrajectoryAnalysis.compute(robot, Trajectory(t, q))
    env = analysis_envelopes(a)
    assert analysis_envelopes(a) is env  # computed once
    assert {"q", "qd", "qdd", "tau", "tau_gravity", "yoshikawa", "condition"} <= set(env)
    for name, (xe, ye) in env.items():
        assert len(xe) <= 2 * ENVELOPE_COLUMNS, name
        full = getattr(a, name)
        np.testing.assert_array_equal(np.nanmax(ye, axis=0), np.nanmax(full, axis=0))
        np.testing.assert_array_equal(np.nanmin(ye, axis=0), np.nanmin(full, axis=0))
