#!/usr/bin/env python3
"""`jvmscope-cli records` on a real recording made here (docs/records.md): a few seconds of
tests/cli/Work.java under `jvmscope-cli record`, beside a thread committing an application's own
JFR event (tests/records/AppWork.java).

- every thread's quanta add up to its on-CPU time (running + syscall) in the index (index-dump);
- every quantum that ends in a switch ends at a `sched_switch` of `perf script` that switches that
  thread out on that CPU at that nanosecond, and its `end` (preempted, blocked, blocked-io) is
  that switch's `prev_state`, `exited` where the thread was dead or had begun to exit; every complete quantum begins at a `sched_switch` that
  switches the thread in there and then;
- the counters perf read at each switch (bundle.json's switch_counters) are exact columns: each
  quantum's task-clock is its duration (--scatter duration,task-clock: Pearson above 0.99), and
  per CPU and counter the quanta add up to what `perf script` shows read at the switch-outs of
  the JVM's runs (a run: between a switch that put a thread on the CPU and the next switch there,
  which takes it off; one whose context-switches count is above 1 held a switch perf did not
  record, and is no one's);
- the application's event type (jvmscope.test.Checkout) is listed by `events --stats`, and
  `records --set events:TYPE` and `events --type TYPE` give each of its events at `jfr print`'s
  start and duration, with its fields;
- the CLI's numbers: --stats, a filter's count and --scatter's Pearson r against the same
  computed here over the records --json printed;
- a saved set is there after reopening and after the index is rebuilt (--force), with the same
  records; events:TYPE gives as many records as `events --type TYPE`;
- the threads view's quanta drawn by `render --colour-by cpu [--shade task-clock]` against the
  records (quanta_render.py): each quantum in its CPU's colour, shaded by its exact task-clock,
  with the glyph of how it ended; `--shade cpu-clock` (sampled) says it is estimated.
Prints TAP."""
import argparse
import calendar
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import time

import quanta_render
from jvms_tap import Tap

ap = argparse.ArgumentParser()
ap.add_argument("--cli", required=True)
ap.add_argument("--dump", required=True)
ap.add_argument("--work", required=True)
ap.add_argument("--app-work", required=True)
args = ap.parse_args()
tap = Tap()
tmp = tempfile.mkdtemp(prefix="jvms-records-")

# perf script -F pid,tid,cpu,time,event,period,trace: a switch's counter reads follow it, each a line.
LINE = re.compile(r"^\s*-?\d+/(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\d+)\s+(\S+):(.*)$")
SWITCH = re.compile(r"\bprev_pid=(-?\d+) prev_prio=-?\d+ prev_state=(\S+) ==> next_comm=.* next_pid=(-?\d+) next_prio=-?\d+\s*$")
EXIT = re.compile(r"\bpid=(\d+) ")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def records(*extra):
    return json.loads(run([args.cli, "records", bundle, "--cache-dir", cache, "--json", *extra]).stdout)


