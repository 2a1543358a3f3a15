"""What the process-level observation checks share (procs.py, ends.py): the command line,
the environment of a run (the observation variables cleared, the stand-in driver), scratch
folders, building ctest/observe/procs.c, and readers of the reports' text."""
import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile

VARS = ("CUDART_RS_TRACE", "CUDART_RS_TRACE_FILE", "CUDART_RS_SUMMARY", "CUDART_RS_SUMMARY_DATA", "CUDART_RS_LEAKS",
        "CUDART_RS_TIMELINE", "CUDART_RS_CHECKED", "CUDART_RS_RECORD", "CUDART_RS_LOG", "LD_PRELOAD", "RANK", "LOCAL_RANK")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def options(doc):
    """The command line both checks take."""
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument("--lib", required=True, help="our libcudart.so.N")
    ap.add_argument("--cli", required=True, help="the cudart-rs command")
    ap.add_argument("--include", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--abi", default="13")
    ap.add_argument("--driver")
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--observe", help="ctest/observe/observe.c, built against the same library")
    ap.add_argument("--label", default="")
    opt = ap.parse_args()
    os.makedirs(opt.work, exist_ok=True)
    for k in ("work", "lib", "cli", "include", "driver", "observe"):
        if getattr(opt, k):
            setattr(opt, k, os.path.abspath(getattr(opt, k)))
    opt.libdir = os.path.dirname(os.path.realpath(opt.lib))
    return opt


class Kit:
    def __init__(self, opt):
        self.opt = opt

    def env(self, **kw):
        e = {k: v for k, v in os.environ.items() if k not in VARS}
        if self.opt.driver:
            e["CUDART_RS_DRIVER"] = self.opt.driver
        e.update({k: str(v) for k, v in kw.items()})
        return e

    def fresh(self, *names):
        d = tempfile.mkdtemp(dir=self.opt.work, prefix="run-")
        return d, [os.path.join(d, n) for n in names]

    def build(self, dest, libdir, extra=()):
        """ctest/observe/procs.c, linked to a copy of the library in `libdir`."""
        os.makedirs(libdir, exist_ok=True)
        name = os.path.basename(self.opt.lib)
        shutil.copy(self.opt.lib, os.path.join(libdir, name))
        link = os.path.join(libdir, "libcudart.so")
        if not os.path.lexists(link):
            os.symlink(name, link)
        defs = ["-DCUDART_RS_ABI12"] if self.opt.abi == "12" else []
        p = sh(["gcc", "-std=gnu11", "-O1", "-Wall", *defs, "-I", self.opt.include, "-o", dest, os.path.join(ROOT, "ctest/observe/procs.c"),
                "-L", libdir, "-lcudart", "-Wl,-rpath," + libdir, "-pthread", *extra])
        if p.returncode != 0:
            print(p.stdout + p.stderr)
        return p.returncode == 0

    def run(self, *args, env=None, **kw):
        """`cudart-rs run --lib LIBDIR --abi ABI ARGS...`."""
        return sh([self.opt.cli, "run", "--lib", self.opt.libdir, "--abi", self.opt.abi, *args], env=env or self.env(), **kw)


def sh(args, **kw):
    kw.setdefault("timeout", 120)
    return subprocess.run(args, capture_output=True, text=True, **kw)


def read(p):
    try:
        with open(p) as f:
            return f.read()
    except OSError:
        return ""


def leaked(out):
    """pid -> bytes from the program's `leaked PID BYTES` lines."""
    return {int(m.group(1)): int(m.group(2)) for m in re.finditer(r"^leaked (\d+) (\d+)$", out, re.M)}


def summary_pids(text):
    return [int(m.group(1)) for m in re.finditer(r"^==== cudart-rs summary \(pid (\d+), ", text, re.M)]


def leak_blocks(text):
    """pid -> the bytes its LEAK SUMMARY line reports."""
    out, pid = {}, None
    for line in text.splitlines():
        m = re.match(r"^========= cudart-rs leak check \(pid (\d+), ", line)
        if m:
            pid = int(m.group(1))
        m = re.match(r"^========= LEAK SUMMARY: ([\d,]+) bytes leaked", line)
        if m and pid is not None:
            out[pid] = int(m.group(1).replace(",", ""))
    return out


def rows_of(block):
    """function -> calls, from one summary's table."""
    rows = {}
    for m in re.finditer(r"^\s+\d+\.\d\s+[\d,]+\s+([\d,]+)\s+[\d,]+\s+[\d,.]+\s+[\d,]+\s+[\d,]+\s+[\d,.]+\s+(\w+)$", block, re.M):
        rows[m.group(2)] = int(m.group(1).replace(",", ""))
    return rows


def blocks(text):
    """pid -> its summary's text."""
    parts = re.split(r"(?m)^(?===== cudart-rs summary \(pid )", text)
    out = {}
    for p in parts:
        m = re.match(r"==== cudart-rs summary \(pid (\d+), ", p)
        if m:
            out[int(m.group(1))] = p
    return out


def listed(text):
    """(pid, calls) of each line of the table of processes of a summary of several."""
    return [(int(m.group(1)), int(m.group(2).replace(",", ""))) for m in re.finditer(r"^\s+(?:\S+\s+)?(\d+)\s+(?:\d+|-)\s+([\d,]+)\s+[\d,]+\s+[\d,]+\s+[\d,]+\s+[\d,]+\s+\S", text, re.M)]


def timeline(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception as e:  # noqa: BLE001
        return "not JSON: %s" % e
