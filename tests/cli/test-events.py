#!/usr/bin/env python3
"""`jvmscope-cli events` against the JDK's `jfr print --json`, and its --stats against sums.

For the bundled sample's recording and every file of ../shared/testdata/jfr (gunzipped into a
temporary folder): every JFR event `jfr print` prints must be a row of `events --json`, and no
other, per type: the same start time (epoch ns), duration, thread (the tid docs/attributes.md
gives it: the OS thread id, else -javaThreadId) and fields, flattened as docs/events.md says
(threads, classes and methods by name, a stack trace by its top frame, other objects as
"field.member" up to four levels, a null object by the absence of its members, timestamps as
epoch ns and timespans as ns). Events are
compared as multisets per type, since two events may share a start time.

Then `events --stats --json` on the same rows: per type the count, the totals, minima, maxima,
means and nearest-rank percentiles of durations and of the gaps between successive events,
computed here over the rows `events --json` printed; and the range, thread and limit options and
the CSV form against the same rows.

Normalization, and only this: floating-point numbers are compared to a relative 1e-6 (the JDK
prints floats with Float.toString, the store keeps them as doubles); timestamps or timespans the JDK prints as its
"not set" value (Long.MIN_VALUE) are nulls on our side; timespans beyond 2^63 ns are held at the
largest value. Prints TAP."""
import argparse
import collections
import csv
import datetime
import gzip
import io
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

from jvms_class_names import java_class_name
from jvms_syscalls import record_syscalls
from jvms_tap import Tap

JFR = ["jfr", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-J-Xss4m"]
INT64_MAX = (1 << 63) - 1
MAX_DEPTH = 4

ISO = re.compile(r"^([+-]?\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?(Z|[+-]\d\d:\d\d)$")
DURATION = re.compile(r"^(-)?PT(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?\d+)(?:\.(\d{1,9}))?S)?$")


def iso_to_ns(text):
    m = ISO.match(text)
    if not m:
        return None
    year, mon, day, hh, mm, ss, frac, zone = m.groups()
    dt = datetime.datetime(int(year), int(mon), int(day), int(hh), int(mm), int(ss or 0),
                           tzinfo=datetime.timezone.utc)
    secs = (dt - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)) // datetime.timedelta(seconds=1)
    if zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        secs -= sign * (int(zone[1:3]) * 3600 + int(zone[4:6]) * 60)
    return secs * 1_000_000_000 + int((frac or "0").ljust(9, "0"))


def duration_to_ns(text):
    m = DURATION.match(text)
    if not m:
        return None
    neg, h, mi, s, frac = m.groups()
    secs = int(h or 0) * 3600 + int(mi or 0) * 60 + int(s or 0)
    nanos = int((frac or "0").ljust(9, "0"))
    # Duration.toString writes -0.5 s as "PT-0.5S": the fraction takes the seconds' sign.
    if s is not None and s.startswith("-"):
        nanos = -nanos
    ns = secs * 1_000_000_000 + nanos
    return -ns if neg else ns


def is_thread(v):
    return isinstance(v, dict) and "osThreadId" in v and "javaThreadId" in v


def is_class(v):
    return isinstance(v, dict) and {"classLoader", "name", "package", "modifiers"} <= v.keys()


def is_method(v):
    return isinstance(v, dict) and {"type", "name", "descriptor", "modifiers"} <= v.keys()


def is_stack(v):
    return isinstance(v, dict) and set(v.keys()) == {"truncated", "frames"}


def thread_tid(t):
    if not t:
        return 0
    if (t.get("osThreadId") or 0) > 0:
        return t["osThreadId"]
    if (t.get("javaThreadId") or 0) > 0:
        return -t["javaThreadId"]
    return 0


def top_frame(st):
    if not st or not st.get("frames"):
        return None
    f = st["frames"][0]
    m = f.get("method") or {}
    cls = java_class_name((m.get("type") or {}).get("name"))
    text = (cls + "." if cls else "") + (m.get("name") or "?")
    line = f.get("lineNumber")
    if line is not None and line >= 0:
        text += ":%d" % line
    return text


