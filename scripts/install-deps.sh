#!/usr/bin/env bash
# Installs every Debian 12 package Jvmscope needs to build, test and run.
# Safe to run again: apt-get skips what is already there.
set -euo pipefail

packages=(
  # build
  build-essential meson ninja-build pkg-config gettext clang libclang-rt-14-dev
  # libraries
  libglib2.0-dev libgtk-4-dev libadwaita-1-dev libjson-glib-dev liblz4-dev
  libtraceevent-dev libbabeltrace2-dev libzstd-dev
  # tools the tests compare against or drive
  babeltrace2 openjdk-17-jdk-headless linux-perf
  xvfb xauth xdotool x11-utils imagemagick
  desktop-file-utils appstream shared-mime-info libglib2.0-bin
  libxml2-utils libgdk-pixbuf2.0-bin librsvg2-common flatpak-builder
  # the window in French under AT-SPI (tests/data/test-app-fr.py)
  locales at-spi2-core gir1.2-atspi-2.0 python3-gi dbus
  # fonts so screenshots have readable text
  fonts-cantarell fonts-dejavu-core
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The French locale the translation test runs the window in: Debian's `locales` ships the
# definitions, not the compiled locale.
if ! locale -a 2>/dev/null | grep -qix 'fr_FR\.utf-\?8'; then
  $SUDO localedef -i fr_FR -c -f UTF-8 -A /usr/share/locale/locale.alias fr_FR.UTF-8
fi
