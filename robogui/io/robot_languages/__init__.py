"""Robot languages: a teach program written as URScript (.script), ABB RAPID (.mod) or KUKA
KRL (.src + .dat), and a reader for exactly the subset each writer writes (docs/robot-languages.md).

May import: the engine.
"""
