#!/usr/bin/env python3
"""The window in French: `jvmscope` under LANG=fr_FR.UTF-8 (issue 9), read through AT-SPI.

The window is started in Xvfb on the bundled sample trace, in a D-Bus session of its own with
the accessibility bus, with LANG=fr_FR.UTF-8 and no LC_ALL/LANGUAGE. Once the trace is indexed
(JVMSCOPE_DEBUG_DUMP_STATE says so), the accessible tree that AT-SPI gives a screen reader is
walked: every name, description and text. The oracle is po/fr.po: the strings shown must
include French translations of our messages, and no English message that has a different
French translation may show. A screenshot of the screen is taken and its path printed.

The program run from the build tree binds its text domain to the build tree's po/ folder
(app/window/jvmscope-main.c), so the catalogue built beside it is the one it must use, with nothing
installed.
"""
import argparse
import configparser
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from jvms_tap import Tap

# The test needs a D-Bus session of its own for the accessibility bus. The AT-SPI registry that
# the session starts writes to the session's stdout, which would mix with the TAP stream: so the
# test re-runs itself inside `dbus-run-session` with that stdout sent to stderr, and the inner
# run writes its TAP to a file that the outer one prints.
# The accessibility bus's socket goes under XDG_RUNTIME_DIR, or ~/.cache/at-spi/ when that is not
# set (CI runs as root with no login session): there every test session with an accessibility
# bus shares one socket path, and a session that ends removes the socket another one's client is
# about to connect to (CI: "dbind-ERROR: Couldn't connect to accessibility bus", the test
# aborted). The inner run gets a runtime folder of its own.
if "JVMS_APP_FR_TAP" not in os.environ:
    fd, tap_path = tempfile.mkstemp(prefix="jvms-app-fr-tap-")
    os.close(fd)
    runtime = tempfile.mkdtemp(prefix="jvms-app-fr-run-")  # mode 0700, as the spec asks
    inner = subprocess.run(["dbus-run-session", "--", sys.executable] + sys.argv,
                           env=dict(os.environ, JVMS_APP_FR_TAP=tap_path, XDG_RUNTIME_DIR=runtime),
                           stdout=sys.stderr)
    with open(tap_path) as f:
        sys.stdout.write(f.read())
    os.unlink(tap_path)
    shutil.rmtree(runtime, ignore_errors=True)
    sys.exit(inner.returncode)
sys.stdout = open(os.environ["JVMS_APP_FR_TAP"], "w", buffering=1)

ap = argparse.ArgumentParser()
ap.add_argument("--jvmscope", required=True)
ap.add_argument("--build-root", required=True)
ap.add_argument("--source-root", required=True)
ap.add_argument("--gettext-package", required=True)
ap.add_argument("--keep", help="copy the screenshot here")
args = ap.parse_args()

# The window tests' display and environment (tests/app/test-window.py).
_spec = importlib.util.spec_from_file_location(
    "test_window", os.path.join(args.source_root, "tests", "app", "test-window.py"))
tw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tw)

TIMEOUT = 180.0
tap = Tap()
tmp = tempfile.mkdtemp(prefix="jvms-app-fr-")


def po_pairs(path):
    """(msgid, msgstr) of every translated, non-fuzzy entry; plural forms included."""
    text = open(path, encoding="utf-8").read()
    pairs = []
    for block in text.split("\n\n"):
        if "#, fuzzy" in block:
            continue
        fields = {}
        key = None
        for line in block.splitlines():
            m = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d+\])?|msgctxt) "(.*)"$', line)
            if m:
                key = m.group(1)
                fields[key] = m.group(2)
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]
        if not fields.get("msgid"):
            continue
        unescape = lambda s: s.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")
        ids = [fields["msgid"]] + ([fields["msgid_plural"]] if "msgid_plural" in fields else [])
        strs = [v for k, v in fields.items() if k.startswith("msgstr") and v]
        for i in ids:
            for s in strs:
                pairs.append((unescape(i), unescape(s)))
    return pairs


def visible_forms(s):
    """A message as a widget shows it: mnemonic underscores gone, printf holes make it a prefix."""
    s = s.replace("_", "")
    return s


