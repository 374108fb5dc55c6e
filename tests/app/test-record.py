#!/usr/bin/env python3
"""Record… in the real window under Xvfb, driven with real input (xdotool): docs/window.md,
"Recording from the window". Each case starts the program on the start page, opens the dialog
with Ctrl+R, types a command (tests/compare/Change.java, compiled here) and its working folder
into it, and presses Record:

  record        the recording runs (the dialog shows its elapsed time and size), ends when the
                JVM exits, and the bundle opens in the window, indexed, its views complete;
                a second recording, of a JVM that runs for a minute, is stopped by Quit
                (Ctrl+Q): the program writes the bundle (bundle.json's stop reason is "request")
                and exits. Between the two, a recording of 6 threads with "Compare with the
                open trace" switched on: when it is written, the comparison window opens with the
                trace shown as the baseline and the recording as the other, its kinds those of
                jvmscope-cli compare --json; the window still shows the baseline.
  attach        a JVM started by the test is found in the Attach tab's list (jcmd -l) by its
                pid and main class, chosen with a click and recorded for 3 s: the bundle, of
                that JVM in attach mode, opens, and the JVM runs on.
  faults        perf refused: the program runs with a PATH whose `perf record` fails as this
                machine's perf run as nobody fails (perf_event_paranoid): the dialog says that perf refused to
                start, that kernel events are not recorded and how to allow it, and the bundle
                (JFR only) opens and draws its threads; then a PATH that has java and jcmd but no
                perf: a JVM that exits at once (a bad argument): the dialog says perf is not
                installed and that the JVM exited with status 1, and what it recorded opens; Stop pressed at once ends the
                recording with a clear message and a bundle that opens with what was recorded,
                or none. Each in a program of its own, ended with Ctrl+Q.
Screenshots go to the test's folder (printed). Prints TAP."""
import importlib.util
import json
import os
import shutil
import subprocess
import tempfile
import time

from jvms_tap import Tap

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("test_window", os.path.join(HERE, "test-window.py"))
tw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tw)
# The comparison window's state as test-compare-window.py reads it.
_spec = importlib.util.spec_from_file_location("test_compare_window", os.path.join(HERE, "test-compare-window.py"))
cw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cw)


ints = tw.ints


