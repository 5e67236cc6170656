"""An installed wheel (not only the source tree) finds the robot library and runs."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_contains_the_robot_library_and_loads_it(tmp_path):
    wheel_dir = tmp_path / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(wheel_dir), str(ROOT)],
        check=True, capture_output=True, text=True,
    )
    (wheel,) = wheel_dir.glob("robogui-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    robots_in_wheel = sorted(n for n in names if n.startswith("robogui/_robots/") and n.endswith(".toml"))
    in_repo = sorted(p.name for p in (ROOT / "robots").glob("*.toml"))
    assert [Path(n).name for n in robots_in_wheel] == in_repo
    assert len(in_repo) >= 12

    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    script = (
        "import robogui, sys;"
        "from robogui import load_robot, list_robots;"
        "assert 'site' in robogui.__file__, robogui.__file__;"
        "r = load_robot('puma560');"
        "print(len(list_robots()), r.n)"
    )
    # run from an empty directory so the source tree is not on sys.path
    env = {**os.environ, "PYTHONPATH": str(site)}
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    count, n = out.stdout.split()
    assert int(count) == len(in_repo) and int(n) == 6
