#!/usr/bin/env python3
"""jvmscope-cli record on a real JVM: one case per run (--case), checked with the JDK's and
perf's own tools (jfr summary, jfr print, perf script) as oracles."""
import argparse
import json
import re
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
# Pages of perf's buffer per CPU in the case that makes perf lose events (JVMSCOPE_TEST_PERF_BUFFER).
SMALL_BUFFER = "2"
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
    """(returncode, {event: count} for the JVM's pid, per-CPU losses, stderr) from perf script.
    The losses are the oracle of bundle.json's recorded.kernel.lost: {cpu: {events, records,
    switches, switch_gaps, switch_gaps_in_lost, switch_gaps_after_idle}}, the gaps being the
    places where a CPU's sched_switch has a prev_pid other than the previous switch's next_pid,
    "in lost" when a LOST record of that CPU came between."""
    r = run(["perf", "script", "--show-lost-events", "-i", path, "-F", "pid,cpu,event,trace"])
    ours, cpus, cur = {}, {}, {}
    zero = dict.fromkeys(["events", "records", "switches", "switch_gaps", "switch_gaps_in_lost",
                          "switch_gaps_after_idle"], 0)
    for line in r.stdout.splitlines():
        # pid -1: a thread's last switch, as it exits (prev_state X)
        m = re.match(r"\s*(-?\d+)\s+\[(\d+)\]\s+(\S+)", line)
        if not m:
            continue
        p, cpu, event = int(m.group(1)), int(m.group(2)), m.group(3).rstrip(":")
        c = cpus.setdefault(cpu, dict(zero))
        if event == "PERF_RECORD_LOST":
            c["records"] += 1
            c["events"] += int(re.search(r"lost (\d+)", line).group(1))
            if cpu in cur:
                cur[cpu][1] = True
            continue
        if p == pid:
            ours[event] = ours.get(event, 0) + 1
        if event == "sched:sched_switch":
            prev = int(re.search(r"prev_pid=(\d+)", line).group(1))
            nxt = int(re.search(r"next_pid=(\d+)", line).group(1))
            c["switches"] += 1
            if cpu in cur and cur[cpu][0] != prev:
                c["switch_gaps"] += 1
                c["switch_gaps_in_lost"] += cur[cpu][1]
                c["switch_gaps_after_idle"] += cur[cpu][0] == 0
            cur[cpu] = [nxt, False]
    return r.returncode, ours, cpus, r.stderr


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


