"""Ghost robots and the end-effector trail, drawn in the 3D view.

A ghost is a second set of the view's link and joint meshes, translucent, placed with
``setTransform`` like the robot itself. The meshes are shared with the view's own
parts (built once per robot); a pool of ghost sets grows to the largest number shown
at once (8 for the analytic IK branches) and is rebuilt only when the view
rebuilds its robot (new robot, tool or scale).

The trail is one ``GLLinePlotItem`` through the tool-centre-point positions of the
session's trajectory, decimated to screen resolution, built once per trajectory, robot
or tool (in a worker thread for long trajectories), never per frame; a marker shows the
playhead on it. Ghost frames come from the teach state
(``state.ghost_frames``); this module only places meshes.
"""

from __future__ import annotations

import threading

import numpy as np
import pyqtgraph.opengl as gl
from PySide6 import QtCore

from robogui.session.motion.polyline import point_at, screen_segments, tool_path

from .. import style
from ..bindings import Subscriptions

__all__ = ["GhostLayer", "TrailLayer", "GHOST_COLORS"]

#: role -> (colour, alpha)
GHOST_COLORS = {
    "selected": ("#63d4ff", 0.5),
    "candidate": ("#c9ced6", 0.16),
    "invalid": ("#ff5a4f", 0.08),
}
TRAIL_COLOR = style.TRAIL
_GHOST_DEPTH = 10  # drawn after the opaque robot (0) and the trail (5)


class GhostLayer:
    """Draws ``state.ghosts`` in ``view`` (a RobotView). Create it after the view."""

    def __init__(self, view, session, state):
        self.view, self.session, self.state = view, session, state
        self._sets: list[list[tuple[gl.GLMeshItem, object]]] = []
        self.origins = np.zeros((0, 3))  # joint origins of the shown ghosts, for fitting
        view.add_fit_points(lambda: self.origins)
        self._subs = Subscriptions(view)
        self._subs.connect(state.events.ghosts, lambda _g: self.refresh())
        view.robotRebuilt.connect(self._invalidate)

    def _invalidate(self) -> None:
        # the view removed every item when it rebuilt: start a new pool
        self._sets = []
        self.refresh()

    def _new_set(self) -> list:
        items = []
        for part in self.view.moving_parts(("joint", "link")):
            item = gl.GLMeshItem(meshdata=part.item.opts["meshdata"], color=(1, 1, 1, 0.2),
                                 smooth=True, shader=self.view.lit_shader,
                                 glOptions="translucent")
            item.setDepthValue(_GHOST_DEPTH)  # after the opaque robot, so it shows through
            item.setVisible(False)
            self.view.addItem(item)
            items.append((item, part))
        return items

    @property
    def visible_count(self) -> int:
        """Number of ghost robots currently shown."""
        return sum(1 for s in self._sets if s and s[0][0].visible())

    def ghost_items(self, k: int) -> list[gl.GLMeshItem]:
        """The GL items of ghost ``k`` (for tests)."""
        return [item for item, _ in self._sets[k]]

    def refresh(self) -> None:
        """Show the state's ghosts: set colours and transforms, hide the unused sets."""
        robot = self.session.robot
        # ghosts of a previous robot wait for the state to clear them
        ghosts = [g for g in self.state.ghosts if g.q.size == robot.n]
        while len(self._sets) < len(ghosts):
            self._sets.append(self._new_set())
        self.origins = np.zeros((0, 3))
        if ghosts:
            F = self.state.ghost_frames
            self.origins = F[:, :, :3, 3].reshape(-1, 3)
        for k, items in enumerate(self._sets):
            if k >= len(ghosts):
                for item, _ in items:
                    item.setVisible(False)
                continue
            role = ghosts[k].role
            color, alpha = GHOST_COLORS[role]
            rgba = style.rgba(color, alpha)
            # the selected ghost is drawn first of the ghosts: a faint candidate that shares
            # its links (e.g. "run" and "ruf" differ in the wrist only) drawn before it
            # would win the depth test and hide it
            depth = _GHOST_DEPTH if role == "selected" else _GHOST_DEPTH + 1
            M = self.view.part_transforms(F[k], [part for _, part in items])
            for (item, _), Mk in zip(items, M, strict=True):
                item.setTransform(self.view.qmatrix(Mk))
                item.setColor(rgba)
                item.setDepthValue(depth)
                item.setVisible(True)
        if ghosts and self.view.auto_fit:  # the camera was never moved: show them all
            self.view.fit_to_robot()
        self.view.update()


#: trajectories up to this many samples get their trail on the GUI thread (a few ms)
TRAIL_SYNC_LIMIT = 5_000


def _trail_job(holder: dict, stop: threading.Event, robot, q, t) -> None:
    """Worker thread: the decimated tool path; touches no Qt object (the GUI polls)."""
    try:
        path = tool_path(robot, q, cancel=stop.is_set)
        if path is None:
            return
        holder["result"] = (screen_segments(path), path)
    except Exception as exc:  # noqa: BLE001 - reported by the GUI side
        holder["error"] = f"{type(exc).__name__}: {exc}"


