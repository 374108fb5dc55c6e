#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds Jvmscope and opens the bundled sample trace.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ -f build/build.ninja ]; then meson setup --reconfigure build >/dev/null; else meson setup build; fi
meson compile -C build
sample=data/sample/sample.jvmtrace
if [ -x build/app/jvmscope ] && [ -e "$sample" ]; then
  exec build/app/jvmscope "$sample"
elif [ -e "$sample" ]; then
  # Until the window is built, the most useful thing: what the sample holds.
  exec build/app/jvmscope-cli summary "$sample"
else
  exec build/app/jvmscope-cli --help
fi
