#!/usr/bin/env python3
"""Checks the observation modes of cudart-rs with ctest/observe/observe.c (built by
scripts/test/observe-check.sh): runs it with each environment variable and checks the call trace,
the summary, the leak report, the timeline and checked mode against what the program says it
did (its EXPECT and LEAK lines) and against each other.

  check.py --exe PATH --work DIR [--driver PATH] [--gpu]

--driver: the driver library to load (CUDART_RS_DRIVER; the stand-in); none on a GPU.
--gpu: the kernel must run (it cannot on the stand-in).
Prints PASS/FAIL per check; exit status 1 if any failed.
"""
import argparse
import collections
import json
import os
import re
import signal
import subprocess
import sys

from verdicts import Verdicts

ap = argparse.ArgumentParser()
ap.add_argument("--exe", required=True)
ap.add_argument("--stress", help="ctest/stress.c, built: run with every mode on")
ap.add_argument("--work", required=True)
ap.add_argument("--driver")
ap.add_argument("--gpu", action="store_true")
ap.add_argument("--label", default="")
ap.add_argument("--cli", help="the cudart-rs command (cudart-rs report reads what a killed process kept)")
opt = ap.parse_args()
os.makedirs(opt.work, exist_ok=True)

verdicts = Verdicts("observe", opt.label, limit=None)
check = verdicts.check


OBS_VARS = ("CUDART_RS_TRACE", "CUDART_RS_TRACE_FILE", "CUDART_RS_SUMMARY", "CUDART_RS_LEAKS", "CUDART_RS_SUMMARY_DATA",
            "CUDART_RS_TIMELINE", "CUDART_RS_CHECKED", "CUDART_RS_RECORD", "CUDART_RS_LOG", "OBSERVE_CHECKED", "OBSERVE_SIGNAL")


def run(tag, exe=None, **env):
    e = {k: v for k, v in os.environ.items() if k not in OBS_VARS}
    if opt.driver:
        e["CUDART_RS_DRIVER"] = opt.driver
    e.update({k: str(v) for k, v in env.items()})
    p = subprocess.run([exe or opt.exe], env=e, capture_output=True, text=True, timeout=60)
    with open(os.path.join(opt.work, tag + ".out"), "w") as f:
        f.write(p.stdout)
    with open(os.path.join(opt.work, tag + ".err"), "w") as f:
        f.write(p.stderr)
    return p


def path(name):
    return os.path.join(opt.work, name)


def read(name):
    with open(path(name)) as f:
        return f.read()


def expectations(out):
    """The program's EXPECT and LEAK lines."""
    exp = collections.defaultdict(list)
    leaks = []
    for line in out.splitlines():
        f = line.split()
        if f[:1] == ["EXPECT"]:
            exp[f[1]].append(f[2:])
        elif f[:1] == ["LEAK"]:
            leaks.append((f[1], int(f[2])))
    return exp, leaks


def num(s):
    return int(s.replace(",", ""))


# ---- off: nothing set -------------------------------------------------------------------
plain = run("plain")
check("off: the program runs to the end", plain.returncode == 0 and "RESULT: ok" in plain.stdout,
      "exit %d, %s" % (plain.returncode, plain.stdout.strip().splitlines()[-1:]))
check("off: the runtime prints nothing", plain.stderr == "", repr(plain.stderr[:300]))
exp, leaks = expectations(plain.stdout)
kernel_runs = exp["launches"] and int(exp["launches"][-1][1]) > 0
if opt.gpu:
    check("gpu: the kernel ran", kernel_runs and "kernel wrote: yes" in plain.stdout, str(exp["launches"]))

# ---- everything at once: trace to a file, summary, leaks, timeline -----------------------
for f in ("trace.txt", "summary.txt", "leaks.txt", "timeline.json"):
    if os.path.exists(path(f)):
        os.remove(path(f))
