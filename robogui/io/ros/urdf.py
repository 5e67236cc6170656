"""URDF and xacro robots: the serial chain from the root link to a tip link.

Parsing is yourdfpy's (after lxml has checked the XML and xacro has expanded macros);
this module turns the link tree into an engine :class:`~robogui.engine.model.robot.Robot` of
general joints:

- the chain is the path of joints from the root link to the tip link; fixed joints on
  it are folded into the next joint's origin (or, after the last moving joint, into the
  last link's ``post``, so the last link frame is the tip frame);
- links off the chain (fingers, sensors) are carried rigidly by the chain link they hang
  on: their mass and inertia are lumped into it with their own joints at 0, and their
  visual geometry is drawn in its frame;
- limits -> ``qlim``, ``qd_max``, ``tau_max``; ``<dynamics damping friction>`` ->
  viscous ``B`` and Coulomb ``Tc``; inertials are rotated into the link frame.

Anything wrong raises :class:`~robogui.io.robotfile.RobotFileError` naming the file and
the element.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from robogui.engine import bounds
from robogui.engine.guarded_open import (
    RefusedFile,
    check_regular,
    confine,
    read_guarded,
    refuse_url,
)
from robogui.engine.limits import limits
from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.engine.model.visual import Visual

from ..file_error import RobotFileError
from .chain_ends import arm_ends, default_tips
from .follow_chains import (
    gripper_joints,
    motion,
    origin,
    place_links,
    resolve_mimic,
    rest_value,
)
from .packages import PackageResolver
from .srdf import srdf_disabled_collisions, srdf_poses
from .urdf_checks import check_urdf
from .xacro_expand import expand_xacro

__all__ = ["load_urdf", "urdf_tips", "urdf_tip_choices", "read_urdf_xml", "set_package_path",
           "add_package_path", "package_path", "set_xacro_args",
           "URDF_SUFFIXES"]

URDF_SUFFIXES = (".urdf", ".xacro")
MOVING = ("revolute", "continuous", "prismatic")
KNOWN = (*MOVING, "fixed", "floating", "planar")

# -- reading the XML -------------------------------------------------------------------
def read_urdf_xml(path: str | os.PathLike, package_path: Sequence[str] = (),
                  xacro_args: Mapping[str, str] | None = None):
    """The checked lxml root of a URDF (or expanded xacro) file, and its package resolver.
    The file is read through the guarded opener; a xacro expands with ``xacro_args`` and
    never runs code (:mod:`.xacro_expand`)."""
    from lxml import etree

    path = Path(path)
    resolver = PackageResolver(path, package_path)
    try:
        raw = read_guarded(path, limits().xml_bytes)
    except OSError as exc:
        raise RobotFileError(f"cannot read the file ({exc.strerror or exc})", path) from None
    if not raw.strip():
        raise RobotFileError("the file is empty", path)
    if b"<!ENTITY" in raw or b"<!entity" in raw:
        raise RobotFileError("XML entity declarations (<!ENTITY>) are not allowed in a robot "
                             "file", path)
    if path.suffix.lower() == ".xacro":
        raw = expand_xacro(path, resolver, resolver.allowed_roots(), xacro_args).encode()
    try:
        root = etree.fromstring(raw, etree.XMLParser(
            remove_blank_text=True, resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError as exc:
        raise RobotFileError(f"not valid XML ({exc})", path) from None
    if root.tag != "robot":
        raise RobotFileError(f"the root element is <{root.tag}>, not <robot>", path)
    if root.find("link") is None:
        hint = (" (a xacro file of macros only: open the file that uses them)"
                if path.suffix.lower() == ".xacro" else "")
        raise RobotFileError(f"<robot> has no <link>: there is no robot in the file{hint}",
                             path)
    if not root.get("name"):
        raise RobotFileError("<robot> has no name attribute (URDF requires <robot name=...>)",
                             path)
    etree.strip_tags(root, etree.Comment)
    for j in root.findall("joint"):
        name = j.get("name")
        where = f"<joint name={name!r}>"
        if name is None:
            raise RobotFileError("a <joint> has no name", path)
        for tag in ("parent", "child"):
            el = j.find(tag)
            if el is None or not el.get("link"):
                raise RobotFileError(f"{where} has no <{tag} link=...>", path)
    for k in root.findall("link"):
        if k.get("name") is None:
            raise RobotFileError("a <link> has no name", path)
    resolver.dropped = check_urdf(root, path)  # (link, why) of <visual>s taken out
    return root, resolver


def _parse(path: Path, package_path, xacro_args=None):
    import yourdfpy

    root, resolver = read_urdf_xml(path, package_path, xacro_args)
    try:
        model = yourdfpy.URDF._parse_robot(xml_element=root)
    except KeyError as exc:  # yourdfpy reads a required attribute that is not there
        raise RobotFileError(f"cannot read the URDF: an element lacks its required "
                             f"attribute {exc.args[0]!r}", path) from None
    except (ValueError, TypeError, AttributeError) as exc:
        raise RobotFileError(f"cannot read the URDF ({exc})", path) from None
    return root, model, resolver


# -- the tree ---------------------------------------------------------------------------
class _Tree:
    """Links and joints of a URDF, checked: one root, no loop, known references."""

    def __init__(self, model, path: Path):
        self.path = path
        self.links = {k.name: k for k in model.links}
        self.joints = {j.name: j for j in model.joints}
        self.parent_joint: dict[str, object] = {}
        self.children: dict[str, list] = {name: [] for name in self.links}
        if not self.links:
            raise RobotFileError("the robot has no <link>", path)
        for j in model.joints:
            where = f"<joint name={j.name!r}>"
            for end in (j.parent, j.child):
                if end not in self.links:
                    raise RobotFileError(f"{where} refers to link {end!r}, which is not defined",
                                         path)
            if j.child in self.parent_joint:
                other = self.parent_joint[j.child].name
                raise RobotFileError(f"{where}: link {j.child!r} already has parent joint "
                                     f"{other!r} (a URDF is a tree)", path)
            self.parent_joint[j.child] = j
            self.children[j.parent].append(j)
            self._check_joint(j, where)
        roots = [k for k in self.links if k not in self.parent_joint]
        if not roots:
            raise RobotFileError("the joints form a loop: every link has a parent", path)
        if len(roots) > 1:
            raise RobotFileError(f"several root links {sorted(roots)}: a URDF robot has one",
                                 path)
        self.root = roots[0]
        seen, stack = set(), [self.root]
        while stack:
            k = stack.pop()
            seen.add(k)
            stack += [j.child for j in self.children[k] if j.child not in seen]
        lost = [k for k in self.links if k not in seen]
        if lost:
            j = self.parent_joint[lost[0]]
            raise RobotFileError(f"<joint name={j.name!r}> closes a loop (links {sorted(lost)} "
                                 "are not reached from the root)", path)
        for k in self.links.values():
            self._check_link(k)

    def _check_joint(self, j, where: str) -> None:
        if j.origin is not None and not np.all(np.isfinite(j.origin)):
            raise RobotFileError(f"{where}: <origin> has a non-finite value", self.path)
        if j.type in MOVING:
            axis = np.array([1.0, 0, 0]) if j.axis is None else np.asarray(j.axis, float)
            if axis.shape != (3,) or not np.all(np.isfinite(axis)) or \
                    np.linalg.norm(axis) < 1e-9:
                raise RobotFileError(f"{where}: <axis xyz> must be a non-zero finite vector, "
                                     f"got {np.asarray(j.axis).tolist()}", self.path)
        lim = j.limit
        if lim is not None:
            for field in ("lower", "upper", "velocity", "effort"):
                v = getattr(lim, field)
                if v is not None and not math.isfinite(v):
                    raise RobotFileError(f"{where}: <limit {field}> is {v}", self.path)

    def _check_link(self, k) -> None:
        where = f"<link name={k.name!r}>"
        ine = k.inertial
        if ine is None:
            return
        if ine.mass is not None and not (math.isfinite(ine.mass) and ine.mass >= 0):
            raise RobotFileError(f"{where}: <mass value> must be a finite number >= 0, got "
                                 f"{ine.mass}", self.path)
        for name, arr in (("origin", ine.origin), ("inertia", ine.inertia)):
            if arr is not None and not np.all(np.isfinite(arr)):
                raise RobotFileError(f"{where}: <inertial><{name}> has a non-finite value",
                                     self.path)

    def path_to(self, tip: str) -> list:
        """The joints from the root to ``tip``, root first."""
        out, k = [], tip
        while k in self.parent_joint:
            j = self.parent_joint[k]
            out.append(j)
            k = j.parent
        return out[::-1]

    def moving_count(self, tip: str) -> int:
        return sum(1 for j in self.path_to(tip) if j.type in MOVING and j.mimic is None)

    def tips(self) -> list[str]:
        """Candidate tips: the leaves reached through the most (non-mimic) moving joints."""
        leaves = [k for k, kids in self.children.items() if not kids]
        counts = {k: self.moving_count(k) for k in leaves}
        best = max(counts.values())
        return sorted(k for k, c in counts.items() if c == best)


_origin, _motion, _rest_value = origin, motion, rest_value


def urdf_tips(path: str | os.PathLike, package_path: Sequence[str] | None = None,
              xacro_args: Mapping[str, str] | None = None) -> list[str]:
    """Candidate tip links of a URDF/xacro file (the default-tip rule's shortlist, see
    :mod:`.chain_ends`: one name, or several to choose from)."""
    return default_tips(_tree(path, package_path, xacro_args))


def urdf_tip_choices(path: str | os.PathLike, package_path: Sequence[str] | None = None,
                     xacro_args: Mapping[str, str] | None = None) -> list[tuple[str, int]]:
    """Every link an arm of the file can end at, with its number of arm joints: the
    default tip(s) first, then by joint count (most first) and name."""
    tree = _tree(path, package_path, xacro_args)
    ends, first = arm_ends(tree), default_tips(tree)
    ends.update({k: tree.moving_count(k) for k in first if k not in ends})
    rest = sorted((k for k in ends if k not in first and k != tree.root),
                  key=lambda k: (-ends[k], k))
    return [(k, ends[k]) for k in [*first, *rest]]


def _tree(path, package_path, xacro_args) -> _Tree:
    path = Path(path)
    if package_path is None:
        package_path = list(_package_path)
    if xacro_args is None:
        xacro_args = dict(_xacro_args)
    _, model, _ = _parse(path, package_path, xacro_args)
    return _Tree(model, path)


# -- lumping ----------------------------------------------------------------------------
def _lump(parts) -> tuple[float, np.ndarray, np.ndarray]:
    """Mass, centre of mass and inertia (about it) of rigid parts (m, c, I in one frame)."""
    M = sum(m for m, _, _ in parts)
    if not parts:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    # a massless part (inertia only) keeps its own centre when it is alone
    c = sum(m * cc for m, cc, _ in parts) / M if M > 0 else parts[0][1]
    Itot = np.zeros((3, 3))
    for m, cc, inertia in parts:
        d = cc - c
        Itot += inertia + m * (d @ d * np.eye(3) - np.outer(d, d))
    return M, c, 0.5 * (Itot + Itot.T)


def _inertial_parts(link, T: np.ndarray):
    """(m, c, I) of a URDF link's inertial, placed by T (link frame -> body frame)."""
    ine = link.inertial
    if ine is None:
        return []
    inertia = np.zeros((3, 3)) if ine.inertia is None else np.asarray(ine.inertia, float)
    if not ine.mass and not np.any(inertia):
        return []
    O = T @ _origin(ine.origin)
    R = O[:3, :3]
    return [(float(ine.mass or 0.0), O[:3, 3].copy(), R @ inertia @ R.T)]


