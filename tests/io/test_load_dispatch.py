"""load_robot reads legacy files by suffix, and a library name never shadows a file path."""


import numpy as np
import pytest

from robogui import RobotFileError, load_robot
from tests.samples import LEGACY_SAMPLES

SAMPLES = LEGACY_SAMPLES


def test_roboop_conf_loads_by_suffix_and_matches_the_library_puma(tmp_path):
    conf = tmp_path / "PUMA.CONF"
    conf.write_text((SAMPLES / "puma560_std_dh.conf").read_text())
    robot = load_robot(conf)
    puma = load_robot("puma560")
    q = puma.random_q(5, seed=1)
    np.testing.assert_allclose(robot.fkine(q), puma.fkine(q), atol=1e-12)


def test_robmat_dat_loads_by_suffix(tmp_path):
    dat = tmp_path / "scara.dat"
    dat.write_text((SAMPLES / "scara.dat").read_text())
    robot = load_robot(str(dat))
    assert robot.n == 3 and robot.structure == "RRP"


def test_unknown_name_lists_the_library():
    with pytest.raises(RobotFileError) as info:
        load_robot("puma56")
    assert "puma560" in str(info.value) and "available" in str(info.value)


def test_missing_legacy_file_names_the_file(tmp_path):
    with pytest.raises(RobotFileError) as info:
        load_robot(tmp_path / "missing.conf")
    assert "missing.conf" in str(info.value)


def test_malformed_legacy_files_through_load_robot_name_file_line_and_token(tmp_path):
    conf = tmp_path / "bad.conf"
    conf.write_text("[R]\ndof: 1\nDH: 1\n[R_LINK1]\nalpha:1.57\n")
    with pytest.raises(RobotFileError) as info:
        load_robot(conf)
    msg = str(info.value)
    assert "bad.conf" in msg and "line 5" in msg and "'alpha:1.57'" in msg
    dat = tmp_path / "bad.dat"
    dat.write_text((SAMPLES / "scara.dat").read_text().replace("-9.8", "g", 1))
    with pytest.raises(RobotFileError) as info:
        load_robot(dat)
    msg = str(info.value)
    assert "bad.dat" in msg and "line 23" in msg and "'g'" in msg and "gz" in msg