full = run("full", CUDART_RS_TRACE="1", CUDART_RS_TRACE_FILE=path("trace.txt"), CUDART_RS_SUMMARY=path("summary.txt"),
           CUDART_RS_LEAKS=path("leaks.txt"), CUDART_RS_TIMELINE=path("timeline.json"))
check("all modes: the program prints what it printed without them", full.stdout == plain.stdout,
      "first difference: %s" % next(((a, b) for a, b in zip(full.stdout.splitlines(), plain.stdout.splitlines()) if a != b), None))
check("all modes: nothing on stderr (every report went to its file)", full.stderr == "", repr(full.stderr[:300]))

# The call trace.
trace = read("trace.txt") if os.path.exists(path("trace.txt")) else ""
LINE = re.compile(r"^cudart-rs\[(\d+)\]\s+(\d+\.\d+) (\w+)\s+#(\d+) (\w+)\((.*)\)( = .*?)? \((\d+\.\d+) (us|ms|s)\)$")
MISUSE = re.compile(r"^cudart-rs\[\d+\]\s+\d+\.\d+ \w+\s+#(\d+) (\w+): misuse: (.*)$")
calls, misuses, other = [], [], []
for line in trace.splitlines():
    m = LINE.match(line)
    if m:
        calls.append(m)
        continue
    m = MISUSE.match(line)
    if m:
        misuses.append(m)
    else:
        other.append(line)
check("trace: every line is a call or a misuse", not other and calls, "%d calls; other lines: %r" % (len(calls), other[:3]))
seqs = [int(m.group(4)) for m in calls]
check("trace: calls are numbered 1..N, each once", sorted(seqs) == list(range(1, len(seqs) + 1)),
      "%d calls, numbers %s..%s" % (len(seqs), min(seqs, default=0), max(seqs, default=0)))
by_name = collections.defaultdict(list)
for m in calls:
    by_name[m.group(5)].append(m)


def find(name, pattern):
    r = re.compile(pattern)
    return [m for m in by_name.get(name, []) if r.search(m.group(6) + (m.group(7) or ""))]


HEX = r"0x[0-9a-f]+"
check("trace: cudaMalloc shows the pointer it made and the size",
      len(find("cudaMalloc", r"^devPtr->%s \[device 0 alloc %s\+4096 from #\d+\], size=4096 = cudaSuccess$" % (HEX, HEX))) == 1,
      str([m.group(0) for m in by_name.get("cudaMalloc", [])][:1]))
check("trace: flags by name", len(find("cudaHostAlloc", r"size=256, flags=cudaHostAllocPortable\|cudaHostAllocMapped = cudaSuccess")) == 1
      and len(find("cudaStreamCreateWithFlags", r"\[stream from #\d+\], flags=cudaStreamNonBlocking = cudaSuccess")) == 1
      and len(find("cudaEventCreateWithFlags", r"flags=cudaEventDisableTiming")) == 1,
      str([m.group(0) for m in by_name.get("cudaHostAlloc", [])]))
check("trace: copy kinds by name, pointers with what they point into",
      len(find("cudaMemcpy", r"^dst=%s \[device 0 alloc %s\+4096 from #\d+\], src=%s, count=4096, kind=cudaMemcpyHostToDevice = cudaSuccess" % (HEX, HEX, HEX))) == 1
      and len(find("cudaMemcpy", r"src=%s \[registered range %s\+8192 from #\d+, offset 16\], count=1000" % (HEX, HEX))) == 1
      and len(find("cudaMemcpyAsync", r"src=%s \[pinned alloc %s\+512 from #\d+\].*stream=%s \[stream from #\d+\]" % (HEX, HEX, HEX))) == 1,
      str([m.group(0) for m in by_name.get("cudaMemcpy", [])][:2]))
check("trace: an invalid enum value is named as such, the failure shown",
      len(find("cudaMemcpy", r"kind=17 \(not a valid value\) = cudaErrorInvalidMemcpyDirection")) == 1)
