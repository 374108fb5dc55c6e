#!/usr/bin/env python3
"""Overwrites, in place and byte for byte, the file paths of this machine's other programs that
a system-wide perf recording carries (exec file names, mapped files): every NUL-terminated
string starting with /work/, /home/ or /root/ becomes /x/xxx... of the same length, so every
record keeps its size and the file stays valid. Used by record-sample.sh on the sample only."""
import re
import sys

PATH = re.compile(rb"/(?:work|home|root)/[\x21-\x7e]*")


def scrub(path):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    n = 0
    for m in PATH.finditer(bytes(data)):
        a, b = m.span()
        data[a:b] = (b"/x/" + b"x" * (b - a))[: b - a]
        n += 1
    with open(path, "wb") as f:
        f.write(data)
    print("%s: %d paths overwritten" % (path, n))


for p in sys.argv[1:]:
    scrub(p)
