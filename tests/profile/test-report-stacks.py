#!/usr/bin/env python3
"""The stacks each finding of `jvmscope-cli analyze --json` cites (evidence.stacks,
docs/report.md "Cited stacks") are the first folded lines of `jvmscope-cli profile --folded`
for the report's range, the finding's threads and each of the kinds it names (summed when it
names two), frame for frame and weight for weight, in that order; its unit is the profile's.
On the bundled sample (JDK with thread states and a kernel layer: every kind of finding) and on
the shared async-profiler recording (waits estimated from wall-clock samples). Prints TAP.
"""
import argparse
import gzip
import json
import os
import shutil
import subprocess
import tempfile

from jvms_tap import Tap

CITED = 5


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)


def folded_line(frames):
    """A cited stack (top first) as profile --folded writes it (root first, ';' and line breaks in
    names replaced)."""
    clean = [f.replace(";", ":").replace("\n", " ").replace("\r", " ") for f in frames]
    return ";".join(reversed(clean))


def expected(cli, trace, cache, finding, rng):
    base = [cli, "profile", trace, "--cache-dir", cache,
            "--from", "%dns" % rng["from_offset_ns"], "--to", "%dns" % rng["to_offset_ns"]]
    base += ["--thread=%d" % t["tid"] for t in finding["threads"]]
    weights = {}
    unit = None
    for kind in finding["evidence"]["stacks_kinds"]:
        r = run(base + ["--kind", kind, "--folded"])
        if r.returncode != 0:
            raise RuntimeError("profile --kind %s: %s" % (kind, r.stderr))
        for line in r.stdout.splitlines():
            stack, weight = line.rsplit(" ", 1)
            weights[stack] = weights.get(stack, 0) + int(weight)
        r = run(base + ["--kind", kind, "--json", "--top", "1"])
        unit = json.loads(r.stdout)["unit"]
    ranked = sorted(weights.items(), key=lambda kv: (-kv[1], kv[0].encode()))
    return ranked[:CITED], unit


def check_trace(tap, cli, trace, cache, name, min_cited):
    r = run([cli, "analyze", trace, "--cache-dir", cache, "--json"])
    if not tap.check(r.returncode == 0, "%s: analyze --json" % name, r.stderr):
        return
    report = json.loads(r.stdout)
    rng = report["range"]
    cited = 0
    for f in report["findings"]:
        e = f["evidence"]
        if not f["threads"]:
            continue
        if not tap.check("stacks" in e and "stacks_kinds" in e and "stacks_unit" in e,
                         "%s, %s: the finding cites stacks" % (name, f["kind"]), json.dumps(e)[:500]):
            continue
        want, unit = expected(cli, trace, cache, f, rng)
        got = [(folded_line(s["frames"]), s["weight"]) for s in e["stacks"]]
        problems = []
        if got != want:
            problems.append("cited:\n  " + "\n  ".join("%s %d" % g for g in got))
            problems.append("profile --folded (%s):\n  " % ",".join(e["stacks_kinds"])
                            + "\n  ".join("%s %d" % w for w in want))
        if unit != e["stacks_unit"]:
            problems.append("unit %s, the profile's %s" % (e["stacks_unit"], unit))
        if any(s["samples"] <= 0 for s in e["stacks"]):
            problems.append("a stack without samples")
        tap.check(not problems,
                  "%s, %s: its %d stacks (%s, %d threads) are profile's first folded lines"
                  % (name, f["kind"], len(got), ",".join(e["stacks_kinds"]), len(f["threads"])),
                  "\n".join(problems))
        cited += 1 if got else 0
    tap.check(cited >= min_cited, "%s: %d findings cite stacks (at least %d)" % (name, cited, min_cited))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--sample", required=True)
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    tap = Tap()
    work = tempfile.mkdtemp(prefix="jvmscope-report-stacks-")
    try:
        cache = os.path.join(work, "cache")
        check_trace(tap, args.cli, args.sample, cache, "sample", 7)
        profiler_file = os.path.join(work, "async-profiler.jfr")
        with gzip.open(os.path.join(args.shared, "testdata", "jfr", "async-profiler.jfr.gz")) as src, \
                open(profiler_file, "wb") as dst:
            shutil.copyfileobj(src, dst)
        check_trace(tap, args.cli, profiler_file, cache, "async-profiler", 4)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tap.done()


if __name__ == "__main__":
    main()
