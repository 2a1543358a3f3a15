#!/usr/bin/env python3
"""Observation in process trees and in secure-execution mode, with ctest/observe/procs.c
(built here): which processes report (only those that made runtime calls), that every
report survives when several processes share a path, that report files are opened safely,
the `cudart-rs run` command, and that a setuid program honours no variable that loads code
or names a file.

  procs.py --lib LIBCUDART --cli CUDART_RS --include DIR --work DIR [--abi 13|12]
           [--driver STAND_IN | --gpu] [--observe EXE] [--label L]

Prints PASS/FAIL/SKIP per check; exit status 1 if any failed.
"""
import collections
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

from common import ROOT as root, Kit, blocks, leak_blocks, leaked, options, read, rows_of, sh, summary_pids, timeline
from verdicts import Verdicts

opt = options(__doc__)
kit = Kit(opt)
env, fresh, build = kit.env, kit.fresh, kit.build
work = opt.work
verdicts = Verdicts("procs", opt.label)
check, skip = verdicts.check, verdicts.skip

procs = os.path.join(work, "procs")
if not check("build ctest/observe/procs.c", build(procs, os.path.join(work, "lib"))):
    sys.exit(1)
lib = opt.lib

# ---- a wrapper that makes no call reports nothing: `timeout` ----------------------------
d, (s, data, lk) = fresh("s.txt", "s.tsv", "l.txt")
r = sh(["timeout", "60", procs, "leak", "5"], env=env(LD_PRELOAD=lib, CUDART_RS_SUMMARY=s, CUDART_RS_SUMMARY_DATA=data, CUDART_RS_LEAKS="1," + lk))
who = leaked(r.stdout)
check("timeout ./prog: the program runs", r.returncode == 0 and len(who) == 1, r.stdout + r.stderr)
check("timeout ./prog: one summary, the program's (timeout made no call, wrote none)", summary_pids(read(s)) == list(who), (summary_pids(read(s)), who))
check("timeout ./prog: the program's leak is reported, nothing for timeout", leak_blocks(read(lk)) == who, (read(lk), who))
check("timeout ./prog: one block of summary data", read(data).count("\nend\n") == 1 and read(data).startswith("process\t%d\t" % next(iter(who), 0)), read(data)[:300])

# ---- a shell running two programs: both reports kept --------------------------------------
d, (s, lk) = fresh("s.txt", "l.txt")
r = sh(["bash", "-c", "%s leak 5; %s leak 6" % (procs, procs)], env=env(LD_PRELOAD=lib, CUDART_RS_SUMMARY=s, CUDART_RS_LEAKS="1," + lk))
who = leaked(r.stdout)
check("bash -c './a; ./b': both programs' summaries, nothing from bash", sorted(summary_pids(read(s))) == sorted(who) and len(who) == 2, (summary_pids(read(s)), who))
check("bash -c './a; ./b': both leak reports whole", leak_blocks(read(lk)) == who, (read(lk), who))

# ---- fork: each child that uses the runtime reports its own; one that does not, nothing ---
d, (s, lk, tl) = fresh("s.txt", "l.txt", "t.json")
r = sh([procs, "fork", "1", "3", "2"], env=env(CUDART_RS_SUMMARY=s, CUDART_RS_LEAKS="1," + lk, CUDART_RS_TIMELINE=tl))
who = leaked(r.stdout)
silent = [int(x) for x in re.findall(r"^silent (\d+)$", r.stdout, re.M)]
queried = [int(x) for x in re.findall(r"^queried (\d+)$", r.stdout, re.M)]
check("fork: the program and its children run", r.returncode == 0 and len(who) == 3 and len(silent) == 1 and len(queried) == 1, r.stdout + r.stderr)
reports = {**who, **{p: 0 for p in queried}}
check("fork: a leak report from each process that made calls (forked first, forked after calls, exec'd, the parent), "
      "none from the child that made none", leak_blocks(read(lk)) == reports and not set(silent) & set(leak_blocks(read(lk))),
      (leak_blocks(read(lk)), reports, silent))