check("trace: 3D parameters field by field",
      len(find("cudaMemcpy3D", r"^p->\{srcArray=%s \[array from #\d+\], dstPtr=\{ptr=%s, pitch=256, xsize=64, ysize=16\}, "
                               r"extent=\{width=64, height=16, depth=1\}, kind=cudaMemcpyDeviceToHost\} = cudaSuccess" % (HEX, HEX))) == 1
      and len(find("cudaMalloc3D", r"^pitchedDevPtr->\{ptr=%s \[device 0 3D alloc %s\+\d+ from #\d+\], pitch=\d+, xsize=64, ysize=4\}, "
                                   r"extent=\{width=64, height=4, depth=2\}" % (HEX, HEX))) == 1,
      str([m.group(0) for m in by_name.get("cudaMemcpy3D", [])]))
check("trace: launch geometry and the kernel's name",
      len(find("cudaLaunchKernel", r"^func=%s \[kernel observe_fill\], gridDim=\(4,1,1\), blockDim=\(256,1,1\), args=%s, sharedMem=0, stream=%s \[stream from #\d+\]"
               % (HEX, HEX, HEX))) == 3,
      str([m.group(0) for m in by_name.get("cudaLaunchKernel", [])][:1]))
frees = by_name.get("cudaFree", [])
check("trace: a free shows the allocation it frees",
      len(find("cudaFree", r"^devPtr=%s \[device 0 alloc %s\+2048 from #\d+\] = cudaSuccess" % (HEX, HEX))) == 1, str([m.group(0) for m in frees][:2]))
mu = [m.group(3) for m in misuses]
check("trace: the double free and the free of an unknown pointer are named",
      sum("double free" in t for t in mu) == 1 and sum("free of unknown pointer 0x10000" in t for t in mu) == 1, str(mu))

# The summary.
summary = read("summary.txt") if os.path.exists(path("summary.txt")) else ""
api = {}
for line in summary.splitlines():
    m = re.match(r"^\s+(\d+\.\d)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s+([\d,.]+)\s+([\d,]+)\s+([\d,]+)\s+([\d,.]+)\s+(\w+)$", line)
    if m:
        api[m.group(9)] = (num(m.group(3)), num(m.group(4)))
traced = collections.Counter(m.group(5) for m in calls)
check("summary: one row per function, calls as traced", api and {k: v[0] for k, v in api.items()} == dict(traced),
      "differences: %s" % {k: (api.get(k, (0,))[0], traced.get(k, 0)) for k in set(api) | set(traced) if api.get(k, (0,))[0] != traced.get(k, 0)})
traced_errors = collections.Counter(m.group(5) for m in calls if m.group(7) and re.match(r" = cudaError(?!NotReady)", m.group(7)) and m.group(3) != "error")
check("summary: errors per function as traced", {k: v[1] for k, v in api.items() if v[1]} == dict(traced_errors),
      "summary %s, trace %s" % ({k: v[1] for k, v in api.items() if v[1]}, dict(traced_errors)))
check("summary: cudaFree called 6 times, 2 failed", api.get("cudaFree") == (6, 2), str(api.get("cudaFree")))


def section(title):
    lines = summary.split(title, 1)[1].split("\n\n", 1)[0].splitlines()[1:] if title in summary else []
    return lines


dirs = {}
for line in section("Memory copies by direction:")[1:]:
    f = line.split()
    dirs[f[0]] = (num(f[1]), num(f[2]))
want_dirs = {d[0]: (int(d[1]), int(d[2])) for d in exp["dir"]}
check("summary: copies and bytes by direction", dirs == want_dirs, "summary %s, program %s" % (dirs, want_dirs))
kinds = {}
for line in section("Memory copies by memory kind (source -> destination):")[1:]:
    m = re.match(r"^ (\w+) -> (\w+)\s+([\d,]+)\s+([\d,]+)$", line)
    if m:
        kinds["%s->%s" % (m.group(1), m.group(2))] = (num(m.group(3)), num(m.group(4)))
    m = re.match(r"^ memset\s+([\d,]+)\s+([\d,]+)$", line)
    if m:
        kinds["memset"] = (num(m.group(1)), num(m.group(2)))
