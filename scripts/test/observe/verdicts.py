"""PASS/FAIL/SKIP lines of the observation checks, and their last line: what check.py,
procs.py and ddp.py share (scripts/test/observe-check.sh counts the lines)."""
import sys


class Verdicts:
    def __init__(self, name, label="", limit=2000):
        """limit: the most characters of a failure's detail shown (None: all of it)."""
        self.name, self.label, self.limit = name, label, limit
        self.prefix = label + " " if label else ""
        self.passed = self.failed = self.skipped = 0

    def check(self, what, ok, detail=""):
        if ok:
            self.passed += 1
            print("PASS %s%s" % (self.prefix, what))
        else:
            self.failed += 1
            print("FAIL %s%s%s" % (self.prefix, what, (": " + str(detail)[: self.limit]) if detail else ""))
        return ok

    def skip(self, what, why):
        self.skipped += 1
        print("SKIP %s%s: skipped: %s" % (self.prefix, what, why))

    def done(self):
        """The last line, and the exit status: 1 if a check failed."""
        print("%s %s: %d passed, %d failed, %d skipped" % (self.name, self.label, self.passed, self.failed, self.skipped))
        sys.exit(1 if self.failed else 0)
