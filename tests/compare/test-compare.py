#!/usr/bin/env python3
"""jvmscope-cli compare on two recordings of one workload (tests/compare/Change.java) with one
change, recorded by the test (docs/compare.md):

  lock   a monitor contended by 4, then 12 threads (JFR and perf): monitor-contention ranks first,
         grows, is significant and names compare.Change$Ledger; sleeping (one holder sleeps in
         both) does not change significantly; the baseline's numbers are `analyze`'s over the
         same range (the oracle), and --baseline-from/--to narrow the baseline.
  gc     a heap of 1 GB with a young generation of 768 MB, then a heap of 48 MB (SerialGC, JFR and
         perf): the pause time grows, the
         collector that appeared is named as `jfr print` names it; compared from the JFR layer,
         gc is the kind that grows most, taking program-logic's time.
  noise  the 4-thread workload recorded twice, at the same time: no kind changes significantly. JFR only
         (--no-kernel): the kernel layer's cpu-contention is how long our threads waited for a
         CPU, which other processes' load on this shared machine sets, not the program.
"""
import argparse, concurrent.futures, json, os, shutil, subprocess, sys, tempfile

from jvms_run import run
from jvms_tap import Tap


ROW_KEYS = ("baseline_per_s", "other_per_s", "change_per_s", "uncertainty_per_s", "significant")


def check_schema(tap, c, case):
    ok = c.get("schema_version") == 1
    for side in ("baseline", "other"):
        s = c.get(side, {})
        ok &= isinstance(s.get("trace"), str) and isinstance(s.get("range"), dict)
        ok &= isinstance(s.get("slices"), int) and s["slices"] >= 1
    names = {"kinds": ("kind", "ns"), "monitors": ("class", "ns"), "parked": ("on", "ns"),
             "io": ("target", "ns"), "thread_groups": ("group", "ns"),
             "methods": ("method", "samples"), "allocations": ("class", "bytes")}
    for table, (key, unit) in names.items():
        rows = c.get(table)
        ok &= isinstance(rows, list)
        for r in rows or []:
            ok &= isinstance(r.get(key), str)
            ok &= isinstance(r.get("baseline_" + unit), int) and isinstance(r.get("other_" + unit), int)
            ok &= all(k in r for k in ROW_KEYS)
            ok &= abs(r["change_per_s"] - (r["other_per_s"] - r["baseline_per_s"])) <= 1e-6 * max(1, abs(r["change_per_s"]))
            ok &= r["uncertainty_per_s"] >= 0
        # Sorted by the size of the change (methods: of the share's).
        sizes = [abs(r["change_share" if table == "methods" else "change_per_s"]) for r in rows or []]
        ok &= sizes == sorted(sizes, reverse=True)
    ok &= all("measure" in r and "unit" in r and all(k in r for k in ROW_KEYS) for r in c.get("gc", []))
    tap.check(ok, "%s: the JSON follows docs/compare.md, every table sorted by |change|" % case,
              json.dumps(c)[:3000])


def record(tap, cli, out, java, kernel=True):
    cmd = [cli, "record", "-o", out] + ([] if kernel else ["--no-kernel"]) + ["--"] + java
    r = run(cmd, timeout=180)
    return tap.check(r.returncode == 0 and os.path.isdir(out), "recorded %s" % os.path.basename(out),
                     r.stderr)


def record_together(tap, cli, outs, java, kernel=True):
    """Records one command into each of outs at the same time: the runs share the machine's
    load, which a recording cannot see and which changes between runs made one after another."""
    cmds = [[cli, "record", "-o", out] + ([] if kernel else ["--no-kernel"]) + ["--"] + java for out in outs]
    with concurrent.futures.ThreadPoolExecutor(len(cmds)) as pool:
        results = list(pool.map(lambda c: run(c, timeout=180), cmds))
    ok = True
    for out, r in zip(outs, results):
        ok &= tap.check(r.returncode == 0 and os.path.isdir(out), "recorded %s" % os.path.basename(out), r.stderr)
    return ok


def compare(tap, cli, cache, a, b, *extra):
    r = run([cli, "compare", a, b, "--json", "--cache-dir", cache] + list(extra), timeout=300)
    if not tap.check(r.returncode == 0, "compare --json %s %s succeeds" % (os.path.basename(a), os.path.basename(b)),
                     r.stderr):
        tap.done()
    return json.loads(r.stdout)


