#!/usr/bin/env python3
"""jvmscope-cli record on a real JVM: one case per run (--case), checked with the JDK's and
perf's own tools (jfr summary, jfr print, perf script) as oracles."""
import argparse
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from jvms_tap import Tap

SENSITIVE = ["jdk.InitialEnvironmentVariable", "jdk.InitialSystemProperty", "jdk.SystemProcess",
             "jdk.JVMInformation"]
BLOCKING = ["jdk.JavaMonitorEnter", "jdk.ThreadPark", "jdk.ThreadSleep", "jdk.JavaMonitorWait"]
BUNDLE_MEMBERS = ["format", "format_version", "recorder", "mode", "pid", "start_time", "end_time",
                  "start_monotonic_ns", "end_monotonic_ns", "stop", "system", "jdk", "perf", "files",
                  "recorded", "not_recorded", "clock"]
SECRET = "hunter2-s3cr3t"
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

tap = Tap()


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def jfr_counts(path):
    r = run(["jfr", "summary", path])
    counts = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[0].startswith("jdk.") and f[1].isdigit():
            counts[f[0]] = int(f[1])
    return r.returncode, counts, r.stderr


def perf_events(path, pid):
    """(returncode, {event: count} for the JVM's pid, other lines, stderr) from perf script."""
    r = run(["perf", "script", "--show-lost-events", "-i", path, "-F", "pid,event"])
    ours, lost = {}, 0
    for line in r.stdout.splitlines():
        if "LOST" in line:
            lost += 1
            continue
        f = line.split()
        if len(f) >= 2 and f[0].isdigit() and int(f[0]) == pid:
            ours[f[1].rstrip(":")] = ours.get(f[1].rstrip(":"), 0) + 1
    return r.returncode, ours, lost, r.stderr


def load_bundle(out):
    with open(os.path.join(out, "bundle.json")) as f:
        return json.load(f)


def check_bundle_basics(out, expect_kernel):
    path = os.path.join(out, "bundle.json")
    if not tap.check(os.path.isfile(path), "bundle.json written"):
        return None
    try:
        b = load_bundle(out)
    except ValueError as e:
        tap.check(False, "bundle.json parses", e)
        return None
    missing = [m for m in BUNDLE_MEMBERS if m not in b]
    tap.check(not missing, "bundle.json has every member", "missing: %s" % missing)
    tap.check(b.get("format_version") == 1 and b.get("system", {}).get("cpu_count") == os.cpu_count(),
              "format version and CPU count", json.dumps(b.get("system")))
    tap.check(isinstance(b.get("jdk", {}).get("version"), str), "JDK version recorded", json.dumps(b.get("jdk")))
    tap.check(os.path.isfile(os.path.join(out, "recording.jfr")), "recording.jfr present")
    has_perf = os.path.isfile(os.path.join(out, "kernel.perf.data"))
    tap.check(has_perf == expect_kernel and (b["files"]["kernel"] is not None) == expect_kernel,
              "kernel.perf.data %s" % ("present" if expect_kernel else "absent"),
              "file: %s, bundle: %s, not_recorded: %s" % (has_perf, b["files"]["kernel"], b["not_recorded"]))
    return b


def check_jfr(out, sensitive_expected):
    rc, counts, err = jfr_counts(os.path.join(out, "recording.jfr"))
    tap.check(rc == 0, "jfr summary reads recording.jfr", err)
    for e in BLOCKING:
        tap.check(counts.get(e, 0) > 0, "JFR has %s" % e, "counts: %s" % {k: v for k, v in counts.items() if v})
    for e in SENSITIVE:
        present = counts.get(e, 0) > 0
        tap.check(present == sensitive_expected,
                  "%s %s" % (e, "recorded" if sensitive_expected else "left out"), "count %d" % counts.get(e, 0))
    return counts


