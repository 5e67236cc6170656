"""File formats: robot definitions, programs, trajectories (no Qt here)."""
