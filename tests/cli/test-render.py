#!/usr/bin/env python3
"""jvmscope-cli render on the bundled sample (docs/views.md, "Rendered from the command line").

Run under `xvfb-run -a` (GTK draws the views, and needs a display even for a file):

  rows     `--views gc-workers,jit` is as wide as --width and as high as the ruler, each
           view's legend and a row per thread folder the index holds (GC/workers/<tid>/task,
           JIT/<tid>/compilation, as `jvmscope-history-dump` lists them) plus the JIT view's
           deoptimization row; every thread row draws coloured pixels;
  range    --from/--to choose what is drawn: the sample's deoptimizations (all after 4 s) tick
           their row over the whole trace and not over 1 s to 2.5 s;
  events   `--views events`: a lane per event type outside jdk.* (by default), in name order;
           on the sample (whose JFR recording has only jdk.* types, `jfr summary` says) the
           kernel's: process:exec, exit and fork from perf script's sched_process_* and
           block:request from its block_rq_* (the oracle: `perf script` of the bundle's
           kernel.perf.data). Each instant lane ticks exactly the pixel columns where perf
           recorded one (perf's times put on the trace's axis by one offset, checked constant
           against `jvmscope-cli events`: every one of perf's times, not just the first);
           `--event-type 'process:f*'` draws that lane alone;
  syscalls `--views events --event-type 'syscall:*'` on a perf.data of system calls recorded
           here (raw_syscalls, tests/data/jvms_syscalls.py; the sample has none), read as a
           kernel-only trace: a lane per system call perf script shows (its NR named by the
           kernel's headers, asm/unistd_64.h), in name order; each lane ticks exactly the columns
           where perf recorded a sys_enter of that call, and shades exactly the columns from each
           enter to its thread's next sys_exit (a call without an exit only ticks);
  svg      an .svg name writes SVG;
  errors   an unknown view name is refused (exit 2) naming it and the views there are; without
           a display the command says it needs one (exit 1).
Prints TAP.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import tempfile

from jvms_folders import thread_folders
from jvms_images import read_png
from jvms_syscalls import record_syscalls
from jvms_tap import Tap

ROW_HEIGHT = {"gc-workers": 16, "jit": 20, "events": 18}
# perf's tracepoints behind the event store's kernel types (docs/events.md).
PERF_TYPES = {"sched:sched_process_fork": "process:fork", "sched:sched_process_exit": "process:exit",
              "sched:sched_process_exec": "process:exec", "block:block_rq_insert": "block:request",
              "block:block_rq_issue": "block:request"}
LEGEND = 18
GUTTER = 180


def coloured(img, x0, y0, x1, y1):
    w, h, data = img
    n = 0
    for y in range(max(y0, 0), min(y1, h)):
        for x in range(max(x0, 0), min(x1, w)):
            i = (y * w + x) * 3
            r, g, b = data[i], data[i + 1], data[i + 2]
            # A colour, or the dark mark of several intervals in a pixel: not the background.
            if max(r, g, b) - min(r, g, b) >= 60 or max(r, g, b) < 120:
                n += 1
    return n




def syscall_names():
    """NR -> name from the kernel's headers: an oracle apart from perf's and ours."""
    names = {}
    with open("/usr/include/x86_64-linux-gnu/asm/unistd_64.h") as f:
        for m in re.finditer(r"^#define __NR_(\w+) (\d+)$", f.read(), re.M):
            names[int(m.group(2))] = m.group(1)
    return names


def perf_calls(data):
    """perf script's system calls: [(name, tid, enter_ns, exit_ns or None)], an enter paired with
    its thread's next exit (an exit with no enter before it, a call begun before the recording,
    is left out). rt_sigreturn's exit says NR -1: the kernel reads the number from the registers
    the call has just restored (CI's sanitized run caught the oracle skipping it)."""
    out = subprocess.run(["perf", "script", "-i", data, "--ns", "-F", "tid,time,event,trace"],
                         capture_output=True, text=True).stdout
    names = syscall_names()
    calls, open_ = [], {}
    for m in re.finditer(r"^\s*(\d+)\s+(\d+)\.(\d{9}):\s+raw_syscalls:sys_(enter|exit):\s+NR (-?\d+)", out, re.M):
        tid, t, nr = int(m.group(1)), int(m.group(2)) * 1000000000 + int(m.group(3)), int(m.group(5))
        if m.group(4) == "enter":
            if tid in open_:
                calls.append(open_.pop(tid))
            open_[tid] = [names.get(nr, "NR%d" % nr), tid, t, None]
        elif tid in open_:
            call = open_.pop(tid)
            call[3] = t
            calls.append(call)
    calls.extend(open_.values())
    return [tuple(c) for c in calls]


def marked(img, x, y):
    """Not the lane's white background: a tick or a shaded span."""
    w, h, data = img
    if not (0 <= x < w and 0 <= y < h):
        return False
    i = (y * w + x) * 3
    return min(data[i], data[i + 1], data[i + 2]) < 235


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--dump", required=True)
    ap.add_argument("--sample", required=True)
    args = ap.parse_args()
    tap = Tap()
    tmp = tempfile.mkdtemp(prefix="jvms-render-")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"), GTK_A11Y="none")
    try:
        def render(*extra, e=env):
            return subprocess.run([args.cli, "render", args.sample, *extra], capture_output=True,
                                  text=True, env=e)

        index = json.loads(subprocess.run([args.cli, "index", args.sample, "--json"], capture_output=True,
                                          text=True, env=env, check=True).stdout)["index"]
        workers = thread_folders(args.dump, index, "GC/workers", "task")
        compilers = thread_folders(args.dump, index, "JIT", "compilation")

        out = os.path.join(tmp, "whole.png")
        r = render("-o", out, "--views", "gc-workers,jit", "--width", "1200")
        if not tap.check(r.returncode == 0 and os.path.exists(out), "render writes the PNG",
                         r.stderr[-2000:]):
            return tap.done()
        img = read_png(out)
        ruler = img[1] - (2 * LEGEND + len(workers) * ROW_HEIGHT["gc-workers"]
                          + (len(compilers) + 1) * ROW_HEIGHT["jit"])
        tap.check(img[0] == 1200 and 20 <= ruler <= 60,
                  "the image is 1200 wide and as high as a ruler, two legends and the rows of %d "
                  "GC workers and %d compiler threads (ruler %d px)" % (len(workers), len(compilers), ruler),
                  img[:2])
        y = ruler + LEGEND
        rows = []
        for _ in workers:
            rows.append(coloured(img, GUTTER + 1, y + 2, img[0], y + ROW_HEIGHT["gc-workers"] - 2))
            y += ROW_HEIGHT["gc-workers"]
        y += LEGEND
        for _ in compilers:
            rows.append(coloured(img, GUTTER + 1, y + 2, img[0], y + ROW_HEIGHT["jit"] - 2))
            y += ROW_HEIGHT["jit"]
        deopt_whole = coloured(img, GUTTER + 1, y + 2, img[0], y + ROW_HEIGHT["jit"] - 2)
        tap.check(len(rows) >= 4 and min(rows) > 0, "every thread row draws its intervals %s" % rows)

        part = os.path.join(tmp, "part.png")
        r = render("-o", part, "--views", "gc-workers,jit", "--width", "1200", "--from", "1s", "--to", "2.5s")
        img2 = read_png(part) if r.returncode == 0 else (0, 0, b"")
        deopt_part = coloured(img2, GUTTER + 1, y + 2, img2[0], y + ROW_HEIGHT["jit"] - 2)
        tap.check(deopt_whole > 0 and deopt_part == 0 and img2[1] == img[1],
                  "--from 1s --to 2.5s draws that range: the deoptimizations (after 4 s) tick the whole "
                  "trace's row (%d px) and not this one (%d px)" % (deopt_whole, deopt_part))

        # Events: a lane per type outside jdk.*, each ticking where perf recorded its events.
        jfr_types = subprocess.run(["jfr", "summary", os.path.join(args.sample, "recording.jfr")],
                                   capture_output=True, text=True, check=True).stdout
        own = sorted(m.group(1) for m in re.finditer(r"^\s+(\S+)\s+(\d+)\s+\d+\s*$", jfr_types, re.M)
                     if not m.group(1).startswith("jdk.") and int(m.group(2)) > 0)
        perf = subprocess.run(["perf", "script", "-i", os.path.join(args.sample, "kernel.perf.data"),
                               "--ns", "-F", "time,event"], capture_output=True, text=True).stdout
        perf_times = collections.defaultdict(list)
        for m in re.finditer(r"^\s*(\d+)\.(\d{9}):\s+(\S+):\s*$", perf, re.M):
            if m.group(3) in PERF_TYPES:
                perf_times[m.group(3)].append(int(m.group(1)) * 1000000000 + int(m.group(2)))
        # A block request is one row from its insert, or its issue when it was never queued: its
        # lane is checked for being drawn, the instants column by column.
        want_lanes = sorted(set(PERF_TYPES[k] for k in perf_times) | set(own))
        width, frm, to = 1200, 0, 5000000000
        ev_png = os.path.join(tmp, "events.png")
        r = render("-o", ev_png, "--views", "events", "--width", str(width), "--from", "0", "--to", "5s")
        img3 = read_png(ev_png) if r.returncode == 0 else (0, 0, b"")
        # The ruler's height from the image, checked by the one-lane image below.
        ev_ruler = img3[1] - LEGEND - len(want_lanes) * ROW_HEIGHT["events"]
        tap.check(len(want_lanes) >= 4 and 20 <= ev_ruler <= 60,
                  "events: a lane per type outside jdk.* (%s) under the ruler and the legend" % want_lanes,
                  (img3[1], ev_ruler))
        n_columns = width - GUTTER

        def ticked(img, lane):
            y0 = ev_ruler + LEGEND + lane * ROW_HEIGHT["events"]
            return set(x - GUTTER for x in range(GUTTER, img[0])
                       if coloured(img, x, y0 + 3, x + 1, y0 + ROW_HEIGHT["events"] - 3) > 0)

        for lane, name in enumerate(want_lanes):
            rows = json.loads(subprocess.run([args.cli, "events", args.sample, "--type", name, "--json"],
                                             capture_output=True, text=True, env=env, check=True).stdout)["events"]
            got = ticked(img3, lane)
            sources = sorted(t for k, ts in perf_times.items() if PERF_TYPES[k] == name for t in ts)
            if name == "block:request":
                tap.check(len(rows) > 0 and len(got) > 0,
                          "events: the block:request lane draws the %d requests" % len(rows), len(got))
                continue
            # perf's times on the trace's axis: one offset for all of them.
            offsets = set(row["offset_ns"] - t for row, t in zip(rows, sources))
            tap.check(len(rows) == len(sources) and len(offsets) == 1,
                      "events: %s has perf script's %d events, at its times (one clock offset)" % (name, len(sources)),
                      (len(rows), len(sources), sorted(offsets)[:3]))
            delta = offsets.pop() if len(offsets) == 1 else 0
            want = set((t + delta - frm) * n_columns // (to - frm) for t in sources
                       if frm <= t + delta < to)
            tap.check(len(want) > 0 and got == want,
                      "events: the %s lane ticks the %d columns where perf recorded one, and no other" % (name, len(want)),
                      (sorted(want - got)[:10], sorted(got - want)[:10]))
        part_png = os.path.join(tmp, "events-fork.png")
        r = render("-o", part_png, "--views", "events", "--width", str(width), "--event-type", "process:f*")
        img4 = read_png(part_png) if r.returncode == 0 else (0, 0, b"")
        # (A view is at least 24 pixels high: one lane leaves 6 empty below it.)
        tap.check(ev_ruler + LEGEND + ROW_HEIGHT["events"] <= img4[1] < ev_ruler + LEGEND + 2 * ROW_HEIGHT["events"]
                  and len(ticked(img4, 0)) > 0,
                  "events: --event-type 'process:f*' draws the process:fork lane alone",
                  (img4[1], ev_ruler, len(ticked(img4, 0))))

        # System call lanes against perf script, on a kernel-only trace recorded here.
        data = os.path.join(tmp, "syscalls.data")
        # A recording in which perf lost events (a loaded machine) pairs enters and exits that
        # were not each other's: made again, three tries, the last judged whatever it holds.
        for _ in range(3):
            rec = record_syscalls(data)
            stats = subprocess.run(["perf", "report", "-i", data, "--stats"], capture_output=True, text=True).stdout
            lost = sum(int(n) for n in re.findall(r"LOST\w*\s+events:\s+(\d+)", stats))
            if rec.returncode == 0 and lost == 0:
                break
        calls = perf_calls(data) if rec.returncode == 0 else []
        tap.check(len(calls) > 100, "perf recorded system calls (%d, %d events lost)" % (len(calls), lost),
                  rec.stderr[-500:])
        rows = json.loads(subprocess.run([args.cli, "events", data, "--type", "syscall:*", "--json"],
                                         capture_output=True, text=True, env=env).stdout or "{}")
        ours = sorted((r["epoch_ns"] - r["offset_ns"], r["offset_ns"], r["tid"]) for r in rows.get("events", []))
        first = sorted(c[2] for c in calls)
        # perf's times on the trace's axis: one offset, checked against every call's.
        offsets = set(o - t for (_, o, _), t in zip(ours, first))
        tap.check(len(ours) == len(calls) and len(offsets) == 1,
                  "syscalls: jvmscope-cli events has perf script's %d calls at its times (one offset)" % len(calls),
                  (len(ours), len(calls), sorted(offsets)[:3]))
        delta = offsets.pop() if len(offsets) == 1 else 0
        span = max(c[3] or c[2] for c in calls) + delta + 1 if calls else 1
        sc_width = 1200
        sc_png = os.path.join(tmp, "syscalls.png")
        r = subprocess.run([args.cli, "render", data, "-o", sc_png, "--views", "events", "--event-type", "syscall:*",
                            "--width", str(sc_width), "--from", "0", "--to", "%dus" % ((span + 999) // 1000)],
                           capture_output=True, text=True, env=env)
        sc_img = read_png(sc_png) if r.returncode == 0 else (0, 0, b"")
        to_ns = (span + 999) // 1000 * 1000
        lanes = sorted(set("syscall:" + c[0] for c in calls))
        sc_ruler = sc_img[1] - LEGEND - len(lanes) * ROW_HEIGHT["events"]
        tap.check(r.returncode == 0 and 20 <= sc_ruler <= 60,
                  "syscalls: a lane per system call perf recorded (%d), under the ruler and the legend" % len(lanes),
                  (r.stderr[-300:], sc_img[1], sc_ruler))
        n = sc_width - GUTTER

        def col(t):
            return min(max((t + delta) * n // to_ns, 0), n - 1)

        bad = []
        for lane, name in enumerate(lanes):
            mine = [c for c in calls if "syscall:" + c[0] == name]
            ticks = set(col(c[2]) for c in mine)
            shaded = set(ticks)
            for c in mine:
                if c[3] is not None and c[3] > c[2]:
                    shaded |= set(range(col(c[2]), col(min(c[3], to_ns - delta - 1)) + 1))
            y0 = sc_ruler + LEGEND + lane * ROW_HEIGHT["events"]
            got_ticks = set(x for x in range(n) if marked(sc_img, GUTTER + x, y0 + 3))
            got_shaded = set(x for x in range(n) if marked(sc_img, GUTTER + x, y0 + 9))
            if got_ticks != ticks or got_shaded != shaded:
                wrong = set(ticks ^ got_ticks) | set(shaded ^ got_shaded)
                bad.append((name, sorted(ticks ^ got_ticks)[:5], sorted(shaded ^ got_shaded)[:5],
                            [(c[1], c[2], c[3], col(c[2]), col(c[3]) if c[3] else None) for c in mine
                             if col(c[2]) - 1 <= max(wrong) and min(wrong) <= col(c[3] or c[2]) + 1][:4]))
        tap.check(len(lanes) > 5 and not bad,
                  "syscalls: each of the %d lanes ticks the columns of perf's sys_enter and shades those "
                  "to its thread's sys_exit, and no other" % len(lanes), bad[:4])

        svg = os.path.join(tmp, "views.svg")
        r = render("-o", svg, "--views", "jit")
        head = open(svg, "rb").read(200) if os.path.exists(svg) else b""
        tap.check(r.returncode == 0 and b"<svg" in head, "an .svg name writes SVG", r.stderr[-500:])

        r = render("-o", out, "--views", "jit,nosuch")
        tap.check(r.returncode == 2 and "nosuch" in r.stderr and "gc-workers" in r.stderr,
                  "an unknown view is refused, named with the views there are", r.stderr)
        no_display = {k: v for k, v in env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        r = render("-o", out, e=no_display)
        tap.check(r.returncode == 1 and "display" in r.stderr,
                  "without a display render says it needs one", (r.returncode, r.stderr[-500:]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tap.done()


if __name__ == "__main__":
    main()