def check_kernel(out, b):
    rc, ours, lost, err = perf_events(os.path.join(out, "kernel.perf.data"), b["pid"])
    tap.check(rc == 0, "perf script reads kernel.perf.data", err[-2000:])
    tap.check(ours.get("sched:sched_switch", 0) > 0, "sched_switch events of the JVM's pid %d" % b["pid"],
              "events of that pid: %s" % ours)
    k = b["recorded"]["kernel"]
    tap.check(lost == 0, "no LOST records", "%d LOST lines; bundle.json: %s" % (lost, json.dumps(k)))
    tap.check(k["lost_records"] == lost, "bundle.json counts the LOST records perf script shows",
              "bundle %s, perf script %d" % (k["lost_records"], lost))


def check_clock(out, b, launched=True):
    c = b["clock"]
    tap.check(c.get("method") == "jvm-log-timenanos-uptimenanos" and isinstance(c.get("jfr_ticks_to_monotonic_offset_ns"), int)
              and isinstance(c.get("uncertainty_ns"), int), "clock offset from the JVM's log", json.dumps(c))
    d = c.get("jfr_ticks_to_monotonic_offset_ns") or 0
    # D is the JVM's CLOCK_MONOTONIC reading at start-up: after the recorder started a JVM,
    # before the recorder attached to one.
    if launched:
        ok = b["start_monotonic_ns"] < d < b["end_monotonic_ns"]
    else:
        ok = 0 < d < b["start_monotonic_ns"]
    tap.check(ok, "offset %s the recording's start" % ("after" if launched else "before"),
              "D=%d start=%d end=%d" % (d, b["start_monotonic_ns"], b["end_monotonic_ns"]))
    if "bridge" in c:
        tap.check(c["methods_disagree_by_ns"] <= c["uncertainty_ns"] + c["bridge"]["uncertainty_ns"],
                  "log and wall-clock bridge agree within their stated uncertainties", json.dumps(c))


class Workload:
    def __init__(self, tmp):
        self.dir = os.path.join(tmp, "classes")
        os.makedirs(self.dir)
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Work.java")
        r = run(["javac", "-d", self.dir, src])
        if r.returncode != 0:
            raise SystemExit("javac failed: " + r.stderr)

    def java(self, ms, *extra):
        return ["java"] + list(extra) + ["-cp", self.dir, "Work", str(ms)]


def record(cli, out, args, env=None, user=None):
    cmd = [cli, "record", "-o", out] + args
    if user is not None:
        cmd = ["setpriv", "--reuid=" + user, "--regid=" + user_group(user), "--clear-groups"] + cmd
    return run(cmd, env=env, timeout=240)


def user_group(user):
    import grp
    return grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name


def wait_started(proc):
    line = proc.stdout.readline()
    return line.strip() == "started"


def case_launch(cli, tmp, work):
    out = os.path.join(tmp, "t.jvmtrace")
    r = record(cli, out, ["--", *work.java(2500, "-Dapp.password=" + SECRET)])
    tap.check(r.returncode == 0, "record exits 0", r.stderr)
    b = check_bundle_basics(out, True)
    if b is None:
        return
    tap.check(b["mode"] == "launch" and b["stop"]["reason"] == "jvm-exit" and b["stop"].get("jvm_exit_status") == 0,
              "stopped by the JVM's exit", json.dumps(b["stop"]))
    tap.check("-Dapp.password=***" in b["command"] and SECRET not in json.dumps(b), "secret argument redacted in bundle.json",
              json.dumps(b["command"]))
    with open(os.path.join(out, "recording.jfr"), "rb") as f:
        tap.check(SECRET.encode() not in f.read(), "secret argument absent from recording.jfr")
    check_jfr(out, False)
    check_kernel(out, b)
    check_clock(out, b)
    k = b["recorded"]["kernel"]
    tap.check("sched:sched_switch" in k["perf_events"] and "raw_syscalls:sys_enter" in k["perf_events"],
              "perf events listed", json.dumps(k))
    # System calls come only from the JVM when its cgroup filters them.
    rc, out_lines = 0, run(["perf", "script", "-i", os.path.join(out, "kernel.perf.data"), "-F", "pid,event"]).stdout
    pids = {int(l.split()[0]) for l in out_lines.splitlines() if "raw_syscalls:sys_enter" in l}
    if "cgroup" in (k.get("system_calls_of") or ""):
        tap.check(pids == {b["pid"]}, "system calls of the JVM only", "pids: %s" % sorted(pids)[:20])
    else:
        tap.check(b["pid"] in pids or not pids, "system calls when no cgroup", k.get("system_calls_of"))


