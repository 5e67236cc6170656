"""The disk cache of processed visual meshes (robogui/session/geometry/mesh_store.py): a hit
gives the arrays of a cold load without parsing, a changed file is parsed again, a corrupt
or hostile entry is ignored and rewritten and never lets a refused file load, the folder
stays within its bound. Every test has its own cache folder (XDG_CACHE_HOME)."""

from __future__ import annotations

import os
import struct

import numpy as np
import pytest
import trimesh

from robogui.engine import mesh_guard
from robogui.engine.limits import limits, set_limits
from robogui.io.robotfile import load_robot
from robogui.session.geometry import mesh_files, mesh_store, visual_meshes

URDF = """<robot name="a">
  <link name="base"/>
  <link name="l1"><visual><geometry><mesh filename="{mesh}" scale="{s} {s} {s}"/>
  </geometry></visual></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(mesh_store.ENV, raising=False)
    _forget_memory()
    yield tmp_path / "xdg" / "robogui" / "meshes"
    _forget_memory()


def _forget_memory():
    """A new process, as far as the caches go (not the worker processes)."""
    for table in (mesh_files._CACHE, visual_meshes._SHADED, mesh_files._MISSED,
                  mesh_guard._READY, mesh_guard._HANDED, mesh_guard._REFUSED):
        table.clear()


def _arm(folder, mesh="link.stl", scale=1.0, shape=None):
    shape = shape or trimesh.creation.cylinder(radius=0.05, height=0.3, sections=24)
    shape.export(folder / mesh)
    (folder / "arm.urdf").write_text(URDF.format(mesh=mesh, s=scale))
    return load_robot(folder / "arm.urdf")


def _no_parse(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("parsed although the disk cache has the mesh")
    monkeypatch.setattr(mesh_files, "read_mesh_arrays", refuse)
    monkeypatch.setattr(visual_meshes, "prefetch_meshes", lambda jobs, extract: list(jobs))


def test_a_hit_gives_the_arrays_of_a_cold_load_without_parsing(cache, tmp_path, monkeypatch):
    robot = _arm(tmp_path, scale=0.5)
    cold = visual_meshes.load_visuals(robot)
    assert not cold.warnings and len(list(cache.glob("*.npz"))) == 1
    _forget_memory()
    _no_parse(monkeypatch)
    hit = visual_meshes.load_visuals(load_robot(tmp_path / "arm.urdf"))
    a, b = cold.meshes[0], hit.meshes[0]
    for name in ("vertices", "faces", "colors", "normals", "ambient", "specular"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    np.testing.assert_allclose(np.ptp(b.vertices, axis=0), [0.05, 0.05, 0.15], atol=1e-6)


def test_worker_shading_equals_a_corner_by_corner_derivation(cache, tmp_path):
    """Each drawn vertex's normal is the angle-weighted mean of the unit normals of the
    faces at its position within 35 degrees of one face it belongs to (derived here by
    plain loops over the scaled mesh's faces)."""
    shape = trimesh.creation.cylinder(radius=0.05, height=0.3, sections=12)
    vs = visual_meshes.load_visuals(_arm(tmp_path, scale=2.0, shape=shape))
    m = vs.meshes[0]
    tri = [np.asarray(shape.vertices)[f] * 2.0 for f in np.asarray(shape.faces)]
    tri = [t for t in tri if np.linalg.norm(np.cross(t[1] - t[0], t[2] - t[0])) > 1e-12]
    unit = [np.cross(t[1] - t[0], t[2] - t[0]) / np.linalg.norm(np.cross(t[1] - t[0], t[2] - t[0]))
            for t in tri]

    def angle(t, k):
        a, b = t[(k + 1) % 3] - t[k], t[(k + 2) % 3] - t[k]
        return np.arctan2(np.linalg.norm(np.cross(a, b)), a @ b)

    expected = []
    for i, t in enumerate(tri):
        for k in range(3):
            s = np.zeros(3)
            for j, u in enumerate(tri):
                for kk in range(3):
                    if np.allclose(u[kk], t[k], atol=1e-9) and \
                            unit[i] @ unit[j] >= np.cos(np.radians(35)) - 1e-9:
                        s += angle(u, kk) * unit[j]
            expected.append((t[k], s / np.linalg.norm(s)))
    assert len(m.faces) == len(tri)
    drawn = m.vertices[m.faces].reshape(-1, 3)
    normals = m.normals[m.faces].reshape(-1, 3)
    # the faces keep their order, corner by corner
    np.testing.assert_allclose(drawn, [q for q, _ in expected], atol=1e-6)
    np.testing.assert_allclose(normals, [e for _, e in expected], atol=1e-5)
    assert len(m.vertices) < len(drawn)  # corners on the smooth side share a vertex


def test_a_changed_file_is_parsed_again(cache, tmp_path):
    robot = _arm(tmp_path, shape=trimesh.creation.box(extents=(0.1, 0.1, 0.4)))
    visual_meshes.load_visuals(robot)
    st = os.stat(tmp_path / "link.stl")
    trimesh.creation.box(extents=(0.2, 0.1, 0.4)).export(tmp_path / "link.stl")
    os.utime(tmp_path / "link.stl", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    _forget_memory()
    changed = visual_meshes.load_visuals(robot)
    np.testing.assert_allclose(np.ptp(changed.meshes[0].vertices, axis=0), [0.2, 0.1, 0.4],
                               atol=1e-6)
    assert len(list(cache.glob("*.npz"))) == 2  # the old entry ages out by the bound


@pytest.mark.parametrize("damage", ["garbage", "truncated", "nan", "face index", "pickle",
                                    "another key"])
def test_a_corrupt_or_hostile_entry_is_ignored_and_rewritten(cache, tmp_path, monkeypatch,
                                                             damage):
    robot = _arm(tmp_path)
    cold = visual_meshes.load_visuals(robot)
    (entry,) = cache.glob("*.npz")
    good = entry.read_bytes()
    with np.load(entry, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
        orig = {k: z[k].copy() for k in z.files}
    key = bytes(arrays.pop("key")).decode()
    if damage == "garbage":
        entry.write_bytes(b"\x93NUMPY not a zip at all" * 10)
    elif damage == "truncated":
        entry.write_bytes(good[: len(good) // 2])
    elif damage == "nan":
        arrays["v"][3] = np.nan
        mesh_store.store(key, arrays)
    elif damage == "face index":
        arrays["f"][0, 0] = len(arrays["v"]) + 5
        mesh_store.store(key, arrays)
    elif damage == "pickle":
        with open(entry, "wb") as fh:
            np.savez(fh, key=np.frombuffer(key.encode(), np.uint8),
                     v=np.array([object()], dtype=object), f=arrays["f"], c=arrays["c"])
    else:  # an entry of another file under this file's name
        other = dict(arrays, v=arrays["v"] * 3)
        mesh_store.store(key.replace("visual mesh", "visual mesh "), other)
        os.replace(next(p for p in cache.glob("*.npz") if p != entry), entry)
    _forget_memory()
    parsed = []
    real = mesh_files.read_mesh_arrays
    monkeypatch.setattr(mesh_files, "read_mesh_arrays",
                        lambda *a, **k: parsed.append(a) or real(*a, **k))
    again = visual_meshes.load_visuals(robot)
    assert not again.warnings and parsed  # ignored: parsed again
    assert np.array_equal(again.meshes[0].vertices, cold.meshes[0].vertices)
    assert np.array_equal(again.meshes[0].normals, cold.meshes[0].normals)
    rewritten = mesh_store.load(key, mesh_files._SPEC, mesh_files.valid_entry)
    assert rewritten is not None  # and rewritten whole
    for name in ("v", "f", "c", "n"):
        assert np.array_equal(rewritten[name], orig[name], equal_nan=True), name


def test_an_entry_never_lets_a_refused_file_load(cache, tmp_path, monkeypatch):
    """A binary STL declaring more triangles than the limit is refused before parsing;
    an entry written for it (as an attacker could) does not change that."""
    robot = _arm(tmp_path, shape=trimesh.creation.box(extents=(0.1, 0.1, 0.1)))
    visual_meshes.load_visuals(robot)
    (entry,) = cache.glob("*.npz")
    with np.load(entry, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files if k != "key"}
    old = set_limits(triangles=10)  # the box's 12 triangles are now past the limit
    try:
        path = str(tmp_path / "link.stl")
        raw = (tmp_path / "link.stl").read_bytes()
        assert struct.unpack("<I", raw[80:84])[0] == 12
        key = mesh_files._disk_key(path, (), raw, os.stat(path))
        mesh_store.store(key, dict(arrays, f=arrays["f"][:8]))  # 8 faces: passes checks
        _forget_memory()
        vs = visual_meshes.load_visuals(robot)
        assert not vs.meshes and "limit of 10" in vs.warnings[0], vs.warnings
    finally:
        set_limits(triangles=old.triangles)
    assert limits().triangles == old.triangles


def test_the_folder_stays_within_its_bound_least_recently_used_first(cache, monkeypatch):
    monkeypatch.setenv(mesh_store.ENV, "0.12")  # 125,829 bytes: three entries
    blob = {"v": np.zeros((3000, 3), np.float32)}  # 36 kB an entry
    spec = {"v": ("float32", 2, 3)}
    for i in range(3):
        mesh_store.store(f"k{i}", blob)
    for i in range(3):
        os.utime(cache / mesh_store._name(f"k{i}"), ns=(10**18 + i * 10**9,) * 2)
    assert mesh_store.load("k0", spec) is not None  # used now: the newest
    mesh_store.store("k3", blob)
    names = {p.name for p in cache.glob("*.npz")}
    assert sum(p.stat().st_size for p in cache.glob("*.npz")) <= 0.12 * 2**20
    assert names == {mesh_store._name(k) for k in ("k0", "k2", "k3")}
    assert mesh_store.load("k1", spec) is None
    monkeypatch.setenv(mesh_store.ENV, "0")  # off: nothing read or written
    assert mesh_store.load("k0", spec) is None
    mesh_store.store("k4", blob)
    assert not (cache / mesh_store._name("k4")).exists()


def test_a_decimated_mesh_comes_back_as_drawn_without_decimating(cache, tmp_path, monkeypatch):
    """Past the face budget (and for an uneven scale) the drawn mesh has its own entry."""
    robot = _arm(tmp_path, shape=trimesh.creation.icosphere(subdivisions=3, radius=0.1))
    cold = visual_meshes.load_visuals(robot, budget=600)
    assert 400 < len(cold.meshes[0].faces) <= 600 < 1280
    _forget_memory()
    _no_parse(monkeypatch)
    for module, name in ((visual_meshes, "decimate"), (mesh_files, "decimate"),
                         (mesh_files, "crease_normals")):
        monkeypatch.setattr(module, name, lambda *a, **k: 1 / 0)
    hit = visual_meshes.load_visuals(load_robot(tmp_path / "arm.urdf"), budget=600)
    a, b = cold.meshes[0], hit.meshes[0]
    for name in ("vertices", "faces", "colors", "normals", "ambient", "specular"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name