def kinds(c):
    return [(k["kind"], round(k["change_per_s"] / 1e9, 3), round(k["uncertainty_per_s"] / 1e9, 3),
             k["significant"]) for k in c["kinds"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--case", required=True)
    args = ap.parse_args()
    tap = Tap()
    case, cli = args.case, args.cli
    work = tempfile.mkdtemp(prefix="jvmscope-compare-test-")
    cache = os.path.join(work, "cache")
    try:
        classes = os.path.join(work, "classes")
        r = run(["javac", "-d", classes, args.source])
        if not tap.check(r.returncode == 0, "Change.java compiles", r.stderr):
            tap.done()
        java = lambda *a: ["java", "-XX:+UseSerialGC"] + list(a[:-1]) + ["-cp", classes, "compare.Change"] + a[-1]
        if case == "lock":
            a, b = os.path.join(work, "lock4.jvmtrace"), os.path.join(work, "lock12.jvmtrace")
            if not (record(tap, cli, a, java(["lock", "4", "6"])) and record(tap, cli, b, java(["lock", "12", "6"]))):
                tap.done()
            c = compare(tap, cli, cache, a, b)
            check_schema(tap, c, case)
            first = c["kinds"][0] if c["kinds"] else {}
            tap.check(first.get("kind") == "monitor-contention" and first["change_per_s"] > 0 and first["significant"],
                      "lock: monitor-contention changes most, up, significantly", kinds(c))
            tap.check(bool(c["monitors"]) and c["monitors"][0]["class"] == "compare.Change$Ledger"
                      and c["monitors"][0]["change_per_s"] > 0 and c["monitors"][0]["significant"],
                      "lock: the monitor is named, its blocked time up", c["monitors"][:2])
            sleeping = [k for k in c["kinds"] if k["kind"] == "sleeping"]
            tap.check(bool(sleeping) and not sleeping[0]["significant"],
                      "lock: sleeping (one holder at a time in both) does not change significantly", kinds(c))
            groups = [g for g in c["thread_groups"] if g["group"] == "client-#" and g["kind"] == "java"]
            tap.check(bool(groups) and all(g["baseline_threads"] == 4 and g["other_threads"] == 12 for g in groups)
                      and any(g["state"] == "user:blocked" and g["significant"] and g["change_per_s"] > 0 for g in groups),
                      "lock: the client-# group has 4 and 12 threads, blocked more", groups[:4])
            # The oracle: over the same range, the baseline's absolute numbers are analyze's.
            rng = c["baseline"]["range"]
            frm, to = "%dns" % rng["from_offset_ns"], "%dns" % rng["to_offset_ns"]
            r = run([cli, "analyze", a, "--json", "--cache-dir", cache, "--from", frm, "--to", to])
            report = json.loads(r.stdout) if r.returncode == 0 else {"findings": []}
            lost = {f["kind"]: f["lost_ns"] for f in report["findings"]}
            ours = {k["kind"]: k["baseline_ns"] for k in c["kinds"] if k["baseline_ns"] > 0}
            tap.check(r.returncode == 0 and lost == ours, "lock: the baseline's lost time per kind is analyze's",
                      (lost, ours))
            # A narrower baseline range: its duration and slices follow.
            n = compare(tap, cli, cache, a, b, "--baseline-from", "3", "--baseline-to", "5")
            tap.check(n["baseline"]["range"]["duration_ns"] == 2000000000 and n["baseline"]["slices"] == 2
                      and n["other"]["range"] == c["other"]["range"],
                      "lock: --baseline-from/--to narrow the baseline only", (n["baseline"], n["other"]["range"]))
            r = run([cli, "compare", a, b, "--baseline-from", "5", "--baseline-to", "3"])
            tap.check(r.returncode == 2 and "--baseline-from" in r.stderr, "lock: a range that ends before it starts: status 2",
                      (r.returncode, r.stderr))
            r = run([cli, "compare", a, "--cache-dir", cache])
            tap.check(r.returncode == 2, "compare with one trace: status 2", (r.returncode, r.stderr))
            r = run([cli, "compare", a, b, "--cache-dir", cache, "--limit", "3"])
            tap.check(r.returncode == 0 and "* monitor-contention" in r.stdout and "compare.Change$Ledger" in r.stdout,
                      "lock: the text names the kind, marked significant, and the monitor", r.stdout[:2000])
        elif case == "gc":
            # The big heap's young generation outlasts the live set's turnover (each array is
            # replaced after some 216 MB of allocation), so its collections copy only the live
            # set and promote nothing: about 50 ms of pause a second against 500 in the small
            # heap. With -Xmx1g alone (a young generation of some 130 MB) it promoted, and full
            # collections paused it 300 to 370 ms a second: at load 17 in CI the growth was 2.2
            # times its uncertainty, not significant (docs/compare.md: more than 3 times).
            a, b = os.path.join(work, "big.jvmtrace"), os.path.join(work, "small.jvmtrace")
            if not (record(tap, cli, a, java("-Xms1g", "-Xmx1g", "-Xmn768m", ["gc", "1", "6"]))
                    and record(tap, cli, b, java("-Xmx48m", ["gc", "1", "6"]))):
                tap.done()
            c = compare(tap, cli, cache, a, b)
            check_schema(tap, c, case)
            r = run(["jfr", "print", "--json", "--events", "jdk.GarbageCollection", os.path.join(b, "recording.jfr")])
            names = {e["values"]["name"] for e in json.loads(r.stdout)["recording"]["events"]} if r.returncode == 0 else set()
            grown = [g for g in c["gc"] if g["measure"] == "collections" and g["collector"] is not None
                     and g["change_per_s"] > 0 and g["significant"]]
            tap.check(bool(grown) and all(g["collector"] in names for g in grown),
                      "gc: the collector whose collections grew is named as jfr print names it",
                      (grown, names))
            pause = [g for g in c["gc"] if g["measure"] == "pause" and g["collector"] is None]
            tap.check(bool(pause) and pause[0]["change_per_s"] > 0 and pause[0]["significant"],
                      "gc: the pause time grew", pause)
            # The kinds, from the JFR layer: a running thread stopped by a collection is charged
            # to gc (with the kernel layer too: the thread whose allocation asked for the
            # collection waits for it, docs/report.md). Its time moves from
            # program-logic to gc: the two changes are of one size and opposite signs, so gc is
            # the first of the kinds that grew.
            j = compare(tap, cli, cache, os.path.join(a, "recording.jfr"), os.path.join(b, "recording.jfr"))
            up = [k for k in j["kinds"] if k["change_per_s"] > 0]
            tap.check(bool(up) and up[0]["kind"] == "gc" and up[0]["significant"],
                      "gc (JFR): gc grows most, significantly", kinds(j))
            logic = [k for k in j["kinds"] if k["kind"] == "program-logic"]
            tap.check(j["kinds"][0]["kind"] in ("gc", "program-logic") and bool(logic)
                      and logic[0]["change_per_s"] < 0 and logic[0]["significant"],
                      "gc (JFR): the time comes from program-logic, and one of the two changes most", kinds(j))
        elif case == "noise":
            a, b = os.path.join(work, "one.jvmtrace"), os.path.join(work, "two.jvmtrace")
            # At the same time: one after the other, the machine's other load (the other CI jobs,
            # the system) differed between the two and moved program-logic by 14 to 22 % against
            # an uncertainty of 3 %, which JFR alone cannot tell from the program
            # (docs/compare.md, "What the rule cannot see").
            if not record_together(tap, cli, [a, b], java(["lock", "4", "6"]), kernel=False):
                tap.done()
            c = compare(tap, cli, cache, a, b)
            check_schema(tap, c, case)
            tap.check(len(c["kinds"]) >= 3 and not any(k["significant"] for k in c["kinds"]),
                      "noise: the same workload twice, no kind changes significantly", kinds(c))
            tap.check(bool(c["monitors"]) and not c["monitors"][0]["significant"],
                      "noise: nor does the monitor's blocked time", c["monitors"][:1])
            # Against itself: every change is zero and none is significant.
            s = compare(tap, cli, cache, a, a)
            tap.check(all(r["change_per_s"] == 0 and not r["significant"] for t in ("kinds", "monitors", "thread_groups", "gc")
                          for r in s[t]), "noise: a trace against itself changes nothing", kinds(s))
        else:
            tap.check(False, "unknown case %s" % case)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tap.done()


if __name__ == "__main__":
    main()