def iso_ns(text):
    """Epoch ns of jfr print's "2026-11-28T21:24:12.737910446Z"."""
    m = re.match(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z$", text)
    frac = (m.group(2) or "").ljust(9, "0")[:9]
    return calendar.timegm(time.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S")) * 1_000_000_000 + int(frac)


def span_ns(text):
    """ns of jfr print's duration, "PT0.059799437S" (or with H and M)."""
    m = re.match(r"^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?$", text)
    whole = int(m.group(1) or 0) * 3600 + int(m.group(2) or 0) * 60 + int(m.group(3) or 0)
    return whole * 1_000_000_000 + int((m.group(4) or "").ljust(9, "0")[:9])


def end_of(prev_state):
    if prev_state.startswith("R"):
        return "preempted"
    if "X" in prev_state or "Z" in prev_state:
        return "exited"
    if "D" in prev_state:
        return "blocked-io"
    return "blocked"


try:
    classes = os.path.join(tmp, "classes")
    run(["javac", "-d", classes, args.work, args.app_work])
    bundle = os.path.join(tmp, "work.jvmtrace")
    cache = os.path.join(tmp, "cache")
    run([args.cli, "record", "-o", bundle, "--", "java", "-cp", classes, "AppWork", "2500"], timeout=240)

    got = records()
    quanta = got["records"]
    tap.check(len(quanta) > 200 and got["count"] == len(quanta), "records --json lists the quanta", got["count"])
    d = json.loads(run([args.dump, cache, bundle]).stdout)
    offset = int(d.get("clock-offset-ns", d.get("globals", {}).get("clock-offset-ns", 0)))

    # ------------------------------------------------------------ quanta against the index
    per_thread = {}
    for q in quanta:
        per_thread[q["tid"]] = per_thread.get(q["tid"], 0) + q["duration"]
    bad = []
    for tid, total in sorted(per_thread.items()):
        k = d["threads"][str(tid)]["kernel"]
        on_cpu = k.get("running", 0) + k.get("syscall", 0)
        if on_cpu != total:
            bad.append("tid %d: quanta %d ns, index on CPU %d ns" % (tid, total, on_cpu))
    tap.check(not bad and len(per_thread) > 5,
              "each thread's quanta add up to its on-CPU time in the index (%d threads)" % len(per_thread),
              "\n".join(bad[:20]))

    # ------------------------------------------------------------ quanta against perf script
    outs, ins, exits = {}, {}, {}
    read_names = (json.load(open(os.path.join(bundle, "bundle.json")))["recorded"]["kernel"].get("switch_counters")
                  or {}).get("counters", [])
    last_in = {}       # cpu -> the thread the last switch there put on it
    reads, run_of = {}, {}   # (cpu, t) of a switch -> {counter: delta}; the thread whose run it ends
    script = run(["perf", "script", "-i", os.path.join(bundle, "kernel.perf.data"), "--ns",
                  "-F", "pid,tid,cpu,time,event,period,trace"]).stdout
    for line in script.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        cpu, t = int(m.group(2)), int(m.group(3)) * 1_000_000_000 + int(m.group(4).ljust(9, "0")[:9]) + offset
        event = m.group(6)
        if event == "sched:sched_process_exit":
            e = EXIT.search(m.group(7))
            if e:
                exits.setdefault(int(e.group(1)), t)
            continue
        if event in read_names:
            if (cpu, t) in reads:
                reads[(cpu, t)][event] = reads[(cpu, t)].get(event, 0) + int(m.group(5))
            continue
        if event != "sched:sched_switch":
            continue
        m = SWITCH.search(m.group(7))
        if not m:
            continue
        prev, nxt = int(m.group(1)), int(m.group(3))
        outs[(prev, cpu, t)] = m.group(2)
        ins[(nxt, cpu, t)] = True
        reads[(cpu, t)] = {}
        run_of[(cpu, t)] = prev if last_in.get(cpu) == prev else None
        last_in[cpu] = nxt
    tap.check(len(outs) > 1000, "perf script shows sched_switch events", len(outs))
    wrong, n_ends, n_starts, kinds = [], 0, 0, {}
    for q in quanta:
        end = q["epoch_ns"] + q["duration"]
        if q["end"] != "unknown":
            n_ends += 1
            state = outs.get((q["tid"], q["cpu"], end))
            kinds[q["end"]] = kinds.get(q["end"], 0) + 1
            if state is None:
                wrong.append("tid %d cpu %d: no switch-out at %d" % (q["tid"], q["cpu"], end))
            elif q["end"] == "exited":
                # Once it began to exit, any switch-out is its exit (docs/records.md).
                if not (end_of(state) == "exited" or exits.get(q["tid"], end + 1) <= end) or q["preempted"] is not None:
                    wrong.append("tid %d cpu %d at %d: prev_state %s, exit at %s, quantum says exited"
                                 % (q["tid"], q["cpu"], end, state, exits.get(q["tid"])))
            elif end_of(state) != q["end"] or (q["preempted"] == 1) != state.startswith("R"):
                wrong.append("tid %d cpu %d at %d: prev_state %s, quantum says %s (preempted %s)"
                             % (q["tid"], q["cpu"], end, state, q["end"], q["preempted"]))
        if q["complete"] == 1:
            n_starts += 1
            if (q["tid"], q["cpu"], q["epoch_ns"]) not in ins:
                wrong.append("tid %d cpu %d: complete, but no switch-in at %d" % (q["tid"], q["cpu"], q["epoch_ns"]))
    tap.check(not wrong and n_ends > 200 and kinds.get("preempted", 0) > 0 and kinds.get("blocked", 0) > 0,
              "each quantum's switch-out is perf's, with its prev_state (%d ends %s, %d switch-ins)"
              % (n_ends, sorted(kinds.items()), n_starts), "\n".join(wrong[:20]))

    # ------------------------------------------------------------ counters read at each switch
    exact = [c["name"] for c in got["columns"] if c.get("exact")]
    tap.check(sorted(exact) == sorted(read_names) and len(read_names) >= 4 and "task-clock" in exact
              and not any(c["estimated"] for c in got["columns"] if c.get("exact")),
              "the counters read at each switch are exact columns (%s)" % exact,
              (read_names, [c for c in got["columns"] if c["metric"]]))
    corr = records("--scatter", "duration,task-clock")["correlation"]
    # Which quanta perf's reads can give a task-clock: those ending at a switch-out with reads
    # after it, in a run of that thread that held no switch perf lost (docs/records.md). Under
    # load perf loses records, and those quanta have none: the share is perf's, not ours.
    readable = sum(1 for q in quanta if q["end"] != "unknown"
                   and run_of.get((q["cpu"], q["epoch_ns"] + q["duration"])) == q["tid"]
                   and "task-clock" in reads.get((q["cpu"], q["epoch_ns"] + q["duration"]), {})
                   and reads[(q["cpu"], q["epoch_ns"] + q["duration"])].get("context-switches", 0) <= 1)
    tap.check(corr["pearson"] is not None and corr["pearson"] > 0.99 and corr["n"] > 200
              and corr["n"] >= 0.95 * readable,
              "each quantum's task-clock is its duration: Pearson %s over %d of %d quanta (%d readable in perf script)"
              % (corr["pearson"], corr["n"], len(quanta), readable), corr)
    jvm_tids = {q["tid"] for q in quanta}
    want, have = {}, {}
    for key, counts in reads.items():
        if run_of[key] in jvm_tids and counts.get("context-switches", 0) <= 1:
            for n in read_names:
                want[(key[0], n)] = want.get((key[0], n), 0) + counts.get(n, 0)
    for q in quanta:
        for n in read_names:
            if q.get(n) is not None:
                have[(q["cpu"], n)] = have.get((q["cpu"], n), 0) + q[n]
    bad = ["cpu %d %s: quanta %s, perf script %s" % (k[0], k[1], have.get(k), want.get(k))
           for k in sorted(set(want) | set(have)) if want.get(k) != have.get(k)]
    # A counter that did not move in a run is 0 there, not missing: all are there or none.
    bad += ["tid %d at %d: %s" % (q["tid"], q["epoch_ns"], [q.get(n) for n in read_names]) for q in quanta
            if len({q.get(n) is None for n in read_names}) > 1][:10]
    tap.check(not bad and len(want) >= len(read_names),
              "per CPU, the quanta's counters add up to perf script's reads at the JVM's switch-outs (%s)"
              % sorted(want.items()), "\n".join(bad))

    # ------------------------------------------------------------ the CLI's numbers
    durations = [q["duration"] for q in quanta]
    st = records("--stats")["stats"]["duration"]
    mean = sum(durations) / len(durations)
    sd = math.sqrt(sum((x - mean) ** 2 for x in durations) / len(durations))
    md = sum(abs(durations[i + 1] - durations[i]) for i in range(len(durations) - 1)) / (len(durations) - 1)
    want = {"sum": sum(durations), "min": min(durations), "max": max(durations), "mean": mean, "stddev": sd,
            "mean_delta": md, "n": len(durations)}
    tap.check(all(abs(st[k] - v) <= 1e-9 * max(1, abs(v)) for k, v in want.items()),
              "--stats of duration are those of the records", (st, want))
    sel = [q for q in quanta if q["preempted"] == 1 and q["duration"] > 100_000 and q["thread"].startswith("locker")]
    f = records("--filter", "preempted == 1 && duration > 100us", "--filter", 'thread ~ "^locker"')
    tap.check(f["count"] == len(sel) and [q["epoch_ns"] for q in f["records"]] == [q["epoch_ns"] for q in sel],
              "two filters keep the records Python keeps (%d)" % len(sel), (f["count"], len(sel)))
    counters = [c["name"] for c in got["columns"] if c["metric"] and c["estimated"]]
    tap.check(len(counters) > 0, "the counters are metrics marked estimated, with a basis",
              [c for c in got["columns"] if c["metric"]])
    if counters:
        c = counters[0]
        pairs = [(q["duration"], q[c]) for q in quanta if q[c] is not None]
        n = len(pairs)
        mx = sum(p[0] for p in pairs) / n
        my = sum(p[1] for p in pairs) / n
        sxy = sum((p[0] - mx) * (p[1] - my) for p in pairs)
        sxx = sum((p[0] - mx) ** 2 for p in pairs)
        syy = sum((p[1] - my) ** 2 for p in pairs)
        r = sxy / math.sqrt(sxx * syy)
        corr = records("--scatter", "duration," + c)["correlation"]
        tap.check(corr["n"] == n and abs(corr["pearson"] - r) < 1e-9,
                  "--scatter duration,%s: Pearson's r and n as computed here (r %.4f, n %d)" % (c, r, n), corr)
        m = records("--metric", "share=%s / duration" % c, "--filter", "share > 0", "--stats")["stats"]["share"]
        shares = [q[c] / q["duration"] for q in quanta if q[c] is not None and q[c] / q["duration"] > 0]
        tap.check(m["n"] == len(shares) and abs(m["sum"] - sum(shares)) <= 1e-9 * sum(shares),
                  "a computed metric, filtered and summed", (m, len(shares), sum(shares)))

    # ------------------------------------------------------------ saved sets
    run([args.cli, "records", bundle, "--cache-dir", cache, "--filter", "duration > 1ms", "--save", "long",
         "--metric", "us=duration/1us", "--limit", "0"])
    long_count = sum(1 for q in quanta if q["duration"] > 1_000_000)
    listed = run([args.cli, "records", bundle, "--cache-dir", cache, "--list"]).stdout
    again = records("--set", "long", "--stats")
    tap.check("set\tlong\tquanta" in listed and "metric\tus" in listed and again["count"] == long_count
              and again["stats"]["us"]["n"] == long_count,
              "a saved set and metric are there when the trace is reopened (%d records)" % long_count, (listed, again["count"]))
    run([args.cli, "index", "--force", "--cache-dir", cache, bundle])
    rebuilt = records("--set", "long", "--minus", "long")
    after = records("--set", "long")
    tap.check(after["count"] == long_count and rebuilt["count"] == 0,
              "and after the index is rebuilt; long minus long is empty", (after["count"], rebuilt["count"]))

    # ------------------------------------------------------------ events as records
    ev = json.loads(run([args.cli, "events", bundle, "--cache-dir", cache, "--json", "--type", "jdk.ExecutionSample"]).stdout)
    er = records("--set", "events:jdk.ExecutionSample")
    tap.check(er["count"] == ev["count"] and ev["count"] > 0
              and [r["epoch_ns"] for r in er["records"]] == sorted(e["epoch_ns"] for e in ev["events"]),
              "events:jdk.ExecutionSample has the rows of events --type (%d)" % ev["count"], (er["count"], ev["count"]))
    # ------------------------------------------------------------ an application's own events
    # AppWork's jvmscope.test.Checkout: listed among the trace's event types (the pane's set
    # chooser and markers offer those), and as records and events at jfr print's times.
    app_type = "jvmscope.test.Checkout"
    printed = json.loads(run(["jfr", "print", "--json", "--events", app_type,
                              os.path.join(bundle, "recording.jfr")]).stdout)["recording"]["events"]
    want = sorted((iso_ns(e["values"]["startTime"]), span_ns(e["values"]["duration"]),
                   e["values"]["order"], e["values"]["items"]) for e in printed)
    stats = json.loads(run([args.cli, "events", bundle, "--cache-dir", cache, "--stats", "--json"]).stdout)
    types = {t.get("type") or t.get("name"): t.get("count") for t in stats.get("types", [])}
    tap.check(types.get(app_type) == len(want) > 50,
              "events --stats lists the application's type %s with jfr print's %d events" % (app_type, len(want)),
              {k: v for k, v in types.items() if not k.startswith("jdk.")})
    ar = records("--set", "events:" + app_type)
    got_rows = sorted((r["epoch_ns"], r["duration"], r["order"], r["items"]) for r in ar["records"])
    ae = json.loads(run([args.cli, "events", bundle, "--cache-dir", cache, "--json", "--type", app_type]).stdout)
    got_events = sorted((e["epoch_ns"], e["duration_ns"], e["fields"]["order"], e["fields"]["items"]) for e in ae["events"])
    diff = next(((a, b) for a, b in zip(got_rows, want) if a != b), None)
    tap.check(got_rows == want and got_events == want and all(r["thread"] == "checkout" for r in ar["records"]),
              "records --set events:%s and events --type: each event at jfr print's start and duration, "
              "with its fields (%d)" % (app_type, len(want)),
              (len(got_rows), len(got_events), len(want), diff))

    bad = subprocess.run([args.cli, "records", bundle, "--cache-dir", cache, "--filter", "duration > 1/0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    tap.check(bad.returncode == 2 and "division by zero" in bad.stderr and "at character 14" in bad.stderr,
              "a filter dividing by zero is refused with its position", (bad.returncode, bad.stderr))

    # ------------------------------------------------------------ the threads view's quanta
    quanta_render.check(tap, args.cli, bundle, cache, quanta, tmp,
                        shades=[("task-clock", "exact"), ("cpu-clock", "estimated")])
finally:
    shutil.rmtree(tmp, ignore_errors=True)
tap.done()
