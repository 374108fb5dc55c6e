#!/usr/bin/env python3
"""Every reader on damaged files under an address-space limit (issue 8, item 2).

Damaged inputs are made here, deterministically, from the shared recordings and the bundled
sample: JFR, perf.data and CTF streams cut at several points and with bytes flipped, size fields
made huge, and a bundle whose bundle.json and recording.jfr are damaged. Each goes through
`jvmscope-cli summary` and `jvmscope-cli index` under `prlimit --as=536870912` (RLIMIT_AS
512 MiB): the outcome must be success, a partial result with a warning, or an error exit whose
message names the file, never a signal (SIGSEGV, SIGBUS, SIGABRT from a failed allocation).

AddressSanitizer reserves terabytes of shadow address space, so a sanitized build cannot run
under RLIMIT_AS at all: there (--no-limit) the same inputs run without the limit, which still
checks for crashes, leaks and undefined behaviour on every one of them.
"""
import argparse
import gzip
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

from jvms_tap import Tap

ap = argparse.ArgumentParser()
ap.add_argument("--cli", required=True)
ap.add_argument("--shared", required=True)
ap.add_argument("--source-root", required=True)
ap.add_argument("--no-limit", action="store_true")
args = ap.parse_args()

LIMIT = 512 * 1024 * 1024
tap = Tap()
rng = random.Random(20261124)
tmp = tempfile.mkdtemp(prefix="jvms-rlimit-")


def flipped(data, n, lo=0, hi=None):
    b = bytearray(data)
    hi = len(b) if hi is None else min(hi, len(b))
    for _ in range(n):
        b[rng.randrange(lo, hi)] ^= 1 << rng.randrange(8)
    return bytes(b)


def patched(data, offset, fmt, value):
    b = bytearray(data)
    struct.pack_into(fmt, b, offset, value)
    return bytes(b)


def write(name, data):
    p = os.path.join(tmp, name)
    with open(p, "wb") as f:
        f.write(data)
    return p