def case_sensitive(cli, tmp, work):
    out = os.path.join(tmp, "s.jvmtrace")
    r = record(cli, out, ["--include-sensitive", "--no-kernel", "--", *work.java(1500, "-Dapp.password=" + SECRET)])
    tap.check(r.returncode == 0, "record exits 0", r.stderr)
    b = check_bundle_basics(out, False)
    if b is None:
        return
    tap.check(b["recorded"]["jfr"]["sensitive_events"] is True, "bundle says sensitive events are on")
    tap.check("-Dapp.password=" + SECRET in b["command"], "command kept whole", json.dumps(b["command"]))
    tap.check(any(m["what"] == "kernel" and "--no-kernel" in m["reason"] for m in b["not_recorded"]),
              "--no-kernel stated", json.dumps(b["not_recorded"]))
    check_jfr(out, True)
    r = run(["jfr", "print", "--events", "jdk.InitialSystemProperty", os.path.join(out, "recording.jfr")])
    tap.check(SECRET in r.stdout, "the property's value is in the recording")


def case_duration(cli, tmp, work):
    out = os.path.join(tmp, "d.jvmtrace")
    r = record(cli, out, ["--duration", "3", "--", *work.java(0)])
    tap.check(r.returncode == 0, "record exits 0", r.stderr)
    b = check_bundle_basics(out, True)
    if b is None:
        return
    tap.check(b["stop"]["reason"] == "duration", "stopped by --duration", json.dumps(b["stop"]))
    tap.check(not os.path.exists("/proc/%d" % b["pid"]), "the JVM is gone")
    check_jfr(out, False)
    check_kernel(out, b)


