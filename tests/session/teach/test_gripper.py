"""Issue 24, item 3: grasp and release steps in teach programs (format version 3), the cell's
state along the compiled program (the part travels with the tool, stays where it is let go),
and what pre-flight refuses."""

from __future__ import annotations

import numpy as np
import pytest

import robogui as rg
from robogui.engine.kinematics.kinematics import fkine
from robogui.engine.spatial.transforms import rpy2tr
from robogui.session.planning_scene.carried import GRASP_REACH, CarryingTrajectory
from robogui.session.planning_scene.cell import Cell, CellObject
from robogui.session.session import Session
from robogui.session.teach.compile import compile_program
from robogui.session.teach.preflight import preflight
from robogui.session.teach.program import Move, Program, ProgramError
from robogui.session.teach.program_file import (
    ProgramFileError,
    dumps_program,
    loads_program,
)

ARM = rg.Robot([rg.Link(a=1.0), rg.Link(a=1.0), rg.Link(a=1.0)], name="planar")
QA, QB = np.array([0.0, 0.0, 0.0]), np.array([0.6, -0.3, 0.2])
# a box whose near face touches the tool centre point at QA (the tip, (3, 0, 0))
PART = CellObject("part", "box", (0.2, 0.1, 0.1), xyz=(3.1, 0.0, 0.0), rpy=(0.0, 0.0, 0.0))
BASE = dict(base_xyz=(0.1, -0.2, 0.3), base_rpy=(0.0, 0.0, 0.4))


def _based_cell() -> Cell:
    """The cell with the robot's base moved and turned, the part moved with it."""
    base = Cell(**BASE).base
    x, y, z = base[:3, :3] @ np.array(PART.xyz) + base[:3, 3]
    return Cell((PART.moved(xyz=(x, y, z), rpy=(0.0, 0.0, 0.4)),), floor=False, **BASE)


def _program(*steps) -> Program:
    p = Program(name="pick", robot="planar").add_waypoint(QA, "A").add_waypoint(QB, "B")
    for s in steps:
        p = p.insert_move(s)
    return p


PICK = (Move("joint", "A"), Move("grasp", part="part"), Move("joint", "B"),
        Move("release"), Move("joint", "A"))


def test_grasp_and_release_steps_are_program_steps_with_their_own_rules():
    p = _program(*PICK)
    assert [m.describe() for m in p.moves[1:4]] == ["grasp part", "joint -> B", "release"]
    assert p.has_gripper_steps and p.motion_moves == [0, 2, 4]
    assert p.moves[1].waypoints_used == () and p.moves_using("B") == [2]
    assert Move("grasp", part="part", duration=0.3).describe() == "grasp part (0.3 s)"
    with pytest.raises(ProgramError, match="grasped part"):
        Move("grasp")
    with pytest.raises(ProgramError, match="names no part"):
        Move("release", part="part")
    with pytest.raises(ProgramError, match="no target"):
        Move("grasp", "A", part="part")
    with pytest.raises(ProgramError, match="not a speed"):
        Move("release", speed=0.5)
    with pytest.raises(ProgramError, match="only a grasp names a part"):
        Move("joint", "A", part="part")
    # the edits Record uses
    q = Program().add_waypoint(QA, "A").grasp("part").release(duration=0.5)
    assert [m.kind for m in q.moves] == ["grasp", "release"] and q.moves[1].duration == 0.5


def test_format_version_3_round_trips_and_older_versions_refuse_gripper_steps():
    p = _program(*PICK).update_move(1, duration=0.25, comment="close")
    text = dumps_program(p)
    assert "version = 3" in text and 'kind = "grasp"\npart = "part"\nduration = 0.25' in text
    assert 'kind = "release"\n' in text
    assert loads_program(text) == p
    # a program without gripper steps is still written as version 2
    assert "version = 2" in dumps_program(_program(Move("joint", "B")))
    with pytest.raises(ProgramFileError, match="version 3 kind") as err:
        loads_program(text.replace("version = 3", "version = 2"))
    assert err.value.field == "kind" and err.value.entry == "move 2"
    with pytest.raises(ProgramFileError, match="no target") as err:
        loads_program(text.replace('kind = "release"', 'kind = "release"\ntarget = "A"'))
    assert err.value.field == "target"
    with pytest.raises(ProgramFileError, match="is missing") as err:
        loads_program(text.replace('part = "part"\n', ""))
    with pytest.raises(ProgramFileError, match="version 3 field") as err:
        loads_program(dumps_program(_program(Move("joint", "B"))).replace(
            'target = "B"', 'target = "B"\npart = "x"'))


