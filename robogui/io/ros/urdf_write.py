"""Any robot (D-H ones included) as a URDF file, written with yourdfpy.

Each joint becomes a URDF joint whose origin folds the previous link's ``post``, the
joint offset (and a flipped axis) into constants; the last ``post`` and the tool become
a fixed joint to a ``tool`` link, a base transform a fixed joint from a ``world`` link.
URDF link frames are the robot's axis frames, so inertials and visual geometry are moved
into them (geometry following an off-chain mimic joint gets that joint back).
What URDF has no element for (motor inertia and gear ratio, asymmetric Coulomb
friction, gravity, named poses) goes into a ``<robogui>`` element, which other URDF
readers ignore and :func:`robogui.io.ros.urdf.load_urdf` reads back.
"""

from __future__ import annotations

import numpy as np

from robogui.engine.model.joint_model import general_links

__all__ = ["robot_to_urdf"]


def _rot(axis: np.ndarray, angle: float) -> np.ndarray:
    from scipy.spatial.transform import Rotation

    T = np.eye(4)
    T[:3, :3] = Rotation.from_rotvec(axis * angle).as_matrix()
    return T


def _num(x: float) -> str:
    return repr(float(x) + 0.0)


def robot_to_urdf(robot) -> str:
    """The URDF text of ``robot`` (a string, XML declaration included)."""
    import yourdfpy as y
    from lxml import etree

    links = general_links(getattr(robot, "chain", robot.links))  # mimic followers included
    mimic = getattr(robot, "mimic", {})
    n = len(links)
    base_name = robot.base_link or "base_link"
    names = [base_name] + [f"link{j}" for j in range(1, n + 1)]
    ylinks, yjoints, extras = [], [], []
    if not np.array_equal(robot.base, np.eye(4)):
        ylinks.append(y.Link(name="world"))
        yjoints.append(y.Joint(name="base_joint", type="fixed", parent="world",
                               child=base_name, origin=np.array(robot.base)))
    ylinks.append(y.Link(name=base_name))
    prev_post = np.eye(4)
    follows = {}  # follower joint name -> (leader name, multiplier, offset)
    for j, L in enumerate(links):
        sign = -1.0 if getattr(L, "flip", False) else 1.0
        axis = sign * np.asarray(L.axis, dtype=float)
        # value = sign q + offset about L.axis == offset about L.axis, then q about axis
        fold = _rot(L.axis, L.offset) if L.joint == "R" else _translate(L.axis * L.offset)
        origin = prev_post @ L.origin @ fold
        post = L.post
        # inertials in the URDF link frame (the axis frame), i.e. moved by post
        R, p = post[:3, :3], post[:3, 3]
        inertial = None
        if L.m or np.any(L.I):
            T = np.eye(4)
            T[:3, 3] = R @ L.r + p
            inertial = y.Inertial(origin=T, mass=float(L.m), inertia=R @ L.I @ R.T)
        ylinks.append(y.Link(name=names[j + 1], inertial=inertial))
        lim = None
        jtype = "prismatic" if L.joint == "P" else "revolute"
        if L.qlim is not None or L.tau_max is not None or L.qd_max is not None:
            lo, hi = (None, None) if L.qlim is None else L.qlim
            lim = y.Limit(effort=0.0 if L.tau_max is None else L.tau_max,
                          velocity=0.0 if L.qd_max is None else L.qd_max, lower=lo, upper=hi)
        if L.joint == "R" and L.qlim is None:
            jtype = "continuous"
        dyn = None
        if L.B or any(L.Tc):  # URDF's are joint side; robogui's motor side (times G)
            dyn = y.Dynamics(damping=float(L.B * L.G**2), friction=float(abs(L.G * L.Tc[0])))
        if j in mimic:  # URDF joint values are robogui's (offset and flip folded above)
            lead, mult, off = mimic[j]
            follows[L.name or f"joint{j + 1}"] = (links[lead].name or f"joint{lead + 1}",
                                                  mult, off)
        yjoints.append(y.Joint(name=L.name or f"joint{j + 1}", type=jtype,
                               parent=names[j], child=names[j + 1], origin=origin,
                               axis=axis, limit=lim, dynamics=dyn))
        extras.append((L.name or f"joint{j + 1}", L))
        prev_post = post
    tip = prev_post @ robot.tool
    tip_name = robot.tip if robot.tip and robot.tip not in names else "tool"
    ylinks.append(y.Link(name=tip_name))
    yjoints.append(y.Joint(name=f"{tip_name}_joint", type="fixed", parent=names[-1],
                           child=tip_name, origin=tip))
    follows.update(_add_visuals(robot, links, names, ylinks, yjoints))
    model = y.Robot(name=robot.name, links=ylinks, joints=yjoints)
    urdf = y.URDF(robot=model, build_scene_graph=False, load_meshes=False)
    root = urdf.write_xml().getroot()
    for el in root.iter("joint"):  # yourdfpy's writer leaves <mimic> out
        if el.get("name") in follows:
            lead, mult, off = follows[el.get("name")]
            etree.SubElement(el, "mimic", joint=lead, multiplier=_num(mult), offset=_num(off))
    root.append(_robogui_element(robot, extras))
    return etree.tostring(root, pretty_print=True, xml_declaration=True,
                          encoding="utf-8").decode()


