"""The Qt-free session: evented fields, batching, drag vs release, cached derived quantities."""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

import numpy as np
import pytest

from robogui.engine.kinematics import kinematics
from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.session import DisplayOptions, EventedModel, Field, Session
from robogui.session.explain.armconfig import arm_config, describe_config, is_puma_like
from robogui.session.observable import Events, values_equal

PI2 = math.pi / 2


def puma_links(d1=0.0, dynamics=False):
    """Puma 560 kinematics (Corke's standard D-H values), built here from Links for the tests."""
    deg = math.radians
    kw = [{} for _ in range(6)]
    if dynamics:
        masses = [0, 17.4, 4.8, 0.82, 0.34, 0.09]
        for k, m in zip(kw, masses, strict=True):
            k.update(m=m, r=[0, 0, 0.01], I=[0.01, 0.01, 0.01, 0, 0, 0])
    rows = [
        dict(d=d1, a=0, alpha=PI2, qlim=(deg(-160), deg(160))),
        dict(d=0, a=0.4318, alpha=0, qlim=(deg(-45), deg(225))),
        dict(d=0.15005, a=0.0203, alpha=-PI2, qlim=(deg(-225), deg(45))),
        dict(d=0.4318, a=0, alpha=PI2, qlim=(deg(-110), deg(170))),
        dict(d=0, a=0, alpha=-PI2, qlim=(deg(-100), deg(100))),
        dict(d=0, a=0, alpha=0, qlim=(deg(-266), deg(266))),
    ]
    return [Link(**r, **k) for r, k in zip(rows, kw, strict=True)]


@pytest.fixture
def puma():
    return Robot(puma_links(), name="test puma",
                 poses={"qz": np.zeros(6), "qr": [0, PI2, -PI2, 0, 0, 0]})


@pytest.fixture
def twolink():
    return Robot([Link(a=1, qlim=(-2, 2)), Link(a=1, qlim=(-2.5, 2.5))], name="two")


def recorder(session):
    """Connect to every session event; returns the list of (event, value) in firing order."""
    log = []
    for sig in session.events:
        sig.connect(lambda v, name=sig.name: log.append((name, v)))
    return log


# -- observable -----------------------------------------------------------------------
class Opts(EventedModel):
    size = Field(1.0, coerce=float)
    mode = Field("a", choices=("a", "b"))
    vec = Field(np.zeros(3))


def test_field_fires_only_on_real_change():
    o, seen = Opts(), []
    o.events.size.connect(seen.append)
    o.size = 1.0
    o.size = 1  # coerced to the same float
    assert seen == []
    o.size = 2.5
    assert seen == [2.5]
    vec_seen = []
    o.events.vec.connect(vec_seen.append)
    o.vec = np.array([0.0, 0.0, 1e-12])  # below the tolerance: no change
    o.vec = np.array([0.0, 0.0, 1e-6])
    assert len(vec_seen) == 1 and vec_seen[0][2] == 1e-6


def test_batch_fires_each_field_once_with_the_last_value():
    o, seen = Opts(), []
    o.events.size.connect(seen.append)
    with o.batch():
        o.size = 2.0
        o.size = 3.0
        with o.batch():
            o.size = 4.0
        assert seen == []
    assert seen == [4.0]
    o.update(size=5.0, mode="b")
    assert seen == [4.0, 5.0] and o.mode == "b"


def test_unknown_names_and_bad_values_fail_loudly():
    o = Opts()
    with pytest.raises(AttributeError, match="no event 'nope'"):
        o.events.nope  # noqa: B018
    with pytest.raises(KeyError, match="no field 'nope'"):
        o.update(nope=1)
    with pytest.raises(ValueError, match="mode must be one of"):
        o.mode = "c"
    with pytest.raises(KeyError, match="known events"):
        Events(["a"])["b"]
    assert o.mode == "a"


def test_disconnect_and_values_equal():
    o, seen = Opts(), []
    o.events.size.connect(seen.append)
    o.events.size.disconnect(seen.append)
    o.events.size.disconnect(seen.append)  # twice is harmless
    o.size = 9.0
    assert seen == []
    assert values_equal(np.ones(2), [1.0, 1.0]) and not values_equal(np.ones(2), np.ones(3))
    assert not values_equal(np.ones(2), "text")


# -- q, frames and the drag cycle -------------------------------------------------------
def test_session_starts_at_qr_and_frames_are_fkine_all(puma):
    s = Session(puma)
    np.testing.assert_allclose(s.q, [0, PI2, -PI2, 0, 0, 0])
    np.testing.assert_allclose(s.frames, kinematics.fkine_all(puma, s.q), atol=1e-15)
    np.testing.assert_allclose(s.T, kinematics.fkine(puma, s.q), atol=1e-15)
    # Puma at qr (d1 = 0): the arm points straight up; the wrist is d4 + a2 above the shoulder
    np.testing.assert_allclose(s.T[:3, 3], [0.0203, -0.15005, 0.8636], atol=1e-12)
    with pytest.raises(ValueError):
        s.q[0] = 1.0  # read-only: change only through set_q