def case_sigint(cli, tmp, work):
    out = os.path.join(tmp, "i.jvmtrace")
    p = subprocess.Popen([cli, "record", "-o", out, "--", *work.java(0)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    started = wait_started(p)
    tap.check(started, "the JVM runs under the recorder")
    time.sleep(1)
    p.send_signal(signal.SIGINT)   # the recorder alone, as `kill -INT` would
    _, err = p.communicate(timeout=240)
    tap.check(p.returncode == 0, "record exits 0 after SIGINT", err)
    b = check_bundle_basics(out, True)
    if b is None:
        return
    tap.check(b["stop"]["reason"] == "signal" and b["stop"]["signal"] == "SIGINT", "stopped by SIGINT",
              json.dumps(b["stop"]))
    check_jfr(out, False)
    check_kernel(out, b)
    check_clock(out, b)


def case_ctrl_c(cli, tmp, work):
    """Ctrl-C in a terminal: SIGINT to the whole foreground process group, the recorder and the
    JVM at once. perf, in a group of its own, must outlive the JVM's final dump."""
    out = os.path.join(tmp, "c.jvmtrace")
    p = subprocess.Popen([cli, "record", "-o", out, "--", *work.java(0)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    tap.check(wait_started(p), "the JVM runs under the recorder")
    time.sleep(1)
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=240)
    tap.check(p.returncode == 0, "record exits 0 after Ctrl-C", err)
    b = check_bundle_basics(out, True)
    if b is None:
        return
    tap.check(b["stop"]["reason"] == "signal", "stopped by the signal", json.dumps(b["stop"]))
    check_jfr(out, False)
    check_kernel(out, b)
    # The JVM's exit is in the kernel recording: perf ran until after the JVM was gone.
    r = run(["perf", "script", "-i", os.path.join(out, "kernel.perf.data"), "-F", "pid,event"])
    exits = [l for l in r.stdout.splitlines() if "sched_process_exit" in l and l.split()[0] == str(b["pid"])]
    tap.check(len(exits) > 0, "the JVM's threads' exits are in kernel.perf.data", "%d exits" % len(exits))


def case_no_perf(cli, tmp, work):
    out = os.path.join(tmp, "n.jvmtrace")
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    for tool in ["java", "jcmd"]:
        os.symlink(os.path.realpath(shutil.which(tool)), os.path.join(bindir, tool))
    env = dict(os.environ, PATH=bindir, LC_ALL="C")
    r = record(cli, out, ["--", *work.java(1500)], env=env)
    tap.check(r.returncode == 0, "record exits 0 without perf", r.stderr)
    tap.check("perf is not installed" in r.stderr and "apt install linux-perf" in r.stderr,
              "stderr says perf is missing and how to install it", r.stderr)
    b = check_bundle_basics(out, False)
    if b is None:
        return
    reasons = [m for m in b["not_recorded"] if m["what"] == "kernel"]
    tap.check(len(reasons) == 1 and "perf was not found" in reasons[0]["reason"]
              and "linux-perf" in reasons[0].get("how_to_allow", ""), "bundle.json says why", json.dumps(b["not_recorded"]))
    check_jfr(out, False)


def case_refused(cli, tmp, work):
    """perf run by a user without permission: a real refusal, not a simulated one."""
    os.chmod(tmp, 0o777)
    os.chmod(work.dir, 0o755)
    # A copy of the program and its settings that nobody can read wherever the build is.
    copy = os.path.join(tmp, "jvmscope-cli")
    shutil.copy(cli, copy)
    shutil.copy(os.path.join(SOURCE_ROOT, "data", "jvmscope.jfc"), tmp)
    out = os.path.join(tmp, "r.jvmtrace")
    paranoid = int(open("/proc/sys/kernel/perf_event_paranoid").read())
    env = dict(os.environ, LC_ALL="C", HOME=tmp, JVMSCOPE_DATADIR=tmp)
    r = record(copy, out, ["--", *work.java(1500)], env=env, user="nobody")
    tap.check(r.returncode == 0, "record exits 0 as nobody", r.stderr)
    b = check_bundle_basics(out, paranoid <= -1)
    if b is None:
        return
    if paranoid > -1:
        reasons = [m for m in b["not_recorded"] if m["what"] == "kernel"]
        tap.check(len(reasons) == 1 and "perf_event_paranoid=-1" in reasons[0].get("how_to_allow", ""),
                  "bundle.json says how to allow perf", json.dumps(b["not_recorded"]))
        tap.check("perf record refused to start" in r.stderr and "perf_event_paranoid=-1" in r.stderr,
                  "stderr says perf refused and how to allow it", r.stderr)
    check_jfr(out, False)


def case_attach(cli, tmp, work):
    out = os.path.join(tmp, "a.jvmtrace")
    jvm = subprocess.Popen(work.java(0), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        tap.check(wait_started(jvm), "a JVM runs")
        r = record(cli, out, ["--pid", str(jvm.pid), "--duration", "3"])
        tap.check(r.returncode == 0, "record --pid exits 0", r.stderr)
        tap.check(jvm.poll() is None, "the attached JVM still runs")
        b = check_bundle_basics(out, True)
        if b is None:
            return
        tap.check(b["mode"] == "attach" and b["pid"] == jvm.pid and b["stop"]["reason"] == "duration",
                  "attach mode, stopped by --duration", json.dumps(b["stop"]))
        tap.check(b.get("command") == ["java", "-cp", work.dir, "Work", "0"], "the attached JVM's command",
                  json.dumps(b.get("command")))
        check_jfr(out, False)
        check_kernel(out, b)
        check_clock(out, b, launched=False)
    finally:
        jvm.kill()
        jvm.communicate()


def case_not_jvm(cli, tmp, work):
    """--pid of a process that is not a JVM: refused at once, before jcmd could send it the
    attach handshake's SIGQUIT (which would kill it), and nothing left behind (issue 28, 9)."""
    sleeper = subprocess.Popen(["sleep", "600"])
    try:
        for pid, what in [(sleeper.pid, "sleep"), (1, "PID 1")]:
            out = os.path.join(tmp, "n%d.jvmtrace" % pid)
            r = record(cli, out, ["--pid", str(pid), "--duration", "2"])
            tap.check(r.returncode == 1, "record --pid of %s fails" % what, "status %d: %s" % (r.returncode, r.stderr))
            tap.check("is not a" in r.stderr and "JVM" in r.stderr or "Java virtual machine" in r.stderr,
                      "stderr says %s is not a JVM" % what, r.stderr)
            tap.check(not os.path.exists(out), "no output folder for %s" % what, str(os.listdir(tmp)))
        tap.check(sleeper.poll() is None, "the process that is not a JVM was left alone (no SIGQUIT)",
                  "returncode %s" % sleeper.returncode)
    finally:
        sleeper.kill()
        sleeper.wait()
    gone = subprocess.Popen(["true"])
    gone.wait()
    r = record(cli, os.path.join(tmp, "g.jvmtrace"), ["--pid", str(gone.pid)])
    tap.check(r.returncode == 1 and "no process %d" % gone.pid in r.stderr, "a pid that is gone: no process",
              r.stderr)


def case_bad_duration(cli, tmp, work):
    """--duration must be a number of seconds: inf stopped at once and nan never (issue 28, 13)."""
    for value in ["inf", "nan", "-1", "0", "0x2", "1e9", "5000000", "3s", ""]:
        out = os.path.join(tmp, "d.jvmtrace")
        r = record(cli, out, ["--duration", value, "--", *work.java(0)])
        tap.check(r.returncode == 2 and "--duration" in r.stderr and "seconds" in r.stderr,
                  "--duration %r refused with status 2" % value, "status %d: %s" % (r.returncode, r.stderr))
        tap.check(not os.path.exists(out), "--duration %r: no output folder" % value)


def case_cleanup(cli, tmp, work):
    """A record that fails leaves no folder it made, and an empty folder it was given empty
    (issue 28, 18)."""
    out = os.path.join(tmp, "f.jvmtrace")
    r = record(cli, out, ["--", os.path.join(tmp, "no-such-java"), "-version"])
    tap.check(r.returncode == 1 and "starting the JVM" in r.stderr, "a JVM that cannot start: status 1",
              "status %d: %s" % (r.returncode, r.stderr))
    tap.check(not os.path.exists(out), "the folder it made is removed",
              str(os.listdir(out)) if os.path.isdir(out) else "")
    given = os.path.join(tmp, "given.jvmtrace")
    os.makedirs(given)
    r = record(cli, given, ["--", os.path.join(tmp, "no-such-java"), "-version"])
    tap.check(r.returncode == 1, "the same into an empty folder: status 1", r.stderr)
    tap.check(os.path.isdir(given) and os.listdir(given) == [], "the given folder stays, empty",
              str(os.listdir(given)) if os.path.isdir(given) else "gone")


CASES = {"launch": case_launch, "sensitive": case_sensitive, "duration": case_duration, "sigint": case_sigint, "ctrl-c": case_ctrl_c,
         "no-perf": case_no_perf, "refused": case_refused, "attach": case_attach, "not-jvm": case_not_jvm,
         "bad-duration": case_bad_duration, "cleanup": case_cleanup}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="jvmscope-record-test-")
    try:
        work = Workload(tmp)
        CASES[a.case](a.cli, tmp, work)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    tap.done()


main()
