"""MJCF robots: the serial chain of a MuJoCo model from the world to a tip body or site.

The ``mujoco`` package's own compiler reads the file (defaults, includes, angle units,
``<compiler>`` settings, inertias from geoms all as MuJoCo means them); this module reads
the compiled ``MjModel``:

- each hinge or slide joint on the path from the world to the tip is a general joint:
  ``origin`` = the body's placement (pos, quat) after the previous joint's frame, then
  the joint's anchor ``jnt_pos``; ``axis`` = ``jnt_axis``; ``post`` = the anchor back, so
  the link frame is the MuJoCo body frame (``xpos``, ``xmat``); ``offset`` = ``-qpos0``
  (MuJoCo turns a joint by ``qpos - qpos0``), so q = 0 in robogui is qpos = 0;
- bodies without joints (and bodies off the chain, their joints at ``qpos0``) ride on the
  chain body they hang on: mass and inertia lumped into it, geoms drawn in its frame;
  bodies with a free joint off the chain are loose objects, not part of the arm;
- ``jnt_range`` (when limited) -> ``qlim``, ``dof_damping`` -> ``B``,
  ``dof_frictionloss`` -> ``Tc``, ``dof_armature`` -> ``Jm`` (gear 1), a motor's
  ``ctrlrange`` x ``gear`` or the joint's ``actfrcrange`` -> ``tau_max``;
  ``opt.gravity`` -> gravity;
- ``<keyframe>``s -> named poses; the one named ``ready``/``home``/``default``, else the
  first, is where the robot opens (:mod:`robogui.engine.model.start_pose`).

The tip: the end of the longest chain of arm joints (gripper joints, named as
:data:`~robogui.io.tip_names.GRIPPER_WORDS` says, do not count), preferring a body or site
with a flange's name (:func:`~robogui.io.tip_names.flange_rank`).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from robogui.engine import bounds
from robogui.engine.guarded_open import check_regular, read_head
from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.engine.model.start_pose import START_POSE_NAMES

from ..file_error import RobotFileError
from ..tip_names import GRIPPER_WORDS, flange_rank
from .mjcf_visuals import mjcf_visuals, quat_matrix

__all__ = ["load_mjcf", "mjcf_tips", "mjcf_default_tips", "MJCF_SUFFIXES", "is_mjcf"]

MJCF_SUFFIXES = (".xml", ".mjcf")
_FREE, _BALL, _SLIDE, _HINGE = 0, 1, 2, 3


def is_mjcf(path: str | os.PathLike) -> bool:
    """True when the file's root element is ``<mujoco>`` (read from its first 4 KiB,
    through the guarded opener: a FIFO or device is never read, and is not MJCF)."""
    try:
        head = read_head(path, 4096)
    except OSError:
        return False
    import re

    text = re.sub(rb"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>", b"", head, flags=re.S)
    return text.lstrip().startswith(b"<mujoco")


_compiled: dict = {}


def _compile(path: Path):
    """(spec info, MjModel) of the file, read and compiled under the file rules of
    docs/security.md (:mod:`robogui.io.mjcf.mjcf_guard`), or RobotFileError naming the
    file with the reason (MuJoCo's own message when it cannot compile the model)."""
    from robogui.engine.limits import limits

    try:
        st = check_regular(path)
    except OSError as exc:
        raise RobotFileError(f"cannot read the file ({exc.strerror or exc})", path) from None
    if st.st_size == 0:
        raise RobotFileError("the file is empty", path)
    if st.st_size > bounds.MAX_FILE_BYTES:
        raise RobotFileError(f"the file is {st.st_size / 2**20:.1f} MiB; a robot file is at "
                             f"most {bounds.MAX_FILE_BYTES // 2**20} MiB", path)
    if not is_mjcf(path):
        raise RobotFileError("the root element is not <mujoco>: not an MJCF model", path)
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size, limits())
    hit = _compiled.get(key)
    if hit is None:
        from .mjcf_guard import compile_guarded

        hit = compile_guarded(path)
        _compiled.clear()  # one model kept: the tip chooser and the loader ask in turn
        _compiled[key] = hit
    return hit


