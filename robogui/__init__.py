"""robogui: a robot-arm visualiser and teach pendant.

The engine (``robogui.engine``) is plain numpy; importing this package loads no Qt.
Common names are re-exported here lazily so ``import robogui`` stays cheap.
"""

from importlib import import_module

__version__ = "0.1.0"

# name -> module that defines it; resolved on first access
_EXPORTS = {
    "Link": "robogui.engine.model.link",
    "Robot": "robogui.engine.model.robot",
    "fkine": "robogui.engine.kinematics.kinematics",
    "fkine_all": "robogui.engine.kinematics.kinematics",
    "joint_locations": "robogui.engine.kinematics.kinematics",
    "link_transform": "robogui.engine.kinematics.kinematics",
    "rotx": "robogui.engine.spatial.transforms",
    "roty": "robogui.engine.spatial.transforms",
    "rotz": "robogui.engine.spatial.transforms",
    "trotx": "robogui.engine.spatial.transforms",
    "troty": "robogui.engine.spatial.transforms",
    "trotz": "robogui.engine.spatial.transforms",
    "transl": "robogui.engine.spatial.transforms",
    "rpy2r": "robogui.engine.spatial.transforms",
    "rpy2tr": "robogui.engine.spatial.transforms",
    "tr2rpy": "robogui.engine.spatial.transforms",
    "eul2r": "robogui.engine.spatial.transforms",
    "eul2tr": "robogui.engine.spatial.transforms",
    "tr2eul": "robogui.engine.spatial.transforms",
    "angvec2r": "robogui.engine.spatial.transforms",
    "angvec2tr": "robogui.engine.spatial.transforms",
    "tr2angvec": "robogui.engine.spatial.transforms",
    "oa2r": "robogui.engine.spatial.transforms",
    "oa2tr": "robogui.engine.spatial.transforms",
    "trnorm": "robogui.engine.spatial.transforms",
    "trinv": "robogui.engine.spatial.transforms",
    "tr2delta": "robogui.engine.spatial.transforms",
    "delta2tr": "robogui.engine.spatial.transforms",
    "tr2jac": "robogui.engine.spatial.transforms",
    "wrench_transform": "robogui.engine.spatial.transforms",
    "skew": "robogui.engine.spatial.transforms",
    "vex": "robogui.engine.spatial.transforms",
    "isrot": "robogui.engine.spatial.transforms",
    "ishom": "robogui.engine.spatial.transforms",
    "trinterp": "robogui.engine.spatial.transforms",
    "UnitQuaternion": "robogui.engine.spatial.quaternion",
    "Trajectory": "robogui.engine.trajectory.trajectory",
    "TrajectoryFileError": "robogui.engine.trajectory.trajectory",
    "jtraj": "robogui.engine.trajectory.trajectory",
    "lspb": "robogui.engine.trajectory.trajectory",
    "trapezoidal": "robogui.engine.trajectory.trajectory",
    "mstraj": "robogui.engine.trajectory.trajectory",
    "ctraj": "robogui.engine.trajectory.trajectory",
    "qinterp": "robogui.engine.trajectory.trajectory",
    "jacob0": "robogui.engine.kinematics.jacobians",
    "jacobe": "robogui.engine.kinematics.jacobians",
    "jacobn": "robogui.engine.kinematics.jacobians",
    "jacob_dot": "robogui.engine.kinematics.jacobians",
    "dTdqi": "robogui.engine.kinematics.jacobians",
    "jacobian_dls_inv": "robogui.engine.kinematics.jacobians",
    "ikine": "robogui.engine.kinematics.ikine",
    "ikine560": "robogui.engine.kinematics.ikine",
    "ikine560_all": "robogui.engine.kinematics.ikine",
    "ikine_analytic_all": "robogui.engine.kinematics.ikine_branches",
    "analytic_config": "robogui.engine.kinematics.ikine_branches",
    "arm_family": "robogui.engine.kinematics.arm_family",
    "IKResult": "robogui.engine.kinematics.ikine",
    "manipulability": "robogui.engine.dynamics.manipulability",
    "vellipse": "robogui.engine.dynamics.manipulability",
    "fellipse": "robogui.engine.dynamics.manipulability",
    "rne": "robogui.engine.dynamics.dynamics",
    "inertia": "robogui.engine.dynamics.dynamics",
    "coriolis": "robogui.engine.dynamics.dynamics",
    "coriolis_torque": "robogui.engine.dynamics.dynamics",
    "gravload": "robogui.engine.dynamics.dynamics",
    "itorque": "robogui.engine.dynamics.dynamics",
    "friction": "robogui.engine.dynamics.dynamics",
    "torque_components": "robogui.engine.dynamics.dynamics",
    "cinertia": "robogui.engine.dynamics.dynamics",
    "kinetic_energy": "robogui.engine.dynamics.dynamics",
    "potential_energy": "robogui.engine.dynamics.dynamics",
    "torque_novelocity": "robogui.engine.dynamics.dynamics_linear",
    "delta_torque": "robogui.engine.dynamics.dynamics_linear",
    "dq_torque": "robogui.engine.dynamics.dynamics_linear",
    "dqp_torque": "robogui.engine.dynamics.dynamics_linear",
    "dtau_dq": "robogui.engine.dynamics.dynamics_linear",
    "dtau_dqp": "robogui.engine.dynamics.dynamics_linear",
    "accel": "robogui.engine.dynamics.fdyn",
    "fdyn": "robogui.engine.dynamics.fdyn",
    "load_robot": "robogui.io.robotfile",
    "save_robot": "robogui.io.robotfile",
    "list_robots": "robogui.io.robotfile",
    "RobotFileError": "robogui.io.robotfile",
    "Cell": "robogui.session.planning_scene.cell",
    "CellObject": "robogui.session.planning_scene.cell",
    "load_cell": "robogui.session.planning_scene.cell_file",
    "save_cell": "robogui.session.planning_scene.cell_file",
    "CellFileError": "robogui.session.planning_scene.cell_file",
    "check_collisions": "robogui.session.planning_scene.collisions",
    "CollisionReport": "robogui.engine.collision_detection.checker",
    "plan_path": "robogui.session.motion_planning.planner",
    "PlanningError": "robogui.session.motion_planning.planner",
    "NoPathFound": "robogui.session.motion_planning.planner",
    "Viewer": "robogui.viewer",
}


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'robogui' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(list(globals()) + list(_EXPORTS))


__all__ = ["__version__", *_EXPORTS]
