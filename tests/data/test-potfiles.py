#!/usr/bin/env python3
"""po/POTFILES.in must list every source file that marks strings for translation.

A file under app/, widgets/ or analysis/ that calls _(), N_(), C_(), NC_(), Q_(),
g_dngettext() or friends, or has translatable="yes" (GtkBuilder .ui), and is missing from
POTFILES.in would ship untranslated: xgettext never sees it. Every listed file must exist
(xgettext fails otherwise) and the list stays sorted so merges do not fight over it.
"""
import argparse
import os
import re

from jvms_tap import Tap

SCANNED = ("app", "widgets", "analysis")
MARKERS = re.compile(
    r"(?<![A-Za-z0-9_])(?:_|N_|C_|NC_|Q_)\s*\("
    r"|(?<![A-Za-z0-9_])(?:g_dngettext|g_dpgettext2|g_dcgettext|g_dgettext|ngettext|dngettext)\s*\("
    r'|translatable\s*=\s*"yes"'
)
C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def read_potfiles(path):
    entries = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                entries.append(line)
    return entries


def marks_strings(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (UnicodeDecodeError, OSError):
        return False
    if path.endswith((".c", ".h")):
        # A comment that mentions _() is not a translatable string.
        text = C_COMMENT.sub(" ", text)
    return MARKERS.search(text) is not None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-root", required=True)
    args = parser.parse_args()
    root = args.source_root
    tap = Tap()

    potfiles = os.path.join(root, "po", "POTFILES.in")
    entries = read_potfiles(potfiles)
    tap.check(len(entries) > 0, "POTFILES.in lists files", potfiles)

    missing_files = [e for e in entries if not os.path.isfile(os.path.join(root, e))]
    tap.check(not missing_files, "every file in POTFILES.in exists",
              "listed but absent:\n" + "\n".join(missing_files))

    tap.check(entries == sorted(entries), "POTFILES.in is sorted",
              "expected order:\n" + "\n".join(sorted(entries)))
    dups = sorted({e for e in entries if entries.count(e) > 1})
    tap.check(not dups, "POTFILES.in has no duplicates", "\n".join(dups))

    marking = []
    for top in SCANNED:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if not name.endswith((".c", ".h", ".ui")):
                    continue
                path = os.path.join(dirpath, name)
                if marks_strings(path):
                    marking.append(os.path.relpath(path, root))
    tap.note("%d source files mark translatable strings" % len(marking))
    unlisted = [m for m in marking if m not in entries]
    tap.check(not unlisted, "every source file with translatable strings is in POTFILES.in",
              "add to po/POTFILES.in:\n" + "\n".join(unlisted))

    # A listed source that no longer marks anything is harmless to xgettext but is a sign the
    # list has drifted; data files (desktop, metainfo, schema) are marked by ITS rules instead.
    stale = [e for e in entries
             if e.startswith(tuple(d + "/" for d in SCANNED))
             and os.path.isfile(os.path.join(root, e)) and e not in marking]
    tap.check(not stale, "every listed source file still marks strings",
              "remove from po/POTFILES.in:\n" + "\n".join(stale))
    tap.done()


if __name__ == "__main__":
    main()