b = blocks(read(s))
parent = next((p for p in who if who[p] == 2048), 0)
first = next((p for p in who if who[p] == 1024), 0)
check("fork: the child forked after the parent's calls reports its own calls only",
      queried and rows_of(b.get(queried[0], "")) == {"cudaGetErrorString": 1, "cudaDriverGetVersion": 1}, {p: rows_of(x) for p, x in b.items()})
check("fork: the child forked first reports its own calls", rows_of(b.get(first, "")) == {"cudaMalloc": 1, "cudaMemcpy": 2}, rows_of(b.get(first, "")))
check("fork: the parent's summary has its own calls", rows_of(b.get(parent, "")) == {"cudaGetErrorName": 1, "cudaRuntimeGetVersion": 1, "cudaMalloc": 1, "cudaMemcpy": 2},
      rows_of(b.get(parent, "")))
t = timeline(tl)
pids = collections.Counter(e["pid"] for e in t if e.get("ph") == "X") if isinstance(t, list) else {}
check("fork: one valid timeline, a track for each process that made calls", isinstance(t, list) and set(pids) == set(reports)
      and {e["pid"] for e in t if e.get("name") == "process_name"} == set(reports), t if not isinstance(t, list) else dict(pids))

# ---- two processes at once, every report on one path each ----------------------------------
d, (s, data, lk, tl, tr) = fresh("s.txt", "s.tsv", "l.txt", "t.json", "trace.txt")
N = 20000
e = env(CUDART_RS_SUMMARY=s, CUDART_RS_SUMMARY_DATA=data, CUDART_RS_LEAKS="1," + lk, CUDART_RS_TIMELINE=tl, CUDART_RS_TRACE="1", CUDART_RS_TRACE_FILE=tr)
ps = [subprocess.Popen([procs, "leak", str(k), str(N)], env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for k in (7, 8)]
outs = [p.communicate(timeout=300) for p in ps]
who = {}
for o, _ in outs:
    who.update(leaked(o))
check("two at once: both run", all(p.returncode == 0 for p in ps) and len(who) == 2, [o for o in outs])
b = blocks(read(s))
check("two at once: both summaries whole (%d queries each)" % N, sorted(b) == sorted(who)
      and all(rows_of(b[p]).get("cudaGetDevice") == N and "graph launches:" in b[p] for p in b), {p: rows_of(x) for p, x in b.items()})
check("two at once: both leak reports whole", leak_blocks(read(lk)) == who, (leak_blocks(read(lk)), who))
check("two at once: both blocks of summary data", read(data).count("\nend\n") == 2)
t = timeline(tl)
per = collections.Counter(e["pid"] for e in t if e.get("ph") == "X") if isinstance(t, list) else {}
check("two at once: the timeline is one valid JSON array with every call of both (%d each)" % (N + 3),
      isinstance(t, list) and dict(per) == {p: N + 3 for p in who}, t if not isinstance(t, list) else dict(per))
LINE = re.compile(r"^cudart-rs\[(\d+)\]\s+\d+\.\d+ \w+\s+#\d+ \w+\(.*\) = \w+ \(\d+\.\d+ (us|ms|s)\)$")
lines = read(tr).splitlines()
bad = [x for x in lines if not LINE.match(x)]
check("two at once: the shared trace file has every line of both, each whole", not bad and collections.Counter(int(LINE.match(x).group(1)) for x in lines) == {p: N + 3 for p in who},
      bad[:3] or collections.Counter(int(LINE.match(x).group(1)) for x in lines))

# ---- a process that makes no call writes nothing -----------------------------------------
d, (s, data, lk, tl, tr) = fresh("s.txt", "s.tsv", "l.txt", "t.json", "trace.txt")
r = sh([procs, "none"], env=env(CUDART_RS_SUMMARY=s, CUDART_RS_SUMMARY_DATA=data, CUDART_RS_LEAKS="1," + lk, CUDART_RS_TIMELINE=tl, CUDART_RS_TRACE="1", CUDART_RS_TRACE_FILE=tr))
check("no call: no report file is made, nothing on stderr", r.returncode == 0 and os.listdir(d) == [] and r.stderr == "", (os.listdir(d), r.stderr))
d, (s, data, lk, tl, tr) = fresh("s.txt", "s.tsv", "l.txt", "t.json", "trace.txt")
r = sh([procs, "register"], env=env(CUDART_RS_SUMMARY=s, CUDART_RS_SUMMARY_DATA=data, CUDART_RS_LEAKS="1," + lk, CUDART_RS_TIMELINE=tl, CUDART_RS_TRACE="warn", CUDART_RS_TRACE_FILE=tr))
check("fat-binary registrations only (what loading a library of kernels makes): no report", r.returncode == 0 and os.listdir(d) == [] and r.stderr == "",
      (os.listdir(d), r.stderr))

# ---- report paths that are not safe to write ----------------------------------------------
d, (victim, link, tlink) = fresh("victim", "s.txt", "t.json")
with open(victim, "w") as f:
    f.write("precious\n")
os.symlink(victim, link)
os.symlink(victim, tlink)
r = sh([procs, "leak", "1"], env=env(CUDART_RS_SUMMARY=link, CUDART_RS_TIMELINE=tlink))
pid = next(iter(leaked(r.stdout)), 0)
own = tlink + ".%d.json" % pid
check("a symbolic link as report path: not followed, the file it points to unchanged", read(victim) == "precious\n", read(victim))
check("... said once on stderr, the summary on stderr instead",
      r.stderr.count("not written to %s: it is a symbolic link" % link) == 1 and summary_pids(r.stderr) == [pid], r.stderr[:600])
check("... the timeline in a file of the process's own beside it, said so", isinstance(timeline(own), list)
      and r.stderr.count("it goes to %s" % own) == 1, r.stderr[:600])
if os.geteuid() == 0:
    d, (theirs,) = fresh("s.txt")
    with open(theirs, "w") as f:
        f.write("theirs\n")
    os.chown(theirs, 65534, 65534)
    r = sh([procs, "leak", "1"], env=env(CUDART_RS_SUMMARY=theirs))
    check("another user's file as report path: left as it was, said so, the summary on stderr",
          read(theirs) == "theirs\n" and "belongs to another user" in r.stderr and len(summary_pids(r.stderr)) == 1, r.stderr[:400])
else:
    skip("another user's file as report path", "needs root (to give a file to another user)")

# ---- the cudart-rs command ----------------------------------------------------------------
libdir = os.path.dirname(os.path.realpath(lib))
abi = ["--abi", opt.abi]
d, (out, tl) = fresh("out", "t.json")
r = sh([opt.cli, "run", "--lib", libdir, *abi, "--summary", "--leaks", "--timeline", tl, "-o", out, "--",
        "bash", "-c", "%s leak 5 && timeout 60 %s fork 1 3 2 && %s none" % (procs, procs, procs)], env=env())
who = leaked(r.stdout)
reports = {**who, **{int(x): 0 for x in re.findall(r"^queried (\d+)$", r.stdout, re.M)}}
check("cudart-rs run: the command runs, its status returned", r.returncode == 0 and len(who) == 4 and len(reports) == 5, r.stdout + r.stderr[-800:])
m = re.search(r"==== cudart-rs summary: (\d+) processes made runtime calls", r.stderr)
listed = [int(x) for x in re.findall(r"^\s+(\d+)\s+-\s+[\d,]+\s+\d", r.stderr, re.M)]
check("cudart-rs run: one summary of the five processes that made calls (not bash, timeout, the silent child)",
      m and m.group(1) == "5" and sorted(listed) == sorted(reports), r.stderr[:1500])
total = rows_of(r.stderr.split("All processes:", 1)[-1])
check("cudart-rs run: the totals add up every process's calls", total == {"cudaMalloc": 4, "cudaMemcpy": 8, "cudaGetErrorName": 1, "cudaRuntimeGetVersion": 1,
                                                                          "cudaGetErrorString": 1, "cudaDriverGetVersion": 1}, total)
sums = dict(re.findall(r"^ pid (\d+), [^:]*: ([\d,]+) bytes leaked", r.stderr, re.M))
check("cudart-rs run: a leak report per process", {int(k): int(v.replace(",", "")) for k, v in sums.items()} == reports, (sums, reports))
t = timeline(tl)
check("cudart-rs run: one timeline, valid JSON, a named track per process",
      isinstance(t, list) and {e["pid"] for e in t if e.get("name") == "process_name"} == set(reports)
      and {e["pid"] for e in t if e.get("ph") == "X"} == set(reports), t if not isinstance(t, list) else "")
check("cudart-rs run: every process's reports kept in -o DIR", sorted(os.listdir(out)) == ["leaks.txt", "records", "summary.tsv", "summary.txt"]
      and len(summary_pids(read(os.path.join(out, "summary.txt")))) == 5, os.listdir(out))
r = sh([opt.cli, "run", "--lib", libdir, "--", "sh", "-c", "exit 7"], env=env())
check("cudart-rs run: the command's exit status (7)", r.returncode == 7 and "no process made a CUDA runtime call" in r.stderr, (r.returncode, r.stderr))
r = sh([opt.cli, "run", "--lib", libdir, "--", "sh", "-c", "kill -TERM $$"], env=env())
check("cudart-rs run: a command killed by SIGTERM: 128+15", r.returncode == 143, r.returncode)
r = sh([opt.cli, "run", "--lib", libdir, "--", os.path.join(d, "no-such-program")], env=env())
check("cudart-rs run: a command that does not exist: 127, said", r.returncode == 127 and "cannot run" in r.stderr, (r.returncode, r.stderr))
if opt.observe:
    plain = sh([opt.observe], env=env(CUDART_RS_SUMMARY="1"))
    r = sh([opt.cli, "run", "--lib", libdir, *abi, "--summary", "--leaks", "--", opt.observe], env=env())
    want, got = rows_of(plain.stderr), rows_of(r.stderr)
    check("cudart-rs run on the observation program (ctest/observe/observe.c): its output unchanged, the summary's calls as without the command",
          r.returncode == plain.returncode and r.stdout == plain.stdout and want and got == want,
          {k: (want.get(k), got.get(k)) for k in set(want) | set(got) if want.get(k) != got.get(k)})
    check("cudart-rs run on the observation program: its leak report", "LEAK SUMMARY" in r.stderr and "Misuse: call #" in r.stderr, r.stderr[-500:])
r = sh([opt.cli, "doctor", "--lib", libdir, procs], env=env())
check("cudart-rs doctor: the libraries, the driver, and the program's libcudart on its own and under run",
      r.returncode == 0 and re.search(r"CUDA %s ABI, reports CUDA %s" % (opt.abi, "13.5" if opt.abi == "13" else "12.9"), r.stdout)
      and "libcudart.so.%s => %s" % (opt.abi, os.path.join(work, "lib", os.path.basename(lib))) in r.stdout
      and "(cudart-rs: the preload wins)" in r.stdout and ("GPUs: " in r.stdout), r.stdout + r.stderr)

# ---- secure-execution mode: a setuid program ---------------------------------------------
def secure_check():
    if os.geteuid() != 0:
        return skip("setuid program (secure-execution mode)", "needs root (to make a setuid program of another user)")
    nobody = 65534
    bases = [b for b in (os.environ.get("TMPDIR"), "/tmp", "/var/tmp", "/dev/shm", work) if b and os.path.isdir(b)]
    for base in bases:
        top = tempfile.mkdtemp(dir=base, prefix="cudart-rs-secure-")
        os.chmod(top, 0o755)
        libdir = os.path.join(top, "lib")
        exe = os.path.join(top, "procs")
        reports = os.path.join(top, "reports")
        os.mkdir(reports)
        os.chmod(reports, 0o1777)
        mark = os.path.join(reports, "impostor-ran")
        impostor = os.path.join(top, "impostor.so")
        p = sh(["gcc", "-shared", "-fPIC", '-DMARK="%s"' % mark, "-o", impostor, os.path.join(root, "ctest/observe/impostor.c")])
        if p.returncode != 0 or not build(exe, libdir):
            check("setuid program: build", False, p.stderr)
            return
        for dirpath, dirs, files in os.walk(top):
            for n in dirs:
                os.chmod(os.path.join(dirpath, n), 0o1777 if n == "reports" else 0o755)
            for n in files:
                os.chmod(os.path.join(dirpath, n), 0o755)
        e = env(CUDART_RS_DRIVER=impostor, CUDART_RS_SUMMARY=os.path.join(reports, "s.txt"), CUDART_RS_SUMMARY_DATA=os.path.join(reports, "s.tsv"),
                CUDART_RS_LEAKS="1," + os.path.join(reports, "l.txt"), CUDART_RS_TIMELINE=os.path.join(reports, "t.json"),
                CUDART_RS_TRACE="1", CUDART_RS_TRACE_FILE=os.path.join(reports, "trace.txt"))
        # Control: the same program, not setuid, honours them all (so the check can fail).
        os.chown(exe, nobody, nobody)
        ctl = sh([exe, "secure"], env=e)
        made = sorted(os.listdir(reports))
        for n in made:
            os.unlink(os.path.join(reports, n))
        os.chmod(exe, 0o4755 | stat.S_ISGID)
        r = sh([exe, "secure"], env=e)
        if "AT_SECURE=1" not in r.stdout:
            shutil.rmtree(top, ignore_errors=True)
            if "AT_SECURE=0" in r.stdout:
                continue  # a nosuid file system: try another
            continue
        after = sorted(os.listdir(reports))
        check("setuid program, control: not setuid, the variables are honoured (the impostor driver runs, report files made)",
              "AT_SECURE=0" in ctl.stdout and "impostor-ran" in made and "s.txt" in made and "trace.txt" in made, (ctl.stdout, made))
        check("setuid program: runs in secure-execution mode as another user (AT_SECURE=1)", "AT_SECURE=1" in r.stdout, r.stdout)
        check("setuid program: CUDART_RS_DRIVER ignored (the impostor's code never ran), the driver from the loader's own search",
              "impostor-ran" not in after and "CUDART_RS_DRIVER ignored" in r.stderr
              and re.search(r"cudaGetDeviceCount: (cudaSuccess|cudaErrorInsufficientDriver|cudaErrorNoDevice)$", r.stdout, re.M), (after, r.stdout, r.stderr))
        check("setuid program: no report file written (summary, data, leaks, timeline, trace)", after == [], after)
        note = [l for l in r.stderr.splitlines() if "nothing is observed" in l]
        check("setuid program: nothing observed (no trace, no report, no backtrace or pointer on stderr either), "
              "the ignored variables named once",
              "cudart-rs summary" not in r.stderr and "LEAK SUMMARY" not in r.stderr and not re.search(r"^cudart-rs\[\d+\] ", r.stderr, re.M)
              and len(note) == 1 and all(v in note[0] for v in ("CUDART_RS_TRACE,", "CUDART_RS_TRACE_FILE", "CUDART_RS_SUMMARY,",
                                                                 "CUDART_RS_LEAKS", "CUDART_RS_SUMMARY_DATA", "CUDART_RS_TIMELINE")),
              r.stderr[:1500])
        shutil.rmtree(top, ignore_errors=True)
        return
    skip("setuid program (secure-execution mode)", "no file system here honours setuid (all mounted nosuid: %s)" % ", ".join(bases))


secure_check()
verdicts.done()