def _color(vis, materials) -> tuple | None:
    mat = getattr(vis, "material", None)  # <collision> elements have none
    if mat is None:
        return None
    if mat.color is None and mat.name in materials:
        mat = materials[mat.name]
    if mat.color is None:
        return None
    rgba = np.asarray(mat.color.rgba, dtype=float).ravel()
    return tuple(float(x) for x in rgba[:4]) if rgba.size >= 3 else None


def _visuals(link, T: np.ndarray, frame: int, resolver, materials,
             follow: tuple = (), elements=None) -> list[Visual]:
    """Visual records of ``link.visuals`` (or of ``elements``: its ``<collision>``s)."""
    out = []
    for vis in link.visuals if elements is None else elements:
        g = vis.geometry
        if g is None:
            continue
        P = T @ _origin(vis.origin)
        rgba = _color(vis, materials)
        if g.mesh is not None:
            uri = g.mesh.filename
            local, problem = _mesh_path(uri, resolver)
            sc = g.mesh.scale
            scale = (1.0, 1.0, 1.0) if sc is None else tuple(
                float(x) for x in np.broadcast_to(np.asarray(sc, float).ravel(), (3,)))
            out.append(Visual(frame, "mesh", P, filename=str(local) if local else uri,
                              uri=uri, scale=scale, rgba=rgba, link=link.name, follow=follow,
                              problem=problem,
                              roots=tuple(str(r) for r in resolver.allowed_roots())))
        elif g.box is not None:
            out.append(Visual(frame, "box", P, size=tuple(float(x) for x in g.box.size),
                              rgba=rgba, link=link.name, follow=follow))
        elif g.cylinder is not None:
            out.append(Visual(frame, "cylinder", P, rgba=rgba, link=link.name, follow=follow,
                              size=(float(g.cylinder.radius), float(g.cylinder.length))))
        elif g.sphere is not None:
            out.append(Visual(frame, "sphere", P, size=(float(g.sphere.radius),),
                              rgba=rgba, link=link.name, follow=follow))
    return out


