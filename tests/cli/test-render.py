#!/usr/bin/env python3
"""jvmscope-cli render on the bundled sample (docs/views.md, "Rendered from the command line").

Run under `xvfb-run -a` (GTK draws the views, and needs a display even for a file):

  rows     `--views gc-workers,jit` is as wide as --width and as high as the ruler, each
           view's legend and a row per thread folder the index holds (GC/workers/<tid>/task,
           JIT/<tid>/compilation, as `jvmscope-history-dump` lists them) plus the JIT view's
           deoptimization row; every thread row draws coloured pixels;
  range    --from/--to choose what is drawn: the sample's deoptimizations (all after 4 s) tick
           their row over the whole trace and not over 1 s to 2.5 s;
  svg      an .svg name writes SVG;
  errors   an unknown view name is refused (exit 2) naming it and the views there are; without
           a display the command says it needs one (exit 1).
Prints TAP.
"""
import argparse
import json
import os
import shutil
import subprocess
import tempfile

from jvms_folders import thread_folders
from jvms_tap import Tap

ROW_HEIGHT = {"gc-workers": 16, "jit": 20}
LEGEND = 18
GUTTER = 180


def read_png(path):
    ppm = subprocess.run(["convert", path, "ppm:-"], check=True, capture_output=True).stdout
    magic, size, _max, data = ppm.split(b"\n", 3)
    assert magic == b"P6"
    w, h = map(int, size.split())
    return w, h, data


def coloured(img, x0, y0, x1, y1):
    w, h, data = img
    n = 0
    for y in range(max(y0, 0), min(y1, h)):
        for x in range(max(x0, 0), min(x1, w)):
            i = (y * w + x) * 3
            r, g, b = data[i], data[i + 1], data[i + 2]
            # A colour, or the dark mark of several intervals in a pixel: not the background.
            if max(r, g, b) - min(r, g, b) >= 60 or max(r, g, b) < 120:
                n += 1
    return n




def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--dump", required=True)
    ap.add_argument("--sample", required=True)
    args = ap.parse_args()
    tap = Tap()
    tmp = tempfile.mkdtemp(prefix="jvms-render-")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"), GTK_A11Y="none")
    try:
        def render(*extra, e=env):
            return subprocess.run([args.cli, "render", args.sample, *extra], capture_output=True,
                                  text=True, env=e)

        index = json.loads(subprocess.run([args.cli, "index", args.sample, "--json"], capture_output=True,
                                          text=True, env=env, check=True).stdout)["index"]
        workers = thread_folders(args.dump, index, "GC/workers", "task")
        compilers = thread_folders(args.dump, index, "JIT", "compilation")

        out = os.path.join(tmp, "whole.png")
        r = render("-o", out, "--views", "gc-workers,jit", "--width", "1200")
        if not tap.check(r.returncode == 0 and os.path.exists(out), "render writes the PNG",
                         r.stderr[-2000:]):
            return tap.done()
        img = read_png(out)
        ruler = img[1] - (2 * LEGEND + len(workers) * ROW_HEIGHT["gc-workers"]
                          + (len(compilers) + 1) * ROW_HEIGHT["jit"])
        tap.check(img[0] == 1200 and 20 <= ruler <= 60,
                  "the image is 1200 wide and as high as a ruler, two legends and the rows of %d "
                  "GC workers and %d compiler threads (ruler %d px)" % (len(workers), len(compilers), ruler),
                  img[:2])
        y = ruler + LEGEND
        rows = []
        for _ in workers:
            rows.append(coloured(img, GUTTER + 1, y + 2, img[0], y + ROW_HEIGHT["gc-workers"] - 2))
            y += ROW_HEIGHT["gc-workers"]
        y += LEGEND
        for _ in compilers:
            rows.append(coloured(img, GUTTER + 1, y + 2, img[0], y + ROW_HEIGHT["jit"] - 2))
            y += ROW_HEIGHT["jit"]
        deopt_whole = coloured(img, GUTTER + 1, y + 2, img[0], y + ROW_HEIGHT["jit"] - 2)
        tap.check(len(rows) >= 4 and min(rows) > 0, "every thread row draws its intervals %s" % rows)

        part = os.path.join(tmp, "part.png")
        r = render("-o", part, "--views", "gc-workers,jit", "--width", "1200", "--from", "1s", "--to", "2.5s")
        img2 = read_png(part) if r.returncode == 0 else (0, 0, b"")
        deopt_part = coloured(img2, GUTTER + 1, y + 2, img2[0], y + ROW_HEIGHT["jit"] - 2)
        tap.check(deopt_whole > 0 and deopt_part == 0 and img2[1] == img[1],
                  "--from 1s --to 2.5s draws that range: the deoptimizations (after 4 s) tick the whole "
                  "trace's row (%d px) and not this one (%d px)" % (deopt_whole, deopt_part))

        svg = os.path.join(tmp, "views.svg")
        r = render("-o", svg, "--views", "jit")
        head = open(svg, "rb").read(200) if os.path.exists(svg) else b""
        tap.check(r.returncode == 0 and b"<svg" in head, "an .svg name writes SVG", r.stderr[-500:])

        r = render("-o", out, "--views", "jit,nosuch")
        tap.check(r.returncode == 2 and "nosuch" in r.stderr and "gc-workers" in r.stderr,
                  "an unknown view is refused, named with the views there are", r.stderr)
        no_display = {k: v for k, v in env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        r = render("-o", out, e=no_display)
        tap.check(r.returncode == 1 and "display" in r.stderr,
                  "without a display render says it needs one", (r.returncode, r.stderr[-500:]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tap.done()


if __name__ == "__main__":
    main()
