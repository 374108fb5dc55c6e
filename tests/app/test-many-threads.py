#!/usr/bin/env python3
"""The window on traces of thousands of threads and processes (issue 27), in a real X server.

Two traces the test records itself:
  jvm      `jvmscope-cli record` of a JVM that starts 3,000 sleeping threads (worker-0 …
           worker-2999): it used to abort the window as it opened (a 16,878-pixel texture);
  kernel   `perf record -a` of a shell starting 3,000 processes: a kernel-only machine trace,
           whose other processes expand to processes and those to their threads.
For each, the window opens and draws the threads view (hues in its data area), the big group
is folded into one summary row that is drawn, unfolding it lists thousands of rows, the
keyboard (Ctrl+End, Up, Enter) goes to the last of them and the window shows it drawn, and
folding it again gives the rows back. Screenshots are kept with --keep.

What the window shows is read from JVMSCOPE_DEBUG_DUMP_STATE (docs/window.md): the thread rows
(`thread-row-labels`, `thread-folded-rows`), the keyboard row (`threads-cursor`) and where the
threads view is (`threads-bounds`).
"""
import argparse
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
        # No autorepeat: on a loaded machine xdotool's release can come late enough for the
        # server to repeat a key, and one Up too many is the wrong row.
        self.xvfb, display = window_test.start_xvfb(extra=("-ardelay", "30000"))
        self.state = window_test.State(os.path.join(tmp, name + "-state.ini"))
        self.env = dict(os.environ)
        self.env.update({
            "DISPLAY": display,
            "GDK_BACKEND": "x11",
            "GSETTINGS_SCHEMA_DIR": args.schema_dir,
            "GSETTINGS_BACKEND": "memory",
            "XDG_CACHE_HOME": os.path.join(tmp, "cache"),
            "XDG_CONFIG_HOME": os.path.join(tmp, "config"),
            "XDG_DATA_HOME": os.path.join(tmp, "data"),
            "JVMSCOPE_DEBUG_DUMP_STATE": self.state.path,
            "LC_ALL": "C.UTF-8",
            "GTK_A11Y": "none",
        })
        self.env.pop("WAYLAND_DISPLAY", None)
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
                seen.append(("row not on screen", b))
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


def check_jvm(args, tmp, trace):
    w = Window(args, tmp, "jvm", trace)
    try:
        if not tap.check(loaded(w), "the window opens the recording of %d threads" % N_THREADS,
                         w.state.read() and dict(w.state.read()["views"]) if w.state.read() else None):
            return
        labels = w.labels()
        pool = group_row(w, "worker-#")
        tap.check(pool is not None and pool in w.folded() and len(labels) < 100,
                  "its %d workers are one folded group, worker-#, among %d rows" % (N_THREADS, len(labels)),
                  labels[:40])
        if pool is None:
            return
        ok, seen = w.drawn("opened", 0, 400, hues=2)
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
    ap = argparse.ArgumentParser()
    ap.add_argument("--jvmscope", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--schema-dir", required=True)
    ap.add_argument("--keep", action="store_true", help="keep the screenshots")
    ap.add_argument("--only", choices=("jvm", "kernel"), help="one of the two traces")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="jvmscope-many-")
    try:
        jvm = record_jvm(args.cli, tmp) if args.only in (None, "jvm") else None
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
