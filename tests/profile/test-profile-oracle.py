#!/usr/bin/env python3
"""jvmscope-cli profile --folded against the JDK's own reading of the same recordings.

For every file of ../shared/testdata/jfr (decompressed into a temporary folder), a file as
dd-trace-java's profiler writes one with weighted samples (dd-weights-gen), and for two
recordings this test makes of tests/profile/ProfileWork.java (data/jvmscope.jfc; and one with
TLAB events instead of allocation samples), the CLI's folded stacks must equal, line for line,
an aggregation of `jfr print --json` by the rules of docs/profile.md (profile_oracle.py): for the
whole trace and two sub-ranges, for every kind and every event type with stacks, and for the
busiest threads alone; for files with a profiler's batches of wall-clock samples, ranges that cut
the largest batches. The JSON's totals must be the folded lines' sums.

Then the workload's known hot methods: each thread's profile of its kind is led by its own
method (cpu-alpha by hotAlpha, allocator by allocate, locker-1 by lockedWork, ...). Prints TAP.
"""
import argparse
from collections import defaultdict
import gzip
import hashlib
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time

import jvms_class_names
from jvms_tap import Tap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profile_oracle  # noqa: E402


def run(cmd, timeout=600):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


class Cli:
    def __init__(self, path, cache):
        self.path = path
        self.cache = cache

    def profile(self, trace, *args):
        r = run([self.path, "profile", trace, "--cache-dir", self.cache] + list(args))
        if r.returncode != 0:
            raise RuntimeError("jvmscope-cli profile %s %s: exit %d: %s" % (trace, " ".join(args), r.returncode, r.stderr[-2000:]))
        return r.stdout


def offset_args(start, a, b):
    return ["--from", "%dns" % (a - start), "--to", "%dns" % (b - start)]


