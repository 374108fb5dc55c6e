#!/usr/bin/env python3
"""Compares `jvmscope-cli print --json` with `jfr print --json`, field by field, for each FILE.

Both are run with the same --stack-depth (64, all frames of the JDK's default depth). Events
are compared as multisets (each event rendered canonically and sorted), since the two tools
may order events with equal start times differently.

Normalization, and only this: numbers that either side prints as a floating-point value are
compared after rounding both to 6 significant digits (jvmscope prints the shortest decimal that
reads back as the same float, JDK 17's Float.toString sometimes prints more digits). Every
other value (integers, strings, booleans, nulls, date-times, durations, nesting, field names
and order) must be identical. Prints TAP."""
import json
import subprocess
import sys

# The JDK tool, started lean: it runs once per file and JVM start-up dominates.
JFR = ["jfr", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-J-Xss4m"]
from collections import Counter, defaultdict


def normalize(v):
    if isinstance(v, float):
        return float(f"{v:.6g}")
    if isinstance(v, dict):
        # keep field order: it is part of what must match
        return [(k, normalize(x)) for k, x in v.items()]
    if isinstance(v, list):
        return [normalize(x) for x in v]
    return v


def events(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 3):
        raise RuntimeError(f"{cmd[0]} exited {proc.returncode}: {proc.stderr[:2000]}")
    return json.loads(proc.stdout)["recording"]["events"], proc.stderr


def canonical(events_list):
    by_type = defaultdict(Counter)
    for e in events_list:
        by_type[e["type"]][json.dumps(normalize(e["values"]))] += 1
    return by_type


def compare(cli, path, extra):
    ours, stderr = events([cli, "print", "--json", "--stack-depth", "64", *extra, path])
    theirs, _ = events([*JFR, "print", "--json", "--stack-depth", "64", *extra, path])
    a, b = canonical(ours), canonical(theirs)
    problems = []
    for t in sorted(set(a) | set(b)):
        if a[t] == b[t]:
            continue
        only_ours = a[t] - b[t]
        only_theirs = b[t] - a[t]
        problems.append(f"{t}: {sum(a[t].values())} events in ours, {sum(b[t].values())} in jfr; "
                        f"{sum(only_ours.values())} only in ours, {sum(only_theirs.values())} only in jfr")
        if only_ours and only_theirs:
            x = json.loads(next(iter(only_ours)))
            y = json.loads(next(iter(only_theirs)))
            for (k1, v1), (k2, v2) in zip(x, y):
                if (k1, v1) != (k2, v2):
                    problems.append(f"  first difference: ours {k1}={json.dumps(v1)[:300]}")
                    problems.append(f"                    jfr  {k2}={json.dumps(v2)[:300]}")
                    break
    return problems, len(theirs), stderr


def main():
    cli = sys.argv[1]
    args = sys.argv[2:]
    extra = []
    if args and args[0].startswith("--events="):
        extra = ["--events", args.pop(0).split("=", 1)[1]]
    print(f"1..{len(args)}")
    failed = 0
    for i, path in enumerate(args, 1):
        try:
            problems, n, stderr = compare(cli, path, extra)
        except Exception as e:  # noqa: BLE001 - reported as a failure
            problems, n, stderr = [str(e)], 0, ""
        if problems:
            failed += 1
            print(f"not ok {i} - {path}")
            for p in problems[:60]:
                print(f"# {p}")
        else:
            print(f"ok {i} - {path}: {n} events, every field equal")
        for line in stderr.splitlines()[:5]:
            print(f"# stderr: {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
