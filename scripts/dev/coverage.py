#!/usr/bin/env python3
"""Writes the numbers of docs/coverage.md (what is implemented, what is compared with NVIDIA's
runtime, what is not yet), and the counts the prose of README.md, docs/ and src/lib.rs states
(COUNTS below), so that they stay true, from:

  - dist/coverage-13.txt, dist/coverage-12.txt (scripts/test/abi/check.py, run by
    scripts/test/abi-check.sh): how many of the functions NVIDIA's runtime exports ours exports, and
    those it lacks;
  - dist/exports.tsv (scripts/build.sh), the export manifest (scripts/dev/manifest.py): what ours
    exports, where each export is declared (to list them by area), which NVIDIA's library lacks,
    which a newer release added, which are passthrough! rows;
  - ctest/*.c, ctest/*.cu with ctest/expected/<abi>/<name>.out (or multi<N>/<name>.out, a test of
    several devices on a machine with N GPUs): the functions a test names
    whose output under NVIDIA's runtime is recorded, i.e. compared with NVIDIA's on a GPU
    (the text the ABI's builds compile: of `#if CUDART_VERSION >= 13000` and `< 13000`, and
    of `CT_CLANG_CUDA` (the CUDA sources' 12 builds are clang's), only the branch that
    applies; any other conditional counts whole).

It also checks that ctest/new_calls_null.c calls every export CUDA 13.5 added (the manifest's
`since` 13.5).

The part lies between the lines BEGIN and END below in docs/coverage.md.

  python3 scripts/dev/coverage.py           rewrites that part of docs/coverage.md and the counts
  python3 scripts/dev/coverage.py --check   exit status 1 (and a diff) when any is out of date
"""
import difflib
import glob
import os
import re
import sys

import manifest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BEGIN = "<!-- BEGIN coverage: written by scripts/dev/coverage.py from the symbol report; do not edit -->"
END = "<!-- END coverage -->"
ABIS = ("13", "12")
NVIDIA = {"13": "13.0.96 and 13.5.37", "12": "12.9.79"}
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
# The `__cuda*` entry points clang's generated code calls (what the CUDA tests' 12 builds,
# made by clang 19, import: scripts/gpu/cu12-build.sh's build logs list each program's imports).
CLANG_ENTRY_POINTS = ("__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaRegisterFunction",
                      "__cudaRegisterVar", "__cudaUnregisterFatBinary", "__cudaPushCallConfiguration",
                      "__cudaPopCallConfiguration")


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def coverage(abi):
    """(NVIDIA's count, ours of them, missing names) from dist/coverage-ABI.txt."""
    path = "dist/coverage-%s.txt" % abi
    if not os.path.exists(os.path.join(ROOT, path)):
        sys.exit("readme-coverage: no %s: run scripts/build.sh and scripts/test/abi-check.sh" % path)
    lines = read(path).splitlines()
    m = re.match(r"# libcudart\.so\.%s: (\d+) of NVIDIA's (\d+) exported functions \([0-9.]+%%\); (\d+) missing:" % abi,
                 lines[0] if lines else "")
    if not m:
        sys.exit("readme-coverage: %s: unexpected first line %r" % (path, lines[0] if lines else ""))
    missing = [l.strip() for l in lines[1:] if l.strip()]
    if len(missing) != int(m.group(3)):
        sys.exit("readme-coverage: %s lists %d names, says %s" % (path, len(missing), m.group(3)))
    return int(m.group(2)), int(m.group(1)), missing


MANIFEST = manifest.read()


def exports(abi):
    """What ours exports for the ABI, sorted."""
    return sorted(e.name for e in MANIFEST if abi in e.abis)


def areas():
    """Export name -> the src/api file that declares it."""
    return {e.name: e.file for e in MANIFEST}


COND = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


