#!/usr/bin/env bash
# Installs the system libraries Qt (xcb), Mesa GL and Xvfb need, the C compiler the C-export
# tests use (gcc, libc headers) and Python's venv module (Debian splits it off), when any is
# missing. Run by .ci/test and .ci/app; safe to run again (installs nothing when all are
# present).
set -euo pipefail
PY=${PYTHON:-python3}
ROBOGUI_APT_PACKAGES="gcc libc6-dev xvfb xauth libgl1 libegl1 libgl1-mesa-dri libglx-mesa0 libxkbcommon0 \
libegl-mesa0 libgbm1 libopengl0 \
libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 \
libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libxcb-xfixes0 libxrender1 \
libfontconfig1 libdbus-1-3 fonts-dejavu-core"
missing=""
for p in $ROBOGUI_APT_PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# Debian's Python has no ensurepip without python3-venv (python3.X-venv for a non-default X)
if ! "$PY" -c 'import ensurepip' >/dev/null 2>&1; then
  ver=$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
  for p in python3-venv "python$ver-venv"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing="$missing $p"
  done
fi
if [ -n "$missing" ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "robogui: missing system packages:$missing (no apt-get here: install them with your package manager)" >&2
    exit 1
  fi
  echo "robogui: installing system packages:$missing"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
