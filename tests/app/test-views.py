#!/usr/bin/env python3
"""The views of issue 19 in the real window (Xvfb, 1600x1000), on the bundled sample.

For each view, shown alone (the visible-views key), the test reads where the window put it from
the state dump (JVMSCOPE_DEBUG_DUMP_STATE: `<view>-bounds`, `<view>-legend-height`), takes a
screenshot and checks the pixels of its data area (right of the 180-pixel label gutter, below
its legend) for what the sample holds:

  object-age   the sample's 213 jdk.OldObjectSample events are fed to the view (as many as
               `jvmscope-cli summary` counts) and drawn as coloured dots;
  counters     the sample was recorded without hardware counters (cpu-clock instead): the view
               picks CPU time, says cpu-clock was recorded, and draws its line; asked for IPC
               it says IPC was not recorded and draws no line;
  legends      every view's legend is drawn whole at 1600 pixels (it wraps);
  toggles      the View menu's Object Age and Counters (Ctrl+Shift+B, Ctrl+Shift+H) show and
               hide their own view only, each in its own flag of visible-views;
  gc-workers   a row per GC worker thread the index has (GC/workers/<tid>/task, as
               `jvmscope-history-dump` lists them), each with its tasks drawn in colour;
  jit          a row per compiler thread (JIT/<tid>/compilation), each with its compilations
               drawn in colour, and a row of the deoptimizations, as many as `jvmscope-cli
               summary` counts jdk.Deoptimization events, drawn as ticks;
  vm-operations  the operation and safepoint-phase rows, each drawn in colour;
  allocation   a row per thread with an allocation rate in the index, each charted;
  disk         per device its queue row and a row per request slot the index has, each drawn;
  choice       the object age unit is chosen in the view's header: the drop-down, opened with
               the pointer and set with the keyboard, sets the object-age-unit key.
  events       the event lanes' chooser in the view's header lists every type that has events
               with its count, as `jvmscope-cli events --stats --json` counts them; the lanes
               are every type outside jdk.* until the user ticks more: opened with the pointer,
               a jdk.* type typed in its search and ticked with Enter becomes a lane, drawn, in
               name order among the others; the view with those lanes, zoomed into with
               Ctrl+wheel and exported by the window (Ctrl+E), is `jvmscope-cli render --views
               events --event-type T...` of the same range, width and types, pixel for pixel;
               unticked, the type goes again.
  tooltip      the allocation view's tooltip over a real pixel column of a real thread (the
               state dump's [tooltip]: the text shown, and the numbers it was made from) names
               the classes, bytes and rate that the oracle sums from `jvmscope-cli events`'
               jdk.ObjectAllocationSample rows of that thread over the column's span, widened to
               the 10 ms buckets of the rate; the column is one whose sums differ from both
               neighbours'.
"""
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

from jvms_folders import thread_folders
from jvms_tap import Tap

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("test_window", os.path.join(HERE, "test-window.py"))
tw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tw)
_spec = importlib.util.spec_from_file_location("test_event_table", os.path.join(HERE, "test-event-table.py"))
tet = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tet)

WIDTH, HEIGHT = 1600, 1000
GUTTER = 180

VIEW_CLASS = {
    "threads": "JvmsThreadsView", "cpus": "JvmsCpusView", "locks": "JvmsLocksView",
    "gc": "JvmsGcView", "gc-workers": "JvmsGcWorkersView", "jit": "JvmsJitView",
    "vm-operations": "JvmsVmOperationsView", "allocation": "JvmsAllocationView",
    "disk": "JvmsDiskView",
    "object-age": "JvmsObjectAgeView", "counters": "JvmsCountersView", "events": "JvmsEventsView",
}
# Row heights of the per-thread views (widgets/jvms-gc-workers-view.h, jvms-jit-view.h).
ROW_HEIGHT = {"gc-workers": 16, "jit": 20}




def pixels(img, box):
    """The RGB triples of @box (x, y, w, h), clipped to the screen."""
    width, height, data = img
    x, y, w, h = box
    out = []
    for yy in range(max(y, 0), min(y + h, height)):
        for xx in range(max(x, 0), min(x + w, width)):
            i = (yy * width + xx) * 3
            out.append((data[i], data[i + 1], data[i + 2]))
    return out


def saturated(px):
    return sum(1 for r, g, b in px if max(r, g, b) - min(r, g, b) >= 60)


