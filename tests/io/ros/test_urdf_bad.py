"""Malformed URDF files: a RobotFileError naming the file and the element."""

import pytest

import robogui as rg
from robogui.io.robotfile import RobotFileError

GOOD_JOINT = """<joint name="j1" type="revolute"><parent link="a"/><child link="b"/>
  <origin xyz="0 0 0.1" rpy="0 0 0"/><axis xyz="0 0 1"/>
  <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>"""


def _robot(body: str) -> str:
    return f'<?xml version="1.0"?>\n<robot name="r">\n{body}\n</robot>\n'


LINKS = '<link name="a"/><link name="b"/>'

CASES = {
    "not_xml": ("<robot name='r'><link name='a'></robot", r"not valid XML"),
    "empty": ("", r"the file is empty"),
    "no_parent": (_robot(LINKS + '<joint name="j1" type="fixed"><child link="b"/></joint>'),
                  r"<joint name='j1'> has no <parent"),
    "loop": (_robot('<link name="a"/><link name="b"/><link name="c"/>'
                    '<joint name="j1" type="revolute"><parent link="a"/><child link="b"/>'
                    '<axis xyz="0 0 1"/></joint>'
                    '<joint name="j2" type="revolute"><parent link="c"/><child link="c"/>'
                    '<axis xyz="0 0 1"/></joint>'),
             r"j2"),
    "unknown_type": (_robot(LINKS + GOOD_JOINT.replace("revolute", "screw")),
                     r"<joint name='j1'>: unknown joint type 'screw'"),
    "floating": (_robot(LINKS + GOOD_JOINT.replace("revolute", "floating")),
                 r"<joint name='j1'> on the chain.*floating"),
    "planar": (_robot(LINKS + GOOD_JOINT.replace("revolute", "planar")),
               r"<joint name='j1'> on the chain.*planar"),
    "nan_origin": (_robot(LINKS + GOOD_JOINT.replace('xyz="0 0 0.1"', 'xyz="0 nan 0.1"')),
                   r"<joint name='j1'> <origin xyz>: nan is not a finite number"),
    "zero_axis": (_robot(LINKS + GOOD_JOINT.replace('axis xyz="0 0 1"', 'axis xyz="0 0 0"')),
                  r"<joint name='j1'>: <axis xyz> must be a non-zero"),
    "negative_mass": (_robot('<link name="a"/><link name="b"><inertial><mass value="-2"/>'
                             '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>'
                             '</inertial></link>' + GOOD_JOINT),
                      r"<link name='b'> <inertial> <mass value>: -2 is outside the bounds \[0, "),
    "unknown_link": (_robot('<link name="a"/>' + GOOD_JOINT),
                     r"<joint name='j1'> refers to link 'b'"),
    "not_robot": ("<?xml version='1.0'?><sdf/>", r"root element is <sdf>"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_urdf_names_file_and_element(case, tmp_path):
    text, pattern = CASES[case]
    path = tmp_path / f"{case}.urdf"
    path.write_text(text)
    with pytest.raises(RobotFileError, match=pattern) as info:
        rg.load_robot(path)
    assert str(path) in str(info.value)


def test_unknown_tip_lists_the_candidates(tmp_path):
    path = tmp_path / "ok.urdf"
    path.write_text(_robot(LINKS + GOOD_JOINT))
    assert rg.load_robot(path).tip == "b"
    with pytest.raises(RobotFileError,
                       match=r"no link named 'tool0' \(tips: b; choose with --tip\)"):
        rg.load_robot(path, tip="tool0")


def test_xacro_with_an_unknown_package_says_which(tmp_path):
    path = tmp_path / "arm.urdf.xacro"
    path.write_text('<?xml version="1.0"?><robot name="r" xmlns:xacro="http://wiki.ros.org/xacro">'
                    '<xacro:include filename="$(find no_such_pkg)/x.xacro"/></robot>')
    with pytest.raises(RobotFileError, match=r"\$\(find no_such_pkg\)"):
        rg.load_robot(path)


def test_mimic_on_the_chain_follows_an_off_chain_leader_at_rest(tmp_path):
    body = ('<link name="a"/><link name="b"/><link name="c"/><link name="f"/>' + GOOD_JOINT +
            '<joint name="m" type="revolute"><parent link="b"/><child link="c"/>'
            '<origin xyz="1 0 0"/><axis xyz="0 0 1"/><mimic joint="g" multiplier="2" '
            'offset="0.5"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>'
            '<joint name="g" type="revolute"><parent link="a"/><child link="f"/>'
            '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')
    path = tmp_path / "mimic.urdf"
    path.write_text(_robot(body))
    robot = rg.load_robot(path, tip="c")
    assert robot.n == 1
    import numpy as np

    # the mimic joint sits at 2 * 0 + 0.5 rad: link c, 1 m out, is turned by q + 0.5
    T = robot.fkine([0.3])
    np.testing.assert_allclose(T[:3, 3], [np.cos(0.3), np.sin(0.3), 0.1], atol=1e-12)
    np.testing.assert_allclose(T[:2, 0], [np.cos(0.8), np.sin(0.8)], atol=1e-12)


def test_dynamics_tags_and_ros_package_path(tmp_path, monkeypatch):
    import trimesh

    pkg = tmp_path / "ws" / "src" / "my_arm_description" / "meshes"
    pkg.mkdir(parents=True)
    trimesh.creation.box().export(pkg / "base.stl")
    path = tmp_path / "elsewhere" / "arm.urdf"
    path.parent.mkdir()
    path.write_text(_robot(
        '<link name="a"><visual><geometry><mesh filename="package://my_arm_description/'
        'meshes/base.stl"/></geometry></visual></link><link name="b"/>'
        + GOOD_JOINT.replace("</joint>", '<dynamics damping="0.5" friction="0.2"/></joint>')))
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(tmp_path / "ws"))
    robot = rg.load_robot(path)
    L = robot.links[0]
    assert L.B == 0.5 and L.Tc == (0.2, -0.2)
    assert L.qlim == (-1.0, 1.0) and L.qd_max == 1.0 and L.tau_max == 1.0
    (vis,) = robot.visuals
    assert vis.filename == str(pkg / "base.stl") and vis.frame == 0
