"""What bounding mesh parsing costs (issue 23 item 3), and the worst hostile file.

    python benchmarks/bench_mesh_worker.py

Each figure comes from a fresh Python process (imports included, as a user's first open):

* first open of example-robot-data's Panda and UR5 with meshes (``load_robot`` then
  ``load_visuals``): the meshes parsed in this process (as before the bounded worker;
  trimesh imported here) against the bounded worker processes started on demand, and
  against workers already started (what the app does at start-up, ``warm_up``);
* reopen in the same process (the mesh cache; no worker is asked);
* the start of one worker (interpreter, numpy, trimesh) and its memory;
* the worst hostile files at the default limits (10 s, 2 GiB): wall time and peak memory
  of this process and of the worker processes (the wall-time limit stretches to 3x on a
  machine so busy that the worker had less than half the limit in CPU time).

Best of 3 runs each; a shared machine makes the ratios more telling than the seconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import distribution
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ERD = Path(distribution("example-robot-data").locate_file(
    "cmeel.prefix/share/example-robot-data/robots"))
ARMS = {"Panda": ERD / "panda_description/urdf/panda.urdf",
        "UR5": ERD / "ur_description/urdf/ur5_robot.urdf"}

_OPEN = r"""
import json, sys, time
mode, path = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
from robogui.io.robotfile import load_robot
from robogui.session.geometry import visual_meshes
from robogui.engine import bounded_work
if mode == "inprocess":  # the parse as it was: in this process, unbounded
    bounded_work.run_bounded = lambda fn, *args: fn(*args)
    bounded_work.run_many = lambda calls: [fn(*args) for fn, args in calls]
t1 = time.perf_counter()
if mode == "warm":
    bounded_work.warm_up(background=False)
t2 = time.perf_counter()
vs = visual_meshes.load_visuals(load_robot(path))
t3 = time.perf_counter()
visual_meshes.load_visuals(load_robot(path))
t4 = time.perf_counter()
print(json.dumps({"open": t3 - t2, "reopen": t4 - t3, "warm": t2 - t1,
                  "meshes": len(vs.meshes), "warnings": len(vs.warnings)}))
"""

_HOSTILE = r"""
import json, resource, sys, time
from robogui.io.robotfile import load_robot
from robogui.session.geometry.visual_meshes import load_visuals
from robogui.engine.bounded_work import shutdown, warm_up
warm_up(background=False)
t = time.perf_counter()
vs = load_visuals(load_robot(sys.argv[1]))
took = time.perf_counter() - t
shutdown()  # the workers end: their peak memory is counted in RUSAGE_CHILDREN
# this process's own peak (VmHWM; ru_maxrss would carry the benchmark's across exec)
me = next(int(x.split()[1]) * 1024 for x in open("/proc/self/status")
          if x.startswith("VmHWM:"))
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps({"s": took, "self": me, "worker": kids, "warning": vs.warnings[:1]}))
"""


def _run(code: str, *args: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                         text=True, timeout=600, cwd=ROOT)
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def _best(code: str, *args: str, key: str, n: int = 3) -> dict:
    return min((_run(code, *args) for _ in range(n)), key=lambda r: r[key])


def _big_stl(path: Path, triangles: int) -> None:
    import numpy as np

    rec = np.zeros(triangles, dtype=[("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")])
    rec["v"] = np.random.default_rng(0).random((triangles, 3, 3), dtype=np.float32)
    with open(path, "wb") as fh:
        fh.write(b"big".ljust(80, b" ") + np.uint32(triangles).tobytes() + rec.tobytes())


def main() -> None:
    print("first open (load_robot + load_visuals), fresh process, best of 3:")
    for name, path in ARMS.items():
        r = {m: _best(_OPEN, m, str(path), key="open") for m in ("inprocess", "cold", "warm")}
        base = r["inprocess"]["open"]
        print(f"  {name}: in this process {base:.2f} s; bounded workers started on demand "
              f"{r['cold']['open']:.2f} s ({r['cold']['open'] / base:.2f}x), already "
              f"started {r['warm']['open']:.2f} s ({r['warm']['open'] / base:.2f}x); "
              f"reopen {r['warm']['reopen']:.3f} s; "
              f"starting the workers {r['warm']['warm']:.2f} s")
    hostile = ROOT / "tests/data/bad/hostile"
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.stl"
        _big_stl(big, 4_900_000)  # just under the triangle cap: 245 MB
        arm = Path(tmp) / "arm.urdf"
        arm.write_text((hostile / "mesh-missing.urdf").read_text()
                       .replace("meshes/nothing-here.stl", "big.stl"))
        cases = {"slow-nodes.dae (48,000 scene nodes)": hostile / "mesh-dae-slow-nodes.urdf",
                 "binary STL of 4.9 million triangles (245 MB)": arm}
        print("worst hostile meshes at the default limits (10 s, 2048 MiB):")
        for name, path in cases.items():
            r = _run(_HOSTILE, str(path))
            print(f"  {name}: {r['s']:.1f} s, this process {r['self'] / 2**20:.0f} MiB peak, "
                  f"worker {r['worker'] / 2**20:.0f} MiB peak; "
                  f"{(r['warning'] or ['read'])[0][:160]}")


if __name__ == "__main__":
    main()
