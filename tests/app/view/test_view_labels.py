"""Words over the 3D view: grid values never overprint each other or the robot's name."""

from __future__ import annotations

import itertools


def _overlaps(rects):
    return [(a, b) for (a, ra), (b, rb) in itertools.combinations(rects, 2)
            if ra.intersects(rb)]


def test_grid_values_that_would_overlap_are_left_out(qtbot, window, session):
    labels = window.view_tools.labels
    scene = window.view.scene
    window.resize(1600, 1000)
    window.view.grab_array()  # one paint: what the overlay wrote
    roomy = [t for t, _ in labels.drawn if t[:2] in ("x ", "y ")]
    assert len(roomy) >= 6  # a roomy view shows the values
    assert not _overlaps(labels.drawn)
    # presentation mode's large letters in the small Analyse view, 1280x720: values that
    # would run into each other or into the robot's name are dropped, the rest are written
    window.teaching.presentation.set_enabled(True)
    window.resize(1280, 720)
    window.tasks.switch("analyse")
    qtbot.wait(100)
    window.view.grab_array()
    crowded = [t for t, _ in labels.drawn if t[:2] in ("x ", "y ")]
    assert 0 < len(crowded) < len(roomy)
    assert not _overlaps(labels.drawn)
    name = [r for r in scene.label_rects]
    assert name and not any(r.intersects(n) for _, r in labels.drawn for n in name)
    # the triad's letters are never dropped
    assert {"x", "y", "z"} <= {t for t, _ in labels.drawn}
    window.teaching.presentation.set_enabled(False)