def test_set_q_fires_q_frames_changed_once_and_not_for_equal_values(puma):
    s = Session(puma)
    log = recorder(s)
    s.set_q(s.q)
    assert log == []
    q = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    s.set_q(q)
    assert [e for e, _ in log] == ["q", "frames", "changed"]
    np.testing.assert_allclose(log[1][1], kinematics.fkine_all(puma, q))
    with pytest.raises(ValueError, match=r"q must have shape \(6,\)"):
        s.set_q([1, 2])
    with pytest.raises(ValueError, match="non-finite"):
        s.set_q([np.nan] * 6)
    np.testing.assert_allclose(s.q, q)


def test_drag_is_changing_and_release_fires_changed_once(puma):
    s = Session(puma)
    log = recorder(s)
    for v in (0.1, 0.2, 0.3):
        s.set_joint(0, v, changing=True)
    assert [e for e, _ in log].count("changed") == 0
    assert [e for e, _ in log].count("frames") == 3 and s.is_changing
    s.finish_change()
    s.finish_change()
    assert [e for e, _ in log].count("changed") == 1 and not s.is_changing
    assert s.q[0] == pytest.approx(0.3)
    with pytest.raises(ValueError, match="joint index"):
        s.set_joint(6, 0.0)


def test_batch_computes_frames_once(puma, monkeypatch):
    s = Session(puma)
    calls = []
    real = kinematics.fkine_all
    monkeypatch.setattr(kinematics, "fkine_all", lambda r, q: calls.append(1) or real(r, q))
    log = recorder(s)
    with s.batch():
        for k in range(5):
            s.set_joint(1, 0.1 * k)
    assert [e for e, _ in log] == ["q", "frames", "changed"]
    assert len(calls) == 1
    s.frames, s.T  # noqa: B018 - cached
    assert len(calls) == 1


def test_derived_quantities_are_computed_once_per_change(puma, monkeypatch):
    from robogui.engine.kinematics import jacobians

    s = Session(puma)
    calls = []
    real = jacobians.jacob0
    monkeypatch.setattr(jacobians, "jacob0", lambda r, q: calls.append(1) or real(r, q))
    J1 = s.jacobian
    J2 = s.jacobian
    assert J1 is J2 and len(calls) == 1
    s.set_joint(0, 0.3, changing=True)
    assert len(calls) == 1  # dragging does not compute the Jacobian
    s.finish_change()
    s.jacobian  # noqa: B018
    assert len(calls) == 2
    np.testing.assert_allclose(s.jacobian, real(puma, s.q))


def test_manipulability_and_gravity_match_the_engine(puma):
    from robogui.engine.dynamics.dynamics import gravload
    from robogui.engine.dynamics.manipulability import manipulability

    s = Session(puma, q=[0.1, 0.7, -0.4, 0.2, 0.5, 0.1])
    J = s.jacobian
    assert s.manipulability == pytest.approx(math.sqrt(np.linalg.det(J @ J.T)), rel=1e-9)
    assert s.manipulability == pytest.approx(manipulability(puma, s.q, method="yoshikawa"))
    assert s.gravity_torque is None  # kinematic-only robot
    heavy = Robot(puma_links(dynamics=True), name="heavy")
    s.set_robot(heavy, q=[0.1, 0.7, -0.4, 0.2, 0.5, 0.1])
    np.testing.assert_allclose(s.gravity_torque, gravload(heavy, s.q))
    assert abs(s.gravity_torque[1]) > 1.0  # the shoulder carries the arm
    w = s.manipulability_measures
    assert w["yoshikawa"] == pytest.approx(manipulability(heavy, s.q, method="yoshikawa"))
    assert w["condition"] == pytest.approx(manipulability(heavy, s.q, method="condition"))
    assert w["asada"] == pytest.approx(manipulability(heavy, s.q, method="asada"), rel=1e-9)
    assert s.manipulability_measures is w  # cached until the next change
    s.set_robot(puma)
    assert s.manipulability_measures["asada"] is None  # no dynamics, no Asada


