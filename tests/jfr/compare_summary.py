#!/usr/bin/env python3
"""Compares `jvmscope-cli summary FILE --json` with `jfr summary FILE` for each FILE.

Every type `jfr summary` lists except jdk.Metadata and jdk.CheckPoint must have the same
count in our event_counts, and we must list no type it does not. Prints TAP."""
import json
import subprocess
import sys

# The JDK tool, started lean: it runs once per file and JVM start-up dominates.
JFR = ["jfr", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-J-Xss4m"]


def jfr_rows(path):
    """(name, count) rows of `jfr summary`, without jdk.Metadata and jdk.CheckPoint."""
    out = subprocess.run([*JFR, "summary", path], check=True, capture_output=True, text=True).stdout
    rows = []
    in_table = False
    for line in out.splitlines():
        if line.startswith("====="):
            in_table = True
            continue
        if in_table and line.strip():
            parts = line.split()
            # name may contain spaces ("123 (missing event metadata)"): count and size are last
            name = " ".join(parts[:-2])
            if name not in ("jdk.Metadata", "jdk.CheckPoint"):
                rows.append((name, int(parts[-2])))
    return rows


def our_counts(cli, path):
    proc = subprocess.run([cli, "summary", path, "--json"], capture_output=True, text=True)
    if proc.returncode not in (0, 3):
        raise RuntimeError(f"jvmscope-cli exited {proc.returncode}: {proc.stderr}")
    return json.loads(proc.stdout), proc.stderr


def compare(cli, path):
    rows = jfr_rows(path)
    ours, stderr = our_counts(cli, path)
    problems = []
    names = [name for name, _ in rows]
    if len(set(names)) == len(names):
        # one id per name: the JDK's table is a plain per-name count, compare it directly
        theirs = dict(rows)
        counts = ours["event_counts"]
        for name in sorted(set(theirs) | set(counts)):
            if theirs.get(name) != counts.get(name):
                problems.append(f"{name}: jfr {theirs.get(name)}, ours {counts.get(name)}")
    # always: the id-keyed table, as a multiset of (name, count) rows
    our_rows = sorted((r["name"], r["count"]) for r in ours["jfr_summary_rows"])
    if sorted(rows) != our_rows:
        only_jfr = sorted(set(rows) - set(our_rows))
        only_ours = sorted(set(our_rows) - set(rows))
        problems.append(f"id-keyed rows differ: only in jfr {only_jfr[:10]}, only in ours {only_ours[:10]}")
    return problems, sum(n for _, n in rows), stderr


def main():
    cli = sys.argv[1]
    files = sys.argv[2:]
    print(f"1..{len(files)}")
    failed = 0
    for i, path in enumerate(files, 1):
        try:
            problems, total, stderr = compare(cli, path)
        except Exception as e:  # noqa: BLE001 - reported as a failure
            problems, total, stderr = [str(e)], 0, ""
        if problems:
            failed += 1
            print(f"not ok {i} - {path}")
            for p in problems[:40]:
                print(f"# {p}")
        else:
            print(f"ok {i} - {path}: {total} events, counts equal")
        for line in stderr.splitlines()[:5]:
            print(f"# stderr: {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
