#!/usr/bin/env python3
"""Disk requests in the index against perf script, on a recording made here.

A Java program (DiskWrites.java) writes a file a megabyte at a time and syncs it after each;
`jvmscope-cli record` records it with perf (block tracepoints, all CPUs, so other processes'
requests come too). The index's `Disk/<dev>/requests/<slot>` intervals (docs/attributes.md,
"Disk") must equal, per device, the requests a naive replay of `perf script`'s block events
finds by the same rules: a request begins at its block_rq_insert (or at its block_rq_issue when
none came), ends at the block_rq_complete at its sector (the oldest request outstanding there,
an issued one first; a flush, issued at sector 0 with no data, completes at sector 2^64 - 1),
and carries the pid, bytes and rwbs of the event that began it. Times are compared on the
kernel's clock (the index's minus its clock-offset-ns). Prints TAP.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import tempfile

from jvms_tap import Tap

# perf prints -1/-1 for an event whose task it does not know (a completion in an interrupt).
BLOCK = re.compile(r"^\s*(-?\d+)/(-?\d+)\s+(\d+)\.(\d{9}):\s+block:(block_rq_\w+):\s+(\d+),(\d+)\s+(\S*)\s+"
                   r"(?:(\d+)\s+)?\(\S*\)\s+(\d+)\s+\+\s+(\d+)")
FLUSH_SECTOR = (1 << 64) - 1


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def perf_requests(perf_data):
    """Replays perf script's block events: (device, start, end, pid, bytes, rwbs) of each
    request that completed, and the number of requests still outstanding at the end."""
    out = run(["perf", "script", "-i", perf_data, "-F", "pid,tid,time,event,trace", "--ns"]).stdout
    pending = collections.defaultdict(list)  # (dev, key) -> [request], oldest first
    done = []
    n_events = 0
    for line in out.splitlines():
        m = BLOCK.match(line)
        if not m:
            continue
        n_events += 1
        pid, _tid, sec, ns, event, major, minor, rwbs, _bytes, sector, nr = m.groups()
        t = int(sec) * 1_000_000_000 + int(ns)
        pid = max(int(pid), 0)  # the index's 0 for an unknown process
        dev = "%s:%s" % (major, minor)
        sector, nr = int(sector), int(nr)
        key = FLUSH_SECTOR if rwbs.startswith("F") and nr == 0 else sector
        queue = pending[(dev, key)]
        if event == "block_rq_insert":
            queue.append({"start": t, "pid": int(pid), "bytes": nr * 512, "op": rwbs, "issued": False})
        elif event == "block_rq_issue":
            waiting = [r for r in queue if not r["issued"]]
            if waiting:
                waiting[0]["issued"] = True
            elif not queue:
                queue.append({"start": t, "pid": int(pid), "bytes": nr * 512, "op": rwbs, "issued": True})
        elif event == "block_rq_complete" and queue:
            issued = [r for r in queue if r["issued"]]
            r = issued[0] if issued else queue[0]
            queue.remove(r)
            done.append((dev, r["start"], t, r["pid"], r["bytes"], r["op"]))
    open_ = [(dev, r["start"], r["pid"], r["bytes"], r["op"])
             for (dev, _key), q in pending.items() for r in q]
    return done, open_, n_events


def index_requests(cli, dump, trace):
    """The index's requests: (device, start, end, pid, bytes, op) on the kernel's clock."""
    info = json.loads(run([cli, "index", trace, "--json"]).stdout)
    offset = int(info["metadata"]["clock-offset-ns"])
    text = run([dump, "-a", "Disk", info["index"]]).stdout
    by_attr = collections.defaultdict(dict)  # path -> start -> (end, value)
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 4 or parts[3] == "null":
            continue
        path, start, end, kind = parts[0], int(parts[1]), int(parts[2]), parts[3]
        value = parts[4] if len(parts) > 4 else ""
        # Strings are printed quoted, as JSON strings.
        by_attr[path][start] = (end, int(value) if kind == "int" else json.loads(value))
    out = []
    for path, intervals in by_attr.items():
        m = re.match(r"^Disk/([^/]+)/requests/\d+$", path)
        if not m:
            continue
        for start, (end, pid) in intervals.items():
            bytes_ = by_attr[path + "/bytes"].get(start, (None, None))[1]
            op = by_attr[path + "/op"].get(start, (None, ""))[1]
            out.append((m.group(1), start - offset, end - offset, pid, bytes_, op))
    return out, info


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--dump", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    tap = Tap()
    tmp = tempfile.mkdtemp(prefix="jvms-disk-")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
    try:
        run(["javac", "-d", tmp, os.path.join(args.source_dir, "DiskWrites.java")])
        trace = os.path.join(tmp, "disk.jvmtrace")
        rec = subprocess.run([args.cli, "record", "-o", trace, "--", "java", "-cp", tmp, "DiskWrites",
                              os.path.join(tmp, "written.bin")], capture_output=True, text=True, env=env)
        if not tap.check(rec.returncode == 0, "jvmscope-cli record records the writing program",
                         rec.stderr[-2000:]):
            return tap.done()
        with open(os.path.join(trace, "bundle.json")) as f:
            jvm_pid = json.load(f)["pid"]
        want, outstanding, n_events = perf_requests(os.path.join(trace, "kernel.perf.data"))
        tap.note("perf script: %d block events, %d requests completed, %d outstanding at the end"
                 % (n_events, len(want), len(outstanding)))
        mine = [r for r in want if r[3] == jvm_pid]
        # Issued requests count too: the recording may stop before the disk completes the
        # program's last writes (CI saw 11 completed and 56 still outstanding at the end).
        issued = len(mine) + sum(1 for r in outstanding if r[2] == jvm_pid)
        tap.check(issued >= 24 and len(mine) > 0, "the recording holds the program's own requests (%d completed, %d issued, pid %d)"
                  % (len(mine), issued, jvm_pid))
        got, info = index_requests(args.cli, args.dump, trace)
        offset = int(info["metadata"]["clock-offset-ns"])
        start, end = info["start_ns"] - offset, info["end_ns"] - offset
        # Requests that began before the index's start are moved to it: compare those after.
        want = sorted(r for r in want if r[1] > start)
        got_done = sorted(r for r in got if r[1] > start and r[2] < end)
        missing = sorted(set(want) - set(got_done))
        extra = sorted(set(got_done) - set(want))
        tap.check(not missing and not extra and len(want) == len(got_done),
                  "every completed request is an interval of its slot with its start, end, pid, "
                  "bytes and rwbs (%d requests)" % len(want),
                  "missing: %s\nextra: %s" % (missing[:10], extra[:10]))
        want_open = sorted(r for r in outstanding if r[1] > start)
        got_open = sorted((r[0], r[1], r[3], r[4], r[5]) for r in got if r[1] > start and r[2] >= end)
        tap.check(want_open == got_open,
                  "the requests still outstanding at the end are open to the end (%d)" % len(want_open),
                  (want_open[:10], got_open[:10]))
        ops = {r[5] for r in mine}
        tap.check(any(o.startswith("W") for o in ops), "the program's writes are there as writes", ops)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            tap.note("kept " + tmp)
    return tap.done()


if __name__ == "__main__":
    main()
