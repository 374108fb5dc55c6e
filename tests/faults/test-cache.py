#!/usr/bin/env python3
"""The index cache shared by processes (analysis/jvms-index-cache.h), through jvmscope-cli.

- Two `index` runs of one trace into one cache at once, ten times, and an `analyze` started
  while an `index` builds: each run ends with 0 and the same answer, one of them built the index
  and the others reused it (before the lock per trace, 8 of 10 pairs failed: each removed the
  other's temporary files).
- Temporary files left by builds that died (planted under the cache's names, as `kill -9`
  leaves them): a load removes those of every trace whose lock no process holds, and keeps
  those of a trace whose lock a live process holds (`flock`, as a build holds it), and the
  lock files themselves do not pile up.
- A build failing at its close (the index cannot be renamed into place): built again in a
  temporary folder, and the sample store already renamed into place removed.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from jvms_tap import Tap

ap = argparse.ArgumentParser()
ap.add_argument("--cli", required=True)
ap.add_argument("--sample", required=True)
ap.add_argument("--trials", type=int, default=10)
args = ap.parse_args()

tap = Tap()
tmp = tempfile.mkdtemp(prefix="jvms-cache-")
ENV = dict(os.environ, LC_ALL="C")
WATCHDOG = 300  # only turns a hang into a failure


def start(command, trace, cache):
    return subprocess.Popen([args.cli, command, "--json", "--cache-dir", cache, trace],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)


def finish(p):
    try:
        out, err = p.communicate(timeout=WATCHDOG)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    res = None
    if p.returncode == 0:
        try:
            res = json.loads(out)
        except ValueError:
            pass
    return p.returncode, res, err


def answer(res):
    return {k: res.get(k) for k in ("kind", "start_ns", "end_ns", "attributes", "intervals", "folders")}


try:
    trace = os.path.join(tmp, "sample.jvmtrace")
    shutil.copytree(args.sample, trace)
    ref_rc, ref, err = finish(start("index", trace, os.path.join(tmp, "cache-ref")))
    if not tap.check(ref_rc == 0 and ref is not None, "reference index", err):
        tap.done()

    # ------------------------------------------------------------ two builds at once
    bad = []
    built = []
    for trial in range(args.trials):
        cache = os.path.join(tmp, "cache-pair-%d" % trial)
        procs = [start("index", trace, cache) for _ in range(2)]
        results = [finish(p) for p in procs]
        for rc, res, err in results:
            if rc != 0 or res is None or answer(res) != answer(ref):
                bad.append((trial, rc, err[-400:]))
        built.append(sorted(bool(res and not res["reused"]) for _, res, _ in results))
        left = sorted(os.listdir(cache))
        if any(".tmp-" in n or n.endswith(".lock") for n in left):
            bad.append((trial, "left", left))
    tap.check(not bad, "%d pairs of index runs of one trace into one cache: all succeed with the reference's answer"
              % args.trials, bad[:3])
    tap.check(all(b == [False, True] for b in built),
              "in each pair one built the index and the other waited and reused it", built)

    # ------------------------------------------------------------ analyze while index builds
    bad = []
    for trial in range(3):
        cache = os.path.join(tmp, "cache-analyze-%d" % trial)
        p_index = start("index", trace, cache)
        time.sleep(0.05 * trial)
        p_analyze = start("analyze", trace, cache)
        rc_a, rep, err_a = finish(p_analyze)
        rc_i, res, err_i = finish(p_index)
        if rc_i != 0 or res is None or answer(res) != answer(ref) or rc_a != 0 or rep is None:
            bad.append((trial, rc_i, err_i[-300:], rc_a, err_a[-300:]))
    tap.check(not bad, "analyze started while index builds: both succeed", bad[:3])

    # ------------------------------------------------------------ stale temporary files
    cache = os.path.join(tmp, "cache-stale")
    os.makedirs(cache)
    # Two other traces' keys, named as the cache names its files (16 hex digits, '-').
    dead, live = "0123456789abcdef", "fedcba9876543210"
    planted_dead = [dead + "-" + "a" * 32 + s for s in (".jvmsidx.tmp-Xy12Ab", ".samples.tmp-4242",
                                                        ".jvmsidx.sum.Q1w2E3")]
    planted_live = [live + "-" + "b" * 32 + s for s in (".jvmsidx.tmp-Zz98Yx", ".samples.tmp-4343")]
    # A complete index of another trace is no temporary file: it stays.
    complete = dead + "-" + "c" * 32 + ".jvmsidx"
    for name in planted_dead + planted_live + [complete]:
        with open(os.path.join(cache, name), "wb") as f:
            f.write(b"partial")
    # A live process holds the second trace's lock, as a build does (flock(2) on the file).
    holder = subprocess.Popen([sys.executable, "-c",
                               "import fcntl, sys, time\n"
                               "f = open(sys.argv[1], 'a')\n"
                               "fcntl.flock(f, fcntl.LOCK_EX)\n"
                               "print('locked', flush=True)\n"
                               "time.sleep(%d)\n" % WATCHDOG, os.path.join(cache, live + ".lock")],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    tap.check(holder.stdout.readline().strip() == "locked", "a live process holds another trace's lock")
    rc, res, err = finish(start("index", trace, cache))
    left = set(os.listdir(cache))
    holder.kill()
    holder.communicate()
    tap.check(rc == 0 and res is not None and answer(res) == answer(ref), "index with stale files in the cache", err)
    tap.check(not any(n in left for n in planted_dead),
              "the temporary files of a build that died are removed", sorted(left))
    tap.check(all(n in left for n in planted_live),
              "the temporary files of a build a live process holds stay", sorted(left))
    tap.check(complete in left, "a complete index of another trace stays", sorted(left))
    tap.check(not any(n.endswith(".lock") and not n.startswith(live) for n in left),
              "no lock file is left behind", sorted(left))
    # Once that process is gone, the next load removes them too.
    rc, res, err = finish(start("index", trace, cache))
    left = set(os.listdir(cache))
    tap.check(rc == 0 and not any(n in left for n in planted_live),
              "once the holder is gone, its temporary files are removed", sorted(left))

    # ------------------------------------------------------------ a build failing at its close
    # The index cannot be renamed into place (a folder holds its name): the build fails after
    # the sample store was renamed into place. It is built again in a temporary folder, and no
    # .samples of the failed build stays in the cache to be taken for part of a later index.
    cache = os.path.join(tmp, "cache-close")
    rc, res, err = finish(start("index", trace, cache))
    for f in os.listdir(cache):
        os.unlink(os.path.join(cache, f))
    os.makedirs(os.path.join(res["index"], "in-the-way"))
    rc, res2, err = finish(start("index", trace, cache))
    left = sorted(os.listdir(cache))
    tap.check(rc == 0 and res2 is not None and answer(res2) == answer(ref)
              and not res2["index"].startswith(cache + "/")
              and any("could not take the index" in w for w in res2["warnings"]),
              "an index that cannot be put in place: built in a temporary folder, with a warning", err)
    tap.check(left == [os.path.basename(res["index"])],
              "nothing of the failed build stays in the cache (no .samples)", left)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
tap.done()