def condition(kind, expr, abi, clang):
    """True or False for the conditions that tell the builds apart, None for any other."""
    expr = re.sub(r"/\*.*?\*/|//.*", "", expr).strip()
    if kind in ("ifdef", "ifndef"):
        value = condition("if", "defined(%s)" % expr, abi, clang)
        return value if value is None or kind == "ifdef" else not value
    if re.fullmatch(r"CUDART_VERSION\s*>=\s*13000", expr):
        return abi == "13"
    if re.fullmatch(r"CUDART_VERSION\s*<\s*13000", expr):
        return abi != "13"
    if re.fullmatch(r"!?\s*defined\s*\(?\s*CT_CLANG_CUDA\s*\)?", expr):
        return clang != expr.startswith("!")
    if re.fullmatch(r"!?\s*\(?\s*defined\s*\(\s*__clang__\s*\)\s*&&\s*defined\s*\(\s*__CUDA__\s*\)\s*\)?", expr):
        return clang != expr.startswith("!")
    return None


def preprocess(text, abi, clang):
    """The lines of `text` the builds of `abi` compile (conditionals that tell builds apart
    resolved, any other kept whole)."""
    out = []
    stack = []  # per #if: [active around it, value (True/False/None), a branch was taken]
    active = True
    for line in text.splitlines():
        m = COND.match(line)
        if not m:
            if active:
                out.append(line)
            continue
        kind, expr = m.group(1), m.group(2)
        if kind in ("if", "ifdef", "ifndef"):
            value = condition(kind, expr, abi, clang)
            stack.append([active, value, value is True])
        elif not stack:
            continue
        elif kind == "elif":
            frame = stack[-1]
            if frame[2]:
                frame[1] = False
            elif frame[1] is not None:
                frame[1] = condition("if", expr, abi, clang)
                frame[2] = frame[1] is True
        elif kind == "else":
            frame = stack[-1]
            if frame[1] is not None:
                frame[1] = not frame[2]
                frame[2] = True
        else:
            active = stack.pop()[0]
            continue
        frame = stack[-1]
        active = frame[0] and frame[1] is not False
    return "\n".join(out)


def source_with_includes(path, seen, abi, clang):
    """A test's text with the ctest-local headers it includes (recursively), as the builds of
    `abi` compile it."""
    if path in seen or not os.path.exists(os.path.join(ROOT, path)):
        return ""
    seen.add(path)
    text = preprocess(read(path), abi, clang)
    out = [text]
    for inc in re.findall(r'#\s*include\s+"([^"]+)"', text):
        out.append(source_with_includes(os.path.normpath(os.path.join(os.path.dirname(path), inc)), seen, abi, clang))
    return "\n".join(out)


def renames_12():
    """The 12 ABI's renamings written into include/cuda_runtime_api.h by build.rs."""
    text = read("include/cuda_runtime_api.h")
    block = text.split("CUDA 12's header calls these by their newer names.", 1)[1].split("#endif", 1)[0]
    return dict(re.findall(r"#define\s+(\w+)\s+(\w+)", block))


RENAMES_12 = renames_12()


def compared(abi):
    """Names the tests with a recorded NVIDIA output for ABI name, and those tests."""
    names, tests = set(), []
    d, exp = "ctest", "ctest/expected/" + abi
    for f in sorted(os.listdir(os.path.join(ROOT, d))):
        stem, ext = os.path.splitext(f)
        # A test of several devices has its outputs per GPU count (multi<N>/).
        outs = [os.path.join(ROOT, exp, stem + ".out")] + glob.glob(os.path.join(ROOT, exp, "multi*", stem + ".out"))
        if ext not in (".c", ".cu") or not any(os.path.exists(o) for o in outs):
            continue
        tests.append(f)
        text = source_with_includes(d + "/" + f, set(), abi, ext == ".cu" and abi == "12")
        first = text.splitlines()[0] if text else ""
        # Names in string literals are symbols looked up as written (dlsym, entry points);
        # names in the code are what the header makes of them.
        literal = set(IDENT.findall(" ".join(STRING.findall(text))))
        found = set(IDENT.findall(STRING.sub('""', text)))
        # The 12 ABI's header calls some functions by their newer names (include/'s list).
        if abi == "12":
            found = {RENAMES_12.get(n, n) for n in found}
        # Built with the per-thread default stream: a name that has a _ptds/_ptsz export is
        # called by that form only (as the header turns it).
        if "per-thread" in first or re.search(r"#\s*define\s+CUDA_API_PER_THREAD_DEFAULT_STREAM", text):
            ex = set(exports(abi))
            forms = {n: [n + s for s in ("_ptds", "_ptsz") if n + s in ex] for n in found}
            found = {f for n in found for f in (forms[n] or [n])}
        names |= found | literal
    return names, tests


