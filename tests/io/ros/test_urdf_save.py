"""save_robot(..., ".urdf") keeps the visual geometry: meshes, primitives, colours, and
the geometry that follows an off-chain mimic joint."""

from __future__ import annotations

import numpy as np
import pytest

from robogui.engine.spatial.transforms import transl
from robogui.io.robotfile import load_robot, save_robot


def _drawn(robot, q):
    """Where every visual is drawn at ``q``: (mesh file or kind, world placement)."""
    import os

    from robogui.session.geometry.follow import follow_placements

    F = robot.fkine_all(q)
    follows = [v.follow for v in robot.visuals if v.follow]
    P = iter(follow_placements(robot.full.joint_models, F, follows)) if follows else iter(())
    return [(os.path.realpath(v.filename) if v.kind == "mesh" else v.kind,
             F[v.frame] @ (next(P) if v.follow else np.eye(4)) @ v.matrix, v.rgba)
            for v in robot.visuals]


@pytest.mark.parametrize("tip", [None, "panda_hand"])
def test_saving_a_urdf_robot_keeps_its_meshes_colours_and_the_mimic_finger(tmp_path, tip):
    """example-robot-data's Panda saved and read back: the same meshes, colours and
    placements at any q, the mimic finger included (written back as a mimic joint)."""
    from tests.urdf_files import PANDA

    arm = load_robot(PANDA, tip=tip)
    again = load_robot(save_robot(arm, tmp_path / "panda_again.urdf"))
    assert again.n == arm.n and len(again.visuals) == len(arm.visuals)
    assert sum(bool(v.follow) for v in again.visuals) == sum(bool(v.follow) for v in arm.visuals)
    for seed in range(3):
        q = arm.random_q(seed=seed)
        for (f1, M1, c1), (f2, M2, c2) in zip(_drawn(arm, q), _drawn(again, q), strict=True):
            assert f1 == f2 and c1 == c2
            np.testing.assert_allclose(M2, M1, atol=1e-12)


def test_saved_primitives_and_pinocchio_reads_the_file(tmp_path):
    """Boxes, cylinders and spheres survive the round trip, and Pinocchio parses the
    written file with its geometry."""
    from robogui.engine.model.visual import Visual

    arm = load_robot("puma560")
    vis = (Visual(0, "box", transl(0, 0, 0.1), size=(0.2, 0.3, 0.1), rgba=(1, 0, 0, 1)),
           Visual(3, "cylinder", transl(0.1, 0, 0), size=(0.05, 0.4)),
           Visual(6, "sphere", transl(0, 0, 0.05), size=(0.03,), rgba=(0, 1, 0, 0.5)))
    arm = arm.replace(visuals=vis)
    path = save_robot(arm, tmp_path / "puma_shapes.urdf")
    again = load_robot(path)
    q = arm.random_q(seed=1)
    for (k1, M1, c1), (k2, M2, c2) in zip(_drawn(arm, q), _drawn(again, q), strict=True):
        assert k1 == k2 and c1 == c2
        np.testing.assert_allclose(M2, M1, atol=1e-12)
    sizes = [v.size for v in again.visuals]
    assert sizes == [(0.2, 0.3, 0.1), (0.05, 0.4), (0.03,)]
    import pinocchio as pin
    model = pin.buildModelFromUrdf(str(path))
    geom = pin.buildGeomFromUrdf(model, str(path), pin.GeometryType.VISUAL)
    assert geom.ngeoms == 3
