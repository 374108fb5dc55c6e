#!/usr/bin/env python3
"""jvmscope-cli compare --profile (docs/compare.md, "The differential flame graph") against a
naive computation from `jvmscope-cli profile --json` of each side over the same range: every
frame (a path of methods from the root) of either tree is listed once, with its total and self
weights on each side, their shares of each side's total, and the changes, in the documented
order; frames only in the baseline have nothing on the other side.

Pairs (no JVM is recorded here):
  sample   the bundled sample, 0-2.5 s against 2.5-5.1 s of itself (one program, two phases)
  writers  the shared async-profiler recording of JDK 17 (example.jfr) against the Kafka
           broker's (two programs: most frames on one side only), and --kind alloc
Prints TAP."""
import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import tempfile

from jvms_tap import Tap


# The run-time part of a hidden class's name (a lambda's "+0x00007fc2e0007c10.927327686"),
# folded before frames are matched (docs/compare.md).
HIDDEN = re.compile(r"\+0x[0-9a-fA-F]+[./][0-9]+")


def naive(profile):
    """{path tuple: (total, self)} of a profile --json tree, and its total."""
    frames = {}

    def walk(node, path):
        path = path + (HIDDEN.sub("", node["frame"]),)
        total, self_ = frames.get(path, (0, 0))
        frames[path] = (total + node["total"], self_ + node["self"])
        for child in node.get("children", []):
            walk(child, path)
    for top in profile["tree"]:
        walk(top, ())
    return frames, profile["total"]


def expected(base, other):
    """The frames compare --profile must list, as dicts, in its order."""
    (bf, bt), (of, ot) = naive(base), naive(other)
    rows = []
    for path in set(bf) | set(of):
        b_total, b_self = bf.get(path, (0, 0))
        o_total, o_self = of.get(path, (0, 0))
        r = {"path": list(path), "baseline_total": b_total, "other_total": o_total,
             "baseline_self": b_self, "other_self": o_self,
             "baseline_share": b_total / bt if bt else 0.0, "other_share": o_total / ot if ot else 0.0,
             "baseline_self_share": b_self / bt if bt else 0.0, "other_self_share": o_self / ot if ot else 0.0}
        r["change"] = r["other_share"] - r["baseline_share"]
        r["self_change"] = r["other_self_share"] - r["baseline_self_share"]
        rows.append(r)
    # Largest |change| first, then largest |self change|, then by the path's bytes.
    rows.sort(key=lambda r: (-abs(r["change"]), -abs(r["self_change"]), ";".join(r["path"]).encode()))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--sample", required=True)
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    tap = Tap()
    tmp = tempfile.mkdtemp(prefix="jvmscope-compare-profile-")
    cache = os.path.join(tmp, "cache")

    def run(cmd):
        r = subprocess.run([args.cli] + cmd + ["--cache-dir", cache], capture_output=True, text=True)
        return r, (json.loads(r.stdout) if r.returncode == 0 and "--json" in cmd else None)

    def check_pair(name, a, b, a_range, b_range, kind=None):
        kind_args = ["--kind", kind] if kind else []
        r, diff = run(["compare", "--profile", "--json", a, b,
                       "--baseline-from", a_range[0], "--baseline-to", a_range[1],
                       "--other-from", b_range[0], "--other-to", b_range[1]] + kind_args)
        if not tap.check(diff is not None, "%s: compare --profile --json" % name, r.stderr[-2000:]):
            return None
        ra, pa = run(["profile", "--json", a, "--from", a_range[0], "--to", a_range[1]] + kind_args)
        rb, pb = run(["profile", "--json", b, "--from", b_range[0], "--to", b_range[1]] + kind_args)
        if not tap.check(pa is not None and pb is not None, "%s: profile --json of each side" % name,
                         (ra.stderr[-500:], rb.stderr[-500:])):
            return None
        tap.check(diff["baseline"]["total"] == pa["total"] and diff["other"]["total"] == pb["total"]
                  and diff["baseline"]["range"]["from_ns"] == pa["range"]["from_ns"]
                  and diff["other"]["range"]["to_ns"] == pb["range"]["to_ns"]
                  and diff["unit"] == pb["unit"] and pa["total"] > 0 and pb["total"] > 0,
                  "%s: each side's range and total are profile's (%d, %d %s)"
                  % (name, pa["total"], pb["total"], pb["unit"]),
                  (diff["baseline"], diff["other"]))
        want = expected(pa, pb)
        got = diff["frames"]
        keys = ["path", "baseline_total", "other_total", "baseline_self", "other_self", "baseline_share",
                "other_share", "change", "baseline_self_share", "other_self_share", "self_change"]
        bad = [(g, w) for g, w in zip(got, want) if [g[k] for k in keys] != [w[k] for k in keys]]
        tap.check(len(got) == len(want) and not bad,
                  "%s: the %d frames, their weights, shares and changes and their order are the naive "
                  "computation's from profile --json" % (name, len(want)), (len(got), len(want), bad[:1]))
        return diff

    try:
        end = "5.1"
        diff = check_pair("sample", args.sample, args.sample, ("0", "2.5"), ("2.5", end))
        if diff is not None:
            tap.check(any(f["change"] > 0 for f in diff["frames"]) and any(f["change"] < 0 for f in diff["frames"]),
                      "sample: frames grew and shrank between the two phases",
                      [(f["path"][-1], f["change"]) for f in diff["frames"][:4]])
        # The text says the same frames, largest change first.
        r, _ = run(["compare", "--profile", "--limit", "3", args.sample, args.sample,
                    "--baseline-from", "0", "--baseline-to", "2.5", "--other-from", "2.5", "--other-to", end])
        lines = [line for line in r.stdout.split("\n") if line.startswith("  ") and "%" in line]
        top = diff["frames"][0] if diff else None
        tap.check(r.returncode == 0 and len(lines) == 3 and top is not None
                  and lines[0].split()[0] == "%+.1f" % (top["change"] * 100)
                  and lines[0].rstrip().endswith(top["path"][-1]),
                  "sample: the text's first line is the largest change", lines[:1])

        files = []
        for f in ("example.jfr.gz", "cortex-dev-01__kafka-0__cpu__0.jfr.gz"):
            out = os.path.join(tmp, f[:-3])
            with gzip.open(os.path.join(args.shared, "testdata", "jfr", f)) as src, open(out, "wb") as dst:
                shutil.copyfileobj(src, dst)
            files.append(out)
        whole = ("0", "1000")
        diff = check_pair("writers", files[0], files[1], whole, whole)
        if diff is not None:
            gone = [f for f in diff["frames"] if f["other_total"] == 0]
            new = [f for f in diff["frames"] if f["baseline_total"] == 0]
            tap.check(gone and new and all(f["change"] == -f["baseline_share"] for f in gone),
                      "writers: frames only in the baseline are listed with nothing on the other side",
                      (len(gone), len(new)))
        check_pair("writers alloc", files[0], files[0], ("0", "5"), ("5", "1000"), kind="alloc")
        r, _ = run(["compare", "--profile", "--kind", "no.such.Type", files[0], files[1]])
        tap.check(r.returncode == 2 and "no.such.Type" in r.stderr,
                  "an event type the trace has no stacks of: status 2, named", (r.returncode, r.stderr[-300:]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tap.done()


if __name__ == "__main__":
    raise SystemExit(main())
