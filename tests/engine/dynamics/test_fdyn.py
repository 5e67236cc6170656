"""Forward dynamics: accel inverts rne, fdyn conserves energy, hooks, friction stall, input."""

import numpy as np
import pytest

from robogui import Link, Robot
from robogui.engine.dynamics import dynamics as D
from robogui.engine.dynamics.fdyn import FdynCancelled, FdynStiffError, accel, fdyn
from robogui.engine.trajectory.trajectory import Trajectory


def test_accel_inverts_rne(puma, puma_akb, stanford):
    rng = np.random.default_rng(1)
    for robot in (puma, puma_akb, stanford):
        q = rng.uniform(-1, 1, (20, 6))
        if robot is stanford:
            q[:, 2] = rng.uniform(0.3, 1.2, 20)
        qd = rng.uniform(-2, 2, (20, 6))
        tau = rng.uniform(-20, 20, (20, 6))
        qdd = accel(robot, q, qd, tau)
        assert qdd.shape == (20, 6)
        np.testing.assert_allclose(D.rne(robot, q, qd, qdd), tau, atol=1e-8)
        np.testing.assert_allclose(accel(robot, q[3], qd[3], tau[3]), qdd[3], atol=1e-10)
    # with a tool wrench and another gravity
    F = np.array([5.0, 0, -3, 0.1, 0, 0.2])
    g = [0, 0, -1.62]
    qdd = accel(puma, q[0], qd[0], tau[0], gravity=g, fext=F)
    np.testing.assert_allclose(D.rne(puma, q[0], qd[0], qdd, gravity=g, fext=F), tau[0],
                               atol=1e-9)


def energy(robot, traj):
    return D.kinetic_energy(robot, traj.q, traj.qd) + D.potential_energy(robot, traj.q)


def test_energy_conserved_without_torque_or_friction(puma):
    robot = puma.nofriction(coulomb=True, viscous=True)
    traj = fdyn(robot, 2.0, robot.pose("qn"), qd0=[0.5, -0.3, 0.2, 1.0, 0, -1.0],
                method="DOP853", rtol=1e-10, atol=1e-12, dt=0.05)
    assert isinstance(traj, Trajectory)
    assert traj.t[0] == 0 and traj.t[-1] == pytest.approx(2.0)
    np.testing.assert_allclose(np.diff(traj.t), 0.05, atol=1e-12)
    E = energy(robot, traj)
    assert np.abs(E - E[0]).max() / np.abs(E).max() < 1e-6
    assert np.ptp(traj.q[:, 1]) > 0.1  # it really moved (falls under gravity)
    # qdd is the model's acceleration at each sample
    np.testing.assert_allclose(traj.qdd, accel(robot, traj.q, traj.qd, 0 * traj.q), atol=1e-9)


def test_viscous_friction_dissipates(puma):
    robot = puma.nofriction(coulomb=True, viscous=False)
    traj = fdyn(robot, 1.0, robot.pose("qn"), qd0=[1.0, 0, 0, 2.0, 0, -2.0], dt=0.02,
                rtol=1e-9, atol=1e-11)
    E = energy(robot, traj)
    assert np.all(np.diff(E) < 1e-7)
    assert E[-1] < E[0] - 1e-3


def test_pd_controller_holds_the_arm(puma):
    """r6 fdyn example in spirit: PD control with gravity compensation reaches its goal."""
    robot = puma.nofriction()
    goal = robot.pose("qn")
    Kp, Kd = 400.0, 40.0

    def torque(t, q, qd):
        return Kp * (goal - q) - Kd * qd + D.gravload(robot, q)

    traj = fdyn(robot, (0.0, 1.5), goal + 0.1, torque=torque, t_eval=np.linspace(0, 1.5, 31))
    assert traj.t.shape == (31,)
    np.testing.assert_allclose(traj.q[0], goal + 0.1)
    assert np.abs(traj.q[-1] - goal).max() < 2e-3
    assert np.abs(traj.q[-1] - goal).max() < 0.1 * np.abs(traj.q[10] - goal).max()
    # qdd recomputed at the samples with the controller's torque
    tau = np.array([torque(t, q, qd) for t, q, qd in zip(traj.t, traj.q, traj.qd, strict=True)])
    np.testing.assert_allclose(traj.qdd, accel(robot, traj.q, traj.qd, tau), atol=1e-8)


