#!/usr/bin/env python3
"""The numbers of a report add up on a trace given (the bundled sample): no Java thread stopped
longer than the safepoints' stop windows, GC stop time within the GC safepoints', operations
named as jdk.ExecuteVMOperation names them (tests/data/jvms_accounting.py), in the JSON and in
the text."""
import argparse, json, os, subprocess, tempfile, shutil

from jvms_tap import Tap
import jvms_accounting

ap = argparse.ArgumentParser()
ap.add_argument("--cli", required=True)
ap.add_argument("--trace", required=True)
args = ap.parse_args()
tap = Tap()
cache = tempfile.mkdtemp(prefix="jvms-accounting-")
try:
    r = subprocess.run([args.cli, "analyze", args.trace, "--json", "--cache-dir", cache],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if tap.check(r.returncode == 0, "analyze --json succeeds", r.stderr):
        report = json.loads(r.stdout)
        jvms_accounting.check(tap, os.path.basename(args.trace), report, os.path.join(args.trace, "recording.jfr"))
        gc = [f for f in report["findings"] if f["kind"] == "gc"]
        e = gc[0]["evidence"] if gc else {}
        tap.check(gc and e.get("time_to_safepoint_ns", 0) > 0 and e.get("operation_ns", 0) > 0
                  and isinstance(e.get("stragglers"), list) and isinstance(e.get("safepoints"), list),
                  "the gc evidence separates synchronisation, operation and resume, with stragglers",
                  {k: e.get(k) for k in ("time_to_safepoint_ns", "operation_ns", "resume_ns")})
        text = subprocess.run([args.cli, "analyze", args.trace, "--cache-dir", cache],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True).stdout
        tap.check("Safepoint end" not in text and "time to safepoint" in text,
                  "the text names no 'Safepoint end' operation and gives the time to safepoint", text[:3000])
finally:
    shutil.rmtree(cache, ignore_errors=True)
tap.done()