def oracle(path, type_ids):
    """The oracle's reading of @path, from a cache beside the system's temporary folder when this
    file was read by this very oracle before (CI runs the suite twice, plain and sanitized: the
    JDK's reading does not depend on our build, and 1.4 GB of JSON takes a minute to parse)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    for module in (profile_oracle, jvms_class_names):
        with open(module.__file__, "rb") as f:
            digest.update(f.read())
    digest.update(repr(sorted(type_ids.items())).encode())
    cache = os.path.join(os.environ.get("JVMS_ORACLE_CACHE", tempfile.gettempdir()), "jvmscope-profile-oracle")
    entry = os.path.join(cache, digest.hexdigest() + ".pickle")
    try:
        with open(entry, "rb") as f:
            return pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError):
        pass
    rec = profile_oracle.Recording(path, type_ids)
    try:
        os.makedirs(cache, exist_ok=True)
        with open(entry + ".tmp", "wb") as f:
            pickle.dump(rec, f)
        os.replace(entry + ".tmp", entry)
    except OSError:
        pass
    return rec


def check_dd_cpu_period(tap, cli, path):
    """ddprof's CPU samples weigh its DatadogProfilerConfig's cpuInterval (10 ms in the file, where
    the default is 20 ms): without wall-clock samples the wall kind is the CPU samples weighted by
    their period. The oracle is dd-weights-gen's own model (no JVM: jfr print of the same samples
    is what check_file does on the file with wall-clock samples): CPU sample i (0 to 89) is on
    stack i % 3 with weight i % 5 + 1."""
    stacks = ["app.Work.run;app.Work.spin", "app.Work.run;app.Work.hash", "app.Work.run;app.Work.batch;app.Work.hash"]
    want = defaultdict(int)
    for i in range(90):
        want[stacks[i % 3]] += (i % 5 + 1) * 10_000_000
    theirs = sorted("%s %d" % kv for kv in want.items())
    ours = sorted(cli.profile(path, "--folded", "--kind", "wall").splitlines())
    tap.check(ours == theirs, "dd-cpu-only.jfr: --kind wall weighs each CPU sample the config's cpuInterval (10 ms)",
              "ours %s, the generator's %s" % (ours, theirs))


def check_file(tap, cli, path, type_ids, label):
    started = time.monotonic()
    rec = oracle(path, type_ids)
    tap.note("%s: the oracle read it in %.1f s" % (label, time.monotonic() - started))
    for note in rec.notes:
        tap.note(note)
    whole = json.loads(cli.profile(path, "--json", "--top", "1"))
    start = whole["range"]["from_ns"] - whole["range"]["from_offset_ns"]
    lo, hi = whole["range"]["from_ns"], whole["range"]["to_ns"]
    span = hi - lo
    ranges = [("whole", None, lo, hi),
              ("25-60%", (lo + span // 4, lo + span * 3 // 5), lo + span // 4, lo + span * 3 // 5),
              ("40-41%", (lo + span * 2 // 5, lo + span * 41 // 100), lo + span * 2 // 5, lo + span * 41 // 100)]
    kinds = [k for k in profile_oracle.KINDS if k != "cpu-waiting"] + rec.types()
    counts = {}
    for t, _, tid, _, _ in rec.samples:
        counts[tid] = counts.get(tid, 0) + 1
    busiest = sorted(counts, key=lambda k: (-counts[k], k))[:2]
    n_lines = 0
    for kind in kinds:
        failures = []
        # Every kind over the whole trace; the named kinds over the sub-ranges and, for those that
        # mix types, for the busiest threads alone too (each CLI run costs a JVM-free second).
        named = kind in profile_oracle.KINDS
        for name, bounds, a, b in ranges if named else ranges[:1]:
            args = ["--folded", "--kind", kind] + (offset_args(start, *bounds) if bounds else [])
            ours = cli.profile(path, *args).splitlines()
            theirs = rec.folded(kind, a, b)
            n_lines += len(theirs)
            if ours != theirs:
                diff = [l for l in theirs if l not in ours][:3] + ["--"] + [l for l in ours if l not in theirs][:3]
                failures.append("%s: %d lines, oracle %d; oracle only / ours only: %s" % (name, len(ours), len(theirs), diff))
        for tid in busiest if kind in ("cpu", "alloc", "wall") else []:
            ours = cli.profile(path, "--folded", "--kind", kind, "--thread", str(tid)).splitlines()
            theirs = rec.folded(kind, lo, hi, {tid})
            if ours != theirs:
                failures.append("thread %d: %d lines, oracle %d" % (tid, len(ours), len(theirs)))
        tap.check(not failures, "%s: --kind %s: folded stacks equal jfr print's%s"
                  % (label, kind, ", whole and 2 ranges" if named else ""), "\n".join(failures)[:3000])
    n_lines += check_batches(tap, cli, path, rec, label, start, lo, hi)
    # JSON: the total is the sum of the folded weights, the kernel states absent without a kernel.
    folded = cli.profile(path, "--folded", "--kind", "wall")
    doc = json.loads(cli.profile(path, "--json", "--kind", "wall"))
    total = sum(int(l.rsplit(" ", 1)[1]) for l in folded.splitlines())
    tree_total = sum(n["total"] for n in doc["tree"])
    tap.check(doc["total"] == total == tree_total and doc["unit"] == "ns" and doc["kernel_states"] is False
              and doc["kind"] == "wall",
              "%s: --json total (%d) = tree = folded sum (%d), unit ns" % (label, doc["total"], total))
    empty = cli.profile(path, "--folded", "--kind", "cpu-waiting")
    tap.check(empty == "", "%s: without a kernel layer no sample is known to wait for a CPU" % label, empty[:500])
    return n_lines


def check_batches(tap, cli, path, rec, label, start, lo, hi):
    """A profiler's wall-clock batches (N samples in one event) cut by a range: each sample
    counts in the range of its own time (docs/profile.md, "batches"). The three largest batches,
    each cut in its middle (before and after the cut) and a narrow range over its 2nd and 3rd
    samples, for the wall kind and each wall-clock event type."""
    n_lines = 0
    biggest = sorted(rec.batches, key=lambda b: (-b[3], b[1], b[2]))[:3]
    kinds = ["wall"] + sorted({t[:-len(profile_oracle.WALL)] for t, _, _, _, _ in biggest})
    for t, first, tid, n, spacing in biggest:
        cut = first + spacing * (n // 2) - spacing // 2
        last = first + spacing * (n - 1)
        if not tap.check(first < cut <= last and n > 2 and spacing > 0,
                         "%s: a batch of %d samples %d ns apart is cut at %d ns" % (label, n, spacing, cut - start)):
            continue
        failures = []
        for a, b in ((lo, cut), (cut, hi), (first + spacing, first + 3 * spacing)):
            for kind in kinds:
                ours = cli.profile(path, "--folded", "--kind", kind, *offset_args(start, a, b)).splitlines()
                theirs = rec.folded(kind, a, b)
                n_lines += len(theirs)
                if ours != theirs:
                    diff = [l for l in theirs if l not in ours][:2] + ["--"] + [l for l in ours if l not in theirs][:2]
                    failures.append("%s [%d, %d): %d lines, oracle %d; oracle only / ours only: %s"
                                    % (kind, a - start, b - start, len(ours), len(theirs), diff))
        tap.check(not failures, "%s: ranges that cut the batch of %d samples at %d ns count its samples at their own times"
                  % (label, n, first - start), "\n".join(failures)[:3000])
    return n_lines


def leading_line(cli, path, kind, thread):
    out = cli.profile(path, "--folded", "--kind", kind, "--thread", thread, "--top", "1")
    return out.strip()


def check_hot(tap, cli, path):
    expected = [
        ("cpu", "cpu-alpha", "profilework.ProfileWork.hotAlpha"),
        ("cpu", "cpu-beta", "profilework.ProfileWork.hotBeta"),
        ("alloc", "allocator", "profilework.ProfileWork.allocate"),
        ("lock", "locker-1", "profilework.ProfileWork.lockedWork"),
        ("lock", "locker-2", "profilework.ProfileWork.lockedWork"),
        ("wait", "waiter", "profilework.ProfileWork.waitLoop"),
        ("park", "parker", "profilework.ProfileWork.parkLoop"),
        ("sleep", "sleeper", "profilework.ProfileWork.sleepLoop"),
        ("io", "io", "profilework.ProfileWork.ioLoop"),
        ("exception", "thrower", "profilework.ProfileWork.throwLoop"),
        ("wall", "sleeper", "profilework.ProfileWork.sleepLoop"),
    ]
    for kind, thread, method in expected:
        line = leading_line(cli, path, kind, thread)
        frames = line.rsplit(" ", 1)[0].split(";") if line else []
        tap.check(method in frames, "hot methods: %s of thread %s is led by %s" % (kind, thread, method), line[-600:])
    # The method tables: each CPU thread's hottest own method on top.
    for thread, method in (("cpu-alpha", "profilework.ProfileWork.hotAlpha"), ("cpu-beta", "profilework.ProfileWork.hotBeta")):
        csv = cli.profile(path, "--csv", "--kind", "cpu", "--thread", thread, "--top", "1").splitlines()
        tap.check(len(csv) == 2 and csv[0].startswith("method,self,total,") and csv[1].startswith(method + ","),
                  "hot methods: the method table of %s starts with %s" % (thread, method), "\n".join(csv))
    # Together, each spinner's stacks stay apart: hotBeta is not under cpu-alpha.
    alpha = cli.profile(path, "--folded", "--thread", "cpu-alpha")
    tap.check("hotBeta" not in alpha and "hotAlpha" in alpha, "hot methods: cpu-alpha's profile holds only its own method")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--jfc", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--dd-weights-gen", required=True)
    args = ap.parse_args()
    tap = Tap()
    work = tempfile.mkdtemp(prefix="jvmscope-profile-oracle-")
    try:
        classes = os.path.join(work, "classes")
        r = run(["javac", "-d", classes, os.path.join(args.source_dir, "ProfileWork.java"),
                 os.path.join(args.source_dir, "TypeIds.java")])
        if not tap.check(r.returncode == 0, "ProfileWork.java and TypeIds.java compile", r.stderr):
            tap.done()
        cli = Cli(args.cli, os.path.join(work, "cache"))

        def type_ids(path):
            r = run(["java", "-XX:TieredStopAtLevel=1", "-cp", classes, "TypeIds", path])
            if r.returncode != 0:
                raise RuntimeError("TypeIds %s: %s" % (path, r.stderr))
            return {line.split(" ", 1)[1]: int(line.split(" ", 1)[0]) for line in r.stdout.splitlines()}

        recordings = []
        for name, extra in (("work.jfr", ""),
                            ("work-tlab.jfr", ",jdk.ObjectAllocationSample#enabled=false,jdk.ObjectAllocationInNewTLAB#enabled=true,"
                                              "jdk.ObjectAllocationOutsideTLAB#enabled=true")):
            out = os.path.join(work, name)
            r = run(["java", "-XX:StartFlightRecording:filename=%s,settings=%s%s" % (out, args.jfc, extra),
                     "-cp", classes, "profilework.ProfileWork", "5000"], timeout=300)
            if tap.check(r.returncode == 0 and os.path.isfile(out), "%s: recorded ProfileWork" % name, r.stderr[-2000:]):
                recordings.append(out)

        files = []
        testdata = os.path.join(args.shared, "testdata", "jfr")
        for gz in sorted(os.listdir(testdata)):
            if not gz.endswith(".jfr.gz"):
                continue
            out = os.path.join(work, gz[:-3])
            with gzip.open(os.path.join(testdata, gz), "rb") as src, open(out, "wb") as dst:
                shutil.copyfileobj(src, dst)
            files.append(out)
        tap.check(len(files) >= 6, "the shared JFR files are there (%d)" % len(files))
        # ddprof's samples with weights (no public recording holds them): written by
        # dd-weights-gen, read by jfr print as any other file.
        dd = os.path.join(work, "dd-weights.jfr")
        dd_cpu = os.path.join(work, "dd-cpu-only.jfr")
        r = run([args.dd_weights_gen, dd, dd_cpu])
        if tap.check(r.returncode == 0 and os.path.isfile(dd), "dd-weights.jfr: written", r.stderr):
            files.append(dd)
            check_dd_cpu_period(tap, cli, dd_cpu)

        for path in recordings + files:
            try:
                n = check_file(tap, cli, path, type_ids(path), os.path.basename(path))
                tap.note("%s: %d oracle lines compared" % (os.path.basename(path), n))
            except Exception as e:  # a failure to read is a failure, with its reason
                tap.check(False, "%s: compared with the oracle" % os.path.basename(path), repr(e)[:2000])

        if recordings:
            check_hot(tap, cli, recordings[0])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tap.done()


if __name__ == "__main__":
    main()