def _mesh_path(uri: str, resolver) -> tuple[Path | None, str]:
    """(local path, "") of a mesh reference inside the robot's folders, or (None, why
    it is refused): a URL, a path out of the folders, a package nobody gave."""
    try:
        if not uri.startswith(("package://", "file://")):  # file:// only inside the folders
            refuse_url(uri)
        local = resolver.resolve(uri)
        if local is None:
            return None, "no such package (give its folder with --package-path NAME=DIR)"
        return confine(local, resolver.allowed_roots()), ""
    except RefusedFile as exc:
        return None, exc.strerror


# -- the robot --------------------------------------------------------------------------
def _robogui_extras(root, path: Path) -> dict:
    """robogui's own element (written by save_robot): motors, gravity, poses."""
    el = root.find("robogui")
    out = {"motors": {}, "gravity": None, "poses": {}, "name": None}
    if el is None:
        return out

    def numbers(tag, key, text, count=None):
        try:
            values = [float(x) for x in text.split()]
        except ValueError:
            values = []
        if not values or not all(math.isfinite(v) and abs(v) <= bounds.MAX_MOTOR
                                 for v in values) or (count and len(values) != count):
            raise RobotFileError(f"<robogui><{tag}> {key}: {text[:60]!r} is not "
                                 f"{count or 'a list of'} finite number(s) within "
                                 "docs/bounds.md", path)
        return values

    for m in el.findall("motor"):
        out["motors"][m.get("joint")] = {k: numbers("motor", k, v, 1)[0]
                                         for k, v in m.attrib.items() if k != "joint"}
    g = el.find("gravity")
    if g is not None:
        out["gravity"] = numbers("gravity", "xyz", g.get("xyz", "0 0 -9.81"), 3)
    for p in el.findall("pose"):
        out["poses"][p.get("name")] = numbers("pose", "q", p.get("q", "0"))
    return out


