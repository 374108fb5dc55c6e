"""The threads view's quanta (docs/views.md, "Quanta: colour, shade and glyphs") drawn by
`jvmscope-cli render --colour-by cpu [--shade task-clock]`, read back from the image and checked
against `records --json` of the same quanta:

- colour by CPU: in a column lying wholly inside a quantum, the kernel lane has the colour of
  the quantum's CPU: one colour per CPU of the records, different CPUs different colours;
- shade (with an exact one asked): there the colour is the CPU's at opacity 0.3 + 0.7 × value / top over the lane's
  background (0.12 for a quantum without a value), the value being the quantum's task-clock in
  the records and the top the scale render prints;
- glyphs: where a quantum ends (with whole columns of it before and of the next state after),
  a ▼ at the lane's top edge when the records say it was preempted, a vertical tick when it
  blocked (gave up the CPU).

Usable alone: quanta_render.py CLI TRACE CACHE [METRIC:exact|estimated]..."""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

from jvms_images import read_png

LANE_Y = 14        # the kernel lane's top in a thread's row (JVMS_THREADS_VIEW_KERNEL_LANE_Y)
LANE_H = 10
CPU_LANE_Y = 2     # a CPU's lane in its row of the CPUs view (JVMS_CPUS_VIEW_LANE_Y), 12 px high
WIDTH = 1600
SHADE_LOW, SHADE_NONE = 0.3, 0.12
# Full columns of a quantum, and of what follows it, around a glyph that is checked: a glyph
# closer than 4 px to the previous one is left out, and the column holding a switch may show
# either side.
MARGIN = 6


def pixel(img, x, y):
    w, _h, data = img
    i = (y * w + x) * 3
    return data[i], data[i + 1], data[i + 2]


def dark(p):
    return max(p) < 90


def render(cli, trace, cache, out, t0, t1, *extra, views="threads"):
    cmd = [cli, "render", trace, "-o", out, "--views", views, "--width", str(WIDTH),
           "--from", "%dns" % t0, "--to", "%dns" % t1, *extra]
    if cache:
        cmd += ["--cache-dir", cache]
    if not os.environ.get("DISPLAY"):
        cmd = ["xvfb-run", "-a"] + cmd
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("%s: status %d\n%s" % (" ".join(cmd), r.returncode, r.stderr[-3000:]))
    rows = re.search(r"^threads rows: x0=(\d+)((?: \d+:\d+)*)$", r.stdout, re.M)
    summary = re.search(r"^threads: (.*)$", r.stdout, re.M).group(1)
    ys = {int(a): int(b) for a, b in (p.split(":") for p in rows.group(2).split())}
    cpus = re.search(r"^cpus rows: x0=\d+((?: \d+:\d+)*)$", r.stdout, re.M)
    if cpus:
        # The CPUs' rows, apart: keys below zero (-1 - cpu) beside the threads' tids.
        ys.update({-1 - int(a): int(b) for a, b in (p.split(":") for p in cpus.group(1).split())})
    return read_png(out), int(rows.group(1)), ys, summary


def checkable(quanta, t0, t1, metric):
    """How much of [t0, t1) a render at WIDTH can check: whether quanta on two CPUs or more cover
    4 whole columns, and how many quanta do so (with a value of @metric) or end with MARGIN whole
    columns of them and of what follows."""
    span = (t1 - t0) / (WIDTH - 180)
    n = 0
    by_thread, cpus = {}, set()
    for q in quanta:
        if t0 <= q["start"] < t1:
            by_thread.setdefault(q["tid"], []).append(q)
            if q["duration"] >= 5 * span and q.get(metric) is not None:
                n += 1
                cpus.add(q.get("cpu"))
    for qs in by_thread.values():
        qs.sort(key=lambda q: q["start"])
        for q, nxt in zip(qs, qs[1:]):
            end = q["start"] + q["duration"]
            if nxt["start"] < t1 and q["duration"] >= MARGIN * span and nxt["start"] - end >= MARGIN * span:
                n += 2
    # Two CPUs or more first: the colours must tell them apart.
    return (len(cpus) >= 2, n)


