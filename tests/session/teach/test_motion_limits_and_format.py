"""Motion limits from robot files and the D-H table; program format version 2 round trips
and refuses version 2 fields in a version 1 file; planned via waypoints; torque limits."""

import math

import numpy as np
import pytest

from robogui.engine.kinematics.kinematics import fkine
from robogui.engine.trajectory_processing.limits import (
    acceleration_limits,
    torque_limits,
    velocity_limits,
)
from robogui.io.robotfile import load_robot, robot_from_toml, robot_to_toml
from robogui.session.explain.dh_edit import cell_text, column_index, edit_cell
from robogui.session.teach.compile import compile_program
from robogui.session.teach.program import Move, Program, ProgramError
from robogui.session.teach.program_file import ProgramFileError, dumps_program, loads_program

ARM = """format = "robogui-robot 1"
name = "limits arm"
convention = "standard"
units = "deg"

[[links]]
joint = "R"
d = 0
a = 0.4
alpha = 0
qd_max = 90
qdd_max = 360

[[links]]
joint = "R"
d = 0
a = 0.3
alpha = 0
"""


def test_robot_file_limits_in_its_units_and_defaults():
    r = robot_from_toml(ARM)
    np.testing.assert_allclose(velocity_limits(r), [math.pi / 2, math.pi])  # 90 deg/s; default
    np.testing.assert_allclose(acceleration_limits(r), [2 * math.pi, 5 * math.pi])
    assert torque_limits(r) is None
    back = robot_from_toml(robot_to_toml(r))  # written in SI, read back the same
    assert [L.qd_max for L in back.links] == [pytest.approx(math.pi / 2), None]
    assert back.links[0].qdd_max == pytest.approx(2 * math.pi)
    with pytest.raises(ValueError, match="qd_max"):
        robot_from_toml(ARM.replace("qd_max = 90", "qd_max = -1"))


def test_dh_table_shows_and_edits_the_limits():
    r = robot_from_toml(ARM)
    col = column_index("qd_max")
    assert cell_text(r, 1, col) == "-"  # the default applies
    r2 = edit_cell(r, 1, col, "2.5")
    assert r2.links[1].qd_max == 2.5 and velocity_limits(r2)[1] == 2.5
    r3 = edit_cell(r2, 1, column_index("qdd_max"), "10")
    assert acceleration_limits(r3)[1] == 10.0
    assert edit_cell(r3, 1, col, "-").links[1].qd_max is None
    with pytest.raises(ValueError, match="positive"):
        edit_cell(r, 1, col, "0")


def _program():
    return (Program(name="v2", robot="puma560")
            .add_waypoint([0.0] * 6, "a").add_waypoint([0.3, 0.1, 0, 0, 0, 0], "b")
            .add_waypoint([0.5, 0.0, 0, 0, 0, 0], "c")
            .insert_move(Move("joint", "a"))
            .insert_move(Move("joint", "c", planned=("b",), speed_percent=40.0,
                              accel_percent=60.0, blend_radius=0.025))
            .insert_move(Move("circular", "a", via="b", speed=0.2)))


def test_version_2_round_trip_and_version_1_refuses_its_fields():
    p = _program()
    text = dumps_program(p)
    assert "version = 2" in text and "blend_radius_mm = 25.0" in text
    assert 'via = "b"' in text and 'planned = ["b"]' in text
    back = loads_program(text)
    assert back == p and back.moves[1].blend_radius == 0.025
    old = text.replace("version = 2", "version = 1")
    with pytest.raises(ProgramFileError, match="version 2 field") as err:
        loads_program(old)
    assert err.value.field in ("via", "planned", "speed_percent", "accel_percent")
    with pytest.raises(ProgramFileError, match="not a waypoint"):
        loads_program(text.replace('via = "b"', 'via = "nowhere"'))


def test_renaming_and_deleting_follow_via_and_planned():
    p = _program().rename_waypoint("b", "middle")
    assert p.moves[1].planned == ("middle",) and p.moves[2].via == "middle"
    with pytest.raises(ProgramError, match="used by moves 2, 3"):
        p.delete_waypoint("middle")
    with pytest.raises(ProgramError, match="needs a via"):
        Move("circular", "a")
    with pytest.raises(ProgramError, match=r"\(0, 100\]"):
        Move("joint", "a", speed_percent=150)


def test_set_planned_path_is_one_edit_with_named_waypoints():
    p = _program()
    q1, q2 = [0.1, 0.2, 0, 0, 0, 0], [0.2, 0.3, 0, 0, 0, 0]
    p2 = p.set_planned_path(1, [q1, q2])
    assert p2.moves[1].planned == ("c~1", "c~2")
    np.testing.assert_array_equal(p2.waypoint("c~2").q, q2)
    assert loads_program(dumps_program(p2)) == p2
    with pytest.raises(ProgramError, match="only joint moves"):
        p.set_planned_path(2, [q1])


def test_planned_waypoints_are_passed_through():
    puma = load_robot("puma560")
    qn = puma.pose("qn")
    p = (Program().add_waypoint(qn, "a").add_waypoint(qn + [0.4, 0.2, 0, 0, 0, 0], "b")
         .add_waypoint(qn + [0.8, 0.0, 0, 0, 0, 0], "c").insert_move(Move("joint", "a"))
         .insert_move(Move("joint", "c", planned=("b",))))
    c = compile_program(p, puma, dt=0.002)
    d = np.abs(c.trajectory.q - p.waypoint("b").q).max(axis=1)
    assert d.min() < 2e-3  # passes through the planned waypoint (to the 2 ms sampling)
    np.testing.assert_array_equal(c.trajectory.q[-1], p.waypoint("c").q)


def test_torque_limits_bind_when_asked():
    from robogui.engine.dynamics.dynamics import rne

    puma = load_robot("puma560")
    qn = puma.pose("qn")
    p = Program().record(qn).record(qn + [0.0, -1.0, 0.8, 0.0, 0.0, 0.0])
    free = compile_program(p, puma, dt=0.005)
    tau_free = np.abs(rne(puma, free.trajectory.q, free.trajectory.qd, free.trajectory.qdd))
    limit = np.maximum(0.8 * tau_free.max(axis=0), 1.0)
    # a limit every joint can hold at rest (gravity) but below the free motion's peaks
    static = np.abs(rne(puma, free.trajectory.q, 0 * free.trajectory.q, 0 * free.trajectory.q))
    limit = np.maximum(limit, 1.2 * static.max(axis=0))
    limited = puma.with_links([L.replace(tau_max=float(t)) for L, t in
                               zip(puma.links, limit, strict=True)])
    c = compile_program(p, limited, dt=0.005, torque_limits=True)
    assert c.cycle_time > free.cycle_time
    tau = np.abs(rne(limited, c.trajectory.q, c.trajectory.qd, c.trajectory.qdd))
    assert np.all(tau <= limit * 1.005)
    assert "torque" in c.active_limits[1]
    # without the option the same limited robot is timed by speed and acceleration only
    assert compile_program(p, limited, dt=0.005).cycle_time == pytest.approx(free.cycle_time)
    assert fkine(puma, c.trajectory.q[-1]) is not None
