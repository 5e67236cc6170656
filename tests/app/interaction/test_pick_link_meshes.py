"""Links drawn as meshes are picked against their triangles, and the selected link is
lit both ways (a click in the view selects the joint's row; choosing a row lights the
link). The mouse goes to the real view and the real joint panel."""

from __future__ import annotations

import numpy as np
import trimesh
from PySide6 import QtCore
from trimesh.ray.ray_triangle import RayMeshIntersector

from robogui.app import style
from robogui.app.interaction.link_pick import HOVER_COLOR, SELECTED_COLOR
from robogui.io.robotfile import load_robot
from robogui.session.geometry.handle import hit_handle
from robogui.session.geometry.picking import pick, pixel_ray
from tests.app.interaction.test_handle import grab_point, send_mouse, settled
from tests.urdf_files import PANDA

NO = QtCore.Qt.MouseButton.NoButton


def _posed_meshes(scene):
    """The drawn meshes placed in the world as one trimesh mesh, and each face's part."""
    verts, faces, owner, off = [], [], [], 0
    M = scene.part_transforms(scene._frames, scene.mesh_parts)
    for k, p in enumerate(scene.mesh_parts):
        md = p.item.opts["meshdata"]
        v = md.vertexes().astype(float)
        verts.append(v @ M[k, :3, :3].T + M[k, :3, 3])
        faces.append(md.faces().astype(np.int64) + off)
        owner.append(np.full(len(md.faces()), k))
        off += len(v)
    return (RayMeshIntersector(trimesh.Trimesh(np.vstack(verts), np.vstack(faces),
                                               process=False)), np.concatenate(owner))


def _ray(scene, xy):
    return pixel_ray(scene.mvp_matrix(), xy[0], xy[1], scene.width(), scene.height())


def _trimesh_part(scene, caster, owner, xy):
    """The mesh part trimesh's ray caster finds first under pixel ``xy`` (None: no mesh)."""
    r = _ray(scene, xy)
    locs, _i, tris = caster.intersects_location([r.origin], [r.direction])
    if not len(tris):
        return None
    return scene.mesh_parts[owner[tris[np.argmin((locs - r.origin) @ r.direction)]]]


def _near(rgb, color, tol=0.2):
    """Whether pixel ``rgb`` has the hue of ``color`` (shading scales the channels)."""
    want = np.array(style.rgba(color)[:3])
    got = np.asarray(rgb, float)
    return got.max() > 40 and np.abs(got / got.max() - want / want.max()).max() < tol


def test_pick_link_panda_mesh_hover_and_click_select_its_joint(qtbot, window, session):
    session.set_robot(load_robot(PANDA, tip="panda_hand"))
    session.set_q([0.2, -0.4, 0.1, -2.1, 0.1, 1.9, 0.7])
    window.set_view("front")
    settled(qtbot, window)
    scene = window.view.scene
    assert scene.mesh_parts and not any(
        p.item.visible() for p in scene.moving_parts(("joint", "link")))  # sticks hidden
    # the picker is built at the first pick, not while the robot opens (first open)
    assert scene._mesh_picker is None
    caster, owner = _posed_meshes(scene)
    links = window.view_tools.links
    for k in (2, 4):  # panda_link2 and panda_link4 (away from the tool handle)
        part = next(p for p in scene.mesh_parts if p.frame == k)
        M = scene.part_transforms(scene._frames, [part])[0]
        md = part.item.opts["meshdata"]
        centres = md.vertexes()[md.faces()].mean(axis=1) @ M[:3, :3].T + M[:3, 3]
        xy = next(xy for xy in window.view.project(centres)
                  if _trimesh_part(scene, caster, owner, xy) is part)  # in front (trimesh)
        send_mouse(window.view, "move", xy, button=NO)
        assert scene._mesh_picker is not None
        assert links.hover == (k - 1, k)
        assert links.hover_text().startswith(f"joint {k} (panda_joint{k}): ")
        img = window.view.grab_array()
        assert _near(img[int(round(xy[1])), int(round(xy[0]))], HOVER_COLOR)
        send_mouse(window.view, "press", xy)
        send_mouse(window.view, "release", xy)
        assert links.selected == k - 1 and window.joint_panel.selected == k - 1