class _Tree:
    """Bodies and joints of a compiled model, with the arm/gripper split of its joints."""

    def __init__(self, m, path: Path):
        import mujoco

        self.m, self.path = m, path
        name = lambda kind, i: mujoco.mj_id2name(m, kind, i) or ""  # noqa: E731
        self.body_name = [name(mujoco.mjtObj.mjOBJ_BODY, b) or f"body{b}"
                          for b in range(m.nbody)]
        self.joint_name = [name(mujoco.mjtObj.mjOBJ_JOINT, j) or f"joint{j}"
                           for j in range(m.njnt)]
        self.site_name = [name(mujoco.mjtObj.mjOBJ_SITE, s) for s in range(m.nsite)]
        self.parent = [int(p) for p in m.body_parentid]
        self.children: list[list[int]] = [[] for _ in range(m.nbody)]
        for b in range(1, m.nbody):
            self.children[self.parent[b]].append(b)
        self.joints = [list(range(m.body_jntadr[b], m.body_jntadr[b] + m.body_jntnum[b]))
                       for b in range(m.nbody)]
        self.gripper = {j for j in range(m.njnt)
                        if GRIPPER_WORDS.search(self.joint_name[j].lower())}

    def path_to(self, b: int) -> list[int]:
        """Bodies from the world's child to ``b``, root first."""
        out = []
        while b != 0:
            out.append(b)
            b = self.parent[b]
        return out[::-1]

    def arm_joints(self, b: int) -> list[int]:
        """Hinge and slide joints from the world to body ``b``."""
        return [j for k in self.path_to(b) for j in self.joints[k]
                if self.m.jnt_type[j] in (_HINGE, _SLIDE)]

    def ends(self) -> dict[str, tuple[int, int, int | None]]:
        """Every place an arm can end: ``{name: (joint count, body, site or None)}`` for
        the bodies (and their sites) up to the first gripper or free joint."""
        out: dict[str, tuple[int, int, int | None]] = {}
        stack = [(c, 0) for c in self.children[0]]
        while stack:
            b, count = stack.pop()
            js = self.joints[b]
            types = [int(self.m.jnt_type[j]) for j in js]
            if _FREE in types or _BALL in types or any(j in self.gripper for j in js):
                continue
            count += len(js)
            if count:
                out[self.body_name[b]] = (count, b, None)
                for s in range(self.m.nsite):
                    if self.m.site_bodyid[s] == b and self.site_name[s]:
                        out.setdefault(self.site_name[s], (count, b, s))
            stack += [(c, count) for c in self.children[b]]
        return out

    def tips(self) -> list[str]:
        """The default-tip rule's shortlist: among the ends with the most arm joints, the
        best flange names, else the bodies that hold the last arm joint."""
        ends = self.ends()
        if not ends:
            return []
        best = max(c for c, _, _ in ends.values())
        top = {k: v for k, v in ends.items() if v[0] == best}
        ranked = {k: flange_rank(k) for k in top}
        ranked = {k: r for k, r in ranked.items() if r is not None}
        if ranked:
            low = min(ranked.values())
            return sorted(k for k, r in ranked.items() if r == low)
        return sorted(k for k, (_, b, s) in top.items() if s is None and self.joints[b])


def _pose(pos, quat) -> np.ndarray:
    T = np.eye(4)
    T[:3, :3] = quat_matrix(quat)
    T[:3, 3] = pos
    return T


def _shift(p) -> np.ndarray:
    T = np.eye(4)
    T[:3, 3] = p
    return T


def _lump(parts) -> tuple[float, np.ndarray, np.ndarray]:
    """Mass, centre of mass and inertia about it of rigid parts ``(m, c, I)`` in one frame."""
    M = sum(m for m, _, _ in parts)
    if M <= 0:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    c = sum(m * cc for m, cc, _ in parts) / M
    total = np.zeros((3, 3))
    for m, cc, inertia in parts:
        d = cc - c
        total += inertia + m * (d @ d * np.eye(3) - np.outer(d, d))
    return float(M), c, 0.5 * (total + total.T)


