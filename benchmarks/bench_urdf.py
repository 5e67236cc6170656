"""URDF robots: batched kinematics against Pinocchio, and the frame rate with meshes.

    python benchmarks/bench_urdf.py            # kinematics only
    xvfb-run -a -s "-screen 0 1920x1080x24 +extension GLX" python benchmarks/bench_urdf.py --fps

* fkine_all of 10,000 random joint states of the Panda URDF (example-robot-data; chain
  panda_link0 -> panda_hand): robogui's batched kernel against a Python loop over
  Pinocchio's ``forwardKinematics`` (the model from ``buildModelFromUrdf`` reduced to the
  same chain), after checking they agree to 1e-9. Target: robogui >= 3x faster than the
  bare loop (Pinocchio's placements left in its data); the loop that also copies the
  frames into an array like robogui's is shown too.
* ``--fps``: the Panda with its meshes in the 3D view at 1280x800, a joint slider dragged,
  slider -> finished frame (bench_app's method). Target >= 60 fps on software GL.
* ``--mesh-fps``: a tool-handle drag at 1600x1000 with the Panda's meshes at full
  resolution, decimated to 40,000 and to 8,000 triangles, and the stick Puma 560 (the
  measurement behind ``visual_meshes.FACE_BUDGET``). Target >= 30 fps.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import distribution
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import best_time  # noqa: E402

M_STATES = 10_000
PANDA = Path(distribution("example-robot-data").locate_file(
    "cmeel.prefix/share/example-robot-data/robots")) / "panda_description/urdf/panda.urdf"
TIP = "panda_hand"


def _pinocchio(robot):
    import pinocchio as pin

    full = pin.buildModelFromUrdf(str(PANDA))
    names = {L.name for L in robot.links}
    lock = [i for i in range(1, full.njoints) if full.names[i] not in names]
    model = pin.buildReducedModel(full, lock, pin.neutral(full))
    return pin, model, model.createData(), model.getFrameId(TIP)


def kinematics() -> dict:
    from robogui.io.ros.urdf import load_urdf

    robot = load_urdf(PANDA, tip=TIP)
    Q = robot.random_q(M_STATES, seed=1)
    pin, model, data, fid = _pinocchio(robot)
    F = robot.fkine_all(Q)
    for k in range(0, M_STATES, 997):  # the two agree before anything is timed
        pin.framesForwardKinematics(model, data, Q[k])
        assert np.allclose(F[k, -1], data.oMf[fid].homogeneous, atol=1e-9)
        for j in range(robot.n - 1):  # the last link frame is the tip's (flange + hand)
            assert np.allclose(F[k, j + 1, :3, 3], data.oMi[j + 1].translation, atol=1e-9)

    n = robot.n
    out = np.empty((M_STATES, n + 1, 4, 4))
    out[:, 0] = np.eye(4)

    def pin_frames():  # the same (m, n+1, 4, 4) frames robogui returns
        for i, q in enumerate(Q):
            pin.forwardKinematics(model, data, q)
            row = out[i]
            for j in range(1, n):
                row[j] = data.oMi[j].homogeneous
            pin.updateFramePlacement(model, data, fid)
            row[n] = data.oMf[fid].homogeneous

    def pin_in_place():  # the joint placements left inside Pinocchio's data
        for q in Q:
            pin.forwardKinematics(model, data, q)

    t_rg = best_time(lambda: robot.fkine_all(Q), repeat=7)
    t_frames = best_time(pin_frames, repeat=3)
    t_pin = best_time(pin_in_place, repeat=3)
    return {"robogui_s": t_rg, "pin_frames_s": t_frames, "pin_s": t_pin,
            "ratio_frames": t_frames / t_rg, "ratio": t_pin / t_rg}


def frame_rate(frames: int = 300) -> float:
    from bench_app import frame_rate as app_frame_rate

    from robogui.io.ros.urdf import load_urdf

    return app_frame_rate(frames, readback=False, samples=4,
                          robot=load_urdf(PANDA, tip=TIP))


def mesh_frame_rates(frames: int = 40, size=(1600, 1000)) -> dict:
    """Tool-handle drag frame rates (mouse move to finished frame) at ``size``: the Panda
    at full resolution (134,912 triangles, smooth normals), decimated to 40,000 and to
    8,000 triangles (quadric), and the stick Puma 560, in one run."""
    from bench_app import handle_drag

    import robogui.session.geometry.visual_meshes as vm
    from robogui.io.ros.urdf import load_urdf

    out = {}
    default = vm.load_visuals.__defaults__
    try:
        for budget in (vm.FACE_BUDGET, 40_000, 8_000):
            vm.load_visuals.__defaults__ = (budget,)
            robot = load_urdf(PANDA, tip=TIP)
            faces = vm.load_visuals(robot).faces
            out[faces] = handle_drag("", frames, size, robot=robot)[0]
    finally:
        vm.load_visuals.__defaults__ = default
    out["puma"] = handle_drag("puma560", frames, size)[0]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fps", action="store_true", help="also the 3D view frame rate")
    ap.add_argument("--mesh-fps", action="store_true",
                    help="handle-drag frame rates of the Panda's meshes at 1600x1000 by "
                         "triangle count (the frame budget)")
    args = ap.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    r = kinematics()
    print(f"fkine_all, {M_STATES} states, Panda URDF (7 joints): robogui "
          f"{r['robogui_s'] * 1e3:.2f} ms; Pinocchio's bare forwardKinematics loop "
          f"(placements left in its data) {r['pin_s'] * 1e3:.2f} ms: {r['ratio']:.1f}x  "
          "(target >= 3x)")
    print(f"  Pinocchio loop also returning the same frames: {r['pin_frames_s'] * 1e3:.2f} ms:"
          f" {r['ratio_frames']:.1f}x")
    if args.fps:
        from bench_app import frame_rate as app_frame_rate

        fps = frame_rate()
        puma = app_frame_rate(300, readback=False, samples=4)
        print(f"frame rate, Panda with meshes, 1280x800, MSAA 4: {fps:.0f} fps "
              f"(target >= 60 fps); the stick Puma 560 in the same run: {puma:.0f} fps")


    if args.mesh_fps:
        rates = mesh_frame_rates()
        puma = rates.pop("puma")
        for faces, fps in rates.items():
            print(f"handle drag, Panda with {faces:,} triangles, 1600x1000: {fps:.0f} fps "
                  "(target >= 30 fps)")
        print(f"handle drag, the stick Puma 560 in the same run: {puma:.0f} fps  "
              f"(load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
