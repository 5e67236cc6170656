"""A robot's collision geometry, built once per robot: coal shapes placed in link frames,
the bodies they ride on, and the link pairs that are checked.

Where the geometry comes from:
* ``robot.collisions`` (URDF ``<collision>`` elements, capsules of the robot file): as given,
  meshes as coal BVH models of their triangles (Pinocchio's ``buildGeomFromUrdf`` does the
  same), or their convex hulls with ``convex=True``;
* else, for robots drawn as sticks (D-H, ROBOOP, Rob_Mat, URDF without geometry): a capsule
  around every drawn link stick and the tool stick (radius per link from the robot file's
  ``collision_radius``, else :func:`default_radius`; the tool stick 0.6 times it) and a
  short capsule along each revolute joint's axis where the view draws its cylinder (radius
  1.3 times that, length 2.2 times). Pairs of this made-up geometry that touch at the zero
  pose ``qz`` (the wrist's three joints at one point) are not checked, as MoveIt's setup
  assistant disables pairs "in collision by default".

Pairs: every two pieces on different bodies, except bodies joined by one joint (a body and
its parent) and link pairs in ``robot.disabled_collisions`` (an SRDF's
``disable_collisions``). A robot file with collision geometry and no such list (no SRDF,
or one without ``disable_collisions``) gets the setup assistant's "Default" rule: link
pairs in contact in the pose the robot opens in (:func:`~robogui.engine.model.start_pose.
start_q`) are not checked (``RobotGeometry.allowed_at_start``). Its makers drew those
shapes around parts that rest against each other there (the Unitree Z1 folded at home, an
Interbotix gripper's closed fingers): checked, the robot would open in collision and stay
red wherever it went. A body is a link frame of ``fkine_all`` (fixed joints folded into
it), or a part beyond a joint off the chain that mimics a chain joint (its parent is the
frame it hangs from).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .meshes import read_mesh

__all__ = ["Piece", "RobotGeometry", "robot_geometry", "default_radius", "coal_shape",
           "capsule_between"]


@dataclass(frozen=True)
class Piece:
    """One collision shape of the robot.

    body : index of the rigid body it rides on (see :class:`RobotGeometry`).
    frame : the ``fkine_all`` frame it is placed in.
    link : the link name pairs are reported with.
    kind : "box", "cylinder", "sphere", "capsule" or "mesh".
    size : as :class:`robogui.engine.model.visual.Visual` (m).
    T : placement in the frame, (4, 4).
    centre, radius : a sphere holding the shape, centre in the frame (3,), radius (m).
    follow : () or the Visual's follow tuple (a part moving with a mimic joint).
    segment : for a capsule, its axis end points in the frame, (2, 3) (else None).
    """

    body: int
    frame: int
    link: str
    kind: str
    size: tuple
    T: np.ndarray
    centre: np.ndarray
    radius: float
    geometry: object
    follow: tuple = ()
    segment: np.ndarray | None = None


@dataclass(frozen=True)
class RobotGeometry:
    """The pieces, their bodies and the checked self pairs of one robot.

    pieces : tuple of :class:`Piece`.
    parent : (n_bodies_total,) parent body of each body (-1 for the base body 0).
    self_pairs : (k, 2) int, piece index pairs checked against each other.
    n_frames : frames of ``fkine_all`` (n_bodies + 1).
    allowed_at_start : link name pairs (sorted) left out because they are in contact in
        the pose the robot opens in (the module docstring's "Default" rule).
    """

    pieces: tuple
    parent: np.ndarray
    self_pairs: np.ndarray
    n_frames: int
    allowed_at_start: tuple = ()

    @property
    def links(self) -> tuple[str, ...]:
        return tuple(p.link for p in self.pieces)


def default_radius(robot) -> float:
    """Capsule radius of a stick robot: 2.5 % of its reach, within 5 mm .. 80 mm."""
    return float(min(max(0.025 * robot.reach, 0.005), 0.08))


def coal_shape(kind: str, size, mesh=None, convex: bool = False):
    """The coal geometry of a primitive (size in m, as Visual) or a mesh ``(v, f)``."""
    import coal

    if kind == "box":
        return coal.Box(*[float(s) for s in size])
    if kind == "sphere":
        return coal.Sphere(float(size[0]))
    if kind == "cylinder":
        return coal.Cylinder(float(size[0]), float(size[1]))
    if kind == "capsule":
        return coal.Capsule(float(size[0]), float(size[1]))
    if kind == "mesh":
        v, f = mesh
        v = np.ascontiguousarray(v, dtype=float)
        if convex:
            return coal.Convex.convexHull(v, False, None)
        m = coal.BVHModelOBBRSS()
        m.beginModel(len(f), len(v))
        m.addVertices(v)
        m.addTriangles(np.ascontiguousarray(f, dtype=np.int64))
        m.endModel()
        return m
    raise ValueError(f"no collision shape for kind {kind!r}")


def _bounding(kind: str, size, mesh) -> tuple[np.ndarray, float]:
    """Centre (3,) and radius of a sphere holding the shape, in its own frame."""
    if kind == "box":
        return np.zeros(3), 0.5 * math.sqrt(sum(float(s) ** 2 for s in size))
    if kind == "sphere":
        return np.zeros(3), float(size[0])
    if kind == "cylinder":
        return np.zeros(3), math.hypot(size[0], size[1] / 2)
    if kind == "capsule":
        return np.zeros(3), float(size[0] + size[1] / 2)
    v = np.asarray(mesh[0], float)
    c = 0.5 * (v.min(axis=0) + v.max(axis=0))
    return c, float(np.max(np.linalg.norm(v - c, axis=1)))


def capsule_between(p0, p1, radius: float) -> tuple[np.ndarray, tuple]:
    """Placement (4, 4) and size (radius, length) of a capsule whose axis runs p0 -> p1."""
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    length = float(np.linalg.norm(d))
    z = d / length
    x = np.cross(z, [1.0, 0, 0] if abs(z[0]) < 0.9 else [0, 1.0, 0])
    x /= np.linalg.norm(x)
    T = np.eye(4)
    T[:3, :3] = np.column_stack([x, np.cross(z, x), z])
    T[:3, 3] = 0.5 * (p0 + p1)
    return T, (float(radius), length)


def _frame_name(robot, frame: int) -> str:
    if frame == 0:
        return robot.base_link or "base"
    L = robot.chain[frame - 1]
    return L.name or f"link{frame}"


def _stick_capsules(robot, radii) -> list[tuple]:
    """(frame, p0, p1, radius) of every drawn stick (as the 3D view draws them), the tool,
    and each revolute joint's short capsule along its axis; ``radii`` (n_bodies,) per link."""
    segs = []  # (frame, p0, p1, radius)

    def joint(frame, A, r):  # 1.3 r thick, 2.2 r long, along the axis frame A's z
        h = 1.1 * r
        segs.append((frame, A[:3, 3] - h * A[:3, 2], A[:3, 3] + h * A[:3, 2], 1.3 * r))

    if robot.is_general:
        jm = robot.full.joint_models
        for b in range(robot.n_bodies):
            r = radii[b]
            post_inv = np.linalg.inv(jm.post[b])
            segs += [(b, np.zeros(3), jm.pre[b][:3, 3], r),
                     (b + 1, post_inv[:3, 3], np.zeros(3), r)]
            if jm.revolute[b]:
                joint(b + 1, post_inv, r)  # the joint axis frame in link frame b + 1
    else:
        mdh = robot.dh_arrays.mdh
        for j, L in enumerate(robot.links):
            r = radii[j]
            if L.joint == "R":
                joint(j + 1 if mdh else j, np.eye(4), r)
            if mdh:
                segs.append((j, np.zeros(3), np.array([L.a, 0, 0]), r))
                if L.joint == "R":
                    segs.append((j + 1, np.array([0, 0, -L.d]), np.zeros(3), r))
            else:
                if L.joint == "R":
                    segs.append((j, np.zeros(3), np.array([0, 0, L.d]), r))
                segs.append((j + 1, np.array([-L.a, 0, 0]), np.zeros(3), r))
    tip = np.asarray(robot.tool)[:3, 3]
    if np.linalg.norm(tip) > 1e-9:
        segs.append((robot.n_bodies, np.zeros(3), tip, 0.6 * radii[-1]))
    return [s for s in segs if np.linalg.norm(np.subtract(s[2], s[1])) > 1e-9]


def robot_geometry(robot, convex: bool = False, radius: float | None = None) -> RobotGeometry:
    """Build the collision geometry of ``robot`` (see the module docstring).

    convex : meshes as their convex hulls (faster, conservative) instead of triangles.
    radius : capsule radius of a stick robot (m); default per link ``robot.collision_radii``
        (the robot file's ``collision_radius``), else :func:`default_radius`.
    Raises ValueError naming a mesh file that cannot be read.
    """
    n_frames = robot.n_bodies + 1
    records = []  # (frame, link, kind, size, T, mesh, follow, segment)
    if robot.collisions:
        for c in robot.collisions:
            mesh = read_mesh(c.filename, c.scale) if c.kind == "mesh" else None
            seg = None
            if c.kind == "capsule":
                half = np.array([0, 0, c.size[1] / 2])
                M = c.matrix
                seg = np.array([M[:3, :3] @ -half + M[:3, 3], M[:3, :3] @ half + M[:3, 3]])
            records.append((c.frame, c.link or _frame_name(robot, c.frame), c.kind,
                            tuple(c.size), c.matrix, mesh, c.follow, seg))
    else:
        r = default_radius(robot) if radius is None else float(radius)
        radii = np.full(robot.n_bodies, r)
        if radius is None and robot.collision_radii:  # the robot file's, per link
            given = np.asarray(robot.collision_radii)
            radii = np.where(given > 0, given, r)
        for frame, p0, p1, rk in _stick_capsules(robot, radii):
            T, size = capsule_between(p0, p1, rk)
            records.append((frame, _frame_name(robot, frame), "capsule", size, T, None, (),
                            np.array([p0, p1], float)))
    # bodies: the frames, then one per distinct follow (mimic) part hanging from a frame
    parent = list(range(-1, n_frames - 1))
    follow_body: dict[tuple, int] = {}
    pieces = []
    for frame, link, kind, size, T, mesh, follow, seg in records:
        body = frame
        if follow:
            key = (frame, follow[:5])
            if key not in follow_body:
                follow_body[key] = len(parent)
                parent.append(frame)
            body = follow_body[key]
        c, rad = _bounding(kind, size, mesh)
        centre = T[:3, :3] @ c + T[:3, 3]
        pieces.append(Piece(body, frame, link, kind, size, T, centre, rad,
                            coal_shape(kind, size, mesh, convex), follow, seg))
    parent = np.array(parent)
    disabled = set(robot.disabled_collisions)
    pairs = []
    for a in range(len(pieces)):
        for b in range(a + 1, len(pieces)):
            pa, pb = pieces[a], pieces[b]
            if pa.body == pb.body or parent[pa.body] == pb.body or parent[pb.body] == pa.body:
                continue
            if tuple(sorted((pa.link, pb.link))) in disabled:
                continue
            pairs.append((a, b))
    pairs = np.array(pairs, dtype=int).reshape(-1, 2)
    allowed: tuple = ()
    if not robot.collisions and len(pairs):
        pairs = pairs[~_touching_at_rest(robot, pieces, pairs)]
    elif len(pairs) and not disabled:
        touching = _in_contact_at_start(robot, pieces, pairs)
        allowed = tuple(sorted({tuple(sorted((pieces[a].link, pieces[b].link)))
                                for a, b in pairs[touching]}))
        if allowed:  # by link, as an SRDF disables them: a link's other shapes as well
            link_pairs = [tuple(sorted((pieces[a].link, pieces[b].link))) for a, b in pairs]
            pairs = pairs[[lp not in allowed for lp in link_pairs]].reshape(-1, 2)
    return RobotGeometry(tuple(pieces), parent, pairs, n_frames, allowed)


def _in_contact_at_start(robot, pieces, pairs) -> np.ndarray:
    """(k,) True for piece pairs in contact in the pose the robot opens in: bounding spheres
    first, coal on the pairs they do not keep apart."""
    import coal

    from robogui.engine.kinematics.kinematics import fkine_all
    from robogui.engine.model.start_pose import start_q
    from robogui.engine.model.visual import follow_matrices

    q = start_q(robot)
    F = np.asarray(fkine_all(robot, q)).reshape(-1, 4, 4)
    cp = robot.coupling
    Q = q[None] if cp is None else q[None] @ cp.E.T + cp.c
    W = np.array([F[p.frame] @ (follow_matrices(p.follow, Q)[0] if p.follow else np.eye(4))
                  @ p.T for p in pieces])
    # a piece's centre is given in its frame: back into its placement, then into the world
    local = np.array([np.linalg.solve(p.T, np.append(p.centre, 1.0))[:3] for p in pieces])
    centre = np.einsum("pij,pj->pi", W[:, :3, :3], local) + W[:, :3, 3]
    rad = np.array([p.radius for p in pieces])
    a, b = pairs[:, 0], pairs[:, 1]
    near = np.linalg.norm(centre[a] - centre[b], axis=1) <= rad[a] + rad[b]
    req, res = coal.CollisionRequest(), coal.CollisionResult()
    out = np.zeros(len(pairs), bool)
    for k in np.nonzero(near)[0]:
        res.clear()
        tf = [coal.Transform3s(W[i, :3, :3].copy(), W[i, :3, 3].copy()) for i in pairs[k]]
        out[k] = coal.collide(pieces[a[k]].geometry, tf[0], pieces[b[k]].geometry, tf[1],
                              req, res) > 0
    return out


def _touching_at_rest(robot, pieces, pairs) -> np.ndarray:
    """(k,) True for capsule pairs in contact at the zero pose (made-up stick geometry)."""
    from robogui.engine.kinematics.kinematics import fkine_all

    from .segments import segment_distance

    q0 = robot.poses.get("qz", np.zeros(robot.n))
    F = np.asarray(fkine_all(robot, q0))
    ends = np.array([F[p.frame, :3, :3] @ p.segment.T + F[p.frame, :3, 3:4] for p in pieces])
    ends = ends.transpose(0, 2, 1)  # (P, 2, 3)
    rad = np.array([p.size[0] for p in pieces])
    a, b = pairs[:, 0], pairs[:, 1]
    d = segment_distance(ends[a, 0], ends[a, 1], ends[b, 0], ends[b, 1]) - rad[a] - rad[b]
    return d <= 0
