#!/usr/bin/env python3
"""No file includes a layer above its own (DEVELOPERS.md, docs/architecture.md).

The floors, bottom up: state-history/ and readers/ (neither knows the other), analysis/,
widgets/, app/. Inside app/ the three rooms are siblings with one allowed direction: the window
and the CLI use the recorder library; the recorder uses neither, and the window and the CLI do
not use each other. bench/ and tests/ stand outside the floors and may use any.

Every `#include "name.h"` of a C file or header is resolved to the header of that name in the
tree (a name defined on two floors is itself a finding: the include would be ambiguous);
headers the build generates (config.h, resources) are not in the tree and are passed over.
The check is honest by construction: --self-test runs it on a copy of the tree with one
forbidden include added per case, and each must be reported.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

from jvms_tap import Tap

# (folder prefix, floor). Rooms of app/ share a floor; ALLOWED_ROOMS says who may use whom.
FLOORS = [
    ("state-history/", 0),
    ("readers/", 0),
    ("analysis/", 1),
    ("widgets/", 2),
    ("app/", 3),
]
ROOMS = ("app/window/", "app/cli/", "app/recorder/")
ALLOWED_ROOMS = {
    "app/window/": {"app/window/", "app/recorder/"},
    "app/cli/": {"app/cli/", "app/recorder/"},
    "app/recorder/": {"app/recorder/"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def floor_of(rel):
    for prefix, floor in FLOORS:
        if rel.startswith(prefix):
            return prefix, floor
    return None, None


def room_of(rel):
    return next((r for r in ROOMS if rel.startswith(r)), None)


def sources(root):
    for prefix, _ in FLOORS:
        top = os.path.join(root, prefix)
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "build")))
            for name in sorted(filenames):
                if name.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def check(root):
    """Returns (files read, includes resolved, findings)."""
    headers = {}
    files = list(sources(root))
    for rel in files:
        if rel.endswith(".h"):
            headers.setdefault(os.path.basename(rel), []).append(rel)
    findings = []
    resolved = 0
    for rel in files:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        _, floor = floor_of(rel)
        room = room_of(rel)
        for m in INCLUDE.finditer(text):
            name = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            # "dir/name.h" and "name.h" both resolve by the file's own name.
            candidates = headers.get(os.path.basename(name), [])
            if not candidates:
                continue
            here = os.path.join(os.path.dirname(rel), name)
            if os.path.normpath(here) in candidates:
                candidates = [os.path.normpath(here)]
            floors = {floor_of(c)[1] for c in candidates}
            if len(floors) > 1:
                findings.append("%s:%d: \"%s\" names headers on two floors: %s" % (rel, line, name, ", ".join(candidates)))
                continue
            target = candidates[0]
            resolved += 1
            target_floor = floor_of(target)[1]
            if target_floor > floor:
                findings.append("%s:%d: includes %s, a floor above its own" % (rel, line, target))
            elif target_floor == floor == 0 and floor_of(target)[0] != floor_of(rel)[0]:
                findings.append("%s:%d: includes %s: state-history/ and readers/ know nothing of each other" % (rel, line, target))
            elif room is not None and room_of(target) is not None and room_of(target) not in ALLOWED_ROOMS[room]:
                findings.append("%s:%d: includes %s: %s may not use %s" % (rel, line, target, room, room_of(target)))
    return len(files), resolved, findings


def first_file(root, prefix, ext):
    return next(rel for rel in sources(root) if rel.startswith(prefix) and rel.endswith(ext))


def self_test(root, tap):
    """Each forbidden include, added to a copy of the tree, is found, and only it."""
    some_widget_h = os.path.basename(first_file(root, "widgets/", ".h"))
    some_analysis_h = os.path.basename(first_file(root, "analysis/", ".h"))
    some_window_h = os.path.basename(first_file(root, "app/window/", ".h"))
    some_cli_h = os.path.basename(first_file(root, "app/cli/", ".h"))
    some_reader_h = os.path.basename(first_file(root, "readers/", ".h"))
    cases = [
        ("analysis/", some_widget_h, "a floor above"),
        ("state-history/", some_analysis_h, "a floor above"),
        ("widgets/", some_window_h, "a floor above"),
        ("app/recorder/", some_window_h, "may not use"),
        ("app/window/", some_cli_h, "may not use"),
        ("state-history/", some_reader_h, "know nothing of each other"),
    ]
    for where, header, expect in cases:
        with tempfile.TemporaryDirectory(prefix="jvms-layers-") as tmp:
            for prefix, _ in FLOORS:
                shutil.copytree(os.path.join(root, prefix), os.path.join(tmp, prefix),
                                ignore=shutil.ignore_patterns("build*", ".*"))
            victim = first_file(tmp, where, ".c")
            with open(os.path.join(tmp, victim), "a", encoding="utf-8") as f:
                f.write('\n#include "%s"\n' % header)
            _, _, found = check(tmp)
            tap.check(len(found) == 1 and victim in found[0] and expect in found[0],
                      "self-test: %s including %s is reported (%s)" % (victim, header, expect),
                      "\n".join(found) or "nothing reported")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source-root", required=True)
    a = ap.parse_args()
    tap = Tap()
    n, resolved, findings = check(a.source_root)
    tap.note("%d files read, %d includes of the tree's own headers resolved" % (n, resolved))
    tap.check(n > 100 and resolved > 300, "the tree's sources and their includes were read",
              "%d files, %d includes" % (n, resolved))
    tap.check(not findings, "no file includes a layer above its own, and app/'s rooms keep their direction",
              "\n".join(findings))
    self_test(a.source_root, tap)
    tap.done()


if __name__ == "__main__":
    main()