def _chain_link(j, origin, post, parts, extras, path) -> Link:
    lim = j.limit
    qlim = None
    if j.type != "continuous" and lim is not None and lim.lower is not None \
            and lim.upper is not None and lim.upper > lim.lower:
        qlim = (float(lim.lower), float(lim.upper))
    qd_max = float(lim.velocity) if lim is not None and lim.velocity else None
    tau_max = float(lim.effort) if lim is not None and lim.effort else None
    dyn = j.dynamics
    B = float(dyn.damping or 0.0) if dyn is not None else 0.0
    fr = float(dyn.friction or 0.0) if dyn is not None else 0.0
    motor = extras["motors"].get(j.name, {})
    m, c, inertia = _lump(parts)
    try:
        return Link(joint="P" if j.type == "prismatic" else "R", origin=origin,
                    axis=np.array([1.0, 0, 0]) if j.axis is None else j.axis, post=post,
                    qlim=qlim, qd_max=qd_max, tau_max=tau_max, m=m, r=c, I=inertia,
                    B=motor.get("B", B),
                    Tc=(motor.get("Tc_plus", abs(fr)), motor.get("Tc_minus", -abs(fr))),
                    Jm=motor.get("Jm", 0.0), G=motor.get("G", 1.0), name=j.name)
    except ValueError as exc:
        raise RobotFileError(f"<joint name={j.name!r}>: {exc}", path) from None


