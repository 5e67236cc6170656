"""ROS robot descriptions: URDF and xacro reading, URDF writing, SRDF named poses, and where
package:// and $(find ...) point.

May import: the engine, and the io's base modules (file_error, tip_names).
"""
