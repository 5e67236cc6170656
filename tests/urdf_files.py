"""Paths to real URDF/xacro files shipped by test dependencies (nobody here wrote them)."""

from importlib.metadata import distribution
from pathlib import Path

import rtbdata

ERD = Path(distribution("example-robot-data").locate_file(
    "cmeel.prefix/share/example-robot-data/robots"))
RTB = Path(rtbdata.__file__).parent / "xacro"

UR5 = ERD / "ur_description/urdf/ur5_robot.urdf"
PANDA = ERD / "panda_description/urdf/panda.urdf"
PUMA = RTB / "unimation_puma560_description/urdf/puma560_robot.urdf"
IRB140 = RTB / "abb_irb140_description/urdf/irb140.urdf"
KR5 = RTB / "kuka_description/kuka_kr5/urdf/kr5_arc.xacro"
# the package names these files use, and the folders that hold them in rtb-data
PACKAGES = [f"abb_irb140_support={RTB / 'abb_irb140_description'}",
            f"kuka_kr5_support={RTB / 'kuka_description/kuka_kr5'}",
            f"kuka_resources={RTB / 'kuka_description/kuka_resources'}"]

# (file, tip) of the arms checked against Pinocchio
ARMS = [(UR5, "tool0"), (PANDA, "panda_hand"), (PUMA, "link7"), (IRB140, "tool0"),
        (KR5, "tool0")]
