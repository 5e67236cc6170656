"""The robot description (as Pinocchio's multibody/): the immutable Robot, its Links, the general
joint model and link transforms, D-H arrays, mimic, locked and gripper joints, visual geometry,
the text of str(robot), the pose a robot opens in (start_pose).

May import: spatial and the engine's base modules (checks, bounds, files).

Robot's method names (robot.fkine, robot.rne, ...) are thin delegates that import the
algorithm rooms by name when called, so the description never imports its algorithms.
"""