def test_the_part_travels_with_the_tool_and_stays_where_it_was_released():
    cell = _based_cell()
    part = cell.object("part")
    c = compile_program(_program(*PICK), ARM, QB, cell=cell, dt=0.01)  # from B to A first
    assert c.ok and not [p for p in c.problems if p.kind == "gripper"]
    traj = c.trajectory
    assert isinstance(traj, CarryingTrajectory) and c.carried is traj.carried
    seg = {s.move_index: s for s in c.segments}
    t_grasp, t_release = seg[1].t_start, seg[3].t_start
    assert seg[1].t_end == t_grasp == seg[0].t_end > 0  # an instant step
    (hold,) = c.carried.holds
    assert (hold.t_grasp, hold.t_release) == (t_grasp, t_release)
    base = rpy2tr(0.0, 0.0, 0.4)
    base[:3, 3] = (0.1, -0.2, 0.3)
    # independent: the part's pose relative to the TCP at QA, kept while held
    rel = np.linalg.inv(base @ fkine(ARM, QA)) @ part.T
    np.testing.assert_allclose(hold.offset, rel, atol=1e-12)
    np.testing.assert_allclose(rel, [[1, 0, 0, 0.1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
                               atol=1e-12)
    for t in np.linspace(t_grasp, t_release, 7)[:-1]:
        tcp = fkine(ARM, np.asarray(traj.sample(t)))
        pose = traj.carried_poses(t, tcp)["part"]
        np.testing.assert_allclose(pose, base @ tcp @ rel, atol=1e-12)
    # before the grasp: where the cell has it
    np.testing.assert_array_equal(traj.carried_poses(t_grasp / 2, np.eye(4))["part"], part.T)
    # released at B: constant afterwards, whatever the tool does
    at_b = base @ fkine(ARM, QB) @ rel
    np.testing.assert_allclose(hold.released, at_b, atol=1e-9)
    for t in (t_release, (t_release + c.cycle_time) / 2, c.cycle_time):
        tcp = fkine(ARM, np.asarray(traj.sample(t)))
        np.testing.assert_array_equal(traj.carried_poses(t, tcp)["part"], hold.released)
    # the part at B is 0.1 m beyond the tip along the last link: x = 1 + cos(.6) ... exactly
    tip = np.array([np.cos(0.6) + np.cos(0.3) + np.cos(0.5), np.sin(0.6) + np.sin(0.3)
                    + np.sin(0.5), 0.0])
    centre = tip + 0.1 * np.array([np.cos(0.5), np.sin(0.5), 0.0])
    np.testing.assert_allclose(hold.released[:3, 3], base[:3, :3] @ centre + base[:3, 3],
                               atol=1e-9)
    # what the cell is left as
    final = c.carried.final_cell()
    np.testing.assert_allclose(final.object("part").T, hold.released, atol=1e-9)


def test_a_timed_grasp_holds_the_arm_still_and_a_blend_before_it_is_dropped():
    cell = Cell((PART,), floor=False)
    p = _program(Move("joint", "B"), Move("joint", "A", blend_radius=0.05),
                 Move("grasp", part="part", duration=0.3), Move("joint", "B"))
    c = compile_program(p, ARM, cell=cell, dt=0.01)
    seg = c.segments[2]
    assert seg.duration == pytest.approx(0.3)
    q = c.trajectory.q[seg.i_start:seg.i_end + 1]
    np.testing.assert_array_equal(q, np.tile(QA, (len(q), 1)))
    assert any(pr.kind == "blend" and "stops for the grasp" in pr.message for pr in c.problems)


def _gripper_problems(program, cell):
    c = compile_program(program, ARM, cell=cell, dt=0.02)
    return [p for p in preflight(ARM, c, cell=cell, check_torque=False) if p.kind == "gripper"]


def test_preflight_refuses_what_cannot_be_grasped_or_released():
    cell = Cell((PART,), floor=False)
    got = _gripper_problems(_program(Move("joint", "A"), Move("grasp", part="bolt")), cell)
    assert [p.severity for p in got] == ["error"] and "no object 'bolt'" in got[0].message
    got = _gripper_problems(_program(Move("joint", "A"), Move("release")), cell)
    assert "nothing is held" in got[0].message and got[0].move_index == 1
    got = _gripper_problems(_program(Move("joint", "A"), Move("grasp", part="part"),
                                     Move("grasp", part="part")), cell)
    assert len(got) == 1 and "already holds 'part'" in got[0].message
    # out of reach: the box's near face is 0.45 m from the TCP
    far = Cell((PART.moved(xyz=(3.55, 0.0, 0.0)),), floor=False)
    got = _gripper_problems(_program(Move("joint", "A"), Move("grasp", part="part")), far)
    assert "out of reach, 450 mm" in got[0].message and GRASP_REACH == 0.10
    # just within reach: 99 mm
    near = Cell((PART.moved(xyz=(3.199, 0.0, 0.0)),), floor=False)
    assert not _gripper_problems(_program(Move("joint", "A"), Move("grasp", part="part")),
                                 near)
    # without a cell nothing is carried: a warning, and the trajectory is a plain one
    c = compile_program(_program(*PICK), ARM)
    assert c.carried is None and not hasattr(c.trajectory, "carried_poses")
    assert [p.severity for p in c.problems if p.kind == "gripper"] == ["warning"]


def test_versions_1_and_2_programs_compile_as_before():
    p = _program(Move("joint", "B"), Move("linear", "A"))
    c = compile_program(p, ARM, cell=Cell((PART,), floor=False))
    plain = compile_program(p, ARM)
    assert c.carried is None and type(c.trajectory) is type(plain.trajectory)
    np.testing.assert_array_equal(c.trajectory.q, plain.trajectory.q)


def test_the_session_draws_the_carried_part_from_the_compiled_trajectory():
    from robogui.session.teach.teach import TeachState

    s = Session(ARM, QA)
    cell = _based_cell()
    s.set_cell(cell)
    teach = TeachState(s)
    teach.set_program(_program(*PICK))
    c = teach.compile(run_preflight=False)
    assert s.trajectory is c.trajectory
    hold = c.carried.holds[0]
    t = (hold.t_grasp + hold.t_release) / 2
    s.set_time(t, changing=False)
    expected = cell.base @ s.T @ hold.offset
    np.testing.assert_allclose(s.object_poses()["part"], expected, atol=1e-12)
    s.set_time(c.cycle_time, changing=False)
    np.testing.assert_array_equal(s.object_poses()["part"], hold.released)