def wait_for(pred, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(0.25)
    return pred()


def accessible_strings(app_name_hint):
    """Every name, description and text in the accessible tree of our application."""
    import warnings
    import gi
    gi.require_version("Atspi", "2.0")
    warnings.simplefilter("ignore", DeprecationWarning)  # get_text_iface: the 2.46 way still
    from gi.repository import Atspi

    desktop = Atspi.get_desktop(0)
    apps = [desktop.get_child_at_index(i) for i in range(desktop.get_child_count())]
    ours = [a for a in apps if a is not None and app_name_hint in (a.get_name() or "").lower()]
    found = []
    roles = set()
    nodes = set()  # (role, name)

    def walk(node, depth):
        if node is None or depth > 60:
            return
        try:
            for s in (node.get_name(), node.get_description()):
                if s:
                    found.append(s)
            roles.add(node.get_role_name())
            nodes.add((node.get_role_name(), node.get_name() or ""))
            text = node.get_text_iface()
            if text is not None:
                t = Atspi.Text.get_text(text, 0, Atspi.Text.get_character_count(text))
                if t:
                    found.append(t)
            for i in range(node.get_child_count()):
                walk(node.get_child_at_index(i), depth + 1)
        except Exception:  # a node that went away while walked
            return

    for a in ours:
        walk(a, 0)
    return [a.get_name() for a in apps if a is not None], found, roles, nodes


xvfb = None
app = None
try:
    # -------------------------------------------------------------- the catalogue at LOCALEDIR
    mo = os.path.join(args.build_root, "po", "fr", "LC_MESSAGES", args.gettext_package + ".mo")
    if not tap.check(os.path.isfile(mo), "the French catalogue is built: " + mo):
        tap.done()

    locales = subprocess.run(["locale", "-a"], stdout=subprocess.PIPE, text=True).stdout.split()
    if not tap.check(any(l.lower() in ("fr_fr.utf8", "fr_fr.utf-8") for l in locales),
                     "the fr_FR.UTF-8 locale is generated (scripts/install-deps.sh)", " ".join(locales)):
        tap.done()

    # -------------------------------------------------------------- the window, in French
    xvfb, display = tw.start_xvfb()
    state_path = os.path.join(tmp, "state.ini")
    # French from LANG alone, and the accessibility bus that AT-SPI reads.
    env = tw.window_env(display, os.path.join(args.build_root, "data"), tmp, state=state_path,
                        LANG="fr_FR.UTF-8", LC_ALL=None, LANGUAGE=None, LC_MESSAGES=None,
                        GTK_A11Y=None, NO_AT_BRIDGE=None)
    trace = os.path.join(args.source_root, "data", "sample", "sample.jvmtrace")
    log_path = os.path.join(tmp, "jvmscope.log")
    log = open(log_path, "w")
    app = subprocess.Popen([args.jvmscope, trace], env=env, stdout=log, stderr=subprocess.STDOUT)

    def loaded():
        cp = configparser.ConfigParser(interpolation=None)
        try:
            with open(state_path, encoding="utf-8") as f:
                cp.read_file(f)
            w = cp["window"]
            return w.get("page") == "trace" and w.get("loading") == "false" and cp["views"].get("complete") == "true"
        except (OSError, KeyError, configparser.Error):
            return False

    ok = wait_for(loaded)
    tap.check(ok and app.poll() is None, "jvmscope opens the sample trace under LANG=fr_FR.UTF-8",
              open(log_path).read()[-2000:])

    # -------------------------------------------------------------- what a screen reader reads
    pairs = po_pairs(os.path.join(args.source_root, "po", "fr.po"))
    french = {visible_forms(s) for i, s in pairs if visible_forms(s) != visible_forms(i)}
    english = {visible_forms(i) for i, s in pairs if visible_forms(s) != visible_forms(i)}
    names, strings, nodes = [], [], set()

    def collect():
        apps, found, _, seen = accessible_strings("jvmscope")
        names[:] = apps
        strings[:] = found
        nodes.clear()
        nodes.update(seen)
        return any(s in french for s in found)

    wait_for(collect, timeout=60)
    shown = set(strings)
    fr_shown = sorted(shown & french)
    # "Threads" is both the msgid of "_Threads" (the menu: "_Fils d’exécution") and kept as is
    # for the view's title: an English string that is also a French translation is fine.
    all_fr = {visible_forms(s) for i, s in pairs}
    en_shown = sorted((shown & english) - all_fr)
    tap.note("AT-SPI applications: %s" % ", ".join(n or "?" for n in names))
    tap.note("%d accessible strings; French ones from fr.po: %s" % (len(shown), "; ".join(fr_shown[:40])))
    tap.check(len(fr_shown) >= 5, "at least 5 of our French messages are shown (%d)" % len(fr_shown),
              "shown: %s" % sorted(shown)[:80])
    tap.check(not en_shown, "no English message that has a French translation is shown", en_shown)

    # The main widgets by role and name, as a screen reader finds them: each timeline view's
    # header (widgets/jvms-view-catalog.c, the window shows them all by default) a push button
    # named by its French title, and the profiler pane's four trees as tree tables.
    catalog = open(os.path.join(args.source_root, "widgets", "jvms-view-catalog.c"), encoding="utf-8").read()
    titles = re.findall(r'\{ "[a-z-]+", N_\("([^"]+)"\)', catalog)
    fr_of = dict(pairs)
    want = [("push button", fr_of.get(t, t)) for t in titles]
    missing = [w for w in want if w not in nodes]
    tap.check(len(titles) >= 12 and not missing,
              "AT-SPI: the %d views' headers are push buttons named by their French titles" % len(titles),
              "missing %s; push buttons: %s" % (missing, sorted(n for r, n in nodes if r == "push button")[:60]))
    trees = [n for r, n in nodes if r == "tree table"]
    want_trees = [fr_of.get(t, t) for t in ("Call tree", "Methods", "Callers of the selected method",
                                            "Callees of the selected method")]
    tap.check(all(t in trees for t in want_trees),
              "AT-SPI: the profiler's call tree, methods, callers and callees are tree tables by name",
              "tree tables: %s, wanted %s" % (trees, want_trees))

    shot = os.path.join(tmp, "jvmscope-fr.png")
    r = subprocess.run(["import", "-window", "root", shot], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    tap.check(r.returncode == 0 and os.path.getsize(shot) > 10000, "screenshot taken: " + shot, r.stdout)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        shutil.copy(shot, args.keep)
        tap.note("screenshot kept in " + os.path.join(args.keep, os.path.basename(shot)))
finally:
    if app is not None and app.poll() is None:
        app.terminate()
        try:
            app.wait(timeout=10)
        except subprocess.TimeoutExpired:
            app.kill()
    if xvfb is not None:
        xvfb.terminate()
        xvfb.wait()
    shutil.rmtree(tmp, ignore_errors=True)

tap.done()
