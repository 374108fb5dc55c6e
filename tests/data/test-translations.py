#!/usr/bin/env python3
"""Every language in po/LINGUAS translates every current string, with no fuzzy entry.

The template is regenerated from po/POTFILES.in into a temporary folder with the same
xgettext keywords and flags as meson's i18n.gettext(preset: 'glib'), each .po is merged
with it (msgmerge, as `meson compile jvmscope-update-po` would), and msgfmt --check
--statistics counts what is left. Nothing is written into the source tree.
"""
import argparse
import os
import re
import subprocess
import tempfile

from jvms_tap import Tap

# meson's glib preset (mesonbuild/modules/i18n.py PRESET_ARGS['glib']).
XGETTEXT_GLIB = [
    "--from-code=UTF-8", "--add-comments",
    "--keyword=_", "--keyword=N_", "--keyword=C_:1c,2", "--keyword=NC_:1c,2",
    "--keyword=g_dcgettext:2", "--keyword=g_dngettext:2,3", "--keyword=g_dpgettext2:2c,3",
    "--flag=N_:1:pass-c-format", "--flag=C_:2:pass-c-format", "--flag=NC_:2:pass-c-format",
    "--flag=g_dngettext:2:pass-c-format", "--flag=g_strdup_printf:1:c-format",
    "--flag=g_string_printf:2:c-format", "--flag=g_string_append_printf:2:c-format",
    "--flag=g_error_new:3:c-format", "--flag=g_set_error:4:c-format",
    "--flag=g_markup_printf_escaped:1:c-format", "--flag=g_log:3:c-format",
    "--flag=g_print:1:c-format", "--flag=g_printerr:1:c-format", "--flag=g_printf:1:c-format",
    "--flag=g_fprintf:2:c-format", "--flag=g_sprintf:2:c-format", "--flag=g_snprintf:3:c-format",
]
STATS = re.compile(r"(\d+) translated messages?(?:, (\d+) fuzzy translations?)?"
                   r"(?:, (\d+) untranslated messages?)?")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def linguas(po_dir):
    langs = []
    with open(os.path.join(po_dir, "LINGUAS"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0]
            langs.extend(line.split())
    return langs


def count_messages(pot):
    with open(pot, encoding="utf-8") as f:
        return sum(1 for line in f if line.startswith("msgid ")) - 1  # minus the header


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-root", required=True)
    args = parser.parse_args()
    root = args.source_root
    po_dir = os.path.join(root, "po")
    tap = Tap()

    with tempfile.TemporaryDirectory(prefix="jvms-po-") as tmp:
        pot = os.path.join(tmp, "jvmscope.pot")
        r = run(["xgettext", "--package-name=jvmscope", "--directory=" + root,
                 "--files-from=" + os.path.join(po_dir, "POTFILES.in"), "--output=" + pot]
                + XGETTEXT_GLIB)
        if not tap.check(r.returncode == 0 and os.path.isfile(pot), "xgettext regenerates the template",
                         r.stderr):
            tap.done()
        n = count_messages(pot)
        tap.check(n > 0, "the template holds the current strings (%d)" % n)

        langs = linguas(po_dir)
        tap.check("fr" in langs, "LINGUAS lists fr", " ".join(langs))
        for lang in langs:
            po = os.path.join(po_dir, lang + ".po")
            if not tap.check(os.path.isfile(po), "%s.po exists" % lang):
                continue
            r = run(["msgfmt", "--check", "--output-file=/dev/null", po])
            tap.check(r.returncode == 0, "%s.po passes msgfmt --check (formats, header)" % lang, r.stderr)

            merged = os.path.join(tmp, lang + ".po")
            r = run(["msgmerge", "--quiet", "--no-fuzzy-matching", "--output-file=" + merged, po, pot])
            if not tap.check(r.returncode == 0, "%s.po merges with the current template" % lang, r.stderr):
                continue
            r = run(["msgfmt", "--check", "--statistics", "--output-file=/dev/null", merged],
                    env=dict(os.environ, LC_ALL="C"))
            m = STATS.search(r.stderr)
            translated = int(m.group(1)) if m else 0
            fuzzy = int(m.group(2) or 0) if m else -1
            untranslated = int(m.group(3) or 0) if m else -1
            tap.check(r.returncode == 0 and m is not None and translated == n,
                      "%s: all %d current strings translated" % (lang, n),
                      "msgfmt says: " + r.stderr.strip() +
                      "\nupdate with: meson compile -C <build> jvmscope-update-po, then translate")
            tap.check(fuzzy == 0, "%s: no fuzzy translation" % lang, r.stderr.strip())
            tap.check(untranslated == 0, "%s: no untranslated string" % lang, r.stderr.strip())
    tap.done()


if __name__ == "__main__":
    main()
