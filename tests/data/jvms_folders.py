"""The per-thread folders an index holds (GC/workers/<tid>, JIT/<tid>: docs/attributes.md), as
`jvmscope-history-dump` lists them: the oracle of the views that draw a row per folder (the
window's and `jvmscope-cli render`'s)."""
import re
import subprocess


def thread_folders(dump, index, root, leaf):
    """The thread keys below @root whose @leaf attribute holds a value at some time."""
    text = subprocess.run([dump, "-a", root, index], capture_output=True, text=True, check=True).stdout
    keys = set()
    for line in text.splitlines():
        parts = line.split("\t")
        m = re.match(r"^%s/([^/]+)/%s$" % (re.escape(root), re.escape(leaf)), parts[0])
        if m and len(parts) > 3 and parts[3] != "null":
            keys.add(m.group(1))
    return keys
