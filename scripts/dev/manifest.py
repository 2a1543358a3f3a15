"""The export manifest: every export of either ABI with what its declaration says of it, as
build.rs writes it (build/manifest.rs: $OUT_DIR/exports.tsv; scripts/build.sh copies it to
dist/exports.tsv). Read by scripts/dev/coverage.py and scripts/test/abi/check.py (which import
this file) and scripts/dev/new-exports.sh.

  import manifest
  rows = manifest.read()                  # dist/exports.tsv, or manifest.read(path)
  [r.name for r in rows if "13" in r.abis and r.since]
"""
import collections
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT = os.path.join(ROOT, "dist", "exports.tsv")
COLUMNS = ("name", "function", "per_thread", "file", "family", "abis", "nvidia", "since", "row")

# One line: the symbol; the function it is (itself, or the one whose per-thread form it is); the
# declaration's per-thread form (None: none); its file of src/api; its observation family; the
# ABIs that export it ("13", "12"); whether NVIDIA's library exports it too; the release that
# added it when newer than the ABI's first ("13.5"; None: that first); whether it is a row of a
# passthrough! table.
Export = collections.namedtuple("Export", COLUMNS)


def read(path=DEFAULT):
    """The manifest's lines, as Exports; exits with a message when there is none."""
    if not os.path.exists(path):
        sys.exit("no export manifest %s: run scripts/build.sh" % os.path.relpath(path, ROOT))
    out = []
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or lines[0].lstrip("# ").split("\t") != list(COLUMNS):
        sys.exit("%s: not an export manifest (first line %r)" % (path, lines[0] if lines else ""))
    for line in lines[1:]:
        v = line.split("\t")
        none = lambda s: None if s == "-" else s
        out.append(Export(v[0], v[1], none(v[2]), v[3], v[4], tuple(v[5].split(",")), v[6] == "yes",
                          none(v[7]), v[8] == "yes"))
    return out