def flatten(values, prefix, depth, out):
    for key, v in values.items():
        if depth == 0 and key in ("startTime", "duration", "eventThread"):
            continue
        name = prefix + key
        if is_thread(v):
            out[name] = v.get("javaName") if v.get("javaName") is not None else v.get("osName")
        elif is_class(v):
            out[name] = java_class_name(v.get("name"))
        elif is_method(v):
            cls = java_class_name((v.get("type") or {}).get("name"))
            out[name] = (cls + "." if cls else "") + v["name"] if v.get("name") is not None else None
        elif is_stack(v) or (key == "stackTrace" and v is None):
            out[name] = top_frame(v)
        elif isinstance(v, dict):
            if depth < MAX_DEPTH:
                flatten(v, name + ".", depth + 1, out)
        elif isinstance(v, list):
            out[name] = ("list", v)
        else:
            out[name] = v


def same_value(theirs, ours):
    """Whether our stored value stands for the JDK's printed one."""
    if isinstance(theirs, tuple) and theirs[0] == "list":
        return isinstance(ours, str) and ours.startswith("[")
    if isinstance(theirs, str) and isinstance(ours, int) and not isinstance(ours, bool):
        ns = iso_to_ns(theirs)
        if ns is None:
            ns = duration_to_ns(theirs)
        if ns is None:
            return False
        return ns == ours or (ns > INT64_MAX and ours == INT64_MAX) or (ns < -INT64_MAX and ours == -INT64_MAX - 1)
    if isinstance(theirs, str) and ours is None:
        # Long.MIN_VALUE: "not set".
        return theirs.startswith("-999999999-") or theirs.startswith("PT-2562047788015215H")
    if isinstance(theirs, float) or isinstance(ours, float):
        if theirs is None or ours is None:
            return theirs is ours
        if math.isnan(theirs):
            return ours is None
        return abs(theirs - ours) <= 1e-6 * max(abs(theirs), abs(ours))
    return theirs == ours