want_kinds = collections.defaultdict(lambda: (0, 0))
for k, b in exp["copy"]:
    n, t = want_kinds[k]
    want_kinds[k] = (n + 1, t + int(b))
want_kinds["memset"] = tuple(int(x) for x in exp["memset"][-1])
check("summary: copies and bytes by memory kind, memsets", kinds == dict(want_kinds), "summary %s, program %s" % (kinds, dict(want_kinds)))
held = {}
for line in section("Memory held (bytes):")[1:]:
    m = re.match(r"^ (.+?)\s+([\d,]+)\s+([\d,]+)$", line)
    if m:
        held[m.group(1).split()[0]] = (num(m.group(2)), num(m.group(3)))
want_held = {k[0]: (int(k[1]), int(k[2])) for k in exp["held"]}
check("summary: memory held at exit and at its peak", all(held.get(k) == v for k, v in want_held.items()),
      "summary %s, program %s" % (held, want_held))
launches = {}
for line in section("Kernel launches:")[1:]:
    m = re.match(r"^\s+([\d,]+)\s+([\d,]+)\s+(\S.*)$", line)
    if m:
        launches[m.group(3)] = (num(m.group(1)), num(m.group(2)))
want_launch = {e[0]: (int(e[1]), int(e[2])) for e in exp["launches"]}
check("summary: kernel launches by name", launches == want_launch, "summary %s, program %s" % (launches, want_launch))

# The leak report.
report = read("leaks.txt") if os.path.exists(path("leaks.txt")) else ""
got = []
for line in report.splitlines():
    m = re.match(r"^========= Leaked ([\d,]+) bytes of (device|pinned host|managed|registered host) memory at", line)
    if m:
        got.append((m.group(2).split()[0], num(m.group(1))))
        continue
    m = re.match(r"^========= Leaked (stream|event|array|graph|mipmapped array|memory pool) 0x[0-9a-f]+(?: \(([\d,]+) bytes\))?: made by call #\d+ \w+", line)
    if m:
        got.append((m.group(1).split()[0], num(m.group(2)) if m.group(2) else 0))
check("leaks: exactly what the program leaked", sorted(got) == sorted(leaks), "report %s, program %s" % (sorted(got), sorted(leaks)))
check("leaks: where each was made (call number and function)",
      all(re.search(r"made by call #\d+ cuda\w+ \(thread \d+\)$", l) for l in report.splitlines() if l.startswith("========= Leaked")))
mis = [l for l in report.splitlines() if l.startswith("========= Misuse:")]
check("leaks: the double free and the unknown pointer, named",
      len(mis) == 2 and "double free" in mis[0] and "cudaErrorInvalidValue" in mis[0] and "free of unknown pointer 0x10000" in mis[1],
      str(mis))
m = re.search(r"LEAK SUMMARY: ([\d,]+) bytes leaked in (\d+) allocations?;", report)
check("leaks: the summary line", m and num(m.group(1)) == sum(s for _, s in leaks) and int(m.group(2)) == sum(1 for k, _ in leaks if k in ("device", "pinned", "managed", "registered")),
      m.group(0) if m else report[-200:])

# The timeline.
try:
    tl = json.load(open(path("timeline.json")))
    ok = isinstance(tl, list)
except Exception as e:  # noqa: BLE001
    tl, ok = [], False
    print("  timeline: %s" % e)
