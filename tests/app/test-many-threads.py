#!/usr/bin/env python3
"""The window on traces of thousands of threads and processes (issue 27), in a real X server.

Two traces the test records itself:
  jvm      `jvmscope-cli record` of a JVM that starts 3,000 sleeping threads (worker-0 …
           worker-2999): it used to abort the window as it opened (a 16,878-pixel texture);
  kernel   `perf record -a` of a shell starting 3,000 processes: a kernel-only machine trace,
           whose other processes expand to processes and those to their threads.
For each, the window opens and draws the threads view (hues in its data area); on the JVM, a
range dragged across the views fills the side panel's "Time per Thread State", a virtualized
list of every thread sorted by time on a CPU: its count says all of them, End scrolls it to the
last and draws it, the filter finds one worker among them. The big group
is folded into one summary row that is drawn, unfolding it lists thousands of rows, the
keyboard (Ctrl+End, Up, Enter) goes to the last of them and the window shows it drawn, and
folding it again gives the rows back. Screenshots are kept with --keep.

What the window shows is read from JVMSCOPE_DEBUG_DUMP_STATE (docs/window.md): the thread rows
(`thread-row-labels`, `thread-folded-rows`), the keyboard row (`threads-cursor`), where the
threads view is (`threads-bounds`) and the side panel's list (`[panel] thread-states-*`).
"""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from jvms_tap import Tap

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("window_test", os.path.join(HERE, "test-window.py"))
window_test = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(window_test)
wait_for = window_test.wait_for
ints = window_test.ints

N_THREADS = 3000
N_PROCESSES = 3000
LEGEND_LINE = 18   # JVMS_TIMELINE_LEGEND_HEIGHT: one line of the legend (it wraps)
GUTTER = 180  # JVMS_TIMELINE_GUTTER

JAVA = """
public class ManyThreads {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(() -> {
                try {
                    while (true) Thread.sleep(100);
                } catch (InterruptedException e) { }
            }, "worker-" + i);
            t.setDaemon(true);
            t.start();
        }
        Thread.sleep(Long.parseLong(args[1]));
    }
}
"""

tap = Tap()


def run(cmd, timeout=600, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)


def record_jvm(cli, tmp):
    with open(os.path.join(tmp, "ManyThreads.java"), "w") as f:
        f.write(JAVA)
    r = run(["javac", "-d", tmp, os.path.join(tmp, "ManyThreads.java")])
    if not tap.check(r.returncode == 0, "javac compiles the workload", r.stderr):
        return None
    trace = os.path.join(tmp, "many.jvmtrace")
    r = run([cli, "record", "-o", trace, "--", "java", "-Xss256k", "-cp", tmp, "ManyThreads",
             str(N_THREADS), "3000"])
    tap.check(r.returncode == 0 and os.path.isdir(trace),
              "jvmscope-cli record records a JVM of %d threads" % N_THREADS, r.stderr[-2000:])
    return trace if r.returncode == 0 else None


def record_kernel(tmp):
    trace = os.path.join(tmp, "processes.perf.data")
    spawn = ("i=0; while [ $i -lt %d ]; do sleep 0.5 & i=$((i+1)); done; wait" % N_PROCESSES)
    cmd = ["perf", "record", "-q", "-o", trace, "-a", "-k", "CLOCK_MONOTONIC", "-m", "16M"]
    for e in ("sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup_new",
              "sched:sched_process_fork", "sched:sched_process_exec", "sched:sched_process_exit"):
        cmd += ["-e", e]
    r = run(cmd + ["--", "sh", "-c", spawn])
    tap.check(r.returncode == 0 and os.path.isfile(trace),
              "perf records a machine running %d processes" % N_PROCESSES, r.stderr[-2000:])
    return trace if r.returncode == 0 else None


