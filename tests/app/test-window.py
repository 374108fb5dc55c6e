#!/usr/bin/env python3
"""The jvmscope window in a real X server (Xvfb), driven with real input events (xdotool).

Each step takes a screenshot of the whole screen (`import -window root`) into the test's
temporary folder (kept and printed with --keep) and checks what the window shows:

  start page      the window appears without a trace;
  open            `jvmscope TRACE` from a second process reaches the running instance over
                  D-Bus and opens the trace in the empty window; indexing ends;
  views drew      the views' area has many more distinct colours than on the start page;
  drag-select     press, move and release the pointer across the threads view: the session
                  has a selection and the side panel (its screen region) changed and lists rows;
  zoom key        W over the focused view narrows the visible range and redraws the ruler;
  corrupt file    a truncated copy opens in a new window that names the problem, and the
                  process keeps running with both windows.

What the window shows is read from JVMSCOPE_DEBUG_DUMP_STATE (docs/window.md): the window
writes its state to that key file whenever it changes, including where its views are.
Run under dbus-run-session (tests/app/meson.build does) so that instances find each other.
"""
import argparse
import colorsys
import configparser
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from jvms_tap import Tap

STEP_TIMEOUT = 120.0  # generous: the machine is shared; nothing here measures speed


def wait_for(predicate, timeout=STEP_TIMEOUT, interval=0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


def start_xvfb(size="1400x900", extra=()):
    """Xvfb on a free display: it writes the number it picked to the pipe (-displayfd).
    Autorepeat waits a minute: on a loaded machine xdotool's release of a typed key can come
    more than the default 660 ms after its press, and the server then repeats the key (the
    explorer test once typed "500us" for "50us")."""
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", size + "x24",
                             "-ardelay", "60000", "-nolisten", "tcp", *extra], pass_fds=(w,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    number = b""
    with os.fdopen(r, "rb") as f:
        while not number.endswith(b"\n"):
            chunk = f.read(1)
            if not chunk:
                break
            number += chunk
    if not number.strip():
        proc.kill()
        raise RuntimeError("Xvfb did not report a display")
    return proc, ":" + number.decode().strip()


def window_parser(keep=None):
    """The arguments tests/app/meson.build passes every window test; a test adds its own.
    @keep: what --keep keeps, for a test that has the option."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--jvmscope", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--schema-dir", required=True)
    ap.add_argument("--source-root", required=True)
    if keep:
        ap.add_argument("--keep", action="store_true", help="keep " + keep)
    return ap


def window_env(display, schema_dir, tmp, backend="memory", state=None, **extra):
    """The environment a window under test runs in: X11 on @display (xdotool drives X, not
    Wayland), the build's schemas, the settings in memory or in a key file under @tmp, the
    caches, configuration and data under @tmp, the C locale and no accessibility bus; the
    state dump at @state if given. The key file backend lets `gsettings set` from the test
    reach the running window and a key file written first set the window's size. @extra sets
    further variables; None as a value removes one."""
    env = dict(os.environ)
    env.update({
        "DISPLAY": display,
        "GDK_BACKEND": "x11",
        "GSETTINGS_SCHEMA_DIR": schema_dir,
        "GSETTINGS_BACKEND": backend,
        "XDG_CACHE_HOME": os.path.join(tmp, "cache"),
        "XDG_CONFIG_HOME": os.path.join(tmp, "config"),
        "XDG_DATA_HOME": os.path.join(tmp, "data"),
        "LC_ALL": "C.UTF-8",
        "GTK_A11Y": "none",
    })
    env.pop("WAYLAND_DISPLAY", None)
    if state is not None:
        env["JVMSCOPE_DEBUG_DUMP_STATE"] = state
    for name, value in extra.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


class State:
    def __init__(self, path):
        self.path = path

    def read(self):
        cp = configparser.ConfigParser(interpolation=None)
        try:
            with open(self.path, encoding="utf-8") as f:
                cp.read_file(f)
        except (OSError, configparser.Error):
            return None
        return cp

    def get(self, section, key, default=None):
        cp = self.read()
        if cp is None or not cp.has_option(section, key):
            return default
        return cp.get(section, key)


def xdotool(env, *cmd):
    """xdotool with @cmd on @env's display."""
    return subprocess.run(["xdotool", *cmd], env=env, capture_output=True, text=True)


def drag_pointer(env, start, end, steps=10, settle=0.2, hold=0.0, until=None, window=None):
    """A drag with the first button from @start (x, y) to @end in @steps motions, 50 ms apart,
    after @settle seconds on the start; released after @hold seconds, or once until() holds
    (a busy window handles motion late). With @window, the points are in that X window's
    coordinates."""
    at = ["--window", window] if window else []
    xdotool(env, "mousemove", *at, str(start[0]), str(start[1]))
    time.sleep(settle)
    xdotool(env, "mousedown", "1")
    for step in range(1, steps + 1):
        xdotool(env, "mousemove", *at, str(start[0] + (end[0] - start[0]) * step // steps),
            str(start[1] + (end[1] - start[1]) * step // steps))
        time.sleep(0.05)
    if until is not None:
        wait_for(until)
    time.sleep(hold)
    xdotool(env, "mouseup", "1")


def still_layout(state, timeout=30):
    """Waits until the threads view's bounds, the views' visible area and the rows' places have
    not moved for a second (the notes banner slides in after the trace opens and pushes the views
    down), and returns the threads view's bounds then ([] if never)."""
    def now():
        # The notes banner comes once the window has loaded (in the sanitized build more than a
        # second after the views were complete): its text is part of the layout waited for.
        return tuple(state.get("views", k, "") for k in ("threads-bounds", "views-visible-bounds", "thread-row-ys")) \
            + (state.get("window", "loading", ""), state.get("window", "problem", ""))
    deadline = time.monotonic() + timeout
    last = now()
    while time.monotonic() < deadline:
        time.sleep(2.0)
        cur = now()
        if cur == last and cur[0] and cur[3] == "false":
            return ints(cur[0])
        last = cur
    return ints(last[0])


def thread_lane_y(state, tb, margin=60):
    """The screen y of the middle of the thread's lane (not a group's row) nearest the middle of
    the views' visible area, at least (@margin pixels below its top, where the section's header
    stays while the views scroll), from the state dump's rows; None when there is none. @tb: the
    threads view's bounds. A fixed offset from the view's top once pressed on that header: a
    two-note banner had scrolled the views by 61 px, and each drag folded the threads section
    instead of selecting a range."""
    labels = [r for r in state.get("views", "thread-row-labels", "").split(";") if r]
    ys = ints(state.get("views", "thread-row-ys", ""))
    heights = ints(state.get("views", "thread-row-heights", ""))
    vis = ints(state.get("views", "views-visible-bounds", ""))
    legend = int(state.get("views", "threads-legend-height", "0") or 0)
    if len(tb) != 4 or len(vis) != 4:
        return None
    # The lane nearest the middle of the visible views: a layout that still moves by a banner's
    # height then lands on another lane, not on the section's header.
    middle = vis[1] + vis[3] // 2
    best = None
    for i, label in enumerate(labels):
        if label.startswith("[") or i >= len(ys) or i >= len(heights):
            continue
        y = tb[1] + legend + ys[i] + heights[i] // 2
        if vis[1] + margin <= y <= vis[1] + vis[3] - 20 and (best is None or abs(y - middle) < abs(best - middle)):
            best = y
    return best


def screenshot(env, path):
    subprocess.run(["import", "-window", "root", path], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return read_image(path)


def read_image(path):
    """(width, height, RGB bytes) of an image file."""
    ppm = subprocess.run(["convert", path, "ppm:-"], check=True, capture_output=True).stdout
    # Binary PPM: "P6\n<w> <h>\n<max>\n" then RGB bytes.
    parts = ppm.split(b"\n", 3)
    if parts[0] != b"P6":
        raise ValueError("convert did not write a binary PPM")
    w, h = (int(v) for v in parts[1].split())
    return w, h, parts[3]


def region(img, x, y, w, h):
    width, height, data = img
    rows = []
    for yy in range(max(y, 0), min(y + h, height)):
        start = (yy * width + max(x, 0)) * 3
        end = (yy * width + min(x + w, width)) * 3
        rows.append(data[start:end])
    return rows


def distinct_colours(rows):
    colours = set()
    for row in rows:
        for i in range(0, len(row), 3):
            colours.add(row[i:i + 3])
    return len(colours)


def hue_buckets(rows, min_pixels=25):
    """Hues (in 30-degree buckets) of the saturated pixels, each covering at least min_pixels.
    Timeline lanes are saturated colours; text, backgrounds and borders are greys."""
    counts = {}
    for row in rows[::2]:  # every other pixel of every other row: lanes are wide and tall
        for i in range(0, len(row), 6):
            r, g, b = row[i], row[i + 1], row[i + 2]
            if max(r, g, b) - min(r, g, b) < 60:
                continue
            h, _, _ = colorsys.rgb_to_hsv(r / 255, g / 255, b / 255)
            bucket = int(h * 12) % 12
            counts[bucket] = counts.get(bucket, 0) + 1
    return sorted(k for k, n in counts.items() if n >= min_pixels)


def changed_fraction(a, b):
    """Share of pixels that differ between two regions of the same size."""
    total = diff = 0
    for ra, rb in zip(a, b):
        for i in range(0, min(len(ra), len(rb)), 3):
            total += 1
            if ra[i:i + 3] != rb[i:i + 3]:
                diff += 1
    return diff / total if total else 0.0


LSAN_EXIT = 23  # the export session's exit status when LeakSanitizer reports leaks


def leak_reports(log):
    """LeakSanitizer's reports in @log: (kind, bytes, objects, frames) for each."""
    reports = []
    for block in re.split(r"\n(?=(?:Direct|Indirect) leak of )", log):
        m = re.match(r"(Direct|Indirect) leak of (\d+) byte\(s\) in (\d+) object", block)
        if m:
            frames = re.findall(r"^\s*#\d+ 0x[0-9a-f]+ (?:in )?(.*)$", block, re.M)
            reports.append((m.group(1), int(m.group(2)), int(m.group(3)), frames))
    return reports


# A frame in our code: a source file of one of our layers (meson compiles with paths relative
# to the build folder), a jvms_ function, or our program without symbols.
OUR_FRAME = re.compile(r"(?:^|[\s/])(?:app|widgets|analysis|readers|state-history)/\S+\.[ch]:\d+"
                       r"|\bjvms_\w+|/app/jvmscope\+0x")


def leak_status_env(env):
    """@env for a session whose leaks are judged after it quits (allowed_leak): when
    sanitized, LeakSanitizer's report ends it with the status LSAN_EXIT, not an abort."""
    out = dict(env)
    if "ASAN_OPTIONS" in env:
        out["ASAN_OPTIONS"] = env["ASAN_OPTIONS"].replace("abort_on_error=1", "abort_on_error=0")
        out["LSAN_OPTIONS"] = env.get("LSAN_OPTIONS", "") + ":exitcode=%d" % LSAN_EXIT
    return out


LSAN_FAILED = "LeakSanitizer has encountered a fatal error"


def quit_verdict(code, log):
    """(ok, detail) for a session that has quit, from its status and its output @log: status 0,
    or LeakSanitizer's status with leaks none of which is ours (allowed_leak). LeakSanitizer's own
    tracer can crash while it stops the threads at exit ("Tracer caught signal 11", its status,
    no report: once in CI's sanitized build on 4e45ca4): then the program did reach its exit,
    nothing was checked for leaks, and the detail says so."""
    leaks = leak_reports(log)
    if code == 0:
        return True, "status 0"
    if code == LSAN_EXIT and leaks:
        return all(allowed_leak(l) for l in leaks), "status %r, leaks %s" % (code, leaks)
    if code == LSAN_EXIT and LSAN_FAILED in log:
        return True, "LeakSanitizer itself failed at exit: no leak check this run"
    return False, "status %r, output %s" % (code, log[-3000:])


def allowed_leak(report):
    """A leak is ours when a frame of its stack is in our code, other than main() itself
    (everything GTK allocates is reached from main through g_application_run).

    What this can see: CI's fast unwind follows frame pointers, and Debian's GLib has none, so
    a stack that passes through g_malloc stops there, whoever called it. GLib's and GTK's own
    blocks that live until exit (the quark table's abandoned first block and the strings beside
    it, the GL renderer's caches) come out that way, in sizes and counts that change from run to
    run, and so would a block of ours allocated with g_malloc: that kind of leak of ours is not
    told apart here (the widget tests' g_assert_finalize_object catches objects that never die).
    A leak with a stack that reaches our code (malloc or calloc called by us, or a library with
    frame pointers called from us) fails. A slow unwind would see through GLib, but makes the
    session too slow to drive through its dialogs."""
    kind, size, objects, frames = report
    ours = [f for f in frames
            if OUR_FRAME.search(f) and not re.match(r"main\b.*jvmscope-main\.c", f)]
    return not ours


def end_app(app, timeout=20):
    """Ends a program a test started if it still runs: asked to (SIGTERM), killed after
    @timeout seconds."""
    if app is not None and app.poll() is None:
        app.terminate()
        try:
            app.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait()


def stop_session(tap, app, xvfb, log, tmp, keep):
    """Ends what a test started: the program (killed if still running), Xvfb; notes the end of
    the program's output (the file `jvmscope.log` in @tmp) and removes @tmp unless @keep."""
    if app is not None and app.poll() is None:
        app.kill()
        app.wait()
    xvfb.terminate()
    xvfb.wait()
    log.close()
    with open(os.path.join(tmp, "jvmscope.log")) as f:
        tap.note("jvmscope output:\n" + f.read()[-4000:])
    if not keep:
        shutil.rmtree(tmp, ignore_errors=True)


def ints(text):
    return [int(v) for v in text.strip().strip(";").split(";")] if text else []


def main():
    args = window_parser(keep="the screenshots").parse_args()
    tap = Tap()

    tmp = tempfile.mkdtemp(prefix="jvmscope-window-")
    # The bundled sample once it is there; until then a real JFR recording from shared/.
    sample = os.path.join(args.source_root, "data", "sample", "sample.jvmtrace")
    if os.path.exists(sample):
        trace = sample
    else:
        trace = os.path.join(tmp, "example.jfr")
        src = os.path.join(args.source_root, "..", "shared", "testdata", "jfr", "example.jfr.gz")
        with gzip.open(src) as fin, open(trace, "wb") as fout:
            shutil.copyfileobj(fin, fout)
    tap.note("trace: " + trace)

    xvfb, display = start_xvfb()
    state = State(os.path.join(tmp, "state.ini"))
    # A key file, so that `gsettings set` from the test reaches the running window.
    env = window_env(display, args.schema_dir, tmp, "keyfile", state.path)
    log = open(os.path.join(tmp, "jvmscope.log"), "w")
    app = None
    shots = {}

    def shot(name):
        path = os.path.join(tmp, name + ".png")
        shots[name] = screenshot(env, path)
        tap.note("screenshot: " + path)
        return shots[name]

    def xdo(*cmd):
        return xdotool(env, *cmd)

    def windows():
        out = xdo("search", "--onlyvisible", "--name", "Jvmscope").stdout.split()
        return out

    try:
        # 1. The start page.
        # Its leaks are judged when it quits (allowed_leak), as the export session's are: this
        # session too now makes more than 2,048 quarks, and GLib abandons the quark table's first
        # block (tests/lsan.supp) when it makes the 2,049th.
        app = subprocess.Popen([args.jvmscope], env=leak_status_env(env), stdout=log, stderr=subprocess.STDOUT)
        found = subprocess.run(["timeout", str(int(STEP_TIMEOUT)), "xdotool", "search", "--sync",
                                "--onlyvisible", "--name", "Jvmscope"],
                               env=env, capture_output=True, text=True)
        ok = tap.check(found.returncode == 0 and found.stdout.strip() != "",
                       "the window appears", found.stderr)
        ok = ok and tap.check(wait_for(lambda: state.get("window", "page") == "start"),
                              "it shows the start page without a trace")
        if not ok:
            return tap.done()
        # The window is mapped before it is painted: wait for its pixels.
        start_path = os.path.join(tmp, "1-start-page.png")
        start_img = wait_for(lambda: (lambda img: img if distinct_colours(region(img, 0, 0, 1400, 900)) > 8 else None)
                             (screenshot(env, start_path)), interval=1.0)
        tap.note("screenshot: " + start_path)
        if not tap.check(start_img is not None, "the start page is painted"):
            return tap.done()

        # 2. Open from a second process: GApplication forwards it to the running one.
        second = subprocess.run([args.jvmscope, trace], env=env, stdout=log,
                                stderr=subprocess.STDOUT, timeout=STEP_TIMEOUT)
        tap.check(second.returncode == 0, "a second `jvmscope TRACE` hands the trace over and exits")
        tap.check(wait_for(lambda: state.get("window", "file") == os.path.abspath(trace)),
                  "the empty window opens the trace", state.get("window", "file"))
        done = wait_for(lambda: state.get("window", "loading") == "false"
                        and state.get("views", "history") == "true")
        tap.check(done, "indexing ends with a history to show",
                  "loading=%s history=%s problem=%s" % (state.get("window", "loading"),
                                                        state.get("views", "history"),
                                                        state.get("window", "problem")))
        # A real recording may carry warnings (lost kernel records); it must not fail.
        tap.check(state.get("window", "load-failed") == "false", "the trace loads",
                  state.get("window", "problem"))
        tap.note("problems reported: %r" % state.get("window", "problem"))
        if trace == sample:
            # The sample is read in full: what its kernel layer cannot tell is a note, not a warning.
            tap.check(state.get("window", "problem-kind") in ("", "note"),
                      "the sample shows no warning banner", state.get("window", "problem"))
        def laid_out():
            tb = ints(state.get("views", "threads-bounds", ""))
            rb = ints(state.get("views", "ruler-bounds", ""))
            return (tb, rb) if len(tb) == 4 and len(rb) == 4 and tb[2] > 200 and tb[3] > 30 else None
        bounds = wait_for(laid_out)
        tb, rb = bounds if bounds else ([], [])
        if not tap.check(bounds is not None, "the threads view and the ruler are laid out",
                         (state.get("views", "threads-bounds"), state.get("views", "ruler-bounds"))):
            return tap.done()
        # 3. The views drew: many colours where the start page had few. The data area of the
        #    threads view starts right of its label gutter (180 px). Frames can lag behind the
        #    state on a busy machine: screenshots are retaken until the pixels show it.
        seen = []
        geometry = {}

        def views_drew():
            # Bounds are read again each time: the progress bar folding away moves the views.
            tb, rb = laid_out() or ([0, 0, 0, 0], [0, 0, 0, 0])
            area = (tb[0] + 180, tb[1], tb[2] - 180, min(tb[3], 400))
            before = hue_buckets(region(start_img, *area))
            img = screenshot(env, os.path.join(tmp, "2-trace.png"))
            seen.append((before, hue_buckets(region(img, *area))))
            geometry.update(tb=tb, rb=rb)
            return img if len(seen[-1][1]) >= 2 and len(seen[-1][1]) > len(before) else None
        trace_img = wait_for(views_drew, interval=1.0)
        tap.note("screenshot: " + os.path.join(tmp, "2-trace.png"))
        tap.check(trace_img is not None,
                  "the threads view drew coloured lanes (hues of saturated pixels: start page %s, trace %s)"
                  % seen[-1])
        tap.check(int(state.get("views", "thread-rows", "0")) > 0, "the threads view lists threads",
                  state.get("views", "thread-rows"))
        if trace_img is None:
            return tap.done()

        # 4. Drag across the threads view with real pointer events.
        tb, rb = geometry["tb"], geometry["rb"]
        gx, gy, gw, gh = tb[0] + 180, tb[1], tb[2] - 180, min(tb[3], 400)
        def drag():
            x0, x1 = gx + gw // 5, gx + (gw * 3) // 5
            y = gy + min(gh, tb[3]) // 2
            # A busy window handles motion late: release once it has followed the pointer.
            v_span = int(state.get("views", "visible-end", "0")) - int(state.get("views", "visible-start", "0"))
            drag_pointer(env, (x0, y), (x1, y),
                         until=lambda: (int(state.get("views", "selection-end", "0"))
                                        - int(state.get("views", "selection-start", "0"))) > 0.3 * v_span)
        drag()

        def panel_follows():
            # The panel updates during the drag too: wait for the statistics of the final range.
            return (state.get("views", "has-selection") == "true"
                    and int(state.get("panel", "rows", "0")) > 0
                    and state.get("panel", "t0") == state.get("views", "selection-start")
                    and state.get("panel", "t1") == state.get("views", "selection-end"))
        tap.check(wait_for(panel_follows),
                  "dragging selects a range and the side panel shows its statistics",
                  "has-selection=%s panel rows=%s t0=%s t1=%s selection=%s..%s" % (
                      state.get("views", "has-selection"), state.get("panel", "rows"),
                      state.get("panel", "t0"), state.get("panel", "t1"),
                      state.get("views", "selection-start"), state.get("views", "selection-end")))
        # Events by type: the sample has both layers, so the range holds JFR execution samples
        # (the sample store) and kernel context switches (CPUs' current thread changing).
        events = dict(e.split("=", 1) for e in state.get("panel", "events", "").split(";") if "=" in e)
        tap.check(int(events.get("jfr/jdk.ExecutionSample", "0")) > 0
                  and int(events.get("kernel/sched_switch", "0")) > 0,
                  "the side panel counts the range's events by type", events)
        s0, s1 = int(state.get("views", "selection-start", "0")), int(state.get("views", "selection-end", "0"))
        v0, v1 = int(state.get("views", "visible-start", "0")), int(state.get("views", "visible-end", "0"))
        # The pointer moved over 2/5 of the data area: the selection spans about 2/5 of the
        # visible range (pixels are coarse, so only the order of magnitude is asserted).
        share = (s1 - s0) / max(v1 - v0, 1)
        tap.check(0.3 < share < 0.5, "the selection spans the dragged part of the axis (%.2f)" % share)
        width, height, _ = trace_img
        px = tb[0] + tb[2] + 1
        panel_region = (px, rb[1], width - px, 400)

        def panel_redrew():
            img = screenshot(env, os.path.join(tmp, "3-selected.png"))
            return img if changed_fraction(region(trace_img, *panel_region),
                                           region(img, *panel_region)) > 0.01 else None
        drag_img = wait_for(panel_redrew, interval=1.0)
        tap.note("screenshot: " + os.path.join(tmp, "3-selected.png"))
        tap.check(drag_img is not None, "the side panel's pixels changed")

        # 5. Zoom with the W key: the view has the focus since the drag. The ruler is compared
        #    with itself just before the key, where the window's state dump says it is then (a
        #    screenshot from an earlier step, or bounds read before the panel changed, may show
        #    another layout).
        rb_now = ints(state.get("views", "ruler-bounds", ""))
        if len(rb_now) == 4:
            rb = rb_now
        ruler_region = (rb[0] + 180, rb[1], rb[2] - 180, rb[3])
        before_zoom = screenshot(env, os.path.join(tmp, "4-before-zoom.png"))
        xdo("key", "w")
        zoomed = wait_for(lambda: int(state.get("views", "visible-end", "0"))
                          - int(state.get("views", "visible-start", "0")) < v1 - v0)
        tap.check(zoomed, "W zooms in: the visible range narrows",
                  (v0, v1, state.get("views", "visible-start"), state.get("views", "visible-end")))

        ruler_change = [0.0]

        def ruler_redrew():
            img = screenshot(env, os.path.join(tmp, "4-zoomed.png"))
            ruler_change[0] = changed_fraction(region(before_zoom, *ruler_region), region(img, *ruler_region))
            return img if ruler_change[0] > 0.005 else None
        tap.check(wait_for(ruler_redrew, interval=1.0) is not None, "the ruler redrew its ticks",
                  "ruler %s, %.4f of its pixels changed; visible %s..%s" % (
                      rb, ruler_change[0], state.get("views", "visible-start"), state.get("views", "visible-end")))
        tap.note("screenshot: " + os.path.join(tmp, "4-zoomed.png"))

        # 5b. The side panel's root-cause findings follow the selection; clicking the first one
        #     highlights its threads in the views.
        def findings_follow():
            return (int(state.get("panel", "findings", "0")) > 0
                    and state.get("panel", "findings-t0") == state.get("views", "selection-start")
                    and state.get("panel", "findings-t1") == state.get("views", "selection-end")
                    and len(ints(state.get("views", "finding-bounds", ""))) == 4)
        tap.check(wait_for(findings_follow),
                  "the side panel lists the root-cause findings of the selected range",
                  "findings=%s for %s..%s, selection %s..%s" % (
                      state.get("panel", "findings"), state.get("panel", "findings-t0"),
                      state.get("panel", "findings-t1"), state.get("views", "selection-start"),
                      state.get("views", "selection-end")))
        fb = ints(state.get("views", "finding-bounds", ""))
        if len(fb) == 4:
            xdo("mousemove", str(fb[0] + fb[2] // 2), str(fb[1] + fb[3] // 2))
            time.sleep(0.2)
            xdo("click", "1")
        tap.check(wait_for(lambda: int(state.get("views", "highlighted-threads", "0")) > 0),
                  "clicking a finding highlights its threads",
                  "highlighted-threads=%s" % state.get("views", "highlighted-threads"))
        screenshot(env, os.path.join(tmp, "5b-findings.png"))
        tap.note("screenshot: " + os.path.join(tmp, "5b-findings.png"))

        # 5c. Preferences (Ctrl+comma): a dialog with the view preferences.
        xdo("key", "ctrl+comma")
        prefs = wait_for(lambda: xdo("search", "--onlyvisible", "--name", "^Preferences$").stdout.split())
        tap.check(bool(prefs), "Ctrl+comma opens the Preferences window")
        if prefs:
            time.sleep(1.0)
            screenshot(env, os.path.join(tmp, "5c-preferences.png"))
            tap.note("screenshot: " + os.path.join(tmp, "5c-preferences.png"))
            xdo("key", "Escape")
            tap.check(wait_for(lambda: not xdo("search", "--onlyvisible", "--name", "^Preferences$").stdout.split()),
                      "Escape closes it")

        # 5d. The view preferences, changed as GSettings keys while the window runs: the panel
        #     writes the selected range in the time origin and unit they name.
        def gsettings_set(key, value):
            return subprocess.run(["gsettings", "set", "org.jvmscope.Jvmscope", key, value], env=env,
                                  capture_output=True, text=True).returncode == 0
        s0, s1 = int(state.get("views", "selection-start", "0")), int(state.get("views", "selection-end", "0"))
        def clock(ns):
            return time.strftime("%H:%M:%S", time.localtime(ns // 10**9)) + ".%06d" % (ns % 10**9 // 1000)
        want = "From %s to %s" % (clock(s0), clock(s1))
        tap.check(gsettings_set("time-origin", "wall-clock")
                  and wait_for(lambda: state.get("settings", "time-origin") == "wall-clock"
                               and want in state.get("panel", "range", "")),
                  "time-origin wall-clock: the panel gives the range as times of day",
                  (want, state.get("panel", "range")))
        want = "%.3f ms selected" % ((s1 - s0) / 1e6)
        tap.check(gsettings_set("time-unit", "milliseconds")
                  and wait_for(lambda: state.get("panel", "range", "").startswith(want)),
                  "time-unit milliseconds: the panel writes durations in ms",
                  (want, state.get("panel", "range")))
        screenshot(env, os.path.join(tmp, "5d-wall-clock-ms.png"))
        tap.note("screenshot: " + os.path.join(tmp, "5d-wall-clock-ms.png"))
        tap.check(gsettings_set("time-origin", "trace-start") and gsettings_set("time-unit", "auto")
                  and wait_for(lambda: "From +" in state.get("panel", "range", "")),
                  "back to the trace start: the range is written from it",
                  state.get("panel", "range"))
        # 5e. The index cache budget: the history is opened again with the key's size once the
        #     index is complete, also when the key changes while the trace is open; what the
        #     user looks at and has selected stays.
        def gsettings_get(key):
            out = subprocess.run(["gsettings", "get", "org.jvmscope.Jvmscope", key], env=env,
                                 capture_output=True, text=True).stdout.split()
            return int(out[-1]) if out else -1
        want = gsettings_get("cache-budget-mib") * 2**20
        tap.check(wait_for(lambda: state.get("window", "history-cache-budget") == str(want)),
                  "the history's node cache has the key's budget (%d bytes)" % want,
                  state.get("window", "history-cache-budget"))
        before = [state.get("views", k) for k in ("visible-start", "visible-end",
                                                    "selection-start", "selection-end")]
        tap.check(gsettings_set("cache-budget-mib", "24")
                  and wait_for(lambda: state.get("window", "history-cache-budget") == str(24 * 2**20)),
                  "a new cache-budget-mib reaches the open trace's history",
                  state.get("window", "history-cache-budget"))
        after = [state.get("views", k) for k in ("visible-start", "visible-end",
                                                   "selection-start", "selection-end")]
        tap.check(before == after and state.get("views", "history") == "true",
                  "... keeping the visible range and the selection", (before, after))
        # 5f. The thread-grouping key regroups the threads view: its rows (group headers as
        #     "[NAME]", threads by folder name) top to bottom, as the state dump lists them.
        def rows():
            return [r for r in state.get("views", "thread-row-labels", "").split(";") if r]
        by_kind = rows()
        group_of, group = {}, None
        for r in by_kind:
            if r.startswith("["):
                group = r
            else:
                group_of[r] = group
        kind_threads = [r for r in by_kind if not r.startswith("[")]
        flat = None
        if gsettings_set("thread-grouping", "none"):
            flat = wait_for(lambda: (lambda now: now if now and not any(r.startswith("[") for r in now)
                                     else None)(rows()))
        flat = flat or []
        # Not grouped: every thread in the order the history lists them (the "Other processes"
        # folded by kind are shown too); by kind, each group keeps that order.
        shown = [r for r in flat if r in group_of]
        same_order = all([r for r in shown if group_of[r] == g] == [r for r in kind_threads if group_of[r] == g]
                         for g in set(group_of.values()))
        tap.check(len(set(group_of.values())) >= 2 and sorted(shown) == sorted(kind_threads)
                  and len(set(flat)) == len(flat) and same_order and shown != kind_threads
                  and state.get("views", "thread-rows") == str(len(flat)),
                  "thread-grouping none: the threads view drops its %d group headers and lists %d threads "
                  "in the history's order" % (len(by_kind) - len(kind_threads), len(flat)),
                  "by kind: %s\nnone: %s" % (by_kind[:40], flat[:40]))
        tap.check(gsettings_set("thread-grouping", "kind") and wait_for(lambda: rows() == by_kind),
                  "thread-grouping kind again: the same rows in the same order", rows()[:40])

        # 6. A corrupt file: a truncated copy of a recording.
        corrupt = os.path.join(tmp, "truncated.jfr")
        src = trace if os.path.isfile(trace) else os.path.join(trace, "recording.jfr")
        with open(src, "rb") as f:
            data = f.read()
        with open(corrupt, "wb") as f:
            f.write(data[:len(data) * 2 // 3])
        subprocess.run([args.jvmscope, corrupt], env=env, stdout=log, stderr=subprocess.STDOUT,
                       timeout=STEP_TIMEOUT)
        problem = wait_for(lambda: state.get("window", "file") == corrupt
                           and state.get("window", "loading") == "false"
                           and state.get("window", "problem", ""))
        tap.check(problem and "truncated.jfr" in problem, "the truncated file's problem is shown",
                  "problem=%r" % state.get("window", "problem"))
        # The banner under the header bar: a wide band of the warning colour (hue 30-60°)
        # between the header bar and the corrupt file's own ruler, where no view draws. (It was
        # looked for below the first window's ruler, which a two-note banner there moved below
        # this window's banner.)
        def banner_drawn():
            ruler = ints(state.get("views", "ruler-bounds", ""))
            if len(ruler) != 4 or ruler[1] < 60:
                return False
            img = screenshot(env, os.path.join(tmp, "5-corrupt.png"))
            return 1 in hue_buckets(region(img, 0, 40, width, ruler[1] - 40), min_pixels=2000)
        tap.check(wait_for(banner_drawn, interval=1.0), "the problem banner is drawn")
        tap.note("screenshot: " + os.path.join(tmp, "5-corrupt.png"))
        tap.check(app.poll() is None, "the application keeps running")
        def titles():
            return {xdo("getwindowname", w).stdout.strip() for w in windows()}
        want = {"%s — Jvmscope" % os.path.basename(trace), "truncated.jfr — Jvmscope"}
        tap.check(wait_for(lambda: want <= titles()),
                  "the trace's window stays and the corrupt file has its own", titles())

        # 6b. A hostile bundle (issue 26): recording.jfr a named pipe (it blocked the first read
        #     for ever) and bundle.json nested 200,000 levels (it overflowed json-glib's stack).
        #     The window opens the kernel layer and names both in its banner.
        if os.path.isdir(trace):
            hostile = os.path.join(tmp, "hostile.jvmtrace")
            shutil.copytree(trace, hostile)
            os.unlink(os.path.join(hostile, "recording.jfr"))
            os.mkfifo(os.path.join(hostile, "recording.jfr"))
            with open(os.path.join(hostile, "bundle.json"), "w") as f:
                f.write("[" * 200000 + "]" * 200000)
            subprocess.run([args.jvmscope, hostile], env=env, stdout=log, stderr=subprocess.STDOUT,
                           timeout=STEP_TIMEOUT)
            problem = wait_for(lambda: state.get("window", "file") == hostile
                               and state.get("window", "loading") == "false"
                               and state.get("window", "problem", ""))
            tap.check(problem and "recording.jfr is a named pipe, not a file" in problem
                      and "bundle.json: nested deeper than 64 levels" in problem,
                      "a hostile bundle opens with a banner naming its named pipe and its nesting",
                      "problem=%r" % state.get("window", "problem"))
            tap.check(app.poll() is None, "the application keeps running after the hostile bundle")

        # 7. Ctrl+Q quits cleanly.
        xdo("key", "ctrl+q")
        try:
            code = app.wait(timeout=STEP_TIMEOUT)
        except subprocess.TimeoutExpired:
            code = None
        log.flush()
        with open(os.path.join(tmp, "jvmscope.log"), encoding="utf-8", errors="replace") as f:
            ok, detail = quit_verdict(code, f.read())
        tap.note("session: %s" % detail)
        tap.check(ok, "Ctrl+Q quits with status 0 and no leak of ours", detail)

        # 8. Export through the real Save dialogs, typed into from the keyboard: the views as
        #    SVG and PNG (Ctrl+E), the selection's statistics as JSON and CSV (Ctrl+Shift+E).
        #    In a second session, leak-checked when sanitized: a leak is a failure when its
        #    stack reaches our code (see allowed_leak), so its exit status is LSan's, not an
        #    abort.
        export_env = leak_status_env(env)
        export_log_path = os.path.join(tmp, "jvmscope-export.log")
        export_log = open(export_log_path, "w")
        app = subprocess.Popen([args.jvmscope, trace], env=export_env, stdout=export_log,
                               stderr=subprocess.STDOUT)
        if os.path.exists(state.path):
            os.unlink(state.path)
        if not tap.check(wait_for(lambda: state.get("window", "loading") == "false"
                                  and state.get("views", "history") == "true" and laid_out()),
                         "a second session opens the trace for the exports"):
            return tap.done()
        tb, rb = laid_out()
        gx, gy, gw, gh = tb[0] + 180, tb[1], tb[2] - 180, min(tb[3], 400)
        time.sleep(2.0)
        drag()
        wait_for(panel_follows)
        def export(keys, path, complete):
            xdo("key", keys)
            # The dialog's name field has the focus; a full path is accepted there.
            if not wait_for(lambda: any("Export" in xdo("getwindowname", w).stdout
                                        for w in xdo("search", "--onlyvisible", "--name", "Export").stdout.split())):
                return False
            time.sleep(0.5)
            xdo("key", "ctrl+a")
            xdo("type", "--delay", "20", path)
            xdo("key", "Return")
            # The file appears before it is whole: wait until it reads as complete.
            return wait_for(lambda: os.path.exists(path) and complete(path))

        def text(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                return f.read()

        def png_info(path):
            out = subprocess.run(["identify", "-format", "%w %h %k", path], capture_output=True,
                                 text=True)
            return out.stdout.split() if out.returncode == 0 else None

        def json_doc(path):
            try:
                return json.loads(text(path))
            except ValueError:
                return None

        svg = os.path.join(tmp, "views.svg")
        ok = export("ctrl+e", svg, lambda p: "</svg>" in text(p))
        content = text(svg) if ok else ""
        tap.check(ok and "<svg" in content and content.count("<path") + content.count("<rect") > 50,
                  "Ctrl+E exports the views as an SVG with drawing in it", "%d bytes" % len(content))
        png = os.path.join(tmp, "views.png")
        ok = export("ctrl+e", png, png_info)
        info = png_info(png) if ok else []
        # Offscreen, every view at full height: taller than the window shows them.
        tap.check(len(info) == 3 and int(info[0]) >= 800 and int(info[1]) > rb[3] + tb[3]
                  and int(info[2]) > 8, "the PNG export holds the ruler and all views (%s)" % info)
        js = os.path.join(tmp, "selection.json")
        ok = export("ctrl+shift+e", js, json_doc)
        doc = (json_doc(js) if ok else None) or {}
        rows = doc.get("rows", [])
        tap.check(len(rows) == int(state.get("panel", "rows", "-1"))
                  and all({"section", "subject", "key", "value", "unit"} <= set(r) for r in rows)
                  and doc.get("end_ns", 0) > doc.get("start_ns", 0),
                  "Ctrl+Shift+E exports the panel's statistics as JSON (%d rows)" % len(rows),
                  str(doc)[:500])
        exported = {"%s/%s" % (r["subject"], r["key"]): "%.0f" % r["value"]
                    for r in rows if r.get("section") == "events"}
        shown = dict(e.split("=", 1) for e in state.get("panel", "events", "").split(";") if "=" in e)
        tap.check(exported and exported == shown, "... with the same event counts the panel shows",
                  (exported, shown))
        csv_path = os.path.join(tmp, "selection.csv")
        ok = export("ctrl+shift+e", csv_path, lambda p: len(text(p).splitlines()) == len(rows) + 1)
        lines = text(csv_path).splitlines() if ok else []
        tap.check(lines[:1] == ["section,subject,key,value,unit"] and len(lines) == len(rows) + 1,
                  "... and as CSV, the same rows", "%d lines" % len(lines))
        # 9. Ctrl+Q again: the export session quits cleanly too, with no leak of ours.
        xdo("key", "ctrl+q")
        try:
            code = app.wait(timeout=STEP_TIMEOUT)
        except subprocess.TimeoutExpired:
            code = None
        export_log.close()
        with open(export_log_path, encoding="utf-8", errors="replace") as f:
            report = f.read()
        ok, detail = quit_verdict(code, report)
        tap.note("export session: %s" % detail[:300])
        tap.check(ok, "Ctrl+Q quits the export session with status 0 and no leak of ours", detail)

    finally:
        stop_session(tap, app, xvfb, log, tmp, args.keep)
    return tap.done()


if __name__ == "__main__":
    main()
