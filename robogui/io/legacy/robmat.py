"""SpaceLib Rob_Mat files (``.DAT`` robot, ``.MOT`` motion) and Rob_Mat's report.

The files are whitespace-separated numbers (docs/formats.md, section 2): line breaks mean
nothing and there are no comments. The reader keeps the line of every token so an error
names the line, the token and the field it should have been. Differences from
``ROB_MAT.M`` (on purpose): a non-numeric token, a missing token, an integer field
written as ``1.0`` and a trailing partial motion step are errors instead of silent
misreads; every complete step is processed (ROB_MAT stops after ``floor(1/dt) + 1``
steps, which is reported as a warning). ``strict=False`` drops a partial step with a
warning, as ROB_MAT does.

:func:`robmat` computes what ROB_MAT prints with the 4x4 matrix method
(:mod:`robogui.engine.spacelib.chain`): for every step and link the position, velocity
and acceleration, and the joint actions. ``robmat_main(argv)`` is the command
``robogui robmat ROBOT.DAT MOTION.MOT [-o OUT] [--csv] [--matrices] [--compat]``.
"""

from __future__ import annotations

import argparse
import io
import math
import re
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...engine import bounds
from ...engine.files import TextDecodeProblem, atomic_write_text, read_text
from ...engine.model.link import Link
from ...engine.model.robot import Robot
from ...engine.spacelib.chain import (
    Chain,
    ChainMotion,
    chain_actions,
    chain_from_dh,
    chain_motion,
    joint_actions,
)
from ...engine.spacelib.matrices import jtoj, mtov
from .roboop import LegacyFormatError, LegacyFormatWarning

__all__ = ["RobMatData", "RobMatMotion", "RobMatResult", "read_dat", "read_mot", "load_robmat_dat",
           "robmat", "format_report", "robmat_main"]

LINK_FIELDS = ("jtype", "theta", "s", "b", "a", "alfa", "m", "jxx", "jxy", "jxz", "jyy", "jyz",
               "jzz", "xg", "yg", "zg")
TAIL_FIELDS = ("gx", "gy", "gz", "fx", "fy", "fz", "cx", "cy", "cz")
_INT = re.compile(r"[+-]?\d+\Z")
#: bounds of q (rad or m), qp and qpp in a MOTION file, as for trajectory CSV files
_MOTION_BOUNDS = (bounds.MAX_ANGLE, 1e9, 1e15)
#: what each number of a DATA file may be at most in magnitude (docs/bounds.md)
_FIELD_BOUNDS = {
    **dict.fromkeys(("theta", "alfa"), bounds.MAX_ANGLE),
    **dict.fromkeys(("s", "b", "a", "xg", "yg", "zg"), bounds.MAX_LENGTH),
    "m": bounds.MAX_MASS,
    **dict.fromkeys(("jxx", "jxy", "jxz", "jyy", "jyz", "jzz"), bounds.MAX_INERTIA),
    **dict.fromkeys(("gx", "gy", "gz"), bounds.MAX_GRAVITY),
    **dict.fromkeys(("fx", "fy", "fz", "cx", "cy", "cz"), bounds.MAX_TORQUE),
}


def _tokens(text: str) -> list[tuple[str, int]]:
    return [(tok, no) for no, line in enumerate(text.splitlines(), start=1) for tok in line.split()]


def _read_text(path, text, max_bytes: int = bounds.MAX_FILE_BYTES):
    if text is not None:
        return text.removeprefix("\ufeff")
    try:
        return read_text(path, max_bytes).removeprefix("\ufeff")
    except OSError as exc:
        raise LegacyFormatError(f"cannot read the file ({exc.strerror or exc})", path) from None
    except TextDecodeProblem as exc:
        raise LegacyFormatError(str(exc), path, exc.line) from None


