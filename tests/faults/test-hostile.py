#!/usr/bin/env python3
"""Hostile bundles, special files and crafted inputs (issues 26 and 28), through
`jvmscope-cli summary`, `index` and `analyze` as a user would run them.

Each case is built here from the bundled sample (or from bytes written here) and run with a
generous watchdog that only turns a hang into a failure (nothing here measures speed). Every run
must end by itself, without a signal, with a warning or an error naming the path that is wrong;
for the bundles and the paths refused, peak memory (ru_maxrss of the child, from wait4) must stay
within 64 MiB of the same command's on the intact sample, measured in the same run.

- special files in place of a bundle's parts: a named pipe (recording.jfr, kernel.perf.data,
  bundle.json, jvm-clock.log), a folder, a socket, a character device, a loop of symbolic links;
  a named pipe given as the trace; a path longer than PATH_MAX;
- bundle.json nested 200,000 levels (json-glib's parser overflowed its stack), and of 200 MB
  (it was read whole: 590 MB resident);
- no layer readable: the error names every part and its reason;
- an LTTng trace whose metadata or one stream file is a named pipe, and one whose session folder
  holds symbolic link cycles and a link to /usr; a CLI killed while its babeltrace2 probe runs;
- the index cache's own files (index, digest, sample store) replaced by named pipes;
- a JFR recording whose events end after its chunk header's start + duration (a JVM that died
  before finalising the header), odd and even event counts (the build's MAX() fed a second
  event and then NULL);
- an absurd clock offset in bundle.json (INT64_MAX, INT64_MIN).
"""
import argparse
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from jvms_tap import Tap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfr_bytes  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--cli", required=True)
ap.add_argument("--shared", required=True)
ap.add_argument("--sample", required=True)
# Only to turn a hang into a failure: sanitized builds on a loaded machine are slow.
ap.add_argument("--watchdog", type=float, default=180.0)
args = ap.parse_args()

tap = Tap()
tmp = tempfile.mkdtemp(prefix="jvms-hostile-")
ENV = dict(os.environ, LC_ALL="C")
# Memory a hostile input may add over the intact sample's run of the same command: the 200 MB
# bundle.json took 590 MB when read whole.
MEMORY_SLACK_KB = 64 * 1024


class Run:
    def __init__(self, argv):
        self.argv = argv
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=ENV)
            # A pidfd: the watchdog can never signal another process that reused the pid.
            pidfd = os.pidfd_open(p.pid)
            self.hung = False

            def watchdog():
                self.hung = True
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)

            timer = threading.Timer(args.watchdog, watchdog)
            timer.start()
            _, status, usage = os.wait4(p.pid, 0)
            timer.cancel()
            timer.join()
            os.close(pidfd)
            p.returncode = os.waitstatus_to_exitcode(status)
            self.rc = p.returncode
            self.maxrss_kb = usage.ru_maxrss
            out.seek(0)
            err.seek(0)
            self.stdout = out.read().decode(errors="replace")
            self.stderr = err.read().decode(errors="replace")
        self.json = None
        try:
            self.json = json.loads(self.stdout)
        except ValueError:
            pass

    def signalled(self):
        return self.rc < 0 or self.rc >= 128

    def ended(self):
        """Ended by itself, without a signal."""
        return not self.hung and not self.signalled()

    def warnings(self):
        return (self.json or {}).get("warnings", [])

    def detail(self):
        return "%s\nstatus %d%s, maxrss %d KB\nstderr: %s" % (
            " ".join(self.argv)[:300], self.rc, " (watchdog)" if self.hung else "", self.maxrss_kb,
            self.stderr[-1500:])


def cli(command, trace, cache=None):
    argv = [args.cli, command, "--json"]
    if command != "summary":
        argv += ["--cache-dir", cache or os.path.join(tmp, "cache")]
    return Run(argv + [trace])


COMMANDS = ("summary", "index", "analyze")
# summary exits 3 when it read a trace with warnings; index and analyze print them and exit 0.
PARTIAL = {"summary": 3, "index": 0, "analyze": 0}


