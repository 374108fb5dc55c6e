#!/usr/bin/env python3
"""Faults around the index and the recorder, driven through jvmscope-cli as a user would.

- index damage: a byte flipped at each sampled offset of a small index (every byte of the
  header region, then evenly spaced offsets) is detected: the next `index` rebuilds, and the
  rebuilt index answers as the original (intervals, attributes, time range, folders).
- no space left (a full tmpfs as cache folder, in a private mount namespace): with the temporary
  folder on it too, a clear error naming the file; with the temporary folder elsewhere, the
  index built there with a warning; never a crash, nothing left behind, the trace untouched.
- read-only cache folder (mode 0555 and a read-only mount): the trace still opens.
- a trace changed on disk after indexing (appended; rewritten in place with a new mtime; rewritten
  in place with size, mtime and inode put back, small and large): the next `index` rebuilds.
- kill -9 of `index` at random points: the next run never takes an incomplete index for complete.
- recorder: the JVM killed by SIGKILL, the JVM calling System.exit(1), perf killed: the bundle
  opens with `summary` and `index`.
"""
import argparse
import gzip
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from jvms_tap import Tap

ap = argparse.ArgumentParser()
ap.add_argument("--cli", required=True)
ap.add_argument("--history-stat", required=True)
ap.add_argument("--shared", required=True)
ap.add_argument("--source-dir", required=True)
# CI counts; a one-off run can raise them (docs/benchmarks.md logs one).
ap.add_argument("--flips", type=int, default=int(os.environ.get("JVMS_FAULTS_FLIPS", "160")))
ap.add_argument("--kill-seconds", type=float, default=float(os.environ.get("JVMS_FAULTS_KILL_SECONDS", "40")))
ap.add_argument("--seed", type=int, default=int(os.environ.get("JVMS_FAULTS_SEED", str(int(time.time())))))
args = ap.parse_args()

tap = Tap()
rng = random.Random(args.seed)
tap.note("seed %d (set JVMS_FAULTS_SEED to replay)" % args.seed)
tmp = tempfile.mkdtemp(prefix="jvms-faults-")


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def index(trace, cache, extra_env=None, wrap=None):
    cmd = [args.cli, "index", "--json", "--cache-dir", cache, trace]
    if wrap:
        cmd = wrap + cmd
    env = dict(os.environ, LC_ALL="C", **(extra_env or {}))
    out = run(cmd, env=env, timeout=240)
    res = None
    if out.returncode == 0:
        try:
            res = json.loads(out.stdout)
        except ValueError:
            pass
    return out, res


def answer(res):
    """What the index says about the trace, independent of where and when it was built."""
    return {k: res.get(k) for k in ("kind", "start_ns", "end_ns", "attributes", "intervals", "folders")}


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def crashed(rc):
    return rc < 0 or rc >= 128


