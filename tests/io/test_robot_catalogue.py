"""The robot gallery's catalogue without a window: which robots are installed, their names,
makers and joint counts, and the search (robogui/io/robot_catalogue.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from robogui.io import robot_catalogue as cat
from robogui.io.robotfile import list_robots
from tests.urdf_files import ERD, KR5, PANDA, RTB, UR5


@pytest.fixture(scope="module")
def entries():
    return cat.find_robots()


def _entry(entries, path):
    found = [e for e in entries if e.path == Path(path)]
    assert len(found) == 1, (path, found)
    return found[0]


def test_every_library_robot_is_listed_first(entries):
    library = [e for e in entries if e.source == "library"]
    assert [e.target for e in library] == list_robots()
    assert entries[: len(library)] == library
    assert all(e.path.suffix == ".toml" and e.path.is_file() for e in library)


def test_the_library_robots_describe_with_their_maker_and_joints(entries):
    by_name = {e.target: e for e in entries if e.source == "library"}
    desc, robot = cat.describe(by_name["puma560"])
    assert (desc.joints, desc.error, robot.n) == (6, None, 6)
    assert desc.maker == "Unimation"
    desc, _ = cat.describe(by_name["kr5"])
    assert (desc.name, desc.maker, desc.joints) == ("KUKA KR5", "KUKA", 6)


# the makers' published axis counts of the example-robot-data arms (the flange is the tip,
# gripper fingers are no arm joints)
ERD_ARMS = [("ur_description/urdf/ur5_robot.urdf", "Universal Robots", 6),
            ("ur_description/urdf/ur10_robot.urdf", "Universal Robots", 6),
            ("ur_description/urdf/ur3_robot.urdf", "Universal Robots", 6),
            ("panda_description/urdf/panda.urdf", "Franka Emika", 7),
            ("kinova_description/robots/kinova.urdf", "Kinova", 6),
            ("xarm_description/urdf/xarm7.urdf", "UFACTORY", 7)]


@pytest.mark.parametrize(("rel", "maker", "joints"), ERD_ARMS)
def test_example_robot_data_arms_are_found_with_right_joint_counts(entries, rel, maker, joints):
    entry = _entry(entries, ERD / rel)
    assert entry.source == "example-robot-data" and entry.maker == maker
    desc, robot = cat.describe(entry)
    assert desc.error is None and desc.joints == joints == robot.n


def test_only_arms_are_listed_not_the_humanoids_and_quadrupeds(entries):
    erd = {e.path.relative_to(ERD).parts[0] for e in entries
           if e.source == "example-robot-data"}
    assert erd == {f for s, f, _ in cat.ARM_FOLDERS if s == "example-robot-data"}
    assert not any("talos" in str(e.path) or "anymal" in str(e.path) for e in entries)


def test_rtb_data_kuka_xacro_opens_with_the_package_folders_it_needs(entries):
    # kr5_arc.xacro names $(find kuka_kr5_support) and kuka_resources; rtb-data keeps them
    # as kuka_description/kuka_kr5 and kuka_description/kuka_resources
    entry = _entry(entries, KR5)
    assert entry.source == "rtb-data" and entry.maker == "KUKA"
    assert f"kuka_kr5_support={RTB / 'kuka_description/kuka_kr5'}" in entry.package_path
    desc, robot = cat.describe(entry)
    assert desc.error is None and desc.joints == 6 and robot.tip == "tool0"


def test_a_xacro_beside_its_expanded_urdf_and_macro_files_are_not_listed_twice(entries):
    rtb = [e.path.name for e in entries if e.source == "rtb-data"]
    assert "irb140.urdf" in rtb and "irb140.xacro" not in rtb
    assert not [n for n in rtb if n.endswith("_macro.xacro") or n.startswith("common_")]
    assert len({str(e.path) for e in entries}) == len(entries)


def test_recent_files_come_last_without_duplicates_or_missing_files(tmp_path, entries):
    mine = tmp_path / "my_arm.toml"
    mine.write_text((Path(cat.find_robots(sources=("library",))[0].path)).read_text())
    found = cat.find_robots([str(mine), str(tmp_path / "gone.urdf"), str(UR5), str(mine)])
    recent = [e for e in found if e.source == "recent"]
    assert [e.path for e in recent] == [mine.resolve()]  # UR5 is listed as a package arm
    assert found[-1].name == "my_arm" and found[-1].target == str(mine.resolve())


def test_a_file_that_does_not_load_is_described_with_the_loaders_message(tmp_path):
    bad = tmp_path / "broken.urdf"
    bad.write_text("<robot name='x'><link name='a'/><joint name='j' type='revolute'>")
    entry = cat.find_robots([bad], sources=("recent",))[0]
    desc, robot = cat.describe(entry)
    assert robot is None and desc.joints is None and "broken.urdf" in desc.error


def test_search_by_name_maker_and_joint_count(entries):
    panda = _entry(entries, PANDA)
    ur5 = _entry(entries, UR5)
    d_panda = cat.Description("panda", "Franka Emika", 7)
    d_ur5 = cat.Description("ur5", "Universal Robots", 6)
    assert cat.matches(panda, d_panda, "") and cat.matches(panda, d_panda, "  PANDA ")
    assert cat.matches(panda, d_panda, "franka")
    assert cat.matches(ur5, d_ur5, "universal ur5") and not cat.matches(ur5, d_ur5, "ur5 kuka")
    for text in ("7", "7 joints", "7-axis", "7 dof"):
        assert cat.matches(panda, d_panda, text) and not cat.matches(ur5, d_ur5, text), text
    assert cat.matches(ur5, d_ur5, "6 joints") and not cat.matches(ur5, None, "6 joints")


def test_cache_key_follows_the_file_and_descriptions_round_trip(tmp_path):
    f = tmp_path / "arm.urdf"
    f.write_text("<robot/>")
    k1 = cat.file_key(f, "192x144")
    assert k1 == cat.file_key(f, "192x144") and k1 != cat.file_key(f, "64x48")
    f.write_text("<robot name='longer'/>")  # another size
    assert cat.file_key(f, "192x144") != k1
    os.utime(f, ns=(1, 1))
    k2 = cat.file_key(f, "192x144")
    os.utime(f, ns=(2, 2))
    assert cat.file_key(f, "192x144") != k2
    table = {"a": cat.Description("ur5", "Universal Robots", 6),
             "b": cat.Description("x", "", None, "x.urdf: no link")}
    cat.save_descriptions(tmp_path / "cache/d.json", table)
    assert cat.load_descriptions(tmp_path / "cache/d.json") == table
    (tmp_path / "junk.json").write_text("[1, 2")
    assert cat.load_descriptions(tmp_path / "junk.json") == {}
    assert cat.load_descriptions(tmp_path / "none.json") == {}


def test_mjcf_arms_of_robosuite_and_dm_control_when_installed(entries):
    from tests.mjcf_files import DM_CONTROL, ROBOSUITE

    if ROBOSUITE is None and DM_CONTROL is None:
        pytest.skip("neither robosuite nor dm_control is installed")
    if ROBOSUITE is not None:
        names = {e.name for e in entries if e.source == "robosuite"}
        assert {"panda", "sawyer", "iiwa", "jaco", "kinova3", "ur5e"} <= names
    if DM_CONTROL is not None:
        jaco = _entry(entries, DM_CONTROL / "third_party/kinova/jaco_arm.xml")
        desc, _ = cat.describe(jaco)
        assert (desc.maker, desc.joints, desc.error) == ("Kinova", 6, None)
