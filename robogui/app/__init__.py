"""The PySide6 desktop application (the only layer that imports Qt)."""

import OpenGL

# PyOpenGL checks glGetError after every call by default; in a render loop of a few
# hundred GL calls per frame that check costs more than the calls. Must be set
# before OpenGL.GL is first imported (pyqtgraph.opengl imports it).
OpenGL.ERROR_CHECKING = False