def jdk_events(path, tmp):
    """jfr print's events, or None when the JDK's tool fails on the file."""
    out = os.path.join(tmp, "jfr.json")
    with open(out, "w") as f:
        proc = subprocess.run(JFR + ["print", "--json", "--stack-depth", "1", path], stdout=f,
                              stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        os.unlink(out)
        return None
    with open(out) as f:
        events = json.load(f)["recording"]["events"]
    os.unlink(out)
    return events


def our_json(cli, trace, cache, *args):
    proc = subprocess.run([cli, "events", trace, "--cache-dir", cache, "--json"] + list(args),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("events %s %s exited %d: %s" % (trace, args, proc.returncode, proc.stderr[:2000]))
    return json.loads(proc.stdout)


def canonical_jdk(e):
    v = e["values"]
    start = iso_to_ns(v["startTime"])
    dur = duration_to_ns(v["duration"]) if "duration" in v else 0
    thread = v.get("eventThread") if "eventThread" in v else v.get("sampledThread")
    fields = {}
    flatten(v, "", 0, fields)
    return start, dur, thread_tid(thread), fields


def jdk_summary(path):
    """Events per type as `jfr summary` counts them (it reads no constant pool)."""
    proc = subprocess.run(JFR + ["summary", path], capture_output=True, text=True, check=True)
    counts = collections.Counter()
    for line in proc.stdout.splitlines():
        m = re.match(r"^ (\S+)\s+(\d+)\s+\d+\s*$", line)
        if m and m.group(1) not in ("jdk.Metadata", "jdk.CheckPoint") and int(m.group(2)) > 0:
            counts[m.group(1)] += int(m.group(2))
    return dict(counts)


def chunks(path, tmp):
    """Each chunk of a JFR file cut out into a file of its own (their headers tile the file)."""
    data = open(path, "rb").read()
    off, k, out = 0, 0, []
    while off + 16 <= len(data):
        size = struct.unpack(">q", data[off + 8:off + 16])[0]
        if size <= 0 or off + size > len(data):
            break
        part = os.path.join(tmp, "chunk-%d.jfr" % k)
        with open(part, "wb") as f:
            f.write(data[off:off + size])
        out.append(part)
        off += size
        k += 1
    return out


def compare_file(tap, cli, label, trace, jfr_path, cache, tmp):
    theirs = jdk_events(jfr_path, tmp)
    if theirs is None:
        # jfr print stops on some files (a chunk whose stack trace pool it refuses): each chunk
        # alone is compared, and one that jfr print refuses by its counts per type from
        # jfr summary.
        tap.note("%s: jfr print fails on the whole file; compared chunk by chunk" % label)
        for k, part in enumerate(chunks(jfr_path, tmp)):
            if jdk_events(part, tmp) is not None:
                compare_file(tap, cli, "%s chunk %d" % (label, k), part, part, cache, tmp)
            else:
                ours = our_json(cli, part, cache)
                counts = collections.Counter(r["type"] for r in ours["events"])
                want = jdk_summary(part)
                tap.check(dict(counts) == want, "%s chunk %d (jfr print refuses it): as many events of each type as jfr summary counts" % (label, k),
                          "ours %s, jfr summary %s" % (dict(counts), want))
            os.unlink(part)
        return our_json(cli, trace, cache)
    ours = our_json(cli, trace, cache)
    rows = [r for r in ours["events"] if ":" not in r["type"]]
    tap.check(ours["count"] == len(ours["events"]), "%s: count says how many events were printed" % label,
              "%d != %d" % (ours["count"], len(ours["events"])))
    by_type_t = collections.defaultdict(list)
    for e in theirs:
        by_type_t[e["type"]].append(canonical_jdk(e))
    by_type_o = collections.defaultdict(list)
    for r in rows:
        by_type_o[r["type"]].append((r["epoch_ns"], r["duration_ns"], r["tid"], r["fields"]))
    counts_t = {t: len(x) for t, x in by_type_t.items()}
    counts_o = {t: len(x) for t, x in by_type_o.items()}
    tap.check(counts_t == counts_o, "%s: %d events of %d types, as many of each type as jfr print" %
              (label, len(theirs), len(counts_t)),
              "\n".join("%s: jfr %s, ours %s" % (t, counts_t.get(t), counts_o.get(t))
                        for t in sorted(set(counts_t) | set(counts_o)) if counts_t.get(t) != counts_o.get(t)))
    bad = []
    for t in sorted(by_type_t):
        a = sorted(by_type_t[t], key=lambda x: (x[0], x[1], x[2], json.dumps(x[3], sort_keys=True, default=str)))
        b = sorted(by_type_o.get(t, []), key=lambda x: (x[0], x[1], x[2], json.dumps(x[3], sort_keys=True, default=str)))
        # Pair events by (start, duration, tid) first; fields are then compared one by one.
        pool = collections.defaultdict(list)
        for x in b:
            pool[(x[0], x[1], x[2])].append(x[3])
        for x in a:
            candidates = pool.get((x[0], x[1], x[2]))
            if not candidates:
                bad.append("%s at %d (duration %d, tid %d): not among our rows" % (t, x[0], x[1], x[2]))
                continue
            match = None
            # A null object has no members on our side: its null alone is absent.
            want = {k: v for k, v in x[3].items() if v is not None or k in (candidates[0] if candidates else {})}
            for i, fields in enumerate(candidates):
                want = {k: v for k, v in x[3].items() if v is not None or k in fields}
                if set(fields) == set(want) and all(same_value(want[k], fields[k]) for k in want):
                    match = i
                    break
            if match is None:
                fields = candidates[0]
                diff = ["%s: jfr %r, ours %r" % (k, x[3].get(k, "<absent>"), fields.get(k, "<absent>"))
                        for k in sorted(set(fields) | set(x[3]))
                        if k not in fields or k not in x[3] or not same_value(x[3][k], fields[k])]
                bad.append("%s at %d: fields differ: %s" % (t, x[0], "; ".join(diff[:6])))
                candidates.pop(0)
            else:
                candidates.pop(match)
        if len(bad) > 20:
            break
    tap.check(not bad, "%s: every event's start, duration, thread and fields equal jfr print's" % label,
              "\n".join(bad[:20]))
    return ours


def nearest_rank(sorted_values, p):
    n = len(sorted_values)
    r = max(1, math.ceil(p / 100.0 * n))
    return sorted_values[r - 1]


def distribution(values):
    if not values:
        return {"count": 0, "total_ns": 0}
    v = sorted(values)
    return {"count": len(v), "total_ns": sum(v), "min_ns": v[0], "max_ns": v[-1],
            "mean_ns": sum(v) / len(v), "p50_ns": nearest_rank(v, 50), "p99_ns": nearest_rank(v, 99)}


def check_stats(tap, cli, label, trace, cache, rows, *args):
    stats = our_json(cli, trace, cache, "--stats", *args)
    per_type = collections.defaultdict(list)
    for r in rows:
        per_type[r["type"]].append(r)
    bad = []
    got = {t["type"]: t for t in stats["types"]}
    if set(got) != set(per_type):
        bad.append("types: stats %s, rows %s" % (sorted(set(got) - set(per_type)), sorted(set(per_type) - set(got))))
    for t, rs in per_type.items():
        s = got.get(t)
        if s is None:
            continue
        durations = [r["duration_ns"] for r in rs if r["duration_ns"] >= 0]
        gaps = [max(0, b["epoch_ns"] - a["epoch_ns"]) for a, b in zip(rs, rs[1:])]
        expect = {"count": len(rs), "unknown_durations": len(rs) - len(durations)}
        for k, v in expect.items():
            if s[k] != v:
                bad.append("%s %s: %r, rows say %r" % (t, k, s[k], v))
        for name, values in (("duration", durations), ("gaps", gaps)):
            want = distribution(values)
            for k, v in want.items():
                have = s[name][k]
                if (isinstance(v, float) and abs(have - v) > 1e-9 * max(1.0, abs(v))) or (not isinstance(v, float) and have != v):
                    bad.append("%s %s.%s: %r, rows say %r" % (t, name, k, have, v))
            binned = sum(b["count"] for b in s["gaps"]["histogram"]) if name == "gaps" else len(values)
            if binned != len(values):
                bad.append("%s: the gap histogram holds %d gaps of %d" % (t, binned, len(values)))
    sys_rows = {t[len("syscall:"):]: rs for t, rs in per_type.items() if t.startswith("syscall:")}
    got_sys = {s["name"]: s for s in stats["syscalls"]}
    if set(got_sys) != set(sys_rows):
        bad.append("syscalls: %s vs %s" % (sorted(got_sys), sorted(sys_rows)))
    for name, rs in sys_rows.items():
        errors = sum(1 for r in rs if isinstance(r["fields"].get("ret"), int) and r["fields"]["ret"] < 0)
        if name in got_sys and got_sys[name]["errors"] != errors:
            bad.append("syscall %s errors: %d, rows say %d" % (name, got_sys[name]["errors"], errors))
    tap.check(not bad, "%s: --stats %s equals sums over the rows (%d types)" % (label, " ".join(args), len(per_type)),
              "\n".join(bad[:20]))


def check_options(tap, cli, label, trace, cache, ours):
    rows = ours["events"]
    if not rows:
        return
    start = ours["start_ns"]
    span = rows[-1]["offset_ns"]
    lo, hi = span // 3, 2 * span // 3
    sub = our_json(cli, trace, cache, "--from", "%dns" % lo, "--to", "%dns" % hi)
    want = [r for r in rows if lo <= r["offset_ns"] < hi]
    tap.check(sub["events"] == want, "%s: --from/--to give the rows starting in the range (%d)" % (label, len(want)),
              "%d rows, %d expected" % (len(sub["events"]), len(want)))
    counts = collections.Counter(r["tid"] for r in rows if r["tid"] != 0)
    tid = counts.most_common(1)[0][0] if counts else None
    if tid is not None:
        by_tid = our_json(cli, trace, cache, "--thread", str(tid))
        want = [r for r in rows if r["tid"] == tid]
        tap.check(by_tid["events"] == want, "%s: --thread %d gives that thread's rows (%d)" % (label, tid, len(want)))
        name = want[0]["thread"]
        if name:
            by_name = our_json(cli, trace, cache, "--thread", name)
            want_n = [r for r in rows if r["thread"] == name]
            tap.check(by_name["events"] == want_n, "%s: --thread %s gives the rows of threads so named (%d)" %
                      (label, name, len(want_n)))
    types = collections.Counter(r["type"] for r in rows)
    t1, t2 = [t for t, _ in types.most_common(2)] + [None] * (2 - min(2, len(types)))
    for ts in ([t1], [t1, t2] if t2 else [t1]):
        args = []
        for t in ts:
            args += ["--type", t]
        got = our_json(cli, trace, cache, *args, "--limit", "7")
        want = [r for r in rows if r["type"] in ts]
        tap.check(got["events"] == want[:7] and got["count"] == len(want),
                  "%s: --type %s --limit 7 gives the first of those rows, count %d" % (label, " ".join(ts), len(want)))
    # A type or pattern that matches nothing selects nothing (it listed every event), and says so.
    proc = subprocess.run([cli, "events", trace, "--cache-dir", cache, "--json", "--type", "no.such.Type*"],
                          capture_output=True, text=True)
    got = json.loads(proc.stdout) if proc.returncode == 0 else {}
    tap.check(got.get("count") == 0 and got.get("events") == [] and "no.such.Type*" in proc.stderr,
              "%s: --type matching no type gives no row and names the type" % label,
              "status %d, count %s, stderr %s" % (proc.returncode, got.get("count"), proc.stderr[-300:]))
    proc = subprocess.run([cli, "events", trace, "--cache-dir", cache, "--csv", "--type", t1],
                          capture_output=True, text=True)
    table = list(csv.reader(io.StringIO(proc.stdout)))
    want = [r for r in rows if r["type"] == t1]
    ok = proc.returncode == 0 and len(table) == len(want) + 1
    for line, r in zip(table[1:], want):
        if [int(line[0]), int(line[1]), int(line[2]), line[3], int(line[4])] != \
           [r["offset_ns"], r["epoch_ns"], r["duration_ns"], r["type"], r["tid"]]:
            ok = False
            break
    tap.check(ok, "%s: --csv --type %s has a header and the same rows" % (label, t1))


def check_syscalls(tap, cli, cache, tmp):
    """System calls from the kernel layer against perf script on a recording made here: each
    thread's calls, in order, with the same latency (exit time - entry time) and return value."""
    data = os.path.join(tmp, "syscalls.data")
    rec = record_syscalls(data)
    if not tap.check(rec.returncode == 0 and os.path.exists(data), "perf records system calls", rec.stderr[-2000:]):
        return
    script = subprocess.run(["perf", "script", "-i", data, "--ns", "-F", "tid,time,event,trace"],
                            capture_output=True, text=True, check=True).stdout
    expect = collections.defaultdict(list)
    open_calls = {}
    for line in script.splitlines():
        m = re.match(r"^\s*(\d+)\s+(\d+)\.(\d{9}):\s+raw_syscalls:sys_(enter|exit): NR (-?\d+)(?: = (-?\d+))?", line)
        if not m:
            continue
        tid, t = int(m.group(1)), int(m.group(2)) * 1_000_000_000 + int(m.group(3))
        if m.group(4) == "enter":
            if tid in open_calls:
                expect[tid].append((-1, None))
            open_calls[tid] = t
        elif tid in open_calls:
            expect[tid].append((t - open_calls.pop(tid), int(m.group(6))))
    for tid in open_calls:
        expect[tid].append((-1, None))
    ours = our_json(cli, data, cache, "--type", "syscall:*")
    got = collections.defaultdict(list)
    for r in ours["events"]:
        got[r["tid"]].append((r["duration_ns"], r["fields"].get("ret")))
    n = sum(len(v) for v in expect.values())
    bad = ["tid %d: perf script %d calls, ours %d; first difference %s" %
           (tid, len(expect[tid]), len(got.get(tid, [])),
            next(((a, b) for a, b in zip(expect[tid], got.get(tid, [])) if a != b), None))
           for tid in sorted(set(expect) | set(got)) if expect.get(tid) != got.get(tid)]
    tap.check(n > 500 and not bad, "each thread's %d system calls, latencies and return values equal perf script's" % n,
              "\n".join(bad[:10]))
    check_stats(tap, cli, "syscalls.data", data, cache, ours["events"], "--type", "syscall:*")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--sample", required=True)
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    tap = Tap()
    tmp = tempfile.mkdtemp(prefix="jvms-test-events-")
    try:
        cache = os.path.join(tmp, "cache")
        sample_jfr = os.path.join(args.sample, "recording.jfr")
        ours = compare_file(tap, args.cli, "sample", args.sample, sample_jfr, cache, tmp)
        check_stats(tap, args.cli, "sample", args.sample, cache, ours["events"])
        check_stats(tap, args.cli, "sample", args.sample, cache,
                    [r for r in ours["events"] if r["type"] == "jdk.ThreadPark"], "--type", "jdk.ThreadPark")
        check_options(tap, args.cli, "sample", args.sample, cache, ours)
        check_syscalls(tap, args.cli, cache, tmp)
        folder = os.path.join(args.shared, "testdata", "jfr")
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".jfr.gz"):
                continue
            path = os.path.join(tmp, name[:-3])
            with gzip.open(os.path.join(folder, name)) as src, open(path, "wb") as dst:
                shutil.copyfileobj(src, dst)
            ours = compare_file(tap, args.cli, name, path, path, cache, tmp)
            check_stats(tap, args.cli, name, path, cache, ours["events"])
            os.unlink(path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    tap.done()


if __name__ == "__main__":
    main()
