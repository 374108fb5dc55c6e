#!/usr/bin/env python3
"""Compares `jvmscope-cli print --json` with `jfr print --json`, field by field, for each FILE.

Both are run with the same --stack-depth (64, all frames of the JDK's default depth). Events
are compared as multisets (each event rendered canonically and sorted), since the two tools
may order events with equal start times differently.

Normalization, and only this: numbers that either side prints as a floating-point value are
compared after rounding both to 6 significant digits (jvmscope prints the shortest decimal that
reads back as the same float, JDK 17's Float.toString sometimes prints more digits). Every
other value (integers, strings, booleans, nulls, date-times, durations, nesting, field names
and order) must be identical.

One known difference of the JDK's tool is allowed and reported: HotSpot sometimes writes an
event just after a chunk rotation that refers to a constant (a stack trace) serialized only in
an earlier chunk. Our reader resolves references within the event's own chunk, as the format
says, and prints null. The JDK's reader caches the last key and value of each top-level
constant-pool field of each event type (ParserFactory.EventValueConstantParser.lastKey; the
parsers live on across chunks with the same metadata), so when the previous event of the same
type used the same key it prints the old chunk's value. An event that differs only by top-level
fields null on our side is taken for that case only when all of this holds, and fails
otherwise:
  - the file has several chunks (its chunk headers tile it), and the event is not in the first:
    `jfr print` prints each chunk's events together, chunk after chunk, so its position in the
    JDK's output says its chunk, once `jfr print` has counted the events of each chunk cut out
    into a file of its own;
  - the cache holds one value: the events of one chunk, type and field so taken all have the
    same value, and that value is the field's value in an event of the same type in the
    nearest earlier chunk that has events of that type.
They are counted in a note. Prints TAP."""
import json
import os
import struct
import subprocess
import sys
import tempfile

