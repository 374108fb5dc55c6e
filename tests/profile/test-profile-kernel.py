#!/usr/bin/env python3
"""The kernel-state split of CPU samples, on bundles recorded with `jvmscope-cli record` (JFR and
perf): a workload with more spinning threads than CPUs must show a large share of its samples
waiting for a CPU, one with fewer threads than CPUs almost none.

The machine running the tests is shared: other builds and tests keep its CPUs busy, and a thread
of ours would wait for them whatever our own workload does (measured: one spinner waited in 89 %
of its samples under a load of 20 on two CPUs). So the recordings run in a session of their own
(their own CFS autogroup) at the highest weight (autogroup and nice -20, as root): then only our
own threads compete with each other, which is what the test is about. Prints TAP.
"""
import argparse
import json
import os
import shutil
import subprocess
import tempfile

from jvms_tap import Tap


def high_priority():
    # In the child, before exec: a new session is a new autogroup, whose weight we raise.
    os.setsid()
    try:
        with open("/proc/self/autogroup", "w") as f:
            f.write("-20")
    except OSError:
        pass
    try:
        os.nice(-20)
    except OSError:
        pass


def run(cmd, timeout=600, **kw):
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.terminate()
        out, err = p.communicate()
        err = "timed out\n" + err
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--source-dir", required=True)
    args = ap.parse_args()
    tap = Tap()
    work = tempfile.mkdtemp(prefix="jvmscope-profile-kernel-")
    try:
        classes = os.path.join(work, "classes")
        r = run(["javac", "-d", classes, os.path.join(args.source_dir, "Spin.java")])
        if not tap.check(r.returncode == 0, "Spin.java compiles", r.stderr):
            tap.done()
        cpus = len(os.sched_getaffinity(0))
        shares = {}
        for label, n in (("more threads than CPUs", 2 * cpus), ("fewer threads than CPUs", max(1, cpus - 1))):
            bundle = os.path.join(work, "spin-%d.jvmtrace" % n)
            r = run([args.cli, "record", "-o", bundle, "--", "java", "-cp", classes, "profilework.Spin", str(n), "4000"],
                    timeout=300, preexec_fn=high_priority)
            if not tap.check(r.returncode == 0, "%s: recorded %d spinners on %d CPUs" % (label, n, cpus), r.stderr[-2000:]):
                continue
            cmd = [args.cli, "profile", bundle, "--cache-dir", os.path.join(work, "cache"), "--json", "--kind", "cpu"]
            for i in range(n):
                cmd += ["--thread", "spinner-%d" % i]
            r = run(cmd)
            if not tap.check(r.returncode == 0, "%s: profile --json" % label, r.stderr[-2000:]):
                continue
            doc = json.loads(r.stdout)
            states = doc.get("kernel_state", {})
            total = doc.get("samples", 0)
            tap.check(doc.get("kernel_states") is True and total > 50 * n
                      and states.get("on_cpu", 0) + states.get("waiting", 0) + states.get("unknown", 0) == total
                      and sum(node["kernel_state"]["total"]["waiting"] for node in doc["tree"]) == states.get("waiting"),
                      "%s: %d CPU samples, each with a kernel state, the tree's states add up" % (label, total),
                      json.dumps(states))
            unknown = states.get("unknown", 0) / max(total, 1)
            tap.check(unknown < 0.1, "%s: the kernel state is known for %.1f %% of the samples" % (label, 100 - 100 * unknown))
            shares[label] = states.get("waiting", 0) / max(total, 1)
            tap.note("%s (%d spinners, %d CPUs): on CPU %d, waiting %d, unknown %d of %d samples"
                     % (label, n, cpus, states.get("on_cpu", 0), states.get("waiting", 0), states.get("unknown", 0), total))
            # The waiting kind is the waiting samples, line for line a part of the CPU profile.
            waiting = run([args.cli, "profile", bundle, "--cache-dir", os.path.join(work, "cache"), "--folded",
                           "--kind", "cpu-waiting"] + cmd[cmd.index("--thread"):])
            waited = sum(int(l.rsplit(" ", 1)[1]) for l in waiting.stdout.splitlines())
            tap.check(waiting.returncode == 0 and waited == states.get("waiting"),
                      "%s: --kind cpu-waiting holds the %d waiting samples" % (label, states.get("waiting", 0)),
                      waiting.stderr[-1000:])
        more, fewer = shares.get("more threads than CPUs"), shares.get("fewer threads than CPUs")
        if more is not None:
            tap.check(more >= 0.25, "more threads than CPUs: a large share waits for a CPU (%.1f %%)" % (100 * more))
        if fewer is not None:
            tap.check(fewer <= 0.10, "fewer threads than CPUs: almost no sample waits for a CPU (%.1f %%)" % (100 * fewer))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tap.done()


if __name__ == "__main__":
    main()
