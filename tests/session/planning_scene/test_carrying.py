"""Issue 24, item 4 (a grasped part collides with everything but the link that holds it) and
item 3's demo: a carried part is checked along programs, continuously, and live; the demo
program picks the part from bin A and places it in bin B, clear of collisions."""

from __future__ import annotations

import json
from pathlib import Path

import coal
import numpy as np
import pytest

import robogui as rg
from robogui.cli import main
from robogui.engine.kinematics.kinematics import fkine
from robogui.session.planning_scene.carrying import check_carrying, check_holding
from robogui.session.planning_scene.cell import Cell, CellObject, pose_matrix
from robogui.session.planning_scene.cell_file import load_cell
from robogui.session.planning_scene.continuous import check_trajectory
from robogui.session.teach.compile import compile_program
from robogui.session.teach.preflight import preflight, program_contacts
from robogui.session.teach.program import Move, Program
from robogui.session.teach.program_file import load_program

ROOT = Path(__file__).resolve().parents[3]
DEMO_CELL = ROOT / "assets" / "cells" / "pick-and-place.cell"
DEMO_PROG = ROOT / "assets" / "cells" / "pick-and-place.prog"

ARM = rg.Robot([rg.Link(a=1.0), rg.Link(a=1.0), rg.Link(a=1.0)], name="planar")
# a 0.3 m bar 80 mm beyond the tool centre point (the tip, (3, 0, 0) at q = 0), clear of the
# tip link's capsule (radius 75 mm)
PART = CellObject("part", "box", (0.3, 0.1, 0.1), xyz=(3.23, 0.0, 0.0))
# a plate across the circle of radius 3.2 .. 3.4 at 0.25 rad: the bar sweeps through it when
# joint 1 turns by 0.5 rad, the arm alone (its tip capsule ends at r = 3.075) does not
_C, _S = np.cos(0.25), np.sin(0.25)
WALL = CellObject("wall", "box", (0.2, 0.004, 0.5), xyz=(3.3 * _C, 3.3 * _S, 0.0),
                  rpy=(0.0, 0.0, 0.25))
CELL = Cell((PART, WALL), floor=False)
QA, QB = np.zeros(3), np.array([0.5, 0.0, 0.0])


def _program(grasp: bool) -> Program:
    p = Program(name="sweep").add_waypoint(QA, "A").add_waypoint(QB, "B")
    p = p.insert_move(Move("joint", "A"))
    if grasp:
        p = p.grasp("part")
    return p.insert_move(Move("joint", "B")).insert_move(Move("joint", "A"))


def test_a_carried_part_hits_what_the_arm_alone_passes():
    plain = compile_program(_program(False), ARM, cell=CELL)
    assert program_contacts(ARM, plain, CELL).clear
    carried = compile_program(_program(True), ARM, cell=CELL)
    rep = program_contacts(ARM, carried, CELL)
    assert {c.pair for c in rep.contacts} == {("part", "wall")}
    # independently: coal on the bar, moved rigidly with the tip, at the checked states
    bar, wall = coal.Box(0.3, 0.1, 0.1), coal.Box(0.2, 0.004, 0.5)
    tw = pose_matrix(WALL.xyz, WALL.rpy)
    req, res = coal.CollisionRequest(), coal.CollisionResult()
    for c in rep.contacts:
        for t in np.linspace(c.t_start, c.t_end, 5):
            q = rep.q[np.argmin(np.abs(rep.t - t))]
            T = fkine(ARM, q) @ pose_matrix((0.23, 0, 0), (0, 0, 0))
            res.clear()
            assert coal.collide(bar, coal.Transform3s(T[:3, :3], T[:3, 3]), wall,
                                coal.Transform3s(tw[:3, :3], tw[:3, 3]), req, res)
    # the bar is in contact around the wall's angle, going out and coming back
    starts = sorted(c.t_start for c in rep.contacts)
    assert len(starts) == 2
    # the continuous check's bound holds with the part on board (it reaches r = 3.3 m)
    assert rep.max_step <= 0.002
    # pre-flight lists them as collision errors
    errs = [p for p in preflight(ARM, carried, cell=CELL, check_torque=False)
            if p.kind == "collision"]
    assert len(errs) == 2 and "'part' hits 'wall'" in errs[0].message