def _add_visuals(robot, links, names, ylinks, yjoints) -> dict:
    """The robot's visual geometry on the written links (meshes by their local file when
    it exists, else as referenced). Geometry that follows an off-chain mimic joint gets
    that joint back, to a link of its own. Returns the mimic joints added (as
    ``follows`` in :func:`robot_to_urdf`)."""
    import yourdfpy as y

    by_name = {L.name: L for L in ylinks}
    follows, extra = {}, {}
    grippers = ({g.name: g for g in getattr(robot, "gripper", ())}, set())  # + written
    for k, v in enumerate(getattr(robot, "visuals", ()) or ()):
        if getattr(v, "problem", "") and not v.uri:
            continue  # geometry the file got wrong (dropped with a warning): not written
        f = v.frame
        # URDF link f is the robot's frame f without the previous body's post
        to_link = links[f - 1].post if f >= 1 else np.eye(4)
        parent = names[f] if f < len(names) else names[-1]
        if v.follow:
            parent = _follow_links(v, parent, to_link, links, extra, ylinks, yjoints,
                                   by_name, follows, grippers)
            origin = v.matrix
        else:
            origin = to_link @ v.matrix
        by_name[parent].visuals.append(y.Visual(
            name=f"{v.link or 'visual'}_{k}", origin=origin, geometry=_geometry(v),
            material=None if v.rgba is None else y.Material(
                name=f"color_{k}", color=y.Color(rgba=np.asarray(v.rgba, float)))))
    return follows


def _geometry(v):
    import os

    import yourdfpy as y

    if v.kind == "mesh":
        name = v.filename if v.filename and os.path.isfile(v.filename) else (v.uri or v.filename)
        return y.Geometry(mesh=y.Mesh(filename=name, scale=np.asarray(v.scale, float)))
    if v.kind == "box":
        return y.Geometry(box=y.Box(size=np.asarray(v.size, float)))
    if v.kind == "cylinder":
        return y.Geometry(cylinder=y.Cylinder(radius=float(v.size[0]), length=float(v.size[1])))
    return y.Geometry(sphere=y.Sphere(radius=float(v.size[0])))


def _translate(v) -> np.ndarray:
    T = np.eye(4)
    T[:3, 3] = v
    return T


def _robogui_element(robot, extras):
    from lxml import etree

    el = etree.Element("robogui")
    el.append(etree.Comment(" robogui extras: motor data, gravity, poses (ignored by other "
                            "URDF readers) "))
    for name, L in extras:
        etree.SubElement(el, "motor", joint=name, Jm=_num(L.Jm), G=_num(L.G), B=_num(L.B),
                         Tc_plus=_num(L.Tc[0]), Tc_minus=_num(L.Tc[1]))
    etree.SubElement(el, "gravity", xyz=" ".join(_num(v) for v in robot.gravity))
    for key, q in robot.poses.items():
        etree.SubElement(el, "pose", name=key, q=" ".join(_num(v) for v in q))
    return el


def _follow_links(v, parent, to_link, links, extra, ylinks, yjoints, by_name, follows,
                  grippers) -> str:
    """The links (one per ``v.follow`` stage, shared by geometry with the same stages)
    that carry ``v``; returns the last. A stage led by a chain joint is a mimic joint of
    it; one led by a gripper joint is that joint itself (multiplier 1, offset 0, written
    once, with its limits) or a mimic joint of it. ``grippers``: ({name: GripperJoint},
    the names written so far)."""
    import yourdfpy as y

    for s, (j, mult, off, revolute, axis, J) in enumerate(v.follow):
        key = (parent, v.follow[:s + 1])
        if key in extra:
            parent = extra[key]
            continue
        child = f"{v.link or 'link'}_follow{len(extra) + 1}"
        extra[key] = child
        ylinks.append(y.Link(name=child))
        by_name[child] = ylinks[-1]
        jname = f"{child}_joint"
        g = grippers[0].get(j) if isinstance(j, str) else None
        own = g is not None and (mult, off) == (1.0, 0.0) and j not in grippers[1]
        if own:
            jname = j
            grippers[1].add(j)
            lim = y.Limit(effort=0.0, velocity=0.0, lower=g.lower, upper=g.upper)
        else:  # a prismatic joint needs limits in URDF; the follower never uses them
            lim = None if revolute else y.Limit(effort=0.0, velocity=0.0, lower=-1.0,
                                                upper=1.0)
        yjoints.append(y.Joint(name=jname, type=("revolute" if own else "continuous")
                               if revolute else "prismatic",
                               parent=parent, child=child,
                               origin=(to_link if s == 0 else np.eye(4)) @ np.asarray(J),
                               axis=np.asarray(axis), limit=lim))
        if not own:
            lead = j if isinstance(j, str) else links[j].name or f"joint{j + 1}"
            follows[jname] = (lead, mult, off)
        parent = child
    return parent