def first_child(pid):
    """A child process of @pid, or None."""
    try:
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                kids = f.read().split()
            if kids:
                return int(kids[0])
    except OSError:
        pass
    return None


def stopped(pid):
    """Whether @pid is now stopped (state T). A child that had already exited, a zombie its
    parent had not reaped yet, is listed among the children too and takes SIGSTOP without a
    word: caught so, it would be reparented to us and reaped with its own exit status 0."""
    for _ in range(200):
        try:
            with open("/proc/%d/stat" % pid) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return False
        if state in ("T", "t"):
            return True
        if state in ("Z", "X", "x"):
            return False
        time.sleep(0.001)
    return False


def wait_child(pid, watchdog):
    """Its wait status, or None if it did not end within @watchdog s (then it is killed: it is
    our child and not yet reaped, so the pid is still its own)."""
    deadline = time.monotonic() + watchdog
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return status
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


def bundle_copy(name):
    d = os.path.join(tmp, name + ".jvmtrace")
    shutil.copytree(args.sample, d)
    return d


def replace(path, make):
    if os.path.lexists(path):
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    make(path)


def make_socket(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    sockets.append(s)


sockets = []

try:
    # ------------------------------------------------------------------ the intact sample
    base = {}
    for command in COMMANDS:
        r = cli(command, args.sample, os.path.join(tmp, "cache-base"))
        ok = r.ended() and r.rc == 0 and r.json is not None
        tap.check(ok, "%s of the intact sample" % command, r.detail())
        base[command] = r
    if not all(r.json for r in base.values()):
        tap.done()
    tap.note("intact sample: maxrss summary %d KB, index %d KB, analyze %d KB"
             % tuple(base[c].maxrss_kb for c in COMMANDS))

    def check_memory(name, command, r):
        tap.check(r.maxrss_kb <= base[command].maxrss_kb + MEMORY_SLACK_KB,
                  "%s: %s peaks at %d KB (intact sample %d KB)"
                  % (name, command, r.maxrss_kb, base[command].maxrss_kb), r.detail())

    def check_partial(name, trace, part, says, layers=None):
        """Each command reads what it can and warns naming @part with @says in the message."""
        for command in COMMANDS:
            r = cli(command, trace, os.path.join(tmp, "cache-" + name))
            named = [w for w in r.warnings() if part in w and says in w]
            ok = r.ended() and r.rc == PARTIAL[command] and r.json is not None and named
            if ok and layers is not None and command == "index":
                ok = r.json["layers"] == layers
            tap.check(ok, "%s: %s reads the rest and warns \"%s\"" % (name, command, says),
                      r.detail() + "\nwarnings: %s" % r.warnings())
            check_memory(name, command, r)

    def check_refused(name, trace, says):
        for command in COMMANDS:
            r = cli(command, trace, os.path.join(tmp, "cache-" + name))
            prefix = "jvmscope-cli %s: " % command
            ok = r.ended() and r.rc == 1 and r.stderr.startswith(prefix) and says in r.stderr
            tap.check(ok, "%s: %s refuses it: \"%s\"" % (name, command, says), r.detail())
            check_memory(name, command, r)

    # ------------------------------------------------------------------ special files in a bundle
    cases = [
        ("recording.jfr", "named pipe", os.mkfifo, "kernel", "recording.jfr is a named pipe, not a file"),
        ("kernel.perf.data", "named pipe", os.mkfifo, "jfr", "kernel.perf.data is a named pipe, not a file"),
        ("bundle.json", "named pipe", os.mkfifo, "jfr,kernel", "bundle.json is a named pipe, not a file"),
        ("recording.jfr", "folder", os.mkdir, "kernel", "recording.jfr is a folder, not a file"),
        ("recording.jfr", "socket", make_socket, "kernel", "recording.jfr is a socket, not a file"),
        ("recording.jfr", "character device", lambda p: os.symlink("/dev/zero", p), "kernel",
         "recording.jfr is a character device, not a file"),
        ("recording.jfr", "symbolic link loop", lambda p: (os.symlink("loop", p),
                                                            os.symlink("recording.jfr", os.path.join(os.path.dirname(p), "loop"))),
         "kernel", "Too many levels of symbolic links"),
    ]
    for part, what, make, layers, says in cases:
        name = "%s-%s" % (part, what.replace(" ", "-"))
        d = bundle_copy(name)
        replace(os.path.join(d, part), make)
        check_partial(name, d, os.path.join(d, part), says, layers)

    # jvm-clock.log is read only for the trace's identity: a named pipe must not block it.
    d = bundle_copy("clock-log-fifo")
    replace(os.path.join(d, "jvm-clock.log"), os.mkfifo)
    for command in COMMANDS:
        r = cli(command, d, os.path.join(tmp, "cache-clock-log"))
        tap.check(r.ended() and r.rc == 0, "jvm-clock.log a named pipe: %s opens the bundle" % command, r.detail())

    # No layer readable: every part's reason in the error.
    d = bundle_copy("no-layer")
    replace(os.path.join(d, "recording.jfr"), os.mkfifo)
    replace(os.path.join(d, "kernel.perf.data"), os.mkdir)
    for command in ("index", "analyze"):
        r = cli(command, d, os.path.join(tmp, "cache-no-layer"))
        ok = (r.ended() and r.rc == 1 and "no layer of the trace could be read" in r.stderr
              and os.path.join(d, "recording.jfr") + " is a named pipe" in r.stderr
              and os.path.join(d, "kernel.perf.data") + " is a folder" in r.stderr)
        tap.check(ok, "no layer readable: %s names each part and its reason" % command, r.detail())
    r = cli("summary", d)
    ok = (r.ended() and r.rc == 1 and os.path.join(d, "recording.jfr") + " is a named pipe" in r.stderr
          and os.path.join(d, "kernel.perf.data") + " is a folder" in r.stderr)
    tap.check(ok, "no layer readable: summary names each part and its reason", r.detail())

    # A named pipe, a device given as the trace; a path longer than PATH_MAX.
    fifo = os.path.join(tmp, "pipe.jfr")
    os.mkfifo(fifo)
    check_refused("a named pipe as the trace", fifo, fifo + " is a named pipe, not a file")
    check_refused("a device as the trace", "/dev/zero", "/dev/zero is a character device, not a file")
    long_path = tmp + "/" + "/".join(["x" * 200] * 25) + "/trace.jfr"
    check_refused("a path of %d bytes" % len(long_path), long_path, "File name too long")

    # ------------------------------------------------------------------ bundle.json within bounds
    d = bundle_copy("deep-json")
    with open(os.path.join(d, "bundle.json"), "w") as f:
        f.write("[" * 200000 + "]" * 200000)
    check_partial("bundle.json nested 200,000 levels", d, os.path.join(d, "bundle.json"),
                  "nested deeper than 64 levels", "jfr,kernel")
    d = bundle_copy("deep-json-in-strings")
    # Exactly 64 levels (the object and 63 arrays); brackets in strings and comments do not nest.
    with open(os.path.join(d, "bundle.json"), "w") as f:
        f.write('{"a": "[[[[{{{{\\"[[", "c": \'[[[\', /* [[[[ */ "b": ' + "[" * 63 + "]" * 63 + "}")
    r = cli("index", d, os.path.join(tmp, "cache-deep-ok"))
    tap.check(r.ended() and r.rc == 0 and not any("bundle.json" in w for w in r.warnings()),
              "bundle.json nested 64 levels, brackets in strings and comments: read", r.detail())

    d = bundle_copy("huge-json")
    with open(os.path.join(d, "bundle.json"), "w") as f:
        f.write('{"clock": "')
        # Sparse: 200 MB on the file system's word, a few blocks on disk.
        f.truncate(200 * 1024 * 1024)
    for command in COMMANDS:
        r = cli(command, d, os.path.join(tmp, "cache-huge"))
        named = [w for w in r.warnings() if os.path.join(d, "bundle.json") in w and "bytes" in w]
        tap.check(r.ended() and r.rc == PARTIAL[command] and named,
                  "a 200 MB bundle.json: %s warns naming it" % command, r.detail() + "\n%s" % r.warnings())
        check_memory("a 200 MB bundle.json", command, r)

    # ------------------------------------------------------------------ absurd clock offsets
    for value in (2 ** 63 - 1, -2 ** 63, -7400000000000000000):
        d = bundle_copy("offset%d" % value)
        path = os.path.join(d, "bundle.json")
        with open(path) as f:
            manifest = json.load(f)
        manifest["clock"]["jfr_ticks_to_monotonic_offset_ns"] = value
        with open(path, "w") as f:
            json.dump(manifest, f)
        r = cli("index", d, os.path.join(tmp, "cache-offset"))
        named = [w for w in r.warnings() if path in w and "clock offset" in w]
        ok = (r.ended() and r.rc == 0 and named
              and abs(r.json["duration_ns"] - base["index"].json["duration_ns"]) < 10 ** 9
              and r.json["metadata"]["clock-method"] != base["index"].json["metadata"]["clock-method"])
        tap.check(ok, "clock offset %d in bundle.json: refused with a warning, the trace spans %s ns"
                  % (value, r.json and r.json["duration_ns"]), r.detail() + "\n%s" % r.warnings())
        tap.check("is before" not in r.stderr, "clock offset %d: no internal invariant reaches the user" % value,
                  r.detail())

    # ------------------------------------------------------------------ LTTng traces
    scp = os.path.join(args.shared, "testdata", "ctf", "synctraces", "scp_src")

    def ctf_copy(name, at="."):
        root = os.path.join(tmp, name)
        d = os.path.normpath(os.path.join(root, at))
        os.makedirs(d)
        for f in ("metadata", "channel0_0"):
            shutil.copy(os.path.join(scp, f), os.path.join(d, f))
        return root, d

    ctf_root, _ = ctf_copy("ctf-intact", "kernel")
    ctf_base = cli("index", ctf_root, os.path.join(tmp, "cache-ctf"))
    tap.check(ctf_base.ended() and ctf_base.rc == 0 and ctf_base.json, "index of an intact LTTng session",
              ctf_base.detail())

    _, d = ctf_copy("ctf-metadata-fifo")
    replace(os.path.join(d, "metadata"), os.mkfifo)
    check_refused("CTF metadata a named pipe", d, os.path.join(d, "metadata") + " is a named pipe, not a file")

    root, d = ctf_copy("ctf-stream-fifo", "kernel")
    os.mkfifo(os.path.join(d, "channel0_1"))
    for command in ("summary", "index"):
        r = cli(command, root, os.path.join(tmp, "cache-ctf-fifo"))
        named = [w for w in r.warnings() if os.path.join(d, "channel0_1") + " is a named pipe" in w]
        ok = r.ended() and r.rc == PARTIAL[command] and named
        if ok and command == "index":
            ok = r.json["intervals"] == ctf_base.json["intervals"]
        tap.check(ok, "a CTF stream file that is a named pipe: %s reads the others and names it" % command,
                  r.detail() + "\n%s" % r.warnings())

    # Cycles of symbolic links and a link to a large tree in the session folder: the reader
    # does not enter linked folders, the search stops at folders seen before.
    root, d = ctf_copy("ctf-cycles", "kernel")
    os.symlink(".", os.path.join(root, "a"))
    os.symlink(".", os.path.join(root, "b"))
    os.symlink("..", os.path.join(d, "up"))
    os.symlink("/usr", os.path.join(root, "usr"))
    for command in ("summary", "index", "analyze"):
        r = cli(command, root, os.path.join(tmp, "cache-ctf-cycles"))
        ok = r.ended() and r.rc == 0
        if ok and command == "index":
            ok = r.json["intervals"] == ctf_base.json["intervals"]
        tap.check(ok, "an LTTng session with link cycles and a link to /usr: %s reads the trace once" % command,
                  r.detail())

    # A CLI killed while its babeltrace2 probe runs: the probe (a child, so that a trace on
    # which babeltrace2 loops cannot hang the reader) must die with it, not run on until its
    # alarm. The probe is caught and stopped (so that it cannot finish by itself), the CLI
    # killed; the probe, now our child (a subreaper), must be gone by SIGKILL.
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_CHILD_SUBREAPER = 36
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    probe, attempts = None, 0
    while probe is None and attempts < 50:
        attempts += 1
        p = subprocess.Popen([args.cli, "summary", scp], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=ENV)
        while probe is None and p.poll() is None:
            probe = first_child(p.pid)
            if probe is not None:
                try:
                    os.kill(probe, signal.SIGSTOP)
                except ProcessLookupError:
                    probe = None
                if probe is not None and not stopped(probe):
                    # A zombie: wait for the CLI to reap it and end, then try again.
                    probe = None
                    p.wait()
        if probe is None or p.poll() is not None:
            p.wait()
            probe = None  # the CLI ended first (and reaped its probe): try again
            continue
        p.kill()
        p.wait()
    if tap.check(probe is not None, "a babeltrace2 probe caught and stopped (%d attempts)" % attempts):
        # Let it go on. If it had armed its death signal, the CLI's death killed it already;
        # if we stopped it between its fork and that, it now sees its parent gone and exits 1.
        # Without either it would run to its end and die writing to the dead CLI's pipe
        # (SIGPIPE), or run on until its alarm on a trace babeltrace2 loops on.
        os.kill(probe, signal.SIGCONT)
        status = wait_child(probe, args.watchdog)
        tap.check(status is not None and ((os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL)
                                          or (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1)),
                  "the killed CLI's babeltrace2 probe dies with it", "status %r" % status)

    # ------------------------------------------------------------------ the cache's own files
    cache = os.path.join(tmp, "cache-own")
    first = cli("index", args.sample, cache)
    for suffix in ("", ".sum", ".samples"):
        target = first.json["index"] if suffix != ".samples" else first.json["samples"]
        if suffix == ".sum":
            target += ".sum"
        replace(target, os.mkfifo)
        r = cli("index", args.sample, cache)
        ok = r.ended() and r.rc == 0 and r.json is not None and not r.json["reused"]
        tap.check(ok, "the cache's %s a named pipe: the index is built again" % os.path.basename(target),
                  r.detail())
        r = cli("analyze", args.sample, cache)
        tap.check(r.ended() and r.rc == 0, "then analyze reads it", r.detail())

    # ------------------------------------------------------------------ JFR header not finalised
    for n in (7, 8):
        finalised = os.path.join(tmp, "final-%d.jfr" % n)
        died = os.path.join(tmp, "died-%d.jfr" % n)
        with open(finalised, "wb") as f:
            f.write(jfr_bytes.chunk(n, 10 ** 9))
        with open(died, "wb") as f:
            f.write(jfr_bytes.chunk(n, 0))
        ref = cli("index", finalised, os.path.join(tmp, "cache-jfr-%d" % n))
        tap.check(ref.ended() and ref.rc == 0 and ref.json["events"] == n,
                  "%d sleeps in a finalised chunk: all indexed" % n, ref.detail())
        for command in ("index", "analyze"):
            r = cli(command, died, os.path.join(tmp, "cache-jfr-%d" % n))
            ok = r.ended() and r.rc == 0
            if ok and command == "index":
                ok = r.json["events"] == n and r.json["intervals"] == ref.json["intervals"]
            tap.check(ok, "%d sleeps ending after a chunk header of duration 0: %s feeds each once, in order"
                      % (n, command), r.detail() + "\n%s" % (r.json and {k: r.json.get(k) for k in ("events", "intervals")}))

    # A chunk dated 1 ms before the end of the time axis (2262), whose sleeps end past it: the
    # close time after them must not wrap around ("close time -9223372036854775808 is before").
    endless = os.path.join(tmp, "endless.jfr")
    with open(endless, "wb") as f:
        f.write(jfr_bytes.chunk(4, 10 ** 5, sleep=10 ** 6, start_nanos=2 ** 63 - 1 - 10 ** 6))
    for command in ("index", "analyze"):
        r = cli(command, endless, os.path.join(tmp, "cache-endless"))
        tap.check(r.ended() and r.rc == 0 and "is before" not in r.stderr,
                  "a sleep ending at the end of the time axis: %s closes the index after it" % command,
                  r.detail())
finally:
    for s in sockets:
        s.close()
    shutil.rmtree(tmp, ignore_errors=True)
tap.done()
