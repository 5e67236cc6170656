"""Legacy robot files: ROBOOP .conf, SpaceLib Rob_Mat .DAT/.MOT and the Elbow robot's files.

May import: the engine, and the io's base modules (file_error, tomlwrite).
"""