class _Stream:
    def __init__(self, toks, path, what: str):
        self.toks, self.path, self.what, self.pos = toks, path, what, 0

    def take(self, name: str, integer: bool = False, limit: float | None = None) -> float:
        if self.pos >= len(self.toks):
            last = self.toks[-1][1] if self.toks else None
            raise LegacyFormatError(f"the {self.what} ends early: {name} is missing "
                                    f"(read {len(self.toks)} numbers)", self.path, last)
        tok, no = self.toks[self.pos]
        self.pos += 1
        if integer:
            if not _INT.match(tok):
                raise LegacyFormatError(f"{name} must be a plain integer (Rob_Mat reads it with "
                                        "%d)", self.path, no, tok)
            return int(tok)
        try:
            x = float(tok)
        except ValueError:
            raise LegacyFormatError(f"{name} must be a number (Rob_Mat files hold numbers only, "
                                    "no labels or comments)", self.path, no, tok) from None
        if not math.isfinite(x):
            raise LegacyFormatError(f"{name} must be finite", self.path, no, tok)
        if limit is not None and abs(x) > limit:
            raise LegacyFormatError(f"{name} = {x:g} is beyond the bound of {limit:g} (SI "
                                    "units; see docs/bounds.md)", self.path, no, tok)
        return x


@dataclass(frozen=True, eq=False)
class RobMatData:
    """A Rob_Mat DATA file: per-link arrays (n,), gravity and end-effector action.

    ``theta`` and ``s`` are constants (q is added for Rev/Pri); ``b`` the lateral shift;
    ``inertia`` (n, 4, 4) the pseudo-inertias built by ``jtoj``; ``ext_force`` (N) and
    ``ext_torque`` (N m) act on the end effector, in frame n.
    """

    path: str | None
    nlink: int
    links: dict
    gravity: np.ndarray
    ext_force: np.ndarray
    ext_torque: np.ndarray
    inertia: np.ndarray
    warnings: list = field(default_factory=list)

    @property
    def chain(self) -> Chain:
        L = self.links
        return chain_from_dh(L["jtype"].astype(int), L["theta"], L["s"], L["b"], L["a"],
                             L["alfa"], self.inertia, self.gravity)


def read_dat(path=None, *, text: str | None = None) -> RobMatData:
    """Read a Rob_Mat DATA file: ``nlink`` then 16 numbers per link then 9 (formats.md 2.2)."""
    src = _read_text(path, text)
    toks = _tokens(src)
    st = _Stream(toks, path, "DATA file")
    n = st.take("nlink (number of links)", integer=True)
    if n < 1 or n > bounds.MAX_JOINTS:
        raise LegacyFormatError(f"nlink must be between 1 and {bounds.MAX_JOINTS}, got {n}",
                                path, toks[0][1], toks[0][0])
    need = 1 + 16 * n + len(TAIL_FIELDS)  # checked before anything is allocated
    if len(toks) < need - len(TAIL_FIELDS):  # not even the links: the header is wrong
        raise LegacyFormatError(
            f"nlink = {n} needs {need} numbers (16 per link and 9 for gravity and the end "
            f"effector's load) but the file holds {len(toks)}", path, toks[0][1], toks[0][0])
    vals = {f: np.zeros(n) for f in LINK_FIELDS}
    msgs = []
    for i in range(n):
        for f in LINK_FIELDS:
            vals[f][i] = st.take(f"{f} of link {i + 1}", integer=(f == "jtype"),
                                 limit=_FIELD_BOUNDS.get(f))
        if vals["jtype"][i] not in (0, 1):
            tok, no = toks[st.pos - 16]
            raise LegacyFormatError(f"jtype of link {i + 1} must be 0 (Rev) or 1 (Pri)", path,
                                    no, tok)
        if vals["m"][i] < 0:
            tok, no = toks[st.pos - 10]
            raise LegacyFormatError(f"mass of link {i + 1} must not be negative", path, no, tok)
    tail = [st.take(f, limit=_FIELD_BOUNDS[f]) for f in TAIL_FIELDS]
    if st.pos < len(toks):
        tok, no = toks[st.pos]
        extra = len(toks) - st.pos
        hint = (f"; that is {extra // 16} more link(s) of 16 numbers: should nlink be "
                f"{n + extra // 16}?" if extra % 16 == 0 else "")
        msgs.append(f"line {no}: {extra} number(s) after the external actions are ignored "
                    f"(Rob_Mat never reads them){hint}")
    inertia = np.stack([
        jtoj(vals["m"][i], vals["jxx"][i], vals["jyy"][i], vals["jzz"][i], vals["jxy"][i],
             vals["jyz"][i], vals["jxz"][i], vals["xg"][i], vals["yg"][i], vals["zg"][i])
        for i in range(n)])  # note jtoj's argument order differs from the file order
    for i in range(n):
        if np.any(np.diag(inertia[i])[:3] - vals["m"][i] * np.array(
                [vals["xg"][i], vals["yg"][i], vals["zg"][i]]) ** 2 < -1e-12):
            msgs.append(f"link {i + 1}: the inertia moments violate the triangle inequality "
                        "(not a physical body)")
    return RobMatData(path=None if path is None else str(path), nlink=n, links=vals,
                      gravity=np.array(tail[:3]), ext_force=np.array(tail[3:6]),
                      ext_torque=np.array(tail[6:]), inertia=inertia, warnings=msgs)