check("timeline: parses as trace-event JSON (an array of events)", ok)
xs = [e for e in tl if e.get("ph") == "X" and not str(e.get("cat", "")).startswith("gpu")]
check("timeline: one complete event per call", len(xs) == len(calls), "%d events, %d calls traced" % (len(xs), len(calls)))
check("timeline: events have name, ts, dur, pid, tid, the call number and arguments",
      all({"name", "ts", "dur", "pid", "tid", "args"} <= set(e) and isinstance(e["args"].get("call"), int) for e in xs)
      and sorted(e["args"]["call"] for e in xs) == sorted(seqs))
names = {e["tid"] for e in tl if e.get("ph") == "M" and e.get("name") == "thread_name"}
check("timeline: each thread's track is named", {e["tid"] for e in xs} <= names)
mc = [e for e in xs if e["name"] == "cudaMemcpy" and e["args"].get("kind") == "cudaMemcpyHostToDevice" and e["args"].get("count") == "4096"]
check("timeline: arguments decoded as in the trace", len(mc) == 1 and mc[0]["args"].get("result") == "cudaSuccess", str(mc[:1]))

# ---- trace filters, to stderr ----------------------------------------------------------
cp = run("trace-copy", CUDART_RS_TRACE="copy")
copy_lines = [l for l in cp.stderr.splitlines() if LINE.match(l)]
check("trace filter 'copy': only the copy family, every copy", copy_lines and all(LINE.match(l).group(3) == "copy" for l in copy_lines)
      and len(copy_lines) == sum(1 for m in calls if m.group(3) == "copy"), "%d lines" % len(copy_lines))
check("trace to stderr: the program's output unchanged", cp.stdout == plain.stdout)
wn = run("trace-warn", CUDART_RS_TRACE="warn")
wl = [LINE.match(l) for l in wn.stderr.splitlines() if LINE.match(l)]
want_failed = [m for m in calls if m.group(3) != "error" and m.group(7) and re.match(r" = cudaError(?!NotReady)", m.group(7))]
check("trace filter 'warn': the failed calls only", wl and len(wl) == len(want_failed) and all(re.match(r" = cudaError", m.group(7) or "") for m in wl),
      "%d lines, %d failed calls" % (len(wl), len(want_failed)))
mx = run("trace-mixed", CUDART_RS_TRACE="memory=warn,launch")
ml = [LINE.match(l) for l in mx.stderr.splitlines() if LINE.match(l)]
check("trace filter 'memory=warn,launch': launches and failed memory calls",
      ml and {m.group(3) for m in ml} == {"memory", "launch"} and all(m.group(3) == "launch" or re.match(r" = cudaError", m.group(7) or "") for m in ml),
      str([m.group(0) for m in ml][:3]))

# ---- GPU spans --------------------------------------------------------------------------
if os.path.exists(path("timeline-gpu.json")):
    os.remove(path("timeline-gpu.json"))
g = run("timeline-gpu", CUDART_RS_TIMELINE=path("timeline-gpu.json") + ",gpu")
try:
    tlg = json.load(open(path("timeline-gpu.json")))
except Exception:  # noqa: BLE001
    tlg = []
spans = [e for e in tlg if e.get("ph") == "X" and str(e.get("cat", "")).startswith("gpu")]
work = [m for m in calls if m.group(3) in ("copy", "memset", "launch") and (m.group(7) or "") == " = cudaSuccess"]
check("timeline gpu: one span per copy, memset and kernel that ran", len(spans) == len(work),
      "%d spans, %d such calls" % (len(spans), len(work)))
check("timeline gpu: spans named by what ran, on named stream tracks",
      any(e["name"].startswith("memcpy HtoD 4096 B") for e in spans) and any(e["name"] == "memset" for e in spans)
      and (not opt.gpu or sum(e["name"] == "observe_fill" for e in spans) == 3)
      and {e["tid"] for e in spans} <= {e["tid"] for e in tlg if e.get("ph") == "M" and e.get("name") == "thread_name"},
      str(collections.Counter(e["name"] for e in spans)))

