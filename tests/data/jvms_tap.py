"""A few lines of TAP (Test Anything Protocol) so that meson reports each check by name."""
import sys


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, ok, name, detail=""):
        self.n += 1
        print(("ok %d - %s" if ok else "not ok %d - %s") % (self.n, name))
        if not ok:
            self.failed += 1
            for line in str(detail).rstrip().splitlines():
                print("# " + line)
        sys.stdout.flush()
        return ok

    def note(self, text):
        for line in str(text).splitlines():
            print("# " + line)

    def done(self):
        print("1..%d" % self.n)
        sys.exit(1 if self.failed else 0)