try:
    cases = []  # (name, path, what the message must name)

    # ---------------------------------------------------------------- JFR
    with gzip.open(os.path.join(args.shared, "testdata", "jfr", "example.jfr.gz")) as f:
        jfr = f.read()
    n = len(jfr)
    for frac in (0.02, 0.35, 0.7, 0.97):
        cases.append(write("cut-%d.jfr" % int(frac * 100), jfr[:int(n * frac)]))
    for i in range(4):
        cases.append(write("flip-%d.jfr" % i, flipped(jfr, 16)))
    # Chunk header (docs/formats.md): magic, version, then chunk size, constant pool offset,
    # metadata offset, all big-endian u64: made absurd.
    cases.append(write("huge-chunk-size.jfr", patched(jfr, 8, ">Q", (1 << 62))))
    cases.append(write("huge-metadata-offset.jfr", patched(jfr, 24, ">Q", (1 << 40))))
    cases.append(write("flip-metadata-region.jfr", flipped(jfr, 64, n // 2, n)))

    # ---------------------------------------------------------------- perf.data
    perf_src = os.path.join(args.source_root, "data", "sample", "sample.jvmtrace", "kernel.perf.data")
    with open(perf_src, "rb") as f:
        perf = f.read()
    n = len(perf)
    for frac in (0.01, 0.5, 0.99):
        cases.append(write("cut-%d.perf.data" % int(frac * 100), perf[:int(n * frac)]))
    cases.append(write("flip-header.perf.data", flipped(perf, 24, 0, 2048)))
    cases.append(write("flip-records.perf.data", flipped(perf, 64, 2048)))
    # perf_file_header: attr_size at 16, attrs {offset, size} at 24, data {offset, size} at 40.
    cases.append(write("huge-attrs.perf.data", patched(perf, 32, "<Q", (1 << 60))))
    cases.append(write("huge-data-size.perf.data", patched(perf, 48, "<Q", (1 << 62))))
    cases.append(write("features-past-end.perf.data", patched(perf, 48, "<Q", n * 4)))

    # ---------------------------------------------------------------- CTF (LTTng) folders
    ctf_src = os.path.join(args.shared, "testdata", "ctf", "synctraces", "scp_src")
    with open(os.path.join(ctf_src, "channel0_0"), "rb") as f:
        stream = f.read()
    with open(os.path.join(ctf_src, "metadata"), "rb") as f:
        metadata = f.read()

    def ctf(name, stream_bytes, metadata_bytes=metadata):
        d = os.path.join(tmp, name)
        os.makedirs(d)
        with open(os.path.join(d, "channel0_0"), "wb") as f:
            f.write(stream_bytes)
        with open(os.path.join(d, "metadata"), "wb") as f:
            f.write(metadata_bytes)
        return d

    cases.append(ctf("ctf-cut", stream[:len(stream) // 3 + 17]))
    cases.append(ctf("ctf-flip", flipped(stream, 48)))
    zero = bytearray(stream)
    zero[len(zero) // 2:len(zero) // 2 + 8192] = bytes(8192)
    cases.append(ctf("ctf-zero-block", bytes(zero)))
    cases.append(ctf("ctf-metadata-cut", stream, metadata[:len(metadata) // 2]))

    # ---------------------------------------------------------------- bundle
    bundle_src = os.path.join(args.source_root, "data", "sample", "sample.jvmtrace")

    def bundle(name, json_bytes=None, jfr_cut=None):
        d = os.path.join(tmp, name + ".jvmtrace")
        shutil.copytree(bundle_src, d)
        if json_bytes is not None:
            with open(os.path.join(d, "bundle.json"), "wb") as f:
                f.write(json_bytes)
        if jfr_cut is not None:
            p = os.path.join(d, "recording.jfr")
            with open(p, "rb") as f:
                data = f.read()
            with open(p, "wb") as f:
                f.write(data[:int(len(data) * jfr_cut)])
        return d

    with open(os.path.join(bundle_src, "bundle.json"), "rb") as f:
        bj = f.read()
    cases.append(bundle("bundle-json-garbage", flipped(bj, 40)))
    cases.append(bundle("bundle-json-huge-numbers", bj.replace(b": 0", b": 99999999999999999999999999")))
    cases.append(bundle("bundle-jfr-cut", jfr_cut=0.4))

    tap.note("%d damaged inputs, %s" % (len(cases), "no address-space limit (sanitized build)" if args.no_limit
                                        else "each run under RLIMIT_AS = %d bytes" % LIMIT))

    if not args.no_limit:
        # The limit really binds: a 768 MiB allocation fails under it.
        r = subprocess.run(["prlimit", "--as=%d" % LIMIT, "--", sys.executable, "-c", "bytearray(768 << 20)"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        tap.check(r.returncode != 0 and "MemoryError" in r.stderr, "prlimit --as binds (768 MiB refused)", r.stderr)

    for path in cases:
        name = os.path.basename(path)
        for cmd in (["summary", path], ["index", "--cache-dir", os.path.join(tmp, "cache"), path]):
            argv = [args.cli] + cmd
            if not args.no_limit:
                argv = ["prlimit", "--as=%d" % LIMIT, "--"] + argv
            r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               errors="replace", env=dict(os.environ, LC_ALL="C"), timeout=240)
            # 0: read whole; 3: partial (a warning says what is missing); other non-zero: an
            # error, which must name the input. Killed by a signal (or the shell's 128+n) is a crash.
            crashed = r.returncode < 0 or r.returncode >= 128
            said = r.stderr.strip()
            if r.returncode == 0:
                ok = True
            elif r.returncode == 3:
                ok = name in said
            else:
                ok = not crashed and name in said
            # Forty flipped bits leave no valid JSON: never a clean status without a warning
            # that names the manifest.
            if name.startswith("bundle-json-garbage"):
                ok = ok and "bundle.json" in said
            tap.check(ok, "%s %s: status %d%s" % (cmd[0], name, r.returncode,
                                                 ", " + said.splitlines()[-1][:160] if said else ""),
                      said[-2000:])
finally:
    shutil.rmtree(tmp, ignore_errors=True)

tap.done()
