"""The robot description (as Pinocchio's multibody/): the immutable Robot, its Links, the general
joint model, D-H arrays, mimic and locked joints, visual geometry, the text of str(robot).

May import: spatial and the engine's base modules. Robot's and Link's thin method delegates
(robot.fkine, link.A) call kinematics lazily, the one way back up.
"""