def test_progress_and_cancel(puma):
    robot = puma.nofriction()
    seen = []
    fdyn(robot, 0.5, robot.pose("qn"), progress=seen.append)
    assert seen[-1] == 1.0 and seen == sorted(seen) and len(seen) >= 2
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) >= 5

    with pytest.raises(FdynCancelled) as info:
        fdyn(robot, 0.5, robot.pose("qn"), cancel=cancel)
    part = info.value.partial
    assert isinstance(part, Trajectory) and 0 < part.t[-1] < 0.5
    assert part.q.shape == (part.t.size, 6) and part.qdd.shape == part.q.shape


def test_coulomb_friction_stall_suggests_nofriction(puma):
    with pytest.raises(FdynStiffError, match=r"nofriction\(\)") as info:
        fdyn(puma, 1.0, puma.pose("qn"))
    assert info.value.partial is not None
    # the friction-free robot integrates
    traj = fdyn(puma.nofriction(), 0.2, puma.pose("qn"))
    assert traj.t[-1] == pytest.approx(0.2)


def test_max_steps_without_friction(puma):
    with pytest.raises(FdynStiffError, match="Radau"):
        fdyn(puma.nofriction(), 1.0, puma.pose("qn"), max_steps=3)


def test_bad_input(puma):
    q = puma.pose("qn")
    with pytest.raises(ValueError, match="q0"):
        fdyn(puma, 1.0, q[:4])
    with pytest.raises(ValueError, match="qd0"):
        fdyn(puma, 1.0, q, qd0=[np.nan] * 6)
    with pytest.raises(ValueError, match="T"):
        fdyn(puma, -1.0, q)
    with pytest.raises(ValueError, match="T"):
        fdyn(puma, (1.0, 2.0, 3.0), q)
    with pytest.raises(ValueError, match="method"):
        fdyn(puma, 1.0, q, method="euler")
    with pytest.raises(ValueError, match="t_eval"):
        fdyn(puma, 1.0, q, t_eval=[0.5, 0.2])
    with pytest.raises(ValueError, match="dt"):
        fdyn(puma, 1.0, q, dt=0)
    with pytest.raises(ValueError, match="torque"):
        fdyn(puma.nofriction(), 1.0, q, torque=lambda t, q, qd: np.zeros(3))
    with pytest.raises(ValueError, match="torque"):
        fdyn(puma, 1.0, q, torque=np.zeros(6))
    with pytest.raises(ValueError, match="tau"):
        accel(puma, q, q, q[:3])
    bare = Robot([Link(a=1.0), Link(a=1.0)], name="bare")
    with pytest.raises(ValueError, match="no dynamic parameters"):
        fdyn(bare, 1.0, [0, 0])
    with pytest.raises(ValueError, match="no dynamic parameters"):
        accel(bare, [0, 0], [0, 0], [0, 0])
    # a massless, motorless joint makes M singular
    limp = Robot([Link(a=1.0, m=1.0), Link(a=1.0)], name="limp")
    with pytest.raises(ValueError, match="singular"):
        accel(limp, [0, 0], [0, 0], [0, 0])


def test_fdyn_is_solve_ivp(puma):
    """fdyn drives scipy's solve_ivp: same samples as calling it on accel directly."""
    from scipy.integrate import solve_ivp

    robot = puma.nofriction()
    q0, qd0 = robot.pose("qn"), np.array([0.3, 0, -0.2, 0, 0.5, 0])
    te = np.linspace(0, 0.5, 11)

    def rhs(t, y):
        return np.concatenate([y[6:], accel(robot, y[:6], y[6:], np.zeros(6))])

    for method in ("RK45", "Radau"):
        ref = solve_ivp(rhs, (0, 0.5), np.concatenate([q0, qd0]), method=method, t_eval=te,
                        rtol=1e-6, atol=1e-8)
        traj = fdyn(robot, 0.5, q0, qd0=qd0, t_eval=te, method=method)
        np.testing.assert_allclose(traj.t, ref.t)
        np.testing.assert_allclose(traj.q, ref.y[:6].T, atol=1e-9)
        np.testing.assert_allclose(traj.qd, ref.y[6:].T, atol=1e-9)


