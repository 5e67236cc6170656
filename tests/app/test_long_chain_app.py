"""A 200-link robot opens in the app (issue 17): the engine runs it on the recursive
algorithms, the joint panel, pose readout and 3D view show it."""

import numpy as np

from robogui.engine.kinematics.kinematics import fkine


def _chain_file(path, n=200, seed=200):
    rng = np.random.default_rng(seed)
    lines = ['format = "robogui-robot 1"', f'name = "Random {n}-link chain"',
             'source = "random test chain"', 'convention = "standard"', 'units = "deg"',
             'length_units = "m"', "gravity = [0.0, 0.0, -9.81]", ""]
    for _ in range(n):
        lines += ["[[links]]", 'joint = "R"', f"d = {rng.uniform(0, 0.05):.4f}",
                  f"a = {rng.uniform(0.02, 0.06):.4f}", f"alpha = {rng.uniform(-30, 30):.2f}",
                  "qlim = [-180, 180]", f"m = {rng.uniform(0.1, 0.5):.3f}", "r = [-0.01, 0, 0]",
                  "I = [0.001, 0.001, 0.001, 0, 0, 0]", ""]
    path.write_text("\n".join(lines))
    return path


def test_a_200_link_robot_opens_and_shows(window, session, errors, tmp_path, qtbot):
    path = _chain_file(tmp_path / "chain200.toml")
    assert window.open_robot(path), errors
    assert errors == []
    robot = session.robot
    # the joint rows: the first ones at once, the rest while the event loop runs
    panel = window.joint_panel
    assert robot.n == 200 and 0 < len(panel.rows) < 200
    qtbot.waitUntil(lambda: panel.complete, timeout=20000)
    assert [row.j for row in panel.rows] == list(range(200))
    assert [row.property("selected") for row in panel.rows] == ["true"] + ["false"] * 199
    # the session's derived state comes from the recursive algorithms
    frames = session.frames
    assert frames.shape == (201, 4, 4)
    np.testing.assert_allclose(frames[-1], fkine(robot, session.q), atol=1e-12)
    assert np.all(np.isfinite(session.jacobian))
    qtbot.wait(50)
    image = window.view.grab_array()
    assert image.std() > 5  # the view drew something, not a blank frame


def test_opening_a_200_link_robot_makes_no_plot_curves_until_shown(window, session, errors,
                                                                   tmp_path, qtbot):
    # 1,000 torque curves and 600 joint-state curves were made up front: seconds of
    # pyqtgraph set-up while the app froze. Curves are now made when first shown.
    from robogui.engine.trajectory.trajectory import Trajectory

    docks = window.ensure_plots()
    assert window.open_robot(_chain_file(tmp_path / "chain200.toml")), errors
    torque, state = docks.torque, docks.joint_state
    assert torque.curve_names == [] and not state.has_curves
    assert len(torque.legend.items) == 0 and len(state.legend.items) == 0
    # one joint and the total only, chosen in the panel's "Show" box before a trajectory
    torque.joint_combo.setCurrentIndex(4)  # J4
    robot = session.robot
    t = np.linspace(0.0, 0.5, 26)
    session.set_trajectory(Trajectory(t, np.outer(np.sin(t), np.full(robot.n, 0.2))))
    session.finish_change()
    qtbot.waitUntil(lambda: docks.runner.analysis is not None
                    and docks.runner.analysis.n_samples == len(t), timeout=20000)
    qtbot.wait(20)
    assert torque.curve_names == [torque.curve_name("total", 3)]
    assert set(torque.plotted_data()) == {torque.curve_name("total", 3)}
    x, y = torque.plotted_data()[torque.curve_name("total", 3)]
    np.testing.assert_allclose(y, docks.runner.analysis.tau[:, 3], rtol=1e-12)
    # another part of that joint: only its curve is added
    torque.boxes["gravity"].click()
    assert sorted(torque.curve_names) == sorted(
        [torque.curve_name("total", 3), torque.curve_name("gravity", 3)])
    assert state.has_curves  # the joint-state panel now has a trajectory to show
    assert errors == []


def test_a_robot_opened_while_long_chain_rows_are_still_coming_gets_only_its_own(
        window, session, errors, tmp_path, qtbot):
    assert window.open_robot(_chain_file(tmp_path / "chain200.toml")), errors
    assert not window.joint_panel.complete
    assert window.open_robot("puma560"), errors
    qtbot.wait(200)  # the long chain's pending chunks run and must add nothing
    rows = window.joint_panel.rows
    assert [row.j for row in rows] == list(range(6)) and window.joint_panel.complete
    assert all(row.parent() is not None for row in rows)
