"""Every URDF that example-robot-data ships either loads or is refused with a
RobotFileError that says why: never another exception, never a silent wrong robot."""

from __future__ import annotations

import warnings

import pytest

from robogui.io.file_error import RobotFileError
from robogui.io.ros.urdf import load_urdf, urdf_tips
from tests.urdf_files import ERD

FILES = sorted(ERD.rglob("*.urdf"))


def test_there_are_many_files():
    assert len(FILES) >= 50


def test_each_file_loads_or_says_why():
    loaded, refused = [], {}
    for path in FILES:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # missing meshes of a few files
                tips = urdf_tips(path)
                robot = load_urdf(path, tip=tips[0] if tips else None)
        except RobotFileError as exc:
            assert str(path) in str(exc)
            refused[path.name] = str(exc).split(": ", 1)[1]
            continue
        assert robot.n >= 1
        loaded.append(path.name)
    assert len(loaded) >= 0.9 * len(FILES)
    # ur3.urdf is an empty <robot> without a name (a broken xacro output)
    assert refused["ur3.urdf"] == "<robot> has no <link>: there is no robot in the file"
    # hector's quadrotor is one rigid body: no joint to drive
    quad = [m for n, m in refused.items() if n.startswith("quadrotor")]
    assert quad and all("no revolute, continuous or prismatic joint" in m for m in quad)


def test_a_file_without_links_or_name_is_named(tmp_path):
    empty = tmp_path / "empty.urdf"
    empty.write_text('<robot name="nothing"/>')
    with pytest.raises(RobotFileError, match="has no <link>"):
        load_urdf(empty)
    nameless = tmp_path / "nameless.urdf"
    nameless.write_text('<robot><link name="a"/></robot>')
    with pytest.raises(RobotFileError, match="has no name attribute"):
        load_urdf(nameless)


def test_a_xacro_of_macros_only_says_so():
    """rtb-data's kr5_arc_macro.xacro defines the KR5 as a macro that kr5_arc.xacro calls."""
    from tests.urdf_files import KR5, PACKAGES

    with pytest.raises(RobotFileError, match="macros only: open the file that uses them"):
        load_urdf(KR5.with_name("kr5_arc_macro.xacro"), package_path=PACKAGES)
