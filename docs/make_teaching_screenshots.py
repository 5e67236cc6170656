"""Regenerate the teaching screenshots of the README (run under an X server):

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python docs/make_teaching_screenshots.py

assets/screenshot-dh-editor.png: the D-H editor docked under the 3D view with every
link's frame and D-H parameters drawn on the Puma 560, link 2 selected (highlighted);
assets/screenshot-workspace.png: 100,000 sampled tool positions coloured by
manipulability (yellow high, dark blue low), cut by the section plane x = 0.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PySide6 import QtCore

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs"))

from make_screenshots import ASSETS, pump, window  # noqa: E402


def main() -> None:
    from robogui.app.shell.main_window import create_app

    app = create_app()
    win = window(app, "puma560", size=(1600, 1000))
    t = win.teaching
    win.session.set_q(np.radians([30, -35, 25, 20, 40, -30]))
    win.dh_dock.show()
    win.dh_dock.raise_()
    t.frame_actions["all"].trigger()
    win.dh_table.table.setCurrentIndex(win.dh_table.model.index(1, 4))
    pump(app, 200)
    # tall enough for all six rows
    win.resizeDocks([win.dh_dock], [330], QtCore.Qt.Orientation.Vertical)
    win.dh_table.table.scrollToTop()
    win.set_view("iso")
    pump(app, 800)
    win.save_screenshot(ASSETS / "screenshot-dh-editor.png")
    print("saved", ASSETS / "screenshot-dh-editor.png")

    t.frame_actions["off"].trigger()
    win.dh_dock.hide()
    if win.plot_docks is not None:
        for dock in win.plot_docks.docks.values():
            dock.hide()
    t.workspace_dock.show()
    t.workspace_dock.raise_()
    panel = t.workspace
    panel.start()
    panel.wait()
    pump(app, 300)
    panel.section_box.setChecked(True)  # a slab through the shoulder, seen face on
    panel.axis.setCurrentIndex(0)
    panel.offset.setValue(500)
    win.set_view("front")
    pump(app, 800)
    win.save_screenshot(ASSETS / "screenshot-workspace.png")
    print("saved", ASSETS / "screenshot-workspace.png")
    win.close()


if __name__ == "__main__":
    main()
