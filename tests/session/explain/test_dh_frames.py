"""D-H frame annotations: each mark's value, place and text follow the textbook figure."""

from __future__ import annotations

import math

import numpy as np
import pytest

from robogui.engine.spatial.transforms import transl, trotx, trotz
from robogui.io.robotfile import load_robot
from robogui.session.explain.dh_frames import ARC_POINTS, dh_annotations


def _by(marks, link, name):
    return next(m for m in marks if m.link == link and m.name == name)


@pytest.mark.parametrize("name", ["puma560", "stanford", "puma560akb", "panda"])
def test_dh_frames_marks_rebuild_each_link_transform(name):
    """Walking the four marks of link i from frame {i-1} lands on frame {i}: the marks
    are the link transform, factor by factor (independent of the engine's kernels)."""
    robot = load_robot(name)
    q = robot.random_q(seed=5)
    F = robot.fkine_all(q)
    F[-1] = F[-1] @ np.linalg.inv(robot.tool)
    marks = dh_annotations(robot, q, radius=0.05)
    assert len(marks) == 4 * robot.n
    for k, L in enumerate(robot.links):
        d, th = _by(marks, k, "d"), _by(marks, k, "theta")
        a, al = _by(marks, k, "a"), _by(marks, k, "alpha")
        assert th.value == pytest.approx(q[k] + L.offset if L.joint == "R" else L.theta)
        assert d.value == pytest.approx(q[k] + L.offset if L.joint == "P" else L.d)
        assert (a.value, al.value) == (L.a, L.alpha)
        factors = ([trotz(th.value), transl(0, 0, d.value), transl(a.value, 0, 0),
                    trotx(al.value)] if not robot.is_mdh else
                   [trotx(al.value), transl(a.value, 0, 0), trotz(th.value),
                    transl(0, 0, d.value)])
        T = F[k] @ np.linalg.multi_dot(factors)
        assert np.allclose(T, F[k + 1], atol=1e-9)
        # segments: d and a have their lengths; arcs sweep their angles at radius 0.05
        assert np.linalg.norm(d.points[1] - d.points[0]) == pytest.approx(abs(d.value))
        assert np.linalg.norm(a.points[1] - a.points[0]) == pytest.approx(abs(a.value))
        for arc in (th, al):
            assert arc.points.shape == (ARC_POINTS, 3)
            chord = np.linalg.norm(arc.points[-1] - arc.points[0])
            assert chord == pytest.approx(2 * 0.05 * abs(math.sin(arc.value / 2)), abs=1e-9)


def test_dh_frames_standard_marks_sit_on_their_axes_with_their_numbers():
    puma = load_robot("puma560")
    q = np.radians([30, -40, 20, 10, 50, -60])
    F = puma.fkine_all(q)
    marks = dh_annotations(puma, q)
    # d3 = 0.15005 m along z2 from o2; a2 = 0.4318 m along x2 ending at o2
    d3 = _by(marks, 2, "d")
    assert np.allclose(d3.points[0], F[2, :3, 3])
    assert np.allclose(d3.points[1] - d3.points[0], 0.15005 * F[2, :3, 2])
    assert d3.text == "d3 = 0.150 m"
    a2 = _by(marks, 1, "a")
    assert np.allclose(a2.points[1], F[2, :3, 3])
    assert np.allclose(a2.points[1] - a2.points[0], 0.4318 * F[2, :3, 0])
    assert a2.text == "a2 = 0.432 m"
    # theta1 = 30 deg and alpha1 = 90 deg, in degrees by default and radians on request
    assert _by(marks, 0, "theta").text == "\u03b81 = 30.0\u00b0"
    assert _by(marks, 0, "alpha").text == "\u03b11 = 90.0\u00b0"
    rad = dh_annotations(puma, q, angle_unit="rad")
    assert _by(rad, 0, "alpha").text == "\u03b11 = 1.571 rad"
    # theta arc: about z0 from x0 towards x1
    th = _by(marks, 1, "theta")
    v0 = th.points[0] - F[1, :3, 3]  # d2 = 0: the arc is centred on o1
    assert np.allclose(v0 / np.linalg.norm(v0), F[1, :3, 0], atol=1e-9)
    v1 = th.points[-1] - th.points[0]
    assert abs(v1 @ F[1, :3, 2]) < 1e-12  # the arc lies in the plane normal to z1


def test_dh_frames_modified_names_a_and_alpha_by_i_minus_1():
    akb = load_robot("puma560akb")
    marks = dh_annotations(akb, np.zeros(6))
    assert [m.name for m in marks[:4]] == ["alpha", "a", "theta", "d"]
    assert _by(marks, 2, "a").text == f"a2 = {akb.links[2].a:.3f} m"
    assert _by(marks, 1, "alpha").text.startswith("\u03b11 = ")


@pytest.mark.parametrize("name", ["puma560", "puma560akb", "stanford"])
def test_dh_frames_local_marks_placed_by_their_frame_equal_the_world_marks(name):
    from robogui.session.explain.dh_frames import local_marks

    robot = load_robot(name)
    q = robot.random_q(seed=9)
    F = robot.fkine_all(q)
    F[-1] = F[-1] @ np.linalg.inv(robot.tool)
    world = dh_annotations(robot, q, radius=0.07)
    local = local_marks(robot, q, 0.07)
    assert [(m.link, m.name) for m in local] == [(m.link, m.name) for m in world]
    for lm, wm in zip(local, world, strict=True):
        pts = (F[lm.frame] @ np.c_[lm.points, np.ones(len(lm.points))].T).T[:, :3]
        assert np.allclose(pts, wm.points, atol=1e-12)
        # only the joint's own parameter changes shape with q
        assert lm.varies == ((lm.name == "theta") == (robot.links[lm.link].joint == "R")
                             and lm.name in ("theta", "d"))