def test_pick_link_panda_ray_missing_the_meshes_picks_nothing_where_a_stick_is(
        qtbot, window, session):
    session.set_robot(load_robot(PANDA, tip="panda_hand"))
    window.set_view("front")
    settled(qtbot, window)
    scene = window.view.scene
    caster, owner = _posed_meshes(scene)
    sticks = scene.moving_parts(("joint", "link"))
    placements = scene.part_transforms(scene._frames, sticks)
    shapes = ["box" if p.prismatic else "cylinder" for p in sticks]
    # pixels where a (hidden) stick would be hit but trimesh finds no mesh triangle
    w, h = scene.width(), scene.height()
    found = []
    for x in np.linspace(0.2 * w, 0.8 * w, 60):
        for y in np.linspace(0.05 * h, 0.95 * h, 60):
            if pick(_ray(scene, (x, y)), placements, shapes) is not None and \
                    _trimesh_part(scene, caster, owner, (x, y)) is None:
                found.append((x, y))
    assert found, "no pixel where a stick sticks out of the Panda's meshes"
    links = window.view_tools.links
    for xy in found[:: max(1, len(found) // 10)]:
        send_mouse(window.view, "move", xy, button=NO)
        assert links.hover is None


def test_pick_link_choosing_a_joint_row_lights_its_link_apart_from_the_hover(
        qtbot, window, session):
    session.go_to_pose("qn")
    settled(qtbot, window)
    view, panel, links = window.view, window.joint_panel, window.view_tools.links
    assert links.selected is None  # nothing chosen yet: no link lit
    xy = {j: view.project(grab_point(window, session, j)[None])[0] for j in (1, 2)}

    def colour(j):
        x, y = xy[j]
        return view.grab_array()[int(round(y)), int(round(x))]

    before = colour(2)
    assert not _near(before, SELECTED_COLOR)
    row = panel.rows[2]
    qtbot.mouseClick(row, QtCore.Qt.MouseButton.LeftButton, pos=QtCore.QPoint(4, 4))
    assert panel.selected == 2 and links.selected == 2
    assert _near(colour(2), SELECTED_COLOR)
    # hovering another link lights that one in the hover colour; the selection stays
    send_mouse(view, "move", xy[1], button=NO)
    assert links.hover[0] == 1
    assert _near(colour(1), HOVER_COLOR) and _near(colour(2), SELECTED_COLOR)
    send_mouse(view, "move", xy[2], button=NO)  # hover over the selected link: hover wins
    assert _near(colour(2), HOVER_COLOR)
    send_mouse(view, "move", (5, 5), button=NO)
    assert links.hover is None and _near(colour(2), SELECTED_COLOR)
    assert not _near(colour(1), HOVER_COLOR)
    # Up in the panel chooses the joint before: its link is lit, the previous one is not
    qtbot.keyClick(row.slider, QtCore.Qt.Key.Key_Up)
    assert panel.selected == 1 and links.selected == 1
    assert _near(colour(1), SELECTED_COLOR)
    assert np.abs(colour(2).astype(int) - before.astype(int)).max() < 12
    # a click on link 2 in the view selects row 2 and lights link 2 instead
    send_mouse(view, "press", xy[2])
    send_mouse(view, "release", xy[2])
    assert (panel.selected, links.selected) == (2, 2)
    assert _near(colour(2), SELECTED_COLOR) and not _near(colour(1), SELECTED_COLOR)


def test_the_mimic_finger_moves_with_the_finger_slider_and_picks_the_finger_joint(
        qtbot, window, session):
    """The Panda URDF chained to its left finger; the right finger hangs on
    a joint off the chain that mimics it. The finger's slider opens both fingers in the
    view, and hovering the right finger points at the finger joint."""
    session.set_robot(load_robot(PANDA, tip="panda_leftfinger"))  # joint 8 is the finger
    scene = window.view.scene
    right = [p for p in scene.mesh_parts if p.follow]
    left = [p for p in scene.mesh_parts if p.frame == 8]
    assert right and left
    q = session.q.copy()
    q[7] = 0.0
    session.set_q(q)
    r0, l0 = (scene.part_transforms(scene._frames, ps)[0] for ps in (right, left))
    spin = window.joint_panel.rows[7].spin  # typed as a person does: 30 mm, Enter
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "30 mm")
    qtbot.keyClick(spin, QtCore.Qt.Key.Key_Return)
    opened = session.q[7]
    assert opened == 0.03
    r1, l1 = (scene.part_transforms(scene._frames, ps)[0] for ps in (right, left))
    # each finger moved by the opening, in opposite directions
    dr, dl = r1[:3, 3] - r0[:3, 3], l1[:3, 3] - l0[:3, 3]
    np.testing.assert_allclose(np.linalg.norm(dr), opened, atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(dl), opened, atol=1e-9)
    np.testing.assert_allclose(dr, -dl, atol=1e-9)
    # hover the right finger where trimesh sees it in front: the finger joint (8) lights
    window.set_view("front")
    window.view.fit_to_robot()
    settled(qtbot, window)
    caster, owner = _posed_meshes(scene)
    part = right[0]
    M = scene.part_transforms(scene._frames, [part])[0]
    md = part.item.opts["meshdata"]
    centres = md.vertexes()[md.faces()].mean(axis=1) @ M[:3, :3].T + M[:3, 3]
    # where the tool handle (on the left finger, the tip) is not: it is hovered first
    handle = window.view_tools.handle.geometry()
    xy = next(xy for xy in window.view.project(centres)
              if _trimesh_part(scene, caster, owner, xy) is part
              and hit_handle(_ray(scene, xy), *handle) is None)
    send_mouse(window.view, "move", xy, button=NO)
    links = window.view_tools.links
    assert links.hover is not None and links.hover[0] == 7


def test_pick_link_the_selected_joint_still_shows_its_limit_colour(qtbot, window, session):
    """Issue 28 item 2: a joint at (near) its limit keeps its red (amber) cylinder when its
    row is chosen; the selection shows in magenta on the link it moves."""
    view, panel, links = window.view, window.joint_panel, window.view_tools.links
    lim = session.robot.qlim
    for state, offset, colour_name in ((2, 0.0, style.AT_LIMIT_COLOR),
                                       (1, 0.03, style.NEAR_LIMIT_COLOR)):
        q = session.robot.pose("qn").copy()
        q[2] = lim[2, 0] + offset * (lim[2, 1] - lim[2, 0])  # the elbow at/near its lower limit
        session.set_q(q)
        assert session.limit_state[2] == state
        settled(qtbot, window)
        x, y = view.project(grab_point(window, session, 2)[None])[0]
        row = panel.rows[2]
        qtbot.mouseClick(row, QtCore.Qt.MouseButton.LeftButton, pos=QtCore.QPoint(4, 4))
        assert panel.selected == 2 and links.selected == 2
        img = view.grab_array()
        assert _near(img[int(round(y)), int(round(x))], colour_name), img[int(y), int(x)]
        magenta = np.array([_near(px, SELECTED_COLOR) for px in img[::3, ::3].reshape(-1, 3)])
        assert magenta.sum() > 30  # the link around it is lit
        # joint 3 back inside its range: the whole link, cylinder too, in the selection colour
    q[2] = 0.5 * (lim[2, 0] + lim[2, 1])
    session.set_q(q)
    settled(qtbot, window)
    x, y = view.project(grab_point(window, session, 2)[None])[0]
    assert _near(view.grab_array()[int(round(y)), int(round(x))], SELECTED_COLOR)
