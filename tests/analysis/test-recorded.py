#!/usr/bin/env python3
"""The analysis against oracles on a real recording made here: perf (sched events, all CPUs)
around a Java workload that records JFR with blocking thresholds at 0.

- kernel: every thread's time in each kernel state equals what a naive model of the rules
  (kernel_model.py) replays from `perf script` output: switch-in -> switch-out spans, and where
  the kernel did not record a switch, unknown from the last certain state to the first event in
  the thread's own context, running from there; the index's note counts the same missing
  switches;
- JFR: every jdk.ThreadSleep / jdk.ThreadPark / jdk.JavaMonitorEnter event of `jfr print --json`
  is a SLEEPING / PARKED / BLOCKED interval of its thread with the same start and end, and the
  monitor (or parked) class as its detail;
- cache: the index is reused, rebuilt when the trace changes or the index is damaged, rebuilt
  after a build killed half-way, and built in a temporary folder when the cache cannot be made.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from jvms_class_names import java_class_name
from jvms_tap import Tap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_model import Model  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--cli", required=True)
ap.add_argument("--dump", required=True)
ap.add_argument("--source-dir", required=True)
args = ap.parse_args()
tap = Tap()
tmp = tempfile.mkdtemp(prefix="jvms-analysis-")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def dump(cache, trace):
    return json.loads(run([args.dump, cache, trace]).stdout)


def iso_to_ns(s):
    # "2026-11-24T01:15:05.734631246Z": Python keeps microseconds only, so split the fraction.
    m = re.match(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z$", s)
    base = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
    frac = (m.group(2) or "").ljust(9, "0")[:9]
    return int(base.timestamp()) * 1_000_000_000 + int(frac)


def duration_to_ns(s):
    # ISO-8601 durations as jfr prints them: "PT0.030724202S", "PT1M2.5S", "PT0S".
    m = re.match(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?$", s)
    h, mi, sec, frac = m.groups()
    ns = (int(h or 0) * 3600 + int(mi or 0) * 60 + int(sec or 0)) * 1_000_000_000
    return ns + int((frac or "").ljust(9, "0")[:9] or 0)


try:
    # ---------------------------------------------------------------- record
    classes = os.path.join(tmp, "classes")
    run(["javac", "-d", classes, os.path.join(args.source_dir, "Workload.java")])
    perf_data = os.path.join(tmp, "k.perf.data")
    jfr_file = os.path.join(tmp, "rec.jfr")
    run(["perf", "record", "-q", "-o", perf_data, "-a", "-k", "CLOCK_MONOTONIC", "-m", "16M",
         "-e", "sched:sched_switch,sched:sched_waking,sched:sched_wakeup_new,"
               "sched:sched_process_fork,sched:sched_process_exit,sched:sched_migrate_task",
         "--", "java", "-XX:StartFlightRecording=filename=%s,settings=%s" %
         (jfr_file, os.path.join(args.source_dir, "blocking.jfc")),
         "-cp", classes, "Workload", "12"])
    cache = os.path.join(tmp, "cache")

    # ---------------------------------------------------------------- kernel oracle
    d = dump(cache, perf_data)
    offset = int(d["clock-offset-ns"])
    end_clock = d["end"] - offset
    script = run(["perf", "script", "-i", perf_data, "--ns", "-F", "tid,cpu,time,event,trace"]).stdout
    model = Model()
    for line in script.splitlines():
        model.feed(line)
    model.finish(end_clock)
    n_switch = script.count("sched:sched_switch:")
    tap.check(n_switch > 1000, "perf script shows sched_switch events", n_switch)
    bad = []
    unknown = 0
    for tid, k in sorted(model.threads.items()):
        got = d["threads"].get(str(tid), {}).get("kernel", {})
        unknown += k.totals.get("unknown", 0)
        for state in sorted(set(k.totals) | {s for s, ns in got.items() if ns}):
            if got.get(state, 0) != k.totals.get(state, 0):
                bad.append("tid %d %s: index %d ns, model %d ns" % (tid, state, got.get(state, 0),
                                                                   k.totals.get(state, 0)))
    tap.check(not bad and len(model.threads) > 10,
              "every thread's time in each kernel state equals the model's replay of perf script (%d threads)"
              % len(model.threads), "\n".join(bad[:20]))
    tap.note("missing switches: %d (%d from the idle task), unknown thread time %d ns"
             % (model.missing, model.missing_from_idle, unknown))
    # ---------------------------------------------------------------- wakers
    # Every waker the index keeps is the thread perf shows emitting that wake-up (its context,
    # common_pid), flagged as an interrupt when the event's common_flags say hardirq, softirq or
    # NMI.
    wakings = {}
    for line in run(["perf", "script", "-i", perf_data, "-s",
                     os.path.join(args.source_dir, "perf_wakers.py")]).stdout.splitlines():
        f = line.split()
        if len(f) == 5 and all(x.lstrip("-").isdigit() for x in f):
            wakings.setdefault((int(f[0]) + offset, int(f[2])), []).append((int(f[1]), int(f[3]) & 0x58 != 0))
    wrong, n_wakes, n_irq = [], 0, 0
    for tid, t in d["threads"].items():
        for at, packed in t.get("wakes", []):
            n_wakes += 1
            waker, irq = packed & 0xffffffff, packed >> 32 != 0
            n_irq += irq
            if (waker, irq) not in wakings.get((at, int(tid)), []):
                wrong.append("tid %s woken at %d by %d (irq %d): perf shows %s"
                             % (tid, at, waker, irq, wakings.get((at, int(tid)), "no sched_waking")))
    tap.check(n_wakes > 500 and not wrong,
              "every waker the index keeps emitted that wake-up in perf script (%d wakes, %d in interrupts)"
              % (n_wakes, n_irq), "\n".join(wrong[:20]))

    out = run([args.cli, "index", "--json", "--cache-dir", cache, perf_data])
    notes = json.loads(out.stdout)["notes"]
    m = [re.search(r"did not record (\d+) thread switches \((\d+) from the idle task"
                   r"(?:, (\d+) next to \d+ threads it gave no event of)?", n) for n in notes]
    m = [x for x in m if x]
    if model.missing:
        tap.check(len(m) == 1 and (int(m[0].group(1)), int(m[0].group(2)), int(m[0].group(3) or 0))
                  == (model.missing, model.missing_from_idle, model.missing_silent)
                  and "note: " in out.stderr and out.returncode == 0,
                  "the index notes as many missing switches as the model finds (%d, %d from the idle "
                  "task, %d next to silent threads), as a note"
                  % (model.missing, model.missing_from_idle, model.missing_silent), (notes, out.stderr))
    else:
        # Only the missing switches' note: a disk's (a request with no completion) may come.
        tap.check(not m and "did not record" not in out.stderr, "no missing switch: no note of one", (notes, out.stderr))

    # ---------------------------------------------------------------- JFR oracle
    d = dump(cache, jfr_file)
    printed = json.loads(run(["jfr", "print", "--json", "--events",
                              "jdk.ThreadSleep,jdk.ThreadPark,jdk.JavaMonitorEnter", jfr_file]).stdout)
    events = printed["recording"]["events"]
    kinds = {"jdk.ThreadSleep": ("sleeping", None), "jdk.ThreadPark": ("parked", "parkedClass"),
             "jdk.JavaMonitorEnter": ("blocked", "monitorClass")}
    seen = {k: 0 for k in kinds}
    missing = []
    for ev in events:
        v = ev["values"]
        state, class_field = kinds[ev["type"]]
        seen[ev["type"]] += 1
        tid = str(v["eventThread"]["osThreadId"])
        start = iso_to_ns(v["startTime"])
        end = start + duration_to_ns(v["duration"])
        want_detail = None
        if class_field and v.get(class_field):
            want_detail = java_class_name(v[class_field]["name"])
        found = [iv for iv in d["threads"].get(tid, {}).get("user", [])
                 if iv["start"] == start and iv["end"] == end and iv["state"] == state]
        if not found or (class_field and found[0].get("detail") != want_detail):
            missing.append("%s tid %s [%d, %d) %s: %s" % (ev["type"], tid, start, end, want_detail,
                                                         found[0] if found else "no such interval"))
    for k, n in seen.items():
        tap.check(n > 0, "the workload recorded %s events" % k, n)
    tap.check(not missing, "every sleep, park and monitor enter is an interval of its thread (%d events)" % len(events),
              "\n".join(missing[:20]))

    # ---------------------------------------------------------------- native samples
    natives = json.loads(run(["jfr", "print", "--json", "--events", "jdk.NativeMethodSample", jfr_file]).stdout)
    natives = natives["recording"]["events"]
    wrong = []
    for ev in natives:
        v = ev["values"]
        t = iso_to_ns(v["startTime"])
        tid = str(v["sampledThread"]["osThreadId"])
        at = [iv for iv in d["threads"].get(tid, {}).get("user", []) if iv["start"] <= t < iv["end"]]
        if not at or at[0]["state"] != "native":
            wrong.append("tid %s at %d: %s" % (tid, t, at))
    tap.check(len(natives) > 0 and not wrong,
              "every native method sample finds its thread NATIVE (%d samples)" % len(natives), "\n".join(wrong[:10]))

    # ---------------------------------------------------------------- GC, locks
    g = d["globals"]
    gcs = json.loads(run(["jfr", "print", "--json", "--events", "jdk.GarbageCollection", jfr_file]).stdout)
    gcs = gcs["recording"]["events"]
    wrong = []
    for ev in gcs:
        v = ev["values"]
        start = iso_to_ns(v["startTime"])
        end = start + duration_to_ns(v["duration"])
        mine = [iv for iv in g.get("GC/collection", []) if iv[2] == v["gcId"]]
        names = [iv for iv in g.get("GC/collection/name", []) if iv[0] == start]
        if not mine or mine[0][0] != start or mine[-1][1] != end or not names or names[0][2] != v["name"]:
            wrong.append("gcId %d %s [%d, %d): %s %s" % (v["gcId"], v["name"], start, end, mine, names))
    tap.check(len(gcs) > 0 and not wrong,
              "every jdk.GarbageCollection is a GC/collection interval with its id, name, start and end (%d)" % len(gcs),
              "\n".join(wrong[:10]))
    enters = [e for e in events if e["type"] == "jdk.JavaMonitorEnter"]
    wrong = []
    for ev in enters:
        v = ev["values"]
        start = iso_to_ns(v["startTime"])
        end = start + duration_to_ns(v["duration"])
        key = "Locks/0x%x" % v["address"] if isinstance(v["address"], int) else "Locks/%s" % v["address"].lower()
        waiters = [iv for iv in g.get(key + "/waiters", []) if iv[0] < end and iv[1] > start]
        covered = sum(min(iv[1], end) - max(iv[0], start) for iv in waiters if iv[2] >= 1)
        klass = [iv for iv in g.get(key + "/class", []) if iv[0] <= start < iv[1]]
        if covered != end - start or not klass or klass[0][2] != v["monitorClass"]["name"].replace("/", "."):
            wrong.append("%s [%d, %d): waiters %s class %s" % (key, start, end, waiters, klass))
    tap.check(not wrong, "every monitor enter counts as a waiter of its lock, with the lock's class (%d)" % len(enters),
              "\n".join(wrong[:10]))

    # ---------------------------------------------------------------- cache
    cache2 = os.path.join(tmp, "cache2")

    def index(trace, cache_dir=cache2, env=None):
        out = subprocess.run([args.cli, "index", "--json", "--cache-dir", cache_dir, trace],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        return out, (json.loads(out.stdout) if out.returncode == 0 else None)

    _, first = index(jfr_file)
    _, second = index(jfr_file)
    tap.check(first and not first["reused"] and first["intervals"] > 0, "first index of the JFR file is built", first)
    tap.check(second and second["reused"] and second["index"] == first["index"]
              and second["intervals"] == first["intervals"], "second index is reused", second)
    mtime = os.stat(first["index"]).st_mtime_ns
    _, third = index(jfr_file)
    tap.check(third["reused"] and os.stat(first["index"]).st_mtime_ns == mtime, "a reuse does not rewrite the index")

    os.utime(jfr_file)  # touch: the trace changed
    _, touched = index(jfr_file)
    tap.check(touched and not touched["reused"] and touched["intervals"] == first["intervals"],
              "a touched trace is indexed again", touched)
    tap.check(not os.path.exists(first["index"]) or first["index"] == touched["index"],
              "the stale index of the same trace is removed")

    with open(touched["index"], "r+b") as f:
        size = os.fstat(f.fileno()).st_size
        f.seek(size // 2)
        b = f.read(1)
        f.seek(size // 2)
        f.write(bytes([b[0] ^ 0x5A]))
    _, flipped = index(jfr_file)
    tap.check(flipped and not flipped["reused"] and flipped["intervals"] == first["intervals"],
              "a damaged index (one byte flipped) is rebuilt", flipped)

    # Half the recording's events: a quiet machine records only a few thousand.
    n_kernel_events = sum(1 for line in script.splitlines() if line.strip())
    env = dict(os.environ, JVMS_ANALYSIS_TEST_KILL_AFTER_EVENTS=str(max(1, n_kernel_events // 2)))
    before_kill = set(os.listdir(cache2))
    killed, _ = index(perf_data, env=env)
    # What the kill really leaves: the index and the sample store under their temporary names
    # (the builder renames them into place on close), nothing under a complete one.
    left = sorted(set(os.listdir(cache2)) - before_kill)
    _, after = index(perf_data)
    tap.check(killed.returncode < 0 or killed.returncode == 137, "the build was killed half-way", killed.returncode)
    tap.check(after and not after["reused"] and after["intervals"] > 0,
              "after a killed build the next open rebuilds", after)
    tap.check(any(".jvmsidx.tmp-" in n for n in left) and any(".samples.tmp-" in n for n in left)
              and all(".tmp-" in n or n.endswith(".lock") for n in left),
              "a killed build leaves its index and sample store under temporary names only", left)
    stale = [n for n in os.listdir(cache2) if ".tmp-" in n or n.endswith(".lock")]
    tap.check(not stale, "the next open removes what the killed build left", stale)

    # Damaged inputs: what was valid before the damage is indexed, the damage is named. (A
    # one-chunk JFR file keeps its metadata at its end: cut, it has nothing readable left.)
    for src, name, keep in ((perf_data, "cut.perf.data", 2 / 3),):
        cut = os.path.join(tmp, name)
        with open(src, "rb") as f:
            data = f.read()
        with open(cut, "wb") as f:
            f.write(data[: int(len(data) * keep)])
        out, res = index(cut)
        whole = after if src == perf_data else first
        ok = res is not None and 0 < res["intervals"] <= whole["intervals"] and any(name in w for w in res["warnings"])
        tap.check(ok, "%s (cut at %d%%): indexed up to the damage, with a warning naming it" % (name, keep * 100),
                  out.stderr + out.stdout)
    head = os.path.join(tmp, "head.jfr")
    with open(jfr_file, "rb") as f:
        data = f.read(4096)
    with open(head, "wb") as f:
        f.write(data)
    out, res = index(head)
    tap.check(res is None and out.returncode == 1 and "head.jfr" in out.stderr,
              "a JFR file cut before its metadata: an error naming the file", out.stderr)

    blocker = os.path.join(tmp, "not-a-folder")
    open(blocker, "w").close()
    out, ro = index(jfr_file, cache_dir=os.path.join(blocker, "cache"))
    tap.check(ro is not None and not ro["reused"] and ro["intervals"] == first["intervals"]
              and any("cannot be written" in w for w in ro["warnings"]),
              "an unwritable cache folder: built in a temporary folder, with a warning",
              out.stderr + out.stdout)
    tap.check(ro is not None and not os.path.exists(ro["index"]), "that temporary index is removed afterwards",
              ro and ro["index"])
except subprocess.CalledProcessError as e:
    tap.check(False, "command failed: %s" % " ".join(e.cmd), (e.stderr or "") + (e.stdout or ""))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
tap.done()