@dataclass(frozen=True, eq=False)
class RobMatMotion:
    """A Rob_Mat MOTION file: sample period ``dt`` (s) and (k, n) arrays q, qd, qdd."""

    dt: float
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    warnings: list = field(default_factory=list)

    @property
    def t(self) -> np.ndarray:
        return self.dt * np.arange(self.q.shape[0])


def read_mot(path=None, nlink: int | None = None, *, text: str | None = None,
             strict: bool = True) -> RobMatMotion:
    """Read a MOTION file: ``dt`` then ``q qp qpp`` per joint per step (needs ``nlink``)."""
    if nlink is None or int(nlink) < 1:
        raise ValueError("nlink (from the DATA file) is needed: a MOTION file does not hold it")
    n = int(nlink)
    toks = _tokens(_read_text(path, text, bounds.MAX_DATA_FILE_BYTES))
    st = _Stream(toks, path, "MOTION file")
    dt = st.take("dt (sample period)")
    if dt <= 0:
        raise LegacyFormatError("dt must be positive", path, toks[0][1], toks[0][0])
    if not bounds.MIN_DT <= dt <= bounds.MAX_TIME:
        raise LegacyFormatError(f"dt must be a sample period between {bounds.MIN_DT:g} and "
                                f"{bounds.MAX_TIME:g} s, got {dt:g}", path, toks[0][1],
                                toks[0][0])
    body = toks[1:]
    if len(body) > 3 * n * bounds.MAX_SAMPLES:
        raise LegacyFormatError(f"more than {bounds.MAX_SAMPLES} steps", path, body[-1][1])
    values = []
    for i in range(len(body)):
        values.append(st.take(f"value {i % 3 + 1} ({('q', 'qp', 'qpp')[i % 3]}) of joint "
                              f"{i // 3 % n + 1} in step {i // (3 * n) + 1}",
                              limit=_MOTION_BOUNDS[i % 3]))
    msgs = []
    steps, rest = divmod(len(values), 3 * n)
    if rest:
        tok, no = body[steps * 3 * n]
        msg = (f"the last step is incomplete ({rest} of {3 * n} numbers from line {no} on); "
               "Rob_Mat drops it")
        if strict:
            raise LegacyFormatError(msg, path, no, tok)
        msgs.append(msg)
    if steps == 0:
        raise LegacyFormatError(f"no complete step: a step needs {3 * n} numbers (q qp qpp for "
                                f"{n} joints)", path)
    limit = math.floor(1.0 / dt) + 1 if dt <= 1 else 1
    if steps > limit:
        msgs.append(f"{steps} steps read; ROB_MAT itself would stop after {limit} (its loop "
                    "runs over 0:dt:1)")
    arr = np.array(values[: steps * 3 * n]).reshape(steps, n, 3)
    if steps * dt > bounds.MAX_TIME:
        raise LegacyFormatError(f"{steps} steps of {dt:g} s last more than "
                                f"{bounds.MAX_TIME:g} s", path)
    return RobMatMotion(dt=dt, q=arr[..., 0], qd=arr[..., 1], qdd=arr[..., 2], warnings=msgs)


