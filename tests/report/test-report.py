#!/usr/bin/env python3
"""jvmscope-cli analyze on real recordings of workloads with one known cause each.

Each case compiles tests/report/Causes.java, records it with `jvmscope-cli record` (JFR and
perf), and checks that the report ranks the right kind first and names the right evidence:
the monitor's class, the competing threads, the collections (against `jfr summary`), the
parked-on class, the file. It also checks the JSON schema of docs/report.md.
"""
import argparse, json, os, shutil, subprocess, sys, tempfile

from jvms_run import run
from jvms_tap import Tap
import jvms_accounting

CASES = {
    "lock": [],
    "cpu": [],
    "gc": ["-Xmx48m", "-XX:+UseSerialGC"],
    "park": [],
    "sleep": [],
    "io": [],
}

def check_schema(tap, report, case):
    ok = True
    for key, kind in (("schema_version", int), ("layers", str), ("range", dict), ("analysed_ns", int),
                      ("findings", list), ("gc", dict), ("allocation", dict), ("threads", list),
                      ("unknowns", list)):
        ok &= isinstance(report.get(key), kind)
    ok &= isinstance(report["gc"].get("collections"), int) and isinstance(report["gc"].get("pause_ns"), int)
    ok &= isinstance(report["allocation"].get("top_classes"), list)
    kinds = {"monitor-contention", "cpu-contention", "gc", "jit", "safepoint", "sleeping", "parking",
             "io", "allocation", "program-logic"}
    lost = [f.get("lost_ns") for f in report["findings"]]
    for f in report["findings"]:
        ok &= f.get("kind") in kinds and isinstance(f.get("lost_ns"), int) and f["lost_ns"] > 0
        ok &= isinstance(f.get("share"), float) and 0 <= f["share"] <= 1.0
        ok &= isinstance(f.get("threads"), list) and all(
            isinstance(t.get("tid"), int) and isinstance(t.get("name"), str) for t in f["threads"])
        ok &= isinstance(f.get("evidence"), dict)
    ok &= lost == sorted(lost, reverse=True)
    ok &= sum(f["share"] for f in report["findings"]) <= 1.0 + 1e-6
    tap.check(ok, "%s: report follows the schema, findings sorted by lost_ns" % case,
              json.dumps(report)[:2000])

def contended_by_others(finding):
    """A CPU-contention finding whose CPU holders are mostly other processes' threads."""
    if finding["kind"] != "cpu-contention":
        return False
    holders = finding["evidence"].get("cpu_holders", [])
    theirs = sum(h["ns"] for h in holders if not h.get("ours"))
    return theirs > sum(h["ns"] for h in holders if h.get("ours"))

