#!/usr/bin/env python3
"""The POTFILES, translation and Flatpak checkers catch the mistakes they exist for.

Each case copies the parts of the source tree a checker reads into a temporary folder, makes
one mistake there (a new file with _() left out of POTFILES.in, a changed string, a fuzzy
entry, a dependency() the manifest does not provide, a network permission, an unknown -D
option, a misspelt manifest key), runs the checker on the copy and requires that it fails on
the check named for that mistake, and only there.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from jvms_tap import Tap

HERE = os.path.dirname(os.path.abspath(__file__))
APP_ID = "org.jvmscope.Jvmscope"


def copy_tree(root, dest):
    """What the checkers read: sources, po/, flatpak/, the meson files, and data/'s own top-level
    files (not its sample traces)."""
    for d in ("app", "po", "flatpak", "widgets", "analysis"):
        src = os.path.join(root, d)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dest, d))
    os.makedirs(os.path.join(dest, "data"))
    for name in os.listdir(os.path.join(root, "data")):
        src = os.path.join(root, "data", name)
        if os.path.isfile(src) and os.path.getsize(src) < 1 << 20:
            shutil.copy(src, os.path.join(dest, "data", name))
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "build"))]
        for name in filenames:
            if name in ("meson.build", "meson_options.txt"):
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                os.makedirs(os.path.join(dest, os.path.dirname(rel)), exist_ok=True)
                shutil.copy(os.path.join(dirpath, name), os.path.join(dest, rel))


def run_checker(script, tree):
    cmd = [sys.executable, os.path.join(HERE, script), "--source-root", tree]
    if script == "test-flatpak-manifest.py":
        cmd += ["--app-id", APP_ID]
    r = subprocess.run(cmd, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=HERE))
    failed = re.findall(r"^not ok \d+ - (.*)$", r.stdout, re.M)
    return r.returncode, failed


def edit(path, fn):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    new = fn(text)
    assert new != text, "the mistake was not made in %s" % path
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)


def edit_manifest(tree, fn):
    path = os.path.join(tree, "flatpak", APP_ID + ".json")
    with open(path, encoding="utf-8") as f:
        m = json.load(f)
    fn(m)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(m, f, indent=2)


def new_source(tree, rel, text):
    path = os.path.join(tree, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def fuzzy_first(text):
    # Mark the first real entry fuzzy, as msgmerge does when a string changes a little.
    i = text.index('\n#: ')
    j = text.index('\nmsgid ', i)
    return text[:j] + "\n#, fuzzy" + text[j:]


CASES = [
    ("a widget with _() missing from POTFILES.in", "test-potfiles.py",
     lambda t: new_source(t, "widgets/jvms-new-view.c", 'const char *x (void) { return _("Threads"); }\n'),
     "every source file with translatable strings is in POTFILES.in"),
    ("a .ui file with translatable=\"yes\" missing from POTFILES.in", "test-potfiles.py",
     lambda t: new_source(t, "app/window/jvms-planted-dialog.ui",
                          '<interface><object class="GtkLabel"><property name="label" '
                          'translatable="yes">Open</property></object></interface>\n'),
     "every source file with translatable strings is in POTFILES.in"),
    ("POTFILES.in names a file that is gone", "test-potfiles.py",
     lambda t: edit(os.path.join(t, "po", "POTFILES.in"), lambda s: s + "app/window/jvms-gone.c\n"),
     "every file in POTFILES.in exists"),
    ("a changed source string without its French translation", "test-translations.py",
     lambda t: edit(os.path.join(t, "app", "cli", "jvmscope-cli.c"),
                    lambda s: s.replace('N_("Print the version of jvmscope-cli")',
                                        'N_("Print the version and exit")')),
     "fr: no untranslated string"),
    ("a fuzzy entry left in fr.po", "test-translations.py",
     lambda t: edit(os.path.join(t, "po", "fr.po"), fuzzy_first),
     "fr: no fuzzy translation"),
    ("a dependency() that neither the runtime nor the manifest provides", "test-flatpak-manifest.py",
     lambda t: edit(os.path.join(t, "meson.build"),
                    lambda s: s + "\ndw_dep = dependency('libdw')\n"),
     "every dependency() of meson.build is in the runtime or built by the manifest"),
    ("a network permission", "test-flatpak-manifest.py",
     lambda t: edit_manifest(t, lambda m: m["finish-args"].append("--share=network")),
     "finish-args grant no network, file system or host access"),
    ("host command execution for flatpak-spawn --host", "test-flatpak-manifest.py",
     lambda t: edit_manifest(t, lambda m: m["finish-args"].append("--talk-name=org.freedesktop.Flatpak")),
     "finish-args grant no network, file system or host access"),
    ("a -D option meson_options.txt does not declare", "test-flatpak-manifest.py",
     lambda t: edit_manifest(t, lambda m: m["modules"][-1]["config-opts"].append("-Dgtk_doc=false")),
     "jvmscope: option -Dgtk_doc=false exists in meson_options.txt or meson"),
    ("a misspelt manifest key", "test-flatpak-manifest.py",
     lambda t: edit_manifest(t, lambda m: m["modules"][0].__setitem__("config-opt", ["--foo"])),
     "flatpak-builder --show-manifest parses it without warnings"),
    ("a source without its checksum", "test-flatpak-manifest.py",
     lambda t: edit_manifest(t, lambda m: m["modules"][0]["sources"][0].pop("sha256")),
     "babeltrace2: source pinned by sha256"),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-root", required=True)
    args = parser.parse_args()
    tap = Tap()
    with tempfile.TemporaryDirectory(prefix="jvms-checkers-") as tmp:
        clean = os.path.join(tmp, "clean")
        copy_tree(args.source_root, clean)
        for script in ("test-potfiles.py", "test-translations.py", "test-flatpak-manifest.py"):
            rc, failed = run_checker(script, clean)
            tap.check(rc == 0 and not failed, "%s passes on an unchanged copy" % script, "\n".join(failed))
        for i, (what, script, mistake, expected) in enumerate(CASES):
            tree = os.path.join(tmp, "case%d" % i)
            shutil.copytree(clean, tree)
            mistake(tree)
            rc, failed = run_checker(script, tree)
            tap.check(rc != 0 and expected in failed, "%s catches %s" % (script, what),
                      "exit %d, failed checks: %s" % (rc, failed))
    tap.done()


if __name__ == "__main__":
    main()