def render():
    where = areas()
    rows, lists, cu_tests = {}, {}, {}
    for abi in ABIS:
        nv, have, missing = coverage(abi)
        ours = exports(abi)
        named, tests = compared(abi)
        nvidias = {e.name for e in MANIFEST if abi in e.abis and e.nvidia}
        funcs = [n for n in ours if n in nvidias]
        registration = [n for n in funcs if n.startswith("__cuda")]
        api = [n for n in funcs if not n.startswith("__cuda")]
        done = [n for n in api if n in named]
        rows[abi] = (nv, have, missing, len(api), len(done), len(tests), len(registration))
        lists[abi] = [n for n in api if n not in named]
        cu_tests[abi] = len([t for t in tests if t.endswith(".cu")])
    out = [BEGIN, "",
           "Generated from the symbol report (`dist/coverage-N.txt`, written by `scripts/test/abi-check.sh`), the",
           "export lists and the tests with NVIDIA's recorded outputs (`ctest/expected/`) by",
           "`scripts/dev/coverage.py`; CI fails when this part is out of date.",
           "",
           "| | CUDA 13 ABI | CUDA 12 ABI |",
           "| --- | --- | --- |"]

    def row(label, f):
        out.append("| %s | %s | %s |" % (label, f("13"), f("12")))

    row("functions NVIDIA's runtime exports", lambda a: "%d (`libcudart.so.%s` %s)" % (rows[a][0], a, NVIDIA[a]))
    row("of them exported by cudart-rs", lambda a: "%d (%.1f%%)" % (rows[a][1], 100.0 * rows[a][1] / rows[a][0]))
    row("missing", lambda a: ", ".join("`%s`" % n for n in rows[a][2]) or "none")
    row("API functions named by a test whose output under NVIDIA's runtime is recorded",
        lambda a: "%d of %d (%d tests)" % (rows[a][4], rows[a][3], rows[a][5]))
    def entry_points(a):
        if not cu_tests[a]:
            return "%d, not compared: no CUDA test has a recorded output for this ABI" % rows[a][6]
        if a == "13":
            return "%d, run by the %d CUDA tests (`ctest/*.cu`) with recorded outputs" % (rows[a][6], cu_tests[a])
        # The CUDA tests' 12 builds are clang's, whose code calls fewer of them.
        return "%d; the %d CUDA tests (`ctest/*.cu`) with recorded outputs are built with clang, whose code calls %d of them: %s" % (
            rows[a][6], cu_tests[a], len(CLANG_ENTRY_POINTS), ", ".join("`%s`" % n for n in CLANG_ENTRY_POINTS))

    row("`__cuda*` entry points of nvcc's generated code", entry_points)
    out.append("")
    out.append("Exported but not yet compared with NVIDIA's runtime on a GPU (no test with a recorded NVIDIA")
    out.append("output names them; they are checked on the stand-in driver and against NVIDIA's headers")
    out.append("only), by source file:")
    out.append("")
    both = sorted(set(lists["13"]) | set(lists["12"]), key=lambda n: (where.get(n, "~"), n))
    if not both:
        out.append("none.")
    by_area = {}
    for n in both:
        tag = "" if n in lists["13"] and n in lists["12"] else (" (13)" if n in lists["13"] else " (12)")
        by_area.setdefault(where.get(n, "(generated)"), []).append("`%s`%s" % (n, tag))
    for area in sorted(by_area):
        out.append("- `%s` (%d): %s" % (area, len(by_area[area]), ", ".join(by_area[area])))
    out += ["", END]
    return "\n".join(out) + "\n"


DOC = "docs/coverage.md"

