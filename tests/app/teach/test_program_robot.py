"""Issue 14, reproduction: load assets/pick-and-place.prog, Check, then pick the UR5. The
timeline must not play the Puma's joint angles on the UR5, the Program dock says the
program was taught on the Puma, and Check warns (and refuses another joint count)."""

from __future__ import annotations

from pathlib import Path

ASSETS = Path(__file__).resolve().parents[3] / "assets"


def pick(window, name: str) -> None:
    """Choose a library robot in the toolbar's picker, as a person does."""
    i = window.picker.names.index(name)
    window.picker.setCurrentIndex(i)
    window.picker.activated.emit(i)


def test_switching_robots_clears_the_trajectory_and_flags_the_program(window, session):
    window.tasks.actions["teach"].trigger()  # the Program dock is in the Teach task
    window.teach.docks["program"].raise_()
    panel = window.teach.program
    assert panel.load_from(ASSETS / "pick-and-place.prog")
    assert panel.robot_label.isHidden()  # taught on this Puma
    assert panel.check() and session.trajectory is not None
    puma_traj = session.trajectory

    pick(window, "ur5")
    assert session.robot.name == "UR5"
    assert session.trajectory is None  # the Puma's angles are not played on the UR5
    assert window.teach.timeline.act_clear.isEnabled() is False
    assert not panel.robot_label.isHidden()  # (the dock itself may be on another task)
    assert "taught on 'puma560', not on 'UR5'" in panel.robot_label.text()

    assert panel.check()  # same joint count: compiled, with a warning
    warnings = [p for p in window.teach.state.problems if p.kind == "robot"]
    assert len(warnings) == 1 and warnings[0].severity == "warning"
    assert session.trajectory is not None and session.trajectory is not puma_traj

    pick(window, "twolink")  # two joints: Check refuses
    assert "6 joints but 'Two-link planar' has 2" in panel.robot_label.text()
    assert not panel.check()
    assert "Cannot compile" in panel.status_text and session.trajectory is None

    pick(window, "puma560")
    assert panel.robot_label.isHidden()
