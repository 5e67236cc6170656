"""Where the test data shipped with the repository lives.

The legacy ROBOOP and Rob_Mat samples are copies of the ones that came with the project
brief (docs/formats.md), kept here so the tests do not depend on anything outside the
checkout.
"""

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
LEGACY_SAMPLES = DATA / "legacy"