def choose_range(quanta, metric):
    """Of windows around the longest quanta with a value of @metric, 6 to 60 of their lengths
    wide, the one where the most can be checked."""
    longest = sorted((q for q in quanta if q["complete"] and q.get(metric) is not None),
                     key=lambda q: -q["duration"])[:12]
    best = None
    for q in longest:
        for k in (6, 20, 60):
            t0 = max(0, q["start"] - k // 3 * q["duration"])
            t1 = t0 + k * q["duration"]
            score = checkable(quanta, t0, t1, metric)
            if best is None or score > best[0]:
                best = (score, t0, t1)
    return best[1], best[2]


def round_up_125(v):
    """1, 2 or 5 × 10^n at or above @v (jvms_quantum_mode_scale_finish)."""
    if not v > 0:
        return 1.0
    step = 10 ** math.floor(math.log10(v))
    for k in (1, 2, 5, 10):
        if v <= k * step * (1.000000001 if k == 1 else 1):
            return float(k * step)


def check_scale(tap, cli, trace, cache, quanta, metric, top, tmp):
    """The shade's scale is the whole trace's (docs/records.md, "The shade's scale"): 0 to the
    largest @metric a quantum has in the records, rounded up to 1, 2 or 5 × 10^n, in the range
    checked and in the longest stretch that leaves the largest quantum out."""
    valued = sorted((q for q in quanta if q.get(metric) is not None), key=lambda q: q["start"])
    big = max(valued, key=lambda q: q[metric])
    want = round_up_125(big[metric])
    # A stretch whose own quanta would give a smaller scale: the quantum with the smallest
    # value whose overlapping quanta's largest value rounds up below the trace's.
    small = None
    for q in sorted(valued, key=lambda q: q[metric])[:400]:
        t0, t1 = q["start"], q["start"] + q["duration"]
        near = [p[metric] for p in valued if p["start"] < t1 and p["start"] + p["duration"] > t0]
        if round_up_125(max(near)) < want:
            small = (t0, t1, max(near))
            break
    if small is None:
        tap.check(False, "render --shade %s: a stretch whose quanta's largest %s is below the trace's scale"
                  % (metric, metric))
        return
    _img, _x0, _ys, other = render(cli, trace, cache, os.path.join(tmp, "scale.png"), small[0], small[1],
                                   "--colour-by", "cpu", "--shade", metric)
    m = re.search(r"shaded by %s from 0 to (\S+) \(" % metric, other)
    tap.check(top == want and m is not None and float(m.group(1)) == want,
              "render --shade %s: the scale is 0 to %g, the largest %s of the records (%g) rounded up, "
              "also over a stretch whose quanta reach only %g" % (metric, want, metric, big[metric], small[2]),
              (top, other, want))


def check(tap, cli, trace, cache, quanta, tmp, shades=()):
    """@shades: (metric, basis) pairs to render with --shade; an "exact" one is checked quantum by
    quantum, an "estimated" one only says so (its shade is the sampled rate, not the records'
    per-quantum estimate)."""
    exact = [m for m, basis in shades if basis == "exact"]
    metric = exact[0] if exact else "duration"
    t0, t1 = choose_range(quanta, metric)
    a, x0, ys, summary_a = render(cli, trace, cache, os.path.join(tmp, "cpu.png"), t0, t1,
                                  "--colour-by", "cpu", views="threads,cpus")
    for m_name, basis in shades:
        if basis == "exact":
            continue
        _b, _x0, _ys, summary = render(cli, trace, cache, os.path.join(tmp, "est.png"), t0, t1,
                                       "--colour-by", "cpu", "--shade", m_name)
        tap.check(re.search(r"shaded by %s from 0 to \S+ \(%s" % (re.escape(m_name), basis), summary),
                  "render --shade %s says it is %s" % (m_name, basis), summary)
    b, ys_b, summary_b = a, ys, ""
    if exact:
        b, _x0, ys_b, summary_b = render(cli, trace, cache, os.path.join(tmp, "shade.png"), t0, t1,
                                         "--colour-by", "cpu", "--shade", metric, views="threads,cpus")
    n = WIDTH - x0
    span = (t1 - t0) / n

    def inner_columns(q):
        """Columns lying wholly inside [start, end) of @q."""
        first = int(-(-(q["start"] - t0) // span)) + 1
        last = int((q["start"] + q["duration"] - t0) // span) - 2
        return max(first, 0), min(last, n - 1)

    m = re.search(r"shaded by %s from 0 to (\S+) \((exact|estimated|not recorded)" % metric, summary_b)
    top = float(m.group(1)) if m else float("nan")
    if exact:
        check_scale(tap, cli, trace, cache, quanta, metric, top, tmp)
    colours, shade_bad, colour_bad, checked, cpu_checked = {}, [], [], 0, 0
    by_thread = {}
    for q in quanta:
        by_thread.setdefault(q["tid"], []).append(q)
        if q["tid"] not in ys or q.get("cpu") is None:
            continue
        c0, c1 = inner_columns(q)
        if c1 - c0 < 2:
            continue
        c = (c0 + c1) // 2
        x, y = x0 + c, ys[q["tid"]] + LANE_Y + 2
        full = pixel(a, x, y)
        colours.setdefault(q["cpu"], set()).add(full)
        checked += 1
        if not exact:
            continue
        tc = q.get(metric)
        alpha = SHADE_NONE if tc is None else SHADE_LOW + (1 - SHADE_LOW) * min(tc / top, 1)
        # The thread's row, and the row of its CPU in the CPUs view (the thread's colour there,
        # shaded by the same quantum), each over its row's background.
        places = [("thread", full, ys_b[q["tid"]] + LANE_Y - 1, ys_b[q["tid"]] + LANE_Y + 2)]
        if -1 - q["cpu"] in ys and -1 - q["cpu"] in ys_b:
            places.append(("CPU %d" % q["cpu"], pixel(a, x, ys[-1 - q["cpu"]] + CPU_LANE_Y + 5),
                           ys_b[-1 - q["cpu"]] + CPU_LANE_Y - 1, ys_b[-1 - q["cpu"]] + CPU_LANE_Y + 5))
            cpu_checked += 1
        for where, unshaded, bg_y, at_y in places:
            bg = pixel(b, x, bg_y)
            want = tuple(round(g * (1 - alpha) + f * alpha) for g, f in zip(bg, unshaded))
            got = pixel(b, x, at_y)
            if max(abs(g - w) for g, w in zip(got, want)) > 3:
                shade_bad.append("tid %d at %d ns, %s row: %s %s of %g: want %s, got %s"
                                 % (q["tid"], q["start"], where, metric, tc, top, want, got))
    for cpu, seen in colours.items():
        if len(seen) != 1:
            colour_bad.append("CPU %d: %d colours %s" % (cpu, len(seen), sorted(seen)))
    distinct = {next(iter(s)) for s in colours.values() if len(s) == 1}
    tap.check(checked >= 3 and not colour_bad and len(distinct) == len(colours),
              "render --colour-by cpu: each quantum in its CPU's colour, a colour per CPU "
              "(%d quanta, %d CPUs)" % (checked, len(colours)), "\n".join(colour_bad))
    if exact:
        tap.check(m is not None and m.group(2) == "exact" and checked >= 3 and cpu_checked >= 3 and not shade_bad,
                  "render --shade %s: each quantum's shade is its %s in records, in its thread's row "
                  "and in its CPU's row of the CPUs view (%s; %d quanta, %d in CPU rows)"
                  % (metric, metric, summary_b, checked, cpu_checked), "\n".join(shade_bad[:20]))

    # Glyphs: where a quantum ends, with MARGIN whole columns of it and of what follows.
    glyph_bad, glyphs = [], {"p": 0, "y": 0}
    for tid, qs in by_thread.items():
        if tid not in ys:
            continue
        qs.sort(key=lambda q: q["start"])
        for i, q in enumerate(qs):
            kind = {"preempted": "p", "blocked": "y", "blocked-io": "y"}.get(q["end"])
            end = q["start"] + q["duration"]
            nxt = qs[i + 1]["start"] if i + 1 < len(qs) else None
            if kind is None or nxt is None or not (t0 <= q["start"] and nxt < t1):
                continue
            if (end - q["start"]) < MARGIN * span or (nxt - end) < MARGIN * span:
                continue
            ce = int((end - t0) // span)
            # In the thread's row, and in its CPU's row of the CPUs view (JVMS_CPUS_VIEW_LANE_Y).
            places = [("thread", ys[tid] + LANE_Y)]
            if q.get("cpu") is not None and -1 - q["cpu"] in ys:
                places.append(("CPU %d" % q["cpu"], ys[-1 - q["cpu"]] + 2))
            for where, top_y in places:
                # Both glyphs have their one-pixel point 2 px below the lane's top: that is where
                # the glyph is (the switch-out's column; a column either side for rounding).
                at = [c for c in (ce - 1, ce, ce + 1) if dark(pixel(a, x0 + c, top_y + 2))]
                if len(at) != 1:
                    glyph_bad.append("tid %d, end at %d ns (column %d), %s row: %d glyph columns"
                                     % (tid, end, ce, where, len(at)))
                    continue
                c = at[0]
                wide = dark(pixel(a, x0 + c - 2, top_y)) and dark(pixel(a, x0 + c + 2, top_y))
                tall = dark(pixel(a, x0 + c, top_y + 4))
                got = "p" if wide and not tall else "y" if tall and not wide else "?"
                glyphs[kind] += 1
                if got != kind:
                    glyph_bad.append("tid %d, end at %d ns (%s), %s row: glyph %s" % (tid, end, q["end"], where, got))
    tap.check(sum(glyphs.values()) >= 2 and not glyph_bad,
              "render --colour-by cpu: a ▼ where records say preempted, a tick where blocked, in "
              "the thread's row and its CPU's (%d preempted, %d blocked)" % (glyphs["p"], glyphs["y"]),
              "\n".join(glyph_bad[:20]))
    return t0, t1


if __name__ == "__main__":
    class Tap:
        n = 0

        def check(self, ok, what, detail=None):
            self.n += 1
            print("%s %d - %s" % ("ok" if ok else "not ok", self.n, what))
            if not ok and detail:
                print("# " + str(detail).replace("\n", "\n# "))

    cli, trace = sys.argv[1], sys.argv[2]
    cache = sys.argv[3] if len(sys.argv) > 3 else None
    shades = [tuple(a.split(":")) for a in sys.argv[4:]]  # task-clock:exact cpu-clock:estimated
    cmd = [cli, "records", trace, "--json"] + (["--cache-dir", cache] if cache else [])
    got = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    with tempfile.TemporaryDirectory() as tmp:
        print(check(Tap(), cli, trace, cache, got["records"], tmp, shades))
