"""Mimic joints on a URDF chain follow their leader (issue 12): q_full = E q + c.

Oracles: Pinocchio's own URDF parser with ``mimic=True`` (its mimic joints have no
configuration of their own), the same file without the ``<mimic>`` element evaluated at
``E q + c`` with E applied by hand, finite differences and the energy balance.
"""

from pathlib import Path

import numpy as np
import pinocchio as pin
import pytest

from robogui.engine.model.robot import Robot
from robogui.io.robotfile import RobotFileError
from robogui.io.ros.urdf import load_urdf
from tests.urdf_files import ERD

ARM = Path(__file__).parents[2] / "data" / "mimic_arm.urdf"
PR2 = ERD / "pr2_description/urdf/pr2.urdf"
# joint 3 follows joint 2: q3 = -2 q2 + 0.1
E = np.array([[1.0, 0, 0], [0, 1, 0], [0, -2, 0], [0, 0, 1]])
C = np.array([0, 0, 0.1, 0])


@pytest.fixture(scope="module")
def arm():
    return load_urdf(ARM)


@pytest.fixture(scope="module")
def uncoupled(tmp_path_factory):
    """The same file without its <mimic> element: four independent joints."""
    path = tmp_path_factory.mktemp("mimic") / "free.urdf"
    text = ARM.read_text()
    start = text.index("<mimic")
    path.write_text(text[:start] + text[text.index("/>", start) + 2:])
    return load_urdf(path)


def _states(robot, m=6, seed=0):
    rng = np.random.default_rng(seed)
    lim = robot.qlim
    q = lim[:, 0] + (lim[:, 1] - lim[:, 0]) * rng.random((m, robot.n))
    return q, rng.uniform(-1, 1, (m, robot.n)), rng.uniform(-1, 1, (m, robot.n))


def test_the_chain_keeps_every_body_and_counts_independent_joints(arm):
    assert arm.n == 3 and arm.n_bodies == 4 and arm.structure == "RRR"
    assert arm.mimic == {2: (1, -2.0, 0.1)}
    assert [L.name for L in arm.links] == ["j1", "j2", "j4"]
    assert [L.name for L in arm.chain] == ["j1", "j2", "j3", "j4"]
    np.testing.assert_array_equal(arm.coupling.E, E)
    np.testing.assert_array_equal(arm.coupling.c, C)
    # joint 2's [-2, 2] meets what joint 3's [-2.5, 2.5] allows: -2 q2 + 0.1 in [-2.5, 2.5]
    np.testing.assert_allclose(arm.qlim, [[-3, 3], [-1.2, 1.3], [-2, 2]])
    assert arm.pose("qz").shape == (3,)
    assert hash(arm) == hash(arm.replace()) and arm == arm.replace()
    assert arm != arm.full and arm.full.n == 4 and arm.full.coupling is None
    assert "mimics joint 2: q = -2 q2 + 0.1" in str(arm)


def test_kinematics_and_dynamics_agree_with_pinocchio_mimic_model(arm):
    model = pin.buildModelFromUrdf(str(ARM), mimic=True)
    assert model.nq == 3
    data, fid = model.createData(), model.getFrameId("tool")
    Q, QD, QDD = _states(arm)
    T, F, J = arm.fkine(Q), arm.fkine_all(Q), arm.jacob0(Q)
    tau, M, g = arm.rne(Q, QD, QDD), arm.inertia(Q), arm.gravload(Q)
    assert F.shape == (6, 5, 4, 4) and J.shape == (6, 6, 3) and M.shape == (6, 3, 3)
    for k in range(len(Q)):
        pin.framesForwardKinematics(model, data, Q[k])
        np.testing.assert_allclose(T[k], data.oMf[fid].homogeneous, atol=1e-12)
        for b, name in enumerate(["l1", "l2", "l3", "tool"], 1):  # the follower too
            np.testing.assert_allclose(F[k, b],
                                       data.oMf[model.getFrameId(name)].homogeneous,
                                       atol=1e-12)
        Jp = pin.computeFrameJacobian(model, data, Q[k], fid, pin.LOCAL_WORLD_ALIGNED)
        np.testing.assert_allclose(J[k], Jp, atol=1e-12)
        np.testing.assert_allclose(tau[k], pin.rnea(model, data, Q[k], QD[k], QDD[k]),
                                   atol=1e-10)
        np.testing.assert_allclose(g[k], pin.computeGeneralizedGravity(model, data, Q[k]),
                                   atol=1e-10)
        # fresh data: crba of this Pinocchio build reads stale mimic terms from reused data
        np.testing.assert_allclose(M[k], pin.crba(model, model.createData(), Q[k]),
                                   atol=1e-10)


