#!/usr/bin/env python3
"""The Explorer pane (issue 22, docs/records.md) in the window under Xvfb, with real input.

On the bundled sample (it has a kernel layer, so scheduling quanta):
- Ctrl+Shift+X shows the pane; without a selection it lists every quantum of the trace, and its
  statistics per metric are `jvmscope-cli records --json --stats`'s to the last bit;
- a range dragged across the threads view: the pane lists the quanta starting in it, the same
  as `records --from --to`;
- a filter and a computed metric typed into the pane's entries (Enter applies each): the rows (in
  start order), their number and every metric's statistics (the new metric's too) are
  `records --from --to --filter --metric --json --stats`'s;
- a metric that names nothing: the pane says so under the entries with the expression's message
  and keeps the records shown;
- the scatter plot of duration against cpu-clock: Pearson's r and n as `records --scatter`, as
  many pixels marked as a naive binning of the CLI's values gives (no point hidden); a rectangle
  dragged on it selects exactly the records inside it in the table;
- the metric graph over time draws one segment per record in the visible range;
- a click on the duration header sorts the rows by duration, as the CLI's rows sorted;
- record sets in the pane, in the same saved file as the CLI's: a set saved with
  `records --save` is offered in the pane's chooser; one saved from the pane (its Save button) is
  listed by `records --list`; `long - pre`, `long | pre` and `long & pre` typed into the Set
  entry are `records --set long --minus/--union/--intersect pre`; `events:jdk.ThreadPark` is
  `records --set events:jdk.ThreadPark`; the Delete button removes a set from the file; none of
  those read the quanta again (the pane keeps them per range);
- the graph's markers for `jdk.GarbageCollection`: one per event of `records --set
  events:jdk.GarbageCollection` in the range, drawn;
- the table's selection is drawn in the graph (the scatter plot's rectangle: every record of it);
  a click on a record's segment in the graph selects that record in the table and its interval
  on the shared time axis (the views' selection), without reading again;
- the Timelines drop-downs: a stretch dragged and zoomed to (Z), By CPU and the cpu-clock shade
  chosen with the pointer and the keyboard; in the screenshots each quantum of records --json in
  sight is in its CPU's colour (one a CPU, distinct), and shaded as render --colour-by cpu
  --shade cpu-clock of the same range and width shades it, on the whole trace's scale;
- screenshots of each step (kept with --keep).
"""
import configparser, importlib.util, json, math, os, re, shutil, subprocess, tempfile, time

from jvms_images import read_png
from jvms_tap import Tap

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("window_helpers", os.path.join(HERE, "test-window.py"))
w = importlib.util.module_from_spec(spec)
spec.loader.exec_module(w)

STATS = ("n", "sum", "min", "max", "mean", "stddev", "mean_delta")
GUTTER = 180       # the views' label column (JVMS_TIMELINE_GUTTER)
LANE_Y, LANE_H = 14, 10   # a thread row's kernel lane (JVMS_THREADS_VIEW_KERNEL_LANE_Y)
FILTER = "duration > 50us && cpu-clock > 0"
METRIC = "share = cpu-clock / duration"


class Snapshot:
    """The state file read once, so that every key comes from one write."""
    def __init__(self, state):
        self.cp = state.read()

    def get(self, section, key, default=None):
        if self.cp is None or not self.cp.has_option(section, key):
            return default
        return self.cp.get(section, key)


def pixel(img, x, y):
    width, _h, data = img
    i = (y * width + x) * 3
    return data[i], data[i + 1], data[i + 2]


def key_list(value):
    return [v for v in (value or "").split(";") if v]


