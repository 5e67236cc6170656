"""All parts of a robot in one GL item: one vertex buffer, one shader, two draw calls.

pyqtgraph draws every ``GLMeshItem`` with its own buffer binds, attribute look-ups,
shader bind and draw call; with ~35 parts (and their shadows) that per-item cost, in
Python and in a software rasteriser's per-draw state validation, dominates a frame.
Here the unit meshes of all parts are concatenated once per robot, each vertex
carries its part index, and a change of ``q`` only uploads the parts' model matrices
(one uniform array). The floor shadow is a second draw of the same buffer, flattened
onto the floor in the vertex shader.

Lighting and colours are those of the view's lit shader (key, fill, specular, rim).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np
import pyqtgraph.opengl as gl
from OpenGL import GL
from pyqtgraph.opengl import shaders
from PySide6 import QtOpenGL

__all__ = ["PartMesh", "RobotMeshItem", "normal_matrices"]


_VERTEX = """
uniform mat4 u_mvp;          // projection * view
uniform mat3 u_view_normal;  // view rotation (eye-space lighting)
uniform mat4 u_model[NPARTS];
uniform mat3 u_normal[NPARTS];
uniform vec4 u_tint[NPARTS];   // alpha > 0: this colour replaces the vertex colour
uniform vec2 u_flags[NPARTS];  // x: shown, y: casts a shadow
uniform float u_shadow;        // 1: shadow pass
uniform float u_floor;         // shadow plane z
uniform vec4 u_shadow_color;
uniform float u_faint_z;       // the see-through floor's z (see the fragment shader)
attribute vec3 a_position;
attribute vec3 a_normal;
attribute vec4 a_color;
attribute vec3 a_ambient;
attribute vec3 a_specular;
attribute float a_part;
varying vec4 v_color;
varying vec3 v_ambient;
varying vec3 v_specular;
varying vec3 v_normal;
varying float v_above;  // height over the see-through floor
void main() {
    int k = int(a_part + 0.5);
    vec2 f = u_flags[k];
    float on = u_shadow > 0.5 ? f.x * f.y : f.x;
    if (on < 0.5) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the clip volume: culled
        v_color = vec4(0.0);
        v_ambient = vec3(0.0);
        v_specular = vec3(0.0);
        v_normal = vec3(0.0, 0.0, 1.0);
        v_above = 0.0;
        return;
    }
    vec4 world = u_model[k] * vec4(a_position, 1.0);
    if (u_shadow > 0.5) {
        world.z = u_floor * world.w;  // flattened onto the floor
        v_color = u_shadow_color;
        v_ambient = vec3(0.0);
        v_specular = vec3(0.0);
    } else {
        vec4 t = u_tint[k];
        bool tinted = t.a > 0.0;  // a tint replaces the material: the plain look
        v_color = tinted ? t : a_color;
        v_ambient = tinted ? 0.6 * t.rgb : a_ambient;
        v_specular = tinted ? vec3(0.25) : a_specular;
    }
    v_normal = normalize(u_view_normal * (u_normal[k] * a_normal));
    v_above = world.z / world.w - u_faint_z;  // a shadow: a hair above the floor
    gl_Position = u_mvp * world;
}
"""

# key and fill light, a little specular and rim light: reads well on dark backgrounds.
# Shared by every lit item (view3d's shader program too). A material's terms (COLLADA
# <phong>, OBJ Ka/Kd/Ks): ambient under an ambient light of 0.5 (RViz's), diffuse under
# the key and fill lights, specular scaling the key light's highlight (the exponent is the
# view's: 40). A plain colour c is the material (0.6 c, c, 0.25 grey).
SHADE_GLSL = """
vec3 shade_terms(vec3 ambient, vec3 diffuse, vec3 specular, vec3 normal) {
    vec3 n = normalize(normal);
    vec3 key = normalize(vec3(0.35, 0.6, 0.75));
    vec3 fill = normalize(vec3(-0.7, -0.2, 0.4));
    float d = max(dot(n, key), 0.0);
    float f = max(dot(n, fill), 0.0);
    vec3 h = normalize(key + vec3(0.0, 0.0, 1.0));
    // x^40 and x^3 by products (exact): pow is exp2(y log2 x), two polynomial
    // evaluations per pixel on a software rasteriser
    float x = max(dot(n, h), 0.0);
    float x2 = x * x;
    float x8 = x2 * x2;
    x8 *= x8;
    float x32 = x8 * x8;
    x32 *= x32;
    float s = x32 * x8;
    float r = 1.0 - abs(n.z);
    float rim = r * r * r;
    vec3 rgb = 0.5 * ambient + diffuse * (0.66 * d + 0.22 * f) + specular * s
               + vec3(0.06 * rim);
    return min(rgb, vec3(1.0));
}
vec3 shade(vec3 color, vec3 normal) {
    return shade_terms(0.6 * color, color, vec3(0.25), normal);
}
"""

_FRAGMENT = """
#ifdef GL_ES
precision mediump float;
#endif
varying vec4 v_color;
varying vec3 v_ambient;
varying vec3 v_specular;
varying vec3 v_normal;
varying float v_above;
uniform float u_flat;      // 1: the shadow pass (u_shadow's copy: a uniform of both
                           // stages would need one precision in both, under GL ES)