class Window:
    """One jvmscope process on a trace, and what it shows."""

    def __init__(self, args, tmp, name, trace):
        self.tmp = tmp
        self.name = name
        # start_xvfb turns autorepeat off: one Up too many would be the wrong row.
        self.xvfb, display = window_test.start_xvfb()
        self.state = window_test.State(os.path.join(tmp, name + "-state.ini"))
        self.env = window_test.window_env(display, args.schema_dir, tmp, state=self.state.path)
        self.log = open(os.path.join(tmp, name + ".log"), "w")
        self.app = subprocess.Popen([args.jvmscope, trace], env=self.env, stdout=self.log,
                                    stderr=subprocess.STDOUT)
        self.shots = 0

    def close(self):
        if self.app.poll() is None:
            self.app.kill()
        self.app.wait()
        self.xvfb.terminate()
        self.xvfb.wait()
        self.log.close()
        with open(os.path.join(self.tmp, self.name + ".log")) as f:
            tap.note("%s output (exit status %s):\n%s" % (self.name, self.app.returncode, f.read()[-3000:]))

    def get(self, key, default=None):
        return self.state.get("views", key, default)

    def panel(self, key, default=None):
        return self.state.get("panel", key, default)

    def alive(self):
        return self.app.poll() is None

    def labels(self):
        return [r.replace("\\;", ";") for r in re.split(r"(?<!\\);", self.get("thread-row-labels", "")) if r]

    def folded(self):
        return set(ints(self.get("thread-folded-rows", "")))

    def cursor(self):
        c = ints(self.get("threads-cursor", ""))
        return c if len(c) == 3 else None

    def legend(self):
        """Height of the threads view's legend strip, above its rows."""
        return int(self.get("threads-legend-height", LEGEND_LINE))

    def bounds(self):
        b = ints(self.get("threads-bounds", ""))
        return b if len(b) == 4 else None

    def key(self, *keys):
        subprocess.run(["xdotool", "key", "--delay", "30", *keys], env=self.env, capture_output=True)

    def click(self, x, y):
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=self.env,
                       capture_output=True)

    def shot(self, what):
        self.shots += 1
        path = os.path.join(self.tmp, "%s-%d-%s.png" % (self.name, self.shots, what))
        img = window_test.screenshot(self.env, path)
        tap.note("screenshot: " + path)
        return img

    def row_on_screen(self, content_y, height):
        """The window rows of a row of the threads view at @content_y, when all of it shows in
        the scrolled views."""
        b, v = self.bounds(), ints(self.get("views-visible-bounds", ""))
        if b is None or len(v) != 4:
            return None
        top = b[1] + self.legend() + content_y
        return (top, height) if top >= v[1] and top + height <= v[1] + v[3] else None

    def drawn(self, what, content_y, height, hues=1, colours=3):
        """Screenshots until the data area of that row shows saturated hues (a lane) or, for
        grey lanes, several colours over the background."""
        seen = []

        def look():
            place = self.row_on_screen(content_y, height)
            b = self.bounds()
            if place is None or b is None:
                seen.append(("row not on screen", b, self.get("views-visible-bounds", ""), self.legend()))
                return None
            img = self.shot(what)
            rows = window_test.region(img, b[0] + GUTTER + 2, place[0] + 1, b[2] - GUTTER - 4,
                                      place[1] - 2)
            h, c = window_test.hue_buckets(rows, min_pixels=4), window_test.distinct_colours(rows)
            seen.append((h, c))
            return len(h) >= hues and c >= colours
        ok = wait_for(look, timeout=60, interval=1.0)
        return ok, seen[-3:]

    def cursor_to(self, row):
        """Moves the keyboard row to @row (from the first, Ctrl+Home then Down)."""
        self.key("ctrl+Home")
        if row > 0:
            subprocess.run(["xdotool", "key", "--delay", "5", "--repeat", str(row), "Down"],
                           env=self.env, capture_output=True)
        return wait_for(lambda: (self.cursor() or [None])[0] == row, timeout=60)

    def focus_view(self):
        """A click on the threads view's legend strip gives it the focus and touches no row,
        once the views stopped moving (the progress bar goes, the banner comes)."""
        def settled():
            before = self.bounds()
            time.sleep(1.0)
            return before is not None and before == self.bounds()
        wait_for(settled, timeout=60)
        b = self.bounds()
        self.click(b[0] + 40, b[1] + LEGEND_LINE // 2)


TILE_HEIGHT = 8192  # JVMS_EXPORT_TILE_HEIGHT


def png_size(path):
    out = subprocess.run(["identify", "-format", "%w %h", path], capture_output=True, text=True)
    return [int(v) for v in out.stdout.split()] if out.returncode == 0 else None


def export_png(w, path):
    """Ctrl+E and the path typed into the Save dialog; the tiles written, in order."""
    w.key("ctrl+e")
    env = w.env
    dialog = wait_for(lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "Export"],
                                             env=env, capture_output=True, text=True).stdout.split())
    if not tap.check(bool(dialog), "Ctrl+E opens the Save dialog"):
        return []
    time.sleep(0.5)
    subprocess.run(["xdotool", "key", "ctrl+a"], env=env, capture_output=True)
    subprocess.run(["xdotool", "type", "--delay", "20", path], env=env, capture_output=True)
    subprocess.run(["xdotool", "key", "Return"], env=env, capture_output=True)
    stem = path[:-len(".png")]

    def tiles():
        found, i = [], 1
        while os.path.exists("%s-%d.png" % (stem, i)):
            found.append("%s-%d.png" % (stem, i))
            i += 1
        return found

    def done():
        # Written in order, each whole before the next: the export is done when the last one
        # written reads whole and is shorter than a tile (the end of the stack).
        found = tiles()
        size = png_size(found[-1]) if found else None
        return found if size and size[1] < TILE_HEIGHT and not os.path.exists(path) else None
    return wait_for(done, timeout=300) or tiles()


