"""Issue 24, item 7: programs are checked continuously (no link point moves more than 2 mm
between checks), contacts go into pre-flight, and ``robogui check`` prints them and exits
1 on contact, 0 when clear, 2 on a bad file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import robogui as rg
from robogui.cli import main
from robogui.engine.collision_detection.robot_geometry import robot_geometry
from robogui.session.planning_scene.cell import Cell, CellObject
from robogui.session.planning_scene.collisions import collision_world
from robogui.session.planning_scene.continuous import check_trajectory
from robogui.session.teach.compile import compile_program
from robogui.session.teach.preflight import preflight
from robogui.session.teach.program_file import load_program

ROOT = Path(__file__).resolve().parents[3]
SIX = ROOT / "tests" / "data" / "collision" / "six_primitives.urdf"
DEMO_CELL = ROOT / "assets" / "cells" / "pick-and-place.cell"
DEMO_PROG = ROOT / "assets" / "cells" / "pick-and-place.prog"

ARM = rg.Robot([rg.Link(a=1.0), rg.Link(a=1.0), rg.Link(a=1.0)], name="planar")
# a 4 mm plate standing across the arm's sweep, 1.5 m to 2.5 m from the base
PLATE = Cell((CellObject("plate", "box", (1.0, 0.004, 1.0), xyz=(2.0, 0.0, 0.0)),),
             floor=False)


def test_a_thin_plate_between_two_samples_is_found_and_where_dense_sampling_finds_it():
    t = np.array([0.0, 1.0])
    q = np.array([[-0.5, 0.0, 0.0], [0.5, 0.0, 0.0]])
    world = collision_world(ARM, PLATE)
    assert not world.check(q).colliding.any()  # the samples themselves are clear
    rep = check_trajectory(ARM, t, q, PLATE)
    assert [c.pair[1] for c in rep.contacts] and {c.pair[1] for c in rep.contacts} == {"plate"}
    assert rep.max_step <= 0.002
    # a dense check, every 0.05 mrad of the sweep (0.15 mm at the tip), brackets the same
    # instants: the continuous check starts within a 2 mm step of the first contact
    s = np.linspace(0.0, 1.0, 20_001)
    dense = world.check(q[0] + s[:, None] * (q[1] - q[0]), distance=False).colliding
    first, last = s[dense][0], s[dense][-1]
    start = min(c.t_start for c in rep.contacts)
    end = max(c.t_end for c in rep.contacts)
    lever = 3.0 + 0.1  # the tip's distance from joint 1 (with its capsule), m
    assert first - 5e-5 <= start <= first + 0.002 / lever + 1e-9
    assert last - 0.002 / lever - 1e-9 <= end <= last + 5e-5


def test_no_point_of_any_piece_moves_more_than_the_step_between_checks():
    robot = rg.load_robot(SIX)
    rng = np.random.default_rng(2)
    q = robot.random_q(3, seed=3)
    t = np.cumsum(rng.uniform(0.2, 0.5, 3))
    rep = check_trajectory(robot, t, q, None)
    # the corners of every piece's bounding cube, moved by the checked states
    geom = robot_geometry(robot)
    F = rg.fkine_all(robot, rep.q)
    worst = 0.0
    for p in geom.pieces:
        corners = p.centre + p.radius * np.array(
            [[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) / np.sqrt(3)
        W = F[:, p.frame, :3, :3] @ corners.T + F[:, p.frame, :3, 3:4]
        worst = max(worst, np.linalg.norm(np.diff(W, axis=0), axis=1).max())
    # the bound holds, and is not wildly conservative
    assert 0.0005 < worst <= 0.002 + 1e-12


def test_preflight_lists_contacts_with_time_pair_and_depth():
    puma = rg.load_robot("puma560")
    cell = rg.load_cell(DEMO_CELL)
    compiled = compile_program(load_program(DEMO_PROG), puma)
    assert not [p for p in preflight(puma, compiled, cell=cell) if p.kind == "collision"]
    # a post in bin B's place: the arm comes down on it
    post = CellObject("post", "cylinder", (0.04, 0.5), xyz=(0.5, -0.3, 0.6))
    problems = [p for p in preflight(puma, compiled, cell=cell.with_object(post))
                if p.kind == "collision"]
    assert problems and all(p.severity == "error" for p in problems)
    first = problems[0]
    assert "hits 'post'" in first.message and "mm deep at t =" in first.message
    assert first.move_index is not None and 0 < first.time < compiled.trajectory.t[-1]
    assert compiled.trajectory.t[first.index] <= first.time


def test_robogui_check_exits_0_when_clear_1_on_contact_2_on_a_bad_file(tmp_path, capsys):
    assert main(["check", str(DEMO_PROG), "--cell", str(DEMO_CELL)]) == 0
    out = capsys.readouterr().out
    assert "clear" in out and "no link point moving more than 2.00 mm" in out
    # the cycle time (issue 25 item 2), the same line the compiler gives
    from robogui.session.teach.compile import compile_program, cycle_time_line

    compiled = compile_program(load_program(DEMO_PROG), rg.load_robot("puma560"))
    assert cycle_time_line(compiled) in out and "cycle time" in out
    cell = rg.load_cell(DEMO_CELL).with_object(
        CellObject("post", "cylinder", (0.04, 0.5), xyz=(0.5, -0.3, 0.6)))
    bad = rg.save_cell(cell, tmp_path / "post.cell")
    assert main(["check", str(DEMO_PROG), "--cell", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "hits 'post'" in out and "1 contact" not in out.splitlines()[0]
    assert main(["check", str(DEMO_PROG), "--cell", str(bad), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["clear"] is False and data["robot"] == "Puma 560"
    assert all(c["pair"][1] == "post" and c["depth_m"] > 0 for c in data["contacts"])
    assert data["max_step_m"] <= 0.002
    assert data["cycle_time_s"] == pytest.approx(compiled.cycle_time)
    broken = tmp_path / "broken.cell"
    broken.write_text('format = "robogui-cell"\n[[object]]\nname = "x"\nshape = "cone"\n')
    assert main(["check", str(DEMO_PROG), "--cell", str(broken)]) == 2
    err = capsys.readouterr().err
    assert str(broken) in err and "field 'shape'" in err


@pytest.mark.parametrize("step", [0.0, -1.0, float("nan")])
def test_a_bad_step_is_refused(step):
    with pytest.raises(ValueError, match="step must be a positive length"):
        check_trajectory(ARM, [0, 1], np.zeros((2, 3)), step=step)