def pendulum_with_friction():
    """A horizontal-axis pendulum whose Coulomb friction (1 N m at the joint) is weaker
    than gravity (4.9 N m when horizontal): released horizontally, it swings."""
    return Robot([Link(a=1.0, m=1.0, r=[-0.5, 0, 0], I=np.diag([0, 0.08, 0.08]), Jm=1e-4,
                       G=50, B=1e-4, Tc=(0.02, -0.02))], name="pendulum",
                 gravity=[0, -9.81, 0])


@pytest.mark.parametrize("method", ["Radau", "BDF", "LSODA"])
def test_implicit_methods_with_coulomb_friction_are_right(method):
    """scipy's own Jacobian estimate, taken across the friction jump at qd = 0, made BDF
    return constant-acceleration motion and Radau a pendulum that never moved; with the
    Jacobian of the smooth part they agree with a tight explicit solution."""
    robot = pendulum_with_friction()
    te = np.linspace(0, 1.5, 16)
    ref = fdyn(robot, 1.5, [0.0], method="DOP853", rtol=1e-11, atol=1e-12, t_eval=te)
    assert ref.q[-1, 0] < -2 and ref.qd[-1, 0] > 0.5  # it swung down, through and back
    traj = fdyn(robot, 1.5, [0.0], method=method, t_eval=te)  # rtol 1e-6, atol 1e-8
    np.testing.assert_allclose(traj.q, ref.q, atol=1e-4)
    np.testing.assert_allclose(traj.qd, ref.qd, atol=1e-3)


@pytest.mark.parametrize("method", ["Radau", "BDF", "LSODA"])
def test_implicit_methods_stall_on_sticking_joints(puma, method):
    """Puma at qn: joints 1, 4 and 6 stick in Coulomb friction. The implicit solvers must
    not return a motion (BDF used to return the t = 0 acceleration for a whole second)."""
    with pytest.raises(FdynStiffError, match=r"nofriction\(\)"):
        fdyn(puma, 1.0, puma.pose("qn"), method=method)


@pytest.mark.parametrize("name", ["puma_akb", "stanford"])
def test_energy_conserved_modified_and_prismatic(name, request):
    """The energy check on a modified-D-H arm and on one with a prismatic joint."""
    robot = request.getfixturevalue(name).nofriction(coulomb=True, viscous=True)
    q0 = np.array([0.2, -0.5, 0.6, 0.3, -0.4, 0.1])
    traj = fdyn(robot, 2.0, q0, qd0=[0.5, -0.3, 0.2, 1.0, 0, -1.0], method="DOP853",
                rtol=1e-10, atol=1e-12, dt=0.05)
    E = energy(robot, traj)
    assert np.abs(E - E[0]).max() / np.abs(E).max() < 1e-6
    assert np.ptp(traj.q, axis=0).max() > 0.1


def test_accel_empty_batch(puma):
    e = np.zeros((0, 6))
    assert accel(puma, e, e, e).shape == (0, 6)


def test_cancel_from_another_thread(puma):
    """The GUI runs fdyn on a worker thread and cancels it from the main thread."""
    import threading

    robot = puma.nofriction()
    started, stop = threading.Event(), threading.Event()
    result = {}

    def work():
        try:
            fdyn(robot, 50.0, robot.pose("qn"), max_step=1e-3, max_steps=10**6,
                 progress=lambda f: started.set(), cancel=stop.is_set)
        except FdynCancelled as exc:
            result["partial"] = exc.partial

    worker = threading.Thread(target=work)
    worker.start()
    assert started.wait(30)
    stop.set()
    worker.join(30)
    assert not worker.is_alive()
    part = result["partial"]
    assert 0 < part.t[-1] < 50 and np.all(np.diff(part.t) > 0)
    np.testing.assert_allclose(part.qdd, accel(robot, part.q, part.qd, 0 * part.q), atol=1e-9)