try:
    jfr = os.path.join(tmp, "example.jfr")
    with gzip.open(os.path.join(args.shared, "testdata", "jfr", "example.jfr.gz")) as src, open(jfr, "wb") as dst:
        shutil.copyfileobj(src, dst)
    cache = os.path.join(tmp, "cache")
    out, ref = index(jfr, cache)
    if not tap.check(ref is not None and not ref["reused"] and ref["intervals"] > 0, "reference index built", out.stderr):
        tap.done()
    reference = answer(ref)
    idx = ref["index"]
    with open(idx, "rb") as f:
        pristine = f.read()
    tap.note("index %s: %d bytes, %d intervals" % (os.path.basename(idx), len(pristine), ref["intervals"]))

    # ------------------------------------------------------------ single-byte changes
    size = len(pristine)
    head = list(range(min(size, 256, args.flips // 2)))
    rest = max(0, args.flips - len(head))
    if size <= args.flips:
        offsets = list(range(size))
    else:
        step = (size - len(head)) / max(rest, 1)
        offsets = head + sorted({len(head) + int(i * step + rng.random() * step) for i in range(rest)})
    tap.note("flipping %d of %d byte offsets (all of the first %d, then one at random in each of %d equal spans)"
             % (len(offsets), size, len(head), rest))
    missed, wrong, crashes, stat_crashes = [], [], [], []
    for off in offsets:
        damaged = bytearray(pristine)
        damaged[off] ^= 1 << rng.randrange(8)
        with open(idx, "wb") as f:
            f.write(damaged)
        st = run([args.history_stat, idx], timeout=60)
        if crashed(st.returncode):
            stat_crashes.append((off, st.returncode))
        out, res = index(jfr, cache)
        if crashed(out.returncode) or res is None:
            crashes.append((off, out.returncode, out.stderr[-300:]))
        elif res["reused"]:
            missed.append(off)
        elif answer(res) != reference:
            wrong.append((off, answer(res)))
        if res is not None and res["index"] != idx:
            idx = res["index"]
    tap.check(not crashes, "index never fails on a damaged index file (%d flips)" % len(offsets), crashes[:5])
    tap.check(not missed, "every flipped byte is detected and the index rebuilt", "reused at offsets %s" % missed[:20])
    tap.check(not wrong, "every rebuilt index answers as the original", wrong[:3])
    tap.check(not stat_crashes, "jvmscope-history-stat never crashes on a damaged index", stat_crashes[:5])

    # Cut at every 4 KiB boundary (and a few odd lengths).
    cuts = sorted(set(list(range(0, size, 4096)) + [1, 7, 63, size - 1]))
    bad = []
    for n in cuts:
        with open(idx, "wb") as f:
            f.write(pristine[:n])
        out, res = index(jfr, cache)
        if res is None or res["reused"] or answer(res) != reference:
            bad.append((n, out.returncode, res and res["reused"]))
    tap.check(not bad, "an index cut at %d lengths is rebuilt and answers as the original" % len(cuts), bad[:5])

    # ------------------------------------------------------------ trace changed on disk
    work = os.path.join(tmp, "changed.jfr")
    shutil.copy(jfr, work)
    c2 = os.path.join(tmp, "cache-changed")
    _, first = index(work, c2)
    with open(work, "ab") as f:
        f.write(b"\0" * 1024)
    out, appended = index(work, c2)
    tap.check(appended is not None and not appended["reused"], "a trace appended to after indexing is indexed again",
              out.stderr + out.stdout)
    _, again = index(work, c2)
    st = os.stat(work)
    with open(work, "r+b") as f:
        f.seek(st.st_size // 2)
        b = f.read(1)
        f.seek(st.st_size // 2)
        f.write(bytes([b[0] ^ 0xFF]))
    os.utime(work, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    out, rewritten = index(work, c2)
    tap.check(again is not None and again["reused"] and rewritten is not None and not rewritten["reused"],
              "a trace rewritten in place (same size and inode, new mtime) is indexed again",
              "%s\n%s" % (out.stderr, out.stdout))
    # Rewritten in place with its mtime put back: path, size, mtime and inode all unchanged,
    # only the content fingerprint (the whole file below 1.1 MiB) tells.
    def rewrite_keep_mtime(path, offset):
        st = os.stat(path)
        with open(path, "r+b") as f:
            f.seek(offset)
            b = f.read(1)
            f.seek(offset)
            f.write(bytes([b[0] ^ 0xFF]))
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        after = os.stat(path)
        return (after.st_size, after.st_mtime_ns, after.st_ino) == (st.st_size, st.st_mtime_ns, st.st_ino)

    _, before_sneak = index(work, c2)
    same = rewrite_keep_mtime(work, os.stat(work).st_size // 3)
    out, sneaky = index(work, c2)
    tap.check(before_sneak is not None and before_sneak["reused"] and same
              and sneaky is not None and not sneaky["reused"],
              "a trace rewritten in place with size, mtime and inode put back is indexed again",
              "%s\n%s" % (out.stderr, out.stdout))
    _, sneaky_again = index(work, c2)
    tap.check(sneaky_again is not None and sneaky_again["reused"] and sneaky_again["index"] == sneaky["index"],
              "the rebuilt index is then reused", sneaky_again)

    # A trace above the whole-file limit is fingerprinted by sampled blocks: its first and last
    # 64 KiB are always among them (headers, trailers, the last chunk or record written).
    big = os.path.join(tmp, "big.perf.data")
    shutil.copy(os.path.join(args.source_dir, "..", "..", "data", "sample", "sample.jvmtrace", "kernel.perf.data"), big)
    c3 = os.path.join(tmp, "cache-big")
    _, b1 = index(big, c3)
    _, b2 = index(big, c3)
    size_big = os.stat(big).st_size
    bad = []
    for name, off in (("first", 100), ("last", size_big - 100)):
        same = rewrite_keep_mtime(big, off)
        out, b3 = index(big, c3)
        if not same or b3 is None or b3["reused"]:
            bad.append((name, off, same, b3 and b3["reused"], out.stderr[-300:]))
    tap.check(size_big > 2 * 1024 * 1024 and b1 is not None and not b1["reused"] and b2 is not None and b2["reused"]
              and not bad,
              "a %d-byte trace rewritten in its first and in its last 64 KiB, mtime put back, is indexed again"
              % size_big, bad)
    shutil.copy(os.path.join(tmp, "example.jfr"), work)  # a new inode, other content size same
    out, replaced = index(work, c2)
    tap.check(replaced is not None and not replaced["reused"] and answer(replaced) == reference,
              "a trace replaced by another file is indexed again", out.stderr)

    # ------------------------------------------------------------ no space left
    before = sha(jfr)
    full = os.path.join(tmp, "full")
    os.makedirs(full)
    # The mount lives only in the private namespace: what the run left in it is listed there,
    # into a file outside it, before the namespace goes.
    left_file = os.path.join(tmp, "full-left.txt")
    script = ('set -e; mount -t tmpfs -o size=256k jvms-full "$1"; '
              'dd if=/dev/zero of="$1/filler" bs=4k count=62 2>/dev/null || true; '
              'dir=$1; left=$2; shift 2; set +e; "$@"; status=$?; ls -A "$dir" >"$left"; exit $status')
    cmd = ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", full, left_file,
           args.cli, "index", "--json", "--cache-dir", full, jfr]
    out = run(cmd, env=dict(os.environ, LC_ALL="C", TMPDIR=full), timeout=240)
    msg = out.stderr + out.stdout
    if out.returncode == 0:
        res = json.loads(out.stdout)
        ok = answer(res) == reference and any("space" in w.lower() for w in res["warnings"])
    else:
        ok = not crashed(out.returncode) and "No space left" in out.stderr and full in out.stderr
    tap.check(ok, "a full cache folder (tmpfs, TMPDIR too): a clear ENOSPC error or a fallback", msg[-1500:])
    tap.check(sha(jfr) == before, "the trace is untouched after ENOSPC")
    try:
        with open(left_file) as f:
            left = f.read().split()
    except OSError as e:
        left = [str(e)]
    # The filler says the listing was taken inside the full mount.
    tap.check(left == ["filler"], "nothing left behind in the full cache folder", left)

    # The cache folder full, the temporary folder elsewhere: built there instead, as for a
    # read-only cache folder, and nothing of the failed build (no .samples) left in the cache.
    cmd = ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", full, left_file,
           args.cli, "index", "--json", "--cache-dir", full, jfr]
    out = run(cmd, env=dict(os.environ, LC_ALL="C", TMPDIR=tmp), timeout=240)
    res = json.loads(out.stdout) if out.returncode == 0 else None
    tap.check(res is not None and answer(res) == reference and not res["index"].startswith(full + "/")
              and any(w.startswith(full + ": the cache folder could not take the index (") and "No space left" in w
                      for w in res["warnings"]),
              "a full cache folder: the index is built in a temporary folder, with a warning saying why",
              (out.stderr + out.stdout)[-1500:])
    try:
        with open(left_file) as f:
            left = f.read().split()
    except OSError as e:
        left = [str(e)]
    tap.check(left == ["filler"], "nothing of the failed build left in the full cache folder", left)

    # ------------------------------------------------------------ read-only cache folder
    ro = os.path.join(tmp, "ro")
    os.makedirs(ro)
    os.chmod(ro, 0o555)
    ro_script = 'set -e; mount -t tmpfs -o ro,mode=0555 jvms-ro "$1"; shift; exec "$@"'
    cmd = ["unshare", "-m", "--propagation", "private", "sh", "-c", ro_script, "sh", ro,
           args.cli, "index", "--json", "--cache-dir", ro, jfr]
    out = run(cmd, env=dict(os.environ, LC_ALL="C"), timeout=240)
    res = json.loads(out.stdout) if out.returncode == 0 else None
    tap.check(res is not None and answer(res) == reference and not res["index"].startswith(ro + "/"),
              "a read-only mount as cache folder: the trace opens, indexed elsewhere", (out.stderr + out.stdout)[-1500:])
    sub = os.path.join(ro, "sub")
    out, res = index(jfr, sub)  # root ignores 0555: only checks that mode bits do not get in the way
    tap.check(res is not None and answer(res) == reference, "a mode-0555 cache folder: the trace opens", out.stderr)
    os.chmod(ro, 0o755)

    # ------------------------------------------------------------ standard output full
    # A document cut short by a failed write must not end in status 0: a script would take the
    # truncated JSON for the whole answer. /dev/full fails every write with ENOSPC.
    full_out = []
    for cmd in (["index", "--json", "--cache-dir", cache, jfr], ["analyze", "--json", "--cache-dir", cache, jfr],
                ["profile", "--folded", "--cache-dir", cache, jfr], ["version"]):
        with open("/dev/full", "w") as dev_full:
            p = subprocess.run([args.cli] + cmd, stdout=dev_full, stderr=subprocess.PIPE, text=True,
                               env=dict(os.environ, LC_ALL="C"), timeout=240)
        if p.returncode == 0 or crashed(p.returncode) or "standard output" not in p.stderr:
            full_out.append((cmd[0], p.returncode, p.stderr[-300:]))
    tap.check(not full_out, "a full standard output: each command fails, saying so, without crashing", full_out)

    # ------------------------------------------------------------ kill -9 while indexing
    kc = os.path.join(tmp, "cache-kill")
    t0 = time.monotonic()
    _, r0 = index(jfr, kc)
    build_s = time.monotonic() - t0
    kills = 0
    bad = []
    deadline = time.monotonic() + args.kill_seconds
    while time.monotonic() < deadline:
        # Mostly with no index in place, so that the kill lands in a build; sometimes over a
        # complete one, which the next run may then reuse.
        if rng.random() < 0.8:
            shutil.rmtree(kc, ignore_errors=True)
        p = subprocess.Popen([args.cli, "index", "--json", "--cache-dir", kc, jfr],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.random() * build_s * 1.1)
        p.send_signal(signal.SIGKILL)
        p.wait()
        kills += 1
        out, res = index(jfr, kc)
        if res is None or answer(res) != reference:
            bad.append((kills, out.returncode, res and answer(res), out.stderr[-300:]))
    tap.note("%d kills over %.0f s (a build takes %.2f s)" % (kills, args.kill_seconds, build_s))
    tap.check(kills > 0 and not bad, "after kill -9 at %d random points, the next index answers as the reference" % kills,
              bad[:3])

    # ------------------------------------------------------------ recorder faults
    classes = os.path.join(tmp, "classes")
    os.makedirs(classes)
    r = run(["javac", "-d", classes, os.path.join(args.source_dir, "Crash.java")], timeout=240)
    if not tap.check(r.returncode == 0, "javac Crash.java", r.stderr):
        tap.done()

    def descendants(pid):
        found, todo = [], [pid]
        while todo:
            p = todo.pop()
            try:
                with open("/proc/%d/task/%d/children" % (p, p)) as f:
                    kids = [int(x) for x in f.read().split()]
            except OSError:
                kids = []
            for k in kids:
                try:
                    with open("/proc/%d/comm" % k) as f:
                        comm = f.read().strip()
                except OSError:
                    continue
                found.append((k, comm))
                todo.append(k)
        return found

    def record_fault(name, java_args, victim, after_s=2.0):
        out_dir = os.path.join(tmp, name + ".jvmtrace")
        p = subprocess.Popen([args.cli, "record", "-o", out_dir, "--", "java", "-cp", classes, "Crash"] + java_args,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, LC_ALL="C"))
        started = p.stdout.readline().strip() == "started"
        time.sleep(after_s)
        killed = None
        if victim:
            for pid, comm in descendants(p.pid):
                if comm == victim:
                    os.kill(pid, signal.SIGKILL)
                    killed = pid
                    break
        try:
            rest, err = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            rest, err = p.communicate()
            tap.check(False, "%s: the recorder ends" % name, err[-1500:])
            return
        tap.check(started and (victim is None or killed is not None), "%s: the JVM ran and the fault happened" % name)
        tap.check(not crashed(p.returncode), "%s: the recorder exits without crashing (status %d)" % (name, p.returncode),
                  err[-1500:])
        bpath = os.path.join(out_dir, "bundle.json")
        try:
            with open(bpath) as f:
                bundle = json.load(f)
        except (OSError, ValueError) as e:
            tap.check(False, "%s: bundle.json written" % name, "%s\n%s" % (e, err[-1500:]))
            return
        tap.check(True, "%s: bundle.json written" % name)
        tap.note("%s: stop %s" % (name, json.dumps(bundle.get("stop"))))
        s = run([args.cli, "summary", out_dir], timeout=240, env=dict(os.environ, LC_ALL="C"))
        # 0, or EXIT_PARTIAL (3) with a warning naming the file that could not be read whole
        ok = s.stdout.strip() != "" and (s.returncode == 0 or (s.returncode == 3 and "warning: " + out_dir in s.stderr))
        tap.check(ok, "%s: summary opens the bundle (status %d)" % (name, s.returncode),
                  "%s\n%s" % (s.stderr[-1500:], s.stdout[-300:]))
        if s.stderr.strip():
            tap.note("%s: summary says: %s" % (name, s.stderr.strip()[:400]))
        out, res = index(out_dir, os.path.join(tmp, "cache-" + name))
        ok = res is not None and res["intervals"] > 0
        if name == "jvm-sigkill" and res is not None:
            # The JVM had no chance to write its JFR chunk: whatever is missing must be said.
            # The JVM never wrote its recording: the index must say so, naming the file.
            jfr_path = os.path.join(out_dir, "recording.jfr")
            ok = ok and any(w.startswith(jfr_path + ":") for w in res["warnings"])
        tap.check(ok and not crashed(out.returncode), "%s: index opens the bundle with what was recorded" % name,
                  (out.stderr + out.stdout)[-1500:])
        if res is not None:
            tap.note("%s: layers %s, %d intervals, warnings: %s" % (name, res["layers"], res["intervals"],
                                                                   "; ".join(res["warnings"])[:400]))

    record_fault("jvm-sigkill", ["0"], "java")
    record_fault("jvm-exit-1", ["2000", "exit"], None, after_s=0)
    record_fault("perf-killed", ["3500", "exit"], "perf")
except subprocess.CalledProcessError as e:
    tap.check(False, "command failed: %s" % " ".join(e.cmd), (e.stderr or "") + (e.stdout or ""))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
tap.done()