def names(threads):
    return [t["name"] for t in threads]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--case", required=True)
    args = ap.parse_args()
    tap = Tap()
    case = args.case
    work = tempfile.mkdtemp(prefix="jvmscope-report-test-")
    try:
        classes = os.path.join(work, "classes")
        r = run(["javac", "-d", classes, args.source])
        if not tap.check(r.returncode == 0, "Causes.java compiles", r.stderr):
            tap.done()
        bundle = os.path.join(work, case + ".jvmtrace")
        cache = os.path.join(work, "cache")
        java = ["java"] + CASES[case] + ["-cp", classes, "causes.Causes", case, "3"]
        if case == "io":
            java.append(os.path.join(work, "data.bin"))
        r = run([args.cli, "record", "-o", bundle, "--"] + java, timeout=120)
        if not tap.check(r.returncode == 0 and os.path.isdir(bundle), "%s: recorded" % case, r.stderr):
            tap.done()
        # Every holder listed (--evidence): on a machine loaded by other programs the heaviest
        # CPU holders are theirs, and the JVM's own come after the default ten.
        r = run([args.cli, "analyze", bundle, "--json", "--evidence", "1000", "--cache-dir", cache], timeout=300)
        if not tap.check(r.returncode == 0, "%s: analyze --json succeeds" % case, r.stderr):
            tap.done()
        report = json.loads(r.stdout)
        check_schema(tap, report, case)
        findings = report["findings"]
        ranked_first = findings[0] if findings else {"kind": None, "evidence": {}, "threads": []}
        # On a machine other programs load (these tests share theirs), the recorded JVM's
        # threads truly waited for CPUs others held, and the report rightly puts that first. The
        # cause the workload was written for is then judged as the first of the others; a
        # CPU-contention finding whose holders are mostly the JVM's own still counts.
        first = ranked_first
        if case != "cpu" and contended_by_others(first):
            tap.note("%s: CPU contention from other programs ranks first (share %.3f, holders %s); "
                     "the workload's cause is looked for after it"
                     % (case, first["share"], names(first["evidence"].get("cpu_holders", []))[:5]))
            first = findings[1] if len(findings) > 1 else {"kind": None, "evidence": {}, "threads": []}
        summary = [(f["kind"], round(f["share"], 3)) for f in findings]
        tap.check("kernel" in report["layers"] and "jfr" in report["layers"],
                  "%s: both layers indexed" % case, report["layers"])

        if case == "lock":
            tap.check(first["kind"] == "monitor-contention", "lock: monitor contention ranks first", summary)
            monitors = first["evidence"].get("monitors", [])
            tap.check(bool(monitors) and monitors[0]["class"] == "causes.Causes$Account",
                      "lock: the monitor's class is named", monitors[:2])
            tap.check(bool(monitors) and monitors[0]["address"].startswith("0x") and monitors[0]["blocked_ns"] > 0,
                      "lock: the monitor's address and blocked time", monitors[:1])
            blocked = set(names(monitors[0]["blocked_threads"])) if monitors else set()
            holders = set(names(monitors[0]["holders"])) if monitors else set()
            # The tellers: three threads of their own and the main thread.
            teller = lambda n: n.startswith("teller-") or n == "main"
            tap.check(len(blocked) >= 2 and all(teller(n) for n in blocked),
                      "lock: the blocked threads are the tellers", blocked)
            tap.check(bool(holders) and all(teller(n) for n in holders),
                      "lock: the threads that held it are tellers", holders)
            # One thread only.
            r = run([args.cli, "analyze", bundle, "--json", "--cache-dir", cache, "--thread", "teller-1"])
            one = json.loads(r.stdout) if r.returncode == 0 else {"threads": []}
            tap.check(names(one["threads"]) == ["teller-1"], "lock: --thread NAME keeps that thread only",
                      names(one["threads"]))
            # JFR alone: no CPU contention can be claimed, and the report says why.
            r = run([args.cli, "analyze", os.path.join(bundle, "recording.jfr"), "--json", "--cache-dir", cache])
            jfr_only = json.loads(r.stdout) if r.returncode == 0 else {"findings": [], "unknowns": []}
            # JFR alone cannot rank it first for sure: HotSpot spins on a contended monitor before
            # its JavaMonitorEnter event starts, and that spinning looks like running Java.
            jfr_monitors = [m for f in jfr_only["findings"] if f["kind"] == "monitor-contention"
                            for m in f["evidence"].get("monitors", [])]
            tap.check(r.returncode == 0 and jfr_monitors and jfr_monitors[0]["class"] == "causes.Causes$Account"
                      and not any(f["kind"] == "cpu-contention" for f in jfr_only["findings"])
                      and any("kernel" in u for u in jfr_only["unknowns"]),
                      "lock: JFR alone still names the monitor, claims no CPU contention and says why",
                      (r.stderr, [(f["kind"]) for f in jfr_only["findings"]], jfr_only["unknowns"]))
        elif case == "cpu":
            tap.check(first["kind"] == "cpu-contention", "cpu: CPU contention ranks first", summary)
            holders = first["evidence"].get("cpu_holders", [])
            ours = [h for h in holders if h.get("ours") and h["name"].startswith("spinner-")]
            tap.check(len(ours) >= 2, "cpu: the spinners are among the threads holding the CPUs", holders[:6])
            tap.check(sum(1 for t in first["threads"] if t["name"].startswith("spinner-")) >= 4,
                      "cpu: the waiting threads are the spinners", names(first["threads"])[:10])
        elif case == "gc":
            tap.check(first["kind"] == "gc", "gc: GC ranks first", summary)
            r = run(["jfr", "print", "--json", "--events", "jdk.GarbageCollection",
                     os.path.join(bundle, "recording.jfr")])
            events = json.loads(r.stdout)["recording"]["events"] if r.returncode == 0 else []
            gc_ids = {e["values"]["gcId"] for e in events}
            gc_names = {e["values"]["name"] for e in events}
            tap.check(report["gc"]["collections"] == len(gc_ids) and len(gc_ids) > 0,
                      "gc: collections equal jdk.GarbageCollection events of jfr print",
                      (report["gc"], len(gc_ids)))
            collectors = {c["name"] for c in first["evidence"].get("collectors", [])}
            tap.check(bool(collectors) and collectors <= gc_names, "gc: the collectors are named as JFR names them",
                      (collectors, gc_names))
            # long[] is what the churner keeps; its byte[] may be scalar-replaced by C2 and never
            # allocated at all, so only the heaviest class is asserted.
            top = [c["class"] for c in report["allocation"]["top_classes"][:3]]
            tap.check(bool(top) and top[0] in ("long[]", "byte[]"), "gc: the allocated classes, in Java form", top)
        elif case == "park":
            tap.check(first["kind"] == "parking", "park: parking ranks first", summary)
            waits = first["evidence"].get("waits", [])
            tap.check(bool(waits) and "ConditionObject" in waits[0]["on"],
                      "park: the parked-on class is the queue's condition", waits[:2])
            tap.check(sum(1 for n in names(first["threads"]) if n.startswith("consumer-")) == 3,
                      "park: the consumers are the parked threads", names(first["threads"]))
        elif case == "sleep":
            tap.check(first["kind"] == "sleeping", "sleep: sleeping ranks first", summary)
            tap.check(sorted(n for n in names(first["threads"]) if n.startswith("napper-")) ==
                      ["napper-0", "napper-1", "napper-2"], "sleep: the sleeping threads are named",
                      names(first["threads"]))
        elif case == "io":
            tap.check(first["kind"] == "io", "io: I/O ranks first", summary)
            targets = [t["target"] for t in first["evidence"].get("targets", [])]
            tap.check(bool(targets) and targets[0].endswith("data.bin"), "io: the file is named", targets[:3])
        # Every recording's numbers add up (tests/data/jvms_accounting.py).
        jvms_accounting.check(tap, case, report, os.path.join(bundle, "recording.jfr"))
        # The text report names the same first kind.
        r = run([args.cli, "analyze", bundle, "--cache-dir", cache])
        tap.check(r.returncode == 0 and ("1. %s" % ranked_first["kind"]) in r.stdout,
                  "%s: the text report ranks the same kind first" % case, r.stdout[:1500])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tap.done()

if __name__ == "__main__":
    main()