# -- robot, tool, poses ----------------------------------------------------------------------
def test_set_robot_fires_robot_first_and_resets_q(puma, twolink):
    s = Session(puma)
    log = recorder(s)
    s.set_robot(twolink)
    assert [e for e, _ in log] == ["robot", "q", "frames", "changed"]
    assert s.robot is twolink and s.q.shape == (2,)
    np.testing.assert_allclose(s.T[:3, 3], [2, 0, 0])
    with pytest.raises(ValueError, match="robot must be a Robot"):
        s.set_robot("puma")
    with pytest.raises(ValueError, match=r"q must have shape \(6,\)"):
        s.set_robot(puma, q=[0, 0])
    assert s.robot is twolink  # a refused robot leaves the session as it was


def test_set_tool_fires_tool_and_frames_not_robot(puma):
    s = Session(puma)
    log = recorder(s)
    T = np.eye(4)
    T[2, 3] = 0.2
    s.set_tool(T)
    assert [e for e, _ in log] == ["tool", "frames", "changed"]
    np.testing.assert_allclose(s.T, kinematics.fkine(puma, s.q) @ T, atol=1e-15)
    s.set_tool(T)
    assert len(log) == 3
    with pytest.raises(ValueError):
        s.set_tool(np.ones((4, 4)))


def test_named_poses_zero_random_and_limits(puma):
    s = Session(puma)
    s.go_to_pose("qz")
    np.testing.assert_allclose(s.q, 0)
    with pytest.raises(ValueError, match="no pose 'qx'"):
        s.go_to_pose("qx")
    s.randomize(seed=1)
    lim = puma.qlim
    assert np.all(s.q >= lim[:, 0]) and np.all(s.q <= lim[:, 1])
    q = np.zeros(6)
    q[1] = lim[1, 1]  # at the upper limit
    q[2] = lim[2, 0] + 0.02 * (lim[2, 1] - lim[2, 0])  # 2 % from the lower limit
    q[3] = lim[3, 1] + 0.1  # beyond
    s.set_q(q)
    np.testing.assert_array_equal(s.limit_state, [0, 2, 1, 2, 0, 0])
    assert s.limit_margin[2] == pytest.approx(0.02) and s.limit_margin[3] < 0
    p = Robot([Link(joint="P", qlim=(0.1, 0.5))], name="slide")
    s.set_robot(p)
    s.zero()
    np.testing.assert_allclose(s.q, [0.1])  # zero clipped into the travel


def test_display_options_are_evented():
    d = DisplayOptions()
    seen = []
    d.events.angle_unit.connect(seen.append)
    d.angle_unit = "rad"
    assert seen == ["rad"]
    with pytest.raises(ValueError):
        d.projection = "fisheye"
    with pytest.raises(ValueError):
        d.mag = -1


# -- trajectory and playhead -----------------------------------------------------------
def test_trajectory_playhead_interpolates_q(twolink):
    s = Session(twolink)
    traj = SimpleNamespace(t=np.array([0.0, 1.0, 2.0]), q=np.array([[0, 0], [1, -1], [1, 1.0]]))
    log = recorder(s)
    s.set_trajectory(traj)
    assert s.trajectory is traj and s.time_range == (0.0, 2.0)
    s.set_time(0.5)
    np.testing.assert_allclose(s.q, [0.5, -0.5])
    assert s.is_changing
    s.set_time(99.0)
    assert s.time == 2.0
    np.testing.assert_allclose(s.q, [1, 1])
    np.testing.assert_allclose(s.q_at([0.25, 1.5]), [[0.25, -0.25], [1, 0]])
    assert "trajectory" in [e for e, _ in log] and "time" in [e for e, _ in log]
    with pytest.raises(ValueError, match=r"trajectory.q must have shape \(3, 2\)"):
        s.set_trajectory(SimpleNamespace(t=traj.t, q=np.zeros((3, 6))))
    assert s.trajectory is traj


def test_trajectory_path_is_the_tool_path_computed_once_per_trajectory_or_tool(twolink):
    s = Session(twolink)
    assert s.trajectory_path.shape == (0, 3)
    traj = SimpleNamespace(t=np.array([0.0, 1.0, 2.0]), q=np.array([[0, 0], [1, -1], [1, 1.0]]))
    s.set_trajectory(traj)
    p = s.trajectory_path
    # planar two-link arm with unit links: x = c1 + c12, y = s1 + s12
    c, sn = np.cos, np.sin
    x = c(traj.q[:, 0]) + c(traj.q.sum(1))
    y = sn(traj.q[:, 0]) + sn(traj.q.sum(1))
    np.testing.assert_allclose(p, np.stack([x, y, np.zeros(3)], 1), atol=1e-12)
    s.set_time(1.5)  # playback moves q, the path stays the same object
    assert s.trajectory_path is p
    s.set_tool(transl_x(0.5))
    np.testing.assert_allclose(s.trajectory_path[0], [2.5, 0, 0], atol=1e-12)
    s.set_trajectory(None)
    assert s.trajectory_path.shape == (0, 3)


def transl_x(x):
    T = np.eye(4)
    T[0, 3] = x
    return T


