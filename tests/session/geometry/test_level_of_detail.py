"""The level-of-detail rule without Qt (issue 27, Speed): the software-GL triangle budget
from a frame's cost, which scenes need a light copy, and the light copy itself (the UR5
of example-robot-data: same meshes, frames and silhouettes, about the budget's triangles)."""

from __future__ import annotations

import numpy as np
import pytest

from robogui.io.robotfile import load_robot
from robogui.session.geometry import level_of_detail as lod
from robogui.session.geometry.visual_cache import load_visuals
from tests.urdf_files import UR5


def test_the_budget_is_what_is_left_of_the_frame_at_the_cost_of_a_triangle():
    # 30 fps: 33.33 ms; 12 ms fixed; 21.33 ms at 1.2 us a triangle: 17,777 triangles
    assert lod.triangle_budget(30, 12.0, 1.2) == 17_777
    assert lod.triangle_budget(60, 10.0, 0.5) == 13_333  # (16.67 - 10) ms / 0.5 us
    # the module's measured constants are the defaults
    assert lod.triangle_budget() == lod.triangle_budget(
        lod.TARGET_FPS, lod.SOFTWARE_FRAME_MS, lod.SOFTWARE_TRIANGLE_US)
    # a frame whose fixed part alone misses the rate still draws each mesh's least
    assert lod.triangle_budget(100, 12.0, 1.2) == lod.MIN_FACES
    for bad in ((0, 12.0, 1.2), (30, -1.0, 1.2), (30, 12.0, 0.0), (float("nan"), 1, 1)):
        with pytest.raises(ValueError):
            lod.triangle_budget(*bad)


def test_only_a_scene_over_the_budget_gets_a_light_copy(monkeypatch):
    b = lod.triangle_budget()
    assert lod.needs_light(b + 1) and not lod.needs_light(b)
    assert lod.light_budget(95_672) == b
    assert lod.light_budget(5_000) is None
    assert lod.light_budget(5_000, budget=4_000) == 4_000
    assert lod.request_light(None, 5_000) is None  # within the budget: no work started
    monkeypatch.setattr(lod, "ENABLED", False)  # the rule off: never light
    assert lod.light_budget(10**7) is None


def test_the_light_copy_of_the_ur5_keeps_its_meshes_frames_and_silhouettes():
    robot = load_robot(UR5)
    full = load_visuals(robot)
    assert full.faces == 95_672  # the UR5's DAE files at full resolution
    budget = lod.triangle_budget()
    future = lod.request_light(robot, full.faces, meshes=len(full.meshes))  # off-thread
    levels = future.result(timeout=300)
    light = levels[0]
    assert light.faces <= 1.15 * budget < full.faces / 4
    # the lighter levels: each clearly lighter than the one before, every mesh kept
    assert len(levels) == len(lod.light_budgets(full.faces, meshes=len(full.meshes))) == 3
    for a, b in zip(levels, levels[1:], strict=False):
        assert b.faces <= 0.8 * a.faces and len(b.meshes) == len(a.meshes)
    assert [(m.frame, m.link) for m in light.meshes] == [(m.frame, m.link)
                                                         for m in full.meshes]
    for a, b in zip(full.meshes, light.meshes, strict=True):
        assert min(len(a.faces), lod.MIN_FACES) <= len(b.faces) <= len(a.faces)
        # the outline stays: the vertices inside the full part's box grown by 2 % of its
        # size but for a few (quadric collapse places some on a curved part up to 8 %
        # outside: the UR5's upper arm and wrists), every one within 10 %
        size = float(np.linalg.norm(np.ptp(a.vertices, axis=0)))
        out = np.maximum(a.vertices.min(0) - b.vertices,
                         b.vertices - a.vertices.max(0)).max(axis=1) / size
        assert (out <= 0.02).mean() >= 0.97 and out.max() <= 0.10
        # shaded as the full mesh: unit normals, the materials' colours
        np.testing.assert_allclose(np.linalg.norm(b.normals, axis=1), 1.0, atol=1e-4)
        assert set(map(tuple, np.round(b.colors, 4))) <= set(map(tuple, np.round(a.colors, 4)))
    # made once: asked again, the cache answers with the same arrays
    again = lod.light_visuals(robot, budget)
    assert all(x.faces is y.faces for x, y in zip(again.meshes, light.meshes, strict=True))


def test_light_budgets_go_down_by_the_level_ratio_to_what_the_meshes_can_give():
    b = lod.triangle_budget()
    assert lod.light_budgets(95_672, meshes=7) == [b, int(b / 3), int(int(b / 3) / 3)]
    # 20 meshes of at least 200 triangles: nothing under 4,000 (the last level there)
    assert lod.light_budgets(95_672, meshes=20) == [b, int(b / 3), 4_000]
    assert lod.light_budgets(95_672, meshes=40) == [b, 8_000]
    assert lod.light_budgets(95_672, meshes=80) == [b]  # 16,000: not clearly lighter
    assert lod.light_budgets(5_000) == []  # within the budget: none
