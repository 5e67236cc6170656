"""``python -m robogui``: the same as the ``robogui`` command."""

import sys

from robogui.cli import main

sys.exit(main())
