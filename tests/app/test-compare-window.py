#!/usr/bin/env python3
"""Compare With… in the real window under Xvfb, driven with real input (xdotool): docs/compare.md,
"In the window". Two recordings of one program with one change (tests/compare/Change.java: a
monitor taken by 2, then 6 threads) are made with jvmscope-cli record; the first is opened, the
second compared with it through Compare With Trace Folder… (Ctrl+Shift+K, its path typed in the
chooser). Then:

  - every table of the comparison window (kinds, monitors, ..., gc) holds the rows of
    `jvmscope-cli compare --json` with the same numbers (rates, change, uncertainty,
    significance, absolute amounts), in its order; monitor contention first, grown, significant;
  - the cells of the kinds table are the command's text for the same rows;
  - the baseline's side is the range dragged across its threads view before Compare With…,
    and the numbers are those of compare --json with that range;
  - the differential flame graph: every frame drawn has `compare --profile --json`'s change for
    its path and the other's share of the width; the widest frame that grew is vermillion, the
    widest that shrank blue (pixels);
  - a click on the Change header sorts the rows by change, a second click the other way, with
    the same rows;
  - the other's range typed in its entries: compared again, compare --json's numbers with
    --other-from/--other-to, and the flame graph too;
  - a JVM typed in the other's JVM entry that its trace does not have: refused with the words
    of compare --other-pid; its own typed back: compared again;
  - Ctrl+Q ends the program without a leak of ours, a GLib warning or a critical.

Screenshots go to the test's folder (printed). Prints TAP."""
import importlib.util
import json
import os
import subprocess
import tempfile
import time

from jvms_tap import Tap

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("test_window", os.path.join(HERE, "test-window.py"))
tw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tw)

# The member that names a row in each table of compare --json (docs/compare.md).
NAME_MEMBER = {"kinds": "kind", "monitors": "class", "parked": "on", "io": "target",
               "thread_groups": "group", "methods": "method", "allocations": "class", "gc": "measure"}
# Absolute amounts' members, but for gc ("baseline", "other").
ABS_UNIT = {"kinds": "ns", "monitors": "ns", "parked": "ns", "io": "ns", "thread_groups": "ns",
            "methods": "samples", "allocations": "bytes"}


