"""Batched collision checks of a robot among obstacles: verdicts, signed distances, pairs.

Per batch of joint states: every piece's world pose from one batched ``fkine_all``; a broad
phase in numpy on all (state, pair) at once (bounding spheres of the robot's pieces against
each other, against the obstacles' oriented boxes and the floor plane) gives a lower bound of
every pair's distance; capsule and sphere pairs (stick robots, sphere and capsule obstacles,
the floor) get their exact distance in numpy; the other pairs whose bound allows contact go to
coal (``coal.collide``; ``coal.distance`` in branch-and-bound order for the smallest
distance), so the Python loop runs over the few pairs that are near, not over all of them.

Signed distance: negative is the penetration depth (coal's convention, as Pinocchio's
``computeDistances``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from robogui.engine.checks import as_joint_array
from robogui.engine.kinematics.kinematics import fkine_all
from robogui.engine.model.visual import follow_matrices

from .robot_geometry import RobotGeometry, coal_shape, robot_geometry
from .segments import segment_distance

__all__ = ["Obstacle", "CollisionWorld", "CollisionReport", "FLOOR"]

FLOOR = "floor"
#: below this many near capsule-box pairs in a batch, coal checks them one by one (the
#: 60 vectorised golden-section steps cost more than a few coal calls)
_FEW = 48
#: the floor is not checked against these bodies (the base and the first link stand on it)
_FLOOR_EXEMPT = (0, 1)


@dataclass(frozen=True)
class Obstacle:
    """A fixed object: ``kind`` "box", "cylinder", "sphere", "capsule" or "mesh", ``size``
    as :class:`robogui.engine.model.visual.Visual` (m), pose ``T`` (4, 4) in the world,
    ``mesh`` ``(vertices (v, 3), faces (f, 3))`` for a mesh."""

    name: str
    kind: str
    size: tuple
    T: np.ndarray
    mesh: tuple | None = None


class CollisionReport:
    """What :meth:`CollisionWorld.check` found, per state.

    colliding : (m,) bool, a pair in contact (``distance < 0`` for primitives).
    distance : (m,) the smallest signed distance over all checked pairs (m; negative =
        penetration depth); ``nan`` when not computed (``distance=False``), ``inf`` with
        nothing to check.
    pairs : per state the list of ``(name_a, name_b)`` in contact (robot link names, object
        names as in the cell, ``"floor"``).
    depths : per state the penetration depth (m, >= 0) of each pair in ``pairs`` (zeros
        when the distances were not computed).
    nearest : per state the pair ``(name_a, name_b)`` of the smallest distance, or None.
    For a single state (q of shape (n,)) every field is that state's value (a bool, a
    float, a list, a tuple).
    """

    def __init__(self, colliding, distance, pairs, depths, nearest, bounds=None):
        self.colliding, self.distance = colliding, distance
        # lists, or one callable making (pairs, depths) on first use: a batch of 100,000
        # states checked for its verdicts never builds 200,000 lists
        self._pairs, self._depths = pairs, depths
        self._nearest = nearest  # a list, or a callable making it (names on demand)
        #: (m, k) per state and checked pair a lower bound of its signed distance (exact
        #: where it was computed), m; a nearby state's check starts from them (``previous``
        #: of CollisionWorld.check)
        self.bounds = bounds

    def _lists(self) -> None:
        if callable(self._pairs):
            self._pairs, self._depths = self._pairs()

    @property
    def pairs(self):
        self._lists()
        return self._pairs

    @pairs.setter
    def pairs(self, value) -> None:
        self._pairs = value

    @property
    def depths(self):
        self._lists()
        return self._depths

    @depths.setter
    def depths(self, value) -> None:
        self._depths = value

    @property
    def nearest(self):
        if callable(self._nearest):
            self._nearest = self._nearest()
        return self._nearest

    def single(self) -> CollisionReport:
        """The report of state 0 with plain values."""
        return CollisionReport(bool(self.colliding[0]), float(self.distance[0]),
                               self.pairs[0], self.depths[0], self.nearest[0],
                               None if self.bounds is None else self.bounds[0])

    def __repr__(self) -> str:
        return (f"CollisionReport(colliding={self.colliding!r}, distance={self.distance!r}, "
                f"pairs={self.pairs!r})")


class CollisionWorld:
    """A robot, its collision geometry and fixed obstacles, built once; :meth:`check` runs
    the batched checks.

    robot : the Robot (its ``collisions``, else capsules around its sticks).
    obstacles : :class:`Obstacle` s in the world.
    base : (4, 4) where the robot's base frame stands in the world (the cell's base pose;
        the robot's own base transform follows it).
    floor_z : height of the floor plane (m), or None for no floor.
    self_collisions : check the robot against itself.
    geometry : a prebuilt :class:`RobotGeometry` (else built from the robot; an object the
        robot holds is a piece of it: :func:`.attached.with_attached`).
    exclude : pairs ``(piece link name, obstacle name)`` not checked (a held part and what
        it stands on).
    """

    def __init__(self, robot, obstacles=(), base=None, floor_z: float | None = None,
                 self_collisions: bool = True, geometry: RobotGeometry | None = None,
                 exclude=()):
        import coal

        self.robot = robot
        self.geometry = geom = geometry if geometry is not None else robot_geometry(robot)
        self.base = np.eye(4) if base is None else np.asarray(base, float)
        self.obstacles = tuple(obstacles)
        P = len(geom.pieces)
        self._coal = [p.geometry for p in geom.pieces]
        self._tf = [coal.Transform3s() for _ in range(P)]
        names = list(geom.links)
        # obstacles: coal shapes, fixed transforms, oriented boxes for the broad phase
        self._obs_shape, self._obs_tf = [], []
        half, centre_local, obs_T = [], [], []
        obs_seg, obs_rad = [], []
        # everything is expressed in the frame fkine_all works in (the robot's world): the
        # obstacles are moved by base^-1 once instead of every link frame by base per state
        base_inv = np.linalg.inv(self.base)
        for ob in self.obstacles:
            shape = coal_shape(ob.kind, ob.size, ob.mesh)
            T = base_inv @ np.asarray(ob.T, float)
            self._obs_shape.append(shape)
            self._obs_tf.append(coal.Transform3s(T[:3, :3].copy(), T[:3, 3].copy()))
            shape.computeLocalAABB()
            lo, hi = np.asarray(shape.aabb_local.min_), np.asarray(shape.aabb_local.max_)
            half.append((hi - lo) / 2)
            centre_local.append((hi + lo) / 2)
            obs_T.append(T)
            seg, rad = _segment_of(ob.kind, ob.size, T)
            obs_seg.append(seg)
            obs_rad.append(rad)
            names.append(ob.name)
        self._names = names
        self._obs_half = np.array(half).reshape(-1, 3)
        self._obs_centre = np.array(centre_local).reshape(-1, 3)
        self._obs_T = np.array(obs_T).reshape(-1, 4, 4)
        self.floor_z = floor_z
        if floor_z is not None:  # z_world <= floor_z, in the robot's frame
            self._floor_n = self.base[2, :3].copy()
            self._floor_d = float(floor_z) - float(self.base[2, 3])
            self._floor = coal.Halfspace(self._floor_n, self._floor_d)
            self._floor_tf = coal.Transform3s()
        # pairs: (a, b, kind) with kind 0 self, 1 obstacle (b indexes obstacles), 2 floor
        self_pairs = geom.self_pairs if self_collisions else np.zeros((0, 2), int)
        skip = {tuple(x) for x in exclude}
        env = [(a, o) for a in range(P) for o in range(len(self.obstacles))
               if not skip or (geom.pieces[a].link, self.obstacles[o].name) not in skip]
        flo = [(a, 0) for a in range(P) if floor_z is not None
               and geom.pieces[a].frame not in _FLOOR_EXEMPT]
        self._pairs = [np.asarray(x, int).reshape(-1, 2) for x in (self_pairs, env, flo)]
        self._piece_frame = np.array([p.frame for p in geom.pieces], int)
        self._piece_T = np.array([p.T for p in geom.pieces]).reshape(-1, 4, 4)
        self._piece_c = np.array([p.centre for p in geom.pieces]).reshape(-1, 3)
        self._piece_r = np.array([p.radius for p in geom.pieces])
        # capsule / sphere pieces: segment end points in their frame, radius
        seg = np.zeros((P, 2, 3))
        rad = np.full(P, np.nan)
        for k, p in enumerate(geom.pieces):
            if p.kind == "capsule":
                seg[k], rad[k] = p.segment, p.size[0]
            elif p.kind == "sphere":
                seg[k] = p.T[:3, 3]
                rad[k] = p.size[0]
        self._piece_seg, self._piece_rad = seg, rad
        # the same points in each piece's own placement (the frame's points are T @ these)
        Ti = np.linalg.inv(self._piece_T) if P else np.zeros((0, 4, 4))
        self._piece_c_local = np.einsum("pij,pj->pi", Ti[:, :3, :3], self._piece_c) \
            + Ti[:, :3, 3] if P else np.zeros((0, 3))
        self._piece_seg_local = seg @ Ti[:, :3, :3].transpose(0, 2, 1) + Ti[:, None, :3, 3] \
            if P else np.zeros((0, 2, 3))
        self._obs_seg = np.array(obs_seg).reshape(-1, 2, 3)
        self._obs_rad = np.array(obs_rad, float)
        self._obs_box = np.array([ob.kind == "box" for ob in self.obstacles], bool)
        self._follow = [k for k, p in enumerate(geom.pieces) if p.follow]
        self._last_poses = None  # (q, piece poses (1, P, 4, 4)) of the last live check

    # -- poses ------------------------------------------------------------------------
    def _frames(self, q2d) -> tuple[np.ndarray, np.ndarray | None]:
        """Link frames (m, nf, 4, 4) in the robot's frame, and the world poses of the parts
        that follow a mimic joint (m, len(follow), 4, 4) or None."""
        F = np.asarray(fkine_all(self.robot, q2d)).reshape(len(q2d), -1, 4, 4)
        if not self._follow:
            return F, None
        cp = self.robot.coupling
        Q = q2d if cp is None else q2d @ cp.E.T + cp.c
        Wf = np.empty((len(q2d), len(self._follow), 4, 4))
        for i, k in enumerate(self._follow):  # the gripper at rest
            p = self.geometry.pieces[k]
            Wf[:, i] = F[:, p.frame] @ (follow_matrices(p.follow, Q) @ p.T)
        return F, Wf

    def _points(self, F, Wf, local: np.ndarray) -> np.ndarray:
        """World points of the pieces: ``local`` (P, s, 3) in each piece's placement ->
        (m, P, s, 3); elementwise products (numpy's stacked 4x4 matmul is slow)."""
        T = self._piece_T
        pts = local @ T[:, :3, :3].transpose(0, 2, 1) + T[:, None, :3, 3]  # in the frame
        G = F[:, self._piece_frame]  # (m, P, 4, 4)
        out = (G[:, :, None, :3, 0] * pts[None, :, :, 0, None]
               + G[:, :, None, :3, 1] * pts[None, :, :, 1, None]
               + G[:, :, None, :3, 2] * pts[None, :, :, 2, None] + G[:, :, None, :3, 3])
        if Wf is not None:
            for i, k in enumerate(self._follow):
                out[:, k] = local[k] @ Wf[:, i, :3, :3].transpose(0, 2, 1) \
                    + Wf[:, i, None, :3, 3]
        return out

    def piece_poses(self, q) -> np.ndarray:
        """Poses of the pieces in the robot's frame (the world moved by the cell's base
        inverse): q (m, n) -> (m, P, 4, 4)."""
        q2d, _ = as_joint_array(q, self.robot.n)
        return self._world_poses(*self._frames(q2d))

    def _world_poses(self, F, Wf) -> np.ndarray:
        W = F[:, self._piece_frame] @ self._piece_T
        for i, k in enumerate(self._follow):
            W[:, k] = Wf[:, i]
        return W

    def _pose(self, F, Wf, i: int, k: int) -> np.ndarray:
        """Pose (4, 4) of piece k at state i."""
        if Wf is not None and k in self._follow:
            return Wf[i, self._follow.index(k)]
        return F[i, self._piece_frame[k]] @ self._piece_T[k]

    # -- the check ------------------------------------------------------------------------
    def check(self, q, distance: bool = True, previous=None) -> CollisionReport:
        """Verdicts, smallest signed distances and contact pairs for q (n,) or (m, n).

        distance : False skips the exact smallest distance (verdicts and pairs only,
            faster); ``report.distance`` is then nan.
        previous : optional ``(q0, bounds)``, a nearby state q0 (n,) and its report's
            ``bounds`` (k,): a pair's signed distance changes by no more than its two
            things move, so ``bounds`` minus the pieces' displacements from q0 (their
            bounding spheres' centres plus radius times the change of orientation) are
            lower bounds here, and pairs they keep apart skip coal (a drag frame's check).
        """
        q2d, single = as_joint_array(q, self.robot.n)
        m = len(q2d)
        F, Wf = self._frames(q2d)
        W = (F, Wf)
        # centres and capsule axes in one pass: points given in each piece's placement
        local = np.concatenate([self._piece_c_local[:, None], self._piece_seg_local], axis=1)
        pts = self._points(F, Wf, local)
        centre, seg = pts[:, :, 0], pts[:, :, 1:]
        # lower bounds (m, k) and exact distances where numpy has them
        lbs, exact = [], []
        ps, po, pf = self._pairs
        # self: bounding spheres; capsules/spheres exact
        cdist = np.linalg.norm(centre[:, ps[:, 0]] - centre[:, ps[:, 1]], axis=-1)
        d = cdist - self._piece_r[ps[:, 0]] - self._piece_r[ps[:, 1]]
        ex = ~np.isnan(self._piece_rad[ps[:, 0]]) & ~np.isnan(self._piece_rad[ps[:, 1]])
        if ex.any():
            a, b = ps[:, 0], ps[:, 1]
            rad = self._piece_rad[a] + self._piece_rad[b]
            _refine(d, cdist, rad, ex, distance, lambda i, k: segment_distance(
                seg[i, a[k], 0], seg[i, a[k], 1], seg[i, b[k], 0], seg[i, b[k], 1]) - rad[k])
        lbs.append(d)
        exact.append(np.broadcast_to(ex, d.shape))
        # obstacles: sphere against the oriented box; capsules/spheres exact
        if len(po):
            a, o = po[:, 0], po[:, 1]
            T = self._obs_T[o]
            rel = centre[:, a] - T[:, :3, 3]
            loc = np.einsum("kji,mkj->mki", T[:, :3, :3], rel) - self._obs_centre[o]
            out = np.maximum(np.abs(loc) - self._obs_half[o], 0.0)
            d = np.linalg.norm(out, axis=-1) - self._piece_r[a]
            ex = ~np.isnan(self._piece_rad[a]) & ~np.isnan(self._obs_rad[o])
            if ex.any():
                os_ = self._obs_seg[o]
                rad = self._piece_rad[a] + self._obs_rad[o]
                cdist = np.zeros_like(d)
                cdist[:, ex] = np.linalg.norm(centre[:, a[ex]] - os_[ex].mean(axis=1), axis=-1)
                _refine(d, cdist, rad, ex, distance, lambda i, k: segment_distance(
                    seg[i, a[k], 0], seg[i, a[k], 1], os_[k, 0], os_[k, 1]) - rad[k])
            ex = np.broadcast_to(ex, d.shape).copy()
            bc = ~np.isnan(self._piece_rad[a]) & self._obs_box[o]
            if bc.any():  # capsules and spheres against boxes, in numpy
                self._capsule_box(d, ex, np.linalg.norm(out, axis=-1), seg, a, o, bc, distance)
        else:
            d, ex = np.zeros((m, 0)), np.zeros((m, 0), bool)
        lbs.append(d)
        exact.append(ex)
        # floor: sphere height; capsules/spheres exact (lowest end point)
        if len(pf):
            a = pf[:, 0]
            n, d0 = self._floor_n, self._floor_d
            d = centre[:, a] @ n - self._piece_r[a] - d0
            ex = ~np.isnan(self._piece_rad[a])
            if ex.any():
                d[:, ex] = (seg[:, a[ex]] @ n).min(axis=-1) - self._piece_rad[a[ex]] - d0
        else:
            d, ex = np.zeros((m, 0)), np.zeros(0, bool)
        lbs.append(d)
        exact.append(np.broadcast_to(ex, d.shape))
        lb = np.concatenate(lbs, axis=1)
        ex = np.concatenate(exact, axis=1)
        pairs = np.concatenate([np.column_stack([p, np.full(len(p), k)])
                                for k, p in enumerate(self._pairs)]).reshape(-1, 3)
        if previous is not None:
            lb = np.where(ex, lb, np.maximum(lb, self._carried(previous, F, Wf, lb.shape[1])))
        if single and distance:  # kept for the next state's ``previous`` (a drag's frames)
            self._last_poses = (q2d[0].copy(), self._world_poses(F, Wf))
        return self._narrow(W, lb, ex, pairs, distance, single)

    def _carried(self, previous, F, Wf, k: int) -> np.ndarray:
        """Lower bounds (m, k) of the pairs' signed distances at the states of ``F``, from a
        nearby state's ``(q0, bounds)`` and how far each piece moved since (see check)."""
        q0, bounds = previous
        bounds = np.asarray(bounds, float).reshape(-1)
        if bounds.shape != (k,):
            raise ValueError(f"previous bounds must hold one per checked pair ({k}), got "
                             f"shape {bounds.shape}")
        q0 = np.asarray(q0, float).reshape(-1)
        last = self._last_poses  # the previous single-state check's (usually q0's)
        W0 = last[1] if last is not None and np.array_equal(last[0], q0) \
            else self.piece_poses(q0)  # (1, P, 4, 4)
        W1 = self._world_poses(F, Wf)
        c = self._piece_c_local
        c0 = np.einsum("mpij,pj->mpi", W0[:, :, :3, :3], c) + W0[:, :, :3, 3]
        c1 = np.einsum("mpij,pj->mpi", W1[:, :, :3, :3], c) + W1[:, :, :3, 3]
        turn = np.linalg.norm(W1[:, :, :3, :3] - W0[:, :, :3, :3], axis=(2, 3))  # >= |dR|_2
        disp = np.linalg.norm(c1 - c0, axis=-1) + self._piece_r * turn  # (m, P)
        ps, po, pf = self._pairs
        moved = np.concatenate([disp[:, ps[:, 0]] + disp[:, ps[:, 1]], disp[:, po[:, 0]],
                                disp[:, pf[:, 0]]], axis=1)
        return bounds[None] - moved

    def _narrow(self, W, lb, ex, pairs, want_distance, single) -> CollisionReport:
        """coal on the pairs numpy could not settle; contacts and smallest distances."""
        import coal

        m = len(lb)
        creq = coal.CollisionRequest(coal.CollisionRequestFlag.CONTACT, 1)
        cres = coal.CollisionResult()
        dreq, dres = coal.DistanceRequest(), coal.DistanceResult()
        # coal's defaults (GJK and EPA to 1e-6, no warm start): depths of deep penetrations
        # between curved shapes (cylinders) are approximate, to ~1e-4 m
        dist = lb.copy()  # exact where ex; refined below where coal is asked
        known = ex.copy()
        hit = known & (lb < 0)
        for i, k in zip(*np.nonzero(~known & (lb <= 0)), strict=True):
            touching, dk = self._coal_collide((W, i), pairs[k], creq, cres)
            if touching:
                # the depth as coal.distance gives it (Pinocchio's computeDistances), which
                # refines EPA further than the contact of coal.collide
                if want_distance:
                    dk = min(dk, self._coal_distance((W, i), pairs[k], dreq, dres)) \
                        if dk == 0.0 else self._coal_distance((W, i), pairs[k], dreq, dres)
                hit[i, k], dist[i, k], known[i, k] = True, min(dk, 0.0), True
        out_d = np.full(m, np.nan)
        nearest = [None] * m
        if want_distance and lb.shape[1]:
            masked = np.where(known, dist, np.inf)
            best_k = masked.argmin(axis=1)
            best = masked[np.arange(m), best_k]
            # branch and bound: coal.distance in the order of the bounds, while one may win
            rows = np.nonzero((~known & (lb < best[:, None])).any(axis=1))[0]
            for i in rows:
                cand = np.nonzero(~known[i] & (lb[i] < best[i]))[0]
                for k in cand[np.argsort(lb[i, cand])]:
                    if lb[i, k] >= best[i]:
                        break
                    dk = self._coal_distance((W, i), pairs[k], dreq, dres)
                    dist[i, k] = dk
                    if dk < best[i]:
                        best[i], best_k[i] = dk, k
            out_d = best

            def nearest():
                return [self._pair_names(pairs[k]) if np.isfinite(b) else None
                        for k, b in zip(best_k, best, strict=True)]
        elif not lb.shape[1]:
            out_d = np.full(m, np.inf)
        colliding = hit.any(axis=1)

        def lists():
            names = [[] for _ in range(m)]
            depth = [[] for _ in range(m)]
            # one pass over the contacts (not the states): a random batch of a 6-axis arm
            # has tens of thousands of states in contact with itself
            ii, kk = np.nonzero(hit)
            if len(ii):
                pair_names = [self._pair_names(p) for p in pairs]
                dd = np.maximum(0.0, -dist[ii, kk]) if want_distance else np.zeros(len(ii))
                for i, k, dk in zip(ii.tolist(), kk.tolist(), dd.tolist(), strict=True):
                    names[i].append(pair_names[k])
                    depth[i].append(dk)
            return names, depth

        rep = CollisionReport(colliding, out_d, lists, None, nearest, dist)
        return rep.single() if single else rep

    def _capsule_box(self, d, known, mid_dist, seg, a, o, cols_mask, want_distance) -> None:
        """Exact distances of capsule (or sphere) pieces to box obstacles where they matter
        (as :func:`_refine`): the distance from the axis segment to the box, minimised by
        golden-section search (it is convex along the segment), minus the radius. Where the
        axis enters the box the depth is left to coal (``known`` stays False)."""
        cols = np.flatnonzero(cols_mask)
        rad = self._piece_rad[a[cols]]
        lb = d[:, cols]
        if want_distance:
            thr = (mid_dist[:, cols] - rad).min(axis=1, keepdims=True)
            need = lb <= np.maximum(thr, 0.0)
        else:
            need = lb <= 0.0
        i, j = np.nonzero(need)
        if len(i) < _FEW:  # a handful (a live check of one state): coal is quicker
            return
        k = cols[j]
        T = self._obs_T[o[k]]
        half, c = self._obs_half[o[k]], self._obs_centre[o[k]]
        ends = np.einsum("nji,nsj->nsi", T[:, :3, :3], seg[i, a[k]] - T[:, None, :3, 3]) \
            - c[:, None]
        p0, v = ends[:, 0], ends[:, 1] - ends[:, 0]

        def f(t):
            return np.linalg.norm(np.maximum(np.abs(p0 + t[:, None] * v) - half, 0.0), axis=1)

        lo, hi = np.zeros(len(i)), np.ones(len(i))
        g = (np.sqrt(5.0) - 1.0) / 2.0
        x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
        f1, f2 = f(x1), f(x2)
        for _ in range(60):  # the bracket shrinks to 0.618^60 = 3e-13 of the segment
            left = f1 <= f2  # the minimum lies in [lo, x2], else in [x1, hi]
            hi = np.where(left, x2, hi)
            lo = np.where(left, lo, x1)
            xn = np.where(left, hi - g * (hi - lo), lo + g * (hi - lo))
            fn = f(xn)
            x1, x2 = np.where(left, xn, x2), np.where(left, x1, xn)
            f1, f2 = np.where(left, fn, f2), np.where(left, f1, fn)
        best = np.minimum(np.minimum(f1, f2), np.minimum(f(np.zeros(len(i))),
                                                         f(np.ones(len(i)))))
        outside = best > 1e-9
        d[i[outside], k[outside]] = best[outside] - self._piece_rad[a[k[outside]]]
        known[i[outside], k[outside]] = True

    def _pair_names(self, pair) -> tuple[str, str]:
        a, b, kind = pair
        P = len(self.geometry.pieces)
        other = FLOOR if kind == 2 else self._names[b] if kind == 0 else self._names[P + b]
        return self._names[a], other

    def _shapes(self, Wi, pair):
        (F, Wf), i = Wi
        a, b, kind = pair
        tf = self._tf[a]
        A = self._pose(F, Wf, i, a)
        tf.setRotation(A[:3, :3])
        tf.setTranslation(A[:3, 3])
        if kind == 0:
            tb = self._tf[b]
            B = self._pose(F, Wf, i, b)
            tb.setRotation(B[:3, :3])
            tb.setTranslation(B[:3, 3])
            return self._coal[a], tf, self._coal[b], tb
        if kind == 1:
            return self._coal[a], tf, self._obs_shape[b], self._obs_tf[b]
        return self._coal[a], tf, self._floor, self._floor_tf

    def _coal_collide(self, Wi, pair, creq, cres) -> tuple[bool, float]:
        import coal

        cres.clear()
        g1, t1, g2, t2 = self._shapes(Wi, pair)
        if not coal.collide(g1, t1, g2, t2, creq, cres):
            return False, 0.0
        c = cres.getContact(0)
        return True, min(float(c.penetration_depth), 0.0)

    def _coal_distance(self, Wi, pair, dreq, dres) -> float:
        import coal

        dres.clear()
        g1, t1, g2, t2 = self._shapes(Wi, pair)
        return float(coal.distance(g1, t1, g2, t2, dreq, dres))


def _refine(d, cdist, rad, ex, want_distance: bool, exact) -> None:
    """Replace the bounds ``d`` (m, k) of the columns ``ex`` (capsule and sphere pairs) by
    exact distances where they matter: where contact is possible (d <= 0), and with
    ``want_distance`` where the pair may be the nearest (its bound below the smallest upper
    bound of the state, ``cdist - rad``: the axis midpoints lie on the axes). The others
    keep their bound, which is above what decides the verdict and the smallest distance.
    ``exact(i, k)`` gives the exact distances of states i and columns k (flat arrays)."""
    cols = np.flatnonzero(ex)
    lb = d[:, cols]
    if want_distance:
        thr = (cdist[:, cols] - rad[cols]).min(axis=1, keepdims=True)
        need = lb <= np.maximum(thr, 0.0)
    else:
        need = lb <= 0.0
    i, j = np.nonzero(need)
    if len(i):
        d[i, cols[j]] = exact(i, cols[j])


def _segment_of(kind: str, size, T) -> tuple[np.ndarray, float]:
    """World end points (2, 3) and radius of a capsule or sphere obstacle (nan radius for
    other shapes)."""
    T = np.asarray(T, float)
    if kind == "sphere":
        return np.array([T[:3, 3], T[:3, 3]]), float(size[0])
    if kind == "capsule":
        h = T[:3, 2] * size[1] / 2
        return np.array([T[:3, 3] - h, T[:3, 3] + h]), float(size[0])
    return np.zeros((2, 3)), float("nan")