def main():
    ap = tw.window_parser()
    ap.add_argument("--case", required=True)
    args = ap.parse_args()
    tap = Tap()
    tmp = tempfile.mkdtemp(prefix="jvmscope-record-window-")
    classes = os.path.join(tmp, "classes")
    r = subprocess.run(["javac", "-d", classes, os.path.join(args.source_root, "tests", "compare", "Change.java")],
                       capture_output=True, text=True)
    if not tap.check(r.returncode == 0, "Change.java compiles", r.stderr):
        return tap.done()
    xvfb, display = tw.start_xvfb()
    state = tw.State(os.path.join(tmp, "state.ini"))
    env = tw.window_env(display, args.schema_dir, tmp, "keyfile", state.path)
    app_env = dict(env)
    refusing_path = None
    if args.case == "faults":
        # java and jcmd, and nothing else: no perf.
        bin_dir = os.path.join(tmp, "bin")
        os.makedirs(bin_dir)
        for tool in ("java", "jcmd"):
            os.symlink(os.path.realpath(shutil.which(tool)), os.path.join(bin_dir, tool))
        app_env["PATH"] = bin_dir
        # java, jcmd and a perf whose `perf record` fails as the kernel refuses it: what this
        # machine's perf says when run as nobody (perf_event_paranoid 2), else that text as it
        # was seen here; its probes (--version, stat) run the real perf.
        refused = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "perf", "record",
                                  "-o", "/dev/null", "-a", "-e", "cpu-clock", "--", "true"],
                                 capture_output=True, text=True, cwd="/")
        text = refused.stderr if refused.returncode != 0 and "perf_event_paranoid" in refused.stderr else (
            "Error:\nAccess to performance monitoring and observability operations is limited.\n"
            "Consider adjusting /proc/sys/kernel/perf_event_paranoid setting to open\n"
            "access to performance monitoring and observability operations for processes\n"
            "without CAP_PERFMON, CAP_SYS_PTRACE or CAP_SYS_ADMIN Linux capability.\n"
            "perf_event_paranoid setting is 2:\n")
        refusing = os.path.join(tmp, "bin-refusing")
        os.makedirs(refusing)
        for tool in ("java", "jcmd"):
            os.symlink(os.path.realpath(shutil.which(tool)), os.path.join(refusing, tool))
        with open(os.path.join(refusing, "refusal.txt"), "w") as f:
            f.write(text)
        with open(os.path.join(refusing, "perf"), "w") as f:
            # Absolute paths: the PATH holds only this folder.
            f.write('#!/bin/sh\nif [ "$1" = record ]; then %s "%s" >&2; exit 255; fi\nexec %s "$@"\n'
                    % (shutil.which("cat"), os.path.join(refusing, "refusal.txt"), shutil.which("perf")))
        os.chmod(os.path.join(refusing, "perf"), 0o755)
        refusing_path = refusing
    log_path = os.path.join(tmp, "jvmscope.log")
    log = open(log_path, "w")
    app = None
    n_shot = [0]

    def xdo(*cmd):
        return subprocess.run(["xdotool", *cmd], env=env, capture_output=True, text=True)

    def shot(name):
        n_shot[0] += 1
        path = os.path.join(tmp, "%d-%s.png" % (n_shot[0], name))
        tw.screenshot(env, path)
        tap.note("screenshot: " + path)

    def drawn(name):
        """Screenshots until the threads view shows coloured lanes (frames can lag behind the
        state dump on a busy machine); the last one is kept. True when it did."""
        def lanes():
            tb = ints(state.get("views", "threads-bounds"))
            if len(tb) != 4 or tb[2] <= 200 or tb[3] <= 30:
                return False
            path = os.path.join(tmp, "%d-%s.png" % (n_shot[0] + 1, name))
            img = tw.screenshot(env, path)
            # The lanes start right of the label gutter (180 px); text and backgrounds are greys.
            return len(tw.hue_buckets(tw.region(img, tb[0] + 180, tb[1], tb[2] - 180, tb[3]))) >= 2
        ok = tw.wait_for(lanes, interval=1.0)
        n_shot[0] += 1
        tap.note("screenshot: " + os.path.join(tmp, "%d-%s.png" % (n_shot[0], name)))
        return ok

    def dialog():
        found = xdo("search", "--onlyvisible", "--name", "Record a JVM").stdout.split()
        return found[0] if found else None

    def click(key):
        b = ints(state.get("record", key))
        if len(b) != 4 or dialog() is None:
            return False
        xdo("mousemove", "--window", dialog(), str(b[0] + b[2] // 2), str(b[1] + b[3] // 2))
        xdo("click", "1")
        time.sleep(0.3)
        return True

    def fill(key, text):
        """Clicks an entry row, selects what it holds and types @text."""
        if not click(key):
            return False
        xdo("key", "ctrl+a")
        xdo("type", "--delay", "15", text)
        time.sleep(0.3)
        return True

    def open_dialog():
        windows = xdo("search", "--onlyvisible", "--name", "Jvmscope").stdout.split()
        if windows:
            xdo("windowactivate", "--sync", windows[0])
        # The first key can reach the window before it takes the keyboard (there is no window
        # manager to give it): Ctrl+R again until the dialog shows (it presents the same dialog).
        for _ in range(10):
            xdo("key", "ctrl+r")
            if tw.wait_for(lambda: state.get("record", "open") == "true" and dialog() is not None
                           and len(ints(state.get("record", "record-bounds"))) == 4, timeout=10):
                return True
        return False

    def record(command, output, stop_at_once=False, compare=False):
        ok = open_dialog()
        ok = ok and fill("command-bounds", command) and fill("folder-bounds", tmp) and fill("output-bounds", output)
        if ok and compare:
            # A click the loaded machine's dialog has not laid out for yet misses: again until on.
            for _ in range(5):
                if state.get("record", "compare") == "true":
                    break
                click("compare-bounds")
                tw.wait_for(lambda: state.get("record", "compare") == "true", timeout=15)
            ok = state.get("record", "compare") == "true"
        ok = ok and click("record-bounds")
        if ok and stop_at_once:
            ok = tw.wait_for(lambda: len(ints(state.get("record", "stop-bounds"))) == 4) and click("stop-bounds")
        return ok

    def start_app(*traces, path=None):
        nonlocal app
        if os.path.exists(state.path):
            os.unlink(state.path)
        app = subprocess.Popen([args.jvmscope, *traces], env=dict(app_env, PATH=path or app_env["PATH"]),
                               stdout=log, stderr=subprocess.STDOUT)
        if traces:
            return tap.check(tw.wait_for(lambda: state.get("window", "page") == "trace"), "the window shows the trace")
        return tap.check(tw.wait_for(lambda: state.get("window", "page") == "start"), "the start page shows")

    def quit_app():
        for _ in range(10):
            xdo("key", "ctrl+q")
            try:
                app.wait(timeout=10)
                return app.returncode == 0
            except subprocess.TimeoutExpired:
                pass
        return False

    try:
        out = os.path.join(tmp, "one.jvmtrace")
        if not start_app(path=refusing_path):
            pass
        elif args.case == "record":
            ok = record("java -cp classes compare.Change lock 2 4", out)
            tap.check(ok, "Ctrl+R opens Record…; the command, folder and bundle are typed in, Record pressed")
            live = tw.wait_for(lambda: state.get("record", "state") == "recording"
                               and float(state.get("record", "elapsed", "0")) > 0.5
                               and int(state.get("record", "bundle-size", "0")) > 0)
            tap.check(live, "while it records the dialog shows the elapsed time and the bundle's size",
                      (state.get("record", "state"), state.get("record", "elapsed"), state.get("record", "bundle-size")))
            shot("recording")
            opened = tw.wait_for(lambda: state.get("window", "file") == out and state.get("window", "loading") == "false"
                                 and state.get("views", "complete") == "true", timeout=180)
            tap.check(opened, "the JVM exits, the recording ends and the bundle opens in the window",
                      (state.get("window", "file"), state.get("record", "state"), state.get("record", "messages")))
            tap.check(state.get("record", "open") is None, "the dialog closes once the bundle opens (nothing to read in it)",
                      state.get("record", "messages"))
            with open(os.path.join(out, "bundle.json")) as f:
                manifest = json.load(f)
            tap.check(os.path.isfile(os.path.join(out, "recording.jfr")) and manifest.get("pid", 0) > 0,
                      "the bundle holds the flight recording and names the JVM", manifest.get("pid"))
            tap.check(drawn("opened"), "the window draws the recording: coloured lanes in the threads view")

            # Record… from the window that shows it, "Compare with the open trace" on: the monitor
            # taken by 6 threads, compared with the 2 shown when it is written.
            six = os.path.join(tmp, "six.jvmtrace")
            ok = record("java -cp classes compare.Change lock 6 2", six, compare=True)
            tap.check(ok, "Record… from a window that shows a trace: Compare with the open trace switched on, Record pressed",
                      state.get("record", "compare"))
            compared = tw.wait_for(lambda: state.get("compare", "other") == six and state.get("compare", "busy") == "false"
                                   and bool(state.get("compare", "rows-kinds")), timeout=240)
            tap.check(compared and state.get("compare", "baseline") == out and state.get("window", "file") == out
                      and not state.get("compare", "error"),
                      "when it is written the comparison opens: the trace shown the baseline, the recording the other",
                      (state.get("compare", "baseline"), state.get("compare", "other"), state.get("window", "file"),
                       state.get("compare", "error"), state.get("record", "messages")))
            # The frame on screen may lag behind the state dump on a busy machine.
            time.sleep(2)
            shot("compared")
            r = subprocess.run([args.cli, "compare", "--json", out, six], env=env, capture_output=True, text=True)
            want = [cw.expected_row("kinds", k) for k in json.loads(r.stdout)["kinds"]] if r.returncode == 0 else []
            shown = cw.rows_of(state.get("compare", "rows-kinds"))
            tap.check(compared and len(shown) == len(want) > 0 and all(cw.same_row(a, b) for a, b in zip(shown, want)),
                      "its kinds are jvmscope-cli compare --json's of the two bundles", (shown[:2], want[:2], r.stderr[-300:]))
            # Escape closes the comparison window (Ctrl+R is the main window's).
            found = xdo("search", "--onlyvisible", "--name", "^Compare Traces$").stdout.split()
            if found:
                xdo("windowfocus", found[0])
                time.sleep(0.3)
                xdo("key", "Escape")
            tap.check(tw.wait_for(lambda: state.get("compare", "open") is None, timeout=30),
                      "Escape closes the comparison window")

            # A second recording from a window that shows a trace, stopped by closing the window.
            two = os.path.join(tmp, "two.jvmtrace")
            ok = record("java -cp classes compare.Change lock 2 60", two)
            tap.check(ok and tw.wait_for(lambda: state.get("record", "state") == "recording"),
                      "a second recording starts", state.get("record", "state"))
            # Quit (Ctrl+Q) while it records: every window closes, and the program ends once the
            # recording is written. (xdotool windowclose would destroy the X window under GTK's
            # feet; there is no window manager to ask it to close.)
            xdo("key", "ctrl+q")
            try:
                app.wait(timeout=120)
            except subprocess.TimeoutExpired:
                pass
            tap.check(app.poll() is not None, "Quit while recording: the windows close and the program ends once the recording is written",
                      app.poll())
            manifest = {}
            if os.path.isfile(os.path.join(two, "bundle.json")):
                with open(os.path.join(two, "bundle.json")) as f:
                    manifest = json.load(f)
            tap.check(os.path.isfile(os.path.join(two, "recording.jfr")) and (manifest.get("stop") or {}).get("reason") == "request",
                      "the recording stopped cleanly: its flight recording written, bundle.json says the user stopped it",
                      {k: manifest.get(k) for k in ("stop", "not_recorded")})
        elif args.case == "attach":
            # A JVM started here, found in the dialog's list (jcmd -l) by its pid and main class.
            # It runs until the test kills it (an hour at most): in CI at load 22 the dialog took
            # minutes to list it, and a JVM that ran 120 s had ended before the recording began
            # ("no process N").
            jvm = subprocess.Popen(["java", "-cp", classes, "compare.Change", "lock", "2", "3600"], cwd=tmp,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                ok = open_dialog() and click("attach-bounds")
                tap.check(ok and tw.wait_for(lambda: state.get("record", "mode") == "attach"),
                          "the Attach tab shows", state.get("record", "mode"))

                def listed():
                    for i, entry in enumerate(e for e in (state.get("record", "jvms") or "").split(";") if e):
                        pid, _, main_class = entry.partition(" ")
                        if int(pid) == jvm.pid:
                            return (i, main_class)
                    # jcmd sees a JVM once it has started its attach listener: list again.
                    click("refresh-bounds")
                    return None
                found = tw.wait_for(listed)
                tap.check(found and found[1] == "compare.Change",
                          "the list holds the JVM started here, by pid and main class (as jcmd -l names it)",
                          (jvm.pid, state.get("record", "jvms")))
                if found:
                    # Clicked until the dialog says our JVM is chosen, by pid: a refresh asked by
                    # the search above can come back after the click and empty the list (CI,
                    # sanitized: "Choose a running JVM to attach to"), and other JVMs starting or
                    # ending on the machine move the rows (a click on the row found before once
                    # attached to another JVM). Its row is found again before each click.
                    for _ in range(5):
                        row = listed()
                        if row is not None:
                            click("jvm-%d-bounds" % row[0])
                        if tw.wait_for(lambda: state.get("record", "chosen-pid") == str(jvm.pid), timeout=10):
                            break
                    # A new listing keeps the choice on the same JVM.
                    listings = int(state.get("record", "listings", "0"))
                    click("refresh-bounds")
                    tap.check(tw.wait_for(lambda: int(state.get("record", "listings", "0")) > listings, timeout=60)
                              and state.get("record", "chosen-pid") == str(jvm.pid),
                              "after the list is refreshed, the JVM chosen is still chosen",
                              (listings, state.get("record", "listings"), state.get("record", "chosen-pid"), jvm.pid))
                    fill("duration-bounds", "3")
                    fill("output-bounds", out)
                    click("record-bounds")
                opened = tw.wait_for(lambda: state.get("window", "file") == out and state.get("window", "loading") == "false"
                                     and state.get("views", "complete") == "true", timeout=180)
                tap.check(opened, "after the 3 s asked the recording ends and the bundle opens in the window",
                          (state.get("window", "file"), state.get("record", "state"), state.get("record", "messages")))
                tap.check(drawn("attached"), "the window draws the recording: coloured lanes in the threads view")
                manifest = {}
                if os.path.isfile(os.path.join(out, "bundle.json")):
                    with open(os.path.join(out, "bundle.json")) as f:
                        manifest = json.load(f)
                tap.check(manifest.get("pid") == jvm.pid and manifest.get("mode") == "attach"
                          and os.path.isfile(os.path.join(out, "recording.jfr")),
                          "the bundle is of the JVM chosen, attached to, with its flight recording",
                          {k: manifest.get(k) for k in ("pid", "mode", "stop")})
                tap.check(jvm.poll() is None, "the JVM attached to runs on", jvm.poll())
            finally:
                jvm.kill()
                jvm.wait()
        elif args.case == "faults":
            # Each fault in a program of its own: a bundle opened from a window that shows one
            # opens in a new window, and every window writes the one state dump.
            ok = record("java -cp classes compare.Change lock 2 3", out)
            tap.check(ok, "Record… with a perf that is refused: the command typed in, Record pressed")
            said = tw.wait_for(lambda: "refused" in (state.get("record", "messages") or ""))
            messages = (state.get("record", "messages") or "").replace("\\n", "\n")
            tap.check(said and "kernel events are not recorded: perf record refused to start" in messages
                      and "sudo sysctl kernel.perf_event_paranoid=-1" in messages,
                      "the dialog says that perf refused to start, that kernel events are not recorded, and how "
                      "to allow it", messages)
            shot("perf-refused")
            opened = tw.wait_for(lambda: state.get("window", "file") == out and state.get("window", "loading") == "false",
                                 timeout=180)
            tap.check(opened and state.get("window", "load-failed") == "false",
                      "the bundle (JFR only) opens", (state.get("window", "file"), state.get("window", "problem")))
            manifest = {}
            if os.path.isfile(os.path.join(out, "bundle.json")):
                with open(os.path.join(out, "bundle.json")) as f:
                    manifest = json.load(f)
            kernel = [m for m in manifest.get("not_recorded", []) if m.get("what") == "kernel"]
            tap.check(os.path.isfile(os.path.join(out, "recording.jfr")) and not os.path.exists(os.path.join(out, "kernel.perf.data"))
                      and len(kernel) == 1 and kernel[0].get("reason", "").startswith("perf record refused to start")
                      and "perf_event_paranoid=-1" in kernel[0].get("how_to_allow", ""),
                      "the bundle keeps the flight recording; bundle.json says perf refused and how to allow it",
                      manifest.get("not_recorded"))
            tap.check(state.get("record", "open") == "true" and "refused" in state.get("record", "messages", ""),
                      "the dialog stays open with what could not be recorded", state.get("record", "messages"))
            tap.check(drawn("jfr-only"), "the window draws the JFR-only recording")
            xdo("key", "Escape")
            tw.wait_for(lambda: state.get("record", "open") is None)
            tap.check(quit_app(), "Ctrl+Q ends the program", app.poll())

            # A JVM that exits at once, with a failure.
            start_app()
            early = os.path.join(tmp, "early.jvmtrace")
            ok = record("java -cp classes compare.Change no-such-mode", early)
            done = tw.wait_for(lambda: state.get("record", "recording") == "false"
                               and "exited with status 1" in (state.get("record", "messages") or ""),
                               timeout=180)
            shot("exited-early")
            tap.check(ok and done, "a JVM that exits at once: the dialog says it exited with status 1",
                      (state.get("record", "state"), state.get("record", "messages")))
            tap.check("perf is not installed" in (state.get("record", "messages") or ""),
                      "with a PATH without perf, the dialog says perf is not installed", state.get("record", "messages"))
            opened = tw.wait_for(lambda: state.get("window", "file") == early and state.get("window", "loading") == "false")
            tap.check(opened and state.get("window", "load-failed") == "false",
                      "what it recorded opens", (state.get("window", "file"), state.get("window", "problem")))
            tap.check(quit_app(), "Ctrl+Q ends the program", app.poll())

            # Stop at once.
            start_app()
            quick = os.path.join(tmp, "quick.jvmtrace")
            ok = record("java -cp classes compare.Change lock 2 30", quick, stop_at_once=True)
            ended = tw.wait_for(lambda: state.get("record", "recording") in (None, "false"), timeout=120)
            shot("stopped-at-once")
            messages = state.get("record", "messages", "") or ""
            bundle_opened = tw.wait_for(lambda: state.get("window", "file") == quick, timeout=20)
            tap.check(ok and ended and (bundle_opened or messages),
                      "Stop pressed at once: the recording ends with a bundle that opens, or a clear message",
                      (state.get("window", "file"), state.get("record", "state"), messages))
            if bundle_opened:
                tap.check(tw.wait_for(lambda: state.get("window", "loading") == "false")
                          and state.get("window", "load-failed") == "false",
                          "what was recorded opens", state.get("window", "problem"))
            else:
                # Stopped before JFR started, and no perf: the dialog says that nothing was
                # recorded, or (Stop came before the JVM was even started: a loaded machine) that
                # it was interrupted before the JVM started; the window does not try to open a
                # bundle that holds no layer.
                said = "Nothing was recorded" in messages or "interrupted before the JVM started" in messages
                tap.check(said and state.get("window", "file") != quick
                          and not os.path.exists(os.path.join(quick, "recording.jfr")),
                          "no layer recorded: the dialog says so and nothing is opened",
                          (messages, state.get("window", "file")))
        else:
            tap.check(False, "unknown case " + args.case)
    finally:
        tw.end_app(app, timeout=60)
        xvfb.kill()
        log.close()
        with open(log_path) as f:
            text = f.read()
        if text.strip():
            tap.note("jvmscope's output:\n" + text[-3000:])
        tap.check("-CRITICAL **" not in text and "-WARNING **" not in text,
                  "the program printed no GLib criticals or warnings")
    tap.done()


if __name__ == "__main__":
    main()