# ---- checked mode -----------------------------------------------------------------------
ck = run("checked", CUDART_RS_CHECKED=1, OBSERVE_CHECKED=1)
check("checked: the program runs to the end", ck.returncode == 0 and "RESULT: ok" in ck.stdout, "exit %d" % ck.returncode)
want = {
    "cudaStreamDestroy(0x10)": "cudaErrorInvalidResourceHandle",
    "cudaStreamSynchronize(destroyed)": "cudaErrorInvalidResourceHandle",
    "cudaStreamQuery(0x20)": "cudaErrorInvalidResourceHandle",
    "cudaEventRecord(destroyed)": "cudaErrorInvalidResourceHandle",
    "cudaEventSynchronize(0x30)": "cudaErrorInvalidResourceHandle",
    "cudaFreeArray(freed)": "cudaErrorInvalidResourceHandle",
    "cudaFreeMipmappedArray(0x40)": "cudaErrorInvalidResourceHandle",
    "cudaGraphDestroy(0x60)": "cudaErrorInvalidResourceHandle",
    "cudaMemcpy to freed": "cudaErrorInvalidValue",
    "cudaFreeHost(freed)": "cudaErrorInvalidValue",
    "cudaStreamWaitEvent(s2, 0x50)": "cudaErrorInvalidResourceHandle",
    "last": "cudaErrorInvalidResourceHandle",
    "cudaStreamSynchronize(driver stream)": "cudaSuccess",
    "cudaMemsetAsync on driver stream": "cudaSuccess",
}
if "cudaGraphCreate: cudaSuccess" in plain.stdout:
    want["cudaGraphDestroy(destroyed)"] = "cudaErrorInvalidResourceHandle"
seen = dict(re.findall(r"^checked: (.*): (\w+)$", ck.stdout, re.M))
check("checked: bogus, destroyed and freed handles and pointers return errors; a driver-made stream works", seen == want,
      "differences: %s" % {k: (seen.get(k), want.get(k)) for k in set(seen) | set(want) if seen.get(k) != want.get(k)})
refused = [l for l in ck.stderr.splitlines() if l.startswith("========= Misuse:") and "refused by checked mode" in l]
# Every bad handle is refused before the driver sees it, and the second free of a device
# pointer; the freed pinned pointer and the copy to freed memory are refused unless the
# address has become usable memory again (then the driver answers, with the same error).
handles = [k for k, v in want.items() if v == "cudaErrorInvalidResourceHandle" and k != "last"]
need = len(handles) + 1
check("checked: each refusal reported at exit", need <= len(refused) <= need + 2
      and all(re.search(r"not (a|an) |was destroyed by", l) for l in refused if "InvalidResourceHandle" in l)
      and sum("InvalidResourceHandle" in l for l in refused) == len(handles),
      "%d refusals reported (want %d..%d):\n%s" % (len(refused), need, need + 2, "\n".join(refused)))

# ---- leaks with backtraces --------------------------------------------------------------
bt = run("leaks-backtrace", CUDART_RS_LEAKS="backtrace")
blocks = re.split(r"^(?=" + "=" * 9 + " Leaked)", bt.stderr, flags=re.M)
leaked = [b for b in blocks if b.startswith("========= Leaked")]
exe = os.path.basename(opt.exe)
check("leaks backtrace: each leak with the program's frames (first one in the program itself)",
      len(leaked) == len(leaks) and all(re.search(r"^=========       #0 0x[0-9a-f]+ in .*%s\+0x[0-9a-f]+\)?$" % re.escape(exe), b, re.M) for b in leaked),
      leaked[0][:400] if leaked else bt.stderr[-300:])

# ---- a signal that ends the program ----------------------------------------------------
# Nothing is caught: the program dies of SIGTERM as it would without the library, and its
# figures are in its record (CUDART_RS_RECORD), which `cudart-rs report` reads.
records = path("signal-records")
if os.path.isdir(records):
    for f in os.listdir(records):
        os.remove(os.path.join(records, f))