def loaded(w):
    return wait_for(lambda: w.get("history") == "true" and w.state.get("window", "loading") == "false"
                    and w.bounds() is not None and w.bounds()[3] > 30 and w.labels(), timeout=300)


def group_row(w, name):
    for i, label in enumerate(w.labels()):
        if label == "[%s]" % name or label.startswith("[%s " % name):
            return i
    return None


def item(text):
    """(time on a CPU in ns, name) of a thread-states-first/-last/-selected-item entry."""
    cpu, _, name = (text or "").partition(" ")
    return (int(cpu), name) if cpu.lstrip("-").isdigit() else None


def check_panel(w):
    """The side panel's thread-state list on a range dragged across the threads view: every
    thread listed, sorted, scrolled to its last, filtered."""
    b = w.bounds()
    y = b[1] + w.legend() + 8
    # To nine tenths of the trace: the JVM sleeps its last 3 s with every worker started, so the
    # range holds them all however long the starts took (under load, 25 of 3,000 workers had
    # not started by three fifths of the trace).
    x0, x1 = b[0] + GUTTER + (b[2] - GUTTER) // 5, b[0] + GUTTER + (b[2] - GUTTER) * 9 // 10
    subprocess.run(["xdotool", "mousemove", str(x0), str(y), "mousedown", "1"], env=w.env,
                   capture_output=True)
    for step in range(1, 11):
        subprocess.run(["xdotool", "mousemove", str(x0 + (x1 - x0) * step // 10), str(y)],
                       env=w.env, capture_output=True)
        time.sleep(0.05)
    wait_for(lambda: w.get("has-selection") == "true", timeout=30)
    subprocess.run(["xdotool", "mouseup", "1"], env=w.env, capture_output=True)

    def filled():
        return (w.get("has-selection") == "true" and w.panel("t0") == w.get("selection-start")
                and w.panel("t1") == w.get("selection-end")
                and int(w.panel("thread-states-threads", "0")) >= N_THREADS
                and len(ints(w.panel("thread-states-bounds", ""))) == 4)
    n = int(w.panel("thread-states-threads", "0")) if wait_for(filled, timeout=120) else 0
    tap.check(n >= N_THREADS and w.alive(),
              "the side panel lists the range's %d threads (the JVM's)" % n,
              (w.panel("thread-states-threads"), w.panel("t0"), w.get("selection-start")))
    tap.check(w.panel("thread-states-count", "").startswith("%d threads" % n)
              and int(w.panel("thread-states-listed", "0")) == n,
              "its count line says so: '%s'" % w.panel("thread-states-count"))
    first, last = item(w.panel("thread-states-first")), item(w.panel("thread-states-last"))
    tap.check(first and last and first[0] >= last[0] and first[0] > 0,
              "sorted by time on a CPU, the most first (%s ... %s)" % (first, last))
    # The panel's sections above the list (root causes) push it out of sight: the wheel over
    # the panel's right margin (no nested list there) scrolls it in, a click at a time, each
    # waited for (a busy window takes them late), up again if it went past.
    def bring_into_sight():
        for _ in range(80):
            t, p = ints(w.panel("thread-states-bounds", "")), ints(w.panel("thread-states-panel-bounds", ""))
            if len(t) != 4 or len(p) != 4:
                time.sleep(0.5)
                continue
            if t[1] >= p[1] and t[1] + t[3] <= p[1] + p[3]:
                return True
            was = w.panel("thread-states-bounds")
            button = "5" if t[1] + t[3] > p[1] + p[3] else "4"
            subprocess.run(["xdotool", "mousemove", str(p[0] + p[2] - 6), str(p[1] + p[3] // 2),
                            "click", button], env=w.env, capture_output=True)
            wait_for(lambda: w.panel("thread-states-bounds") != was, timeout=5, interval=0.2)
        return False

    def still():
        before = w.panel("thread-states-bounds")
        time.sleep(1.0)
        return before == w.panel("thread-states-bounds") and bring_into_sight()
    tap.check(bring_into_sight() and wait_for(still, timeout=60),
              "the wheel brings the list into sight",
              (w.panel("thread-states-bounds"), w.panel("thread-states-panel-bounds")))
    before = w.shot("panel")

    # End in the list: the last thread is selected, the list scrolled to its end and redrawn.
    # A click on a row gives the list the keyboard; on a loaded machine the panel may still
    # move under the pointer (its other sections fill in): again until a row is selected.
    def click_row():
        if not bring_into_sight():
            return False
        t = ints(w.panel("thread-states-bounds", ""))
        w.click(t[0] + t[2] // 3, t[1] + 70)
        return wait_for(lambda: int(w.panel("thread-states-selected", "-1")) > 0, timeout=10)
    tap.check(any(click_row() for _ in range(5)),
              "a click selects a thread of the list (not the first)", w.panel("thread-states-selected"))
    t = ints(w.panel("thread-states-bounds", ""))
    w.key("End")

    def at_end():
        sc = ints(w.panel("thread-states-scroll", ""))
        return (int(w.panel("thread-states-selected", "-1")) == n - 1 and len(sc) == 3
                and sc[0] > 0 and sc[0] + sc[1] >= sc[2] - 1)
    tap.check(wait_for(at_end, timeout=60)
              and w.panel("thread-states-selected-item") == w.panel("thread-states-last"),
              "End selects the last thread (%s) and scrolls the list to it" % w.panel("thread-states-last"),
              (w.panel("thread-states-selected"), w.panel("thread-states-scroll")))

    def redrawn():
        img = w.shot("panel-end")
        return window_test.changed_fraction(window_test.region(before, t[0], t[1] + 30, t[2], t[3] - 30),
                                            window_test.region(img, t[0], t[1] + 30, t[2], t[3] - 30)) > 0.02
    tap.check(wait_for(redrawn, timeout=30, interval=1.0), "the list's rows were drawn again at its end")

    # The filter runs on the whole list: the workers, all of them, then one.
    def click_search():
        if not bring_into_sight():
            return False
        f = ints(w.panel("thread-states-search-bounds", ""))
        w.click(f[0] + f[2] // 2, f[1] + f[3] // 2)
        return wait_for(lambda: w.panel("thread-states-search-focused") == "true", timeout=10)
    tap.check(any(click_search() for _ in range(5)), "a click puts the keyboard in the filter")
    subprocess.run(["xdotool", "type", "--delay", "20", "worker-"], env=w.env, capture_output=True)
    tap.check(wait_for(lambda: int(w.panel("thread-states-listed", "0")) == N_THREADS, timeout=30),
              "the filter 'worker-' lists the %d workers" % N_THREADS, w.panel("thread-states-listed"))
    w.shot("panel-workers")
    name = "worker-%d" % (N_THREADS - 7)
    subprocess.run(["xdotool", "type", "--delay", "20", str(N_THREADS - 7)], env=w.env, capture_output=True)
    tap.check(wait_for(lambda: int(w.panel("thread-states-listed", "0")) == 1
                       and (item(w.panel("thread-states-first")) or (0, ""))[1].startswith(name + " "), timeout=30),
              "the filter '%s' lists that thread alone" % name,
              (w.panel("thread-states-listed"), w.panel("thread-states-first")))
    w.shot("panel-filter")
    w.key("ctrl+a", "BackSpace")
    tap.check(wait_for(lambda: int(w.panel("thread-states-listed", "0")) == n, timeout=30),
              "emptied, all %d threads again" % n)
    w.key("Escape")


def check_jvm(args, tmp, trace):
    w = Window(args, tmp, "jvm", trace)
    try:
        if not tap.check(loaded(w), "the window opens the recording of %d threads" % N_THREADS,
                         w.state.read() and dict(w.state.read()["views"]) if w.state.read() else None):
            return
        # The profiler pane, shown for a recording's CPU samples, takes the lower part of the
        # window: the rows this test draws and clicks need the threads view's height.
        if wait_for(lambda: w.state.get("profiler", "shown") == "true", timeout=3):
            w.key("ctrl+shift+p")
            tap.check(wait_for(lambda: w.state.get("profiler", "shown") == "false", timeout=60),
                      "Ctrl+Shift+P hides the profiler pane", w.state.get("profiler", "shown"))
        labels = w.labels()
        pool = group_row(w, "worker-#")
        tap.check(pool is not None and pool in w.folded() and len(labels) < 100,
                  "its %d workers are one folded group, worker-#, among %d rows" % (N_THREADS, len(labels)),
                  labels[:40])
        if pool is None:
            return
        # The first rows, in whatever height the window gives the view under its notes.
        ok, seen = w.drawn("opened", 0, 200, hues=2)
        tap.check(ok, "the threads view drew coloured lanes", seen)

        # The keyboard row on the group says where its row is; Enter unfolds it: its 3,000
        # threads follow its header.
        w.focus_view()
        tap.check(w.cursor_to(pool), "the keyboard row goes to worker-# (Ctrl+Home, Down)", w.cursor())
        header = w.cursor()
        ok, seen = w.drawn("folded", header[1], header[2], hues=1) if header else (False, None)
        tap.check(ok, "the folded group's summary row is drawn (sleeping threads' colour)", seen)
        w.key("Return")
        unfolded = wait_for(lambda: len(w.labels()) >= len(labels) + N_THREADS, timeout=60)
        tap.check(unfolded and pool not in w.folded() and w.alive(),
                  "Enter unfolds it: %d rows, and the window lives" % len(w.labels()), len(w.labels()))
        now = w.labels()
        last = pool
        while last + 1 < len(now) and not now[last + 1].startswith("["):
            last += 1
        tap.check(last - pool == N_THREADS, "the %d workers follow the header" % N_THREADS, (pool, last))
        check_panel(w)
        w.focus_view()

        # The last worker, from the keyboard: Ctrl+End then Up to it, sent at once, faster
        # than the window lays out (each key must scroll from where the one before left it).
        w.key("ctrl+End")
        tap.check(wait_for(lambda: (w.cursor() or [None])[0] == len(now) - 1, timeout=60),
                  "Ctrl+End goes to the last row of the view", w.cursor())
        w.key("ctrl+Home")
        wait_for(lambda: (w.cursor() or [None])[0] == 0, timeout=60)
        subprocess.run(["xdotool", "key", "--delay", "5", "ctrl+End"] + ["Up"] * (len(now) - 1 - last),
                       env=w.env, capture_output=True)
        at_last = wait_for(lambda: (w.cursor() or [None])[0] == last, timeout=60)
        tap.check(at_last, "Ctrl+End then Up go back to the last worker", w.cursor())
        c = w.cursor()
        if c is not None:
            ok, seen = w.drawn("last-worker", c[1], c[2], hues=1)
            tap.check(ok and w.row_on_screen(c[1], c[2]) is not None,
                      "the window scrolled to the last worker (%s) and drew its lanes" % now[last],
                      (seen, w.bounds(), w.get("views-visible-bounds")))

        # Fold it again: the rows come back to what they were.
        tap.check(w.cursor_to(pool), "the keyboard row goes back to the header", w.cursor())
        w.key("Return")
        tap.check(wait_for(lambda: w.labels() == labels and pool in w.folded(), timeout=60),
                  "Enter folds it again: the rows as they were", len(w.labels()))
        c = w.cursor() or [0, 0, 0]
        ok, seen = w.drawn("folded-again", c[1], c[2], hues=1)
        tap.check(ok and w.alive(), "the folded row is drawn again and the window lives", seen)

        # Unfolded again, all rows exported as PNG (Ctrl+E, through the Save dialog, last: the
        # keyboard is not asked for after it): tiles, none taller than JVMS_EXPORT_TILE_HEIGHT.
        w.key("Return")
        tap.check(wait_for(lambda: len(w.labels()) == len(now), timeout=60),
                  "Enter unfolds it again", len(w.labels()))
        tiles = export_png(w, os.path.join(tmp, "views.png"))
        sizes = [png_size(t) for t in tiles]
        tap.check(len(tiles) >= N_THREADS * 20 // TILE_HEIGHT
                  and all(s and s[0] >= 800 and 0 < s[1] <= TILE_HEIGHT for s in sizes)
                  and all(s[1] == TILE_HEIGHT for s in sizes[:-1]),
                  "Ctrl+E writes all %d rows as %d PNG tiles of at most %d px" %
                  (len(now), len(tiles), TILE_HEIGHT), sizes)
        if tiles:
            img = window_test.read_image(tiles[len(tiles) // 2])
            colours = window_test.distinct_colours(window_test.region(img, GUTTER + 2, 0, 600, img[1]))
            hues = window_test.hue_buckets(window_test.region(img, GUTTER + 2, 0, 600, img[1]))
            tap.check(len(hues) >= 1 and colours >= 3,
                      "a tile in the middle holds drawn lanes (hues %s, %d colours)" % (hues, colours))
        tap.check(w.alive(), "the window lives after the export")
    finally:
        w.close()


def check_kernel(args, tmp, trace):
    w = Window(args, tmp, "kernel", trace)
    try:
        if not tap.check(loaded(w), "the window opens the machine trace"):
            return
        labels = w.labels()
        others = group_row(w, "Other processes")
        tap.check(others is not None and others in w.folded(),
                  "other processes are one folded group", labels[-10:])
        if others is None:
            return
        w.focus_view()
        tap.check(w.cursor_to(others), "the keyboard row goes to it", (w.cursor(), others, w.labels()[:20]))
        w.shot("cursor")
        w.key("Return")
        processes = lambda: [l for l in w.labels() if l.startswith("[Process ")]
        tap.check(wait_for(lambda: len(processes()) >= N_PROCESSES, timeout=60) and w.alive(),
                  "Enter unfolds it into %d processes, each a folded group" % len(processes()),
                  len(w.labels()))
        now = w.labels()
        tap.check(all(i in w.folded() for i, l in enumerate(now) if l.startswith("[Process ")),
                  "every process starts folded")

        # The last process: drawn where Ctrl+End takes the window.
        w.key("ctrl+End")
        tap.check(wait_for(lambda: (w.cursor() or [None])[0] == len(now) - 1, timeout=60),
                  "Ctrl+End goes to the last process", w.cursor())
        c = w.cursor()
        if c is not None:
            ok, seen = w.drawn("last-process", c[1], c[2], hues=0, colours=3)
            tap.check(ok and w.row_on_screen(c[1], c[2]) is not None,
                      "the window scrolled to it and drew its summary (%s)" % now[-1], seen)
        # Unfolded, it lists its threads under it.
        w.key("Return")
        tap.check(wait_for(lambda: len(w.labels()) > len(now), timeout=60),
                  "Enter unfolds the last process into its threads", (len(now), len(w.labels())))
        w.key("ctrl+End")
        after = w.labels()
        tap.check(wait_for(lambda: (w.cursor() or [None])[0] == len(after) - 1, timeout=60)
                  and not after[-1].startswith("["), "its last thread is the view's last row",
                  after[-3:])
        c = w.cursor()
        if c is not None:
            ok, seen = w.drawn("last-thread", c[1], c[2], hues=0, colours=3)
            tap.check(ok, "and is drawn", seen)
        # Folding the other processes again gives the first rows back.
        tap.check(w.cursor_to(others), "the keyboard row goes back to other processes", w.cursor())
        w.key("Return")
        tap.check(wait_for(lambda: w.labels() == labels, timeout=60) and w.alive(),
                  "Enter folds them again: the rows as they were")
    finally:
        w.close()


def main():
    ap = window_test.window_parser(keep="the screenshots")
    ap.add_argument("--only", choices=("jvm", "kernel"), help="one of the two traces")
    ap.add_argument("--jvm-trace", help="a recording of the workload made before (development)")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="jvmscope-many-")
    try:
        jvm = args.jvm_trace or (record_jvm(args.cli, tmp) if args.only in (None, "jvm") else None)
        if jvm is not None:
            check_jvm(args, tmp, jvm)
        kernel = record_kernel(tmp) if args.only in (None, "kernel") else None
        if kernel is not None:
            check_kernel(args, tmp, kernel)
    finally:
        if args.keep:
            tap.note("kept: " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    tap.done()


if __name__ == "__main__":
    main()
