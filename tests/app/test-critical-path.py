#!/usr/bin/env python3
"""The critical path in the window (docs/critical-path.md), under Xvfb with real clicks.

On the bundled sample: a click on the lanes of a thread of the threads view draws that thread's
critical path over what shows (nothing selected) and the side panel lists it; the path the window
dumps (range, segments, hand-offs, threads, time per thread) is the one `jvmscope-cli
critical-path` gives for the same range, to the nanosecond; the screenshot shows the path's colour
on the rows of the threads it visits; a click on the thread's label clears it.
"""
import importlib.util, json, os, shutil, subprocess, tempfile, time

from jvms_tap import Tap

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("window_helpers", os.path.join(HERE, "test-window.py"))
w = importlib.util.module_from_spec(spec)
spec.loader.exec_module(w)

THREAD = "order-1"
GUTTER = 180  # JVMS_TIMELINE_GUTTER
ROW_H = 26    # JVMS_THREADS_VIEW_ROW_HEIGHT
HIGHLIGHT = [(0xD5, 0x5E, 0x00), (0xF0, 0xA0, 0x50)]  # the palette's highlight, light and dark


KINDS = {"monitor-contention": "Monitor contention", "cpu-contention": "Waiting for a CPU",
         "gc": "Garbage collection", "jit": "JIT compilation", "safepoint": "Safepoints",
         "sleeping": "Sleeping", "parking": "Parked or waiting", "io": "Input/output",
         "allocation": "Allocation", "program-logic": "Running application code", "unknown": "not known"}


def findings_texts(value):
    """The key file's string list of finding-texts: ';' separates, '\\;' and '\\n' escape."""
    out, cur, i = [], "", 0
    while i < len(value):
        c = value[i]
        if c == "\\" and i + 1 < len(value):
            cur += {"n": "\n", ";": ";", "s": " ", "\\": "\\"}.get(value[i + 1], value[i + 1])
            i += 2
            continue
        if c == ";":
            out.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    if cur:
        out.append(cur)
    return out


def cause_links(state):
    """The side panel's links to causes: (kind, tid, from, to, x, y, w, h), in layout order."""
    out = []
    for x in state.get("panel", "cause-links", "").split(";"):
        p = x.split()
        if len(p) == 8:
            out.append((p[0], *(int(v) for v in p[1:])))
    return out


def expected_links(report):
    """The links analyze --json's findings call for: a monitor's first two holders and the first
    two threads that preempted them (two monitors), the first two CPU holders, each over its own
    longest interval (the report's range when it has none); the first three stragglers of the
    longest synchronisations, over theirs; 8 a finding."""
    f0, f1 = report["range"]["from_ns"], report["range"]["to_ns"]

    def own(kind, h):
        iv = h["intervals"][0] if h["intervals"] else {"from_ns": f0, "to_ns": f1}
        return (kind, h["tid"], iv["from_ns"], iv["to_ns"])
    out = []
    for f in report["findings"]:
        e, mine = f["evidence"], []
        for m in e.get("monitors", [])[:2]:
            mine += [own("holder", h) for h in m["holders"][:2]]
            mine += [own("preempted-by", h) for h in m["preempted_by"][:2]]
        mine += [own("cpu-holder", h) for h in e.get("cpu_holders", [])[:2]]
        mine += [("straggler", s["tid"], sp["sync_from_ns"], sp["sync_from_ns"] + max(s["ns"], 1))
                 for sp in e.get("safepoints", []) for s in sp["stragglers"]][:3]
        out += mine[:8]
    return out


