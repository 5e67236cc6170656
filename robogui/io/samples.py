"""The sample teach program and trajectory that ship with robogui (``robogui --demo``).

Installed (wheel or editable) they are in the data package ``robogui._assets``; in a plain
source checkout, in the ``assets/`` directory next to the ``robogui`` package.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["samples_path", "DEMO_PROGRAM", "DEMO_TRAJECTORY", "DEMO_ROBOT", "demo_files",
           "DEMO_CELL", "DEMO_CELL_PROGRAM", "demo_cell_files"]

#: the demo: a pick-and-place program taught on the Puma 560, and a trajectory for it
DEMO_ROBOT = "puma560"
DEMO_PROGRAM = "pick-and-place.prog"
DEMO_TRAJECTORY = "puma560-demo.csv"
#: the work cell demo (``robogui --demo``): table, two bins, a part, and the program that
#: takes the part from one bin to the other
DEMO_CELL = "cells/pick-and-place.cell"
DEMO_CELL_PROGRAM = "cells/pick-and-place.prog"


def samples_path() -> Path:
    """The folder holding the samples (and the README's pictures)."""
    try:
        from importlib.resources import files

        folder = files("robogui._assets")
        if isinstance(folder, Path) and (folder / DEMO_PROGRAM).is_file():
            return folder
        for entry in folder.iterdir():
            if isinstance(entry, Path) and entry.name == DEMO_PROGRAM:
                return entry.parent
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, TypeError):
        pass
    return Path(__file__).resolve().parents[2] / "assets"


def demo_files() -> tuple[Path, Path]:
    """(program, trajectory) of the demo; FileNotFoundError when the install lacks them."""
    folder = samples_path()
    program, trajectory = folder / DEMO_PROGRAM, folder / DEMO_TRAJECTORY
    for p in (program, trajectory):
        if not p.is_file():
            raise FileNotFoundError(f"the sample {p.name} is not in {folder}")
    return program, trajectory


def demo_cell_files() -> tuple[Path, Path]:
    """(cell, program) of the work cell demo; FileNotFoundError when the install lacks them."""
    folder = samples_path()
    cell, program = folder / DEMO_CELL, folder / DEMO_CELL_PROGRAM
    for p in (cell, program):
        if not p.is_file():
            raise FileNotFoundError(f"the sample {p.name} is not in {p.parent}")
    return cell, program
