#!/usr/bin/env bash
# Installs the system libraries Qt (xcb), Mesa GL and Xvfb need, when any is missing.
# Sourced by .ci/test and .ci/app; safe to run again (installs nothing when all are present).
set -euo pipefail
ROBOGUI_APT_PACKAGES="xvfb xauth libgl1 libegl1 libgl1-mesa-dri libglx-mesa0 libxkbcommon0 \
libegl-mesa0 libgbm1 libopengl0 \
libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 \
libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libxcb-xfixes0 libxrender1 \
libfontconfig1 libdbus-1-3 fonts-dejavu-core"
missing=""
for p in $ROBOGUI_APT_PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "robogui: installing system packages:$missing"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