def _build(path: Path, root, model, resolver, tip: str | None) -> Robot:
    tree = _Tree(model, path)
    if tip is None:
        cands = default_tips(tree)
        if len(cands) > 1:
            raise RobotFileError(f"several tip links are possible: {_some(cands, 'tips')}; "
                                 "choose one (tip=...)", path)
        tip = cands[0]
    elif tip not in tree.links:
        raise RobotFileError(f"no link named {tip[:80]!r} ({_some(tree.tips(), 'tips')}; "
                             "choose with --tip)", path)
    chain = tree.path_to(tip)
    for j in chain:
        if j.type not in KNOWN:
            raise RobotFileError(f"<joint name={j.name!r}>: unknown joint type {j.type!r}",
                                 path)
        if j.type in ("floating", "planar"):
            raise RobotFileError(f"<joint name={j.name!r}> on the chain to {tip!r} is "
                                 f"{j.type}: only revolute, continuous, prismatic and fixed "
                                 "joints make a serial arm", path)
    # a mimic joint whose leader is on the chain moves with it (Robot(mimic=...)); one
    # whose leader is elsewhere stays at its offset, as the links off the chain do
    followed = {j.name: _chain_leader(tree, j, chain, path) for j in chain
                if j.mimic is not None and j.type in MOVING}
    followed = {k: v for k, v in followed.items() if v is not None}
    moving = [j for j in chain if j.type in MOVING and (j.mimic is None or j.name in followed)]
    if len(moving) == len(followed):
        if tip == tree.root:  # a single rigid body (a drone, a sensor): no arm to drive
            raise RobotFileError("no revolute, continuous or prismatic joint moves any link "
                                 f"of the file (root {tree.root!r}): there is no arm to "
                                 "drive", path)
        raise RobotFileError(f"no moving joint between {tree.root!r} and {tip!r}", path)
    # body of each URDF link: the chain link (0 = base, k = moving joint k) it rides on,
    # and its transform in that body's frame at rest (the frame of the moving joint's
    # child); links beyond off-chain joints that move with a chain joint or a gripper
    # joint (the Panda's fingers, a follower of a follower) are drawn following them
    # (Visual.follow stages); their mass stays lumped at rest
    index = {j.name: k + 1 for k, j in enumerate(moving)}
    body, follows, grip = place_links(tree, index, len(moving), path)
    n = len(moving)
    if n > bounds.MAX_JOINTS:
        raise RobotFileError(f"the chain {tree.root} -> {tip} has {n} moving joints, more "
                             f"than the {bounds.MAX_JOINTS} robogui handles", path)
    # the last link frame is the tip frame: everything on body n moves by post^-1
    post = body[tip][1] if body[tip][0] == n else np.eye(4)
    post_inv = np.linalg.inv(post)
    extras = _robogui_extras(root, path)
    materials = {m.name: m for m in model.materials}
    parts = {k: [] for k in range(n + 1)}
    visuals, collisions = [], []  # <collision> geometry goes the visuals' way
    for name, (b, T) in body.items():
        if b == n:
            T = post_inv @ T
        parts[b] += _inertial_parts(tree.links[name], T)
        if name in follows:
            stages, R = follows[name]
            if b == n:  # the first stage hangs on the last body: its frame moved by post
                first = stages[0]
                stages = ((*first[:5], post_inv @ first[5]), *stages[1:])
            follow = tuple((*st[:5], np.asarray(st[5])) for st in stages)
            visuals += _visuals(tree.links[name], R, b, resolver, materials, follow)
        else:
            R, follow = T, ()
            visuals += _visuals(tree.links[name], T, b, resolver, materials)
        collisions += _visuals(tree.links[name], R, b, resolver, materials, follow,
                               tree.links[name].collisions)
    for name, why in getattr(resolver, "dropped", ()):
        if name in body:
            visuals.append(Visual(body[name][0], "mesh", np.eye(4), link=name,
                                  problem=f"a <visual> dropped: {why}"))
    links = []
    for k, j in enumerate(moving):
        # origin: from the previous body frame (or root) to the joint, fixed joints folded
        origin = body[j.parent][1] @ _origin(j.origin)
        links.append(_chain_link(j, origin, post if k == n - 1 else None, parts[k + 1],
                                 extras, path))
    mimic = {index[name] - 1: (index[lead] - 1, mult, off)
             for name, (lead, mult, off) in followed.items()}
    n_free = n - len(mimic)
    poses = {"qz": np.zeros(n_free)}
    poses.update({k: v for k, v in extras["poses"].items() if len(v) == n_free})
    try:
        robot = Robot(links, name=model.name or path.stem, manufacturer="",
                      comment=f"URDF {path.name}, chain {tree.root} -> {tip}",
                      gravity=extras["gravity"] or (0.0, 0.0, -9.81), poses=poses,
                      source=str(path), base_link=tree.root, tip=tip, visuals=visuals,
                      mimic=mimic, collisions=collisions,
                      gripper=gripper_joints(grip, follows),
                      disabled_collisions=srdf_disabled_collisions(path, model.name))
    except ValueError as exc:  # e.g. limits of a leader and its followers that never meet
        raise RobotFileError(f"chain {tree.root} -> {tip}: {exc}", path) from None
    # qz is the zero pose within the limits (the Panda's joint 4 stops short of 0), then
    # the named poses of an SRDF beside the file (MoveIt's group states), in the limits
    # the robot ended up with; the file's own robogui poses win over them
    try:
        qz = robot.clip_q(poses.pop("qz"))
    except ValueError as exc:  # e.g. a prismatic joint without travel limits
        raise RobotFileError(f"chain {tree.root} -> {tip}: {exc}", path) from None
    named = srdf_poses(path, model.name, [L.name for L in robot.links], robot.qlim)
    if named or qz.any():
        robot = robot.replace(poses={"qz": qz, **named, **poses})
    return robot