def load_robmat_dat(path, *, text: str | None = None) -> Robot:
    """A robogui Robot (standard D-H) from a DATA file, for ``load_robot``.

    Rob_Mat's gravity is kept; its end-effector load is not part of a Robot.

    SpaceLib's lateral shift ``b`` (``dhtom``: ... Tx(a) Ty(b) Rx(alpha)) equals a shift of
    ``(0, b cos(alpha), -b sin(alpha))`` after the twist. On a link twisted by +-90 degrees
    that shift lies along the link's z axis, so it moves into the next link's ``d`` (or
    the tool, for the last link) and the centre of mass moves with it: the arm and its
    dynamics are the same, only that link's frame origin slides along its z axis (SMART).
    Any other ``b`` has no standard D-H form and is rejected (use :func:`read_dat` and its
    ``chain`` for the matrix method).
    """
    data = read_dat(path, text=text)
    L = data.links
    links = []
    shift = 0.0  # z shift of the previous link's frame, carried into this link's d
    tool = np.eye(4)
    for i in range(data.nlink):
        b, alpha = L["b"][i], L["alfa"][i]
        along_y = b * math.cos(alpha)
        if abs(along_y) > _B_TOLERANCE:
            raise LegacyFormatError(
                f"link {i + 1} has the SpaceLib lateral shift b = {b:g} with twist "
                f"alfa = {alpha:g}, which a standard D-H Robot cannot hold (only a twist of "
                "+-90 degrees can); use robogui.io.legacy.robmat.read_dat(...).chain (the matrix "
                "method) or the 'robogui robmat' command for this file", path)
        if b and along_y:
            warnings.warn(f"{path}: link {i + 1}: b = {b:g} at twist {alpha:g} leaves "
                          f"{abs(along_y):.2g} m along y, dropped", LegacyFormatWarning,
                          stacklevel=2)
        rev = L["jtype"][i] == 0
        Jm = np.array([[L["jxx"][i], L["jxy"][i], L["jxz"][i]],
                       [L["jxy"][i], L["jyy"][i], L["jyz"][i]],
                       [L["jxz"][i], L["jyz"][i], L["jzz"][i]]])
        z_shift = -b * math.sin(alpha)  # this link's frame slides by -z_shift along its z
        d, offset = (L["s"][i] + shift, L["theta"][i]) if rev else (0.0, L["s"][i] + shift)
        try:
            links.append(Link(joint="R" if rev else "P", theta=0.0 if rev else L["theta"][i],
                              d=d, a=L["a"][i], alpha=alpha, offset=offset, m=L["m"][i],
                              r=[L["xg"][i], L["yg"][i], L["zg"][i] + z_shift], I=Jm))
        except ValueError as exc:
            raise LegacyFormatError(f"link {i + 1}: {exc}", path) from None
        shift = z_shift
    tool[2, 3] = shift
    name = Path(path).stem if path is not None else "robmat"
    try:
        robot = Robot(links, name=name, gravity=data.gravity, source=str(path or ""), tool=tool,
                      comment="imported from a SpaceLib Rob_Mat DATA file (it has no joint "
                              "limits)")
    except ValueError as exc:
        raise LegacyFormatError(str(exc), path) from None
    problems = bounds.robot_bound_problems(robot)
    if problems:
        raise LegacyFormatError(f"{problems[0]} (SI units; see docs/bounds.md)", path)
    for msg in data.warnings:
        warnings.warn(f"{path}: {msg}", LegacyFormatWarning, stacklevel=2)
    return robot


#: the largest lateral shift (m) along y that load_robmat_dat drops (printed twists such
#: as 1.57079 are not exactly 90 degrees)
_B_TOLERANCE = 1e-5