def unescape(value):
    """A GKeyFile string value as configparser returns it (GKeyFile's escapes still in)."""
    out, i = [], 0
    while value is not None and i < len(value):
        c = value[i]
        if c == "\\" and i + 1 < len(value):
            out.append({"n": "\n", "t": "\t", "s": " ", "r": "\r", "\\": "\\"}.get(value[i + 1], value[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def rows_of(text):
    """The dump's rows: [name, 7 numbers or cells]."""
    return [line.split("\t") for line in unescape(text or "").split("\n") if line]


def row_name(table, r):
    """The row's name as the window (and the command's text) names it."""
    name = r[NAME_MEMBER[table]]
    if table == "thread_groups":
        name += " (%s, %d → %d) %s" % (r["kind"], r["baseline_threads"], r["other_threads"], r["state"])
    if table == "gc" and r.get("collector") is not None:
        name += " " + r["collector"]
    return name


def expected_row(table, r):
    """[name, baseline, other, change, uncertainty, significant, baseline abs, other abs] of a
    compare --json row, as the window's table holds them."""
    if table == "methods":
        rates = [r["baseline_share"], r["other_share"], r["change_share"], r["uncertainty_share"]]
    else:
        rates = [r["baseline_per_s"], r["other_per_s"], r["change_per_s"], r["uncertainty_per_s"]]
    if table == "gc":
        absolute = [r["baseline"], r["other"]]
    else:
        absolute = [r["baseline_" + ABS_UNIT[table]], r["other_" + ABS_UNIT[table]]]
    return [row_name(table, r)] + rates + [1.0 if r["significant"] else 0.0] + absolute


def same_row(shown, want):
    """The name and every number equal: the rates exactly as the command computes them (the
    JSON keeps a double's 17 digits), the absolute amounts as the JSON rounds them."""
    if len(shown) != 8 or shown[0] != want[0]:
        return False
    got = [float(v) for v in shown[1:]]
    return got[:5] == want[1:6] and [round(v) for v in got[5:]] == [round(v) for v in want[6:]]


def main():
    args = tw.window_parser(keep="the test's folder").parse_args()
    for name in ("jvmscope", "cli", "schema_dir", "source_root"):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    tap = Tap()
    tmp = tempfile.mkdtemp(prefix="jvmscope-compare-window-")
    classes = os.path.join(tmp, "classes")
    r = subprocess.run(["javac", "-d", classes, os.path.join(args.source_root, "tests", "compare", "Change.java")],
                       capture_output=True, text=True)
    if not tap.check(r.returncode == 0, "Change.java compiles", r.stderr):
        return tap.done()
    xvfb, display = tw.start_xvfb("1600x1000")
    state = tw.State(os.path.join(tmp, "state.ini"))
    env = tw.window_env(display, args.schema_dir, tmp, "keyfile", state.path)
    # GTK's file chooser leaves GLib's and the GL renderer's blocks at exit, which a fast
    # unwind cannot tell from ours (tests/lsan.supp): LeakSanitizer's exit status, not an
    # abort, and the leaks judged as test-window.py's export session judges them.
    app_env = tw.leak_status_env(env)
    log_path = os.path.join(tmp, "jvmscope.log")
    log = open(log_path, "w")
    app = None
    n_shot = [0]
    pair = []

    def xdo(*cmd):
        return tw.xdotool(env, *cmd)

    def shot(name):
        n_shot[0] += 1
        path = os.path.join(tmp, "%d-%s.png" % (n_shot[0], name))
        tw.screenshot(env, path)
        tap.note("screenshot: " + path)

    def compare_window():
        found = xdo("search", "--onlyvisible", "--name", "^Compare Traces$").stdout.split()
        return found[0] if found else None

    def bounds(key, name):
        """The bounds X,Y,W,H named @name in the [compare] list @key ("NAME=X,Y,W,H;")."""
        for entry in (state.get("compare", key) or "").split(";"):
            title, _, box = entry.partition("=")
            if title == name and box:
                return [int(v) for v in box.split(",")]
        return None

    def click(key, name, focus=False):
        b = bounds(key, name)
        window = compare_window()
        if b is None or window is None:
            return False
        # No window manager gives the keyboard to the window clicked: asked for, and the first
        # click may only focus the window (an entry is clicked twice: it only takes focus).
        xdo("windowfocus", window)
        time.sleep(0.3)
        xdo("mousemove", "--window", window, str(b[0] + b[2] // 2), str(b[1] + b[3] // 2))
        xdo("click", "1")
        if focus:
            time.sleep(0.6)
            xdo("click", "1")
        time.sleep(0.3)
        return True

    def quit_app():
        for _ in range(10):
            xdo("key", "ctrl+q")
            try:
                app.wait(timeout=10)
                return app.returncode == 0
            except subprocess.TimeoutExpired:
                pass
        return False

    def view(side):
        """[visible from, to, anchor, selection from, to, rows, trace start, end] of a side's view."""
        return [int(v) for v in (state.get("compare", side + "-view") or "").split()] or [0] * 8

    def follows(lead, other):
        """The follower's visible range: the lead's moved from its anchor to the follower's,
        kept inside the follower's trace as a session keeps it (jvms-session.c: shifted)."""
        s, e = other[2] + lead[0] - lead[2], other[2] + lead[1] - lead[2]
        if e - s >= other[7] - other[6]:
            return [other[6], other[7]]
        if s < other[6]:
            return [other[6], e + other[6] - s]
        if e > other[7]:
            return [s - (e - other[7]), other[7]]
        return [s, e]

    def lanes_drawn(name):
        """Both threads views drew coloured lanes (their data areas, right of the 180 px labels):
        the hues found in each. Screenshots until they did (frames lag behind the state dump on
        a busy machine); the last one is kept."""
        n_shot[0] += 1
        path = os.path.join(tmp, "%d-%s.png" % (n_shot[0], name))
        hues = []

        def drawn():
            img = tw.screenshot(env, path)
            geometry = xdo("getwindowgeometry", "--shell", compare_window() or "0").stdout
            pos = dict(line.split("=") for line in geometry.split() if "=" in line)
            hues[:] = []
            for side in ("baseline", "other"):
                b = bounds("views", side + "-threads") or [0, 0, 0, 0]
                hues.append(len(tw.hue_buckets(tw.region(img, int(pos.get("X", 0)) + b[0] + 180,
                                                         int(pos.get("Y", 0)) + b[1], max(b[2] - 180, 1), max(b[3], 1)))))
            return min(hues) >= 2
        tw.wait_for(drawn, interval=1.0)
        tap.note("screenshot: " + path)
        return hues

    def check_flame(ranges, colours=True):
        """The differential flame graph against compare --profile --json over the same ranges:
        each frame drawn has the command's change for its path and the other's share of the
        width; the widest frame that grew is drawn vermillion, the widest that shrank blue."""
        ok = tw.wait_for(lambda: state.get("compare", "busy") == "false", timeout=120)
        r = subprocess.run([args.cli, "compare", "--profile", "--json", pair[0], pair[1], *ranges], env=env,
                           capture_output=True, text=True)
        cli = json.loads(r.stdout) if r.returncode == 0 else {"frames": [], "other": {"total": -1}, "baseline": {"total": -1}}
        frames = {tuple(f["path"]): f for f in cli["frames"]}
        # The graph is laid out when it is drawn, which on a busy machine comes after the
        # comparison's answer: its frames are read once it drew the other's samples.
        tw.wait_for(lambda: bool(rows_of(state.get("compare", "flame-frames"))) == (cli["other"]["total"] > 0), timeout=60)
        drawn = rows_of(state.get("compare", "flame-frames"))
        flame = bounds("controls", "flame") or [0, 0, 0, 0]
        bad = []
        for path, change, x, w, row in drawn:
            f = frames.get(tuple(path.split(";")))
            if f is None or float(change) != f["change"] or abs(int(w) - f["other_share"] * flame[2]) > 1.5 \
                    or int(row) != len(f["path"]):
                bad.append((path[-60:], change, w, f and (f["change"], f["other_share"] * flame[2])))
        # A range without CPU samples on the other side draws the root alone.
        tap.check(ok and bool(drawn) == (cli["other"]["total"] > 0) and not bad
                  and int(state.get("compare", "flame-other-total", "-2")) == cli["other"]["total"]
                  and int(state.get("compare", "flame-baseline-total", "-2")) == cli["baseline"]["total"],
                  "the differential flame graph's %d frames have compare --profile's change and the other's "
                  "share of the width (%s)" % (len(drawn), " ".join(ranges)),
                  (bad[:3], ok, cli["other"]["total"], state.get("compare", "flame-other-total"),
                   cli["baseline"]["total"], state.get("compare", "flame-baseline-total"), r.stderr[-200:]))
        # Pixels: the centre of the widest frame that grew, and of the widest that shrank. Over the
        # other's whole default range (its threads' samples always there; a typed range may fall
        # before them when the JVM started slowly).
        if not colours:
            return
        time.sleep(1)
        n_shot[0] += 1
        path = os.path.join(tmp, "%d-flame.png" % n_shot[0])
        img = tw.screenshot(env, path)
        tap.note("screenshot: " + path)
        geometry = xdo("getwindowgeometry", "--shell", compare_window() or "0").stdout
        pos = dict(line.split("=") for line in geometry.split() if "=" in line)
        ox, oy = int(pos.get("X", 0)) + flame[0], int(pos.get("Y", 0)) + flame[1]
        for sign, name in ((1, "grew: vermillion"), (-1, "shrank: blue")):
            # A change of at least a quarter of the largest: at least a fifth of the hue.
            largest = max((abs(float(d[1])) for d in drawn), default=0)
            cand = [d for d in drawn if sign * float(d[1]) >= 0.25 * largest > 0 and int(d[3]) >= 6]
            # Change.java moves the work in the monitor from reconcile() to checksum() as the
            # threads go from 2 to 6: a wide frame always shrank and one always grew.
            if not tap.check(bool(cand), "a frame wide enough (6 px) whose change is at least a quarter of "
                             "the largest %s" % name.split(":")[0], [(d[0][-50:], d[1], d[3]) for d in drawn[:6]]):
                continue
            _, change, x, w, row = cand[0]
            # The fill is the frame's most frequent colour (its label's ink is the rest).
            counts = {}
            for line in tw.region(img, ox + int(x), oy + int(row) * 18, int(w) - 1, 17):
                for i in range(0, len(line) - 2, 3):
                    counts[tuple(line[i:i + 3])] = counts.get(tuple(line[i:i + 3]), 0) + 1
            rgb = max(counts, key=counts.get) if counts else (0, 0, 0)
            tap.check((rgb[0] > rgb[2] + 10) if sign > 0 else (rgb[2] > rgb[0] + 10),
                      "the widest frame that %s (change %.3f) %s" % (name.split(":")[0], float(change), rgb),
                      (x, w, row))

    def run():
        nonlocal app
        # Two recordings of one program with one change, made by the command.
        for n in (2, 6):
            path = os.path.join(tmp, "lock%d.jvmtrace" % n)
            r = subprocess.run([args.cli, "record", "-o", path, "--", "java", "-cp", classes,
                                "compare.Change", "lock", str(n), "4"], env=env, cwd=tmp,
                               capture_output=True, text=True)
            if not tap.check(r.returncode == 0, "jvmscope-cli record: the lock with %d threads" % n, r.stderr[-2000:]):
                return
            pair.append(path)
        app = subprocess.Popen([args.jvmscope, pair[0]], env=app_env, stdout=log, stderr=subprocess.STDOUT)
        if not tap.check(tw.wait_for(lambda: state.get("window", "page") == "trace"
                                     and state.get("views", "complete") == "true", timeout=180),
                         "the baseline opens"):
            return
        # A range dragged across the baseline's threads view: the comparison's baseline side.
        tw.wait_for(lambda: len(tw.ints(state.get("views", "threads-bounds"))) == 4
                    and tw.ints(state.get("views", "threads-bounds"))[3] > 100, timeout=60)
        tb = tw.still_layout(state) or [0, 0, 0, 0]
        gx, gw = tb[0] + 180, tb[2] - 180
        y = tw.thread_lane_y(state, tb) or tb[1] + min(tb[3], 100) // 2 + 20
        x0, x1 = gx + gw // 5, gx + gw * 4 // 5
        windows = xdo("search", "--onlyvisible", "--name", "Jvmscope|jvmtrace").stdout.split()
        if windows:
            xdo("windowactivate", "--sync", windows[0])
        selected = False
        for attempt in range(3):
            if attempt > 0:
                tb = tw.still_layout(state) or tb
                y = tw.thread_lane_y(state, tb) or y
            tw.drag_pointer(env, (x0, y), (x1, y), settle=0.3, hold=0.3)
            selected = tw.wait_for(lambda: state.get("views", "has-selection") == "true", timeout=10)
            if selected:
                break
            tap.note("drag %d from (%d, %d) to (%d, %d) over the threads view at %s: no selection; views %s"
                     % (attempt + 1, x0, y, x1, y, tb, state.get("views", "views-visible-bounds")))
            shot("0-drag-%d" % (attempt + 1))
        tap.check(selected, "a range dragged across the baseline's threads view is selected")

        chooser = None
        for _ in range(10):
            xdo("key", "ctrl+shift+k")
            chooser = tw.wait_for(lambda: xdo("search", "--onlyvisible", "--name", "Compare With").stdout.split(),
                                  timeout=5)
            if chooser:
                break
        tap.check(bool(chooser), "Ctrl+Shift+K opens the chooser")
        time.sleep(1)
        xdo("key", "ctrl+l")
        xdo("type", "--delay", "15", pair[1] + "/")
        time.sleep(0.5)
        xdo("key", "Return")
        done = tw.wait_for(lambda: state.get("compare", "busy") == "false" and state.get("compare", "rows-kinds"),
                           timeout=300)
        tap.check(done and state.get("compare", "other") == pair[1] and not state.get("compare", "error"),
                  "the comparison window compares the typed trace with the one shown",
                  (state.get("compare", "other"), state.get("compare", "error")))

        def cli_json(*extra):
            r = subprocess.run([args.cli, "compare", "--json", pair[0], pair[1], *extra], env=env,
                               capture_output=True, text=True)
            tap.check(r.returncode == 0, "jvmscope-cli compare --json " + " ".join(extra), r.stderr[-2000:])
            return json.loads(r.stdout) if r.returncode == 0 else {}
        # The selection as it ended (on a busy machine the drag's last motions come late), which
        # the comparison follows.
        tw.wait_for(lambda: state.get("compare", "busy") == "false"
                    and state.get("compare", "baseline-from") == state.get("views", "selection-start")
                    and state.get("compare", "baseline-to") == state.get("views", "selection-end"), timeout=120)
        s0, s1 = int(state.get("views", "selection-start", "0")), int(state.get("views", "selection-end", "0"))
        whole = cli_json()
        starts = [whole[side]["range"]["from_ns"] - whole[side]["range"]["from_offset_ns"] if whole else 0
                  for side in ("baseline", "other")]
        selection = ["--baseline-from", "%dns" % (s0 - starts[0]), "--baseline-to", "%dns" % (s1 - starts[0])]
        tap.check(int(state.get("compare", "baseline-from", "0")) == s0 and int(state.get("compare", "baseline-to", "0")) == s1
                  and whole and int(state.get("compare", "other-from", "0")) == whole["other"]["range"]["from_ns"]
                  and int(state.get("compare", "other-to", "0")) == whole["other"]["range"]["to_ns"],
                  "the baseline's side is the range selected in its window; the other's its default range",
                  (s0, s1, state.get("compare", "baseline-from"), state.get("compare", "baseline-to")))
        cli = cli_json(*selection)
        # Both traces' threads views, stacked, each on its own axis: the baseline's selection is
        # the range compared, the other shows its default range, both aligned at their starts.
        b, o = view("baseline"), view("other")
        tap.check(b[5] > 0 and o[5] > 0 and b[2] == s0 and b[3:5] == [s0, s1]
                  and o[2] == int(state.get("compare", "other-from", "0")) and o[3:5] == [0, 0]
                  and b[0] - b[2] == o[0] - o[2] and b[1] - b[2] == o[1] - o[2] and b[1] > b[0],
                  "both traces' threads views: the baseline's range selected, each from its range's start, "
                  "the same span", (b, o, s0, s1))
        hues = lanes_drawn("views")
        tap.check(min(hues) >= 2, "both threads views drew coloured lanes", hues)
        # A dragged range of the lock workload may hold no CPU sample (its threads mostly wait):
        # the methods table is then empty in both, and said so.
        if not cli.get("methods"):
            tap.note("the selected range has no CPU sample: the methods table is empty in compare --json")
        for table in NAME_MEMBER:
            shown = rows_of(state.get("compare", "rows-" + table))
            want = [expected_row(table, row) for row in cli.get(table, [])]
            bad = [(s, w) for s, w in zip(shown, want) if not same_row(s, w)]
            tap.check(len(shown) == len(want) and (len(want) > 0 or table in ("io", "parked", "allocations", "methods"))
                      and not bad,
                      "table %s: the window's %d rows are compare --json's, in its order, with its numbers"
                      % (table, len(want)), (len(shown), len(want), bad[:2]))
        kinds = rows_of(state.get("compare", "shown"))
        tap.check(state.get("compare", "table") == "kinds" and kinds and kinds[0][0] == "monitor-contention"
                  and float(kinds[0][3]) > 0 and kinds[0][5] == "1",
                  "the kinds table shows first: monitor contention on top, grown and significant", kinds[:2])

        # The cells are the command's text for the same rows ("  * KIND: B → O, C ± U").
        r = subprocess.run([args.cli, "compare", "--limit", "0", pair[0], pair[1], *selection], env=env,
                           capture_output=True, text=True)
        text = r.stdout.split("\n")
        cells = rows_of(state.get("compare", "cells"))
        lines = ["  %s %s: %s → %s, %s %s" % ("*" if c[5] else " ", c[0], c[1], c[2], c[3], c[4]) for c in cells]
        missing = [line for line in lines if line not in text]
        tap.check(r.returncode == 0 and lines and not missing,
                  "the kinds table's %d rows of cells are jvmscope-cli compare's text lines" % len(lines),
                  (missing[:2], [t for t in text if "monitor" in t][:2]))
        time.sleep(1)
        shot("table")
        check_flame(selection)
        # The clients' frames are under a lambda, whose hidden class JFR names anew in each run
        # ("$$Lambda$89+0x00007fc2e0007c10/927327686"): folded, they are one frame on both sides
        # (over both whole ranges, which hold the clients' samples however late they started).
        r = subprocess.run([args.cli, "compare", "--profile", "--json", pair[0], pair[1]], env=env,
                           capture_output=True, text=True)
        frames = json.loads(r.stdout)["frames"] if r.returncode == 0 else []
        post = [f for f in frames if f["path"][-1] == "compare.Change$Ledger.post"]
        tap.check(len(post) == 1 and post[0]["baseline_total"] > 0 and post[0]["other_total"] > 0
                  and not any("+0x" in m for f in frames for m in f["path"]),
                  "the monitor's frame (under a lambda) is one frame with samples on both sides",
                  ([(f["path"][-2:], f["baseline_total"], f["other_total"]) for f in post], r.stderr[-300:]))

        # A click on the Change header: sorted by change, ascending; again: descending.
        before = sorted(tuple(k) for k in kinds)
        for order, label in ((1, "ascending"), (-1, "descending")):
            clicked = click("headers", "Change")

            def sorted_rows():
                rows = rows_of(state.get("compare", "shown"))
                changes = [order * float(k[3]) for k in rows]
                return rows if rows and changes == sorted(changes) and [k[0] for k in rows] != [k[0] for k in kinds] else None
            got = tw.wait_for(sorted_rows, timeout=20)
            tap.check(clicked and got is not None and sorted(tuple(k) for k in got) == before,
                      "a click on the Change header sorts the rows by change, %s, the same rows" % label,
                      [(k[0], k[3]) for k in rows_of(state.get("compare", "shown"))][:5])
            if got:
                kinds = got
            shot("sorted-" + label)

        # The other's range typed in its entries (seconds from its start), Return.
        for key, text in (("other-from", "1"), ("other-to", "5.25")):
            click("controls", key, focus=True)
            xdo("key", "ctrl+a")
            xdo("type", "--delay", "15", text)
        xdo("key", "Return")
        want = (starts[1] + 1000000000, starts[1] + 5250000000)
        ranged = tw.wait_for(lambda: (int(state.get("compare", "other-from", "0")), int(state.get("compare", "other-to", "0"))) == want
                             and state.get("compare", "busy") == "false", timeout=180)
        tap.check(ranged, "the other's range typed in its entries (1 to 5.25 s) is compared",
                  (state.get("compare", "other-from"), state.get("compare", "other-to"), want))
        narrowed = cli_json(*selection, "--other-from", "1", "--other-to", "5.25")
        shown = rows_of(state.get("compare", "rows-kinds"))
        want_rows = [expected_row("kinds", row) for row in narrowed.get("kinds", [])]
        tap.check(ranged and len(shown) == len(want_rows) > 0 and all(same_row(a, b) for a, b in zip(shown, want_rows)),
                  "and its kinds are compare --json's with --other-from 1 --other-to 5.25",
                  (shown[:2], want_rows[:2]))
        check_flame(selection + ["--other-from", "1", "--other-to", "5.25"], colours=False)
        shot("other-range")

        # The other's JVM typed in (--other-pid): a process the trace does not have is refused in
        # the command's words; its own JVM typed back compares again.
        right = state.get("compare", "other-pid")

        def type_pid(text):
            click("controls", "other-pid", focus=True)
            xdo("key", "ctrl+a")
            xdo("type", "--delay", "15", text)
            xdo("key", "Return")
        type_pid("1")
        refused = tw.wait_for(lambda: "process 1 " in (state.get("compare", "error") or ""), timeout=60)
        r = subprocess.run([args.cli, "compare", pair[0], pair[1], "--other-pid", "1"], env=env,
                           capture_output=True, text=True)
        error = unescape(state.get("compare", "error") or "")
        tap.check(refused and r.returncode == 2 and error and error in r.stderr,
                  "a JVM the other trace does not have (1) is refused as compare --other-pid 1 refuses it",
                  (error, r.returncode, r.stderr[-300:]))
        shot("wrong-pid")
        type_pid(right)
        back = tw.wait_for(lambda: not state.get("compare", "error") and state.get("compare", "busy") == "false"
                           and state.get("compare", "other-pid") == right, timeout=120)
        tap.check(back and int(right) > 0, "its own JVM (%s) typed back: compared again" % right,
                  (state.get("compare", "error"), state.get("compare", "other-pid")))

        # A range dragged across the other trace's threads view: the other's side of the
        # comparison, and the baseline's view follows, aligned at the range's start.
        tb = bounds("views", "other-threads")
        window = compare_window()
        before = view("other")
        if tb and window:
            xdo("windowfocus", window)
            time.sleep(0.3)
            gx, gw = tb[0] + 180, tb[2] - 180
            y, x0, x1 = tb[1] + min(tb[3], 80) // 2 + 20, gx + gw // 4, gx + gw * 3 // 5
            tw.drag_pointer(env, (x0, y), (x1, y), settle=0.3, hold=0.3, window=window)
        dragged = tw.wait_for(lambda: view("other")[3] > 0 and view("other")[3:5] != before[3:5]
                              and [int(state.get("compare", k, "0")) for k in ("other-from", "other-to")] == view("other")[3:5]
                              and state.get("compare", "busy") == "false", timeout=120)
        o, b = view("other"), view("baseline")
        tap.check(dragged and o[2] == o[3] and b[0:2] == follows(o, b),
                  "a range dragged across the other's threads view is its side of the comparison; the "
                  "baseline's view follows, aligned at the range's start", (before, o, b, follows(o, b)))
        offsets = ["--other-from", "%dns" % (o[3] - starts[1]), "--other-to", "%dns" % (o[4] - starts[1])]
        dragged_cli = cli_json(*selection, *offsets)
        shown = rows_of(state.get("compare", "rows-kinds"))
        want_rows = [expected_row("kinds", row) for row in dragged_cli.get("kinds", [])]
        tap.check(dragged and len(shown) == len(want_rows) > 0 and all(same_row(a, c) for a, c in zip(shown, want_rows)),
                  "and its kinds are compare --json's with that range (%s)" % " ".join(offsets),
                  (shown[:2], want_rows[:2]))
        hues = lanes_drawn("dragged-other")
        tap.check(min(hues) >= 2, "both threads views still draw coloured lanes", hues)

    try:
        run()
    finally:
        if app is not None and app.poll() is None:
            quit_app()
            log.flush()
            with open(log_path, encoding="utf-8", errors="replace") as f:
                ok, detail = tw.quit_verdict(app.returncode, f.read())
            tap.note("session: %s" % detail[:300])
            tap.check(ok, "Ctrl+Q ends the program, with no leak of ours", detail)
            text = open(log_path, encoding="utf-8", errors="replace").read()
            tap.check("-CRITICAL **" not in text and "-WARNING **" not in text,
                      "the program printed no GLib criticals or warnings")
        tw.stop_session(tap, app, xvfb, log, tmp, args.keep)
    return tap.done()


if __name__ == "__main__":
    raise SystemExit(main())