def _some(names: list[str], what: str, shown: int = 12) -> str:
    """``a, b, c`` or, for a long list, ``12 of 100,000 tips: a, b, ...`` (messages stay
    readable: at most about 500 characters)."""
    names = [n if len(n) <= 40 else n[:37] + "..." for n in names[:shown]] + names[shown:]
    if len(names) <= shown:
        return f"{what}: " + ", ".join(names)
    return f"{shown} of {len(names):,} {what}: " + ", ".join(names[:shown]) + ", ..."


def _chain_leader(tree, j, chain, path: Path):
    """(leader joint name, multiplier, offset) of the on-chain mimic joint ``j`` when its
    leader is a moving joint on the chain (a leader that mimics in turn is followed
    through: the coupling is composed), else None."""
    leader, mult, off = resolve_mimic(tree, j, path)
    if leader not in chain or leader.type not in MOVING:
        return None
    return leader.name, mult, off


_cache: dict = {}
_package_path: list[str] = []
_xacro_args: dict[str, str] = {}


def set_package_path(paths: Sequence[str]) -> None:
    """Folders (or NAME=DIR) searched for packages by every later load without an
    explicit ``package_path`` (the command line's ``--package-path``)."""
    _package_path[:] = [str(p) for p in paths]


def add_package_path(paths: Sequence[str]) -> None:
    """Add folders (or NAME=DIR) to those :func:`set_package_path` set, keeping them (the
    robot gallery adds the package folders a packaged robot needs)."""
    _package_path.extend(p for p in map(str, paths) if p not in _package_path)


def package_path() -> list[str]:
    """The folders (or NAME=DIR) :func:`set_package_path` gave, in order."""
    return list(_package_path)


def set_xacro_args(args: Mapping[str, str]) -> None:
    """xacro arguments (NAME -> VALUE) for every later load without explicit
    ``xacro_args`` (the command line's ``--xacro-arg NAME:=VALUE``)."""
    _xacro_args.clear()
    _xacro_args.update({str(k): str(v) for k, v in args.items()})


def load_urdf(path: str | os.PathLike, tip: str | None = None,
              package_path: Sequence[str] | str | None = None,
              xacro_args: Mapping[str, str] | None = None) -> Robot:
    """The serial chain of a URDF or xacro file from its root link to ``tip``.

    ``tip`` None: the arm's flange by the default-tip rule (:mod:`.chain_ends`: gripper
    joints never count, a flange's name wins); when it cannot decide (two arms)
    RobotFileError lists the choices. ``package_path``: extra
    folders (or ``NAME=DIR`` mappings) for ``package://`` and ``$(find)``, searched
    after the file's ancestor folders and before ``ROS_PACKAGE_PATH``. ``xacro_args``:
    values of the xacro's ``$(arg NAME)`` (an argument the file needs and nobody gave is
    an error naming it).
    """
    path = Path(path)
    if package_path is None:
        package_path = list(_package_path)
    if isinstance(package_path, (str, os.PathLike)):
        package_path = [str(package_path)]
    try:
        st = check_regular(path)  # a FIFO or device: its own reason, never a read
    except OSError as exc:
        raise RobotFileError(f"cannot read the file ({exc.strerror or exc})", path) from None
    if xacro_args is None:
        xacro_args = dict(_xacro_args)
    xacro_args = {str(k): str(v) for k, v in xacro_args.items()}
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size, tip, tuple(package_path),
           os.environ.get("ROS_PACKAGE_PATH", ""), tuple(sorted(xacro_args.items())),
           limits())
    hit = _cache.get(key)
    if hit is not None:
        return hit
    root, model, resolver = _parse(path, package_path, xacro_args)
    robot = _build(path, root, model, resolver, tip)
    _cache[key] = robot
    return robot