def cli_records(cli, trace, cache, *args):
    out = subprocess.run([cli, "records", trace, "--json", "--cache-dir", cache, *args],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("records %s: %s" % (args, out.stderr))
    return json.loads(out.stdout)


def cli_stats(cli, trace, cache, *args):
    return cli_records(cli, trace, cache, "--stats", *args)["stats"]


def shown_stats(snap, columns):
    out = {}
    for c in columns:
        v = snap.get("explorer", "stats-" + c)
        if v is not None:
            vals = v.split(";")
            out[c] = {k: (None if x == "null" else float(x)) for k, x in zip(STATS, vals)}
    return out


def want_stats(doc):
    return {c: {k: (None if s[k] is None else float(s[k])) for k in STATS} for c, s in doc.items()}


def main():
    args = w.window_parser(keep="the screenshots").parse_args()
    tap = Tap()
    trace = os.path.join(args.source_root, "data", "sample", "sample.jvmtrace")
    tmp = tempfile.mkdtemp(prefix="jvmscope-explorer-")
    cache = os.path.join(tmp, "cache")
    cli_cache = os.path.join(cache, "jvmscope")
    xvfb, display = w.start_xvfb("1400x1000")
    state = w.State(os.path.join(tmp, "state.ini"))
    env = w.window_env(display, args.schema_dir, tmp, state=state.path)
    log = open(os.path.join(tmp, "jvmscope.log"), "w")
    app = None

    def xdo(*cmd):
        return w.xdotool(env, *cmd)

    def drag(x0, x1, y):
        """A drag with the first button from x0 to x1 at y, in ten motions."""
        w.drag_pointer(env, (x0, y), (x1, y))

    def shot(name):
        time.sleep(1.0)  # the dump is written before the frame is painted
        path = os.path.join(tmp, name + ".png")
        w.screenshot(env, path)
        tap.note("screenshot: " + path)

    def settled(pred=lambda s: True):
        def f():
            s = Snapshot(state)
            return s if (s.get("explorer", "shown") == "true" and s.get("explorer", "busy") == "false"
                         and s.get("explorer", "rows") is not None and pred(s)) else None
        return w.wait_for(f)

    def compare(snap, what, *cli_args):
        doc = cli_records(args.cli, trace, cli_cache, *cli_args)
        stats = cli_stats(args.cli, trace, cli_cache, *cli_args)
        want_rows = ["%d/%d" % (r["epoch_ns"], r["tid"]) for r in doc["records"]]
        rows = key_list(snap.get("explorer", "first-rows"))
        n = int(snap.get("explorer", "rows", "-1"))
        tap.check(n == doc["count"] and n > 0 and rows == want_rows[:200],
                  "%s: the pane's %d rows are jvmscope-cli records's, in start order" % (what, n),
                  "pane %d, cli %d; first differing %s" % (
                      n, doc["count"], next(((a, b) for a, b in zip(rows, want_rows) if a != b), None)))
        columns = key_list(snap.get("explorer", "columns"))
        tap.check(columns == [c["name"] for c in doc["columns"]], "%s: the columns are the CLI's" % what,
                  (columns, [c["name"] for c in doc["columns"]]))
        got, want = shown_stats(snap, columns), want_stats(stats)
        tap.check(got == want and len(want) > 0,
                  "%s: the statistics of %s are records --stats's to the last bit" % (what, ", ".join(sorted(want))),
                  "pane %s\ncli  %s" % (got, want))
        return doc

    def check_scatter(snap, doc, rng):
        """The scatter plot of duration against cpu-clock: records --scatter's r and n, every point's
        pixel marked (a naive binning of the CLI's values), and a dragged rectangle selects its
        records in the table."""
        sx, sy = snap.get("explorer", "scatter-x"), snap.get("explorer", "scatter-y")
        corr = cli_records(args.cli, trace, cli_cache, *rng, "--filter", FILTER, "--metric", METRIC,
                           "--scatter", "%s,%s" % (sx, sy))["correlation"]
        r = snap.get("explorer", "pearson")
        tap.check((sx, sy) == ("duration", "cpu-clock") and r != "null" and float(r) == corr["pearson"]
                  and int(snap.get("explorer", "pairs")) == corr["n"] and corr["n"] > 0,
                  "the scatter plot of duration and cpu-clock: r %s and n %s as records --scatter" % (r, corr["n"]),
                  (sx, sy, r, snap.get("explorer", "pairs"), corr))
        pts = [(rec[sx], rec[sy]) for rec in doc["records"] if rec[sx] is not None and rec[sy] is not None]
        area = [int(v) for v in snap.get("explorer", "scatter-area", "").strip(";").split(";") if v]
        lo_x, hi_x = min(p[0] for p in pts), max(p[0] for p in pts)
        lo_y, hi_y = min(p[1] for p in pts), max(p[1] for p in pts)
        def col(v):
            return min(max(int(math.floor((v - lo_x) / (hi_x - lo_x) * (area[2] - 1) + 0.5)), 0), area[2] - 1)
        def row(v):
            return area[3] - 1 - min(max(int(math.floor((v - lo_y) / (hi_y - lo_y) * (area[3] - 1) + 0.5)), 0), area[3] - 1)
        pixels = {(col(x), row(y)) for x, y in pts}
        # The points are binned when the plot is drawn, after the dump that showed the answer.
        marked = int(w.wait_for(lambda: state.get("explorer", "scatter-marked", "0") != "0" and
                                state.get("explorer", "scatter-marked")) or 0)
        tap.check(int(snap.get("explorer", "scatter-points", "0")) == len(pts) and marked == len(pixels),
                  "every one of the %d points marks its pixel: %d pixels, as a naive binning" % (len(pts), marked),
                  (snap.get("explorer", "scatter-points"), marked, len(pixels)))
        # A rectangle over the lower left of the plot, where most points are.
        x0, y0 = area[0] + 2, area[1] + area[3] // 3
        x1, y1 = area[0] + area[2] // 3, area[1] + area[3] - 2
        w.drag_pointer(env, (x0, y0), (x1, y1), steps=5)
        sel = settled(lambda s: s.get("explorer", "scatter-selection") not in (None, ""))
        if not tap.check(sel is not None, "a drag on the scatter plot selects a rectangle",
                         state.get("explorer", "scatter-selection")):
            return
        rx0, rx1, ry0, ry1 = [float(v) for v in sel.get("explorer", "scatter-selection").split(";")]
        inside = ["%d/%d" % (rec["epoch_ns"], rec["tid"]) for rec in doc["records"]
                  if rec[sx] is not None and rec[sy] is not None
                  and rx0 <= rec[sx] <= rx1 and ry0 <= rec[sy] <= ry1]
        got = key_list(sel.get("explorer", "selected-rows"))
        n_sel = int(sel.get("explorer", "selected", "-1"))
        tap.check(n_sel == len(inside) and 0 < n_sel < len(pts) and got == inside[:200],
                  "the table selects the %d records inside the rectangle, as the CLI's values say" % n_sel,
                  (n_sel, len(inside), got[:3], inside[:3]))
        # The records selected in the table are drawn selected in the graph (all are in the
        # visible range: nothing was zoomed).
        hl = w.wait_for(lambda: state.get("explorer", "graph-selected-drawn", "0") == str(n_sel)
                        and state.get("explorer", "graph-selected-drawn"))
        tap.check(hl is not None and int(hl) == n_sel,
                  "the graph draws the %d records selected in the table as selected" % n_sel,
                  (state.get("explorer", "graph-selected-drawn"), n_sel))
        shot("2b-scatter")
        # The metric graph over time: every record shown that starts in the visible range (the
        # whole trace: nothing was zoomed) is a segment.
        start, v0, v1 = int(snap.get("explorer", "trace-start")), int(state.get("views", "visible-start")), int(state.get("views", "visible-end"))
        want = sum(1 for rec in doc["records"] if rec["duration"] is not None and rec["epoch_ns"] < v1
                   and rec["epoch_ns"] + rec["duration"] >= v0)
        drawn = w.wait_for(lambda: state.get("explorer", "graph-drawn", "0") != "0" and state.get("explorer", "graph-drawn"))
        tap.check(snap.get("explorer", "graph-metric") == "duration" and drawn and int(drawn) == want,
                  "the metric graph draws a segment for each of the %d records in the visible range" % want,
                  (snap.get("explorer", "graph-metric"), drawn, want))

    def type_into(bounds_key, text):
        b = w.ints(state.get("explorer", bounds_key))
        xdo("mousemove", str(b[0] + b[2] // 2), str(b[1] + b[3] // 2))
        xdo("click", "--repeat", "3", "1")
        time.sleep(0.3)
        xdo("key", "ctrl+a")
        if text:
            xdo("type", "--delay", "20", text)
        else:
            xdo("key", "BackSpace")
        xdo("key", "Return")

    def type_text(bounds_key, text):
        """Types into an entry whose Enter does nothing, and waits until the pane has the text.
        Typed again (three tries) when it has not: in CI at load 13-20 the keys of a first try
        were lost (the entry not yet focused by the click), and Save then saved under ""."""
        for attempt in range(3):
            b = w.ints(state.get("explorer", bounds_key))
            xdo("mousemove", str(b[0] + b[2] // 2), str(b[1] + b[3] // 2))
            xdo("click", "--repeat", "3", "1")
            time.sleep(0.3 + attempt)
            xdo("key", "ctrl+a")
            xdo("type", "--delay", "20", text)
            if w.wait_for(lambda: state.get("explorer", "name-text") == text, timeout=10):
                return True
            tap.note("typing %r into %s, try %d: the entry has %r" % (text, bounds_key, attempt + 1,
                                                                     state.get("explorer", "name-text")))
        return False

    def cli_plain(*cli_args):
        out = subprocess.run([args.cli, "records", trace, "--cache-dir", cli_cache, *cli_args],
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError("records %s: %s" % (cli_args, out.stderr))
        return out.stdout

    def click(bounds_key):
        b = w.ints(state.get("explorer", bounds_key))
        xdo("mousemove", str(b[0] + b[2] // 2), str(b[1] + b[3] // 2))
        time.sleep(0.3)
        xdo("click", "1")

    def keys(doc):
        return ["%d/%d" % (r["epoch_ns"], r["tid"]) for r in doc["records"]]

    def check_sets(rng):
        # Without the computed metric (events have no cpu-clock to compute it from).
        type_into("metric-bounds", "")
        settled(lambda s: s.get("explorer", "metrics") == "")
        reads = int(state.get("explorer", "reads", "0"))
        # A set the CLI saves is offered in the pane once it reads again.
        cli_plain("--filter", "preempted", "--save", "pre", "--limit", "0")
        type_into("filter-bounds", "duration > 1ms")
        snap = settled(lambda s: s.get("explorer", "filter") == "duration > 1ms")
        tap.check(snap is not None and "pre" in key_list(snap.get("explorer", "set-choices")),
                  "a set saved by jvmscope-cli records --save is offered in the pane's set chooser",
                  state.get("explorer", "set-choices", "")[:200])
        # The pane saves the set shown under the name typed: the CLI lists it.
        tap.check(type_text("name-bounds", "long"), "the set's name typed into the pane",
                  state.get("explorer", "name-text"))
        click("save-bounds")
        snap = settled(lambda s: "long" in key_list(s.get("explorer", "set-choices")))
        listed = cli_plain("--list")
        tap.check(snap is not None and "set\tlong\tquanta" in listed.splitlines(),
                  "the pane's Save: jvmscope-cli records --list lists the set", (listed, state.get("explorer", "error")))
        type_into("filter-bounds", "")
        settled(lambda s: s.get("explorer", "filter") == "")
        # Combined: the same records as the CLI's --minus, --union, --intersect.
        doc = None
        for text, opt in (("long - pre", "--minus"), ("long | pre", "--union"), ("long & pre", "--intersect")):
            type_into("set-bounds", text)
            snap = settled(lambda s, text=text: s.get("explorer", "set") == text and s.get("explorer", "error") == "")
            if not tap.check(snap is not None, "the set %s applies" % text, state.get("explorer", "error")):
                return
            if opt == "--minus":
                doc = compare(snap, "set %s" % text, *rng, "--set", "long", opt, "pre")
                shot("5-set-difference")
            else:
                want = cli_records(args.cli, trace, cli_cache, *rng, "--set", "long", opt, "pre")
                rows = key_list(snap.get("explorer", "first-rows"))
                tap.check(int(snap.get("explorer", "rows")) == want["count"] and rows == keys(want)[:200],
                          "set %s: the pane's %s rows are records --set long %s pre's" % (text, snap.get("explorer", "rows"), opt),
                          (snap.get("explorer", "rows"), want["count"]))
        tap.check(int(state.get("explorer", "reads")) == reads,
                  "the filters, the save and the three combined sets of one range share the quanta read before",
                  (reads, state.get("explorer", "reads")))
        # Events of a type as records.
        type_into("set-bounds", "events:jdk.ThreadPark")
        snap = settled(lambda s: s.get("explorer", "source") == "events:jdk.ThreadPark")
        if tap.check(snap is not None, "the set events:jdk.ThreadPark applies", state.get("explorer", "error")):
            compare(snap, "events:jdk.ThreadPark", *rng, "--set", "events:jdk.ThreadPark")
            shot("6-events")
        type_into("set-bounds", "quanta")
        settled(lambda s: s.get("explorer", "source") == "quanta" and s.get("explorer", "set") == "quanta")
        # Delete: gone from the file the CLI reads.
        type_text("name-bounds", "long")
        click("delete-bounds")
        snap = settled(lambda s: "long" not in key_list(s.get("explorer", "set-choices")))
        listed = cli_plain("--list")
        tap.check(snap is not None and "long" not in listed and "pre" in listed,
                  "the pane's Delete removes the set from the file (records --list)", listed)

    def check_graph(rng):
        type_into("markers-bounds", "jdk.GarbageCollection")
        snap = settled(lambda s: s.get("explorer", "markers") == "jdk.GarbageCollection")
        if not tap.check(snap is not None, "markers for jdk.GarbageCollection apply", state.get("explorer", "error")):
            return
        gcs = cli_records(args.cli, trace, cli_cache, *rng, "--set", "events:jdk.GarbageCollection")["records"]
        v0, v1 = int(state.get("views", "visible-start")), int(state.get("views", "visible-end"))
        shown = sum(1 for r in gcs if r["epoch_ns"] < v1 and r["epoch_ns"] + (r["duration"] or 0) >= v0)
        drawn = w.wait_for(lambda: state.get("explorer", "graph-marks-drawn", "0") != "0" and state.get("explorer", "graph-marks-drawn"))
        tap.check(int(snap.get("explorer", "marks")) == len(gcs) > 0 and drawn is not None and int(drawn) == shown,
                  "the graph marks the %d garbage collections of records --set events:jdk.GarbageCollection" % len(gcs),
                  (snap.get("explorer", "marks"), len(gcs), drawn, shown))
        shot("7-markers")
        # A click on the longest record's segment.
        doc = cli_records(args.cli, trace, cli_cache, *rng)
        rec = max(doc["records"], key=lambda r: r["duration"])
        area = w.ints(snap.get("explorer", "graph-area"))
        lo, hi = [float(v) for v in key_list(snap.get("explorer", "graph-range"))]
        x = area[0] + (rec["epoch_ns"] + rec["duration"] // 2 - v0) / (v1 - v0) * area[2]
        y = area[1] + (area[3] - 3) * (1 - (rec["duration"] - lo) / (hi - lo)) + 1.5
        reads = snap.get("explorer", "reads")
        xdo("mousemove", str(int(x)), str(int(y)))
        time.sleep(0.3)
        xdo("click", "1")
        key = "%d/%d" % (rec["epoch_ns"], rec["tid"])
        sel = settled(lambda s: key_list(s.get("explorer", "selected-rows")) == [key]
                      and s.get("views", "selection-start") == str(rec["epoch_ns"]))
        # The graph draws it selected at its next frame, after the dump that showed the selection.
        hl = w.wait_for(lambda: state.get("explorer", "graph-selected-drawn") == "1")
        tap.check(sel is not None and sel.get("views", "selection-end") == str(rec["epoch_ns"] + rec["duration"])
                  and hl and sel.get("explorer", "reads") == reads
                  and sel.get("explorer", "rows") == str(doc["count"]),
                  "a click on the longest record's segment selects it in the table and its interval in the views, "
                  "and the pane keeps its records",
                  (state.get("explorer", "selected-rows"), key, state.get("views", "selection-start"),
                   state.get("views", "selection-end"), rec["epoch_ns"], rec["duration"],
                   state.get("explorer", "graph-selected-drawn"), state.get("explorer", "rows")))
        shot("8-graph-click")

    def threads_rows(snap):
        """(the data area's first column, {tid: the screen y of its row's top}) for the threads
        view's rows whose kernel lane is wholly in sight ([quanta] threads-rows: the geometry
        the view draws with, as render prints it)."""
        m = re.match(r"^x0=(\d+)((?: \d+:-?\d+)*)$", snap.get("quanta", "threads-rows", ""))
        if m is None:
            return None, {}
        tb = w.ints(snap.get("views", "threads-bounds"))
        vis = w.ints(snap.get("views", "views-visible-bounds")) or tb
        bottom = min(vis[1] + vis[3], tb[1] + tb[3])
        rows = {}
        for p in m.group(2).split():
            tid, y = (int(v) for v in p.split(":"))
            if y + LANE_Y >= vis[1] and y + LANE_Y + LANE_H <= bottom:
                rows[tid] = y
        return int(m.group(1)), rows

    def checkable(quanta, rows, v0, v1, n):
        """The quanta of @rows lying over 6 whole columns or more of [v0, v1) at @n columns,
        each with the middle column of those inside it."""
        span = (v1 - v0) / n
        out = []
        for q in quanta:
            if q["tid"] not in rows or q["cpu"] is None:
                continue
            first = int(-(-(q["epoch_ns"] - v0) // span)) + 1
            last = int((q["epoch_ns"] + q["duration"] - v0) // span) - 2
            first, last = max(first, 0), min(last, n - 1)
            if last - first >= 4:
                out.append((q, (first + last) // 2))
        return out

    def choose(bounds_key, open_key, downs, done):
        """Opens a Timelines drop-down with a click (again, up to three times, until its list is
        shown), moves @downs items down with the keyboard and picks with Return; the state
        @done waits for."""
        for _attempt in range(3):
            b = w.ints(state.get("explorer", bounds_key))
            xdo("mousemove", str(b[0] + b[2] // 2), str(b[1] + b[3] // 2))
            time.sleep(0.3)
            xdo("click", "1")
            if w.wait_for(lambda: state.get("explorer", open_key) == "true", timeout=10):
                break
        for _ in range(downs):
            xdo("key", "Down")
            time.sleep(0.1)
        xdo("key", "Return")
        return w.wait_for(lambda: done(Snapshot(state)) and Snapshot(state))

    def check_timelines():
        began = time.monotonic()
        try:
            timelines()
        finally:
            tap.note("the Timelines step took %.1f s" % (time.monotonic() - began))

    def timelines():
        """The Timelines drop-downs (docs/records.md): By CPU and the cpu-clock shade chosen with
        the pointer and the keyboard over a range zoomed to; each quantum of records --json in
        sight is drawn in its CPU's colour (one a CPU, distinct), and shaded as render --colour-by
        cpu --shade cpu-clock of the same range and width shades it, on the same scale, which is
        the whole trace's."""
        snap = Snapshot(state)
        quanta = cli_records(args.cli, trace, cli_cache)["records"]
        gx, rows = threads_rows(snap)
        tb = w.ints(snap.get("views", "threads-bounds"))
        if not tap.check(gx is not None and rows, "the threads view's rows in sight",
                         (snap.get("quanta", "threads-rows"), tb)):
            return
        v0, v1 = int(snap.get("views", "visible-start")), int(snap.get("views", "visible-end"))
        # The view's width less its labels (the X window's coordinates are the window's plus its
        # frame: threads-rows has them, threads-bounds not).
        n = tb[2] - GUTTER
        # A stretch around one of the longest quanta of a thread in sight, as long as makes the
        # most of them checkable on two CPUs (and at least 30 px, a drag), selected with a drag
        # and zoomed to (Z).
        best = None
        quanta = [q for q in quanta if q["tid"] in rows]
        longest = []
        for tid in rows:
            longest += sorted((q for q in quanta if q["tid"] == tid), key=lambda q: -q["duration"])[:3]
        least = 30 * (v1 - v0) // n
        for q in longest:
            for k in (6, 20):
                t0 = max(v0, q["epoch_ns"] - k // 3 * q["duration"])
                t1 = min(v1, t0 + max(k * q["duration"], least))
                got = checkable(quanta, rows, t0, t1, n)
                score = (len({c[0]["cpu"] for c in got}) >= 2, len(got))
                if best is None or score > best[0]:
                    best = (score, t0, t1)
        if not tap.check(best is not None and best[0][1] >= 3, "a stretch with quanta to check in sight", best):
            return
        x0 = gx + int((best[1] - v0) / (v1 - v0) * n)
        x1 = gx + int((best[2] - v0) / (v1 - v0) * n) + 1
        y = min(rows.values()) + LANE_Y + LANE_H // 2
        drag(x0, x1, y)
        settled(lambda s: s.get("views", "has-selection") == "true" and s.get("views", "dragging") == "false")
        xdo("key", "z")
        zoomed = w.wait_for(lambda: state.get("views", "visible-start") == state.get("views", "selection-start")
                            and state.get("views", "visible-end") == state.get("views", "selection-end")
                            and Snapshot(state))
        if not tap.check(bool(zoomed), "Z zooms the views to the range dragged",
                         (state.get("views", "visible-start"), state.get("views", "selection-start"))):
            return
        # Esc: no selection, whose tint would lie over the quanta.
        xdo("key", "Escape")
        settled(lambda s: s.get("views", "has-selection") == "false")
        # By CPU: the second item of the colour drop-down.
        snap = choose("colour-bounds", "colour-open", 1,
                      lambda s: s.get("explorer", "quantum-colour") == "cpu"
                      and s.get("quanta", "threads-summary", "").startswith("coloured by cpu"))
        if not tap.check(bool(snap), "By CPU chosen in the Timelines drop-down: the threads view colours by CPU",
                         (state.get("explorer", "quantum-colour"), state.get("quanta", "threads-summary"))):
            return
        time.sleep(1.0)  # the dump is written before the frame is painted
        snap = Snapshot(state)
        gx, rows = threads_rows(snap)
        v0, v1 = int(snap.get("views", "visible-start")), int(snap.get("views", "visible-end"))
        by_cpu = w.screenshot(env, os.path.join(tmp, "9-by-cpu.png"))
        tap.note("screenshot: " + os.path.join(tmp, "9-by-cpu.png"))
        todo = checkable(quanta, rows, v0, v1, n)
        rows_cpu = rows
        colours, bad = {}, []
        for q, c in todo:
            colours.setdefault(q["cpu"], set()).add(pixel(by_cpu, gx + c, rows[q["tid"]] + LANE_Y + 2))
        bad = ["CPU %d: %d colours %s" % (cpu, len(cs), sorted(cs)) for cpu, cs in colours.items() if len(cs) != 1]
        distinct = {next(iter(cs)) for cs in colours.values()}
        tap.check(len(todo) >= 3 and len(colours) >= 2 and not bad and len(distinct) == len(colours),
                  "in the window, each of %d quanta of records --json in its CPU's colour, a colour per CPU (%d CPUs)"
                  % (len(todo), len(colours)), "\n".join(bad) or (len(todo), colours))
        # The shade: the sample's counter (sampled: an estimated shade).
        choices = key_list(snap.get("explorer", "shade-choices"))
        if not tap.check("cpu-clock" in choices, "the shade drop-down offers cpu-clock", choices):
            return
        snap = choose("shade-bounds", "shade-open", choices.index("cpu-clock"),
                      lambda s: s.get("explorer", "quantum-shade") == "cpu-clock"
                      and "shaded by cpu-clock from 0 to" in s.get("quanta", "threads-summary", ""))
        if not tap.check(bool(snap), "cpu-clock chosen in the shade drop-down: the threads view shades by it",
                         (state.get("explorer", "quantum-shade"), state.get("quanta", "threads-summary"))):
            return
        # The whole trace's scale, as render gives it for the same range and for the whole trace.
        start = int(snap.get("explorer", "trace-start"))
        out = os.path.join(tmp, "render-shade.png")
        r = subprocess.run([args.cli, "render", trace, "-o", out, "--cache-dir", cli_cache, "--views", "threads",
                            "--width", str(n + GUTTER), "--from", "%dns" % (v0 - start), "--to", "%dns" % (v1 - start),
                            "--colour-by", "cpu", "--shade", "cpu-clock"], env=env, capture_output=True, text=True)
        whole = subprocess.run([args.cli, "render", trace, "-o", os.path.join(tmp, "render-whole.png"),
                                "--cache-dir", cli_cache, "--views", "threads", "--colour-by", "cpu",
                                "--shade", "cpu-clock"], env=env, capture_output=True, text=True)
        line = re.search(r"^threads: (.*)$", r.stdout, re.M)
        whole_line = re.search(r"^threads: (.*)$", whole.stdout, re.M)
        rows_line = re.search(r"^threads rows: x0=(\d+)((?: \d+:\d+)*)$", r.stdout, re.M)
        if not tap.check(r.returncode == 0 and line and whole_line and rows_line, "render draws the same range and shade",
                         r.stderr + whole.stderr):
            return
        want = line.group(1)
        top = re.search(r"from 0 to (\S+) ", want).group(1)
        got = w.wait_for(lambda: state.get("quanta", "threads-summary") == want and want)
        tap.check(got == want and "from 0 to %s (estimated" % top in whole_line.group(1),
                  "the window's shade is render's, on the whole trace's scale: %s" % want,
                  (state.get("quanta", "threads-summary"), want, whole_line.group(1)))
        time.sleep(1.0)
        snap = Snapshot(state)
        gx2, rows = threads_rows(snap)
        shaded = w.screenshot(env, os.path.join(tmp, "10-shaded.png"))
        tap.note("screenshot: " + os.path.join(tmp, "10-shaded.png"))
        rendered = read_png(out)
        r_x0 = int(rows_line.group(1))
        r_rows = {int(a): int(b) for a, b in (p.split(":") for p in rows_line.group(2).split())}
        bad, checked, faint = [], 0, 0
        for q, c in todo:
            if q["tid"] not in rows or q["tid"] not in rows_cpu or q["tid"] not in r_rows:
                continue
            # What share of the CPU's colour render laid over its background there, and the
            # window's pixel with the same share over the window's own background.
            rb = pixel(rendered, r_x0 + c, r_rows[q["tid"]] + LANE_Y - 1)
            rf = pixel(rendered, r_x0 + c, r_rows[q["tid"]] + LANE_Y + 2)
            full = pixel(by_cpu, gx + c, rows_cpu[q["tid"]] + LANE_Y + 2)
            wx, wy = gx2 + c, rows[q["tid"]] + LANE_Y + 2
            wb, wg = pixel(shaded, wx, rows[q["tid"]] + LANE_Y - 1), pixel(shaded, wx, wy)
            k = max(range(3), key=lambda i: abs(full[i] - wb[i]))
            alpha = (rf[k] - rb[k]) / (full[k] - rb[k]) if full[k] != rb[k] else 1.0
            want_px = tuple(round(b + alpha * (f - b)) for b, f in zip(wb, full))
            checked += 1
            faint += alpha < 0.99
            if max(abs(a - b) for a, b in zip(wg, want_px)) > 3:
                bad.append("tid %d at %d: window %s, render's shade %.3f gives %s" % (q["tid"], q["epoch_ns"], wg, alpha, want_px))
        tap.check(checked >= 3 and faint > 0 and not bad,
                  "in the window, each of %d quanta shaded as render shades it (%d below full colour)" % (checked, faint),
                  "\n".join(bad[:20]) or (checked, faint))

    try:
        app = subprocess.Popen([args.jvmscope, trace], env=env, stdout=log, stderr=subprocess.STDOUT)
        ok = tap.check(w.wait_for(lambda: state.get("window", "loading") == "false"
                                  and state.get("views", "complete") == "true"),
                       "the sample is indexed", state.get("window", "problem"))
        if not ok:
            return
        tap.check(state.get("explorer", "shown") == "false", "the Explorer is hidden at first")
        windows = xdo("search", "--onlyvisible", "--name", "Jvmscope").stdout.split()
        if windows:
            xdo("windowactivate", "--sync", windows[0])
        # The profiler pane, shown for the sample's CPU samples, leaves the threads view (where
        # a range is dragged) a few pixels beside the Explorer: hidden.
        if w.wait_for(lambda: state.get("profiler", "shown") == "true", timeout=3):
            xdo("key", "ctrl+shift+p")
            tap.check(w.wait_for(lambda: state.get("profiler", "shown") == "false"),
                      "Ctrl+Shift+P hides the profiler pane", state.get("profiler", "shown"))
        xdo("key", "ctrl+shift+x")
        snap = settled(lambda s: s.get("explorer", "filter-bounds") is not None)
        if not tap.check(snap is not None, "Ctrl+Shift+X shows the Explorer and it reads the quanta",
                         (state.get("explorer", "shown"), state.get("explorer", "busy"), state.get("explorer", "error"))):
            return
        compare(snap, "the whole trace")
        shot("1-whole")

        # A range dragged across the threads view.
        tb = w.still_layout(state) or w.ints(state.get("views", "threads-bounds"))
        gx, gw = tb[0] + 180, tb[2] - 180
        y = w.thread_lane_y(state, tb) or tb[1] + min(tb[3], 100) // 2 + 20
        x0, x1 = gx + gw // 5, gx + gw * 3 // 5
        drag(x0, x1, y)
        snap = settled(lambda s: s.get("views", "has-selection") == "true" and s.get("views", "dragging") == "false"
                       and s.get("explorer", "from") == s.get("views", "selection-start")
                       and s.get("explorer", "to") == s.get("views", "selection-end"))
        if not tap.check(snap is not None, "a dragged range: the pane follows the selection",
                         (state.get("views", "selection-start"), state.get("explorer", "from"))):
            return
        start = int(snap.get("explorer", "trace-start"))
        rng = ["--from", "%dns" % (int(snap.get("explorer", "from")) - start),
               "--to", "%dns" % (int(snap.get("explorer", "to")) - start)]
        compare(snap, "the range", *rng)

        # A filter and a metric, typed.
        type_into("filter-bounds", FILTER)
        snap = settled(lambda s: s.get("explorer", "filter") == FILTER)
        tap.check(snap is not None, "the filter typed applies", state.get("explorer", "filter-text"))
        type_into("metric-bounds", METRIC)
        snap = settled(lambda s: s.get("explorer", "metrics") == METRIC and s.get("explorer", "filter") == FILTER)
        if not tap.check(snap is not None, "the metric typed applies",
                         (state.get("explorer", "metric-text"), state.get("explorer", "error"))):
            return
        doc = compare(snap, "filter and metric", *rng, "--filter", FILTER, "--metric", METRIC)
        tap.check("share" in key_list(snap.get("explorer", "columns")), "the computed metric is a column")
        shot("2-filtered")
        check_scatter(snap, doc, rng)

        # A metric naming nothing: the message, the records kept.
        type_into("metric-bounds", "bad = nosuch / 2")
        bad = settled(lambda s: s.get("explorer", "error") != "")
        msg = bad.get("explorer", "error", "") if bad else ""
        tap.check(bad is not None and "nosuch" in msg and bad.get("explorer", "error-shown") == "true"
                  and bad.get("explorer", "rows") == snap.get("explorer", "rows"),
                  "an unknown name: its message shows under the entries, the records stay", msg)
        shot("3-error")
        type_into("metric-bounds", METRIC)
        snap = settled(lambda s: s.get("explorer", "error") == "" and s.get("explorer", "metrics") == METRIC)
        tap.check(snap is not None and snap.get("explorer", "error-shown") == "false", "a good metric clears it")

        # Sorting by a click on a header.
        # The message's line went away: the headers are where they are once two reads agree.
        # (Under Xvfb without a window manager, the window lays out again only at the next input
        # event: the pointer moves over the table first.)
        tbl = w.ints(state.get("explorer", "table-bounds"))
        xdo("mousemove", str(tbl[0] + tbl[2] // 2), str(tbl[1] + tbl[3] - 10))
        def laid_out():
            a = state.get("explorer", "headers")
            time.sleep(0.6)
            b = state.get("explorer", "headers")
            return a if a and a == b else None
        headers = {h.split("|")[0]: [int(v) for v in h.split("|")[1:]] for h in key_list(w.wait_for(laid_out))}
        h = headers.get("duration")
        if tap.check(h is not None, "the duration header is on screen", headers):
            xdo("mousemove", str(h[0] + h[2] // 2), str(h[1] + h[3] // 2))
            time.sleep(0.3)  # the header sees the pointer enter before the press
            xdo("click", "1")
            by_duration = ["%d/%d" % (r["epoch_ns"], r["tid"])
                           for r in sorted(doc["records"], key=lambda r: r["duration"])]
            sorted_snap = settled(lambda s: key_list(s.get("explorer", "first-rows"))[:50] == by_duration[:50])
            tap.check(sorted_snap is not None, "a click on duration sorts the rows by duration, as the CLI's sorted",
                      (key_list(state.get("explorer", "first-rows"))[:3], by_duration[:3]))
            shot("4-sorted")

        # Record sets, in the file the CLI uses (the CLI and the pane see each other's).
        check_sets(rng)
        # Markers and the links between the graph and the table.
        check_graph(rng)
        # The threads view's quanta by CPU and shaded, chosen in the pane.
        check_timelines()
    finally:
        w.end_app(app)
        xvfb.terminate()
        xvfb.wait()
        log.close()
        if tap.failed or args.keep:
            with open(os.path.join(tmp, "jvmscope.log")) as f:
                tap.note("jvmscope output:\n" + f.read()[-3000:])
        if not args.keep and not tap.failed:
            shutil.rmtree(tmp, ignore_errors=True)
    tap.done()


if __name__ == "__main__":
    main()
