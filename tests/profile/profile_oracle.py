"""The profiler's oracle: the JDK's own reading of a recording (`jfr print --json`), aggregated
into folded stacks by the rules of docs/profile.md, written here independently of the C code.

Events are streamed (a recording of 200,000 samples prints 1.4 GB of JSON) and kept as compact
samples: type, start (epoch ns), thread key, folded stack, weight, whether it has a duration.
Sampling periods come from jdk.ActiveSetting, whose `id` is an event type id that `jfr print`
does not show: TypeIds.java (the JDK's RecordingFile) gives the ids.
"""
import json
import re
import subprocess
from collections import defaultdict

from jvms_class_names import java_class_name

JFR = ["jfr", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-J-Xss4m"]
DEFAULT_PERIOD_NS = 20_000_000

CPU_TYPES = {"jdk.ExecutionSample", "datadog.ExecutionSample", "jdk.CPUTimeSample"}
SAMPLERS = CPU_TYPES | {"jdk.NativeMethodSample"}
PERIOD_TYPES = {"jdk.ExecutionSample", "datadog.ExecutionSample", "jdk.NativeMethodSample"}
ALLOC_FIELDS = {
    "jdk.ObjectAllocationSample": ("weight",),
    "jdk.ObjectAllocationInNewTLAB": ("tlabSize", "allocationSize"),
    "jdk.ObjectAllocationOutsideTLAB": ("allocationSize",),
}
KIND_TYPES = {
    "lock": {"jdk.JavaMonitorEnter"},
    "wait": {"jdk.JavaMonitorWait"},
    "park": {"jdk.ThreadPark"},
    "sleep": {"jdk.ThreadSleep"},
    "io": {"jdk.SocketRead", "jdk.SocketWrite", "jdk.FileRead", "jdk.FileWrite", "jdk.FileForce"},
    "exception": {"jdk.JavaErrorThrow", "jdk.JavaExceptionThrow"},
}
KINDS = ["cpu", "cpu-waiting", "alloc", "lock", "wait", "park", "sleep", "io", "exception", "wall"]
# A profiler's wall-clock samples (docs/writers.md): these types, and async-profiler's
# jdk.ExecutionSample when the recording sampled wall clock that way. Kept under the type's name
# and this suffix, as the store keeps them as a type of their own.
WALL_TYPES = {"profiler.WallClockSample", "profiler.WallClockSleeping", "datadog.MethodSample"}
WALL = " (wall)"
MS = 1_000_000

_TIME = re.compile(r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$")
_DURATION = re.compile(r"^PT(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?\d+)(?:\.(\d{1,9}))?S)?$")
_PERIOD = re.compile(r"^\s*([0-9.eE+-]+)\s*(ns|us|µs|ms|s|m|min|h|d|)\s*$")
_UNITS = {"": 1, "ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "min": 60e9,
          "h": 3600e9, "d": 86400e9}


def epoch_ns(text):
    """ISO-8601 with up to 9 decimals and a zone (Z or the recording's +07:00), exactly
    (datetime keeps only microseconds)."""
    import calendar
    m = _TIME.match(text)
    if m is None:
        raise ValueError("not a JFR time: %r" % text)
    y, mo, d, h, mi, s, frac, zone = m.groups()
    seconds = calendar.timegm((int(y), int(mo), int(d), int(h), int(mi), int(s)))
    if zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        seconds -= sign * (int(zone[1:3]) * 3600 + int(zone[4:6]) * 60)
    return seconds * 1_000_000_000 + int((frac or "").ljust(9, "0"))


def duration_ns(text):
    """`PT0.001234S`, `PT1M2.5S`, `PT-0.000001S` as java.time.Duration prints them."""
    if text is None:
        return 0
    m = _DURATION.match(text)
    if m is None:
        raise ValueError("not a JFR duration: %r" % text)
    h, mi, s, frac = m.groups()
    ns = (int(h or 0) * 3600 + int(mi or 0) * 60) * 1_000_000_000
    if s is not None:
        neg = s.startswith("-")
        whole = abs(int(s)) * 1_000_000_000 + int((frac or "").ljust(9, "0"))
        ns += -whole if neg else whole
    return ns


def parse_period(text):
    """As jvms_jfr_samples_parse_period: "20 ms", "1 s", "10000000" (ns); None when not a period."""
    if text is None:
        return None
    m = _PERIOD.match(text)
    if m is None:
        return None
    try:
        v = float(m.group(1))
    except ValueError:
        return None
    if not (v > 0) or v > 1e18:
        return None
    ns = v * _UNITS[m.group(2)]
    return int(ns) if 1 <= ns < 9e18 else None


def frame_name(frame):
    method = frame.get("method") if frame else None
    if not method or method.get("name") is None or not method.get("type") or method["type"].get("name") is None:
        return "[unknown]"
    return java_class_name(method["type"]["name"]) + "." + method["name"]


def thread_key(thread):
    if not thread:
        return 0
    if (thread.get("osThreadId") or 0) > 0:
        return thread["osThreadId"]
    if (thread.get("javaThreadId") or 0) > 0:
        return -thread["javaThreadId"]
    return 0


# Events of chunks the JDK's tool cannot read: JDK 17's `jfr print` stops at an async-profiler
# chunk whose stack trace pool is empty ("Pool jdk.types.StackTrace must contain at least one
# element"); such a chunk is accepted only if it holds none but these.
HARMLESS = {"jdk.Metadata", "jdk.CheckPoint", "jdk.ActiveRecording"}


def chunk_events(path, notes):
    """The events of every chunk of @path, chunk by chunk, for a file the JDK's tool fails to
    print whole; a chunk it cannot read must hold nothing with a stack (`jfr summary` says)."""
    import os
    import tempfile
    with tempfile.TemporaryDirectory(prefix="jvms-chunks-") as tmp:
        r = subprocess.run(JFR + ["disassemble", "--max-chunks", "1", "--output", tmp, path],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("jfr disassemble %s: %s" % (path, r.stderr[:2000]))
        for chunk in sorted(os.listdir(tmp), key=lambda n: int(n.rsplit("_", 1)[1].split(".")[0])):
            cpath = os.path.join(tmp, chunk)
            try:
                yield from stream_events(cpath)
            except RuntimeError as e:
                if "must contain at least one element" not in str(e):
                    raise
                s = subprocess.run(JFR + ["summary", cpath], capture_output=True, text=True).stdout
                counts = {}
                for line in s.splitlines():
                    f = line.split()
                    if len(f) == 3 and f[1].isdigit() and "." in f[0]:
                        counts[f[0]] = int(f[1])
                held = {t for t, n in counts.items() if n > 0} - HARMLESS
                if held:
                    raise RuntimeError("%s: the JDK cannot read chunk %s, which holds %s" % (path, chunk, sorted(held)))
                notes.append("%s: the JDK's jfr print fails on chunk %s (%s only); the other chunks compared"
                             % (os.path.basename(path), chunk, ", ".join(sorted(t for t in counts if counts[t] > 0))))


def stream_events(path):
    """Yields the events of `jfr print --json` one by one, without holding the whole text."""
    proc = subprocess.Popen(JFR + ["print", "--json", "--stack-depth", "4096", path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    decoder = json.JSONDecoder()
    buf = ""
    pos = 0
    started = False
    eof = False
    while True:
        if not started:
            i = buf.find('"events": [')
            if i < 0:
                more = proc.stdout.read(1 << 20)
                if not more:
                    break
                buf += more
                continue
            pos = i + len('"events": [')
            started = True
        while pos < len(buf) and buf[pos] in " \t\r\n,":
            pos += 1
        if pos < len(buf) and buf[pos] == "]":
            break
        try:
            event, end = decoder.raw_decode(buf, pos)
        except json.JSONDecodeError:
            if eof:
                raise
            more = proc.stdout.read(1 << 22)
            if not more:
                eof = True
            buf = buf[pos:] + more
            pos = 0
            continue
        pos = end
        yield event
        if pos > (1 << 22):
            buf = buf[pos:]
            pos = 0
    proc.stdout.close()
    err = proc.stderr.read()
    if proc.wait() not in (0,):
        raise RuntimeError("jfr print %s failed: %s" % (path, err[:2000]))


class Recording:
    """The samples of one recording, as the oracle sees them."""

    def __init__(self, path, type_ids):
        self.notes = []
        self.samples = []          # (type, time, tid, folded, weight)
        self.batches = []          # wall-clock batches: (type, start, tid, samples, spacing)
        self.type_total = defaultdict(int)
        self.type_count = defaultdict(int)
        self.has_duration = {}
        names_by_id = {i: n for n, i in type_ids.items()}
        try:
            settings, raw = self.collect(stream_events(path), names_by_id)
        except RuntimeError as e:
            if "must contain at least one element" not in str(e):
                raise
            settings, raw = self.collect(chunk_events(path, self.notes), names_by_id)
        self.weigh(settings, raw)

    def collect(self, events, names_by_id):
        settings = []              # (time, type name, period or None)
        raw = []
        self.flat = {}             # setting name -> last value: async-profiler's names are unique
        self.dd_wall = None        # ddprof's DatadogProfilerConfig.wallInterval (ns; 0 none)
        self.dd_cpu = 0            # and its cpuInterval (ns; 0 none)
        for e in events:
            t = e["type"]
            v = e["values"]
            if t == "datadog.DatadogProfilerConfig":
                # ddprof's wall-clock interval (docs/writers.md), when it says one
                self.dd_wall = duration_ns(v.get("wallInterval")) if v.get("wallInterval") else 0
                if v.get("cpuInterval") and duration_ns(v["cpuInterval"]) > 0:
                    self.dd_cpu = duration_ns(v["cpuInterval"])
                continue
            if t == "jdk.ActiveSetting":
                self.flat[v.get("name")] = v.get("value") or ""
                if v.get("name") in ("period", "interval") and v.get("id") in names_by_id:
                    settings.append((epoch_ns(v["startTime"]), names_by_id[v["id"]], parse_period(v.get("value"))))
                continue
            st = v.get("stackTrace")
            if st is None or "stackTrace" not in v:
                continue
            self.has_duration[t] = "duration" in v
            frames = [frame_name(f) for f in st.get("frames") or []][:2048]
            truncated = st.get("truncated") or len(st.get("frames") or []) > 2048
            names = list(reversed(frames))
            if truncated:
                names.insert(0, "[truncated]")
            if not names:
                names = ["[unknown]"]
            folded = ";".join(n.replace(";", ":").replace("\n", " ").replace("\r", " ") for n in names)
            thread = v.get("sampledThread") if "sampledThread" in v else v.get("eventThread")
            raw.append((t, epoch_ns(v["startTime"]), thread_key(thread), folded, v))
        return settings, raw

    def setting_int(self, name, missing):
        text = self.flat.get(name, "")
        return int(text) if text.lstrip("-").isdigit() else missing

    def wall_interval(self):
        """async-profiler's wall-clock interval (ns) by its settings (arguments.cpp, wallClock.cpp):
        `wall` when >= 0, else `interval` with event `wall`; 50 ms when 0 or absent; IntelliJ's
        `usedWallInterval` when > 0. ddprof's: its config's `wallInterval`, else 50 ms."""
        if self.dd_wall is not None:
            return self.dd_wall or 50 * MS
        wall = self.setting_int("wall", -1)
        ns = wall if wall >= 0 else self.setting_int("interval", 0) if self.flat.get("event") == "wall" else 0
        if self.setting_int("usedWallInterval", 0) > 0:
            ns = self.setting_int("usedWallInterval", 0)
        return ns or 50 * MS

    def is_wall(self, t, v):
        if t in WALL_TYPES:
            return True
        if t != "jdk.ExecutionSample":
            return False
        if self.flat.get("event") == "wall":
            return True
        return self.setting_int("wall", -1) >= 0 and v.get("state") != "STATE_DEFAULT"

    def weigh(self, settings, raw):
        # Periods in force at each sample: the last setting of that type at or before it.
        settings.sort(key=lambda s: s[0])
        period_now = {}
        si = 0
        raw.sort(key=lambda r: r[1])
        for t, time, tid, folded, v in raw:
            while si < len(settings) and settings[si][0] <= time:
                _, name, period = settings[si]
                if period is None:
                    period_now.pop(name, None)
                else:
                    period_now[name] = period
                si += 1
            if self.is_wall(t, v):
                # A batch of N wall-clock samples is N samples of one interval each, taken over
                # its duration when it has one (N - 1 steps), else an interval apart from its
                # start (docs/profile.md, "batches"); each counts in the range of its own time.
                n = v.get("samples") or v.get("samplesCount") or (v.get("weight") if t.startswith("datadog.") else 1)
                n = max(1, min(n or 1, 1 << 20))
                interval = self.wall_interval()
                duration = duration_ns(v.get("duration")) if "duration" in v else 0
                spacing = duration // (n - 1) if duration > 0 and n > 1 else interval
                t += WALL
                if n > 1:
                    self.batches.append((t, time, tid, n, spacing))
                for i in range(n):
                    self.samples.append((t, time + i * spacing, tid, folded, interval))
                self.type_total[t] += n * interval
                self.type_count[t] += n
                continue
            w = self.weight(t, v, period_now)
            # A CPU sampler's event that stands for N samples (ddprof's datadog.ExecutionSample
            # `weight`: the sampling intervals it counts) is N samples of one period each, spread
            # over the event's duration when it has one, else all at its start.
            n = 1
            if t in CPU_TYPES and t.startswith("datadog.") and isinstance(v.get("weight"), int):
                n = max(1, min(v["weight"], 1 << 20))
            duration = duration_ns(v.get("duration")) if n > 1 and "duration" in v else 0
            spacing = duration // (n - 1) if duration > 0 else 0
            for i in range(n):
                self.samples.append((t, time + i * spacing, tid, folded, w))
            self.type_total[t] += n * w
            self.type_count[t] += n

    def weight(self, t, v, period_now):
        if t in PERIOD_TYPES:
            # ddprof's CPU sampler without a period setting: its config's cpuInterval
            # (docs/profile.md), else the JDK's default.
            default = self.dd_cpu if t == "datadog.ExecutionSample" and self.dd_cpu else DEFAULT_PERIOD_NS
            return period_now.get(t, default)
        if t == "jdk.CPUTimeSample":
            d = duration_ns(v.get("samplingPeriod"))
            return d if d > 0 else period_now.get(t, DEFAULT_PERIOD_NS)
        if t in ALLOC_FIELDS:
            for f in ALLOC_FIELDS[t]:
                if isinstance(v.get(f), int) and v[f] >= 0:
                    return v[f]
            return 0
        if "duration" in v:
            return max(0, duration_ns(v["duration"]))
        return 1

    def types(self):
        return sorted({t[:-len(WALL)] if t.endswith(WALL) else t for t in self.type_count})

    def plan(self, kind):
        """{type: "count" | "weight"} for a kind or an event type name, as docs/profile.md says."""
        present = set(self.type_count)
        walls = {t for t in present if t.endswith(WALL)}
        if kind == "cpu":
            return {t: "count" for t in CPU_TYPES & present}
        if kind == "wall":
            if walls:
                return {t: "weight" for t in walls}
            p = {t: "weight" for t in CPU_TYPES & present}
            for k in ("lock", "wait", "park", "sleep", "io"):
                p.update({t: "weight" for t in KIND_TYPES[k] & present})
            return p
        if kind == "alloc":
            if self.type_count.get("jdk.ObjectAllocationSample", 0) > 0:
                return {"jdk.ObjectAllocationSample": "weight"}
            return {t: "weight" for t in {"jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB"} & present}
        if kind == "exception":
            return {t: "count" for t in KIND_TYPES[kind] & present}
        if kind in KIND_TYPES:
            return {t: "weight" for t in KIND_TYPES[kind] & present}
        if kind + WALL in present:
            return {t: "count" for t in (kind, kind + WALL)}
        if kind not in present:
            return {}
        if kind in SAMPLERS:
            return {kind: "count"}
        counted = kind not in ALLOC_FIELDS and not self.has_duration.get(kind)
        return {kind: "count" if counted or self.type_total[kind] == 0 else "weight"}

    def folded(self, kind, start, end, tids=None):
        """The folded lines of [start, end) for the threads @tids (None: all), sorted."""
        if kind == "cpu-waiting":
            raise ValueError("cpu-waiting needs the kernel layer, which jfr print does not have")
        plan = self.plan(kind)
        lines = defaultdict(int)
        for t, time, tid, folded, w in self.samples:
            how = plan.get(t)
            if how is None or time < start or time >= end or (tids is not None and tid not in tids):
                continue
            lines[folded] += 1 if how == "count" else w
        out = [(f, w) for f, w in lines.items() if w > 0]
        out.sort(key=lambda x: (-x[1], x[0].encode()))
        return ["%s %d" % (f, w) for f, w in out]
