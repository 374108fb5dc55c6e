"""The report's safepoint accounting against the JFR recording itself (`jfr print --json`).

A Java thread is stopped only inside a safepoint, and only from the arm (the start of
jdk.SafepointStateSynchronization, else of jdk.SafepointBegin) to the end of jdk.SafepointEnd:
so its gc + safepoint time can never exceed the sum of those windows over the range, and its gc
time never the sum over the GC safepoints. The safepoint evidence names operations as
jdk.ExecuteVMOperation names them, never "Safepoint end" or a thread.
"""
import datetime
import json
import re
import subprocess

GC_WORDS = ("GC", "Collect", "G1", "Shenandoah", "ZMark", "ZRelocate", "Remark", "Cleanup")
EVENTS = ("jdk.SafepointBegin", "jdk.SafepointStateSynchronization", "jdk.ExecuteVMOperation",
          "jdk.SafepointEnd", "jdk.GCPhasePause")


def iso_to_ns(s):
    m = re.match(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z$", s)
    base = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
    return int(base.timestamp()) * 1_000_000_000 + int((m.group(2) or "").ljust(9, "0")[:9])


def duration_to_ns(s):
    m = re.match(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?$", s)
    h, mi, sec, frac = m.groups()
    ns = (int(h or 0) * 3600 + int(mi or 0) * 60 + int(sec or 0)) * 1_000_000_000
    return ns + int((frac or "").ljust(9, "0")[:9] or 0)


def safepoints(jfr):
    """[{id, start, end, stop_start, operation, gc}] of the recording, by start, and the names of
    every VM operation it recorded."""
    out = subprocess.run(["jfr", "print", "--json", "--events", ",".join(EVENTS), jfr],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    by_id, pauses, operations = {}, [], set()
    for e in json.loads(out)["recording"]["events"]:
        v = e["values"]
        start = iso_to_ns(v["startTime"])
        end = start + duration_to_ns(v["duration"])
        if e["type"] == "jdk.GCPhasePause":
            pauses.append((start, end))
            continue
        if e["type"] == "jdk.ExecuteVMOperation":
            operations.add(v["operation"])
            if not v.get("safepoint"):
                continue
        by_id.setdefault(v["safepointId"], {})[e["type"]] = (start, end, v.get("operation"))
    result = []
    for sid, ev in by_id.items():
        if "jdk.ExecuteVMOperation" not in ev and "jdk.SafepointEnd" not in ev:
            continue  # only begun (the one that stops the recording): nothing is stopped
        start = min(x[0] for x in ev.values())
        end = max(x[1] for x in ev.values())
        arm = next(ev[k][0] for k in ("jdk.SafepointStateSynchronization", "jdk.SafepointBegin",
                                      "jdk.ExecuteVMOperation", "jdk.SafepointEnd") if k in ev)
        op = ev.get("jdk.ExecuteVMOperation", (0, 0, None))[2]
        gc = (op is not None and any(w in op for w in GC_WORDS)) or any(
            ps < end and pe > start for ps, pe in pauses)
        result.append({"id": sid, "start": start, "end": end, "stop_start": arm, "operation": op, "gc": gc})
    return sorted(result, key=lambda s: s["start"]), operations


def check(tap, label, report, jfr):
    """The numbers-add-up checks of a report (analyze --json) against its recording. Returns the
    recording's safepoints and their stop windows' sum over the report's range (ns)."""
    sps, ops = safepoints(jfr)
    lo, hi = report["range"]["from_ns"], report["range"]["to_ns"]

    def clipped(a, b):
        return max(0, min(b, hi) - max(a, lo))

    stop_all = sum(clipped(s["stop_start"], s["end"]) for s in sps)
    stop_gc = sum(clipped(s["stop_start"], s["end"]) for s in sps if s["gc"])
    whole_gc = sum(clipped(s["start"], s["end"]) for s in sps if s["gc"])
    # Times are exact nanoseconds from JFR in both; a nanosecond per safepoint for rounding.
    slack = len(sps) + 1
    over = []
    for t in report["threads"]:
        if t["kind"] != "java":
            continue
        gc, sp = t["lost"].get("gc", 0), t["lost"].get("safepoint", 0)
        if gc + sp > stop_all + slack or gc > stop_gc + slack:
            over.append((t["name"], gc, sp))
    tap.check(not over,
              "%s: no Java thread is stopped longer than the safepoints' stop windows (%d safepoints, "
              "%.3f ms, of which GC %.3f ms; GC safepoints whole %.3f ms)"
              % (label, len(sps), stop_all / 1e6, stop_gc / 1e6, whole_gc / 1e6), over)
    named = [o["operation"] for f in report["findings"] if f["kind"] == "safepoint"
             for o in f["evidence"].get("operations", [])]
    tap.check(all(o in ops or o == "(operation not recorded)" for o in named),
              "%s: the safepoint evidence names VM operations only" % label, (named, sorted(o for o in ops if o)))
    return {"safepoints": sps, "stop_all": stop_all, "stop_gc": stop_gc, "slack": slack}
