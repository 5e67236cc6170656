"""Joint names shortened for the joint panel's narrow label: shared whole words dropped."""

from __future__ import annotations

import pytest

from robogui.session.explain.readout import short_joint_names


@pytest.mark.parametrize(("names", "short"), [
    # example-robot-data's Panda and UR5 URDFs
    ([f"panda_joint{j}" for j in range(1, 8)], [f"joint{j}" for j in range(1, 8)]),
    (["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint",
      "wrist_2_joint", "wrist_3_joint"],
     ["shoulder_pan", "shoulder_lift", "elbow", "wrist_1", "wrist_2", "wrist_3"]),
    # rtb-data's KR5 xacro
    ([f"joint_a{j}" for j in range(1, 7)], [f"a{j}" for j in range(1, 7)]),
    # no shared whole word: nothing cut, not even a shared letter
    (["j1", "j2"], ["j1", "j2"]),
    (["shoulder", "shin"], ["shoulder", "shin"]),
    # a bare number would say less than the q label beside it: the suffix stays
    (["arm_1_joint", "arm_2_joint"], ["1_joint", "2_joint"]),
    # a single joint, or a robot with unnamed joints: unchanged
    (["panda_joint1"], ["panda_joint1"]),
    (["a_x", ""], ["a_x", ""]),
    # names already alike stay alike; nested names keep their last part
    (["x_a", "x_a"], ["a", "a"]),
    (["robot/arm/j1", "robot/arm/j2"], ["j1", "j2"]),
])
def test_shared_words_are_dropped(names, short):
    assert list(short_joint_names(tuple(names))) == short