def _body_inertial(m, b: int, T: np.ndarray):
    """(m, c, I) of body ``b`` placed by ``T`` (body frame -> link frame)."""
    mass = float(m.body_mass[b])
    if mass <= 0 and not np.any(m.body_inertia[b]):
        return []
    P = T @ _pose(m.body_ipos[b], m.body_iquat[b])
    R = P[:3, :3]
    return [(mass, P[:3, 3].copy(), R @ np.diag(m.body_inertia[b]) @ R.T)]


def _tau_max(m, j: int) -> float | None:
    """A joint's force limit: its actuator's ctrlrange x gear, or the joint's own."""
    out = None
    for a in range(m.nu):
        if m.actuator_trntype[a] == 0 and m.actuator_trnid[a, 0] == j \
                and m.actuator_ctrllimited[a]:
            out = float(np.max(np.abs(m.actuator_ctrlrange[a])) * abs(m.actuator_gear[a, 0]))
    if out is None and m.jnt_actfrclimited[j]:
        out = float(np.max(np.abs(m.jnt_actfrcrange[j])))
    return out if out and np.isfinite(out) else None


def _link(m, tree: _Tree, j: int, origin, post, parts) -> Link:
    dof = m.jnt_dofadr[j]
    qlim = None
    if m.jnt_limited[j] and m.jnt_range[j, 1] > m.jnt_range[j, 0]:
        qlim = (float(m.jnt_range[j, 0]), float(m.jnt_range[j, 1]))
    fr = float(m.dof_frictionloss[dof])
    mass, c, inertia = _lump(parts)
    try:
        return Link(joint="P" if m.jnt_type[j] == _SLIDE else "R", origin=origin,
                    axis=np.array(m.jnt_axis[j], float), post=post,
                    offset=-float(m.qpos0[m.jnt_qposadr[j]]), qlim=qlim,
                    tau_max=_tau_max(m, j), m=mass, r=c, I=inertia,
                    B=float(m.dof_damping[dof]), Tc=(fr, -fr),
                    Jm=float(m.dof_armature[dof]), G=1.0, name=tree.joint_name[j])
    except ValueError as exc:
        raise RobotFileError(f"joint {tree.joint_name[j]!r}: {exc}", tree.path) from None


def _build(path: Path, spec, m, tip: str | None) -> Robot:
    tree = _Tree(m, path)
    ends = tree.ends()
    if tip is None:
        cands = tree.tips()
        if not cands:
            if any(m.jnt_type[j] in (_FREE, _BALL) for j in range(m.njnt)):
                raise RobotFileError("its joints hang on a free or ball joint (a floating "
                                     "base): robogui drives arms fixed to the world", path)
            raise RobotFileError("no hinge or slide joint moves a body of the model: there "
                                 "is no arm to drive", path)
        if len(cands) > 1:
            raise RobotFileError(f"several tips are possible: {', '.join(cands)}; choose "
                                 "one (tip=...)", path)
        tip = cands[0]
    if tip not in ends:
        raise RobotFileError(f"no body or site named {tip!r} ends an arm (tips: "
                             f"{', '.join(sorted(ends)) or 'none'})", path)
    _, tip_body, tip_site = ends[tip]
    chain_bodies = tree.path_to(tip_body)
    moving = [j for b in chain_bodies for j in tree.joints[b]]
    # where every body rides: (frame k, placement of its frame in frame k)
    place: dict[int, tuple[int, np.ndarray]] = {0: (0, np.eye(4))}
    origins: list[tuple[np.ndarray, np.ndarray]] = []
    on_chain = set(chain_bodies)
    order = [0]
    while order:
        p = order.pop()
        k, F = place[p]
        for b in tree.children[p]:
            Tb = F @ _pose(m.body_pos[b], m.body_quat[b])
            if b in on_chain:
                kb = k
                for j in tree.joints[b]:
                    origins.append((Tb @ _shift(m.jnt_pos[j]), _shift(-m.jnt_pos[j])))
                    kb, Tb = len(origins), np.eye(4)
                place[b] = (kb, Tb)
            elif any(m.jnt_type[j] == _FREE for j in tree.joints[b]):
                continue  # a loose object in the scene
            else:
                place[b] = (k, Tb)  # off-chain joints at qpos0: no motion
            order.append(b)
    n = len(moving)
    tipT = place[tip_body][1]
    if tip_site is not None:
        tipT = tipT @ _pose(m.site_pos[tip_site], m.site_quat[tip_site])
    tip_frame = place[tip_body][0]
    if tip_frame != n:
        raise RobotFileError(f"tip {tip!r} is not after the last joint", path)
    post_inv = np.linalg.inv(tipT)
    parts: dict[int, list] = {k: [] for k in range(n + 1)}
    frames: dict[int, tuple[int, np.ndarray]] = {}
    for b, (k, T) in place.items():
        if k == n:
            T = post_inv @ T
        frames[b] = (k, T)
        parts[k] += _body_inertial(m, b, T)
    links = []
    for k, j in enumerate(moving):
        origin, post = origins[k]
        if k == n - 1:
            post = post @ tipT
        links.append(_link(m, tree, j, origin, post, parts[k + 1]))
    visuals = mjcf_visuals(spec, m, path, frames, tree.body_name)
    root = tree.body_name[chain_bodies[0]]
    try:
        robot = Robot(links, name=spec.modelname or path.stem, manufacturer="",
                      comment=f"MJCF {path.name}, chain {root} -> {tip}",
                      gravity=tuple(float(g) for g in m.opt.gravity), source=str(path),
                      base_link=root, tip=tip, visuals=visuals)
    except ValueError as exc:
        raise RobotFileError(f"chain {root} -> {tip}: {exc}", path) from None
    qz = robot.clip_q(np.zeros(robot.n))
    return robot.replace(poses={"qz": qz, **_keyframes(m, moving, robot)})


