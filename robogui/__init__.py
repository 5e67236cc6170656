"""robogui: a robot-arm visualiser and teach pendant.

The engine (``robogui.engine``) is plain numpy; importing this package loads no Qt.
Common names are re-exported here lazily so ``import robogui`` stays cheap.
"""

from importlib import import_module

__version__ = "0.1.0"

# name -> module that defines it; resolved on first access
_EXPORTS = {
    "Link": "robogui.engine.link",
    "Robot": "robogui.engine.robot",
    "fkine": "robogui.engine.kinematics",
    "fkine_all": "robogui.engine.kinematics",
    "joint_locations": "robogui.engine.kinematics",
    "link_transform": "robogui.engine.kinematics",
    "rotx": "robogui.engine.transforms",
    "roty": "robogui.engine.transforms",
    "rotz": "robogui.engine.transforms",
    "trotx": "robogui.engine.transforms",
    "troty": "robogui.engine.transforms",
    "trotz": "robogui.engine.transforms",
    "transl": "robogui.engine.transforms",
    "rpy2r": "robogui.engine.transforms",
    "rpy2tr": "robogui.engine.transforms",
    "tr2rpy": "robogui.engine.transforms",
    "eul2r": "robogui.engine.transforms",
    "eul2tr": "robogui.engine.transforms",
    "tr2eul": "robogui.engine.transforms",
    "angvec2r": "robogui.engine.transforms",
    "angvec2tr": "robogui.engine.transforms",
    "tr2angvec": "robogui.engine.transforms",
    "oa2r": "robogui.engine.transforms",
    "oa2tr": "robogui.engine.transforms",
    "trnorm": "robogui.engine.transforms",
    "trinv": "robogui.engine.transforms",
    "tr2delta": "robogui.engine.transforms",
    "delta2tr": "robogui.engine.transforms",
    "tr2jac": "robogui.engine.transforms",
    "wrench_transform": "robogui.engine.transforms",
    "skew": "robogui.engine.transforms",
    "vex": "robogui.engine.transforms",
    "isrot": "robogui.engine.transforms",
    "ishom": "robogui.engine.transforms",
    "trinterp": "robogui.engine.transforms",
    "UnitQuaternion": "robogui.engine.quaternion",
    "Trajectory": "robogui.engine.trajectory",
    "TrajectoryFileError": "robogui.engine.trajectory",
    "jtraj": "robogui.engine.trajectory",
    "lspb": "robogui.engine.trajectory",
    "trapezoidal": "robogui.engine.trajectory",
    "mstraj": "robogui.engine.trajectory",
    "ctraj": "robogui.engine.trajectory",
    "qinterp": "robogui.engine.trajectory",
    "jacob0": "robogui.engine.jacobians",
    "jacobe": "robogui.engine.jacobians",
    "jacobn": "robogui.engine.jacobians",
    "jacob_dot": "robogui.engine.jacobians",
    "dTdqi": "robogui.engine.jacobians",
    "jacobian_dls_inv": "robogui.engine.jacobians",
    "ikine": "robogui.engine.ikine",
    "ikine560": "robogui.engine.ikine",
    "ikine560_all": "robogui.engine.ikine",
    "IKResult": "robogui.engine.ikine",
    "manipulability": "robogui.engine.manipulability",
    "vellipse": "robogui.engine.manipulability",
    "fellipse": "robogui.engine.manipulability",
    "rne": "robogui.engine.dynamics",
    "inertia": "robogui.engine.dynamics",
    "coriolis": "robogui.engine.dynamics",
    "coriolis_torque": "robogui.engine.dynamics",
    "gravload": "robogui.engine.dynamics",
    "itorque": "robogui.engine.dynamics",
    "friction": "robogui.engine.dynamics",
    "torque_components": "robogui.engine.dynamics",
    "cinertia": "robogui.engine.dynamics",
    "kinetic_energy": "robogui.engine.dynamics",
    "potential_energy": "robogui.engine.dynamics",
    "torque_novelocity": "robogui.engine.dynamics_linear",
    "delta_torque": "robogui.engine.dynamics_linear",
    "dq_torque": "robogui.engine.dynamics_linear",
    "dqp_torque": "robogui.engine.dynamics_linear",
    "dtau_dq": "robogui.engine.dynamics_linear",
    "dtau_dqp": "robogui.engine.dynamics_linear",
    "accel": "robogui.engine.fdyn",
    "fdyn": "robogui.engine.fdyn",
    "load_robot": "robogui.io.robotfile",
    "save_robot": "robogui.io.robotfile",
    "list_robots": "robogui.io.robotfile",
    "RobotFileError": "robogui.io.robotfile",
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
