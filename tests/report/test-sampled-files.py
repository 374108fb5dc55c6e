#!/usr/bin/env python3
"""Recordings made by profilers (issue 24): every profiler's file of ../shared/testdata/jfr, and a
recording this test makes with the JDK's recorder and only execution sampling on
(sampling-only.jfc, SampledWork.java).

For each, `jvmscope-cli analyze --json`:
- says what kind of recording it is (writer, no thread states) and never calls a thread running;
- charges no thread more time than its samples times their interval can support, plus one
  interval per batch of samples: the samples are counted by `jfr print --json` (the JDK's tool,
  or ours where the JDK's refuses the file), the intervals read from the file's own settings by
  the rules of docs/writers.md, written again here;
- gives the basis of every estimated time in `estimated_from` (its parts sum to it).
The recording also goes through `test-sampled-view --check` (under xvfb-run): the threads view's
columns between samples are the "not recorded" colour.
"""
import argparse, collections, gzip, json, os, shutil, subprocess, sys, tempfile

from jvms_tap import Tap

PROFILER_FILES = ["cortex-dev-01__kafka-0__cpu__0.jfr.gz", "wall.jfr.gz", "example.jfr.gz",
                  "FastSlow_2024_01_16_180855.jfr.gz", "async-profiler.jfr.gz", "nativemem.jfr.gz"]
SAMPLERS = ["jdk.ExecutionSample", "jdk.NativeMethodSample", "profiler.WallClockSample",
            "profiler.WallClockSleeping", "datadog.ExecutionSample", "datadog.MethodSample"]
MS = 1000000


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def events(cli, path, types):
    """The events of @types, by the JDK's jfr tool, else by ours (the JDK's refuses some
    async-profiler files: "Pool jdk.types.StackTrace must contain at least one element")."""
    r = run(["jfr", "print", "--json", "--stack-depth", "1", "--events", ",".join(types), path])
    if r.returncode == 0 and r.stdout.strip():
        try:
            return json.loads(r.stdout)["recording"]["events"], "jfr"
        except ValueError:
            pass
    r = run([cli, "print", "--json", "--stack-depth=0", "--events", ",".join(types), path])
    return json.loads(r.stdout)["recording"]["events"], "jvmscope-cli print"


def type_of(e):
    return e.get("type")


# A profiler's batches: one event stands for this field's count of wall-clock samples, each a
# sample of the store at its own time (docs/profile.md, "batches"; at most 2^20, at least 1).
BATCH_FIELDS = {"profiler.WallClockSample": "samples", "profiler.WallClockSleeping": "samplesCount",
                "datadog.MethodSample": "weight"}


def samples_of(e):
    n = (e.get("values") or {}).get(BATCH_FIELDS.get(type_of(e)), 1)
    return max(1, min(n if isinstance(n, int) else 1, 1 << 20))


def tid_of(thread):
    if not thread:
        return 0
    if thread.get("osThreadId"):
        return thread["osThreadId"]
    return -thread.get("javaThreadId", 0)


def profiler_intervals(settings):
    """async-profiler's samplers' intervals (ns) from its settings, as docs/writers.md says, written
    again from its sources (arguments.h, wallClock.cpp): its setting names are unique across its
    type ids (interval, wall, event on jdk.ExecutionSample and jdk.ActiveRecording)."""
    flat = {}
    for e in settings:
        v = e["values"]
        flat[v.get("name")] = v.get("value") or ""
    def number(key, missing):
        text = flat.get(key, "")
        return int(text) if text.lstrip("-").isdigit() else missing
    event, interval, wall = flat.get("event"), number("interval", 0), number("wall", -1)
    out = {}
    if event == "wall":
        out["wall"] = (wall if wall > 0 else interval) or 50 * MS
    else:
        out["cpu"] = interval or 10 * MS
        if wall >= 0:
            out["wall"] = wall or 50 * MS
    if number("usedWallInterval", 0) > 0:
        out["wall"] = number("usedWallInterval", 0)
    return out


WALL_TYPES = ("profiler.WallClockSample", "profiler.WallClockSleeping", "datadog.MethodSample")


def bounds(samples, ivs):
    """Per thread: the most time its samples can stand for, plus one interval per batch."""
    bound = collections.Counter()
    longest = max(ivs.values())
    for e in samples:
        v = e["values"]
        tid = tid_of(v.get("sampledThread") or v.get("eventThread"))
        n = v.get("samples") or v.get("samplesCount") or 1
        bound[tid] += n * ivs.get("wall" if is_wall(e, ivs) else "cpu", longest)
        if n > 1:
            bound[tid] += longest
    return bound


