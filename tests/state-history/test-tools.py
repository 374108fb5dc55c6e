#!/usr/bin/env python3
"""jvmscope-history-stat and -dump on a sample index (TAP): counts agree with each other, the
attribute and time filters select what they say, and a damaged file is an error naming it."""
import subprocess, sys, tempfile, os

maker, stat, dump = sys.argv[1:4]
n = 0
def ok(cond, what):
    global n
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, what))
    return cond

with tempfile.TemporaryDirectory() as d:
    f = os.path.join(d, "sample.hist")
    subprocess.run([maker, "--make-sample", f], check=True)
    s = subprocess.run([stat, f], capture_output=True, text=True)
    ok(s.returncode == 0, "stat succeeds")
    fields = dict(l.split(":", 1) for l in s.stdout.splitlines() if ":" in l and not l.startswith(" "))
    n_iv = int(fields["intervals"].strip())
    ok(n_iv > 2000, "stat counts the intervals")
    ok("bytes/interval" in fields and "lz4 ratio" in s.stdout, "stat gives sizes")
    ok(int(fields["attributes"].strip()) == 1 + 16 + 16, "stat counts the attributes")
    dmp = subprocess.run([dump, f], capture_output=True, text=True)
    lines = [l for l in dmp.stdout.splitlines() if not l.startswith("#")]
    ok(dmp.returncode == 0 and len(lines) == n_iv, "dump prints every interval once")
    ok(all(len(l.split("\t")) == 5 for l in lines), "dump lines have five fields")
    one = subprocess.run([dump, "--attribute", "Threads/3/state", f], capture_output=True, text=True)
    sel = [l for l in one.stdout.splitlines() if not l.startswith("#")]
    ok(sel and all(l.startswith("Threads/3/state\t") for l in sel)
       and sel == [l for l in lines if l.startswith("Threads/3/state\t")], "--attribute selects one")
    win = subprocess.run([dump, "--from", "5000", "--to", "6000", f], capture_output=True, text=True)
    w = [l.split("\t") for l in win.stdout.splitlines() if not l.startswith("#")]
    expect = [l.split("\t") for l in lines if int(l.split("\t")[2]) > 5000 and int(l.split("\t")[1]) <= 6000]
    ok(w == expect and len(w) > 0, "--from/--to select the intersecting intervals")
    data = bytearray(open(f, "rb").read())
    data[len(data) // 3] ^= 0x10
    open(f, "wb").write(data)
    bad = subprocess.run([stat, f], capture_output=True, text=True)
    ok(bad.returncode == 1 and f in bad.stderr, "stat reports damage naming the file")
print("1..%d" % n)