@dataclass(frozen=True, eq=False)
class RobMatResult:
    """Rob_Mat's output for every step: the chain motion, actions and joint torques.

    ``motion`` (a ChainMotion with leading axis k steps), ``J0``, ``FI``, ``ACTO`` (see
    :func:`~robogui.engine.spacelib.chain.chain_actions`), ``tau`` (k, n) the joint torques
    (N m) or forces (N) that drive the motion, and the per-link origin kinematics
    ``p, v, a, w, wd`` (k, n, 3).
    """

    data: RobMatData
    mot: RobMatMotion
    motion: ChainMotion
    J0: np.ndarray
    FI: np.ndarray
    ACTO: np.ndarray
    tau: np.ndarray
    p: np.ndarray
    v: np.ndarray
    a: np.ndarray
    w: np.ndarray
    wd: np.ndarray


def robmat(data: RobMatData, mot: RobMatMotion) -> RobMatResult:
    """Direct kinematics and inverse dynamics of every step (ROB_MAT's CALCULATIONS part)."""
    if mot.q.shape[1] != data.nlink:
        raise ValueError(f"the motion has {mot.q.shape[1]} joints, the robot {data.nlink}")
    chain = data.chain
    motion = chain_motion(chain, mot.q, mot.qd, mot.qdd)
    J0, FI, ACTO = chain_actions(chain, motion, data.ext_force, data.ext_torque)
    tau = joint_actions(chain, motion, ACTO)
    p, v, a, w, wd = motion.point_kinematics()
    return RobMatResult(data, mot, motion, J0, FI, ACTO, tau, p, v, a, w, wd)


def _joint_action(res: RobMatResult):
    """Force and moment that link i-1 applies to link i through joint i (frame-0 components,
    moment about the joint frame's origin): the opposite of ACTO_i."""
    F = -res.ACTO[:, : res.data.nlink]
    force = F[..., :3, 3]
    torque0 = mtov(F)
    origin = res.motion.T[:, :-1, :3, 3]  # frame i-1 origins
    return force, torque0 - np.cross(origin, force)


CSV_HEADER = ("step,t,link,x,y,z,vx,vy,vz,ax,ay,az,wx,wy,wz,wdx,wdy,wdz,"
              "fx,fy,fz,mx,my,mz,tau")