# -- arm configuration --------------------------------------------------------------------
def test_arm_config_selects_the_branch_that_r6_ikine560_returns():
    """Oracle: roboticstoolbox-python's Puma560.ikine_a (Paul & Zhang, as r6 ikine560)."""
    import roboticstoolbox as rtb

    ref = rtb.models.DH.Puma560()  # d1 = 0.6718, our frames-based rule must not care
    ours = Robot(puma_links(d1=0.6718), name="puma d1")
    assert is_puma_like(ours)
    rng = np.random.default_rng(7)
    lim = ours.qlim
    qs = lim[:, 0] + (lim[:, 1] - lim[:, 0]) * rng.random((40, 6))
    qs = qs[np.abs(np.sin(qs[:, 4])) > 0.05]  # away from the wrist singularity
    configs = arm_config(kinematics.fkine_all(ours, qs))
    assert len(set(configs)) >= 4  # the sample visits several branches
    for q, config in zip(qs, configs, strict=True):
        sol = ref.ikine_a(ref.fkine(q).A, config=config)
        assert sol.success
        dq = (sol.q - q + np.pi) % (2 * np.pi) - np.pi
        np.testing.assert_allclose(dq, 0, atol=1e-6, err_msg=config)


def test_arm_config_words_and_non_puma(twolink, puma):
    assert describe_config("lun") == "left, elbow up, no flip"
    assert describe_config("rdf") == "right, elbow down, wrist flipped"
    with pytest.raises(ValueError):
        describe_config("xyz")
    assert Session(twolink).arm_config is None
    assert re.fullmatch("[lr][ud][nf]", Session(puma).arm_config)
    with pytest.raises(ValueError, match="frames must have shape"):
        arm_config(np.zeros((3, 4, 4)))


# -- readout (the pose panel's text, Qt-free) ---------------------------------------------
def test_readout_units_and_text(puma):
    from robogui.session.explain import readout

    s = Session(puma, q=[0.3, 0.7, -0.4, 0.5, -0.6, 1.1])
    T = s.T
    np.testing.assert_allclose(readout.position(T, "mm"), T[:3, 3] * 1000)
    np.testing.assert_allclose(readout.orientation(T, "rpy", "rad"),
                               readout.orientation(T, "rpy", "deg") * math.pi / 180)
    quat = readout.orientation(T, "quaternion")
    assert quat.shape == (4,) and quat[0] >= 0 and np.linalg.norm(quat) == pytest.approx(1)
    assert readout.fmt(-1e-9, 3) == "0.000" and readout.fmt(-0.5, 2) == "-0.50"
    text = readout.pose_text(T, config="ruf", manipulability=0.0786, q=s.q,
                             structure=puma.structure)
    assert f"x = {T[0, 3] * 1000:.2f} mm" in text
    assert "configuration: ruf (right, elbow up, wrist flipped)" in text
    assert text.splitlines()[-4:] == readout.matrix_text(T).splitlines()
    with pytest.raises(ValueError, match="length unit"):
        readout.position(T, "inch")
    with pytest.raises(ValueError, match="orientation must be"):
        readout.orientation(T, "axis-angle")


def test_arm_config_round_trips_through_our_ikine560(puma):
    from robogui.engine.kinematics.ikine import ikine560

    rng = np.random.default_rng(11)
    lim = puma.qlim
    qs = lim[:, 0] + (lim[:, 1] - lim[:, 0]) * rng.random((25, 6))
    qs = qs[np.abs(np.sin(qs[:, 4])) > 0.05]
    for q, config in zip(qs, arm_config(kinematics.fkine_all(puma, qs)), strict=True):
        res = ikine560(puma, kinematics.fkine(puma, q), config)
        assert res.success, config
        dq = (np.asarray(res.q) - q + np.pi) % (2 * np.pi) - np.pi
        np.testing.assert_allclose(dq, 0, atol=1e-6, err_msg=config)


def test_manipulability_of_a_planar_arm_uses_the_directions_it_controls():
    # two-link planar arm, unit links: Yoshikawa over (x, y) is |a1 a2 sin q2| (Spong)
    from robogui.io.robotfile import load_robot

    s = Session(load_robot("twolink"))
    s.set_q([0.3, 0.7])
    assert s.manipulability == pytest.approx(abs(np.sin(0.7)), rel=1e-12)


def test_a_listener_connected_first_runs_before_the_earlier_ones():
    from robogui.session.observable import Signal

    calls = []
    signal = Signal("q")
    signal.connect(lambda v: calls.append(("panel", v)))
    signal.connect(lambda v: calls.append(("remote", v)), first=True)
    signal.emit(1)
    assert calls == [("remote", 1), ("panel", 1)]
