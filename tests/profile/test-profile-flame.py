#!/usr/bin/env python3
"""jvmscope-cli profile --flame: the flame graph written as SVG and PNG by the window's drawing
code (widgets/jvms-flame-paint.c) shows the frames of `profile --json` for the same range,
threads and kind. The oracle lays the JSON tree out naively (an icicle: each node below its
parent, as wide as its total, children heaviest first from the parent's left edge, frames under
half a pixel left out with their younger siblings and everything below) and every frame of the
SVG must be there, with the method in its tooltip, the 1-pixel gap, and its label the method
without its package; none may be extra. On the bundled sample (JDK, with a kernel layer) and on
the shared async-profiler recording (deep stacks). Prints TAP.
"""
import argparse
import gzip
import json
import os
import shutil
import struct
import subprocess
import tempfile
import xml.etree.ElementTree as ET

from jvms_tap import Tap

ROW_H = 18
MIN_WIDTH = 0.5
LABEL_MIN_WIDTH = 28
SVG = "{http://www.w3.org/2000/svg}"


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)


def expected_frames(tree_json, width):
    """(row, x, drawn width, method) of every frame, by the naive layout."""
    root = {"frame": None, "total": tree_json["total"], "children": tree_json["tree"]}
    frames = []
    scale = width / root["total"] if root["total"] > 0 else 0

    def walk(node, row, x, w):
        frames.append((row, x, w - 1 if w >= 3 else w, node["frame"]))
        elder = 0
        for child in node.get("children", []):
            cw = child["total"] * scale
            if cw < MIN_WIDTH or cw <= 0:
                break  # heaviest first: the younger ones are narrower still
            walk(child, row + 1, x + elder * scale, cw)
            elder += child["total"]

    walk(root, 0, 0.0, float(width))
    return frames


def svg_frames(path):
    """(row, x, width, method, label) of every frame group of the SVG, and its height."""
    root = ET.parse(path).getroot()
    frames = []
    for g in root.findall(SVG + "g"):
        title = g.find(SVG + "title").text
        rect = g.find(SVG + "rect")
        text = g.find(SVG + "svg/" + SVG + "text")
        y = float(rect.get("y"))
        frames.append((round(y / ROW_H), float(rect.get("x")), float(rect.get("width")),
                       title.split("\n")[0], text.text if text is not None else None,
                       float(g.find(SVG + "svg").get("width")) if text is not None else None))
    return frames, int(float(root.get("height"))), float(root.get("width"))


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def compare(tap, name, json_text, svg_path, png_path, width):
    tree = json.loads(json_text)
    want = expected_frames(tree, width)
    got, height, svg_width = svg_frames(svg_path)
    problems = []
    if svg_width != width:
        problems.append("the SVG is %s wide, not %d" % (svg_width, width))
    if len(got) != len(want):
        problems.append("%d frames in the SVG, %d by the JSON tree" % (len(got), len(want)))
    # The SVG lists rows top down, left to right; the walk is depth first.
    want_sorted = sorted(want, key=lambda f: (f[0], f[1]))
    for w, g in zip(want_sorted, got):
        row, x, fill, method = w
        grow, gx, gfill, gmethod, label, label_width = g
        if row != grow or abs(x - gx) > 0.002 or abs(fill - gfill) > 0.002:
            problems.append("frame %s: row %d x %.3f width %.3f in the SVG, %d %.3f %.3f by the JSON"
                            % (method, grow, gx, gfill, row, x, fill))
        if method is None:
            if not gmethod.startswith("All"):
                problems.append("the root's tooltip is %r" % gmethod)
            continue
        if gmethod != method:
            problems.append("row %d x %.3f: %r in the SVG, %r in the JSON" % (row, x, gmethod, method))
        drawn_width = fill + 1 if fill >= 2 else fill
        if (label is not None) != (drawn_width >= LABEL_MIN_WIDTH):
            problems.append("frame %s %.1f px wide: label %r" % (method, drawn_width, label))
        elif label is not None:
            # The method without its package: a suffix that starts after a dot, or all of it.
            if not (label == method or (method.endswith(label) and method[-len(label) - 1] == ".")) \
                    or label == "":
                problems.append("frame %s is labelled %r" % (method, label))
            if abs(label_width - (drawn_width - 6)) > 0.002:
                problems.append("frame %s: its label is clipped at %.3f px" % (method, label_width))
        if len(problems) > 10:
            break
    rows = 1 + max(row_of_deepest(tree["tree"]), 0)
    if height != rows * ROW_H:
        problems.append("the SVG is %d pixels high, %d rows of %d by the JSON tree" % (height, rows, ROW_H))
    tap.check(not problems and len(got) > 1,
              "%s: the SVG's %d frames are the JSON tree's (positions, widths, methods, labels)" % (name, len(got)),
              "\n".join(problems[:10]))
    size = png_size(png_path)
    tap.check(size == (width, height), "%s: the PNG is %s, as the SVG (%d x %d)" % (name, size, width, height))


def row_of_deepest(nodes, depth=1):
    deepest = 0
    for n in nodes:
        deepest = max(deepest, depth, row_of_deepest(n.get("children", []), depth + 1))
    return deepest


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--sample", required=True)
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    tap = Tap()
    work = tempfile.mkdtemp(prefix="jvmscope-profile-flame-")
    try:
        profiler_file = os.path.join(work, "async-profiler.jfr")
        with gzip.open(os.path.join(args.shared, "testdata", "jfr", "async-profiler.jfr.gz")) as src, \
                open(profiler_file, "wb") as dst:
            shutil.copyfileobj(src, dst)
        cache = os.path.join(work, "cache")
        cases = [
            ("sample, whole trace", args.sample, [], 1200),
            ("sample, 1 s to 3.5 s", args.sample, ["--from", "1", "--to", "3.5"], 900),
            ("sample, thread compute-0", args.sample, ["--thread", "compute-0"], 1200),
            ("sample, alloc kind", args.sample, ["--kind", "alloc", "--from", "0.5"], 1600),
            ("async-profiler, whole trace", profiler_file, [], 1200),
            ("async-profiler, 10 s to 20 s, allocations", profiler_file,
             ["--from", "10", "--to", "20", "--kind", "alloc"], 2000),
        ]
        for i, (name, trace, extra, width) in enumerate(cases):
            base = [args.cli, "profile", trace, "--cache-dir", cache] + extra
            svg = os.path.join(work, "flame-%d.svg" % i)
            png = os.path.join(work, "flame-%d.png" % i)
            r_json = run(base + ["--json"])
            r_svg = run(base + ["--flame", svg, "--width", str(width)])
            r_png = run(base + ["--flame", png, "--width", str(width), "--dark"])
            if not tap.check(r_json.returncode == 0 and r_svg.returncode == 0 and r_png.returncode == 0
                             and r_svg.stdout == "",
                             "%s: profile --json, --flame SVG and PNG" % name,
                             r_json.stderr + r_svg.stderr + r_png.stderr + r_svg.stdout):
                continue
            compare(tap, name, r_json.stdout, svg, png, width)
        r = run([args.cli, "profile", args.sample, "--cache-dir", cache, "--flame",
                 os.path.join(work, "no-such-dir", "x.svg")])
        tap.check(r.returncode == 1 and "no-such-dir" in r.stderr,
                  "a flame graph that cannot be written: exit 1, the error names the file", r.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tap.done()


if __name__ == "__main__":
    main()
