#!/usr/bin/env python3
"""Which JVM the window analyses, and over which range it opens (issue 23; docs/window.md,
"Which JVM"), under Xvfb with real input, on recordings this test makes.

  two-jvms  a kernel-only perf trace of two JVMs this test starts (tests/cli/Work.java and
            Beside.java): the window offers the choice when the trace opens (the chooser lists
            both, by pid); a click on each JVM's row (the second time through Choose JVM… in the
            main menu, opened with F10) makes the threads view's JVM groups that process's
            threads only (perf script's pid of each tid is the oracle), and the findings those of
            `jvmscope-cli analyze --pid` for the same range, to the nanosecond.
  attach    `jvmscope-cli record --pid --duration 2` of a running JVM: the window opens on the
            span where both layers recorded (the flight recording's, bundle.json `timing`), says
            so with the kernel's margins (bundle.json's), the findings are analyze's for its
            default range, and the banner's toggle widens the views to the kernel's span and back.
"""
import importlib.util, json, os, re, shutil, subprocess, tempfile, time

from jvms_tap import Tap

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("window_helpers", os.path.join(HERE, "test-window.py"))
w = importlib.util.module_from_spec(spec)
spec.loader.exec_module(w)

# The findings' titles by kind and the key file's string lists, as the critical-path test reads them.
spec = importlib.util.spec_from_file_location("critical_path_test", os.path.join(HERE, "test-critical-path.py"))
cp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cp)
KINDS = cp.KINDS
key_list = cp.findings_texts


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def perf_tid_pids(path):
    """{tid: pid} of every thread with an event in its own context: the kernel's word."""
    tids = {}
    for line in run(["perf", "script", "-i", path, "-F", "pid,tid"]).stdout.splitlines():
        f = line.strip().split("/")
        if len(f) == 2 and f[0].isdigit() and f[1].isdigit():
            tids[int(f[1])] = int(f[0])
    return tids