def is_wall(e, ivs):
    """A wall-clock sample by docs/writers.md: a profiler's wall-clock type, or async-profiler's
    jdk.ExecutionSample of a recording that sampled wall clock (with CPU too: not STATE_DEFAULT)."""
    if type_of(e) in WALL_TYPES:
        return True
    return (type_of(e) in ("jdk.ExecutionSample", "datadog.ExecutionSample") and "wall" in ivs
            and ("cpu" not in ivs or e["values"].get("state") != "STATE_DEFAULT"))


def profile_json(cli, path, cache, kind, tids=()):
    cmd = [cli, "profile", "--json", "--top", "1", "--kind", kind, "--cache-dir", cache, path]
    for tid in tids:
        cmd += ["--thread", str(tid)]
    r = run(cmd)
    return json.loads(r.stdout) if r.returncode == 0 else {"error": r.stderr}


def check_wall_profile(tap, cli, path, name, cache, samples, ivs):
    """profile --kind wall weighs a profiler's wall-clock samples: per thread, the samples each
    event stands for times the wall-clock interval; --kind cpu counts its CPU samples alone. The
    oracle is jfr print's events (with a stack trace: the store keeps no other)."""
    wall_ns, cpu_n = collections.Counter(), collections.Counter()
    for e in samples:
        v = e["values"]
        if type_of(e) == "jdk.NativeMethodSample" or not v.get("stackTrace"):
            continue
        tid = tid_of(v.get("sampledThread") or v.get("eventThread"))
        if is_wall(e, ivs):
            wall_ns[tid] += (v.get("samples") or v.get("samplesCount") or v.get("weight") or 1) * ivs["wall"]
        else:
            cpu_n[tid] += 1
    prof = profile_json(cli, path, cache, "wall")
    want = sum(wall_ns.values()) if wall_ns else None
    if want is not None:
        tap.check(prof.get("total") == want and prof.get("unit") == "ns",
                  "%s: profile --kind wall weighs every wall-clock sample: %s ns (jfr print: %d)"
                  % (name, prof.get("total"), want), json.dumps(prof)[:300])
        # Every thread of a small file; of a large one the heaviest and lightest five.
        ranked = sorted(wall_ns, key=lambda t: (-wall_ns[t], t))
        chosen = ranked if len(ranked) <= 40 else ranked[:5] + ranked[-5:]
        wrong = []
        for tid in chosen:
            got = profile_json(cli, path, cache, "wall", [tid]).get("total")
            if got != wall_ns[tid]:
                wrong.append("%d: %s ns, jfr print %d" % (tid, got, wall_ns[tid]))
        tap.check(not wrong, "%s: profile --kind wall --thread T of %d threads equals jfr print's" % (name, len(chosen)),
                  "\n".join(wrong[:10]))
    prof = profile_json(cli, path, cache, "cpu")
    tap.check(prof.get("samples") == sum(cpu_n.values()),
              "%s: profile --kind cpu counts the CPU samples alone: %s (jfr print: %d)"
              % (name, prof.get("samples"), sum(cpu_n.values())), json.dumps(prof)[:300])


def check_estimates(tap, report, name, samples, ivs):
    """Each thread's estimate against a naive computation from jfr print's samples (docs/report.md):
    a CPU sample says the thread ran, a wall-clock sample says its state; the running time is the
    larger of its CPU samples × the CPU interval and its running wall-clock samples × the
    wall-clock interval (never both: they measure the same time), the other states the wall
    clock's; JVM threads are charged only their running time, JFR's own threads nothing."""
    cpu, running, other = collections.Counter(), collections.Counter(), collections.Counter()
    for e in samples:
        v = e["values"]
        if type_of(e) == "jdk.NativeMethodSample":
            continue
        tid = tid_of(v.get("sampledThread") or v.get("eventThread"))
        n = v.get("samples") or v.get("samplesCount") or 1
        if not is_wall(e, ivs):
            cpu[tid] += n * ivs.get("cpu", 0)
        elif v.get("state") in ("STATE_RUNNABLE", "RUNNABLE"):
            running[tid] += n * ivs["wall"]
        elif v.get("state") is not None or type_of(e) == "profiler.WallClockSleeping":
            other[tid] += n * ivs["wall"]
    wrong, both = [], 0
    for t in report["threads"]:
        tid = t["tid"]
        want = max(cpu[tid], running[tid])
        if t.get("kind") == "java":
            want += other[tid]
        elif t.get("kind") == "jfr":
            want = 0
        both += cpu[tid] > 0 and running[tid] + other[tid] > 0
        if t["analysed_ns"] != want:
            wrong.append("%s (%d, %s): %d ns charged; cpu %d, running %d, other states %d ns of samples"
                         % (t["name"], tid, t.get("kind"), t["analysed_ns"], cpu[tid], running[tid], other[tid]))
    tap.check(not wrong, "%s: each thread's estimate equals the naive one from jfr print (%d threads with CPU "
              "and wall-clock samples)" % (name, both), "\n".join(wrong[:10]))


