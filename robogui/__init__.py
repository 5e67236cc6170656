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