def start_java(classes, main, *args):
    p = subprocess.Popen(["java", "-cp", classes, main, *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    if p.stdout.readline().strip() != "started":
        p.kill()
        raise SystemExit("%s did not start: %s" % (main, p.communicate()[1]))
    return p


def stop_java(*procs):
    for p in procs:
        if p is not None and p.poll() is None:
            p.kill()
            p.communicate()


class Window:
    """One jvmscope on the display, its state dump and real input."""

    def __init__(self, args, env, tmp, name, trace):
        self.env, self.tmp = env, tmp
        self.state = w.State(env["JVMSCOPE_DEBUG_DUMP_STATE"])
        self.log = open(os.path.join(tmp, name + ".log"), "w")
        self.app = subprocess.Popen([args.jvmscope, trace], env=env, stdout=self.log, stderr=subprocess.STDOUT)

    def get(self, section, key, default=""):
        return self.state.get(section, key, default)

    def xdo(self, *cmd):
        return run(["xdotool", *cmd], env=self.env)

    def shot(self, tap, name):
        path = os.path.join(self.tmp, name + ".png")
        w.screenshot(self.env, path)
        tap.note("screenshot: " + path)

    def loaded(self):
        return w.wait_for(lambda: self.get("window", "loading") == "false" and self.get("views", "complete") == "true")

    def close(self, tap):
        if self.app.poll() is None:
            self.app.kill()
            self.app.wait()
        self.log.close()
        with open(self.log.name) as f:
            text = f.read()
        # GTK's and GLib's complaints are failures of the window (as test-window.py has them).
        bad = [l for l in text.splitlines() if re.search(r"-(CRITICAL|WARNING) \*\*", l)]
        tap.check(not bad, "the window wrote no warning", "\n".join(bad[:5]))

    def findings(self):
        """(kind titles, lost ns) of the findings shown, once the list is for the visible range."""
        texts = key_list(self.get("panel", "finding-texts"))
        lost = [int(v) for v in self.get("panel", "finding-lost-ns").split(";") if v]
        return [t.split("\n")[0] for t in texts], lost

    def settled_findings(self, pid=None):
        """The findings once two reads a second apart agree and they are for the visible range
        (and of JVM @pid)."""
        def read():
            if (self.get("panel", "findings-t0") != self.get("views", "visible-start")
                    or self.get("panel", "findings-t1") != self.get("views", "visible-end")
                    or (pid is not None and self.get("panel", "findings-pid") != str(pid))):
                return None
            f = self.findings()
            return f if f[1] else None
        def stable():
            a = read()
            time.sleep(1.0)
            b = read()
            return a if a is not None and a == b else None
        return w.wait_for(stable)


def report_findings(report):
    return [KINDS.get(f["kind"], f["kind"]) for f in report["findings"]], [f["lost_ns"] for f in report["findings"]]


def analyze(args, tmp, trace, *extra):
    r = run([args.cli, "analyze", trace, "--json", "--cache-dir", os.path.join(tmp, "cli-cache"), *extra], timeout=600)
    try:
        return r, json.loads(r.stdout) if r.returncode == 0 else None
    except ValueError:
        return r, None


def case_two_jvms(tap, args, env, tmp, classes):
    first = second = None
    trace = os.path.join(tmp, "two.perf.data")
    try:
        first = start_java(classes, "Work", "0")
        second = start_java(classes, "Beside")
        events = ["sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup_new", "sched:sched_process_fork",
                  "sched:sched_process_exec", "sched:sched_process_exit"]
        cmd = ["perf", "record", "-a", "-k", "CLOCK_MONOTONIC", "-o", trace]
        for e in events:
            cmd += ["-e", e]
        r = run(cmd + ["--", "sleep", "2"], timeout=240)
        tap.check(r.returncode == 0, "perf records the machine for 2 s", r.stderr[-1000:])
    finally:
        stop_java(first, second)
    tid_pid = perf_tid_pids(trace)
    pids = (first.pid, second.pid)
    r = run([args.cli, "analyze", trace, "--cache-dir", os.path.join(tmp, "cli-cache")], timeout=600)
    tap.check(r.returncode == 2 and all("--pid %d " % p in r.stderr for p in pids),
              "analyze without --pid lists both JVMs", r.stderr[-1500:])

    win = Window(args, env, tmp, "two", trace)
    try:
        if not tap.check(win.loaded(), "the window opens the trace", win.get("window", "problem")):
            return
        def laid_out():
            b = w.ints(win.get("chooser", "row-bounds"))
            return win.get("chooser", "shown") == "true" and len(b) >= 8 and all(b[i + 2] > 100 for i in range(0, len(b), 4))
        shown = w.wait_for(laid_out)
        listed = [int(p) for p in win.get("chooser", "pids").split(";") if p]
        tap.check(shown and all(p in listed for p in pids),
                  "the chooser shows when the trace opens and lists both JVMs by pid", (listed, pids))
        tap.check(win.get("jvm", "chosen-pid") == "0", "nothing is chosen before the user chooses")
        win.shot(tap, "chooser")
        for round, pid in enumerate(pids):
            if round > 0:
                # Choose JVM… in the main menu, with the keyboard: F10 opens it on its first
                # item, the next one is Choose JVM….
                win.xdo("key", "F10")
                time.sleep(0.5)
                win.xdo("key", "Down", "Return")
                if not tap.check(w.wait_for(laid_out, timeout=20),
                                 "Choose JVM… in the main menu shows the chooser again"):
                    return
            # The chooser can still be laid out when it first says where its rows are: a click
            # that chose nothing is tried again where the row is then, three times at most.
            for attempt in range(3):
                listed = [int(p) for p in win.get("chooser", "pids").split(";") if p]
                bounds = w.ints(win.get("chooser", "row-bounds"))
                geometry = win.xdo("search", "--onlyvisible", "--name", "Choose the JVM", "getwindowgeometry").stdout
                m = re.search(r"Position: (\d+),(\d+)", geometry)
                if not tap.check(m is not None and pid in listed, "the chooser's window and JVM %d's row" % pid, geometry):
                    return
                x, y, bw, bh = bounds[4 * listed.index(pid):4 * listed.index(pid) + 4]
                win.xdo("mousemove", str(int(m.group(1)) + x + bw // 2), str(int(m.group(2)) + y + bh // 2))
                time.sleep(0.3)
                win.xdo("click", "1")
                chosen = w.wait_for(lambda: win.get("jvm", "chosen-pid") == str(pid)
                                    and win.get("chooser", "shown") == "false", timeout=10)
                if chosen:
                    break
                tap.note("the click at %s chose nothing (attempt %d)" % ((x, y, bw, bh), attempt + 1))
            tap.check(chosen and str(pid) in win.get("jvm", "subtitle"),
                      "a click on JVM %d's row chooses it and closes the chooser; the title says it" % pid,
                      (win.get("jvm", "chosen-pid"), win.get("jvm", "subtitle")))
            r, report = analyze(args, tmp, trace, "--pid", str(pid))
            if not tap.check(report is not None, "analyze --pid %d" % pid, r.stderr[-1000:]):
                continue
            # The threads view: every thread row (its label is the tid) of process pid for perf,
            # every thread the report analyses among them.
            def rows():
                labels = [l for l in win.get("views", "thread-row-labels").split(";") if l.isdigit()]
                return [int(l) for l in labels] if any(tid_pid.get(int(l)) == pid for l in labels) else None
            tids = w.wait_for(rows) or []
            foreign = sorted((t, tid_pid[t]) for t in tids if t in tid_pid and tid_pid[t] != pid)
            known = [t for t in tids if t in tid_pid]
            tap.check(known and not foreign,
                      "JVM %d: every thread row of the threads view is of process %d (%d known to perf)" % (pid, pid, len(known)),
                      "of other processes: %s" % foreign[:10])
            missing = sorted(t["tid"] for t in report["threads"] if t["tid"] not in tids)
            tap.check(report["threads"] and not missing,
                      "JVM %d: the report's %d threads are rows of the threads view" % (pid, len(report["threads"])),
                      missing[:10])
            # The findings: analyze --pid's for the range they are for.
            got = win.settled_findings(pid)
            start = int(json.loads(run([args.cli, "index", "--json", "--cache-dir", os.path.join(tmp, "cli-cache"),
                                        trace]).stdout)["start_ns"])
            f0, f1 = int(win.get("panel", "findings-t0")), int(win.get("panel", "findings-t1"))
            r, ranged = analyze(args, tmp, trace, "--pid", str(pid), "--from", "%dns" % (f0 - start), "--to", "%dns" % (f1 - start))
            want = report_findings(ranged) if ranged else None
            tap.check(got is not None and got == want,
                      "JVM %d: the findings are analyze --pid's, kinds and nanoseconds: %s" % (pid, want and list(zip(*want))[:3]),
                      (got, want))
            win.shot(tap, "jvm-%d" % pid)
    finally:
        win.close(tap)


def case_attach(tap, args, env, tmp, classes):
    out = os.path.join(tmp, "a.jvmtrace")
    jvm = start_java(classes, "Work", "0")
    try:
        r = run([args.cli, "record", "-o", out, "--pid", str(jvm.pid), "--duration", "2"], timeout=240)
        tap.check(r.returncode == 0, "record --pid --duration 2", r.stderr[-1000:])
    finally:
        stop_java(jvm)
    with open(os.path.join(out, "bundle.json")) as f:
        timing = json.load(f)["timing"]
    r, report = analyze(args, tmp, out)
    if not tap.check(report is not None, "analyze the attach recording", r.stderr[-1000:]):
        return
    win = Window(args, env, tmp, "attach", out)
    try:
        if not tap.check(win.loaded(), "the window opens the recording", win.get("window", "problem")):
            return
        banner = w.wait_for(lambda: win.get("range", "shown") == "true" and win.get("range", "toggle-bounds") != "0;0;0;0;")
        d0, d1 = int(win.get("range", "default-from", "0")), int(win.get("range", "default-to", "0"))
        k0, k1 = int(win.get("range", "kernel-from", "0")), int(win.get("range", "kernel-to", "0"))
        v0, v1 = int(win.get("views", "visible-start", "0")), int(win.get("views", "visible-end", "0"))
        tap.check(banner and (v0, v1) == (d0, d1) and (d0, d1) == (report["range"]["from_ns"], report["range"]["to_ns"]),
                  "the window opens on analyze's default range", ((v0, v1), (d0, d1), report["range"]))
        jfr = timing["jfr_end_monotonic_ns"] - timing["jfr_start_monotonic_ns"]
        tap.check(abs((d1 - d0) - jfr) <= 1000, "that range is the flight recording's span in bundle.json (%.3f s)" % (jfr / 1e9),
                  (d1 - d0, jfr))
        before, after = d0 - k0, k1 - d1
        tap.note("margins: window %.3f s / %.3f s, bundle.json %.3f s / %.3f s"
                 % (before / 1e9, after / 1e9, timing["kernel_margin_before_ns"] / 1e9, timing["kernel_margin_after_ns"] / 1e9))
        # The recorder times perf from when it said it records; the index from its first event.
        tap.check(abs(before - timing["kernel_margin_before_ns"]) < 250e6 and abs(after - timing["kernel_margin_after_ns"]) < 250e6,
                  "the banner's margins are bundle.json's, within 0.25 s", (before, after, timing))
        text = win.get("range", "text")
        tap.check("both layers" in text and "%.3f s" % ((d1 - d0) / 1e9) in text, "the banner says which range shows and why", text)
        got = win.settled_findings()
        want = report_findings(report)
        tap.check(got == want, "the findings are analyze's for that range, kinds and nanoseconds", (got, want))
        win.shot(tap, "attach")
        tb = w.ints(win.get("range", "toggle-bounds"))
        win.xdo("mousemove", str(tb[0] + tb[2] // 2), str(tb[1] + tb[3] // 2))
        time.sleep(0.2)
        win.xdo("click", "1")
        wide = w.wait_for(lambda: win.get("range", "margins-shown") == "true"
                          and (int(win.get("views", "visible-start")), int(win.get("views", "visible-end"))) == (k0, k1))
        tap.check(wide, "the toggle widens the views to the kernel's span",
                  (win.get("views", "visible-start"), win.get("views", "visible-end"), k0, k1))
        win.shot(tap, "attach-margins")
        win.xdo("click", "1")
        back = w.wait_for(lambda: win.get("range", "margins-shown") == "false"
                          and (int(win.get("views", "visible-start")), int(win.get("views", "visible-end"))) == (d0, d1))
        tap.check(back, "and back to where both layers recorded",
                  (win.get("views", "visible-start"), win.get("views", "visible-end"), d0, d1))
    finally:
        win.close(tap)


def main():
    args = w.window_parser(keep="the recordings and screenshots").parse_args()
    tap = Tap()
    tmp = tempfile.mkdtemp(prefix="jvmscope-jvm-choice-")
    classes = os.path.join(tmp, "classes")
    os.makedirs(classes)
    cli_src = os.path.join(args.source_root, "tests", "cli")
    r = run(["javac", "-d", classes, os.path.join(cli_src, "Work.java"), os.path.join(cli_src, "Beside.java")])
    if r.returncode != 0:
        raise SystemExit("javac failed: " + r.stderr)
    xvfb, display = w.start_xvfb()
    env = w.window_env(display, args.schema_dir, tmp, state=os.path.join(tmp, "state.ini"))
    try:
        case_two_jvms(tap, args, env, tmp, classes)
        case_attach(tap, args, env, tmp, classes)
    finally:
        xvfb.terminate()
        xvfb.wait()
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            tap.note("kept: " + tmp)
    return tap.done()


if __name__ == "__main__":
    raise SystemExit(main())
