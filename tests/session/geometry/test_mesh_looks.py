"""Meshes as their makers meant them (issue 27 item 3): crease-angle normals against the
analytic normals of a cylinder, a box and a sphere; quadric decimation that keeps the
shape; COLLADA ambient and specular terms as the files give them; base-colour textures
sampled at the UVs."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh

from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.engine.model.visual import Visual
from robogui.io.ros.urdf import load_urdf
from robogui.session.geometry.mesh_looks import (
    crease_normals,
    one_sided,
    quadric_decimate,
    vertex_cluster,
    weld,
)
from robogui.session.geometry.visual_meshes import FACE_BUDGET, load_visuals
from tests.urdf_files import ERD, PANDA

UR3 = ERD / "ur_description/urdf/ur3_robot.urdf"
ANYMAL = ERD / "anymal_c_simple_description/urdf/anymal.urdf"


def _unwelded(m):
    """Every face with its own three vertices, as STL files come."""
    v = np.asarray(m.vertices)[np.asarray(m.faces)].reshape(-1, 3)
    return v, np.arange(len(v)).reshape(-1, 3)


def test_a_cylinder_is_smooth_around_and_sharp_at_its_caps():
    m = trimesh.creation.cylinder(radius=0.1, height=0.4, sections=48)
    v, f = _unwelded(m)
    src, n, faces = crease_normals(v, f, attrs=np.zeros((len(v), 1)))
    p = v[src]
    assert len(src) == 48 * 2 + 2 * (48 + 1)  # side rings (smooth), caps (own normals)
    tri_n = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    side = np.abs(tri_n[:, 2]) < 1e-9 * np.linalg.norm(tri_n, axis=1).max()
    on_side = np.unique(faces[side])
    # the side: the radial direction (the mean of two faces at +-pi/48 about it is exact)
    radial = p[on_side, :2] / np.linalg.norm(p[on_side, :2], axis=1, keepdims=True)
    np.testing.assert_allclose(n[on_side, :2], radial, atol=1e-6)
    np.testing.assert_allclose(n[on_side, 2], 0.0, atol=1e-6)
    # the caps: straight up or down (the 90 degree rim stays sharp)
    on_cap = np.unique(faces[~side])
    np.testing.assert_allclose(np.abs(n[on_cap, 2]), 1.0, atol=1e-6)
    np.testing.assert_allclose(np.sign(n[on_cap, 2]), np.sign(p[on_cap, 2]))


def test_a_box_keeps_its_faces_flat():
    v, f = _unwelded(trimesh.creation.box(extents=(1.0, 2.0, 3.0)))
    src, n, faces = crease_normals(v, f, attrs=np.zeros((len(v), 1)))
    assert len(src) == 24  # 8 corners x 3 faces meeting at 90 degrees
    np.testing.assert_allclose(np.sort(np.abs(n), axis=1), np.tile([0, 0, 1.0], (24, 1)),
                               atol=1e-12)
    tri_n = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    tri_n /= np.linalg.norm(tri_n, axis=1, keepdims=True)
    for k in range(3):  # every corner carries its own face's normal
        np.testing.assert_allclose(n[faces[:, k]], tri_n, atol=1e-12)


def test_a_sphere_is_smooth_everywhere():
    m = trimesh.creation.icosphere(subdivisions=3, radius=2.0)
    v, f = _unwelded(m)
    src, n, _faces = crease_normals(v, f, attrs=np.zeros((len(v), 1)))
    assert len(src) == len(m.vertices)  # welded back: one normal per point
    np.testing.assert_allclose(n, v[src] / 2.0, atol=0.01)


def test_quadric_decimation_keeps_a_sphere_round():
    m = trimesh.creation.icosphere(subdivisions=5, radius=1.0)  # 20,480 faces
    v, f = _unwelded(m)
    nv, nf, src = quadric_decimate(v, f, 800)
    assert 700 <= len(nf) <= 800
    np.testing.assert_allclose(np.linalg.norm(nv, axis=1), 1.0, atol=0.01)
    # src: the nearest original vertex (the material it takes)
    d = np.linalg.norm(v[src] - nv, axis=1)
    assert d.max() < 0.05


def test_vertex_clustering_keeps_a_sphere_round_closed_and_outward():
    sphere = trimesh.creation.icosphere(subdivisions=5, radius=0.1)  # 20,480 faces
    v, f = vertex_cluster(sphere.vertices, sphere.faces, 500)
    assert 250 <= len(f) <= 500
    r = np.linalg.norm(v, axis=1)
    assert r.max() <= 0.1 + 1e-12 and r.min() >= 0.09  # cell means: just inside
    m = trimesh.Trimesh(v, f, process=False)
    assert m.volume == pytest.approx(sphere.volume, rel=0.08)  # > 0: faces still outward
    assert len(np.unique(np.sort(f, axis=1), axis=0)) == len(f)  # no repeated face


def test_a_stalled_collapse_goes_on_by_clustering(monkeypatch):
    # the UR5's shoulder: fast_simplification stops at 3,538 faces whatever it is asked
    import fast_simplification

    from robogui.session.geometry import mesh_files

    path = str(ERD / "ur_description/meshes/ur5/visual/shoulder.dae")
    verts, faces, _c, _n = mesh_files.read_looks(path, (str(ERD),))
    calls = []
    simplify = fast_simplification.simplify

    def counted(*args, **kwargs):
        out = simplify(*args, **kwargs)
        calls.append(len(out[1]))
        return out

    monkeypatch.setattr(fast_simplification, "simplify", counted)
    v, f, src = quadric_decimate(verts, faces, 1000)
    assert 500 <= len(f) <= 1000 and len(src) == len(v)
    # one collapse, stalled: asking again for fewer faces would stop there again
    assert calls == [3538]
    # the outline stays as the light copies' test has it (test_level_of_detail): inside
    # the full part's box grown by 2 % of its size but for a few, all within 10 %
    size = float(np.linalg.norm(np.ptp(verts, axis=0)))
    out = np.maximum(verts.min(0) - v, v - verts.max(0)).max(axis=1) / size
    assert (out <= 0.02).mean() >= 0.97 and out.max() <= 0.10


def test_the_panda_stays_whole_and_past_a_budget_keeps_its_outline():
    robot = load_urdf(PANDA, tip="panda_hand")
    full = load_visuals(robot)  # the default budget: the Panda whole
    assert 130_000 < full.faces <= FACE_BUDGET
    assert full.faces == load_visuals(robot, budget=10**9).faces
    vs = load_visuals(robot, budget=60_000)
    assert 55_000 < vs.faces <= 60_000 and not vs.warnings
    for a, b in zip(full.meshes, vs.meshes, strict=True):
        # quadric collapse keeps each link's box to a millimetre or two
        np.testing.assert_allclose(b.vertices.min(0), a.vertices.min(0), atol=2e-3)
        np.testing.assert_allclose(b.vertices.max(0), a.vertices.max(0), atol=2e-3)
        assert b.normals.shape == b.vertices.shape  # unit normals, one per vertex
        np.testing.assert_allclose(np.linalg.norm(b.normals, axis=1), 1.0, atol=1e-5)


def test_the_ur3_keeps_its_full_resolution():
    robot = load_urdf(UR3)
    vs = load_visuals(robot)
    assert 60_000 < vs.faces <= FACE_BUDGET  # under the budget: nothing decimated
    assert vs.faces == load_visuals(robot, budget=10**9).faces


def test_ur3_dae_ambient_and_specular_terms_as_the_file_gives_them():
    """The UR3's upper arm: effect "blau" is diffuse (0.25088, 0.34752, 0.4096),
    ambient 0.5 grey, specular 0.03125 grey (upperarm.dae)."""
    vs = load_visuals(load_urdf(UR3))
    arm = [m for m in vs.meshes if m.link == "upper_arm_link"]
    assert arm
    cols = np.vstack([m.colors for m in arm])
    blue = np.all(np.abs(cols[:, :3] - [0.25088, 0.34752, 0.4096]) < 2.5 / 255, axis=1)
    assert blue.any()
    amb = np.vstack([m.ambient for m in arm])
    spec = np.vstack([m.specular for m in arm])
    np.testing.assert_allclose(amb[blue], 0.5, atol=1e-6)
    np.testing.assert_allclose(spec[blue], 0.03125, atol=1e-6)


def test_a_texture_is_sampled_at_the_uvs(tmp_path):
    from PIL import Image

    img = np.zeros((8, 8, 3), np.uint8)
    img[:, :4] = (255, 0, 0)  # left half red
    img[:, 4:] = (0, 0, 255)  # right half blue
    img[:4, :4] = (0, 255, 0)  # top-left quarter green (v near 1 is the top row)
    Image.fromarray(img).save(tmp_path / "tex.png")
    (tmp_path / "quad.mtl").write_text("newmtl m\nKd 1 1 1\nmap_Kd tex.png\n")
    (tmp_path / "quad.obj").write_text(
        "mtllib quad.mtl\nusemtl m\n"
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
        "vt 0.25 0.25\nvt 0.75 0.25\nvt 0.75 0.75\nvt 0.25 0.75\n"
        "f 1/1 2/2 3/3\nf 1/1 3/3 4/4\n")
    robot = Robot([Link()], visuals=[Visual(1, "mesh", np.eye(4),
                                            filename=str(tmp_path / "quad.obj"),
                                            roots=(str(tmp_path),), link="plate")])
    (m,) = load_visuals(robot).meshes
    by_corner = {tuple(np.round(p[:2], 3)): c[:3] for p, c in zip(m.vertices, m.colors,
                                                                    strict=True)}
    np.testing.assert_allclose(by_corner[(0.0, 0.0)], [1, 0, 0], atol=1e-6)  # u .25 v .25
    np.testing.assert_allclose(by_corner[(1.0, 0.0)], [0, 0, 1], atol=1e-6)  # u .75
    np.testing.assert_allclose(by_corner[(1.0, 1.0)], [0, 0, 1], atol=1e-6)
    np.testing.assert_allclose(by_corner[(0.0, 1.0)], [0, 1, 0], atol=1e-6)  # v .75: top


@pytest.mark.skipif(not ANYMAL.exists(), reason="example-robot-data without ANYmal C")
def test_a_real_textured_dae_gets_its_texture_colours():
    robot = load_urdf(ANYMAL, tip="LF_FOOT")
    vs = load_visuals(robot)
    thigh = [m for m in vs.meshes if m.link == "LF_thigh_fixed"]
    assert thigh
    cols = np.vstack([m.colors for m in thigh])[:, :3]
    # a painted link: several colours, not the one grey of an untextured mesh
    assert cols.std(axis=0).max() > 0.05
    assert len(np.unique(np.round(cols, 2), axis=0)) > 20


def _two_sided(mesh: trimesh.Trimesh, inner_first: bool):
    """``mesh`` with each triangle twice, once per side, each copy on its own vertices
    (as an STL export writes a two-sided surface): the outer copies green, the inner
    red; the inner copies first or second."""
    v = np.asarray(mesh.vertices, float)
    f = np.asarray(mesh.faces)
    n = len(v)
    outer, inner = f, f[:, ::-1] + n
    faces = np.vstack([inner, outer] if inner_first else [outer, inner])
    colors = np.vstack([np.tile([0.0, 1.0, 0.0], (n, 1)), np.tile([1.0, 0.0, 0.0], (n, 1))])
    return np.vstack([v, v]), faces, colors


def _wound_alike(faces: np.ndarray) -> bool:
    """Whether every edge of two faces is run once each way (manifold, consistent)."""
    e = np.asarray(faces)[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
    return len(np.unique(e, axis=0)) == len(e) and set(map(tuple, e)) == set(
        map(tuple, e[:, ::-1]))


@pytest.mark.parametrize("inner_first", [True, False])
def test_a_two_sided_surface_keeps_its_outer_side_once(inner_first):
    ball = trimesh.creation.icosphere(subdivisions=2, radius=0.1)
    v, f, c = _two_sided(ball, inner_first)
    # the two sides of every triangle lie on one another: one of each is kept
    kept = one_sided(v, f)
    assert len(kept) == len(ball.faces)
    # the outer copies, with their colour: the volume is the ball's, not its negative
    assert (c[kept.ravel()] == [0.0, 1.0, 0.0]).all()
    assert trimesh.Trimesh(v, kept, process=False).volume == pytest.approx(ball.volume)
    assert _wound_alike(kept)


def test_a_mesh_without_repeated_triangles_is_left_as_it_is():
    box = trimesh.creation.box(extents=(0.2, 0.1, 0.05))
    f = np.asarray(box.faces)
    assert one_sided(box.vertices, f) is f


def test_one_sided_turns_pieces_outward_across_a_fin():
    # two two-sided boxes and a two-sided fin sharing an edge with one of them: the fin's
    # third face at that edge must not join the box's two windings
    a = trimesh.creation.box(extents=(0.2, 0.2, 0.2))
    b = trimesh.creation.box(extents=(0.1, 0.1, 0.1))
    b.apply_translation((0.5, 0.0, 0.0))
    corner = a.vertices[a.faces[0]]
    fin = trimesh.Trimesh(np.vstack([corner[:2], corner[0] + (0.0, 0.0, 0.3)]),
                          [[0, 1, 2]], process=False)
    v1, f1, _ = _two_sided(a, True)
    v2, f2, _ = _two_sided(b, False)
    v3, f3, _ = _two_sided(fin, True)
    v = np.vstack([v1, v2, v3])
    f = np.vstack([f1, f2 + len(v1), f3 + len(v1) + len(v2)])
    kept = one_sided(v, f)
    assert len(kept) == len(a.faces) + len(b.faces) + 1
    boxes = kept[kept.max(axis=1) < len(v1) + len(v2)]
    vol = trimesh.Trimesh(v, boxes, process=False).volume
    assert vol == pytest.approx(a.volume + b.volume)


def test_the_kr210s_two_sided_meshes_are_drawn_once_outward():
    # rtb-data's KUKA KR 210: every triangle of its links is there twice, once per side;
    # drawn both, the inner side speckles the orange links dark (both at one depth)
    from tests.urdf_files import RTB

    folder = RTB / "kuka_description/kuka_kr210/meshes/kr210l150/visual"
    mesh = trimesh.load(folder / "link_2.dae", force="mesh", process=False)
    verts, faces = np.asarray(mesh.vertices), np.asarray(mesh.faces)
    assert len(faces) == 30004
    kept = one_sided(verts, faces)
    assert len(kept) == len(faces) // 2
    ids = weld(verts)
    # wound alike wherever two faces meet (edges of three or more faces aside), outward
    e = ids[kept][:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
    und, count = np.unique(np.sort(e, axis=1), axis=0, return_counts=True)
    pairs = {tuple(x) for x in und[count == 2]}
    runs = [tuple(x) for x in e if tuple(sorted(x)) in pairs]
    assert len(set(runs)) == len(runs)  # no edge of two faces run the same way twice
    assert trimesh.Trimesh(verts, kept, process=False).volume > 0


def test_a_few_repeated_triangles_leave_the_authors_winding_alone():
    # an open bowl wound towards its inside (as its author meant: the side one looks
    # into), with one triangle repeated: the repeat goes, no triangle is turned over
    ball = trimesh.creation.icosphere(subdivisions=3, radius=0.1)
    bowl = np.asarray(ball.faces)[ball.triangles_center[:, 2] < 0.0][:, ::-1]
    f = np.vstack([bowl, bowl[5][None]])
    kept = one_sided(ball.vertices, f)
    assert len(kept) == len(bowl)

    def wound(faces):  # each face as wound, from its lowest corner
        low = np.argmin(faces, axis=1)[:, None]
        return {tuple(r) for r in np.take_along_axis(faces, (low + np.arange(3)) % 3, 1)}

    assert wound(kept) == wound(bowl)