def near(px, colour, tolerance=40):
    cr, cg, cb = colour
    return sum(1 for r, g, b in px if abs(r - cr) + abs(g - cg) + abs(b - cb) <= tolerance)


BUCKET_NS = 10_000_000  # the index's allocation-rate buckets (analysis/jvms-allocation-classes.h)


class AllocationOracle:
    """What each thread allocated, by class, from `jvmscope-cli events` (the sample's
    jdk.ObjectAllocationSample rows, each weighing its `weight`, as docs/attributes.md counts the
    allocation rate), summed here over any pixel column: the oracle of the allocation view's
    tooltip."""

    def __init__(self, cli, trace, env):
        out = subprocess.run([cli, "events", trace, "--type", "jdk.ObjectAllocationSample", "--json"],
                             capture_output=True, text=True, env=env, check=True).stdout
        self.rows = [(e["epoch_ns"], e["tid"], e["fields"].get("objectClass") or "", int(e["fields"]["weight"]))
                     for e in json.loads(out)["events"]]

    @staticmethod
    def column(t0, t1, n, c):
        """[start, end) of pixel column @c of @n over [t0, t1), as the views cut it
        (jvms_timeline_x_to_time: the same double arithmetic)."""
        edge = lambda k: t0 + math.floor(float(k) / n * float(max(t1 - t0, 1)))
        return edge(c), max(edge(c + 1), edge(c) + 1)

    @staticmethod
    def buckets(start, end):
        """The 10 ms buckets of the clock that [start, end) touches, as one span."""
        return start - start % BUCKET_NS, -(-end // BUCKET_NS) * BUCKET_NS

    def classes(self, tid, start, end):
        """{class: [bytes, events]} of @tid's rows in [start, end)."""
        out = {}
        for t, who, name, weight in self.rows:
            if who == tid and start <= t < end:
                acc = out.setdefault(name, [0, 0])
                acc[0] += weight
                acc[1] += 1
        return out

    def rate(self, tid, t):
        """Bytes/s of @tid in the bucket holding @t, None when it allocated nothing there."""
        b0 = t - t % BUCKET_NS
        got = self.classes(tid, b0, b0 + BUCKET_NS)
        return sum(v[0] for v in got.values()) * 1e9 / BUCKET_NS if got else None


def parse_numbers(text):
    """The allocation view's tooltip numbers (jvms_allocation_view_dup_tooltip_numbers)."""
    out = {}
    for part in (text or "").split(";"):
        key, _, value = part.partition("=")
        out[key] = value
    if "classes" in out:
        classes = {}
        for entry in filter(None, out["classes"].split("|")):
            name, _, counts = entry.rpartition("=")
            b, _, n = counts.partition(":")
            classes[name] = [int(b), int(n)]
        out["classes"] = classes
    return out


def shown_size(text):
    """Bytes from g_format_size's text ("12.3 MB", "512 bytes", a no-break space before the
    unit), with half its last digit."""
    m = re.match(r"^([\d.]+)\s(bytes?|kB|MB|GB)$", text)
    if not m:
        return None, 0
    unit = {"byte": 1, "bytes": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}[m.group(2)]
    return float(m.group(1)) * unit, (0.5 if unit == 1 else 0.05 * unit)


def main():
    ap = tw.window_parser(keep="the screenshots")
    ap.add_argument("--dump", required=True)
    args = ap.parse_args()
    tap = Tap()
    trace = os.path.join(args.source_root, "data", "sample", "sample.jvmtrace")
    tmp = tempfile.mkdtemp(prefix="jvmscope-views-")
    xvfb, display = tw.start_xvfb("%dx%d" % (WIDTH, HEIGHT))
    state = tw.State(os.path.join(tmp, "state.ini"))
    env = tw.window_env(display, args.schema_dir, tmp, "keyfile", state.path)
    # The window as large as the screen, as a user at 1600 pixels has it.
    os.makedirs(os.path.join(tmp, "config", "glib-2.0", "settings"))
    with open(os.path.join(tmp, "config", "glib-2.0", "settings", "keyfile"), "w") as f:
        f.write("[org/jvmscope/Jvmscope]\nwindow-width=%d\nwindow-height=%d\n" % (WIDTH, HEIGHT))
    log = open(os.path.join(tmp, "jvmscope.log"), "w")
    app = None

    def xdo(*cmd):
        return subprocess.run(["xdotool", *cmd], env=env, capture_output=True, text=True)

    def gsettings(*cmd):
        return subprocess.run(["gsettings", *cmd[:1], "org.jvmscope.Jvmscope", *cmd[1:]], env=env,
                              capture_output=True, text=True)

    def ints(key):
        return tw.ints(state.get("views", key, ""))

    def shot(name):
        path = os.path.join(tmp, name + ".png")
        img = tw.screenshot(env, path)
        tap.note("screenshot: " + path)
        return img

    def data_area(name):
        """The view's data area on screen: right of its gutter, below its legend."""
        b = ints(name + "-bounds")
        top = int(state.get("views", name + "-legend-height", "18"))
        if len(b) != 4:
            return None
        return (b[0] + GUTTER + 1, b[1] + top + 1, b[2] - GUTTER - 2, b[3] - top - 2)

    def show_only(name):
        """Shows one view alone (its own flag of visible-views) and waits until the window laid
        it out; a flag that shows another view too fails here."""
        gsettings("set", "visible-views", "['%s']" % name)
        ok = tw.wait_for(lambda: state.get("views", "shown") == VIEW_CLASS[name]
                         and len(ints(name + "-bounds")) == 4 and ints(name + "-bounds")[1] > 0,
                         timeout=30)
        if not ok:
            tap.check(False, "visible-views ['%s'] shows the %s view alone" % (name, name),
                      state.get("views", "shown"))
        return ok

    def through_header(cb, keys, done, opened=None):
        """Clicks a view's header choice at @cb and runs @keys once it is open (@opened, else
        after a pause), until @done. A loaded machine may open it after the keys were sent: then
        Escape closes what opened and the pointer tries again, three times at most."""
        for attempt in range(3 if cb else 0):
            xdo("mousemove", str(cb[0] + cb[2] // 2), str(cb[1] + cb[3] // 2))
            time.sleep(0.3)
            xdo("click", "1")
            if opened is None:
                time.sleep(1.0 + 2.0 * attempt)
            elif not tw.wait_for(opened, timeout=5 + 5 * attempt):
                xdo("key", "Escape")
                continue
            keys()
            if tw.wait_for(done, timeout=10):
                return True
            xdo("key", "Escape")
            time.sleep(0.5)
        return False

    def allocation_tooltip(n_rows):
        """The allocation view's tooltip over a real column of a real thread: the numbers it was
        computed from (the state dump's [tooltip] allocation) and the text shown (its text)
        against the oracle's sums over the same pixel column, widened to the rate's 10 ms
        buckets. The column is one whose sums differ from both neighbours', so that a tooltip
        one column off cannot pass, and one of the most classes (two: the sample's threads
        allocate one class per 10 ms bucket, and a column straddles two), so that a class left
        out cannot pass."""
        oracle = AllocationOracle(args.cli, trace, env)
        b = ints("allocation-bounds")
        top = int(state.get("views", "allocation-legend-height", "18"))
        t0, t1 = int(state.get("views", "visible-start", "0")), int(state.get("views", "visible-end", "0"))
        if len(b) != 4 or t1 <= t0:
            tap.check(False, "allocation tooltip: the view is on screen", (b, t0, t1))
            return
        gutter = min(GUTTER, b[2] // 3)
        n = b[2] - gutter
        # The bounds are the window's coordinates; the pointer's are its X window's, which has
        # the shadow GTK draws around it (at (0, 0): nothing else places it).
        offset = tw.ints(state.get("tooltip", "surface-offset", ""))
        b = [b[0] + offset[0], b[1] + offset[1], b[2], b[3]] if len(offset) == 2 else b

        def sums(tid, c):
            span = oracle.buckets(*oracle.column(t0, t1, n, c))
            return oracle.classes(tid, *span)

        def hover(x, y, when):
            """The pointer at (@x, @y); the dump once the tooltip shown is the one at @when."""
            xdo("mousemove", str(x), str(y))

            def seen():
                snap = state.read()
                if snap is None or snap.get("tooltip", "shown", fallback="") != "true":
                    return None
                got = parse_numbers(snap.get("tooltip", "allocation", fallback=""))
                return (got, snap.get("tooltip", "text", fallback="")) if got.get("time") == str(when) else None
            return tw.wait_for(seen, timeout=20)

        chosen = None
        for row in range(n_rows):
            y = b[1] + top + row * 30 + 15
            # A column of its own per row: the dump's time tells this row's tooltip from the last.
            c = n // 2 + row
            seen = hover(b[0] + gutter + c, y, oracle.column(t0, t1, n, c)[0])
            if seen is None:
                # GTK may hide the tooltip as the pointer crosses rows: out and in again.
                xdo("mousemove", "5", "5")
                time.sleep(0.5)
                seen = hover(b[0] + gutter + c, y, oracle.column(t0, t1, n, c)[0])
            if seen is None:
                tap.note("row %d: no tooltip at column %d (%d over %d-%d in %d columns, bounds %s, offset %s); the dump has %s" % (row, c, oracle.column(t0, t1, n, c)[0], t0, t1, n, b, offset, state.get("tooltip", "allocation")))
                continue
            tid = int(seen[0].get("tid", "0"))
            # Columns where the sums differ from both neighbours', most classes first.
            totals = [sums(tid, c) for c in range(n)]
            good = [c for c in range(1, n - 1) if len(totals[c]) >= 2
                    and totals[c] != totals[c - 1] and totals[c] != totals[c + 1]
                    and oracle.rate(tid, oracle.column(t0, t1, n, c)[0]) is not None]
            tap.note("row %d: thread %d, %d columns of 2 classes or more unlike their neighbours" % (row, tid, len(good)))
            if good:
                chosen = (row, y, tid, max(good, key=lambda c: (len(totals[c]), -c)))
                break
        if not tap.check(chosen is not None, "allocation tooltip: a thread with a column of 2 classes or more, "
                         "unlike its neighbours, is hovered", n_rows):
            return
        row, y, tid, c = chosen
        col = oracle.column(t0, t1, n, c)
        span = oracle.buckets(*col)
        want = oracle.classes(tid, *span)
        seen = hover(b[0] + gutter + c, y, col[0])
        shot("allocation-tooltip")
        xdo("mousemove", "5", "5")
        if not tap.check(seen is not None, "the tooltip over row %d, column %d of the allocation view is shown" % (row, c)):
            return
        got, text = seen
        tap.note("tooltip numbers: tid %s column %s buckets %s bytes %s; oracle %d-%d, %d-%d"
                 % (got.get("tid"), got.get("column"), got.get("buckets"), got.get("bytes"), col[0], col[1], span[0], span[1]))
        tap.check(got.get("tid") == str(tid) and got.get("column") == "%d-%d" % col
                  and got.get("buckets") == "%d-%d" % span,
                  "its classes are summed over the hovered pixel column's span, widened to the 10 ms buckets",
                  (got.get("column"), got.get("buckets"), col, span))
        tap.check(got.get("classes") == want and got.get("bytes") == str(sum(v[0] for v in want.values()))
                  and got.get("events") == str(sum(v[1] for v in want.values())) and got.get("truncated") == "0",
                  "... and are the oracle's: %d classes, %d bytes from jvmscope-cli events summed over that span"
                  % (len(want), sum(v[0] for v in want.values())),
                  sorted(set(map(str, (got.get("classes") or {}).items())) ^ set(map(str, want.items())))[:6])
        rate = oracle.rate(tid, col[0])
        tap.check((rate is None and got.get("rate") == "none")
                  or (rate is not None and got.get("rate") not in (None, "none") and abs(float(got["rate"]) - rate) < 0.01),
                  "... its rate under the pointer is the bucket's bytes per second (%s)" % rate, got.get("rate"))
        # The text the user reads: the rate, then the top three classes, their sizes and shares,
        # and how many more.
        lines = text.replace("\\n", "\n").split("\n")
        ranked = sorted(want.items(), key=lambda kv: (-kv[1][0], kv[0]))
        total = sum(v[0] for v in want.values())
        head = next((i for i, line in enumerate(lines) if line.startswith("Top classes in ")), None)
        listed = []
        for line in (lines[head + 1:head + 1 + min(3, len(want))] if head is not None else []):
            m = re.match(r"^  (.*)  (\S+\s\S+) \((\d+) %\)$", line)
            listed.append((m.group(1), m.group(2), int(m.group(3))) if m else (line, "", -1))
        bad = [(l, k) for l, k in zip(listed, ranked)
               if l[0] != k[0] or shown_size(l[1])[0] is None
               or abs(shown_size(l[1])[0] - k[1][0]) > shown_size(l[1])[1] + 1e-6
               or abs(l[2] - 100.0 * k[1][0] / total) > 0.5 + 1e-9]
        others = len(want) - 3
        tail = ["  and %d other class%s" % (others, "" if others == 1 else "es")] if others > 0 else []
        tap.check(head is not None and len(listed) == min(3, len(want)) and not bad
                  and lines[head + 1 + len(listed):] == tail,
                  "... and the tooltip shown names the top %d with their sizes and shares, and %d others"
                  % (len(listed), max(others, 0)), (bad, lines))
        shown_rate = shown_size(lines[1][:-2])[0] if len(lines) > 1 and lines[1].endswith("/s") else None
        tap.check(rate is not None and shown_rate is not None
                  and abs(shown_rate - rate) <= shown_size(lines[1][:-2])[1] + 1e-6,
                  "... and the rate under the pointer (%s)" % (lines[1] if len(lines) > 1 else None), rate)

    try:
        app = subprocess.Popen([args.jvmscope, trace], env=env, stdout=log, stderr=subprocess.STDOUT)
        ok = tap.check(tw.wait_for(lambda: state.get("window", "loading") == "false"
                                   and state.get("views", "complete") == "true"),
                       "the sample opens and is indexed in full")
        if not ok:
            return tap.done()

        # Object age: fed with the sample's old-object samples, drawn as dots.
        summary = subprocess.run([args.cli, "summary", trace], capture_output=True, text=True).stdout
        m = re.search(r"^\s*jdk\.OldObjectSample\s+(\d+)", summary, re.M)
        want = int(m.group(1)) if m else -1
        tap.check(want > 0 and tw.wait_for(lambda: state.get("views", "object-age-samples") == str(want)),
                  "the object age view is fed the %d old-object samples of the trace" % want,
                  state.get("views", "object-age-samples"))
        show_only("object-age")
        time.sleep(1.0)
        img = shot("object-age")
        area = data_area("object-age")
        dots = saturated(pixels(img, area)) if area else 0
        tap.check(dots >= 30, "... and draws them as coloured dots (%d saturated pixels)" % dots, area)

        # Counters without hardware counters: CPU time from cpu-clock.
        show_only("counters")
        time.sleep(1.0)
        tap.check(state.get("views", "counters-metric") == "cpu-time"
                  and state.get("views", "counters-metric-recorded") == "true"
                  and int(state.get("views", "counters-rows", "0")) > 0,
                  "counters: without hardware counters the view shows CPU time from cpu-clock",
                  (state.get("views", "counters-metric"), state.get("views", "counters-rows")))
        img = shot("counters-cpu-time")
        area = data_area("counters")
        line = near(pixels(img, area), (0x00, 0x72, 0xB2)) if area else 0
        tap.check(line >= 200, "... and draws its line (%d pixels of the line colour)" % line, area)
        gsettings("set", "counters-metric", "'ipc'")
        tap.check(tw.wait_for(lambda: state.get("views", "counters-metric") == "ipc"
                              and state.get("views", "counters-metric-recorded") == "false"),
                  "asked for IPC, the view says it was not recorded",
                  state.get("views", "counters-metric"))
        time.sleep(1.0)
        img = shot("counters-ipc")
        line = near(pixels(img, area), (0x00, 0x72, 0xB2)) if area else 0
        tap.check(line < 20, "... and draws no line (%d pixels of the line colour)" % line)
        gsettings("reset", "counters-metric")

        # GC workers and JIT compilations: a row per thread folder of the index, each drawn.
        index = json.loads(subprocess.run([args.cli, "index", trace, "--json"], capture_output=True,
                                          text=True, env=env).stdout)["index"]
        summary_types = dict((m.group(1), int(m.group(2))) for m in
                             re.finditer(r"^\s*(\S+)\s+(\d+)\s*$", summary, re.M))
        for name, root, leaf in (("gc-workers", "GC/workers", "task"), ("jit", "JIT", "compilation")):
            want = thread_folders(args.dump, index, root, leaf)
            show_only(name)
            time.sleep(1.0)
            key = "gc-workers-rows" if name == "gc-workers" else "jit-compilers"
            got = int(state.get("views", key, "-1"))
            tap.check(len(want) > 0 and got == len(want),
                      "%s: a row per thread of %s in the index (%d)" % (name, root, len(want)), got)
            img = shot(name)
            b = ints(name + "-bounds")
            top = int(state.get("views", name + "-legend-height", "18"))
            drawn = []
            for r in range(len(want)):
                y = b[1] + top + r * ROW_HEIGHT[name] + 2 if len(b) == 4 else 0
                drawn.append(saturated(pixels(img, (b[0] + GUTTER + 1, y, b[2] - GUTTER - 2,
                                                    ROW_HEIGHT[name] - 4))) if len(b) == 4 else 0)
            tap.check(len(drawn) > 0 and min(drawn) > 0,
                      "... each row draws its intervals in colour (%s coloured pixels)" % drawn)
        # VM operations: the operation and safepoint rows, each drawn.
        show_only("vm-operations")
        time.sleep(1.0)
        got = int(state.get("views", "vm-operations-rows", "-1"))
        tap.check(got == 2, "vm-operations: the operation and safepoint-phase rows", got)
        img = shot("vm-operations")
        b = ints("vm-operations-bounds")
        top = int(state.get("views", "vm-operations-legend-height", "18"))
        drawn = [saturated(pixels(img, (b[0] + GUTTER + 1, b[1] + top + r * 18 + 3, b[2] - GUTTER - 2, 12)))
                 if len(b) == 4 else 0 for r in range(2)]
        tap.check(min(drawn) > 0, "... each row draws the trace's operations and safepoints %s" % drawn)

        # Allocation: a row per thread with an allocation rate in the index, each charted.
        want = thread_folders(args.dump, index, "Threads", "allocation-rate")
        show_only("allocation")
        time.sleep(1.0)
        got = int(state.get("views", "allocation-rows", "-1"))
        tap.check(len(want) > 0 and got == len(want),
                  "allocation: a row per thread with Threads/<tid>/allocation-rate (%d)" % len(want), got)
        img = shot("allocation")
        b = ints("allocation-bounds")
        top = int(state.get("views", "allocation-legend-height", "18"))
        drawn = [near(pixels(img, (b[0] + GUTTER + 1, b[1] + top + r * 30 + 3, b[2] - GUTTER - 2, 24)),
                      (0x00, 0x9E, 0x73)) if len(b) == 4 else 0 for r in range(len(want))]
        tap.check(len(drawn) > 0 and min(drawn) > 0,
                  "... each row charts its rate in its colour %s" % drawn)
        allocation_tooltip(len(want))

        # Disk: per device a queue row and a row per request slot the index has, each drawn (to
        # the last pixel, which the bounds, cut to whole pixels, may leave out: the sample's last
        # requests are at its end).
        want = set(k for k in thread_folders(args.dump, index, "Disk", "queue"))
        slots = subprocess.run([args.dump, "-a", "Disk", index], capture_output=True, text=True,
                               check=True).stdout
        # Each slot's first request; the index's end (the dump's header).
        first = {}
        for m in re.finditer(r"^Disk/[^/\t]+/requests/(\d+)\t(\d+)\t\d+\tint\t", slots, re.M):
            first[int(m.group(1))] = min(first.get(int(m.group(1)), 1 << 63), int(m.group(2)))
        n_slots = len(set(re.findall(r"^Disk/[^/\t]+/requests/\d+(?=\t)", slots, re.M)))
        trace_end = int(re.search(r", (\d+)\)", slots).group(1))
        show_only("disk")
        time.sleep(1.0)
        got = int(state.get("views", "disk-rows", "-1"))
        tap.check(n_slots > 0 and got == len(want) + n_slots,
                  "disk: a queue row per device and a row per request slot (%d + %d)" % (len(want), n_slots), got)
        img = shot("disk")
        b = ints("disk-bounds")
        top = int(state.get("views", "disk-legend-height", "18"))
        drawn = [len([p for p in pixels(img, (b[0] + GUTTER + 1, b[1] + top + r * 16 + 1, b[2] - GUTTER + 1, 14))
                      if max(p) - min(p) >= 60 or max(p) < 120]) if len(b) == 4 else 0
                 for r in range(max(got, 0))]
        # A slot whose only requests begin in the last 10 ms (the view's last pixel or two) is
        # left out of the check: see docs/views.md, Disk.
        checked = [d for r, d in enumerate(drawn) if r == 0 or first.get(r - 1, 0) < trace_end - 10_000_000]
        tap.check(len(checked) > 1 and min(checked) > 0,
                  "... each row draws its requests %s (%d rows checked)" % (drawn, len(checked)))
        # A request with no completion in the trace is drawn up to its end, and its tooltip says
        # so (the sample's 4 KB read-ahead in slot 0 runs its last 4.2 s: this kernel records
        # nothing in the idle task, where the completion's interrupt came).
        open_requests = [(int(m.group(1)), int(m.group(2))) for m in re.finditer(
            r"^Disk/[^/\t]+/requests/(\d+)\t(\d+)\t%d\tint\t" % trace_end, slots, re.M)
            if int(m.group(2)) < trace_end - 1_000_000_000]
        if len(want) == 1 and open_requests and len(b) == 4:
            slot, since = open_requests[0]
            t0, t1 = int(state.get("views", "visible-start", "0")), int(state.get("views", "visible-end", "0"))
            offset = tw.ints(state.get("tooltip", "surface-offset", "")) or [0, 0]
            x = b[0] + offset[0] + GUTTER + int((since + trace_end) // 2 - t0) * (b[2] - GUTTER) // max(t1 - t0, 1)
            y = b[1] + offset[1] + top + (1 + slot) * 16 + 8
            xdo("mousemove", "5", "5")
            time.sleep(0.3)
            xdo("mousemove", str(x), str(y))
            text = tw.wait_for(lambda: (lambda t: t if "slot %d" % slot in t else None)(state.get("tooltip", "text", "")),
                               timeout=20)
            tap.check(bool(text) and "No completion in the trace" in text,
                      "disk: the tooltip of slot %d's request begun %.3f s before the end says it has no completion"
                      % (slot, (trace_end - since) / 1e9), (text, state.get("tooltip", "text", "")))
            xdo("mousemove", "5", "5")
        else:
            tap.check(False, "disk: the sample has one disk with a request open over its last second", open_requests)

        want = summary_types.get("jdk.Deoptimization", 0)
        got = int(state.get("views", "jit-deoptimizations", "-1"))
        tap.check(want > 0 and got == want,
                  "jit: the deoptimizations row counts the trace's %d jdk.Deoptimization events" % want,
                  got)

        # Every view's legend whole at this width.
        for name in VIEW_CLASS:
            show_only(name)
            tap.check(tw.wait_for(lambda: state.get("views", name + "-legend-cut") == "0"),
                      "the %s view's legend is drawn whole at %d pixels (%s lines)"
                      % (name, WIDTH, int(state.get("views", name + "-legend-height", "0")) // 18),
                      state.get("views", name + "-legend-cut"))
        shot("legend-threads")

        # Object Age and Counters: a toggle each.
        gsettings("reset", "visible-views")
        tw.wait_for(lambda: VIEW_CLASS["object-age"] in state.get("views", "shown", ""))
        xdo("mousemove", str(WIDTH // 3), str(HEIGHT // 2))
        xdo("key", "ctrl+shift+b")
        shown = tw.wait_for(lambda: (lambda s: s if "JvmsObjectAgeView" not in s else None)
                            (state.get("views", "shown", "")))
        flags = gsettings("get", "visible-views").stdout
        tap.check(shown and "JvmsCountersView" in shown and "'object-age'" not in flags
                  and "'counters'" in flags,
                  "Ctrl+Shift+B hides the object age view and only it", (shown, flags))
        xdo("key", "ctrl+shift+h")
        shown = tw.wait_for(lambda: (lambda s: s if "JvmsCountersView" not in s else None)
                            (state.get("views", "shown", "")))
        tap.check(shown is not None, "Ctrl+Shift+H hides the counters view", shown)
        xdo("key", "ctrl+shift+b")
        shown = tw.wait_for(lambda: (lambda s: s if "JvmsObjectAgeView" in s else None)
                            (state.get("views", "shown", "")))
        tap.check(shown and "JvmsCountersView" not in shown,
                  "Ctrl+Shift+B shows the object age view again, counters stay hidden", shown)

        # The age unit, chosen in the view's header with the pointer and the keyboard.
        show_only("object-age")
        # On screen: the dump right after the flag changed may still hold the old layout.
        cb = tw.wait_for(lambda: (lambda b: b if len(b) == 4 and 0 < b[1] < HEIGHT - b[3] else None)
                         (ints("object-age-choice-bounds")))
        through_header(cb, lambda: (shot("age-unit-popover"), xdo("key", "Down"), xdo("key", "Return")),
                       lambda: state.get("settings", "object-age-unit") == "bytes")
        tap.check(cb is not None and tw.wait_for(lambda: state.get("settings", "object-age-unit") == "bytes"),
                  "the object age view's header sets the age unit to bytes allocated since",
                  (cb, state.get("settings", "object-age-unit")))
        time.sleep(1.0)
        img = shot("object-age-bytes")
        dots = saturated(pixels(img, data_area("object-age") or (0, 0, 0, 0)))
        tap.check(dots >= 30, "... and draws the ages in bytes (%d saturated pixels)" % dots)

        # The event lanes, chosen in the view's header.
        out = subprocess.run([args.cli, "events", trace, "--stats", "--json"], capture_output=True, text=True)
        counts = {t["type"]: t["count"] for t in json.loads(out.stdout)["types"] if t["count"] > 0}
        default = sorted(t for t in counts if not t.startswith("jdk."))
        show_only("events")
        rows = tw.wait_for(lambda: state.get("views", "events-chooser-rows"))
        shown_counts = dict(r.split("=", 1) for r in (rows or "").split(";") if "=" in r)
        tap.check(shown_counts == {t: str(n) for t, n in counts.items()},
                  "the lanes' chooser lists each type with events and its count as `events --stats` does (%d types)"
                  % len(counts), (sorted(set(shown_counts.items()) ^ {(t, str(n)) for t, n in counts.items()})[:6]))
        lanes = lambda: (state.get("views", "events-lane-types", "") or "").split(";")
        tap.check(tw.wait_for(lambda: lanes() == default, timeout=10),
                  "the lanes are every type outside jdk.* by default (%d)" % len(default), (lanes(), default))
        pick = "jdk.GCPhasePause" if "jdk.GCPhasePause" in counts else sorted(t for t in counts if t.startswith("jdk."))[0]
        want = sorted(default + [pick])
        cb = tw.wait_for(lambda: (lambda b: b if len(b) == 4 and 0 < b[1] < HEIGHT - b[3] else None)
                         (ints("events-choice-bounds")))
        def chooser_open():
            return state.get("views", "events-chooser-open") == "true"

        def tick(name, shot_name=None):
            time.sleep(0.5)
            # The search may still hold what was typed before.
            xdo("key", "ctrl+a")
            xdo("type", "--delay", "50", name)
            time.sleep(0.5)
            if shot_name:
                shot(shot_name)
            xdo("key", "Return")

        through_header(cb, lambda: tick(pick, "events-chooser"), lambda: lanes() == want, chooser_open)
        tap.check(lanes() == want, "%s typed in the chooser and ticked with Enter becomes a lane, in name order" % pick,
                  (lanes(), want))
        xdo("key", "Escape")
        tw.wait_for(lambda: state.get("views", "events-chooser-open") == "false", timeout=10)
        time.sleep(1.0)
        img = shot("events-lanes")
        b = ints("events-bounds")
        top = int(state.get("views", "events-legend-height", "18"))
        row = want.index(pick) if pick in want else 0
        lane = (b[0] + GUTTER + 1, b[1] + top + row * 18 + 2, b[2] - GUTTER - 2, 14) if len(b) == 4 else (0, 0, 0, 0)
        drawn = saturated(pixels(img, lane))
        tap.check(drawn > 0, "... and its lane is drawn (%d saturated pixels in row %d)" % (drawn, row))
        # The lanes chosen, exported by the window over a range zoomed into with Ctrl+wheel,
        # against render --event-type of the same range, width and types.
        v0 = state.get("views", "visible-start")
        xdo("mousemove", str(b[0] + GUTTER + (b[2] - GUTTER) // 3), str(lane[1] + 7))
        xdo("keydown", "ctrl")
        xdo("click", "4")
        xdo("keyup", "ctrl")
        zoomed = tw.wait_for(lambda: state.get("views", "visible-start") != v0, timeout=20)
        tap.check(zoomed is not None, "Ctrl+wheel over the events view zooms in", v0)

        def waited(what, predicate, timeout=tw.STEP_TIMEOUT):
            return tw.wait_for(predicate, timeout=timeout)
        tet.render_matches_export(tap, args, env, state, xdo, waited, trace, tmp,
                                  os.path.join(tmp, "cache", "jvmscope"), event_types=want, name="lanes-export")
        # Enter again unticks it: the default lanes again.
        through_header(cb, lambda: tick(pick), lambda: lanes() == default, chooser_open)
        tap.check(tw.wait_for(lambda: lanes() == default, timeout=10),
                  "ticked again with Enter, %s is no lane any more" % pick, lanes())
        xdo("key", "Escape")
    finally:
        tw.stop_session(tap, app, xvfb, log, tmp, args.keep)
    return tap.done()


if __name__ == "__main__":
    main()