sg = run("signal", CUDART_RS_SUMMARY=1, CUDART_RS_LEAKS=1, CUDART_RS_RECORD=records, OBSERVE_SIGNAL=1)
check("SIGTERM: the process dies of the signal, nothing caught, no report made then",
      sg.returncode == -signal.SIGTERM and "cudart-rs summary" not in sg.stderr and "LEAK SUMMARY" not in sg.stderr,
      "exit %s, stderr %r" % (sg.returncode, sg.stderr[-300:]))
if opt.cli:
    rep = subprocess.run([opt.cli, "report", records], capture_output=True, text=True, timeout=60)
    whole = dict((m.group(2), num(m.group(1))) for m in re.finditer(r"^\s+\d+\.\d\s+[\d,]+\s+([\d,]+)\s+.*\s(\w+)$", read("summary.txt"), re.M))
    got = dict((m.group(2), num(m.group(1))) for m in re.finditer(r"^\s+\d+\.\d\s+[\d,]+\s+([\d,]+)\s+.*\s(\w+)$", rep.stdout, re.M))
    check("SIGTERM: its record has every call (cudart-rs report: the same calls as the whole run's summary), said to be from the record",
          rep.returncode == 0 and got == whole and "it ended without exiting" in rep.stdout, (rep.returncode, got, whole, rep.stdout[:300]))
    m = re.search(r"LEAK SUMMARY: ([\d,]+) bytes leaked", rep.stdout)
    check("SIGTERM: the leak report made from its record: what was live when it ended",
          m and num(m.group(1)) == sum(s for _, s in leaks) and "made from its record" in rep.stdout, rep.stdout[-600:])

# ---- 16 threads, every mode on ------------------------------------------------------------
if opt.stress:
    for f in ("st-trace.txt", "st-summary.txt", "st-leaks.txt", "st-timeline.json"):
        if os.path.exists(path(f)):
            os.remove(path(f))
    st = run("stress", exe=opt.stress, CUDART_RS_TRACE="1", CUDART_RS_TRACE_FILE=path("st-trace.txt"), CUDART_RS_SUMMARY=path("st-summary.txt"),
             CUDART_RS_LEAKS=path("st-leaks.txt"), CUDART_RS_TIMELINE=path("st-timeline.json") + ",gpu", CUDART_RS_CHECKED=1)
    st_calls = [LINE.match(l) for l in read("st-trace.txt").splitlines() if LINE.match(l)] if os.path.exists(path("st-trace.txt")) else []
    try:
        st_tl = [e for e in json.load(open(path("st-timeline.json"))) if e.get("ph") == "X" and not str(e.get("cat", "")).startswith("gpu")]
    except Exception:  # noqa: BLE001
        st_tl = None
    st_sum = sum(num(m.group(1)) for m in re.finditer(r"^\s+\d+\.\d\s+[\d,]+\s+([\d,]+)\s", read("st-summary.txt"), re.M)) if os.path.exists(path("st-summary.txt")) else -1
    st_threads = {int(m.group(1)) for m in st_calls}
    check("16 threads, every mode on (ctest/stress.c): passes, nothing leaked or refused, trace = timeline = summary",
          st.returncode == 0 and "RESULT: ok" in st.stdout and st_calls and st_tl is not None and len(st_tl) == len(st_calls) == st_sum
          and len(st_threads) >= 16 and "LEAK SUMMARY: 0 bytes leaked in 0 allocations; handles leaked: none; misuses: 0" in read("st-leaks.txt"),
          "exit %d, %d traced on %d threads, %s timeline events, %d in the summary; its output ends %r" % (
              st.returncode, len(st_calls), len(st_threads), None if st_tl is None else len(st_tl), st_sum, st.stdout[-200:]))

verdicts.done()