uniform vec4 u_faint;      // a see-through floor's colour and opacity (alpha 0: none)
uniform float u_eye_side;  // +1: the eye is above that floor, -1: below it
""" + SHADE_GLSL + """
void main() {
    // the shadow pass: its flat colour (a branch on a uniform: the lighting is not
    // computed at all, where a per-pixel choice computes both sides)
    vec3 rgb;
    if (u_flat > 0.5)
        rgb = v_color.rgb;
    else
        rgb = shade_terms(v_ambient, v_color.rgb, v_specular, v_normal);
    // a part (or a shadow, seen from below) on the far side of a see-through floor: the
    // floor's colour laid over it, as blending the floor over it would (the floor is
    // drawn first, opaque)
    if (u_faint.a > 0.0 && v_above * u_eye_side < 0.0)
        rgb = mix(rgb, u_faint.rgb, u_faint.a);
    gl_FragColor = vec4(rgb, v_color.a);
}
"""


def normal_matrices(M: np.ndarray) -> np.ndarray:
    """Inverse transposes (k, 3, 3) of the linear parts of ``M`` (k, 4, 4): parts are
    scaled unevenly, so normals need them; singular parts get zeros."""
    A = np.asarray(M, float)[:, :3, :3]
    safe = np.abs(np.linalg.det(A)) > 1e-18
    N = np.zeros_like(A)
    N[safe] = np.linalg.inv(A[safe]).transpose(0, 2, 1)
    return N


def vertex_normals(v: np.ndarray, f: np.ndarray) -> np.ndarray:
    """Unit vertex normals (v, 3) float32: the sum of the (area-weighted) normals of the
    faces around each vertex, normalised, as pyqtgraph's ``MeshData.vertexNormals``,
    whose Python loop over the vertices took seconds for a 200-link robot's meshes.
    A vertex on no face (or on degenerate faces only) gets a zero normal."""
    v = np.asarray(v, np.float32)
    f = np.asarray(f, np.intp)
    tri = v[f]  # (f, 3, 3)
    fn = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    acc = np.zeros((len(v), 3), np.float64)
    for k in range(3):
        np.add.at(acc, f[:, k], fn)
    norm = np.linalg.norm(acc, axis=1, keepdims=True)
    out = np.divide(acc, norm, out=np.zeros_like(acc), where=norm > 0)
    return out.astype(np.float32)


_NORMALS: dict[bytes, np.ndarray] = {}  # the same few meshes recur: every joint a cylinder


def _normals_of(v: np.ndarray, f: np.ndarray) -> np.ndarray:
    """``vertex_normals`` memoised on the mesh's bytes (v float32, f uint32): a 200-link
    robot repeats one cylinder 400 times (issue 17: opening it must not freeze the app)."""
    key = np.array(v.shape + f.shape).tobytes() + v.tobytes() + f.tobytes()
    out = _NORMALS.get(key)
    if out is None:
        if len(_NORMALS) >= 256:
            _NORMALS.clear()
        out = _NORMALS[key] = vertex_normals(v, f)
        out.flags.writeable = False
    return out


@dataclass
class PartMesh:
    """One part: a mesh in its own coordinates, its colour(s), whether it casts a shadow;
    a mesh file's own normals and material terms when it has them."""

    vertices: np.ndarray  # (v, 3)
    faces: np.ndarray  # (f, 3) indices into vertices
    color: tuple[float, float, float, float]  # used when colors is None
    colors: np.ndarray | None = None  # (v, 4) per-vertex RGBA (the diffuse term)
    shadow: bool = False
    normals: np.ndarray | None = None  # (v, 3) unit; None: smooth over shared vertices
    ambient: np.ndarray | None = None  # (v, 3); None: 0.6 x the colour
    specular: np.ndarray | None = None  # (v, 3); None: 0.25 grey