# The JDK tool, started lean: it runs once per file and JVM start-up dominates.
JFR = ["jfr", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-J-Xss4m"]
from collections import Counter, defaultdict


def normalize(v):
    if isinstance(v, float):
        return float(f"{v:.6g}")
    if isinstance(v, dict):
        # keep field order: it is part of what must match
        return [(k, normalize(x)) for k, x in v.items()]
    if isinstance(v, list):
        return [normalize(x) for x in v]
    return v


def events(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 3):
        raise RuntimeError(f"{cmd[0]} exited {proc.returncode}: {proc.stderr[:2000]}")
    return json.loads(proc.stdout)["recording"]["events"], proc.stderr


def canonical(events_list):
    by_type = defaultdict(Counter)
    for e in events_list:
        by_type[e["type"]][json.dumps(normalize(e["values"]))] += 1
    return by_type


def null_filled(ours_event, jfr_event):
    """ours_event with its null top-level fields taken from jfr_event, if only those differ."""
    if [k for k, _ in ours_event] != [k for k, _ in jfr_event]:
        return None
    filled = [[k, v2 if v1 is None else v1] for (k, v1), (_, v2) in zip(ours_event, jfr_event)]
    return filled if filled == jfr_event else None


def match_dangling(only_ours, only_theirs):
    """Pairs events that differ only by top-level fields null in ours: a list of (ours, theirs)
    canonical keys, or None when some difference is of another kind."""
    theirs = [(k, json.loads(k)) for k in only_theirs.elements()]
    used = [False] * len(theirs)
    pairs = []
    for k in only_ours.elements():
        mine = json.loads(k)
        for i, (key, other) in enumerate(theirs):
            if not used[i] and null_filled(mine, other) is not None:
                used[i] = True
                pairs.append((k, key))
                break
        else:
            return None
    return pairs if all(used) else None


def chunk_spans(path):
    """(offset, size) of each chunk of a JFR file, from the chunk headers (big-endian: the magic,
    the version, then the chunk's size at offset 8); None when they do not tile the file."""
    with open(path, "rb") as f:
        data = f.read()
    spans, off = [], 0
    while off + 16 <= len(data) and data[off:off + 4] == b"FLR\0":
        size = struct.unpack(">q", data[off + 8:off + 16])[0]
        if size < 16 or off + size > len(data):
            return None
        spans.append((off, size))
        off += size
    return spans if off == len(data) else None


def chunk_of_events(path, spans, extra):
    """The chunk of each event of `jfr print` of the whole file, by position: the JDK prints a
    chunk's events together (sorted within it), chunk after chunk; how many each chunk has is
    counted by `jfr print` of that chunk cut out alone."""
    with open(path, "rb") as f:
        data = f.read()
    chunk_of = []
    with tempfile.TemporaryDirectory(prefix="jvms-chunks-") as tmp:
        for k, (off, size) in enumerate(spans):
            part = os.path.join(tmp, f"chunk-{k}.jfr")
            with open(part, "wb") as out:
                out.write(data[off:off + size])
            evs, _ = events([*JFR, "print", "--json", "--stack-depth", "0", *extra, part])
            chunk_of += [k] * len(evs)
    return chunk_of


def cache_explains(path, extra, theirs, pairs):
    """Problems with taking @pairs (ours, theirs canonical keys) for the JDK's cross-chunk
    constant cache; empty when each is that case."""
    spans = chunk_spans(path)
    if spans is None or len(spans) < 2:
        return [f"{len(pairs)} events with top-level fields null in ours only, in a file of one chunk"]
    chunk_of = chunk_of_events(path, spans, extra)
    if len(chunk_of) != len(theirs):
        return [f"jfr print: {len(theirs)} events in the whole file, {len(chunk_of)} in its chunks alone"]
    rendered = [json.dumps(normalize(e["values"])) for e in theirs]
    where = defaultdict(list)  # canonical key -> positions in the JDK's output
    for i, key in enumerate(rendered):
        where[key].append(i)
    problems = []
    stale = defaultdict(set)  # (chunk, type, field) -> the values the cache gave
    first = Counter()         # (type, field) -> events of the first chunk
    for mine, key in pairs:
        i = where[key].pop(0)
        t, chunk = theirs[i]["type"], chunk_of[i]
        for (k, v1), (_, v2) in zip(json.loads(mine), json.loads(key)):
            if v1 is None and v2 is not None:
                if chunk == 0:
                    first[(t, k)] += 1
                else:
                    stale[(chunk, t, k)].add(json.dumps(v2))
    for (t, k), n in sorted(first.items()):
        problems.append(f"{t}.{k}: null in ours only in {n} events of the first chunk")
    for (chunk, t, k), values in sorted(stale.items()):
        earlier = [c for c, e in zip(chunk_of, theirs) if c < chunk and e["type"] == t]
        held = {json.dumps(dict(normalize(e["values"])).get(k)) for c, e in zip(chunk_of, theirs)
                if earlier and c == max(earlier) and e["type"] == t}
        if len(values) != 1 or not values <= held:
            problems.append(f"chunk {chunk}: {t}.{k} null in ours only with {len(values)} values, not "
                            "the one that field had in an earlier chunk's events of that type")
    return problems


NOTES = []


def compare(cli, path, extra):
    ours, stderr = events([cli, "print", "--json", "--stack-depth", "64", *extra, path])
    theirs, _ = events([*JFR, "print", "--json", "--stack-depth", "64", *extra, path])
    a, b = canonical(ours), canonical(theirs)
    problems = []
    pairs = []
    for t in sorted(set(a) | set(b)):
        if a[t] == b[t]:
            continue
        only_ours = a[t] - b[t]
        only_theirs = b[t] - a[t]
        matched = (match_dangling(only_ours, only_theirs)
                   if sum(only_ours.values()) == sum(only_theirs.values()) else None)
        if matched:
            pairs += matched
            continue
        problems.append(f"{t}: {sum(a[t].values())} events in ours, {sum(b[t].values())} in jfr; "
                        f"{sum(only_ours.values())} only in ours, {sum(only_theirs.values())} only in jfr")
        if only_ours and only_theirs:
            x = json.loads(next(iter(only_ours)))
            y = json.loads(next(iter(only_theirs)))
            for (k1, v1), (k2, v2) in zip(x, y):
                if (k1, v1) != (k2, v2):
                    problems.append(f"  first difference: ours {k1}={json.dumps(v1)[:300]}")
                    problems.append(f"                    jfr  {k2}={json.dumps(v2)[:300]}")
                    break
    if pairs:
        why = cache_explains(path, extra, theirs, pairs)
        if why:
            problems += ["events whose top-level fields are null in ours only, not as the JDK's "
                         "constant cache makes them:"] + why
        else:
            NOTES.append(f"{os.path.basename(path)}: {len(pairs)} events with a constant the JDK took "
                         "from an earlier chunk (its per-field cache); null in ours")
    return problems, len(theirs), stderr


def main():
    cli = sys.argv[1]
    args = sys.argv[2:]
    extra = []
    if args and args[0].startswith("--events="):
        extra = ["--events", args.pop(0).split("=", 1)[1]]
    print(f"1..{len(args)}")
    failed = 0
    for i, path in enumerate(args, 1):
        try:
            problems, n, stderr = compare(cli, path, extra)
        except Exception as e:  # noqa: BLE001 - reported as a failure
            problems, n, stderr = [str(e)], 0, ""
        for note in NOTES:
            print(f"# note: {note}")
        NOTES.clear()
        if problems:
            failed += 1
            print(f"not ok {i} - {path}")
            for p in problems[:60]:
                print(f"# {p}")
        else:
            print(f"ok {i} - {path}: {n} events, every field equal")
        for line in stderr.splitlines()[:5]:
            print(f"# stderr: {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