def format_report(res: RobMatResult, csv: bool = False, matrices: bool = False,
                  names: tuple[str, str] = ("", "")) -> str:
    """Rob_Mat's report as text (or CSV: one row per step and link).

    Text: per step and link the origin of frame i (m), its velocity (m/s) and acceleration
    (m/s^2), the link's angular velocity (rad/s) and acceleration (rad/s^2), all in frame 0;
    the action link i-1 applies to link i through joint i (N, N m about the joint origin)
    and the joint torque/force ``tau``. ``matrices=True`` adds ROB_MAT's 4x4 matrices.
    """
    force, moment = _joint_action(res)
    k, n = res.tau.shape
    buf = io.StringIO()
    if csv:
        buf.write(CSV_HEADER + "\n")
        for s in range(k):
            for i in range(n):
                row = [s, res.mot.t[s], i + 1, *res.p[s, i], *res.v[s, i], *res.a[s, i],
                       *res.w[s, i], *res.wd[s, i], *force[s, i], *moment[s, i], res.tau[s, i]]
                buf.write(",".join(str(x) if isinstance(x, int) else repr(float(x))
                                   for x in row) + "\n")
        return buf.getvalue()
    f3 = lambda v: " ".join(f"{x:11.5f}" for x in v)
    dat, motf = names
    buf.write(f"Rob_Mat report (robogui): {dat or 'DATA'} + {motf or 'MOTION'}\n")
    buf.write(f"{n} links, {k} steps, dt = {res.mot.dt:g} s, gravity = "
              f"[{f3(res.data.gravity).strip()}] m/s^2 (frame 0)\n")
    for s in range(k):
        buf.write(f"\n=== step {s}   t = {res.mot.t[s]:.4f} s ===\n")
        for i in range(n):
            kind = "Rev" if res.data.links["jtype"][i] == 0 else "Pri"
            unit = "N m" if kind == "Rev" else "N"
            buf.write(f"  link {i + 1} ({kind}) q = {res.mot.q[s, i]:.6g}  qp = "
                      f"{res.mot.qd[s, i]:.6g}  qpp = {res.mot.qdd[s, i]:.6g}\n")
            buf.write(f"    position      (m)       {f3(res.p[s, i])}\n")
            buf.write(f"    velocity      (m/s)     {f3(res.v[s, i])}\n")
            buf.write(f"    acceleration  (m/s^2)   {f3(res.a[s, i])}\n")
            buf.write(f"    ang. velocity (rad/s)   {f3(res.w[s, i])}\n")
            buf.write(f"    ang. accel.   (rad/s^2) {f3(res.wd[s, i])}\n")
            buf.write(f"    joint force   (N)       {f3(force[s, i])}\n")
            buf.write(f"    joint moment  (N m)     {f3(moment[s, i])}\n")
            buf.write(f"    actuator {'torque' if kind == 'Rev' else 'force '} ({unit}) "
                      f"{res.tau[s, i]:11.5f}\n")
            if matrices:
                m = res.motion
                for label, M in (("A  relative position", m.A[s, i]),
                                 ("T  absolute position", m.T[s, i + 1]),
                                 ("W  relative velocity in frame (i-1)", m.W[s, i]),
                                 ("WO relative velocity in frame (0)", m.WO[s, i]),
                                 ("WA absolute velocity", m.WA[s, i + 1]),
                                 ("H  relative acceleration in frame (i-1)", m.H[s, i]),
                                 ("HO relative acceleration in frame (0)", m.HO[s, i]),
                                 ("HA absolute acceleration", m.HA[s, i + 1]),
                                 ("J  inertia in frame (i)", res.data.inertia[i]),
                                 ("J0 inertia in frame (0)", res.J0[s, i]),
                                 ("FI total (inertia + weight) actions", res.FI[s, i]),
                                 ("ACTO actions on joint (i)", res.ACTO[s, i])):
                    buf.write(f"    {label}\n")
                    for row in M:
                        buf.write("      " + " ".join(f"{x:12.5f}" for x in row) + "\n")
    return buf.getvalue()


def robmat_main(argv=None) -> int:
    """``robogui robmat ROBOT.DAT MOTION.MOT [-o OUT] [--csv] [--matrices] [--compat]``.

    Prints Rob_Mat's report for every step (or writes it to OUT). Returns the exit status:
    0 on success, 2 for a bad file or argument (the message names the line and token).
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "robmat":
        argv = argv[1:]
    ap = argparse.ArgumentParser(
        prog="robogui robmat",
        description="SpaceLib Rob_Mat: kinematics of every link and the joint actions, "
                    "for each time step of a MOTION file")
    ap.add_argument("dat", help="robot DATA file (.DAT)")
    ap.add_argument("mot", help="MOTION file (.MOT)")
    ap.add_argument("-o", "--output", help="write the report to this file instead of stdout")
    ap.add_argument("--csv", action="store_true", help="CSV, one row per step and link")
    ap.add_argument("--matrices", action="store_true",
                    help="also print ROB_MAT's 4x4 matrices (text report only)")
    ap.add_argument("--compat", action="store_true",
                    help="like ROB_MAT, drop a trailing incomplete step instead of failing")
    try:
        args = ap.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        data = read_dat(args.dat)
        mot = read_mot(args.mot, data.nlink, strict=not args.compat)
        res = robmat(data, mot)
    except (LegacyFormatError, ValueError) as exc:
        print(f"robogui robmat: error: {exc}", file=sys.stderr)
        return 2
    for msg in data.warnings + mot.warnings:
        print(f"robogui robmat: warning: {msg}", file=sys.stderr)
    text = format_report(res, csv=args.csv, matrices=args.matrices,
                         names=(Path(args.dat).name, Path(args.mot).name))
    if args.output:
        try:
            atomic_write_text(args.output, text)
        except OSError as exc:
            print(f"robogui robmat: error: cannot write {args.output}: {exc}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0
