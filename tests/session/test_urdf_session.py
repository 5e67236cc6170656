"""A URDF robot through the session: programs with linear moves, trajectory analysis."""

import numpy as np

from robogui.io.ros.urdf import load_urdf
from robogui.session.teach.compile import compile_program, max_joint_speeds
from robogui.session.teach.program import Program
from tests.urdf_files import UR5


def test_program_with_a_linear_move_on_the_ur5_urdf():
    robot = load_urdf(UR5, tip="tool0")
    q1 = np.array([0.3, -1.2, 1.4, -1.5, -1.5, 0.2])
    q2 = q1 + np.array([0.3, 0.2, -0.2, 0.1, 0.2, 0.1])
    prog = Program(name="urdf").record(q1).record(q2, move_kind="linear")
    out = compile_program(prog, robot, q_start=q1)
    assert not out.problems
    traj = out.trajectory
    np.testing.assert_allclose(traj.q[-1], q2, atol=1e-6)
    # the tool point stays on the straight line from start to end
    P = robot.fkine(traj.q)[:, :3, 3]
    a, b = P[0], P[-1]
    u = (b - a) / np.linalg.norm(b - a)
    off = (P - a) - np.outer((P - a) @ u, u)
    assert np.abs(off).max() < 1e-6
    # joint speed limits come from the URDF <limit velocity>
    np.testing.assert_allclose(max_joint_speeds(robot), [L.qd_max for L in robot.links])
    # torques along the trajectory: the parts add up to rne
    tc = robot.torque_components(traj.q, traj.qd, traj.qdd)
    np.testing.assert_allclose(tc.total, robot.rne(traj.q, traj.qd, traj.qdd), atol=1e-9)
