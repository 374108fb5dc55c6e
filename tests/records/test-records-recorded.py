#!/usr/bin/env python3
"""`jvmscope-cli records` on a real recording made here (docs/records.md): a few seconds of
tests/cli/Work.java under `jvmscope-cli record`.

- every thread's quanta add up to its on-CPU time (running + syscall) in the index (index-dump);
- every quantum that ends in a switch ends at a `sched_switch` of `perf script` that switches that
  thread out on that CPU at that nanosecond, and its `end` (preempted, blocked, blocked-io) is
  that switch's `prev_state`, `exited` where the thread was dead or had begun to exit; every complete quantum begins at a `sched_switch` that
  switches the thread in there and then;
- the CLI's numbers: --stats, a filter's count and --scatter's Pearson r against the same
  computed here over the records --json printed;
- a saved set is there after reopening and after the index is rebuilt (--force), with the same
  records; events:TYPE gives as many records as `events --type TYPE`.
Prints TAP."""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import tempfile

from jvms_tap import Tap

ap = argparse.ArgumentParser()
ap.add_argument("--cli", required=True)
ap.add_argument("--dump", required=True)
ap.add_argument("--work", required=True)
args = ap.parse_args()
tap = Tap()
tmp = tempfile.mkdtemp(prefix="jvms-records-")

SWITCH = re.compile(r"^\s*(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+sched:sched_switch:.*\bprev_pid=(-?\d+) "
                    r"prev_prio=-?\d+ prev_state=(\S+) ==> next_comm=.* next_pid=(-?\d+) next_prio=-?\d+\s*$")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def records(*extra):
    return json.loads(run([args.cli, "records", bundle, "--cache-dir", cache, "--json", *extra]).stdout)


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
    run(["javac", "-d", classes, args.work])
    bundle = os.path.join(tmp, "work.jvmtrace")
    cache = os.path.join(tmp, "cache")
    run([args.cli, "record", "-o", bundle, "--", "java", "-cp", classes, "Work", "2500"], timeout=240)

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
    EXIT = re.compile(r"^\s*-?\d+\s+\[\d+\]\s+(\d+)\.(\d+):\s+sched:sched_process_exit:.*\bpid=(\d+) ")
    script = run(["perf", "script", "-i", os.path.join(bundle, "kernel.perf.data"), "--ns",
                  "-F", "tid,cpu,time,event,trace"]).stdout
    for line in script.splitlines():
        m = EXIT.match(line)
        if m:
            exits.setdefault(int(m.group(3)), int(m.group(1)) * 1_000_000_000 + int(m.group(2).ljust(9, "0")[:9]) + offset)
            continue
        m = SWITCH.match(line)
        if not m:
            continue
        cpu, t = int(m.group(2)), int(m.group(3)) * 1_000_000_000 + int(m.group(4).ljust(9, "0")[:9])
        outs[(int(m.group(5)), cpu, t + offset)] = m.group(6)
        ins[(int(m.group(7)), cpu, t + offset)] = True
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
    bad = subprocess.run([args.cli, "records", bundle, "--cache-dir", cache, "--filter", "duration > 1/0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    tap.check(bad.returncode == 2 and "division by zero" in bad.stderr and "at character 14" in bad.stderr,
              "a filter dividing by zero is refused with its position", (bad.returncode, bad.stderr))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
tap.done()