def test_the_part_is_not_checked_against_the_link_that_holds_it():
    # held right at the tip, the bar overlaps the tip link's capsule (radius 75 mm)
    offset = pose_matrix((0.15, 0, 0), (0, 0, 0))
    alone = Cell((PART,), floor=False)
    rep = check_holding(ARM, QA, alone, "part", offset)
    assert not rep.colliding and rep.distance > 0
    # ... but every other link is checked: fold the last joint back over links 1 and 2
    q = np.array([0.0, 0.0, np.pi - 0.1])
    rep = check_holding(ARM, q, alone, "part", offset)
    hits = {a if b == "part" else b for a, b in rep.pairs if "part" in (a, b)}
    assert hits and "link3" not in hits and hits <= {"link1", "link2"}


def test_what_the_part_stands_on_is_left_out_at_lift_off_and_put_down_only():
    cell = load_cell(DEMO_CELL)
    robot = rg.load_robot("puma560")
    c = compile_program(load_program(DEMO_PROG), robot, cell=cell)
    (hold,) = c.carried.holds
    assert hold.lifted_from == ("bin A bottom",) and hold.put_on == ("bin B bottom",)
    # standing on the bottoms, the part touches them: a check without the rule finds it
    grasped = c.carried.cell_at(hold.t_grasp, without_held=False)
    at_grasp = check_holding(robot, c.trajectory.q[hold.i_grasp], grasped, "part", hold.offset)
    assert at_grasp.pairs == [("part", "bin A bottom")]
    at_release = check_holding(robot, c.trajectory.q[hold.i_release], grasped, "part",
                               hold.offset)
    assert at_release.pairs == [("part", "bin B bottom")]
    # along the program they are the lift-off and the put-down, left out
    rep = check_carrying(robot, c.trajectory.t, c.trajectory.q, c.carried, distances=True)
    assert rep.clear and rep.max_step <= 0.002
    # the part comes within a millimetre of the bottom as it is put down, never closer
    assert 0.0 < rep.clearance.min() < 1e-3
    # released where bin B's bottom holds it upright
    np.testing.assert_allclose(hold.released[:3, 3], [0.5, -0.3, 0.445], atol=1e-6)
    np.testing.assert_allclose(hold.released[:3, 2], [0, 0, 1], atol=1e-6)


def test_a_part_dropped_into_the_wall_of_bin_b_is_a_contact():
    cell = load_cell(DEMO_CELL)
    robot = rg.load_robot("puma560")
    prog = load_program(DEMO_PROG)
    # put down 12 cm towards bin B's north wall: the part ends inside the wall
    place = prog.waypoint("place").q
    from robogui.engine.kinematics.ikine import ikine

    T = fkine(robot, place)
    T[1, 3] += 0.12
    q = np.asarray(ikine(robot, T, q0=place).q)
    prog = prog.touch_up("place", q)
    c = compile_program(prog, robot, cell=cell)
    rep = program_contacts(robot, c, cell)
    assert ("part", "bin B north wall") in {ct.pair for ct in rep.contacts}


