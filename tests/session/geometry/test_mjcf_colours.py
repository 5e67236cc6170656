"""MJCF arms draw in MuJoCo's colours (issue 27): the geom's material rgba (else the geom's
rgba) colours every vertex of its mesh; a mesh file's own material never does (robosuite's
Panda names ``.mtl`` files it does not ship, and trimesh's default grey for them drew the
white arm dark grey). The expected colours come from ``mujoco``'s compiled model."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from robogui.io.robotfile import load_robot
from robogui.session.geometry.visual_meshes import load_visuals
from tests.mjcf_files import ARMS

mujoco = pytest.importorskip("mujoco")
pytestmark = pytest.mark.skipif(not ARMS, reason="robosuite / dm_control assets not installed")


def _mujoco_colours(path) -> dict[str, set]:
    """Body name -> the rgba (rounded) MuJoCo draws its drawn geoms in."""
    m = mujoco.MjModel.from_xml_path(str(path))
    visual = (m.geom_contype == 0) & (m.geom_conaffinity == 0)
    drawn = visual if visual.any() else np.ones(m.ngeom, bool)
    out = defaultdict(set)
    for g in np.flatnonzero(drawn):
        mat = m.geom_matid[g]
        rgba = m.mat_rgba[mat] if mat >= 0 else m.geom_rgba[g]
        if rgba[3] > 0 and m.geom_type[g] != mujoco.mjtGeom.mjGEOM_PLANE:
            rgba = np.asarray(rgba, np.float32).astype(float)  # as the view holds it
            out[m.body(m.geom_bodyid[g]).name].add(tuple(np.round(rgba, 3)))
    return out


@pytest.mark.parametrize(("name", "path", "tip"), ARMS, ids=[a[0] for a in ARMS])
def test_every_vertex_has_its_geoms_mujoco_colour(name, path, tip):
    expected = _mujoco_colours(path)
    visuals = load_visuals(load_robot(path))
    assert visuals.warnings == []
    drawn = defaultdict(set)
    for mesh in visuals.meshes:
        drawn[mesh.link] |= {tuple(c) for c in np.round(mesh.colors.astype(float), 3)}
    assert drawn, name
    for link, colours in drawn.items():
        assert colours == expected[link], (name, link)


def test_the_robosuite_panda_is_white_not_trimesh_grey():
    path = next(a[1] for a in ARMS if a[0] == "panda")
    visuals = load_visuals(load_robot(path))
    link1 = [m for m in visuals.meshes if m.link == "link1"]
    assert link1 and all(np.allclose(m.colors, 1.0) for m in link1)
    # trimesh's default material (40/255 grey diffuse) is on no vertex
    every = np.vstack([m.colors for m in visuals.meshes])
    assert not np.isclose(every[:, :3], 40 / 255, atol=2e-3).all(axis=1).any()
    # the whole arm is mostly light: MuJoCo's white and 0.9 grey shells
    assert np.median(every[:, :3].mean(axis=1)) > 0.85
