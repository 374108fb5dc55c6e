#!/usr/bin/env python3
"""The kernel state machine on real LTTng traces written by another tool (../shared/testdata/ctf):
every thread's on-CPU time in the index equals the sum of its switch-in -> switch-out spans in
`babeltrace2` output."""
import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile

from jvms_tap import Tap

ap = argparse.ArgumentParser()
ap.add_argument("--dump", required=True)
ap.add_argument("--shared", required=True)
args = ap.parse_args()
tap = Tap()
tmp = tempfile.mkdtemp(prefix="jvms-ctf-")
pat = re.compile(r"^\[(\d+)\.(\d{9})\].* sched_switch: \{ cpu_id = (\d+) \}, \{ .*prev_tid = (\d+), .*next_tid = (\d+),")
try:
    for name in ("scp_src", "scp_dest"):
        trace = os.path.join(args.shared, "testdata", "ctf", "synctraces", name)
        d = json.loads(subprocess.run([args.dump, os.path.join(tmp, "cache"), trace], check=True,
                                      stdout=subprocess.PIPE, text=True).stdout)
        tap.check(d["layers"] == "kernel" and d["clock-method"] == "ctf-clock-epoch", "%s: a kernel trace on the epoch clock" % name, d["clock-method"])
        # Without the muxer, which stops at these traces' overlapping packets: each holds one
        # stream, connected straight to the text sink.
        text = subprocess.run(["babeltrace2", "run", "--component", "src:source.ctf.fs",
                               "--params", 'inputs=["%s"]' % trace,
                               "--component", "pretty:sink.text.pretty", "--params", "clock-seconds=true",
                               "--connect", "src:pretty"],
                              check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True).stdout
        on, total, n = {}, {}, 0
        for line in text.splitlines():
            m = pat.match(line)
            if not m:
                continue
            n += 1
            t = int(m.group(1)) * 1_000_000_000 + int(m.group(2))
            cpu, prev, nxt = int(m.group(3)), int(m.group(4)), int(m.group(5))
            if prev and prev in on:
                c, t_in = on.pop(prev)
                if c == cpu:
                    total[prev] = total.get(prev, 0) + t - t_in
            if nxt:
                on[nxt] = (cpu, t)
        for tid, (c, t_in) in on.items():
            total[tid] = total.get(tid, 0) + d["end"] - t_in
        bad = []
        for tid, ns in sorted(total.items()):
            k = d["threads"].get(str(tid), {}).get("kernel", {})
            got = k.get("running", 0) + k.get("syscall", 0)
            if got != ns:
                bad.append("tid %d: index %d ns, babeltrace2 %d ns" % (tid, got, ns))
        tap.check(n > 0 and total and not bad,
                  "%s: every thread's on-CPU time equals babeltrace2's (%d switches, %d threads)" % (name, n, len(total)),
                  "\n".join(bad[:20]))
except subprocess.CalledProcessError as e:
    tap.check(False, "command failed: %s" % " ".join(e.cmd), e.stderr or "")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
tap.done()