def _keyframes(m, moving: list[int], robot: Robot) -> dict[str, np.ndarray]:
    """The model's ``<keyframe>``s as named poses of the arm joints (q = qpos), clipped
    into the limits: each under its name (an unnamed one: ``key N``, 1-based); when none
    is named ``ready``, ``home`` or ``default``, the first is also the ``home`` pose, the
    pose the robot opens in (:mod:`robogui.engine.model.start_pose`)."""
    adr = np.array([m.jnt_qposadr[j] for j in moving], dtype=int)
    out: dict[str, np.ndarray] = {}
    for k in range(min(int(m.nkey), 64)):
        q = np.asarray(m.key_qpos[k], dtype=float)[adr]
        if not np.isfinite(q).all():
            continue
        name = (m.key(k).name or f"key {k + 1}")[:80]
        out.setdefault(name, robot.clip_q(q))
    if out and not {n.lower() for n in out} & set(START_POSE_NAMES):
        out["home"] = next(iter(out.values()))
    return out


_cache: dict = {}


def mjcf_tips(path: str | os.PathLike) -> list[tuple[str, int]]:
    """Every body and site where the arm of an MJCF file can end, with its number of arm
    joints, the default-tip rule's choice(s) first, then by joint count (most first)."""
    path = Path(path)
    spec, m = _compile(path)
    tree = _Tree(m, path)
    ends = tree.ends()
    first = tree.tips()
    rest = sorted((k for k in ends if k not in first), key=lambda k: (-ends[k][0], k))
    return [(k, ends[k][0]) for k in [*first, *rest]]


def mjcf_default_tips(path: str | os.PathLike) -> list[str]:
    """The default-tip rule's shortlist (one name: no question to ask; several: ask)."""
    path = Path(path)
    _, m = _compile(path)
    return _Tree(m, path).tips()


def load_mjcf(path: str | os.PathLike, tip: str | None = None) -> Robot:
    """The serial chain of a MuJoCo MJCF file from the world to ``tip`` (a body or site
    name; None: the flange by the default-tip rule, RobotFileError listing the choices
    when it is ambiguous). Compiled by the ``mujoco`` package; cached by (path, mtime,
    size, tip, limits)."""
    path = Path(path)
    try:
        st = path.stat()
    except OSError as exc:
        raise RobotFileError(f"cannot read the file ({exc.strerror or exc})", path) from None
    from robogui.engine.limits import limits

    key = (str(path.resolve()), st.st_mtime_ns, st.st_size, tip, limits())
    hit = _cache.get(key)
    if hit is not None:
        return hit
    spec, m = _compile(path)
    robot = _build(path, spec, m, tip)
    _cache[key] = robot
    return robot