class TrailLayer:
    """The tool-centre-point path of the session's trajectory, as a line in ``view``,
    and a marker at the playhead.

    The line is built once per trajectory (robot, tool) and decimated to what the screen
    can show (:func:`~robogui.session.motion.polyline.decimate_polyline`), so a frame costs the
    same for 100 or 1,000,000 samples; playing only moves the marker. A long
    trajectory's path is computed in a worker thread (the window stays responsive).
    """

    def __init__(self, view, session, *, width: float = 2.0):
        self.view, self.session, self.width = view, session, width
        self.item: gl.GLLinePlotItem | None = None
        self.marker: gl.GLScatterPlotItem | None = None
        self.points = np.zeros((0, 3))  # segment ends (2m, 3) drawn as GL_LINES
        self._path = np.zeros((0, 3))  # the full path (k, 3), for the marker
        self._job: tuple[dict, threading.Event, object] | None = None
        self._poll = QtCore.QTimer(view)
        self._poll.setInterval(30)
        self._poll.timeout.connect(self._collect)
        self._subs = Subscriptions(view)
        view.add_fit_points(lambda: self.points)
        self._subs.connect(session.events.trajectory, lambda _t: self.refresh())
        self._subs.connect(session.events.time, lambda _t: self.move_marker())
        # a new tool changes the path; the rebuilt view has dropped the old line item
        view.robotRebuilt.connect(lambda: self.refresh(rebuild=True))
        view.destroyed.connect(lambda *_: self.cancel())
        self.refresh()

    @property
    def busy(self) -> bool:
        """True while a worker computes the path of a long trajectory."""
        return self._job is not None

    def cancel(self) -> None:
        if self._job is not None:
            self._job[1].set()
            self._job = None

    def refresh(self, rebuild: bool = False) -> None:
        """Take the session's trajectory and (re)build the line once."""
        if rebuild or self.item is None or self.item not in self.view.items:
            self.item = gl.GLLinePlotItem(pos=np.zeros((2, 3)), color=style.rgba(TRAIL_COLOR, 0.95),
                                          width=self.width, mode="lines", antialias=True,
                                          glOptions="translucent")
            self.item.setDepthValue(5)
            self.view.addItem(self.item)
            self.marker = gl.GLScatterPlotItem(pos=np.zeros((1, 3)), size=9.0, pxMode=True,
                                               color=style.rgba(TRAIL_COLOR, 1.0),
                                               glOptions="translucent")
            self.marker.setDepthValue(6)
            self.view.addItem(self.marker)
        self.cancel()
        traj, robot = self.session.trajectory, self.session.robot
        q = None if traj is None else getattr(traj, "q", None)
        if q is None or len(q) < 2:
            self._show(np.zeros((0, 3)), np.zeros((0, 3)))
        elif len(q) <= TRAIL_SYNC_LIMIT:
            path = self.session.trajectory_path
            self._show(screen_segments(path), path)
        else:
            self._show(np.zeros((0, 3)), np.zeros((0, 3)))  # until the worker is done
            holder, stop = {}, threading.Event()
            self._job = (holder, stop, traj)
            threading.Thread(target=_trail_job, args=(holder, stop, robot, np.asarray(q),
                                                      traj.t), daemon=True).start()
            self._poll.start()

    def _collect(self) -> None:
        job = self._job
        if job is None:
            self._poll.stop()
            return
        holder, _stop, traj = job
        if "result" not in holder and "error" not in holder:
            return
        self._job = None
        self._poll.stop()
        if traj is not self.session.trajectory:
            return
        if "result" in holder:
            self._show(*holder["result"])

    def wait(self, timeout_s: float = 30.0) -> bool:
        """Block until a worker's path is shown (scripts and tests); True when done."""
        import time

        end = time.monotonic() + timeout_s
        while self._job is not None and time.monotonic() < end:
            time.sleep(0.005)
            self._collect()
        return self._job is None

    def _show(self, points: np.ndarray, path: np.ndarray) -> None:
        self.points, self._path = points, path
        if len(points) < 2:
            self.item.setVisible(False)
            self.marker.setVisible(False)
        else:
            self.item.setData(pos=points)
            self.item.setVisible(True)
            self.marker.setVisible(True)
            self.move_marker()
            if self.view.auto_fit:
                self.view.fit_to_robot()
        self.view.update()

    def move_marker(self) -> None:
        """The marker to the path at the playhead (O(log k), nothing else is redrawn)."""
        traj = self.session.trajectory
        if self.marker is None or traj is None or len(self._path) != len(traj.t) \
                or len(self.points) < 2:
            return
        p = point_at(traj.t, self._path, self.session.time)
        self.marker.setData(pos=p[None, :])