def check_report(tap, cli, path, name, cache, jdk_intervals=None):
    jdk = jdk_intervals is not None
    r = run([cli, "analyze", "--json", "--cache-dir", cache, path])
    if not tap.check(r.returncode == 0, "%s: analyze --json runs" % name, r.stderr):
        return
    report = json.loads(r.stdout)
    rec = report.get("recording") or {}
    tap.check(rec.get("thread_states") is False and rec.get("writer") == ("jdk" if jdk else "async-profiler")
              and "no thread states" in rec.get("description", ""),
              "%s: the report says what kind of recording it is: %s" % (name, rec.get("description")),
              json.dumps(rec))
    running = [t["name"] for t in report["threads"] if t["user_states"].get("running")]
    tap.check(not running, "%s: no thread is running where nothing recorded it" % name, running)

    kinds = list(SAMPLERS) + ["jdk.ActiveSetting"]
    evs, oracle = events(cli, path, kinds)
    settings = [e for e in evs if type_of(e) == "jdk.ActiveSetting"]
    samples = [e for e in evs if type_of(e) in SAMPLERS]
    ivs = jdk_intervals if jdk else profiler_intervals(settings)
    bound = bounds(samples, ivs)
    over = []
    basis = []
    charged = 0
    for t in report["threads"]:
        if t["analysed_ns"] > bound.get(t["tid"], 0):
            over.append("%s (%d): %d ns charged, its samples support %d" %
                        (t["name"], t["tid"], t["analysed_ns"], bound.get(t["tid"], 0)))
        if t["analysed_ns"] > 0:
            charged += 1
            e = t.get("estimated_from")
            parts = e["parts"] if e else []
            if (e is None or e["estimated_ns"] != t["analysed_ns"] or "×" not in e["text"]
                    or sum(p["samples"] * p["interval_ns"] for p in parts) != e["estimated_ns"]):
                basis.append("%s: %s" % (t["name"], json.dumps(e)))
    tap.check(not over, "%s: no thread charged more than its samples (%s) times %s, plus one interval per batch"
              % (name, oracle, ivs), "\n".join(over[:20]))
    tap.check(not basis, "%s: the basis of each of %d estimates is in --json (estimated_from)" % (name, charged),
              "\n".join(basis[:10]))
    findings = [f["kind"] for f in report["findings"] if f["lost_ns"] != (f.get("estimated_from") or {}).get("estimated_ns")]
    tap.check(not findings, "%s: every finding is estimated from samples and says so" % name, findings)
    check_profile(tap, cli, path, name, cache, rec)
    check_wall_profile(tap, cli, path, name, cache, samples, ivs)
    check_estimates(tap, report, name, samples, ivs)
    return report


NOTE = "the trace's samples with stack traces are (--kind TYPE): "


def check_profile(tap, cli, path, name, cache, rec):
    """profile says what the writer recorded as analyze does; without a CPU sample it names the
    event types it has samples of, each with as many as the file holds (jfr print's events, a
    profiler's batch of N wall-clock samples counting N)."""
    r = run([cli, "profile", "--json", "--top", "1", "--cache-dir", cache, path])
    if not tap.check(r.returncode == 0, "%s: profile --json runs" % name, r.stderr):
        return
    prof = json.loads(r.stdout)
    tap.check(prof.get("recording") == rec, "%s: profile --json gives the recording as analyze does" % name,
              json.dumps(prof.get("recording")))
    r = run([cli, "profile", "--top", "1", "--cache-dir", cache, path], env=dict(os.environ, LC_ALL="C"))
    tap.check("  recording: %s\n" % rec.get("description") in r.stdout,
              "%s: profile's text says what kind of recording it is" % name, r.stdout[:400])
    if prof["samples"] > 0:
        tap.check(NOTE not in r.stderr, "%s: profile names no other kind when the cpu kind has samples" % name,
                  r.stderr)
        return
    listed = {}
    for line in r.stderr.splitlines():
        if NOTE in line:
            for item in line.split(NOTE, 1)[1].split(", "):
                t, _, n = item.rpartition(" (")
                listed[t] = int(n.rstrip(")"))
    counted = collections.Counter()
    if listed:
        evs, _ = events(cli, path, sorted(listed))
        for e in evs:
            counted[type_of(e)] += samples_of(e)
    tap.check(listed and all(counted[t] == n for t, n in listed.items()),
              "%s: no CPU sample, and profile names the file's samples instead: %s (jfr print: %s)"
              % (name, listed, dict(counted)), r.stderr)


