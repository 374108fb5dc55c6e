#!/usr/bin/env python3
"""`jvmscope-cli records` on the bundled sample (docs/records.md), short enough for the sanitized
build too: the text, CSV and JSON forms list the same records; --stats and --scatter against the
same figures computed here; --from/--to; a computed metric; events:TYPE against `events --type`;
saving, listing, using and deleting a set and a metric; bad expressions and options refused with
status 2 and a message naming the expression; the threads view's quanta drawn by
`render --colour-by cpu` against these records (quanta_render.py: a colour per CPU, the glyphs of
preempted and blocked quanta; the shades are checked in records-recorded); `render --shade` with a
name the trace has not refused, listing the shades there are. Prints TAP."""
import argparse
import csv
import io
import json
import math
import os
import shutil
import subprocess
import tempfile

import quanta_render
from jvms_tap import Tap

ap = argparse.ArgumentParser()
ap.add_argument("--cli", required=True)
ap.add_argument("--sample", required=True)
args = ap.parse_args()
tap = Tap()
tmp = tempfile.mkdtemp(prefix="jvms-records-sample-")


def cli(*extra, check=True):
    p = subprocess.run([args.cli, "records", args.sample, "--cache-dir", tmp, *extra],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and p.returncode != 0:
        raise SystemExit("records %s: status %d: %s" % (" ".join(extra), p.returncode, p.stderr))
    return p


def js(*extra):
    return json.loads(cli("--json", *extra).stdout)


try:
    got = js()
    quanta = got["records"]
    names = [c["name"] for c in got["columns"]]
    tap.check(len(quanta) > 1000 and got["count"] == len(quanta) and names[:10] ==
              ["start", "epoch_ns", "duration", "tid", "thread", "cpu", "method", "preempted", "end", "complete"],
              "the sample's quanta with their columns", (got["count"], names))
    starts = [q["start"] for q in quanta]
    tap.check(starts == sorted(starts) and all(q["duration"] > 0 for q in quanta),
              "in start order, each a positive duration")
    rows = list(csv.reader(io.StringIO(cli("--csv").stdout)))
    text = cli().stdout.splitlines()
    tap.check(rows[0] == names and len(rows) == len(quanta) + 1 and len(text) == len(quanta) + 1
              and all(int(r[0]) == q["start"] and int(r[2]) == q["duration"] for r, q in zip(rows[1:], quanta)),
              "CSV and text list the same records", (len(rows), len(text)))

    metric_cols = [c["name"] for c in got["columns"] if c["metric"]]
    st = js("--stats")["stats"]
    bad = []
    for name in metric_cols:
        v = [q[name] for q in quanta if q[name] is not None]
        mean = sum(v) / len(v)
        want = {"n": len(v), "sum": sum(v), "min": min(v), "max": max(v), "mean": mean,
                "stddev": math.sqrt(sum((x - mean) ** 2 for x in v) / len(v)),
                "mean_delta": sum(abs(v[i + 1] - v[i]) for i in range(len(v) - 1)) / (len(v) - 1)}
        for k, w in want.items():
            if abs(st[name][k] - w) > 1e-9 * max(1, abs(w)):
                bad.append("%s %s: %s, computed %s" % (name, k, st[name][k], w))
    tap.check(not bad and len(metric_cols) >= 2, "--stats of %s as computed here" % metric_cols, "\n".join(bad))

    c = metric_cols[1]
    pairs = [(q["duration"], q[c]) for q in quanta if q[c] is not None]
    mx, my = sum(p[0] for p in pairs) / len(pairs), sum(p[1] for p in pairs) / len(pairs)
    r = sum((a - mx) * (b - my) for a, b in pairs) / math.sqrt(sum((a - mx) ** 2 for a, _ in pairs)
                                                               * sum((b - my) ** 2 for _, b in pairs))
    corr = js("--scatter", "duration," + c)["correlation"]
    tap.check(corr["x"] == "duration" and corr["y"] == c and corr["n"] == len(pairs) and abs(corr["pearson"] - r) < 1e-9,
              "--scatter duration,%s: r %.4f over %d pairs" % (c, r, len(pairs)), corr)

    t0, t1 = quanta[len(quanta) // 3]["start"], quanta[2 * len(quanta) // 3]["start"]
    part = js("--from", "%dns" % t0, "--to", "%dns" % t1)
    want = [q["epoch_ns"] for q in quanta if t0 <= q["start"] < t1]
    tap.check([q["epoch_ns"] for q in part["records"]] == want, "--from/--to keep the quanta starting in the range (%d)" % len(want))

    f = js("--metric", "us=duration/1us", "--metric", "ms=us/1000", "--filter", "ms >= 1 && !(end == 'unknown')",
           "--filter", "cpu == 0 || cpu == 1")
    want = [q for q in quanta if q["duration"] >= 1_000_000 and q["end"] != "unknown" and q["cpu"] in (0, 1)]
    tap.check(f["count"] == len(want) and all(abs(a["ms"] - b["duration"] / 1e6) < 1e-9 for a, b in zip(f["records"], want)),
              "metrics of metrics, filters intersected (%d records)" % len(want), (f["count"], len(want)))

    ev = json.loads(subprocess.run([args.cli, "events", args.sample, "--cache-dir", tmp, "--json", "--type",
                                    "jdk.ExecutionSample"], check=True, stdout=subprocess.PIPE, text=True).stdout)
    er = js("--set", "events:jdk.ExecutionSample", "--stats")
    tap.check(er["count"] == ev["count"] > 0, "events:jdk.ExecutionSample: as many as events --type (%d)" % ev["count"])

    cli("--filter", "duration > 2ms", "--save", "long", "--metric", "share=%s/duration" % c, "--limit", "0")
    cli("--filter", "preempted", "--save", "pre", "--limit", "0")
    listed = cli("--list").stdout
    both = js("--set", "long", "--intersect", "pre")
    either = js("--set", "long", "--union", "pre")
    only = js("--set", "long", "--minus", "pre")
    L = {q["epoch_ns"] for q in quanta if q["duration"] > 2_000_000}
    P = {q["epoch_ns"] for q in quanta if q["preempted"] == 1}
    ok = ({q["epoch_ns"] for q in both["records"]} == L & P and {q["epoch_ns"] for q in only["records"]} == L - P
          and {q["epoch_ns"] for q in either["records"]} == L | P and "share" in [x["name"] for x in both["columns"]])
    tap.check("set\tlong\tquanta" in listed and "metric\tshare" in listed and ok,
              "saved sets met, joined and taken away; a saved metric comes back", listed)
    cli("--delete", "long")
    gone = cli("--set", "long", check=False)
    tap.check(gone.returncode == 1 and "long" in gone.stderr, "a deleted set is gone", gone.stderr)

    jfr = subprocess.run([args.cli, "records", args.sample + "/recording.jfr", "--cache-dir", tmp, "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    tap.check(jfr.returncode == 0 and json.loads(jfr.stdout)["count"] == 0 and "has no kernel scheduler events" in jfr.stderr,
              "a recording without a kernel layer has no quanta, and says why", (jfr.returncode, jfr.stderr))

    cases = [(["--filter", "nosuch > 1"], "unknown name “nosuch”"),
             (["--filter", "duration > 1/0"], "at character 14: division by zero"),
             (["--filter", "duration >> 1"], "“duration >> 1”, at character"),
             (["--metric", "x=thread+1"], "needs a number"),
             (["--scatter", "duration"], "two metrics"),
             (["--scatter", "duration,thread"], "not a numeric column"),
             (["--set", "nowhere:x"], "no saved set is named")]
    wrong = []
    for extra, text in cases:
        p = cli(*extra, check=False)
        if p.returncode not in (1, 2) or text not in p.stderr or p.stdout:
            wrong.append("%s: status %d, %r" % (extra, p.returncode, p.stderr))
    tap.check(not wrong, "bad expressions and options are refused, naming what is wrong", "\n".join(wrong))

    # A shade the trace has not: refused, naming it and the shades there are, no image.
    png = os.path.join(tmp, "bad-shade.png")
    p = subprocess.run([args.cli, "render", args.sample, "-o", png, "--cache-dir", tmp, "--views", "threads",
                        "--shade", "task-clok"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    tap.check(p.returncode == 2 and "--shade task-clok:" in p.stderr and "none, cpu-clock" in p.stderr
              and not os.path.exists(png),
              "render --shade with a name the trace has not: status 2, the name and the shades there are",
              (p.returncode, p.stderr))

    quanta_render.check(tap, args.cli, args.sample, tmp, quanta, tmp)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
tap.done()
