"""The PySide6 desktop application (the only layer that imports Qt)."""
