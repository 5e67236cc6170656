"""Paths to real MJCF arms shipped inside PyPI wheels (nobody here wrote them).

robosuite and dm_control are installed with ``--no-deps`` for their XML and mesh assets
only (``pip install --no-deps robosuite dm-control``; the ``test`` extra lists them):
``importlib.util.find_spec`` finds a package's folder without importing it, so neither
package's Python code (nor its heavy dependencies) is ever run. Missing packages give an
empty list, and the tests that need them skip.
"""

from importlib.util import find_spec
from pathlib import Path


def _package_dir(name: str) -> Path | None:
    try:
        spec = find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


ROBOSUITE = _package_dir("robosuite")
DM_CONTROL = _package_dir("dm_control")

#: (name, file, tip) of the MJCF arms checked against mujoco
ARMS: list[tuple[str, Path, str]] = []
if ROBOSUITE is not None:
    ARMS += [(arm, ROBOSUITE / f"models/assets/robots/{arm}/robot.xml", "right_hand")
             for arm in ("panda", "sawyer", "iiwa", "jaco", "kinova3", "ur5e")]
if DM_CONTROL is not None:
    ARMS.append(("dm_control jaco", DM_CONTROL / "third_party/kinova/jaco_arm.xml",
                 "wristsite"))
ARMS = [a for a in ARMS if a[1].is_file()]