def follow_link(tap, state, xdo, target, what, shot=None):
    """Scrolls the side panel (the wheel over it) until the link @target (kind, tid, from, to)
    shows, clicks it; the views select its interval, highlight its thread and make its row the
    threads view's keyboard row, shown; Escape (the threads view has the focus) clears."""
    kind, ltid, a, b = target
    vb = w.ints(state.get("views", "views-visible-bounds", ""))
    bottom = vb[1] + vb[3] if len(vb) == 4 else 700

    def moved():
        cursor = w.ints(state.get("views", "threads-cursor", ""))
        labels = [r for r in state.get("views", "thread-row-labels", "").split(";") if r]
        if state.get("views", "has-selection") != "true" or len(cursor) != 3:
            return None
        return ((int(state.get("views", "selection-start")), int(state.get("views", "selection-end"))),
                labels[cursor[0]] if cursor[0] < len(labels) else None, cursor,
                state.get("views", "highlighted-spans"))

    def outcome():
        """("ours", state) once the views show the target; ("neighbour", state) when they show
        another link's (a click that landed beside it)."""
        m = moved()
        if m is None:
            return None
        if m[0] == (a, b) and m[1] == str(ltid):
            return ("ours", m)
        if any(l[:4] != target and (l[2], l[3]) == m[0] and str(l[1]) == m[1] for l in cause_links(state)):
            return ("neighbour", m)
        return None

    def still():
        x = next((l for l in cause_links(state) if l[:4] == target), None)
        time.sleep(0.3)
        y = next((l for l in cause_links(state) if l[:4] == target), None)
        return x if x is not None and x == y else None

    got = None
    for attempt in range(3):
        link = None
        for _ in range(40):
            link = next((l for l in cause_links(state) if l[:4] == target), None)
            if link is None or 150 < link[5] and link[5] + link[7] < bottom:
                break
            xdo("mousemove", str(link[4] + 40), str(bottom - 120))
            xdo("click", "5" if link[5] + link[7] >= bottom else "4")
            time.sleep(0.4)
        # The wheel scrolls smoothly and the state dump lags a loaded main loop: the panel may
        # still move after the last read. Wait until the link stays put.
        link = w.wait_for(still) or link
        if not tap.check(link is not None and link[5] + link[7] < bottom, "the %s link shows" % kind, link):
            return
        x, y, lw, lh = link[4:]
        xdo("mousemove", str(x + min(lw, 60) // 2), str(y + lh // 2))
        time.sleep(0.2)
        xdo("click", "1")
        result = w.wait_for(outcome)
        if result is None or result[0] == "ours":
            got = result[1] if result else None
            break
        # The click landed on the link beside it (the panel moved under the pointer): again.
        tap.note("the click for the %s link selected another link's interval %s; clicked again" % (kind, result[1][:2]))
        # Escape clears the selection, and the findings come back over what shows: their
        # links are found again once the panel is done.
        xdo("key", "Escape")
        w.wait_for(lambda: state.get("views", "has-selection") == "false" and state.get("panel", "findings-busy") == "false"
                   and state.get("panel", "findings-t0") == state.get("views", "visible-start") and still())
    m = got or moved()
    tb = w.ints(state.get("views", "threads-bounds", ""))
    top = w.ints(state.get("views", "thread-rows-top", ""))
    shown = bool(got) and len(tb) == 4 and bool(top) and 0 <= top[0] + m[2][1] <= tb[3] - m[2][2]
    tap.check(got is not None and shown and m[3] == "%d:%d-%d;" % (ltid, a, b),
              "a %s link (%s) selects thread %d over [%d, %d) and scrolls its row into view" % (kind, what, ltid, a, b),
              (m, tb, top))
    if shot is not None:
        w.screenshot(shot[0], shot[1])
    xdo("key", "Escape")


def check_links(tap, state, xdo, args, trace, tmp, start, row, laid, tid, env):
    """Issue 20 item 6: every cause the findings and the path name is a link to its interval."""
    def settled_links():
        if (state.get("views", "has-selection") != "false" or state.get("panel", "findings-busy") != "false"
                or state.get("panel", "findings-t0") != state.get("views", "visible-start")):
            return None
        a = cause_links(state)
        time.sleep(0.5)
        return a if a and a == cause_links(state) else None
    links = w.wait_for(settled_links)
    f0, f1 = int(state.get("panel", "findings-t0", "0")), int(state.get("panel", "findings-t1", "0"))
    r = subprocess.run([args.cli, "analyze", trace, "--json", "--from", "%dns" % (f0 - start), "--to",
                        "%dns" % (f1 - start), "--cache-dir", os.path.join(tmp, "cli-cache")], capture_output=True, text=True)
    want = expected_links(json.loads(r.stdout)) if r.returncode == 0 else []
    got = [l[:4] for l in links or []]
    kinds = sorted(set(k for k, *_ in want))
    tap.check(got == want and {"holder", "preempted-by", "cpu-holder", "straggler"} <= set(kinds),
              "the findings link to their %d causes (%s) as analyze --json names them" % (len(want), ", ".join(kinds)),
              (got[:12], want[:12]))
    for kind in ("holder", "preempted-by", "cpu-holder", "straggler"):
        links = w.wait_for(settled_links) or []
        link = next((l for l in links if l[0] == kind), None)
        if tap.check(link is not None, "the findings have a %s link" % kind, links[:6]):
            follow_link(tap, state, xdo, link[:4], "finding")
    # The path's hand-offs: each links to the wait its waker ended, as critical-path says.
    # The links moved the threads view's keyboard row (and scrolled): Ctrl+Home takes it back to
    # the top, where the thread's row is.
    w.wait_for(settled_links)
    xdo("key", "ctrl+Home")

    # The view scrolls back smoothly: the row is clicked where two reads a second apart agree
    # it is, again (three times at most) when the click found no lanes of the thread.
    def settled_row():
        a = row()
        time.sleep(1.0)
        b = row()
        return a if a is not None and a == b else None
    for attempt in range(3):
        labels, ys, tb, top = w.wait_for(settled_row) or laid
        y = ys[labels.index(str(tid))]
        xdo("mousemove", str(tb[0] + GUTTER + (tb[2] - GUTTER) // 2), str(tb[1] + top + y + ROW_H // 2))
        time.sleep(0.2)
        xdo("click", "1")
        again = w.wait_for(lambda: state.get("path", "shown") == "true" and state.get("path", "tid") == str(tid))
        if again:
            break
        tap.note("the click for the path again found %s: the view moved" % state.get("path", "tid"))
    if not tap.check(again, "the path shows again", state.get("path", "tid")):
        return
    lo, hi = int(state.get("path", "from")), int(state.get("path", "to"))
    r = subprocess.run([args.cli, "critical-path", trace, "--thread", str(tid), "--from", "%dns" % (lo - start),
                        "--to", "%dns" % (hi - start), "--json", "--cache-dir", os.path.join(tmp, "cli-cache")],
                       capture_output=True, text=True)
    path = json.loads(r.stdout)
    # A "woke" link selects the part of the wait the path followed the waker over, [from_ns,
    # at_ns) of the hand-off (docs/critical-path.md), not the waker's segment before the
    # wake-up: the two differ on this path, or the check could not tell them apart.
    want = [("waker", h["waker"], h["from_ns"], h["at_ns"]) for h in path["handoffs"]][:8]
    segment = []
    for h in path["handoffs"][:8]:
        seg = [s for s in path["segments"] if s["tid"] == h["waker"] and s["to_ns"] == h["at_ns"]]
        segment += [("waker", h["waker"], seg[0]["from_ns"], seg[0]["to_ns"])] if seg else []
    # Each is part of its waker's cause intervals: a listed one (the longest 8, merged) that meets
    # it holds all of it.
    causes = {}
    for c in path["causes"]:
        if c["kind"] in ("waker", "holder"):
            causes.setdefault(c["tid"], []).extend((iv["from_ns"], iv["to_ns"]) for iv in c["intervals"])
    split = [x for x in want if any(a < x[3] and x[2] < b and not (a <= x[2] and x[3] <= b) for a, b in causes.get(x[1], []))]
    tap.check(want and want != segment and not split and all(f < t for *_, f, t in want),
              "the path's first %d hand-offs are waits of their wakers (%d not their last segment), each "
              "within its waker's cause intervals" % (len(want), len([x for x in want if x not in segment])),
              (want, segment, split))
    wakers = w.wait_for(lambda: [l for l in cause_links(state) if l[0] == "waker"] or None) or []
    tap.check([l[:4] for l in wakers] == want and want,
              "the path links its first %d hand-offs to the waits their wakers ended as critical-path --json has them"
              % len(want), ([l[:4] for l in wakers], want))
    # The hand-off clicked is one whose wait is not its waker's segment (a link to the segment
    # would not select it).
    differs = [x for x in want if x not in segment]
    if differs:
        follow_link(tap, state, xdo, differs[0], "critical path, woke", shot=(env, os.path.join(tmp, "woke.png")))


def main():
    args = w.window_parser().parse_args()
    tap = Tap()
    tmp = tempfile.mkdtemp(prefix="jvmscope-path-window-")
    trace = os.path.join(args.source_root, "data", "sample", "sample.jvmtrace")
    xvfb, display = w.start_xvfb()
    state = w.State(os.path.join(tmp, "state.ini"))
    env = w.window_env(display, args.schema_dir, tmp, state=state.path)
    log = open(os.path.join(tmp, "jvmscope.log"), "w")
    app = None

    def xdo(*cmd):
        return subprocess.run(["xdotool", *cmd], env=env, capture_output=True, text=True)

    try:
        app = subprocess.Popen([args.jvmscope, trace], env=env, stdout=log, stderr=subprocess.STDOUT)
        loaded = w.wait_for(lambda: state.get("window", "loading") == "false" and state.get("views", "history") == "true"
                            and state.get("views", "complete") == "true")
        if not tap.check(loaded, "the sample opens", state.get("window", "problem")):
            return tap.done()
        # The profiler pane, shown for the sample's CPU samples, would cover rows of the threads
        # view that this test looks at: hidden (Ctrl+Shift+P).
        if w.wait_for(lambda: state.get("profiler", "shown") == "true", timeout=3):
            xdo("key", "ctrl+shift+p")
            tap.check(w.wait_for(lambda: state.get("profiler", "shown") == "false"),
                      "Ctrl+Shift+P hides the profiler pane", state.get("profiler", "shown"))
        # Where the thread's row is: its index among the rows, its content y.
        def row():
            labels = [r for r in state.get("views", "thread-row-labels", "").split(";") if r]
            ys = w.ints(state.get("views", "thread-row-ys", ""))
            tb = w.ints(state.get("views", "threads-bounds", ""))
            top = w.ints(state.get("views", "thread-rows-top", ""))
            return ((labels, ys, tb, top[0]) if labels and len(ys) == len(labels) and len(tb) == 4 and tb[2] > 400
                    and top else None)
        # The banner that says what the trace holds (the sample's note) comes after the load and
        # moves the views down: the rows are where they are once it shows and two reads a second
        # apart agree.
        w.wait_for(lambda: state.get("window", "problem", "") != "")
        def settled():
            a = row()
            time.sleep(1.0)
            b = row()
            return a if a is not None and a == b else None
        laid = w.wait_for(settled)
        if not tap.check(laid is not None, "the threads view lists its rows and where they are",
                         (state.get("views", "thread-row-labels"), state.get("views", "thread-row-ys"))):
            return tap.done()
        cli = subprocess.run([args.cli, "analyze", trace, "--json", "--cache-dir", os.path.join(tmp, "cli-cache")],
                             capture_output=True, text=True)
        tid = [t["tid"] for t in json.loads(cli.stdout)["threads"] if t["name"] == THREAD][0]
        # The side panel's contents and the banner can still move the views after the rows
        # settled: a click that reached another row (its path shows) is tried again at the
        # row's new place, three times at most.
        for attempt in range(3):
            labels, ys, tb, top = laid
            y = ys[labels.index(str(tid))]
            visible = 0 <= top + y < tb[3] - ROW_H
            if attempt == 0:
                tap.check(visible, "%s's row shows without scrolling" % THREAD, (top, y, tb))
            if not visible:
                return tap.done()
            sx, sy = tb[0] + GUTTER + (tb[2] - GUTTER) // 2, tb[1] + top + y + ROW_H // 2
            w.screenshot(env, os.path.join(tmp, "before.png"))
            xdo("mousemove", str(sx), str(sy))
            time.sleep(0.2)
            xdo("click", "1")
            w.wait_for(lambda: state.get("path", "shown") == "true")
            if state.get("path", "tid") == str(tid):
                break
            tap.note("the click reached thread %s: the views moved" % state.get("path", "tid"))
            laid = w.wait_for(settled) or laid
        shown = w.wait_for(lambda: state.get("path", "shown") == "true")
        if not tap.check(shown and state.get("path", "tid") == str(tid),
                         "a click on %s's lanes draws its critical path" % THREAD,
                         (state.get("path", "shown"), state.get("path", "tid"), tid, (sx, sy), laid[1:],
                          row())):
            return tap.done()
        lo, hi = int(state.get("path", "from")), int(state.get("path", "to"))
        v0, v1 = int(state.get("views", "visible-start")), int(state.get("views", "visible-end"))
        tap.check((lo, hi) == (max(v0, lo), min(v1, hi)) and lo == v0,
                  "nothing selected: the path is over what shows", (lo, hi, v0, v1))
        # The same path from the command line, over the same range.
        index = json.loads(subprocess.run([args.cli, "index", "--json", "--cache-dir", os.path.join(tmp, "cli-cache"),
                                           trace], capture_output=True, text=True).stdout)
        start = index["start_ns"]
        r = subprocess.run([args.cli, "critical-path", trace, "--thread", str(tid), "--from", "%dns" % (lo - start),
                            "--to", "%dns" % (hi - start), "--json", "--cache-dir", os.path.join(tmp, "cli-cache")],
                           capture_output=True, text=True)
        path = json.loads(r.stdout) if r.returncode == 0 else None
        if tap.check(path is not None, "critical-path answers for the window's range", r.stderr):
            by = "".join("%d=%d;" % (t["tid"], t["ns"]) for t in path["by_thread"])
            got = (int(state.get("path", "segments")), int(state.get("path", "handoffs")),
                   int(state.get("path", "threads")), state.get("path", "by-thread"))
            want = (len(path["segments"]), len(path["handoffs"]), path["threads"], by)
            tap.check(got == want and (path["range"]["from_ns"], path["range"]["to_ns"]) == (lo, hi),
                      "the window's path is the command line's: %d segments, %d hand-offs, %d threads" % want[:3],
                      (got[:3], want[:3], got[3][:200], want[3][:200]))
            text = state.get("path", "text", "")
            first = path["by_thread"][0]["name"]
            tap.check(first in text and path["segments"][0]["cause"] in text,
                      "the side panel lists the path's threads and segments", text[:600])
        # The pixels: the path's colour (the palette's highlight) on the rows of the threads it
        # visits, right of the gutter, and not before the click (the screenshot is retaken until
        # the frame shows it).
        def path_pixels():
            img = w.screenshot(env, os.path.join(tmp, "path.png"))
            rows_hit = 0
            # Rows that show (the threads view can be shorter than its rows: another pane below).
            for t in path["by_thread"] if path else []:
                if str(t["tid"]) not in labels or not 0 <= top + ys[labels.index(str(t["tid"]))] < tb[3] - ROW_H:
                    continue
                ry = tb[1] + top + ys[labels.index(str(t["tid"]))]
                band = w.region(img, tb[0] + GUTTER, ry + ROW_H // 2 - 2, tb[2] - GUTTER, 3)
                if any(any(abs(b[i] - c[0]) < 16 and abs(b[i + 1] - c[1]) < 16 and abs(b[i + 2] - c[2]) < 16
                           for c in HIGHLIGHT) for b in band for i in range(0, len(b), 3)):
                    rows_hit += 1
            return rows_hit if rows_hit >= 2 else None
        tap.check(w.wait_for(path_pixels), "the path is drawn on the rows of its threads",
                  os.path.join(tmp, "path.png"))
        # The findings link to the blame (issue 20): the monitor's holders' states and who
        # preempted them, the GC's time to safepoint and who stopped last, as analyze --json
        # says for the range the findings are for.
        f0, f1 = int(state.get("panel", "findings-t0", "0")), int(state.get("panel", "findings-t1", "0"))
        r = subprocess.run([args.cli, "analyze", trace, "--json", "--from", "%dns" % (f0 - start), "--to",
                            "%dns" % (f1 - start), "--cache-dir", os.path.join(tmp, "cli-cache")],
                           capture_output=True, text=True)
        report = json.loads(r.stdout) if r.returncode == 0 else {"findings": []}
        texts = findings_texts(state.get("panel", "finding-texts", ""))
        def finding(kind):
            f = [f for f in report["findings"] if f["kind"] == kind]
            shown = [x for x in texts if x.startswith(KINDS[kind] + "\n")]
            return (f[0] if f else None), (shown[0] if shown else "")
        mon, shown = finding("monitor-contention")
        if tap.check(mon is not None and mon["evidence"]["monitors"], "the sample has contended monitors",
                     [f["kind"] for f in report["findings"]]):
            m = mon["evidence"]["monitors"][0]
            states = ", ".join("%s %.0f%%" % (KINDS.get(s, s), 100.0 * ns / m["blocked_ns"])
                               for s, ns in sorted(m["holder_states"].items(), key=lambda kv: -kv[1])[:3])
            thieves = ", ".join("%s (%d)" % (x["name"], x["tid"]) for x in m["preempted_by"][:3])
            tap.check("Its holders meanwhile: " + states in shown
                      and (not thieves or "Holders preempted by " + thieves in shown),
                      "the monitor's finding says what its holders did and who preempted them: " + states,
                      (shown, states, thieves))
        gc, shown = finding("gc")
        if tap.check(gc is not None, "the sample has a gc finding"):
            e = gc["evidence"]
            first = e["stragglers"][0] if e.get("stragglers") else None
            tap.check("Time to safepoint" in shown
                      and (first is None or "last to stop: %s (%s," % (first["name"], first["state"]) in shown),
                      "the gc finding gives the time to safepoint and who stopped last", (shown, first))
        xdo("mousemove", str(tb[0] + 40), str(sy))
        time.sleep(0.2)
        xdo("click", "1")
        tap.check(w.wait_for(lambda: state.get("path", "shown") == "false"),
                  "a click on the thread's label clears the path", state.get("path", "shown"))
        # A gc finding activated marks its safepoints' last threads to stop on the threads view,
        # each from the arm of the poll to its arrival, as analyze --json's safepoints say.
        names = [x.split("\n", 1)[0] for x in texts]
        # The path's section went away above the findings: their rows move up once laid out.
        def gc_row():
            b = w.ints(state.get("panel", "finding-row-bounds", ""))
            if gc is None or KINDS["gc"] not in names or len(b) != 4 * len(names):
                return None
            i = names.index(KINDS["gc"])
            return tuple(b[4 * i:4 * i + 4]) if 0 < b[4 * i + 1] < 800 else None
        def gc_row_settled():
            a = gc_row()
            time.sleep(0.5)
            return a if a is not None and a == gc_row() else None
        found = w.wait_for(gc_row_settled)
        if found is not None:
            bx, by, bw, bh = found
            xdo("mousemove", str(bx + bw // 3), str(by + min(bh, 40) // 2))
            time.sleep(0.2)
            xdo("click", "1")
            # The window's findings list 5 items of evidence (the command line 10): the five
            # longest synchronisations.
            want = sorted((s["tid"], sp["sync_from_ns"], sp["sync_from_ns"] + s["ns"])
                          for sp in gc["evidence"]["safepoints"][:5] for s in sp["stragglers"])
            def spans():
                got = [tuple(int(v) for v in x.replace(":", " ").replace("-", " ").split())
                       for x in state.get("views", "highlighted-spans", "").split(";") if x]
                return sorted(got) if got else None
            got = w.wait_for(spans)
            tap.check(got == want and len(want) > 0,
                      "the gc finding marks its safepoints' stragglers (%d spans) as analyze --json lists them" % len(want),
                      ((got or [])[:5], want[:5], state.get("views", "highlighted-threads"), (bx, by, bw, bh)))
            # The first mark on a row that shows, in the highlight colour.
            img = w.screenshot(env, os.path.join(tmp, "stragglers.png"))
            labels, ys, tb, top = w.wait_for(row)
            v0, v1 = int(state.get("views", "visible-start")), int(state.get("views", "visible-end"))
            hit = None
            # (Not `tid`: that is the path's thread, whose path check_links asks again below.)
            for stid, a, b in want:
                if str(stid) in labels and 0 <= top + ys[labels.index(str(stid))] < tb[3] - ROW_H:
                    x = tb[0] + GUTTER + int((a - v0) / (v1 - v0) * (tb[2] - GUTTER))
                    y = tb[1] + top + ys[labels.index(str(stid))]
                    band = w.region(img, max(0, x - 1), y + 1, 6, ROW_H - 2)
                    hit = any(any(abs(px[j] - c[0]) < 40 and abs(px[j + 1] - c[1]) < 40 and abs(px[j + 2] - c[2]) < 40
                                  for c in HIGHLIGHT) for px in band for j in range(0, len(px), 3))
                    break
            tap.check(hit, "the marks are drawn on the stragglers' rows", os.path.join(tmp, "stragglers.png"))
        else:
            tap.check(False, "the gc finding's row shows", (names, state.get("panel", "finding-row-bounds")))
        check_links(tap, state, xdo, args, trace, tmp, start, row, laid, tid, env)
    finally:
        w.end_app(app)
        xvfb.kill()
        log.close()
        if os.environ.get("JVMS_KEEP") is None:
            shutil.rmtree(tmp, ignore_errors=True)
    tap.done()


if __name__ == "__main__":
    main()
