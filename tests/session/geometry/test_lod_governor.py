"""The level governor: the heaviest light level whose paint fits the frame, from the
paint times measured (a model: scale x (fixed + per triangle))."""

from __future__ import annotations

import math

import pytest

from robogui.session.geometry.lod_governor import PAINT_SHARE, LevelGovernor

LEVELS = [18_000, 6_000, 2_000]  # triangles per light level, heaviest first


def governor(**kw) -> LevelGovernor:
    # the model: 12 ms + 1.2 us a triangle; 25 ms to paint in
    return LevelGovernor(LEVELS, 25.0, frame_ms=12.0, triangle_us=1.2, **kw)


def test_the_heaviest_level_first_then_the_one_the_measured_frames_allow():
    g = governor(smoothing=1.0)
    assert g.level == 0 and g.predict_ms(0) is None
    # the 18k level painted in 33.6 ms, the model's own figure: scale 1;
    # 6k: 12 + 7.2 = 19.2 ms fits 25 ms
    assert g.record(0, 33.6) == 1
    assert g.scale == pytest.approx(1.0)
    assert g.predict_ms(1) == pytest.approx(19.2)
    # a machine twice as slow: 6k predicted 38.4, 2k 28.8 ms: none fits, the lightest
    assert g.record(1, 38.4) == 2
    assert g.scale == pytest.approx(2.0)
    # fast again (scale 0.5): the heaviest fits (16.8 ms <= 0.85 x 25 for a step up)
    assert g.record(2, 0.5 * 14.4) == 0


def test_a_step_up_needs_headroom_so_frames_near_the_target_do_not_flicker():
    g = governor(smoothing=1.0)
    g.record(0, 40.0)  # scale 40 / 33.6 = 1.19: 6k predicted 22.9 ms: level 1
    assert g.level == 1
    # scale such that the heaviest level is predicted at 24 ms: within the target but not
    # within 0.85 of it: the governor stays at level 1
    s = 24.0 / 33.6
    assert g.record(1, s * 19.2) == 1
    s = 20.0 / 33.6  # 20 ms <= 21.25 ms: up
    assert g.record(1, s * 19.2) == 0
    # at level 0, the same 24 ms prediction keeps it there (no headroom to stay)
    assert g.record(0, 24.0) == 0


def test_measurements_are_smoothed_and_bad_times_ignored():
    g = governor(smoothing=0.5)
    g.record(0, 33.6)
    g.record(0, 3 * 33.6)  # one slow frame: scale (1 + 3) / 2 = 2
    assert g.scale == pytest.approx(2.0)
    for bad in (math.nan, math.inf, 0.0, -5.0):
        assert g.record(g.level, bad) == g.level
    assert g.scale == pytest.approx(2.0)
    g.reset()
    assert g.level == 0 and g.scale is None


def test_the_default_target_is_the_paint_share_of_a_30_fps_frame():
    g = LevelGovernor(LEVELS)
    assert g.target_ms == pytest.approx(PAINT_SHARE * 1000.0 / 30.0)


@pytest.mark.parametrize("kw", [dict(triangles=[]), dict(triangles=[100, 200]),
                                dict(triangles=[-1]), dict(triangles=[10], target_ms=0),
                                dict(triangles=[10], headroom=1.5),
                                dict(triangles=[10], smoothing=0.0)])
def test_bad_arguments_are_refused(kw):
    with pytest.raises(ValueError):
        LevelGovernor(**kw)


def test_a_level_out_of_range_is_refused():
    with pytest.raises(ValueError, match="level"):
        governor().record(3, 10.0)
