"""Forward kinematics of the library robots against roboticstoolbox-python (test oracle).

Every library robot that roboticstoolbox-python also defines is compared on 20 random
joint vectors, for fkine and for every frame of fkine_all, to 1e-9. Where a library file
deliberately differs from the toolbox (documented in the file's comment), the test
applies exactly that documented difference and also asserts it is the only one.
"""

import math

import numpy as np
import pytest
import roboticstoolbox as rtb

from robogui.io.robotfile import load_robot

TOL = 1e-9


def transl_z(dz):
    T = np.eye(4)
    T[2, 3] = dz
    return T


def trotz(theta):
    c, s = math.cos(theta), math.sin(theta)
    T = np.eye(4)
    T[:2, :2] = [[c, -s], [s, c]]
    return T


def rtb_frames(model, q2d):
    """fkine (m,4,4) and fkine_all (m,n+1,4,4) of a roboticstoolbox model, one q at a time."""
    T = np.array([model.fkine(q).A for q in q2d])
    F = np.array([np.array(model.fkine_all(q).A) for q in q2d])
    return T, F


# name -> (toolbox model, transform S with  T_theirs = S @ T_ours  for every frame after the base)
CASES = {
    # roboticstoolbox-python has d1 = 0.67183 m; this file has d1 = 0 (as r6/MATLAB RTB)
    "puma560": (rtb.models.DH.Puma560, transl_z(0.67183)),
    "twolink": (rtb.models.DH.TwoLink, np.eye(4)),
    "kr5": (rtb.models.DH.KR5, np.eye(4)),
    "irb140": (rtb.models.DH.IRB140, np.eye(4)),
    "ur10": (rtb.models.DH.UR10, np.eye(4)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_fkine_and_all_frames_agree(name):
    model_cls, S = CASES[name]
    ours, theirs = load_robot(name), model_cls()
    Q = ours.random_q(20, seed=7)
    T_rtb, F_rtb = rtb_frames(theirs, Q)
    np.testing.assert_allclose(S @ ours.fkine(Q), T_rtb, rtol=0, atol=TOL)
    F = ours.fkine_all(Q)
    assert F.shape == F_rtb.shape == (20, ours.n + 1, 4, 4)
    np.testing.assert_allclose(F[:, 0], F_rtb[:, 0], rtol=0, atol=TOL)  # the base
    np.testing.assert_allclose(S @ F[:, 1:], F_rtb[:, 1:], rtol=0, atol=TOL)


def test_puma560_differs_only_by_the_pedestal_in_d1():
    ours, theirs = load_robot("puma560"), rtb.models.DH.Puma560()
    assert ours.links[0].d == 0.0 and theirs.links[0].d == pytest.approx(0.67183, abs=1e-12)
    assert np.array_equal(ours.base, np.eye(4))
    for L, M in zip(ours.links[1:], theirs.links[1:], strict=True):
        assert (L.d, L.a, L.alpha) == (M.d, M.a, M.alpha)
    # the named poses are the toolbox's (qn written with q3 = -pi, as roboticstoolbox-python)
    for pose in ("qz", "qr", "qs", "qn"):
        np.testing.assert_allclose(ours.pose(pose), getattr(theirs, pose), atol=1e-15)


def test_stanford_differs_only_by_a3():
    # Paul's Stanford arm and r6 have a3 = 0; roboticstoolbox-python has a3 = 0.0203 m
    ours, theirs = load_robot("stanford"), rtb.models.DH.Stanford()
    assert ours.links[2].a == 0.0 and theirs.links[2].a == 0.0203
    links = list(ours.links)
    links[2] = links[2].replace(a=0.0203)
    patched = ours.with_links(links)
    Q = ours.random_q(20, seed=3)
    T_rtb, F_rtb = rtb_frames(theirs, Q)
    np.testing.assert_allclose(patched.fkine(Q), T_rtb, rtol=0, atol=TOL)
    np.testing.assert_allclose(patched.fkine_all(Q), F_rtb, rtol=0, atol=TOL)
    assert not np.allclose(ours.fkine(Q), T_rtb, atol=1e-3)


def test_ur5_differs_only_by_d1():
    # Universal Robots publish d1 = 0.089159 m; roboticstoolbox-python has 0.089459 m
    ours, theirs = load_robot("ur5"), rtb.models.DH.UR5()
    assert ours.links[0].d == 0.089159 and theirs.links[0].d == 0.089459
    shift = transl_z(theirs.links[0].d - ours.links[0].d)
    Q = ours.random_q(20, seed=5)
    T_rtb, F_rtb = rtb_frames(theirs, Q)
    np.testing.assert_allclose(shift @ ours.fkine(Q), T_rtb, rtol=0, atol=TOL)
    np.testing.assert_allclose(shift @ ours.fkine_all(Q)[:, 1:], F_rtb[:, 1:], rtol=0, atol=TOL)


def test_panda_flange_as_tool_and_toolbox_hand():
    # Franka's table: flange d = 0.107 m after joint 7 (our tool). roboticstoolbox-python
    # folds the flange into d7 and adds the Franka Hand, Rz(-pi/4) Tz(0.103), as its tool.
    ours, theirs = load_robot("panda"), rtb.models.DH.Panda()
    assert ours.is_mdh and theirs.mdh
    assert ours.links[6].d == 0.0 and theirs.links[6].d == pytest.approx(0.107, abs=1e-15)
    np.testing.assert_array_equal(ours.tool, transl_z(0.107))
    hand = trotz(-math.pi / 4) @ transl_z(0.103)
    np.testing.assert_allclose(theirs.tool.A, hand, atol=1e-15)
    Q = ours.random_q(20, seed=11)
    T_rtb, F_rtb = rtb_frames(theirs, Q)
    np.testing.assert_allclose(ours.fkine(Q) @ hand, T_rtb, rtol=0, atol=TOL)
    # the toolbox's fkine_all leaves its tool out; our last frame (frame 7 and our tool,
    # the flange) is the toolbox's frame 7 with the flange in d7
    np.testing.assert_allclose(ours.fkine_all(Q), F_rtb, rtol=0, atol=TOL)
    np.testing.assert_allclose(ours.qlim, theirs.qlim.T, atol=0)


def test_every_shared_robot_is_compared():
    """Every library robot that roboticstoolbox-python also defines is covered above.

    The toolbox's DH model classes are matched to library names case-insensitively, so a
    robot added to either side later makes this test fail until it is compared too.
    """
    from robogui.io.robotfile import list_robots

    compared = set(CASES) | {"stanford", "ur5", "panda"}
    toolbox = {name.lower() for name in dir(rtb.models.DH) if not name.startswith("_")}
    shared = toolbox & set(list_robots())
    assert shared == compared == {"puma560", "twolink", "kr5", "irb140", "ur10", "stanford",
                                  "ur5", "panda"}
    # the rest of the library has no toolbox DH model: checked in tests/io/test_library.py
    # (puma560akb against the standard Puma, SCARA and SMART against SpaceLib's dhtom)
    assert set(list_robots()) - shared == {"puma560akb", "rhino", "scara", "smart"}
