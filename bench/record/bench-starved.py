#!/usr/bin/env python3
"""bench-starved: what perf loses on a starved CPU, with the counter group read at each switch and
without (--no-switch-counters), alternating. The recorder, the JVM it launches (tests/causality's
`preempt` case, 4 s) and a CPU hog (`python3 -c 'while True: pass'`) are all pinned to CPU 0.

    bench-starved.py --cli build/app/jvmscope-cli [--runs N] [--buffer SIZE]

--buffer sets perf's buffer per CPU through the recorder's test variable JVMSCOPE_TEST_PERF_BUFFER
(the default 32M lost nothing here; 64K makes perf lose, so that what changes losses shows).
Prints, for `group` and `plain`, the medians over the runs of what bundle.json's
recorded.kernel.lost says (docs/recording.md, "What perf lost"):

    figure lost_events_<v>       events perf's buffer dropped (LOST records)
    figure switch_gaps_<v>       places where switches are missing
    figure switch_gaps_not_vm_<v> of those, the ones not after the idle task or PID 1's
                                 tokio-rt-worker threads, whose switch-out this VM never records
    ratio  lost_events_group_over_plain
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VM_THREADS = ("swapper", "tokio-rt-worker")


def record(cli, classes, out, extra, buffer):
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ)
    if buffer:
        env["JVMSCOPE_TEST_PERF_BUFFER"] = buffer
    hog = subprocess.Popen(["taskset", "-c", "0", "python3", "-c", "while True: pass"])
    try:
        r = subprocess.run(["taskset", "-c", "0", cli, "record", "-o", out] + extra +
                           ["--", "java", "-cp", classes, "causality.Causality", "preempt", "4"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, timeout=300)
    finally:
        hog.kill()
        hog.wait()
    if r.returncode != 0:
        sys.exit("record failed: " + r.stderr)
    with open(os.path.join(out, "bundle.json")) as f:
        lost = json.load(f)["recorded"]["kernel"]["lost"]
    vm = sum(n for name, n in lost["switch_gaps_after"].items() if name in VM_THREADS)
    return {"lost_events": lost["events"], "switch_gaps": lost["switch_gaps"],
            "switch_gaps_not_vm": lost["switch_gaps"] - lost["switch_gaps_in_lost"] - vm}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--buffer", default="")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="jvmscope-bench-starved-")
    try:
        classes = os.path.join(work, "classes")
        subprocess.run(["javac", "-d", classes, os.path.join(ROOT, "tests", "causality", "Causality.java")],
                       check=True)
        variants = {"group": [], "plain": ["--no-switch-counters"]}
        results = {v: [] for v in variants}
        for i in range(args.runs):
            for v, extra in variants.items():
                r = record(args.cli, classes, os.path.join(work, "b.jvmtrace"), extra, args.buffer)
                results[v].append(r)
                print("# run %d %s: %s" % (i + 1, v, json.dumps(r)), flush=True)
        med = {v: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for v, rs in results.items()}
        for v in variants:
            for k, x in med[v].items():
                print("figure %s_%s %g events" % (k, v, x) if k == "lost_events" else
                      "figure %s_%s %g places" % (k, v, x))
        if med["plain"]["lost_events"] > 0:
            print("ratio lost_events_group_over_plain %.3f" % (med["group"]["lost_events"] / med["plain"]["lost_events"]))
        else:
            print("ratio lost_events_group_over_plain %s" % ("1.000" if med["group"]["lost_events"] == 0 else "inf"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
