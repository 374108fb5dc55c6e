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
  # fonts so screenshots have readable text
  fonts-cantarell fonts-dejavu-core
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