class RobotMeshItem(gl.GLGraphicsItem.GLGraphicsItem):
    """Draws ``parts`` (list of :class:`PartMesh`), each placed by its own 4x4 matrix.

    :meth:`set_matrices` (k, 4, 4) moves them (the only per-frame work),
    :meth:`set_tints` overrides colours, :meth:`set_shown` hides parts or shadows.
    """

    def __init__(self, parts: list[PartMesh], *, floor_z: float = 0.0,
                 shadow_color=(0.0, 0.0, 0.0, 1.0), parentItem=None):
        super().__init__(parentItem=parentItem)
        self.setGLOptions("opaque")
        k = len(parts)
        if k == 0:
            raise ValueError("parts must hold at least one PartMesh")
        self._parts = list(parts)  # kept: light copies replace some of them (set_lights)
        self._vertices, self._faces, self._runs = _pack(parts)
        # the light copies (levels of detail, heaviest first): their arrays and GL buffers
        self._lights: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._light_buffers: list[tuple[int, int] | None] = []
        self.light = 0  # the copy drawn: 0 the full one, k the k-th light copy
        self.uploaded = False  # the last paint uploaded a copy (a slower frame)
        self.part_count = k
        self._model = np.tile(np.eye(4, dtype=np.float32), (k, 1, 1))
        self._gl_model = self._model.copy()  # column-major copies, ready for glUniform*
        self._gl_normal = np.tile(np.eye(3, dtype=np.float32), (k, 1, 1))
        self._tint = np.zeros((k, 4), np.float32)
        self._flags = np.zeros((k, 2), np.float32)
        self._flags[:, 0] = 1.0
        self._flags[:, 1] = [1.0 if p.shadow else 0.0 for p in parts]
        self._casts = self._flags[:, 1].copy()
        self._show_shadow = True
        self.floor_z = float(floor_z)
        self.shadow_color = tuple(float(c) for c in shadow_color)
        #: (rgba, z) of a see-through floor drawn under the robot without writing depth:
        #: the parts on its far side from the eye get its colour laid over them here, as
        #: if it were blended over them (view_parts' ``_FloorPlane``). None: no such floor.
        self.faint_floor: tuple[tuple[float, float, float, float], float] | None = None
        # one array size for every batch (BATCH_PARTS parts at most): one program in the
        # process, compiled by the first robot drawn; on llvmpipe a program new to the
        # process costs the first frame of the robot opened ~0.1 s of compiling
        self._capacity = max(64, 1 << (k - 1).bit_length())
        self._shader = _shader(self._capacity)
        self._buffers = None  # GL names, created in the first paint (needs a context)
        self._gl_buffers: dict = {}  # their QOpenGLBuffer owners, per copy

    # -- state -------------------------------------------------------------------------------
    @property
    def matrices(self) -> np.ndarray:
        """Current model matrices (k, 4, 4) (float32)."""
        return self._model

    def set_matrices(self, M: np.ndarray, normals: np.ndarray | None = None) -> None:
        """Model matrices of all parts, (k, 4, 4) world-from-mesh; normals follow.

        ``normals`` (k, 3, 3), if given, are the inverse transposes of the linear parts
        (see :func:`normal_matrices`), computed for several items at once.
        """
        M = np.asarray(M, float)
        if M.shape != (self.part_count, 4, 4):
            raise ValueError(f"M must have shape ({self.part_count}, 4, 4), got {M.shape}")
        self._model = M.astype(np.float32)
        N = normal_matrices(M) if normals is None else normals
        # numpy is row-major: transposed, the data is GL's column-major
        self._gl_model = np.ascontiguousarray(M.transpose(0, 2, 1), np.float32)
        self._gl_normal = np.ascontiguousarray(np.asarray(N).transpose(0, 2, 1), np.float32)
        self.update()

    def set_part_tint(self, i: int, rgba) -> None:
        """Colour of part ``i`` (RGBA); alpha 0 gives the part its own colours back."""
        self._tint[i] = rgba
        self.update()

    def set_part_shown(self, i: int, shown: bool) -> None:
        self._flags[i, 0] = float(shown)
        self.update()

    def part_shown(self, i: int) -> bool:
        return bool(self._flags[i, 0])

    def set_tints(self, tints: np.ndarray) -> None:
        """(k, 4) RGBA; a part whose alpha is 0 keeps its own colours."""
        self._tint = np.asarray(tints, np.float32).reshape(self.part_count, 4).copy()
        self.update()

    def set_shown(self, shown, shadow: bool = True) -> None:
        """Which parts are drawn, (k,) bool; ``shadow`` False hides all shadows."""
        self._flags[:, 0] = np.asarray(shown, np.float32)
        self._show_shadow = bool(shadow)
        self._flags[:, 1] = self._casts * float(shadow)
        self.update()

    # -- level of detail ----------------------------------------------------------------------
    def set_full(self, replacements: dict[int, PartMesh]) -> None:
        """The parts ``replacements`` names (part index -> its mesh) swapped into the full
        copy: a draft's finished meshes. Uploaded at the next paint; the parts keep their
        matrices, tints and flags; the light copies, made from the meshes before, go."""
        self._parts = [replacements.get(i, p) for i, p in enumerate(self._parts)]
        self._vertices, self._faces, self._runs = _pack(self._parts)
        self._gl_buffers.pop("full", None)  # freed by Qt in the share group
        self._buffers = None
        self.set_lights([])
        self.update()

    def set_light(self, replacements: dict[int, PartMesh]) -> None:
        """One light copy (see :meth:`set_lights`); an empty dict: none."""
        self.set_lights([replacements] if replacements else [])

    def set_lights(self, levels: list[dict[int, PartMesh]]) -> None:
        """Light copies of this item, heaviest first: in each, the parts its dict names
        (part index -> a lighter mesh of the same part, e.g. decimated) swapped in, the
        others as they are. Each is uploaded once, at the first paint that draws it;
        :attr:`light` chooses which copy is drawn (the parts' matrices, tints and flags
        are shared by all)."""
        for k in range(len(self._lights)):
            self._gl_buffers.pop(f"light{k}", None)  # the former copies' buffers are freed
        self._lights = [_pack([r.get(i, p) for i, p in enumerate(self._parts)])
                        for r in levels if r]
        self._light_buffers = [None] * len(self._lights)
        self.light = min(int(self.light), len(self._lights))

    @property
    def has_light(self) -> bool:
        """Whether a light copy was set."""
        return bool(self._lights)

    @property
    def light_levels(self) -> int:
        """How many light copies there are."""
        return len(self._lights)

    def triangles(self, light: int | bool = 0) -> int:
        """Triangles of the shown parts in the full copy (``light`` 0), or in the
        ``light``-th light copy (True: the first; the lightest there is when fewer),
        their shadows not counted."""
        runs = self._runs
        if light and self._lights:
            runs = self._lights[min(int(light), len(self._lights)) - 1][2]
        return int(runs[self._flags[:, 0] > 0.5, 1].sum()) // 3

    # -- GL ------------------------------------------------------------------------------------
    def _upload(self, vertices: np.ndarray, faces: np.ndarray, copy: str) -> tuple[int, int]:
        """Vertex and index buffers of one copy ("full" or "light"); their GL names.

        Qt's buffer objects: when an item or a copy is gone (a robot replaced, a window
        closed), Qt frees its buffers in their share group, at once or at the group's
        next current context. The app's contexts share one group that outlives every
        window; bare glGenBuffers names were never freed there (~9 MB per Panda opened).
        """
        buffers = []
        for kind, data in ((QtOpenGL.QOpenGLBuffer.Type.VertexBuffer, vertices),
                           (QtOpenGL.QOpenGLBuffer.Type.IndexBuffer, faces)):
            buf = QtOpenGL.QOpenGLBuffer(kind)
            buf.setUsagePattern(QtOpenGL.QOpenGLBuffer.UsagePattern.StaticDraw)
            if not buf.create():
                raise RuntimeError("could not create an OpenGL buffer")
            buf.bind()
            buf.allocate(data, data.nbytes)
            buf.release()
            buffers.append(buf)
        self._gl_buffers[copy] = buffers  # owned here: freed with the item or the copy
        return int(buffers[0].bufferId()), int(buffers[1].bufferId())

    def _current(self) -> tuple[tuple[int, int], np.ndarray]:
        """The GL buffers and runs of the copy drawn now (uploaded on first use only: a
        frame never re-uploads vertices, the parts move by their matrices)."""
        level = min(int(self.light), len(self._lights))
        if level:
            # every light copy at the first that is drawn: the level may change from one
            # moving frame to the next, and a switch must not stall a frame on an upload
            for k, arrays in enumerate(self._lights):
                if self._light_buffers[k] is None:
                    self._light_buffers[k] = self._upload(*arrays[:2], f"light{k}")
                    self.uploaded = True
            return self._light_buffers[level - 1], self._lights[level - 1][2]
        if self._buffers is None:
            self._buffers = self._upload(self._vertices, self._faces, "full")
            self.uploaded = True
        return self._buffers, self._runs

    def paint(self) -> None:
        self.setupGLState()
        self.uploaded = False
        (vbo, ibo), runs = self._current()
        program = self._shader.program()
        loc = _locations(program)
        mvp = np.array(self.mvpMatrix().data(), np.float32)
        vn = np.array(self.modelViewMatrix().normalMatrix().data(), np.float32)
        GL.glUseProgram(program)
        try:
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, vbo)
            attrs = [a for a in _ATTRIBUTES if loc[a[0]] != -1]
            for name, size, offset in attrs:
                GL.glVertexAttribPointer(loc[name], size, GL.GL_FLOAT, False, _STRIDE,
                                         ctypes.c_void_p(offset))
                GL.glEnableVertexAttribArray(loc[name])
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, 0)
            k = self.part_count
            GL.glUniformMatrix4fv(loc["u_mvp"], 1, False, mvp)
            GL.glUniformMatrix3fv(loc["u_view_normal"], 1, False, vn)
            GL.glUniformMatrix4fv(loc["u_model"], k, False, self._gl_model)
            GL.glUniformMatrix3fv(loc["u_normal"], k, False, self._gl_normal)
            GL.glUniform4fv(loc["u_tint"], k, self._tint)
            GL.glUniform2fv(loc["u_flags"], k, self._flags)
            GL.glUniform1f(loc["u_floor"], self.floor_z)
            GL.glUniform4f(loc["u_shadow_color"], *self.shadow_color)
            self._set_faint(loc)
            GL.glBindBuffer(GL.GL_ELEMENT_ARRAY_BUFFER, ibo)
            shown = self._flags[:, 0] > 0.5
            # the shadow first: the parts then draw over it
            for shadow, parts in ((1.0, shown & (self._flags[:, 1] > 0.5)), (0.0, shown)):
                merged = self._merged_runs(parts, runs)
                if not merged:
                    continue
                GL.glUniform1f(loc["u_shadow"], shadow)
                GL.glUniform1f(loc["u_flat"], shadow)
                for start, count in merged:
                    GL.glDrawElements(GL.GL_TRIANGLES, count, GL.GL_UNSIGNED_INT,
                                      ctypes.c_void_p(4 * start))
            GL.glBindBuffer(GL.GL_ELEMENT_ARRAY_BUFFER, 0)
            for name, _size, _offset in attrs:
                GL.glDisableVertexAttribArray(loc[name])
        finally:
            GL.glUseProgram(0)

    def _set_faint(self, loc: dict) -> None:
        if self.faint_floor is None:
            GL.glUniform4f(loc["u_faint"], 0.0, 0.0, 0.0, 0.0)
            return
        rgba, z = self.faint_floor
        # the eye in this item's coordinates: where the inverse model-view takes the origin
        mv = np.array(self.modelViewMatrix().data(), float).reshape(4, 4).T
        try:
            eye = np.linalg.solve(mv, [0.0, 0.0, 0.0, 1.0])
            above = eye[2] / eye[3] >= z
        except np.linalg.LinAlgError:
            above = True
        GL.glUniform4f(loc["u_faint"], *rgba)
        GL.glUniform1f(loc["u_faint_z"], float(z))
        GL.glUniform1f(loc["u_eye_side"], 1.0 if above else -1.0)

    def _merged_runs(self, parts: np.ndarray, all_runs: np.ndarray | None = None
                     ) -> list[tuple[int, int]]:
        """(first index, index count) of the selected parts in ``all_runs`` (default the
        full copy's), adjacent runs merged."""
        all_runs = self._runs if all_runs is None else all_runs
        runs: list[list[int]] = []
        for (start, count), on in zip(all_runs.tolist(), parts.tolist(), strict=True):
            if not on:
                continue
            if runs and runs[-1][0] + runs[-1][1] == start:
                runs[-1][1] += count
            else:
                runs.append([start, count])
        return [(a, b) for a, b in runs]


