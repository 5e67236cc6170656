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
    robots_in_wheel = sorted(n for n in names
                             if n.startswith("robogui/_robots/") and n.endswith(".toml"))
    in_repo = sorted(p.name for p in (ROOT / "robots").glob("*.toml"))
    assert [Path(n).name for n in robots_in_wheel] == in_repo
    assert len(in_repo) >= 12

    # the console script and the metadata of the wheel
    dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    wheel_zip = zipfile.ZipFile(wheel)
    entry_points = wheel_zip.read(f"{dist_info}/entry_points.txt").decode()
    assert "[console_scripts]" in entry_points
    assert "robogui = robogui.cli:main" in entry_points
    metadata = wheel_zip.read(f"{dist_info}/METADATA").decode()
    assert "Requires-Python: >=3.11" in metadata
    assert "robogui/__main__.py" in names

    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    script = (
        "import robogui, sys;"
        "from robogui import load_robot, list_robots;"
        "assert 'site' in robogui.__file__, robogui.__file__;"
        "r = load_robot('puma560');"
        # the samples robogui --demo opens ship inside the package too
        "from robogui.io.samples import demo_files;"
        "assert all('site' in str(p) for p in demo_files()), demo_files();"
        "print(len(list_robots()), r.n)"
    )
    # run from an empty directory so the source tree is not on sys.path
    env = {**os.environ, "PYTHONPATH": str(site)}
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    count, n = out.stdout.split()
    assert int(count) == len(in_repo) and int(n) == 6

    # Help > User guide in the installed copy: the guide and every doc it links ship in
    # the package, and its pictures load from the installed assets
    guide = (ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8")
    import re
    linked = sorted(set(re.findall(r"\]\(([\w.-]+\.md)\)", guide)))
    assert linked  # bounds.md, robot-file-format.md, ...
    for name in ["user-guide.md", *linked]:
        assert f"robogui/_docs/{name}" in names, name
    script = (
        "import sys;"
        "from PySide6 import QtWidgets, QtGui, QtCore;"
        "app = QtWidgets.QApplication([]);"
        "from robogui.app.shell.user_guide import guide_path, UserGuideDialog;"
        "p = guide_path(); assert p is not None and 'site' in str(p), p;"
        "d = UserGuideDialog(p);"
        "assert d.browser.toPlainText().startswith('robogui user guide');"
        "kind = QtGui.QTextDocument.ResourceType.ImageResource;"
        "imgs = [d.browser.document().resource(kind, QtCore.QUrl(n)) for n in d.images];"
        "print(len(imgs), sum(isinstance(i, (QtGui.QImage, QtGui.QPixmap)) and not i.isNull()"
        "                     for i in imgs))"
    )
    env["QT_QPA_PLATFORM"] = "offscreen"
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    n_images, n_loaded = map(int, out.stdout.split())
    assert n_images >= 2 and n_loaded == n_images


def test_pyproject_dependencies_and_extras():
    """Runtime: numpy, scipy, PySide6 (Essentials), pyqtgraph, PyOpenGL, sympy; the
    reference libraries (roboticstoolbox-python, Pinocchio) only in the test/bench extras."""
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "robogui" and project["requires-python"] == ">=3.11"

    def names(reqs):
        return {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for r in reqs}

    runtime = names(project["dependencies"])
    assert {"numpy", "scipy", "sympy", "pyside6-essentials", "pyqtgraph", "pyopengl"} <= runtime
    assert not runtime & {"roboticstoolbox-python", "pin", "spatialmath-python"}
    extras = project["optional-dependencies"]
    assert {"pytest", "pytest-qt", "hypothesis"} <= names(extras["test"])
    assert {"roboticstoolbox-python", "pin"} <= names(extras["bench"])
    assert project["scripts"] == {"robogui": "robogui.cli:main"}
