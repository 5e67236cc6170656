#!/usr/bin/env bash
# Stops early, with one clear line, when the Python that .ci/test and .ci/app would use is
# missing or older than 3.11 (robogui needs tomllib and 3.11 typing). PYTHON overrides it.
PY=${PYTHON:-python3}
version=$("$PY" -c 'import sys; print(".".join(map(str, sys.version_info[:3])))' 2>/dev/null)
if [ -z "$version" ]; then
  echo "robogui: cannot run '$PY'; install Python >= 3.11 (Debian/Ubuntu: apt-get install python3) or set PYTHON=/path/to/python3.11" >&2
  exit 1
fi
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "robogui: needs Python >= 3.11, but $PY is Python $version; install a newer one and run again with PYTHON=python3.11 (or newer)" >&2
  exit 1
fi