# The release of the 13 ABI newer than its first whose additions the prose counts, and the test
# that calls each of them (with NULL pointers, before and after initialisation).
NEWER = "13.5"
NEWER_TEST = "ctest/new_calls_null.c"

# The counts the prose states: (file, pattern whose one group is the count, which count; see
# counts()). Whitespace in a pattern matches any, line breaks too.
COUNTS = [
    ("README.md", r"all (\d+) of `libcudart\.so\.13`", "nvidia13"),
    ("README.md", r"\(13\.0's (\d+) and", "nvidia13_first"),
    ("README.md", r"and the (\d+) CUDA 13\.5 adds", "newer13"),
    ("README.md", r"all (\d+) of `libcudart\.so\.12`", "nvidia12"),
    ("docs/coverage.md", r"all (\d+) of `libcudart\.so\.13` 13\.0", "nvidia13_first"),
    ("docs/coverage.md", r"all (\d+) of `libcudart\.so\.12` 12\.9", "nvidia12"),
    ("docs/coverage.md", r"and all (\d+) that CUDA 13\.5's", "newer13"),
    ("docs/architecture.md", r"(\d+) functions are rows", "rows"),
    ("docs/adding-a-function.md", r"\(13\.5 added (\d+)\)", "newer13"),
    ("src/lib.rs", r"the 13 ABI: its (\d+) functions", "nvidia13"),
]


def counts():
    """What the names of COUNTS stand for: NVIDIA's functions per ABI (the symbol report), those
    13.5 added (the manifest's `since`) and so 13.0's, the functions that are passthrough! rows."""
    newer = len([e for e in MANIFEST if "13" in e.abis and e.nvidia and e.since == NEWER])
    nv13, nv12 = coverage("13")[0], coverage("12")[0]
    return {"nvidia13": nv13, "nvidia13_first": nv13 - newer, "newer13": newer, "nvidia12": nv12,
            "rows": len({e.function for e in MANIFEST if e.row})}


def with_counts(path, text, values):
    """`text` of `path` with the counts COUNTS finds in it set to `values`."""
    for f, pattern, key in COUNTS:
        if f != path:
            continue
        m = re.search(re.sub(r" ", r"\\s+", pattern), text)
        if not m:
            sys.exit("coverage: %s: nothing matches %r (COUNTS in scripts/dev/coverage.py)" % (path, pattern))
        text = text[:m.start(1)] + str(values[key]) + text[m.end(1):]
    return text


def uncalled_newer():
    """The exports 13.5 added that NEWER_TEST does not call: by name in its code (outside strings
    and comments), or through dlsym by `subgrid("NAME")` (those no header declares)."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", read(NEWER_TEST), flags=re.S)
    called = set(re.findall(r'subgrid\("(\w+)"\)', text))
    called |= set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", STRING.sub('""', text)))
    return sorted(e.name for e in MANIFEST if "13" in e.abis and e.since == NEWER and e.name not in called)


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit("usage: scripts/dev/coverage.py [--check]")
    values = counts()
    status = 0
    for path in [DOC] + sorted({f for f, _, _ in COUNTS} - {DOC}):
        old = read(path)
        new = old
        if path == DOC:
            if BEGIN not in old or END not in old:
                sys.exit("coverage: %s has no BEGIN/END coverage lines" % DOC)
            start = old.index(BEGIN)
            stop = old.index(END) + len(END) + 1
            new = old[:start] + render() + old[stop:]
        new = with_counts(path, new, values)
        if new == old:
            print("coverage: %s is up to date" % path)
        elif check:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), path,
                                                       path + " (generated)"))
            print("coverage: %s is out of date: run python3 scripts/dev/coverage.py" % path)
            status = 1
        else:
            with open(os.path.join(ROOT, path), "w") as f:
                f.write(new)
            print("coverage: %s written" % path)
    missing = uncalled_newer()
    if missing:
        print("coverage: %s does not call what CUDA %s added: %s" % (NEWER_TEST, NEWER, " ".join(missing)))
        status = 1
    else:
        print("coverage: %s calls every export CUDA %s added" % (NEWER_TEST, NEWER))
    return status


if __name__ == "__main__":
    sys.exit(main())