def check_dd_trace_file(tap, cli, path, cache):
    """dd-trace-java's recording in its JFR mode (tests/jfr/testdata/README.md): the JDK's recorder
    with thread states, driven by dd-trace, and dd-trace's own event types beside the JDK's."""
    r = run([cli, "analyze", "--json", "--cache-dir", cache, path])
    if not tap.check(r.returncode == 0, "dd-trace-java.jfr: analyze --json runs", r.stderr):
        return
    rec = json.loads(r.stdout).get("recording") or {}
    tap.check(rec.get("thread_states") is True and [s["kind"] for s in rec.get("samplers", [])] == ["cpu"],
              "dd-trace-java.jfr: the JDK's recording with thread states, CPU samples: %s" % rec.get("description"),
              json.dumps(rec))
    evs, oracle = events(cli, path, ["jdk.ExecutionSample", "datadog.ProfilerSetting", "datadog.AvailableProcessorCores"])
    counted = collections.Counter(type_of(e) for e in evs)
    with_stack = sum(1 for e in evs if type_of(e) == "jdk.ExecutionSample" and e["values"].get("stackTrace"))
    prof = profile_json(cli, path, cache, "cpu")
    tap.check(prof.get("samples") == with_stack > 0,
              "dd-trace-java.jfr: profile counts its %d CPU samples (%s: %d)" % (with_stack, oracle, prof.get("samples")))
    r = run([cli, "events", "--json", "--type", "datadog.*", "--cache-dir", cache, path])
    listed = collections.Counter(e["type"] for e in json.loads(r.stdout)["events"]) if r.returncode == 0 else {}
    want = {t: n for t, n in counted.items() if t.startswith("datadog.")}
    tap.check(dict(listed) == want and want, "dd-trace-java.jfr: dd-trace's own events are rows of events: %s (%s: %s)"
              % (dict(listed), oracle, want), r.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--view-check", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--source-dir", required=True)
    args = ap.parse_args()
    tap = Tap()
    work = tempfile.mkdtemp(prefix="jvmscope-sampled-test-")
    try:
        cache = os.path.join(work, "cache")
        for f in PROFILER_FILES:
            path = os.path.join(work, f[:-3])
            with gzip.open(os.path.join(args.shared, "testdata", "jfr", f)) as src, open(path, "wb") as dst:
                shutil.copyfileobj(src, dst)
            check_report(tap, args.cli, path, f, cache)

        dd = os.path.join(work, "dd-trace-java.jfr")
        with gzip.open(os.path.join(args.source_dir, "..", "jfr", "testdata", "dd-trace-java.jfr.gz")) as src, \
                open(dd, "wb") as dst:
            shutil.copyfileobj(src, dst)
        check_dd_trace_file(tap, args.cli, dd, cache)

        # The JDK's recorder with only execution sampling on.
        classes = os.path.join(work, "classes")
        r = run(["javac", "-d", classes, os.path.join(args.source_dir, "SampledWork.java")])
        if not tap.check(r.returncode == 0, "SampledWork.java compiles", r.stderr):
            tap.done()
        rec = os.path.join(work, "sampled.jfr")
        jfc = os.path.join(args.source_dir, "sampling-only.jfc")
        r = run(["java", "-XX:StartFlightRecording=filename=%s,settings=%s" % (rec, jfc), "-cp", classes,
                 "sampled.SampledWork", "3000"], timeout=120)
        if not tap.check(r.returncode == 0 and os.path.exists(rec), "the JDK records with sampling only", r.stderr):
            tap.done()
        # sampling-only.jfc: jdk.ExecutionSample every 10 ms.
        report = check_report(tap, args.cli, rec, "JDK sampling only", cache, {"cpu": 10 * MS})
        if report is not None:
            samplers = report["recording"]["samplers"]
            tap.check(samplers == [{"kind": "cpu", "event_type": "jdk.ExecutionSample", "interval_ns": 10 * MS,
                                    "interval_from": "setting"}],
                      "JDK sampling only: CPU every 10 ms, from the recording's setting", json.dumps(samplers))
            spinner = [t for t in report["threads"] if t["name"] == "spinner"]
            evs, _ = events(args.cli, rec, ["jdk.ExecutionSample"])
            n = sum(1 for e in evs if (e["values"]["sampledThread"] or {}).get("javaName") == "spinner")
            tap.check(len(spinner) == 1 and n > 0 and spinner[0]["analysed_ns"] == n * 10 * MS,
                      "JDK sampling only: the spinner is charged its %d samples × 10 ms" % n,
                      json.dumps(spinner))
        env = dict(os.environ, GDK_BACKEND="x11", GSK_RENDERER="cairo", GDK_DEBUG="gl-disable",
                   GTK_A11Y="none")  # no GL: see tests/widgets/meson.build
        r = run(["xvfb-run", "-a", args.view_check, "--check", rec], timeout=300, env=env)
        tap.check(r.returncode == 0, "JDK sampling only: the threads view is not recorded between samples",
                  r.stdout + r.stderr[-3000:])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tap.done()


if __name__ == "__main__":
    main()