def test_every_function_is_the_full_chain_mapped_by_E(arm, uncoupled):
    Q, QD, QDD = _states(arm, seed=1)
    Qf, QDf, QDDf = Q @ E.T + C, QD @ E.T, QDD @ E.T
    np.testing.assert_allclose(arm.fkine_all(Q), uncoupled.fkine_all(Qf), atol=1e-14)
    np.testing.assert_allclose(arm.jacobe(Q), uncoupled.jacobe(Qf) @ E, atol=1e-14)
    np.testing.assert_allclose(arm.jacob_dot(Q, QD), uncoupled.jacob_dot(Qf, QDf) @ E,
                               atol=1e-13)
    np.testing.assert_allclose(arm.rne(Q, QD, QDD), uncoupled.rne(Qf, QDf, QDDf) @ E,
                               atol=1e-12)
    np.testing.assert_allclose(arm.coriolis(Q, QD), E.T @ uncoupled.coriolis(Qf, QDf) @ E,
                               atol=1e-12)
    parts = arm.torque_components(Q, QD, QDD)
    np.testing.assert_allclose(parts.total, arm.rne(Q, QD, QDD), atol=1e-12)
    Jv = arm.jacob0(Q)[:, :3]
    np.testing.assert_allclose(arm.manipulability(Q, axes="trans"),
                               np.sqrt(np.linalg.det(Jv @ np.swapaxes(Jv, 1, 2))), rtol=1e-10)
    # one state and a batch agree
    np.testing.assert_allclose(arm.rne(Q[0], QD[0], QDD[0]), arm.rne(Q, QD, QDD)[0],
                               atol=1e-12)
    np.testing.assert_allclose(arm.fkine(Q[0]), arm.fkine(Q)[0], atol=1e-15)


def test_jacobians_are_the_derivatives_of_fkine(arm):
    q, qd, _ = _states(arm, m=1, seed=2)
    q, qd, h = q[0], qd[0], 1e-6
    J = arm.jacob0(q)
    for i in range(arm.n):
        dq = np.eye(arm.n)[i] * h
        dT = (arm.fkine(q + dq) - arm.fkine(q - dq)) / (2 * h)
        np.testing.assert_allclose(J[:3, i], dT[:3, 3], atol=1e-8)
        W = dT[:3, :3] @ arm.fkine(q)[:3, :3].T  # skew(w)
        np.testing.assert_allclose(J[3:, i], [W[2, 1], W[0, 2], W[1, 0]], atol=1e-8)
        np.testing.assert_allclose(arm.dTdqi(q, i), dT, atol=1e-8)
    Jd = (arm.jacob0(q + h * qd) - arm.jacob0(q - h * qd)) / (2 * h)
    np.testing.assert_allclose(arm.jacob_dot(q, qd), Jd, atol=1e-8)


def test_rne_does_the_work_that_changes_the_energy(arm):
    """tau . qd = d/dt (kinetic + potential energy) along a motion (no friction here)."""
    q, qd, qdd = (x[0] for x in _states(arm, m=1, seed=3))
    h = 1e-5

    def energy(t):
        qt, qdt = q + t * qd + 0.5 * t * t * qdd, qd + t * qdd
        return arm.kinetic_energy(qt, qdt) + arm.potential_energy(qt)

    power = arm.rne(q, qd, qdd) @ qd
    np.testing.assert_allclose(power, (energy(h) - energy(-h)) / (2 * h), rtol=1e-7)
    # gravity torque is the gradient of the potential energy
    grad = [(arm.potential_energy(q + h * e) - arm.potential_energy(q - h * e)) / (2 * h)
            for e in np.eye(arm.n)]
    np.testing.assert_allclose(arm.gravload(q), grad, atol=1e-7)


def test_forward_dynamics_inverts_rne(arm):
    q, qd, tau = (x[0] for x in _states(arm, m=1, seed=4))
    qdd = arm.accel(q, qd, tau)
    np.testing.assert_allclose(arm.rne(q, qd, qdd), tau, atol=1e-10)
    traj = arm.fdyn(0.05, q, qd, dt=0.01)
    assert traj.q.shape == (6, 3)
    np.testing.assert_allclose(traj.qdd[0], arm.accel(q, qd, np.zeros(3)), atol=1e-8)
    E0 = arm.kinetic_energy(q, qd) + arm.potential_energy(q)
    E1 = arm.kinetic_energy(traj.q[-1], traj.qd[-1]) + arm.potential_energy(traj.q[-1])
    assert abs(E1 - E0) < 1e-5  # no friction, no torque: energy is kept


def test_ikine_solves_positions_through_the_reduced_jacobian(arm):
    Q, _, _ = _states(arm, m=20, seed=5)
    T = arm.fkine(Q)
    res = arm.ikine(T, q0=np.clip(Q + 0.2, arm.qlim[:, 0], arm.qlim[:, 1]),
                    mask=[1, 1, 1, 0, 0, 0])
    assert res.success.mean() >= 0.95
    ok = res.success
    np.testing.assert_allclose(arm.fkine(res.q[ok])[:, :3, 3], T[ok, :3, 3], atol=1e-8)
    one = arm.ikine(T[0], q0=Q[0] + 0.1, mask=[1, 1, 1, 0, 0, 0])
    assert one.success
    np.testing.assert_allclose(arm.fkine(one.q)[:3, 3], T[0, :3, 3], atol=1e-8)