def _pack(parts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The interleaved vertex array (v, 17) float32, the index array (f, 3) uint32 and
    each part's run of indices (k, 2) (first index, count) of ``parts``."""
    rows, faces = [], []
    offset = 0
    for i, p in enumerate(parts):
        v = np.asarray(p.vertices, np.float32)
        f = np.asarray(p.faces, np.uint32)
        nrm = _normals_of(v, f) if p.normals is None else np.asarray(p.normals, np.float32)
        c = p.colors if p.colors is not None else np.tile(np.asarray(p.color, np.float32),
                                                          (len(v), 1))
        c = np.asarray(c, np.float32)
        amb = 0.6 * c[:, :3] if p.ambient is None else np.asarray(p.ambient, np.float32)
        spec = (np.full((len(v), 3), 0.25, np.float32) if p.specular is None
                else np.asarray(p.specular, np.float32))
        # interleaved: position 3, normal 3, colour 4, ambient 3, specular 3, part 1
        rows.append(np.hstack([v, nrm, c, amb, spec, np.full((len(v), 1), i)])
                    .astype(np.float32))
        faces.append(f + offset)
        offset += len(v)
    # each part's run of indices: only the runs of shown parts are drawn, so hidden
    # parts cost no vertex shading (done on the CPU by a software rasteriser)
    counts = np.array([3 * len(f) for f in faces])
    runs = np.stack([np.cumsum(counts) - counts, counts], axis=1)
    return (np.ascontiguousarray(np.vstack(rows)),
            np.ascontiguousarray(np.vstack(faces).astype(np.uint32)), runs)


_STRIDE = 17 * 4  # bytes per interleaved vertex
_ATTRIBUTES = (("a_position", 3, 0), ("a_normal", 3, 12), ("a_color", 4, 24),
               ("a_ambient", 3, 40), ("a_specular", 3, 52), ("a_part", 1, 64))
_UNIFORMS = ("u_mvp", "u_view_normal", "u_model", "u_normal", "u_tint", "u_flags", "u_shadow",
             "u_floor", "u_shadow_color", "u_flat", "u_faint", "u_faint_z", "u_eye_side")
_SHADERS: dict[int, shaders.ShaderProgram] = {}
_LOCATIONS: dict[int, dict[str, int]] = {}


def _shader(capacity: int) -> shaders.ShaderProgram:
    """One program per array size, shared by all items (compiled once per process)."""
    if capacity not in _SHADERS:
        _SHADERS[capacity] = shaders.ShaderProgram(
            f"robogui-batched-{capacity}",
            [shaders.VertexShader(_VERTEX.replace("NPARTS", str(capacity))),
             shaders.FragmentShader(_FRAGMENT)])
    return _SHADERS[capacity]


def _locations(program: int) -> dict[str, int]:
    # looked up once per linked program, not per draw
    program = int(program)
    if program not in _LOCATIONS:
        loc = {a[0]: GL.glGetAttribLocation(program, a[0]) for a in _ATTRIBUTES}
        loc.update({u: GL.glGetUniformLocation(program, u) for u in _UNIFORMS})
        _LOCATIONS[program] = loc
    return _LOCATIONS[program]