def test_robogui_check_clears_the_demo_with_its_part_carried(capsys):
    code = main(["check", str(DEMO_PROG), "--cell", str(DEMO_CELL), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["clear"] and out["contacts"] == []
    assert out["max_step_m"] <= 0.002


def test_the_demo_picks_from_bin_a_and_places_in_bin_b():
    cell = load_cell(DEMO_CELL)
    robot = rg.load_robot("puma560")
    prog = load_program(DEMO_PROG)
    assert [m.kind for m in prog.moves].count("grasp") == 1
    c = compile_program(prog, robot, cell=cell)
    assert c.ok, [p.message for p in c.problems]
    problems = preflight(robot, c, cell=cell, check_torque=False)
    assert not [p for p in problems if p.severity == "error"]
    traj = c.trajectory
    (hold,) = c.carried.holds
    start = cell.object("part").T
    # inside bin A's walls when grasped, inside bin B's when released
    assert abs(start[0, 3] - 0.5) < 0.1 and abs(start[1, 3] - 0.3) < 0.1
    end = traj.carried_poses(c.cycle_time, np.eye(4))["part"]
    assert abs(end[0, 3] - 0.5) < 0.1 and abs(end[1, 3] + 0.3) < 0.1
    # while carried, the part clears the bin walls' tops (z = 0.48 m) on the way over
    mid = (hold.t_grasp + hold.t_release) / 2
    tcp = fkine(robot, np.asarray(traj.sample(mid)))
    pose = traj.carried_poses(mid, tcp)["part"]
    assert pose[2, 3] - 0.035 > 0.48


def test_a_decoration_part_is_carried_but_never_checked():
    ghost = CellObject("part", "box", (0.3, 0.1, 0.1), xyz=(3.15, 0.0, 0.0), collides=False)
    cell = Cell((ghost, WALL), floor=False)
    c = compile_program(_program(True), ARM, cell=cell)
    assert c.carried is not None and program_contacts(ARM, c, cell).clear


def test_live_the_held_part_follows_the_tool_and_only_touching_its_support_is_allowed():
    from robogui.session.planning_scene.carried import HeldPart, grasp_nearest, released_cell
    from robogui.session.planning_scene.carrying import check_live
    from robogui.session.session import Session

    robot = rg.load_robot("puma560")
    cell = load_cell(DEMO_CELL)
    prog = load_program(DEMO_PROG)
    s = Session(robot, prog.waypoint("pick").q)
    s.set_cell(cell)
    held = grasp_nearest(cell, s.T)
    assert held.name == "part" and held.lifted_from == ("bin A bottom",)
    s.set_held(held)
    # standing on the bin's bottom: touching, not a contact live; the plain check says touch
    live = check_live(robot, s.q, cell, s.held)
    assert not live.colliding and live.pairs == []
    assert check_holding(robot, s.q, cell, "part", held.offset).pairs == [
        ("part", "bin A bottom")]
    # 5 mm lower than it stands (along the part's own z, up): a contact
    sunk = HeldPart("part", held.offset @ pose_matrix((0, 0, -0.005), (0, 0, 0)),
                    held.lifted_from)
    deep = check_live(robot, s.q, cell, sunk)
    assert deep.pairs == [("part", "bin A bottom")] and deep.depths[0] == pytest.approx(
        0.005, abs=1e-6)
    # the part follows the tool in object_poses, and stays where released
    s.set_q(prog.waypoint("place").q)
    T = s.object_poses()["part"]
    np.testing.assert_allclose(T[:3, 3], [0.5, -0.3, 0.445], atol=1e-6)
    s.set_cell(released_cell(cell, s.held, s.T))
    s.set_held(None)
    np.testing.assert_allclose(s.object_poses()["part"], T, atol=1e-12)
    # a cell without the held part lets go of it
    s.set_held(grasp_nearest(s.cell, s.T))
    s.set_cell(s.cell.without("part"))
    assert s.held is None


def test_the_tip_link_may_touch_the_part_it_reaches_for_and_lets_go_of():
    # held right at the tip the bar overlaps the tip link's capsule: the fingers round it
    bar = CellObject("part", "box", (0.3, 0.1, 0.1), xyz=(3.15, 0.0, 0.0))
    cell = Cell((bar,), floor=False)
    prog = (Program(name="touch").add_waypoint(QA, "A").add_waypoint(QB, "B")
            .insert_move(Move("joint", "A")).grasp("part").insert_move(Move("joint", "B"))
            .release().insert_move(Move("joint", "A")))
    c = compile_program(prog, ARM, QB, cell=cell)  # from B: the arm comes to the part
    (hold,) = c.carried.holds
    assert hold.lifted_from == () and hold.put_on == ()
    rep = program_contacts(ARM, c, cell)
    assert rep.clear, rep.contacts
    # the plain check of the approach sees the tip link in the bar at the grasp
    t, q = c.trajectory.t, c.trajectory.q
    plain = check_trajectory(ARM, t[:hold.i_grasp + 1], q[:hold.i_grasp + 1], cell)
    assert {ct.pair for ct in plain.contacts} == {("link3", "part")}
    assert plain.contacts[-1].t_end == pytest.approx(hold.t_grasp)