def check_kernel(out, b, stderr=None, expect_lost=False):
    rc, ours, cpus, err = perf_events(os.path.join(out, "kernel.perf.data"), b["pid"])
    tap.check(rc == 0, "perf script reads kernel.perf.data", err[-2000:])
    tap.check(ours.get("sched:sched_switch", 0) > 0, "sched_switch events of the JVM's pid %d" % b["pid"],
              "events of that pid: %s" % ours)
    k = b["recorded"]["kernel"]
    # perf's -m: SMALL_BUFFER pages per CPU where the test variable gives them, else 32M.
    want_buffer = int(SMALL_BUFFER) * os.sysconf("SC_PAGE_SIZE") if expect_lost else 32 << 20
    tap.check(k.get("buffer_per_cpu_bytes") == want_buffer,
              "bundle.json's buffer_per_cpu_bytes is what perf was given (%d)" % want_buffer,
              k.get("buffer_per_cpu_bytes"))
    lost = sum(c["records"] for c in cpus.values())
    if expect_lost:
        tap.check(lost > 0, "perf lost events with a %s-page buffer" % SMALL_BUFFER,
                  "bundle.json: %s" % json.dumps(k))
    else:
        tap.check(lost == 0, "no LOST records", "%d LOST lines; bundle.json: %s" % (lost, json.dumps(k)))
    tap.check(k["lost_records"] == lost, "bundle.json counts the LOST records perf script shows",
              "bundle %s, perf script %d" % (k["lost_records"], lost))
    # What perf lost, per CPU, against perf script: its LOST lines and the chain of each CPU's
    # sched_switch records (docs/recording.md, "What perf lost").
    got = k.get("lost") or {}
    mine = {c["cpu"]: {f: c[f] for f in c if f != "cpu"} for c in got.get("per_cpu", [])}
    mine = {cpu: c for cpu, c in mine.items() if any(c.values())}
    cpus = {cpu: c for cpu, c in cpus.items() if any(c.values())}
    tap.check(mine == cpus, "bundle.json's lost per CPU is what perf script shows",
              "bundle %s\nperf script %s" % (json.dumps(mine, sort_keys=True), json.dumps(cpus, sort_keys=True)))
    total = {f: sum(c[f] for c in cpus.values()) for f in ["events", "records", "switches", "switch_gaps"]}
    tap.check(all(got.get(f) == v for f, v in total.items()), "bundle.json's lost totals",
              "bundle %s, perf script %s" % (json.dumps(got), total))
    if stderr is not None:
        said = "perf recorded %d context switches" % total["switches"]
        tap.check(said in stderr, "stderr says how many switches perf recorded and how many are missing",
                  "wanted %r in: %s" % (said, stderr))
        if expect_lost:
            # perf report --stats: one block per event after the aggregated one; each block's
            # LOST_SAMPLES line counts the samples that event lost (perf 6.1's LOST_SAMPLES records).
            r = run(["perf", "report", "--stats", "-i", os.path.join(out, "kernel.perf.data")])
            samples, per_event = 0, False
            for line in r.stdout.splitlines():
                line = line.strip()
                if line.endswith(" stats:") and line != "Aggregated stats:":
                    per_event = True
                elif per_event and line.startswith("LOST_SAMPLES events:"):
                    samples += int(line.split()[2])
            tap.check(r.returncode == 0 and samples > 0 and got.get("samples") == samples,
                      "bundle.json's lost samples are perf report --stats' LOST_SAMPLES",
                      "bundle %s, perf report %d" % (got.get("samples"), samples))
            said = "perf lost %d kernel events in %d gaps" % (max(total["events"], got.get("samples", 0)), lost)
            tap.check(said in stderr and "unknown in the index" in stderr, "stderr says what perf lost and what it means",
                      "wanted %r in: %s" % (said, stderr))


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
        here = os.path.dirname(os.path.abspath(__file__))
        r = run(["javac", "-d", self.dir, os.path.join(here, "Work.java"), os.path.join(here, "Beside.java")])
        if r.returncode != 0:
            raise SystemExit("javac failed: " + r.stderr)

    def java(self, ms, *extra):
        return ["java"] + list(extra) + ["-cp", self.dir, "Work", str(ms)]

    def beside(self):
        """An unrelated JVM (tests/cli/Beside.java: threads beside-0, beside-1 spinning), running
        once it printed "started"."""
        p = subprocess.Popen(["java", "-cp", self.dir, "Beside"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        if p.stdout.readline().strip() != "started":
            p.kill()
            raise SystemExit("the JVM beside did not start: " + p.communicate()[1])
        return p


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
    check_kernel(out, b, r.stderr)
    check_clock(out, b)
    k = b["recorded"]["kernel"]
    switch = [e for e in k["perf_events"] if e == "sched:sched_switch" or e.startswith("{sched:sched_switch,")]
    tap.check(len(switch) == 1 and "raw_syscalls:sys_enter" in k["perf_events"], "perf events listed", json.dumps(k))
    # Each sched_switch reads a counter group: hardware counters when `perf stat` counts them.
    sc = k.get("switch_counters") or {}
    hw = not any(m["what"] == "hardware counters" for m in b["not_recorded"])
    want = ["cycles", "instructions", "cache-misses", "cache-references", "context-switches"] if hw else \
           ["task-clock", "page-faults", "cpu-migrations", "context-switches"]
    tap.check(sc.get("counters") == want and sc.get("hardware") is hw and sc.get("hardware_available") is hw
              and switch == ["{sched:sched_switch,%s}:S" % ",".join(want)],
              "bundle.json says which counters each sched_switch read (hardware: %s)" % hw, json.dumps(k))
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
    # perf's buffer is two pages per CPU: it loses events, and the recorder must say so as perf does.
    env = dict(os.environ, JVMSCOPE_TEST_PERF_BUFFER=SMALL_BUFFER)
    r = record(cli, out, ["--duration", "3", "--", *work.java(0)], env=env)
    tap.check(r.returncode == 0, "record exits 0", r.stderr)
    b = check_bundle_basics(out, True)
    if b is None:
        return
    tap.check(b["stop"]["reason"] == "duration", "stopped by --duration", json.dumps(b["stop"]))
    tap.check(not os.path.exists("/proc/%d" % b["pid"]), "the JVM is gone")
    check_jfr(out, False)
    check_kernel(out, b, r.stderr, expect_lost=True)


def case_sigint(cli, tmp, work):
    out = os.path.join(tmp, "i.jvmtrace")
    # A counter perf does not know joins the group read at each switch (JVMSCOPE_TEST_SWITCH_COUNTER):
    # perf refuses the group and exits at once, as with a kernel that refuses it; the recorder
    # records the plain sched_switch and says so.
    env = dict(os.environ, JVMSCOPE_TEST_SWITCH_COUNTER="no-such-counter")
    p = subprocess.Popen([cli, "record", "-o", out, "--", *work.java(0)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
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
    k = b["recorded"]["kernel"]
    tap.check(k["switch_counters"] is None and "sched:sched_switch" in k["perf_events"]
              and not any(e.startswith("{") for e in k["perf_events"])
              and "no-such-counter" in (k.get("switch_counters_refused") or ""),
              "perf refused the counter group: the plain sched_switch recorded, bundle.json says why", json.dumps(k))
    tap.check(any(m["what"] == "counters at each context switch" and "refused" in m["reason"]
                  for m in b["not_recorded"]), "not_recorded lists the counters at each switch",
              json.dumps(b["not_recorded"]))
    tap.check("perf refused the counter group" in err and "plain sched_switch is recorded" in err,
              "stderr says perf refused the group and what was recorded instead", err)


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
    for value in ["inf", "nan", "-1", "0", "0x2", "1e9", "5000000", "3 s", ""]:
        out = os.path.join(tmp, "d.jvmtrace")
        r = record(cli, out, ["--duration", value, "--", *work.java(0)])
        tap.check(r.returncode == 2 and "--duration" in r.stderr,
                  "--duration %r refused with status 2" % value, "status %d: %s" % (r.returncode, r.stderr))
        tap.check(not os.path.exists(out), "--duration %r: no output folder" % value)


def descendants(pid):
    """Pids of @pid's children and their children, from /proc."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir("/proc/%d/task" % p)
        except OSError:
            continue
        for t in tasks:
            try:
                with open("/proc/%d/task/%s/children" % (p, t)) as f:
                    kids = [int(w) for w in f.read().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found


def comm(pid):
    try:
        with open("/proc/%d/comm" % pid) as f:
            return f.read().strip()
    except OSError:
        return None


def running(pid):
    """False once @pid is gone or a zombie (in a container nobody may reap it)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def case_killed(cli, tmp, work):
    """A recorder killed with SIGKILL (or a window that crashes while recording) takes its perf
    with it: perf, in a process group of its own, would otherwise record the whole machine until
    the disk is full."""
    out = os.path.join(tmp, "k.jvmtrace")
    p = subprocess.Popen([cli, "record", "-o", out, "--", *work.java(0)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    tap.check(wait_started(p), "the JVM runs under the recorder")
    kids = {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not ("perf" in kids.values() and "java" in kids.values()):
        kids = {k: comm(k) for k in descendants(p.pid)}
        time.sleep(0.2)
    perf = [k for k, c in kids.items() if c == "perf"]
    java = [k for k, c in kids.items() if c == "java"]
    tap.check(len(perf) > 0 and len(java) > 0, "perf and the JVM run under the recorder", str(kids))
    p.kill()
    p.wait()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(running(k) for k in perf):
        time.sleep(0.2)
    tap.check(perf and not any(running(k) for k in perf), "perf ends with the recorder that was killed",
              "still running: %s" % [k for k in perf if running(k)])
    for k in perf + java:
        try:
            os.kill(k, signal.SIGKILL)
        except OSError:
            pass


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


def perf_task_pids(path):
    """{tid: pid} of every thread perf's task records (COMM, FORK) or events name: the threads
    the trace knows of, whether or not they ran while it recorded."""
    tids = perf_tid_pids(path)
    r = run(["perf", "script", "-i", path, "--show-task-events", "-F", "pid,tid"])
    for line in r.stdout.splitlines():
        m = re.search(r"PERF_RECORD_COMM(?: exec)?: .*:(\d+)/(\d+)$", line.strip())
        if m:
            tids[int(m.group(2))] = int(m.group(1))
        m = re.search(r"PERF_RECORD_FORK\((\d+):(\d+)\)", line)
        if m:
            tids[int(m.group(2))] = int(m.group(1))
    return tids


def perf_tid_pids(path):
    """{tid: pid} of every thread that recorded an event in its own context: the kernel's own
    word on which process each thread belongs to, the oracle for process identity."""
    r = run(["perf", "script", "-i", path, "-F", "pid,tid"])
    tids = {}
    for line in r.stdout.splitlines():
        f = line.strip().split("/")
        if len(f) == 2 and f[0].isdigit() and f[1].isdigit():
            tids[int(f[1])] = int(f[0])
    return tids


def analyze(cli, trace, tmp, *extra):
    r = run([cli, "analyze", "--json", "--cache-dir", os.path.join(tmp, "cache"), trace] + list(extra), timeout=600)
    try:
        return r, json.loads(r.stdout) if r.returncode == 0 else None
    except ValueError:
        return r, None


def index_dump(dump, trace, tmp):
    r = run([dump, os.path.join(tmp, "cache"), trace], timeout=600)
    return json.loads(r.stdout) if r.returncode == 0 else None


def report_tids(report):
    """Every tid the report names: its threads and the threads of its findings."""
    tids = {t["tid"] for t in report["threads"]}
    for f in report["findings"]:
        tids |= {t["tid"] for t in f["threads"]}
    return tids


def check_only_process(report, tid_pid, pid, what):
    """The report's threads and the findings' threads are all of process pid, per perf."""
    foreign = sorted((t, tid_pid[t]) for t in report_tids(report) if t > 0 and t in tid_pid and tid_pid[t] != pid)
    known = [t for t in report_tids(report) if t > 0 and t in tid_pid]
    tap.check(len(known) > 0 and not foreign, "%s: every thread of the report and its findings is of process %d"
              % (what, pid), "%d threads known to perf; of other processes: %s" % (len(known), foreign[:10]))


def case_beside(cli, tmp, work, dump):
    """A recording made while an unrelated JVM runs beside (issue 23): only the recorded JVM's
    threads are the report's and the findings'; the other is another process."""
    other = work.beside()
    try:
        out = os.path.join(tmp, "b.jvmtrace")
        r = record(cli, out, ["--", *work.java(2500)])
        tap.check(r.returncode == 0, "record exits 0 beside another JVM", r.stderr)
    finally:
        other.kill()
        other.communicate()
    b = load_bundle(out)
    tid_pid = perf_tid_pids(os.path.join(out, "kernel.perf.data"))
    beside_tids = {t for t, p in tid_pid.items() if p == other.pid}
    tap.check(len(beside_tids) >= 3, "perf saw the JVM beside (pid %d) run" % other.pid, "%d threads" % len(beside_tids))

    r, report = analyze(cli, out, tmp)
    if not tap.check(report is not None, "analyze --json", r.stderr):
        return
    tap.check(report["jvm_pid"] == b["pid"], "the report's JVM is the bundle's pid", "%s vs %s" % (report["jvm_pid"], b["pid"]))
    check_only_process(report, tid_pid, b["pid"], "bundle")
    names = sorted(t["name"] for t in report["threads"] if t["name"].startswith("beside"))
    tap.check(not names, "no thread of the JVM beside among the report's threads", names)
    holders = [h for f in report["findings"] for h in f["evidence"].get("cpu_holders", []) if h.get("pid") == other.pid]
    tap.check(all(h["ours"] is False for h in holders), "the JVM beside, as a CPU holder, is never ours",
              json.dumps(holders[:5]))

    index = index_dump(dump, out, tmp)
    if not tap.check(index is not None, "index-dump reads the index"):
        return
    kinds = {}
    for key, t in index["threads"].items():
        if key.isdigit() and int(key) in beside_tids:
            kinds[t.get("name")] = t.get("kind")
    tap.check(kinds and all(k == "other-process" for k in kinds.values()),
              "every thread of the JVM beside is another process's in the index (the threads view's group)",
              json.dumps(kinds))
    ours = {t.get("kind") for key, t in index["threads"].items() if t.get("pid") == b["pid"]}
    tap.check(ours and "other-process" not in ours, "the recorded JVM's threads have JVM kinds", sorted(ours))
    jvms = [line.split("\t")[0] for line in (index.get("jvms") or "").splitlines()]
    tap.check(str(other.pid) in jvms and str(b["pid"]) in jvms and index["jvm-pid"] == str(b["pid"]),
              "the index lists both JVMs and takes the recorded one", json.dumps([index.get("jvms"), index["jvm-pid"]]))


def perf_kernel_only(out, seconds):
    """A kernel-only trace as a user records one, with perf alone."""
    events = ["sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup_new", "sched:sched_process_fork",
              "sched:sched_process_exec", "sched:sched_process_exit"]
    cmd = ["perf", "record", "-a", "-k", "CLOCK_MONOTONIC", "-o", out]
    for e in events:
        cmd += ["-e", e]
    return run(cmd + ["--", "sleep", str(seconds)], timeout=240)


def case_two_jvms(cli, tmp, work, dump):
    """A kernel-only trace of two JVMs (issue 23): without --pid the command lists both and asks
    (status 2); --pid chooses each, and the report is then that JVM's threads only."""
    first = subprocess.Popen(work.java(0), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    second = None
    try:
        tap.check(wait_started(first), "the first JVM runs")
        second = work.beside()
        trace = os.path.join(tmp, "two.perf.data")
        r = perf_kernel_only(trace, 3)
        tap.check(r.returncode == 0, "perf records the machine", r.stderr[-1000:])
    finally:
        for p in (first, second):
            if p is not None:
                p.kill()
                p.communicate()
    tid_pid = perf_tid_pids(trace)
    r = run([cli, "analyze", "--cache-dir", os.path.join(tmp, "cache"), trace], timeout=600)
    tap.check(r.returncode == 2, "analyze without --pid asks (status 2)", "status %d: %s" % (r.returncode, r.stderr[-2000:]))
    for p in (first, second):
        tap.check("--pid %d " % p.pid in r.stderr, "the list names JVM %d" % p.pid, r.stderr[-2000:])
    for p, mine, theirs in ((first, "locker-0", "beside-0"), (second, "beside-0", "locker-0")):
        r, report = analyze(cli, trace, tmp, "--pid", str(p.pid))
        if not tap.check(report is not None, "analyze --pid %d" % p.pid, r.stderr[-2000:]):
            continue
        tap.check(report["jvm_pid"] == p.pid, "--pid %d: the report's JVM" % p.pid, str(report["jvm_pid"]))
        check_only_process(report, tid_pid, p.pid, "--pid %d" % p.pid)
        names = {t["name"] for t in report["threads"]}
        tap.check(mine in names and theirs not in names, "--pid %d: %s among its threads, %s not" % (p.pid, mine, theirs),
                  sorted(names))
    # index lists the JVMs the trace shows: both, each with its threads as perf script has them,
    # and none marked recorded (a kernel-only trace of two JVMs records neither).
    r = run([cli, "index", "--json", "--cache-dir", os.path.join(tmp, "cache"), trace], timeout=600)
    listed = {j["pid"]: j for j in json.loads(r.stdout).get("jvms", [])} if r.returncode == 0 else {}
    known = perf_task_pids(trace)
    for p in (first, second):
        j = listed.get(p.pid)
        seen = sum(1 for pid in known.values() if pid == p.pid)
        tap.check(j is not None and not j["recorded"] and j["threads"] == seen,
                  "index --json lists JVM %d (%s threads; perf script's task records show %d)"
                  % (p.pid, j and j["threads"], seen), r.stderr[-1000:])
    r = run([cli, "analyze", "--pid", "1", "--cache-dir", os.path.join(tmp, "cache"), trace], timeout=600)
    tap.check(r.returncode == 2 and "none of the JVMs" in r.stderr, "--pid of no JVM in the trace: status 2", r.stderr[-1000:])
    # The other commands that read a JVM's threads: a thread name both JVMs have needs --pid
    # (critical-path lists the JVMs), and with it names that JVM's thread; profile refuses a pid
    # of no JVM as analyze does.
    cache = ["--cache-dir", os.path.join(tmp, "cache")]
    r = run([cli, "critical-path", *cache, "--thread", "VM Thread", trace], timeout=600)
    tap.check(r.returncode == 2 and all("--pid %d " % p.pid in r.stderr for p in (first, second)),
              "critical-path --thread 'VM Thread' without --pid lists both JVMs", r.stderr[-1500:])
    for p in (first, second):
        r = run([cli, "critical-path", *cache, "--thread", "VM Thread", "--pid", str(p.pid), "--json", trace], timeout=600)
        tid = (json.loads(r.stdout) if r.returncode == 0 else {}).get("thread", {}).get("tid")
        tap.check(tid is not None and tid_pid.get(tid, known.get(tid)) == p.pid,
                  "critical-path --pid %d follows that JVM's VM Thread" % p.pid, (r.stderr[-500:], tid))
    r = run([cli, "profile", *cache, "--pid", "1", trace], timeout=600)
    tap.check(r.returncode == 2 and "none of the JVMs" in r.stderr, "profile --pid of no JVM: status 2", r.stderr[-500:])


def case_attach_range(cli, tmp, work, dump):
    """Attach with --duration 3 (issue 23): the report's default range is where both layers
    recorded, within half a second of 3 s; the recorder's jcmd processes are named in
    bundle.json and none of their threads is the JVM's; the kernel's margins are written."""
    out = os.path.join(tmp, "r.jvmtrace")
    jvm = subprocess.Popen(work.java(0), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        tap.check(wait_started(jvm), "a JVM runs")
        began = time.monotonic()
        r = record(cli, out, ["--pid", str(jvm.pid), "--duration", "3"])
        took = time.monotonic() - began
        tap.check(r.returncode == 0, "record --pid --duration 3 exits 0", r.stderr)
    finally:
        jvm.kill()
        jvm.communicate()
    b = load_bundle(out)
    tap.note("the command took %.2f s for --duration 3" % took)
    helpers = b.get("helpers", [])
    jcmds = [h for h in helpers if h["command"] and h["command"][0] == "jcmd"]
    tap.check(jcmds and all(h["pid"] > 0 and h["start_monotonic_ns"] > 0 for h in jcmds),
              "bundle.json names the jcmd helpers", json.dumps(helpers)[:2000])
    tap.check(any(h["command"][0].endswith("perf") for h in helpers), "bundle.json names perf among the helpers")
    t = b.get("timing", {})
    tap.check(all(isinstance(t.get(k), int) and t[k] > 0 for k in ("kernel_margin_before_ns", "kernel_margin_after_ns")),
              "bundle.json says the kernel's margins around the JFR recording", json.dumps(t))
    jfr_span = (t.get("jfr_end_monotonic_ns") or 0) - (t.get("jfr_start_monotonic_ns") or 0)
    tap.check(abs(jfr_span - 3e9) < 0.5e9, "JFR recorded 3 s (bundle.json timing)", "%.3f s" % (jfr_span / 1e9))

    r, report = analyze(cli, out, tmp)
    if not tap.check(report is not None, "analyze --json", r.stderr):
        return
    duration = report["range"]["duration_ns"]
    tap.check(abs(duration - 3e9) < 0.5e9, "the report's range is within 0.5 s of 3 s", "%.3f s" % (duration / 1e9))
    tap.check("both layers" in report["range"].get("why", ""), "the report says why its range is that",
              json.dumps(report["range"]))
    tid_pid = perf_tid_pids(os.path.join(out, "kernel.perf.data"))
    helper_pids = {h["pid"] for h in helpers}
    helper_threads = sorted(t for t in report_tids(report) if tid_pid.get(t) in helper_pids)
    tap.check(not helper_threads, "no thread of a jcmd among the recorded JVM's", helper_threads)
    seen_jcmd = [tid for tid, pid in tid_pid.items() if pid in {h["pid"] for h in jcmds}]
    tap.note("perf saw %d threads of the jcmd helpers" % len(seen_jcmd))
    check_only_process(report, tid_pid, jvm.pid, "attach")


CASES = {"killed": case_killed, "launch": case_launch, "sensitive": case_sensitive, "duration": case_duration, "sigint": case_sigint, "ctrl-c": case_ctrl_c,
         "no-perf": case_no_perf, "refused": case_refused, "attach": case_attach, "not-jvm": case_not_jvm,
         "bad-duration": case_bad_duration, "cleanup": case_cleanup, "beside": case_beside, "two-jvms": case_two_jvms,
         "attach-range": case_attach_range}
# Cases that read the index with tests/analysis/index-dump.
NEEDS_DUMP = {"beside", "two-jvms", "attach-range"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    ap.add_argument("--dump", help="tests/analysis/index-dump")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="jvmscope-record-test-")
    try:
        work = Workload(tmp)
        if a.case in NEEDS_DUMP:
            CASES[a.case](a.cli, tmp, work, a.dump)
        else:
            CASES[a.case](a.cli, tmp, work)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    tap.done()


main()