def test_robot_level_checks():
    from robogui.engine.model.link import Link

    links = [Link(a=1, qlim=(-1, 1)), Link(a=1, qlim=(-1, 1))]
    with pytest.raises(ValueError, match="itself a follower"):
        Robot(links + [Link(a=1)], mimic={1: (0, 1, 0), 2: (1, 1, 0)})
    with pytest.raises(ValueError, match="no common range"):
        Robot(links, mimic={1: (0, 1.0, 5.0)})
    r = Robot(links, mimic={1: (0, 1.0, 0.0)})
    assert r.n == 1 and r.nofriction().mimic == r.mimic and r.perturb(0.1, seed=1).n == 1
    np.testing.assert_allclose(r.fkine([0.5])[:2, 3], [np.cos(0.5) + np.cos(1.0),
                                                        np.sin(0.5) + np.sin(1.0)])
    with pytest.raises(ValueError, match="mimic"):
        r.lock({0: 0.0})


def test_a_mimic_loop_in_the_file_is_an_error(tmp_path):
    text = ARM.read_text().replace('<limit lower="-2" upper="2" effort="50" velocity="2"/>'
                                   '</joint>', '<limit lower="-2" upper="2" effort="50" '
                                   'velocity="2"/><mimic joint="j3"/></joint>', 1)
    path = tmp_path / "loop.urdf"
    path.write_text(text)
    with pytest.raises(RobotFileError, match="loop"):
        load_urdf(path)


def test_pr2_gripper_fingertip_follows_its_finger():
    """A real file: PR2's fingertip joint mimics the finger joint on the chain to the tip."""
    tip = "r_gripper_l_finger_tip_link"
    robot = load_urdf(PR2, tip=tip)
    names = [L.name for L in robot.chain]
    k_tip, k_finger = names.index("r_gripper_l_finger_tip_joint"), \
        names.index("r_gripper_l_finger_joint")
    assert robot.mimic == {k_tip: (k_finger, 1.0, 0.0)} and robot.n == robot.n_bodies - 1
    full = pin.buildModelFromUrdf(str(PR2), mimic=True)
    chain = set(names)
    lock = [i for i in range(1, full.njoints) if full.names[i] not in chain]
    model = pin.buildReducedModel(full, lock, pin.neutral(full))
    assert model.nv == robot.n
    data, fid = model.createData(), model.getFrameId(tip)
    Q = robot.random_q(4, seed=6)
    T, J = robot.fkine(Q), robot.jacob0(Q)
    for k in range(len(Q)):
        qp = np.concatenate([[np.cos(v), np.sin(v)] if model.joints[i + 1].nq == 2 else [v]
                             for i, v in enumerate(Q[k])])
        pin.framesForwardKinematics(model, data, qp)
        np.testing.assert_allclose(T[k], data.oMf[fid].homogeneous, atol=1e-9)
        Jp = pin.computeFrameJacobian(model, data, qp, fid, pin.LOCAL_WORLD_ALIGNED)
        np.testing.assert_allclose(J[k], Jp, atol=1e-9)


def test_symbolic_kinematics_and_code_export_substitute_the_follower(arm, tmp_path):
    from robogui.engine.kinematics import symbolic

    sk = symbolic.symbolic_kinematics(arm)
    assert sk.n == 3 and len(sk.frames) == 5
    assert {str(s) for s in sk.T.free_symbols} <= {"q1", "q2", "q3"}
    Q, _, _ = _states(arm, m=4, seed=7)
    T, J = symbolic.evaluate(arm, Q)
    np.testing.assert_allclose(T, arm.fkine(Q), atol=1e-12)
    np.testing.assert_allclose(J, arm.jacob0(Q), atol=1e-12)
    src = symbolic.to_python(arm, func_name="mimic_kin")
    ns = {}
    exec(compile(src, "mimic_kin", "exec"), ns)  # noqa: S102
    T2, J2 = ns["mimic_kin"](Q)
    np.testing.assert_allclose(T2, arm.fkine(Q), atol=1e-12)
    np.testing.assert_allclose(J2, arm.jacob0(Q), atol=1e-12)
    # the uncoupled chain is another derivation, not a cache hit
    assert symbolic.kinematic_key(arm) != symbolic.kinematic_key(arm.full)


def test_save_and_load_keeps_the_coupling(arm, tmp_path):
    from robogui.io.robotfile import save_robot

    path = tmp_path / "again.urdf"
    save_robot(arm, path)
    assert "<mimic" in path.read_text()
    back = load_urdf(path)
    assert back.mimic == arm.mimic and back.n == 3
    np.testing.assert_allclose(back.qlim, arm.qlim, atol=1e-12)
    Q, QD, QDD = _states(arm, seed=8)
    np.testing.assert_allclose(back.fkine(Q), arm.fkine(Q), atol=1e-12)
    np.testing.assert_allclose(back.rne(Q, QD, QDD), arm.rne(Q, QD, QDD), atol=1e-10)


def test_toml_refuses_a_coupled_robot_with_a_reason(arm, tmp_path):
    from robogui.io.robotfile import save_robot

    with pytest.raises(ValueError, match="mimic joints.*save it as .urdf"):
        save_robot(arm, tmp_path / "arm.toml")
    assert not (tmp_path / "arm.toml").exists()
