"""Workspace sampling: engine fkine of random joint states, manipulability, section, CSV."""

from __future__ import annotations

import numpy as np
import pytest

from robogui.engine.kinematics.jacobians import jacob0
from robogui.io.robotfile import load_robot
from robogui.session.explain.workspace import (
    DEFAULT_SAMPLES,
    sample_workspace,
    section_mask,
    write_csv,
)


def test_workspace_points_come_from_engine_and_lie_within_reach():
    puma = load_robot("puma560")
    seen = []
    ws = sample_workspace(puma, seed=3, progress=seen.append)
    assert len(ws) == DEFAULT_SAMPLES >= 100_000
    assert seen[-1] == 1.0 and seen == sorted(seen)
    q = puma.random_q(DEFAULT_SAMPLES, seed=3)
    pick = np.arange(0, DEFAULT_SAMPLES, 997)
    assert np.allclose(ws.points[pick], puma.fkine(q[pick])[:, :3, 3], atol=1e-12)
    # reach: the tool is never farther from the shoulder than the chain's lengths allow
    shoulder = puma.fkine_all(np.zeros(6))[1, :3, 3]
    L = sum(abs(lk.a) + abs(lk.d) for lk in puma.links[1:])
    assert np.linalg.norm(ws.points - shoulder, axis=1).max() <= L + 1e-9
    # manipulability is |det J| of each sampled state
    J = jacob0(puma, q[pick])
    assert np.allclose(ws.manipulability[pick], np.abs(np.linalg.det(J)), rtol=1e-9)


def test_workspace_planar_arm_fills_an_annulus():
    two = load_robot("twolink")
    ws = sample_workspace(two, 20_000, seed=1)
    r = np.linalg.norm(ws.points - two.base[:3, 3], axis=1)
    a1, a2 = two.links[0].a, two.links[1].a
    assert r.max() <= a1 + a2 + 1e-12 and r.min() >= abs(a1 - a2) - 1e-12
    assert r.max() > 0.99 * (a1 + a2)
    # task rows: planar arms get a non-zero manipulability, |a1 a2 sin q2|
    q = two.random_q(20_000, seed=1)
    assert np.allclose(ws.manipulability, np.abs(a1 * a2 * np.sin(q[:, 1])), atol=1e-12)


def test_workspace_cancel_and_bad_arguments(tmp_path):
    puma = load_robot("puma560")
    calls = []
    assert sample_workspace(puma, 50_000, chunk=10_000,
                            cancel=lambda: calls.append(1) or len(calls) > 2) is None
    assert len(calls) == 3
    with pytest.raises(ValueError, match="m \\(number of samples\\)"):
        sample_workspace(puma, 0)
    with pytest.raises(ValueError, match="axis"):
        section_mask(np.zeros((3, 3)), 3, 0.0, 0.1)


def test_workspace_section_and_csv_round_trip(tmp_path):
    puma = load_robot("puma560")
    ws = sample_workspace(puma, 5000, seed=2)
    mask = section_mask(ws.points, 2, 0.3, 0.1)
    assert np.all(np.abs(ws.points[mask, 2] - 0.3) <= 0.05) and 0 < mask.sum() < 5000
    path = write_csv(ws, tmp_path / "ws.csv")
    back = np.loadtxt(path, delimiter=",")
    assert back.shape == (5000, 4)
    assert np.allclose(back[:, :3], ws.points, atol=1e-5)
    assert "x_m,y_m,z_m,manipulability" in path.read_text().splitlines()[1]
    with pytest.raises(OSError, match="workspace CSV"):
        write_csv(ws, tmp_path / "missing" / "ws.csv")
