"""Plan around the cell: a joint move of the program whose path collides gets a collision-free
path from OMPL (:func:`robogui.session.motion_planning.program_moves.plan_move`), shown as a
ghost before it is kept.

The Program dock gets a row: **Plan around the cell** (also in the move list's context menu
and File > Teach program). It plans the selected joint move in a worker thread (the window
stays live; a bar shows the time budget running down, Cancel stops it). A plan found is shown
in the 3D view: the tool's path along it as a line and a ghost robot at every via waypoint;
**Accept** inserts the via waypoints and sets the move's ``planned`` list as one undo step,
**Discard** leaves the program as it was. Nothing found within the budget is said in words.
After a pre-flight check that found a joint move colliding, the row says which one.

The worker touches no Qt object; the GUI polls it (like the trail of a long trajectory).
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pyqtgraph.opengl as gl
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.motion.polyline import tool_path
from robogui.session.motion_planning.planner import PlanningCancelled, PlanningError
from robogui.session.motion_planning.program_moves import plan_move
from robogui.session.teach.program import ProgramError
from robogui.session.teach.teach import Ghost

from .. import style, undo
from ..bindings import Subscriptions
from .ghosts import GHOST_COLORS

__all__ = ["MovePlanner", "PLAN_TIMEOUT"]

#: the planner's time budget in the app (s); the simplifier may add up to 2 s
PLAN_TIMEOUT = 4.0
_STEP_RAD = 0.01  # the preview line's joint step
_EDIT_NAME = "Plan around the cell"


def _dense(q: np.ndarray) -> np.ndarray:
    """The straight joint segments of ``q`` (k, n) sampled every ``_STEP_RAD`` at most."""
    out = [q[:1]]
    for a, b in zip(q[:-1], q[1:], strict=True):
        k = max(1, int(np.ceil(np.abs(b - a).max() / _STEP_RAD)))
        out.append(a + np.linspace(0.0, 1.0, k + 1)[1:, None] * (b - a))
    return np.vstack(out)


class MovePlanner(QtCore.QObject):
    """The Program dock's "Plan around the cell" row and its preview in ``view``.

    ``timeout`` s is the planner's budget, ``seed`` fixes OMPL's random numbers (tests).
    ``state`` (``"idle"``, ``"planning"``, ``"preview"``), ``result`` (the
    :class:`~robogui.session.motion_planning.program_moves.MovePlan` shown) and
    ``message`` tell scripts and tests where it is.
    """

    done = QtCore.Signal()  # planning finished: a preview, a message, or cancelled

    def __init__(self, session, teach_state, panel, view=None, *,
                 timeout: float = PLAN_TIMEOUT, seed: int | None = None):
        super().__init__(panel)
        self.session, self.teach, self.panel, self.view = session, teach_state, panel, view
        self.timeout, self.seed = timeout, seed
        self.state = "idle"
        self.result = None
        self.accepted = None  # the last plan accepted
        self._job: dict | None = None
        self._planned_from = None  # the program the plan or preview belongs to
        self.line: gl.GLLinePlotItem | None = None

        self.action = QtGui.QAction("Plan around the cell\u2026", panel)
        tip = ("Find a collision-free path for the selected joint move (OMPL RRT-Connect) and "
               "show it before it is inserted as via waypoints")
        self.action.setToolTip(tip)
        self.action.setStatusTip(tip)
        self.action.triggered.connect(self.start)

        self.row = QtWidgets.QFrame(panel)
        self.row.setObjectName("planAroundCell")
        grid = QtWidgets.QGridLayout(self.row)
        grid.setContentsMargins(0, 0, 0, 0)
        self.plan_button = QtWidgets.QPushButton("Plan around the cell")
        self.plan_button.setToolTip(tip)
        self.plan_button.clicked.connect(self.start)
        self.progress = QtWidgets.QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.accept_button = QtWidgets.QPushButton("Accept")
        self.accept_button.setToolTip("Insert the via waypoints into the program (one undo step)")
        self.accept_button.clicked.connect(self.accept)
        self.cancel_button = QtWidgets.QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop planning, or drop the plan shown; the program stays "
                                      "as it was")
        self.cancel_button.clicked.connect(self.cancel)
        self.label = QtWidgets.QLabel()
        self.label.setWordWrap(True)
        grid.addWidget(self.plan_button, 0, 0)
        grid.addWidget(self.progress, 0, 1)
        grid.addWidget(self.accept_button, 0, 2)
        grid.addWidget(self.cancel_button, 0, 3)
        grid.addWidget(self.label, 1, 0, 1, 4)
        grid.setColumnStretch(1, 1)
        layout = panel.layout()
        layout.insertWidget(max(0, layout.indexOf(panel.status)), self.row)
        panel.move_list.addAction(self.action)
        panel.move_list.setContextMenuPolicy(QtCore.Qt.ContextMenuPolicy.ActionsContextMenu)

        self._poll = QtCore.QTimer(self)
        self._poll.setInterval(30)
        self._poll.timeout.connect(self._collect)
        self._subs = Subscriptions(panel)
        self._subs.connect(teach_state.events.program, lambda _p: self._program_changed())
        self._subs.connect(teach_state.events.problems, lambda p: self._problems(p))
        self._subs.connect(session.events.robot, lambda _r: self.cancel())
        panel.move_list.currentRowChanged.connect(lambda _r: self._enable())
        if view is not None:
            view.robotRebuilt.connect(self._show_line)
        panel.destroyed.connect(lambda *_: self._stop_worker())
        self._show()

    # -- what is shown ---------------------------------------------------------------------
    @property
    def message(self) -> str:
        return self.label.text()

    def _say(self, text: str, ok: bool = True) -> None:
        self.label.setStyleSheet(f"color: {'#9fb0c3' if ok else style.NEAR_LIMIT_COLOR};")
        self.label.setText(text)

    def _show(self) -> None:
        planning, preview = self.state == "planning", self.state == "preview"
        self.progress.setVisible(planning)
        self.accept_button.setVisible(preview)
        self.cancel_button.setVisible(planning or preview)
        self.plan_button.setVisible(not planning and not preview)
        self.label.setVisible(bool(self.label.text()))
        self._enable()

    def _selected_joint_move(self) -> int | None:
        i = self.panel.selected_move()
        if i is None or self.teach.program.moves[i].kind != "joint":
            return None
        return i

    def _enable(self) -> None:
        ok = self.state == "idle" and self._selected_joint_move() is not None
        self.plan_button.setEnabled(ok)
        self.action.setEnabled(ok)

    def _problems(self, problems) -> None:
        if self.state != "idle":
            return
        moves = self.teach.program.moves
        hits = sorted({p.move_index for p in problems if p.kind == "collision"
                       and p.move_index is not None and p.move_index < len(moves)
                       and moves[p.move_index].kind == "joint"})
        if hits:
            said = ", ".join(str(i + 1) for i in hits)
            verb = "collide: select one" if len(hits) > 1 else "collides: select it"
            self._say(f"Joint move{'s' if len(hits) > 1 else ''} {said} {verb} and plan "
                      "around the cell.", ok=False)
            self.label.show()

    # -- planning --------------------------------------------------------------------------
    def start(self) -> bool:
        """Plan the selected joint move in a worker thread; False when there is none."""
        if self.state != "idle":
            return False
        i = self.panel.selected_move()
        prog = self.teach.program
        if i is None:
            self._say("Select the joint move to plan around the cell.", ok=False)
            self._show()
            return False
        if prog.moves[i].kind != "joint":
            self._say(f"Move {i + 1} is a {prog.moves[i].kind} move; only joint moves are "
                      "planned around the cell.", ok=False)
            self._show()
            return False
        robot, cell = self.session.robot, self.session.cell
        stop = threading.Event()
        job = {"stop": stop, "t0": time.monotonic(), "index": i}
        self._job, self._planned_from = job, prog
        args = (job, prog, i, robot, cell, np.array(self.session.q, float))
        threading.Thread(target=self._work, args=args, daemon=True).start()
        self.state = "planning"
        where = "the cell" if cell is not None else "the robot itself (no cell)"
        self._say(f"Planning move {i + 1} around {where} (up to {self.timeout:g} s)\u2026")
        self.progress.setValue(0)
        self._show()
        self._poll.start()
        return True

    def _work(self, job, prog, i, robot, cell, q_now) -> None:
        """Worker thread: plan; touches no Qt object."""
        try:
            job["result"] = plan_move(prog, i, robot, cell, q_start=q_now,
                                      timeout=self.timeout, seed=self.seed,
                                      cancel=job["stop"].is_set)
        except PlanningCancelled:
            job["cancelled"] = True
        except (PlanningError, ProgramError) as exc:
            job["error"] = str(exc)
        except Exception as exc:  # noqa: BLE001 - said in the panel, the GUI lives on
            job["error"] = f"planning failed: {type(exc).__name__}: {exc}"
        job["done"] = True

    def _collect(self) -> None:
        job = self._job
        if job is None:
            self._poll.stop()
            return
        elapsed = time.monotonic() - job["t0"]
        self.progress.setValue(min(1000, int(1000 * elapsed / self.timeout)))
        if not job.get("done"):
            return
        self._poll.stop()
        self._job = None
        self.state = "idle"
        i = job["index"]
        if job.get("cancelled"):
            self._say("Planning cancelled; the program is unchanged.")
        elif "error" in job:
            self._say(f"Move {i + 1}: {job['error']}", ok=False)
        else:
            result = job["result"]
            if not result.planned and result.program is self._planned_from:
                self._say(f"The straight path of move {i + 1} is clear; nothing to plan.")
            else:
                self._preview(result)
        self._show()
        self.done.emit()

    def wait(self, timeout_s: float = 60.0) -> bool:
        """Block until planning is done (scripts and tests); True when it is."""
        end = time.monotonic() + timeout_s
        while self._job is not None and time.monotonic() < end:
            time.sleep(0.01)
            self._collect()
        return self._job is None

    # -- preview, accept, cancel -----------------------------------------------------------
    def _preview(self, result) -> None:
        self.result = result
        self.state = "preview"
        n = len(result.vias)
        if not n:  # the straight path is clear now: the old plan's via waypoints can go
            old = self._planned_from.moves[result.index].planned
            self._say(f"Move {result.index + 1}: the straight path is clear now. Accept makes "
                      f"the move straight again (removes {', '.join(old)}); Cancel keeps it.")
            self.teach.set_ghosts([])
            self._show_line()
            return
        self._say(f"Move {result.index + 1}: a collision-free path through {n} via "
                  f"waypoint{'s' if n != 1 else ''} ({', '.join(result.vias)}), found in "
                  f"{result.plan_time:.1f} s. Accept inserts {'them' if n != 1 else 'it'}; "
                  "Cancel keeps the program as it was.")
        self.teach.set_ghosts([Ghost(q, "selected", name) for q, name in
                               zip(result.q[1:-1], result.vias, strict=True)])
        self._show_line()

    def _show_line(self) -> None:
        """The tool's path along the previewed plan, as a line in the view."""
        if self.view is None:
            return
        if self.line is None or self.line not in self.view.items:
            color, _alpha = GHOST_COLORS["selected"]
            self.line = gl.GLLinePlotItem(pos=np.zeros((2, 3)), color=style.rgba(color, 0.95),
                                          width=3.0, mode="line_strip", antialias=True,
                                          glOptions="translucent")
            self.line.setDepthValue(7)  # over the trail (5) and its marker (6)
            self.view.addItem(self.line)
        if self.state == "preview" and self.result is not None \
                and self.result.q.shape[1] == self.session.robot.n:
            self.line.setData(pos=tool_path(self.session.robot, _dense(self.result.q)))
            self.line.setVisible(True)
        else:
            self.line.setVisible(False)
        self.view.update()

    @property
    def line_points(self) -> np.ndarray:
        """Points of the preview line shown (k, 3), empty when none (for tests)."""
        if self.line is None or not self.line.visible():
            return np.zeros((0, 3))
        return np.asarray(self.line.pos)

    def _clear_preview(self) -> None:
        self.result = None
        self.state = "idle"
        self.teach.set_ghosts([])
        self._show_line()

    def accept(self) -> bool:
        """Insert the previewed via waypoints (one undo step); False without a preview."""
        if self.state != "preview" or self.result is None:
            return False
        result = self.result
        self._clear_preview()
        try:
            with undo.labelled(self.session, _EDIT_NAME):
                self.teach.set_program(result.program)
        except ProgramError as exc:
            self._say(str(exc), ok=False)
            self._show()
            return False
        self.accepted = result
        self.panel.select_move(result.index)
        self._say(f"Move {result.index + 1} now passes through {', '.join(result.vias)}."
                  if result.vias else f"Move {result.index + 1} is straight again.")
        self._show()
        return True

    def cancel(self) -> None:
        """Stop planning, or drop the plan shown; the program stays as it was."""
        if self.state == "planning":
            self._stop_worker()
            return  # _collect says so when the worker has stopped
        if self.state == "preview":
            self._clear_preview()
            self._say("Plan discarded; the program is unchanged.")
            self._show()

    def _stop_worker(self) -> None:
        if self._job is not None:
            self._job["stop"].set()

    def _program_changed(self) -> None:
        # a plan or preview belongs to the program it was made from: an edit drops it
        if self.state != "idle" and self.teach.program is not self._planned_from:
            if self.state == "preview":
                self._clear_preview()
                self._say("The program changed: the plan shown was dropped.")
            else:
                self._stop_worker()
        self._show()
