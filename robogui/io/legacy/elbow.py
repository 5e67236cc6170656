"""Files of the SpaceLib Elbow robot (manual section 7.6.2) and ``robogui elbow``.

* ELBOW.DAT: the six link lengths L1..L6 (m), free format (table 7.10);
* JOINT.MOT: the time step, then per sample six lines ``q qp qpp`` (rad, rad/s, rad/s^2),
  one per joint (table 7.9);
* GRIPPER.MOT: the time step, the Cardan convention (three axis numbers, X=0 Y=1 Z=2),
  then per sample six lines of three values: angles, their rates and accelerations, TCP
  position, velocity and acceleration (table 7.11);
* GUESS.1ST: six joint angles, the first guess of the inverse kinematics (table 7.12).

Readers raise :class:`LegacyFormatError` naming the file, line and token. ``robogui elbow``
runs the three programs (ELB_D_DH, ELB_D_PA, ELB_I_DH) on these files.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import numpy as np

from ...engine.files import atomic_write_text
from ...engine.spacelib.elbow import GripperMotion, elb_d_dh, elb_d_pa, elb_i_dh
from .robmat import _read_text, _Stream, _tokens
from .roboop import LegacyFormatError

__all__ = ["read_elbow_dat", "read_joint_mot", "read_gripper_mot", "read_guess",
           "JointMotion", "format_joint_mot", "format_gripper_mot", "elbow_main"]


def _stream(path, text, what):
    return _Stream(_tokens(_read_text(path, text)), path, what)


def _rest(st: _Stream) -> int:
    return len(st.toks) - st.pos


def _six_values(st: _Stream, path, name: str, what: str) -> np.ndarray:
    """Exactly six numbers (``name`` 1..6), nothing after them."""
    values = np.array([st.take(name.format(i)) for i in range(1, 7)])
    if _rest(st):
        tok, no = st.toks[st.pos]
        raise LegacyFormatError(f"more than six {what}", path, no, tok)
    return values


def read_elbow_dat(path=None, *, text: str | None = None) -> np.ndarray:
    """ELBOW.DAT: the six link lengths (6,) in metres."""
    st = _stream(path, text, "ELBOW.DAT file")
    L = _six_values(st, path, "length of link {}", "link lengths")
    if np.any(L < 0):
        raise LegacyFormatError(f"link lengths must not be negative, got {L.tolist()}", path)
    return L


def read_guess(path=None, *, text: str | None = None) -> np.ndarray:
    """GUESS.1ST: six joint angles (6,) in rad."""
    st = _stream(path, text, "GUESS.1ST file")
    return _six_values(st, path, "q{}", "joint values")


@dataclass(frozen=True)
class JointMotion:
    """JOINT.MOT: time step ``dt`` (s) and ``q``, ``qp``, ``qpp`` (m, 6)."""

    dt: float
    q: np.ndarray
    qp: np.ndarray
    qpp: np.ndarray


def _samples(st: _Stream, path, size: int, what: str) -> int:
    rest = _rest(st)
    if rest % size:
        last = st.toks[-1]
        raise LegacyFormatError(f"the last {what} is incomplete: {rest % size} of its {size} "
                                f"numbers", path, last[1], last[0])
    return rest // size


def read_joint_mot(path=None, *, text: str | None = None) -> JointMotion:
    """JOINT.MOT (see the module text)."""
    st = _stream(path, text, "JOINT.MOT file")
    dt = st.take("dt (time step)")
    if dt <= 0:
        raise LegacyFormatError(f"dt must be positive, got {dt:g}", path, st.toks[0][1])
    m = _samples(st, path, 18, "sample (6 joints x q qp qpp)")
    vals = np.array([st.take(f"value {k + 1}") for k in range(18 * m)]).reshape(m, 6, 3)
    return JointMotion(dt, vals[:, :, 0].copy(), vals[:, :, 1].copy(), vals[:, :, 2].copy())


def read_gripper_mot(path=None, *, text: str | None = None) -> tuple[float, GripperMotion]:
    """GRIPPER.MOT: ``(dt, GripperMotion)`` (matrices are not stored in the file: M, W, H
    of the result hold NaN)."""
    st = _stream(path, text, "GRIPPER.MOT file")
    dt = st.take("dt (time step)")
    conv = tuple(int(st.take(f"Cardan axis {k}", integer=True)) for k in (1, 2, 3))
    if any(c not in (0, 1, 2) for c in conv) or conv[0] == conv[1] or conv[1] == conv[2]:
        raise LegacyFormatError(f"the Cardan convention must be three axes 0, 1, 2 (X, Y, Z) "
                                f"with no repeat in a row, got {conv}", path, st.toks[1][1])
    m = _samples(st, path, 18, "sample (6 lines of 3 values)")
    v = np.array([st.take(f"value {k + 1}") for k in range(18 * m)]).reshape(m, 6, 3)
    nan = np.full((m, 4, 4), np.nan)
    return dt, GripperMotion(*(v[:, k].copy() for k in range(6)), nan, nan, nan, conv)


def format_joint_mot(dt: float, q, qp, qpp) -> str:
    """JOINT.MOT text as ELB_I_DH writes it (``%15.5f`` per value)."""
    lines = [f" {dt:f} "]
    for s in range(len(q)):
        for i in range(6):
            lines.append(f"{q[s][i]:15.5f}{qp[s][i]:15.5f}{qpp[s][i]:15.5f}")
    return "\n" + "\n".join(lines) + "\n"


def format_gripper_mot(dt: float, g: GripperMotion) -> str:
    """GRIPPER.MOT text as ELB_D_DH writes it (``%7.6f``)."""
    out = [f"\n{dt:f}", "{} {} {}\n".format(*g.convention)]
    for s in range(len(g.ang)):
        out.append("")
        for arr in (g.ang, g.angp, g.angpp, g.pos, g.vel, g.acc):
            out.append("   ".join(f"{x + 0.0:7.6f}" for x in arr[s]))
    return "\n".join(out) + "\n"


def elbow_main(argv=None) -> int:
    """``robogui elbow direct|direct-pa|inverse ...``: the Elbow robot programs on files."""
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(
        prog="robogui elbow",
        description="SpaceLib's Elbow robot (manual 7.6): direct kinematics with D-H frames "
                    "(ELB_D_DH) or parallel frames (ELB_D_PA), inverse kinematics by "
                    "Newton's method (ELB_I_DH)")
    sub = ap.add_subparsers(dest="program", required=True)
    for name, helptext in (("direct", "ELB_D_DH: JOINT.MOT -> GRIPPER.MOT"),
                           ("direct-pa", "ELB_D_PA: the same with frames parallel at home")):
        d = sub.add_parser(name, help=helptext)
        d.add_argument("dat", help="ELBOW.DAT (link lengths)")
        d.add_argument("joint_mot", help="JOINT.MOT (joint motion)")
        d.add_argument("-o", "--output", help="GRIPPER.MOT to write (default: the screen)")
    i = sub.add_parser("inverse", help="ELB_I_DH: GRIPPER.MOT + GUESS.1ST -> JOINT.MOT")
    i.add_argument("dat", help="ELBOW.DAT (link lengths)")
    i.add_argument("gripper_mot", help="GRIPPER.MOT (gripper motion)")
    i.add_argument("guess", help="GUESS.1ST (first guess of the joint angles)")
    i.add_argument("-o", "--output", help="JOINT.MOT to write (default: the screen)")
    try:
        args = ap.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        L = read_elbow_dat(args.dat)
        if args.program == "inverse":
            dt, g = read_gripper_mot(args.gripper_mot)
            res = elb_i_dh(L, g, read_guess(args.guess))
            k = int(res.converged.sum()) if res.converged.all() else int(np.argmin(
                res.converged))
            text = format_joint_mot(dt, res.q[:k], res.qp[:k], res.qpp[:k])
            if not res.converged.all():
                print(f"robogui elbow: Newton-Raphson method does not converge at sample "
                      f"{k + 1}; {k} samples written", file=sys.stderr)
        else:
            jm = read_joint_mot(args.joint_mot)
            fn = elb_d_dh if args.program == "direct" else elb_d_pa
            text = format_gripper_mot(jm.dt, fn(L, jm.q, jm.qp, jm.qpp))
    except (LegacyFormatError, ValueError) as exc:
        print(f"robogui elbow: {exc}", file=sys.stderr)
        return 2
    if args.output:
        try:
            atomic_write_text(args.output, text)
        except OSError as exc:
            print(f"robogui elbow: cannot write {args.output}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0 if args.program != "inverse" or res.converged.all() else 1
