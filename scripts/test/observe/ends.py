#!/usr/bin/env python3
"""How observed processes end, and what the observer writes, with ctest/observe/procs.c
(built here) and a Python program (interrupt.py):

- signals: the library catches none and changes no disposition or mask (its imports name
  no signal function; a program sees what it would see without it, under the variables and
  under `cudart-rs run`, nohup's ignored SIGHUP and an ignored SIGPIPE included); Python's
  KeyboardInterrupt and `finally` run as without cudart-rs (SIGINT to the process, to the
  command, and ^C on a terminal); SIGINT and SIGTERM sent to the command reach the program;
- processes that leave by _exit, exec or SIGKILL are reported from their records, and a
  timeline stays valid JSON however often a writer is killed (20 rounds);
- forks: 20 children forked while threads make calls each report exactly their own calls;
  a fork while threads make their first calls never hangs the child (20 times each way);
- files: `-o DIR` and `--timeline FILE` refuse what exists unless --force-overwrite, never
  follow a link, as root and as another user; reports are made 0600; the variables refuse a
  file that is not their report; paths are resolved at start; a full disk is said once per
  report (a small tmpfs, as root);
- a run inside a run, and a job of two nodes (two commands, one per "host": a UTS namespace
  each as root) joined by `cudart-rs report DIR1 DIR2`.

  ends.py --lib LIBCUDART --cli CUDART_RS --include DIR --work DIR [--abi 13|12]
          [--driver STAND_IN | --gpu] [--label L]

Prints PASS/FAIL/SKIP per check; exit status 1 if any failed.
"""
import collections
import fcntl
import os
import pty
import random
import re
import select
import shutil
import signal
import stat
import subprocess
import tempfile
import termios
import time

from common import ROOT, Kit, leaked, listed, options, read, rows_of, sh, summary_pids, timeline
from verdicts import Verdicts

opt = options(__doc__)
kit = Kit(opt)
# Started as a foreground job is: SIGINT and SIGQUIT as they are by default (a background job
# of a shell starts with them ignored, and they would stay ignored in every program here).
signal.signal(signal.SIGINT, signal.SIG_DFL)
signal.signal(signal.SIGQUIT, signal.SIG_DFL)
env, fresh = kit.env, kit.fresh
verdicts = Verdicts("ends", opt.label)
check, skip = verdicts.check, verdicts.skip
work = opt.work
lib = opt.lib
procs = os.path.join(work, "procs")
if not check("build ctest/observe/procs.c", kit.build(procs, os.path.join(work, "lib"))):
    verdicts.done()
interrupt = os.path.join(ROOT, "scripts/test/observe/interrupt.py")
fakerun = os.path.join(ROOT, "scripts/test/observe/fakerun.py")


def run_cmd(*args):
    """`cudart-rs run ...` as an argument list."""
    return [opt.cli, "run", "--lib", opt.libdir, "--abi", opt.abi, *args]


def wait_line(p, word, limit=30):
    """Reads p's stdout until a line that starts with `word`; returns the lines read."""
    lines, until = [], time.time() + limit
    while time.time() < until:
        line = p.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith(word):
            break
    return lines


def valid_json(path):
    return isinstance(timeline(path), list)


# ==== signals ================================================================================
imports = sh(["objdump", "-T", lib]).stdout
sig_fns = sorted({m.group(1) for m in re.finditer(r"\*UND\*.*\s(sigaction|signal|sigprocmask|pthread_sigmask|raise|kill|sigset|bsd_signal)$", imports, re.M)})
check("the library calls no signal function (its imports: no sigaction, signal, sigprocmask, pthread_sigmask, raise, kill)",
      imports and not sig_fns, sig_fns)


def dispositions(cmd, pre=None, e=None):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=e or env(), preexec_fn=pre)
    return p.returncode, [l for l in p.stdout.splitlines() if l.startswith(("SIG", "mask"))]


def odd_start():
    """What a parent may leave a program: SIGPIPE and SIGINT ignored, SIGUSR1 blocked."""
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})


d, (rec,) = fresh("records")
every = dict(CUDART_RS_SUMMARY=os.path.join(d, "s.txt"), CUDART_RS_LEAKS="1," + os.path.join(d, "l.txt"), CUDART_RS_TRACE="1",
             CUDART_RS_TRACE_FILE=os.path.join(d, "t.txt"), CUDART_RS_TIMELINE=os.path.join(d, "tl.json"), CUDART_RS_CHECKED=1, CUDART_RS_RECORD=rec)
for label, pre in (("as a shell starts it", None), ("with SIGPIPE and SIGINT ignored and SIGUSR1 blocked by its parent", odd_start)):
    plain = dispositions([procs, "dispositions"], pre)
    obs = dispositions([procs, "dispositions"], pre, env(LD_PRELOAD=lib, **every))
    cmd = dispositions(run_cmd("--summary", "--leaks", "--checked", "--", procs, "dispositions"), pre)
    check("signal dispositions and mask %s: the same under every variable and under cudart-rs run as without" % label,
          plain[0] == 0 and len(plain[1]) == 6 and obs == plain and cmd == plain, (plain, obs, cmd))
plain = dispositions(["nohup", procs, "dispositions"])
cmd = dispositions(["nohup", *run_cmd("--summary", "--", procs, "dispositions")])
check("nohup: SIGHUP stays ignored in the program under cudart-rs run, as under plain nohup",
      "SIGHUP ignored" in plain[1] and cmd == plain, (plain, cmd))

# nohup: a hangup sent to the command and to the program ends neither.
p = subprocess.Popen(["nohup", *run_cmd("--summary", "--", procs, "sleep", "1500")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
got = wait_line(p, "pid ")
child = int(got[-1].split()[1]) if got and got[-1].startswith("pid ") else 0
ign = re.search(r"^SigIgn:\s+([0-9a-f]+)", read("/proc/%d/status" % child), re.M) if child else None
if child:
    os.kill(p.pid, signal.SIGHUP)
    os.kill(child, signal.SIGHUP)
out, err = p.communicate(timeout=60)
check("nohup cudart-rs run: the program ignores SIGHUP (SigIgn bit 0x1 in /proc), a hangup ends neither it nor the command",
      ign and int(ign.group(1), 16) & 1 and p.returncode == 0 and "done" in out and summary_pids(err) == [child],
      (ign and ign.group(1), p.returncode, out, err[-300:]))

# Python's KeyboardInterrupt and finally.
PY = ["python3", interrupt, lib]
WANT = ["SIGINT handler is Python's default_int_handler: True", "ready", "caught KeyboardInterrupt: saving checkpoint", "finally: done"]


def interrupted(cmd, e, to_command=False):
    """Runs cmd, sends SIGINT (to the program, or to the command's pid) once it is ready."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)
    lines = wait_line(p, "ready")
    if lines and lines[-1].startswith("ready"):
        if to_command:
            os.kill(p.pid, signal.SIGINT)
        else:
            # The Python process: the command's child, or the process itself.
            kids = read("/proc/%d/task/%d/children" % (p.pid, p.pid)).split()
            os.kill(int(kids[0]) if kids and cmd[0] == opt.cli else p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return p.returncode, [l.rstrip("\n") for l in lines] + out.splitlines(), err


base = interrupted(PY, env(LD_PRELOAD=lib))
check("Python, SIGINT, without observation: KeyboardInterrupt caught, finally runs (the baseline)", base[0] == 0 and base[1] == WANT, base)
d, (s, tl) = fresh("s.txt", "t.json")
v = interrupted(PY, env(LD_PRELOAD=lib, CUDART_RS_SUMMARY=s, CUDART_RS_LEAKS="1", CUDART_RS_TIMELINE=tl))
check("Python, SIGINT, under the variables: the same output and status, its reports made at its exit",
      v[:2] == base[:2] and len(summary_pids(read(s))) == 1 and "LEAK SUMMARY" in v[2] and valid_json(tl), (v, read(s)[:200]))
d, (tl,) = fresh("t.json")
c = interrupted(run_cmd("--summary", "--leaks", "--timeline", tl, "--", *PY), env(), to_command=True)
check("Python under cudart-rs run, SIGINT to the command's pid: passed on once, KeyboardInterrupt caught, finally runs, status 0, reported",
      c[0] == 0 and c[1] == WANT and len(summary_pids(c[2])) == 1 and "LEAK SUMMARY" in c[2] and valid_json(tl), c)


def on_terminal(cmd, e):
    """Runs cmd on a new terminal as its foreground job; types ^C once it is ready."""
    master, slave = pty.openpty()

    def session():
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    p = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, env=e, preexec_fn=session, close_fds=True)
    os.close(slave)
    text, typed, until = b"", False, time.time() + 60
    while time.time() < until:
        r, _, _ = select.select([master], [], [], 0.5)
        if r:
            try:
                b = os.read(master, 65536)
            except OSError:
                break
            if not b:
                break
            text += b
        if not typed and b"ready" in text:
            os.write(master, b"\x03")
            typed = True
        if p.poll() is not None and not r:
            break
    p.wait(timeout=30)
    os.close(master)
    # The terminal echoes the ^C it sends.
    return p.returncode, text.decode(errors="replace").replace("\r\n", "\n").replace("^C", "")


t = on_terminal(run_cmd("--summary", "--", *PY), env())
at = [t[1].find(w) for w in WANT]
check("Python under cudart-rs run on a terminal, ^C: one KeyboardInterrupt (not passed twice), finally runs, status 0, reported",
      t[0] == 0 and -1 not in at and at == sorted(at) and t[1].count("caught KeyboardInterrupt") == 1 and len(summary_pids(t[1])) == 1, t)

# SIGINT and SIGTERM to the command's pid alone reach the program.
for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
    p = subprocess.Popen(run_cmd("--summary", "--", procs, "sleep", "20000"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    got = wait_line(p, "pid ")
    child = int(got[-1].split()[1]) if got and got[-1].startswith("pid ") else 0
    t0 = time.time()
    os.kill(p.pid, sig)
    out, err = p.communicate(timeout=60)
    check("%s to cudart-rs run's pid alone: the program ends by it (status %d, not run to its end), its calls reported from its record"
          % (signal.Signals(sig).name, code),
          p.returncode == code and "done" not in out and time.time() - t0 < 15 and summary_pids(err) == [child]
          and "it ended without exiting" in err, (p.returncode, out, err[-400:]))

# ==== processes that end without exiting =====================================================
r = kit.run("--summary", "--leaks", "--", procs, "exit", "7")
pid = int(re.search(r"^exiting (\d+)", r.stdout, re.M).group(1)) if "exiting" in r.stdout else 0
b = r.stderr
check("_exit after calls: the process is reported from its record (its 7 queries and its allocation), said to have ended without exiting",
      r.returncode == 0 and summary_pids(b) == [pid] and rows_of(b) == {"cudaGetDevice": 7, "cudaMalloc": 1} and "it ended without exiting" in b, b[-800:])
check("_exit after calls: its leak report, made from its record (1,024 bytes live)", re.search(r"pid %d, procs: 1,024 bytes leaked in 1 allocation" % pid, b)
      or ("1,024 bytes leaked in 1 allocation" in b and "made from its record" in b), b[-600:])
d, (rec,) = fresh("records")
r = sh([procs, "exit", "3"], env=env(CUDART_RS_RECORD=rec, CUDART_RS_SUMMARY=1))
rep = sh([opt.cli, "report", rec])
check("_exit with the variables alone: no report at its end, `cudart-rs report DIR` afterwards has it",
      r.returncode == 0 and "cudart-rs summary" not in r.stderr and rows_of(rep.stdout) == {"cudaGetDevice": 3, "cudaMalloc": 1}, (r.stderr, rep.stdout[:500]))
r = kit.run("--summary", "--", procs, "execs", "5", "2")
m = re.search(r"^before (\d+)", r.stdout, re.M)
who = leaked(r.stdout)
table = listed(r.stderr)
check("exec after calls: both program images reported, the first said to have exec'd (one pid, two lines)",
      bool(m) and r.returncode == 0 and list(who) == [int(m.group(1))] and "2 processes made runtime calls" in r.stderr
      and "it exec'd another program" in r.stderr and sorted(table) == [(int(m.group(1)), 3), (int(m.group(1)), 5)], r.stderr[:900])
p = subprocess.Popen(run_cmd("--summary", "--", procs, "sleep", "20000"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
got = wait_line(p, "pid ")
child = int(got[-1].split()[1]) if got and got[-1].startswith("pid ") else 0
if child:
    os.kill(child, signal.SIGKILL)
out, err = p.communicate(timeout=60)
check("SIGKILL: the killed program's call is reported from its record, the command's status 137",
      p.returncode == 137 and summary_pids(err) == [child] and rows_of(err) == {"cudaGetDevice": 1}, (p.returncode, err[-500:]))

# A timeline writer SIGKILLed, 20 rounds: every timeline file is valid JSON.
bad = []
rng = random.Random(35)
for i in range(20):
    d, (tl,) = fresh("t.json")
    if i % 2 == 0:
        # Under the command: two writers, one killed; the command joins what both wrote.
        p = subprocess.Popen(run_cmd("--timeline", tl, "--", "bash", "-c", "%s leak 1 4000 & %s leak 2 4000 & wait" % (procs, procs)),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    else:
        # The variables alone: three writers joining into one file, one killed (during its
        # calls, or while it joins).
        p = subprocess.Popen(["bash", "-c", "%s leak 1 4000 & %s leak 2 500 & %s leak 3 50 & wait" % (procs, procs, procs)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(LD_PRELOAD=lib, CUDART_RS_TIMELINE=tl))
    time.sleep(rng.uniform(0.02, 0.25))
    kids = []
    for t_ in os.listdir("/proc/%d/task" % p.pid) if os.path.isdir("/proc/%d" % p.pid) else []:
        kids += read("/proc/%d/task/%s/children" % (p.pid, t_)).split()
    if i % 2 == 0 and kids:
        kids = read("/proc/%s/task/%s/children" % (kids[0], kids[0])).split() or kids
    for k in kids[:1]:
        try:
            os.kill(int(k), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass
    p.communicate(timeout=120)
    files = [tl] + [os.path.join(d, f) for f in os.listdir(d) if f.endswith(".json") and os.path.join(d, f) != tl]
    for f in files:
        if os.path.exists(f) and not valid_json(f):
            bad.append((i, f, timeline(f)))
    if i % 2 == 0 and not os.path.exists(tl):
        bad.append((i, tl, "missing"))
check("a timeline writer SIGKILLed, 20 rounds (under cudart-rs run, and three processes sharing CUDART_RS_TIMELINE): every timeline file valid JSON",
      not bad, bad[:3])

# ==== forks ==================================================================================
d, (tl,) = fresh("t.json")
r = kit.run("--summary", "--timeline", tl, "--", procs, "threadfork", "20", "5", "4")
children = [int(x) for x in re.findall(r"^child (\d+)$", r.stdout, re.M)]
m = re.search(r"^parent (\d+) (\d+)$", r.stdout, re.M)
table = dict(listed(r.stderr))
t = timeline(tl)
ok_tl = isinstance(t, list) and all(collections.Counter(e["pid"] for e in t if e.get("ph") == "X")[c] == 10 for c in children)
check("20 forks while 4 threads make calls, under cudart-rs run: each child's exact calls (10), the parent's (its threads' count), no child unobserved",
      r.returncode == 0 and m and len(children) == 20 and table.get(int(m.group(1))) == int(m.group(2))
      and all(table.get(c) == 10 for c in children) and "not observed" not in r.stderr and ok_tl, (r.stdout[-200:], r.stderr[:1500]))
d, (s,) = fresh("s.txt")
r = sh([procs, "threadfork", "20", "5", "4"], env=env(LD_PRELOAD=lib, CUDART_RS_SUMMARY=s))
children = [int(x) for x in re.findall(r"^child (\d+)$", r.stdout, re.M)]
blk = {p_: rows_of(x) for p_, x in re.findall(r"(?ms)^==== cudart-rs summary \(pid (\d+), .*?(?=^==== |\Z)", read(s)) and
       [(int(m_.group(1)), m_.group(0)) for m_ in re.finditer(r"(?ms)^==== cudart-rs summary \(pid (\d+), .*?(?=^==== |\Z)", read(s))]}
check("20 threaded forks with the variables alone: each child's summary has its own calls only",
      r.returncode == 0 and len(children) == 20 and all(blk.get(c) == {"cudaGetErrorName": 5, "cudaRuntimeGetVersion": 5} for c in children),
      {c: blk.get(c) for c in children[:3]})
for label, e in (("without observation", env(LD_PRELOAD=lib)), ("observed", env(LD_PRELOAD=lib, CUDART_RS_SUMMARY=os.devnull, CUDART_RS_TIMELINE=os.path.join(work, "fi.json")))):
    hung = []
    for i in range(20):
        try:
            r = sh([procs, "forkinit", "8"], env=e, timeout=20)
            if r.returncode != 0 or not re.search(r"^child \d+ cuda\w+$", r.stdout, re.M):
                hung.append((i, r.returncode, r.stdout, r.stderr[-200:]))
        except subprocess.TimeoutExpired:
            hung.append((i, "hung"))
    check("a fork while 8 threads make their first calls, 20 times %s: the child never hangs, its calls answer" % label, not hung, hung[:3])

# ==== files ==================================================================================
NOBODY = 65534


def as_nobody():
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


users = [("as root", None)] + ([("as another user (nobody)", as_nobody)] if os.geteuid() == 0 else [])
if os.geteuid() != 0:
    skip("-o and --timeline as another user", "needs root (to run as another user)")
for who, pre in users:
    # A folder all can reach (/tmp), sticky, with the library and the program in it.
    top = tempfile.mkdtemp(dir=os.environ.get("TMPDIR") or "/tmp", prefix="cudart-rs-ends-")
    os.chmod(top, 0o1777)
    prog = os.path.join(top, "procs")
    kit.build(prog, os.path.join(top, "lib"))
    for dirpath, dirs, names in os.walk(top):
        for n in dirs + names:
            os.chmod(os.path.join(dirpath, n), 0o755)

    def cmd(*args):
        return [opt.cli, "run", "--lib", os.path.join(top, "lib"), "--abi", opt.abi, *args]

    own = (lambda p_: os.chown(p_, NOBODY, NOBODY)) if pre else (lambda p_: None)
    out, victim, tl = os.path.join(top, "out"), os.path.join(top, "victim"), os.path.join(top, "t.json")
    with open(victim, "w") as f:
        f.write("precious\n")
    os.mkdir(out)
    own(out)
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write("an earlier summary\n")
    os.symlink(victim, os.path.join(out, "leaks.txt"))
    with open(os.path.join(out, "notes.txt"), "w") as f:
        f.write("mine\n")
    e = env()
    r = sh(cmd("--leaks", "-o", out, "--", prog, "leak", "1"), env=e, preexec_fn=pre)
    check("-o DIR not empty, %s: refused (status 2, said), nothing in it touched" % who,
          r.returncode == 2 and "is not empty" in r.stderr and "--force-overwrite" in r.stderr and read(os.path.join(out, "summary.txt")) == "an earlier summary\n"
          and os.path.islink(os.path.join(out, "leaks.txt")) and read(victim) == "precious\n" and "leaked" not in r.stdout, (r.returncode, r.stderr))
    r = sh(cmd("--leaks", "--summary", "-o", out, "--force-overwrite", "--", prog, "leak", "1"), env=e, preexec_fn=pre)
    lk = os.path.join(out, "leaks.txt")
    modes = {f: stat.S_IMODE(os.lstat(os.path.join(out, f)).st_mode) for f in ("summary.txt", "summary.tsv", "leaks.txt") if os.path.lexists(os.path.join(out, f))}
    check("-o DIR --force-overwrite, %s: its reports replaced (the planted link removed, not followed), the rest kept, files 0600" % who,
          r.returncode == 0 and read(victim) == "precious\n" and not os.path.islink(lk) and "LEAK SUMMARY" in read(lk)
          and read(os.path.join(out, "notes.txt")) == "mine\n" and len(modes) == 3 and set(modes.values()) == {0o600}, (r.returncode, r.stderr[-300:], modes))
    # A link planted in the shared folder by the other user (nobody for root, root for nobody).
    os.symlink(victim, tl)
    if not pre:
        os.lchown(tl, NOBODY, NOBODY)
    r = sh(cmd("--timeline", tl, "--", prog, "leak", "1"), env=e, preexec_fn=pre)
    check("--timeline FILE a link another user planted, %s: refused, not followed" % who,
          r.returncode == 2 and "symbolic link" in r.stderr and read(victim) == "precious\n" and os.path.islink(tl), (r.returncode, r.stderr))
    r = sh(cmd("--timeline", tl, "--force-overwrite", "--", prog, "leak", "1"), env=e, preexec_fn=pre)
    if pre:
        # In a sticky folder nobody cannot remove root's link: refused, said.
        check("--timeline FILE --force-overwrite over root's link, as nobody: not removable here (sticky folder), refused, its target untouched",
              r.returncode == 2 and "cannot replace" in r.stderr and read(victim) == "precious\n" and os.path.islink(tl), (r.returncode, r.stderr))
        os.unlink(tl)
        open(tl, "w").close()
        os.chown(tl, NOBODY, NOBODY)
        r = sh(cmd("--timeline", tl, "--force-overwrite", "--", prog, "leak", "1"), env=e, preexec_fn=pre)
    check("--timeline FILE --force-overwrite, %s: replaced by the timeline (0600), the link's target untouched" % who,
          r.returncode == 0 and read(victim) == "precious\n" and not os.path.islink(tl) and valid_json(tl)
          and stat.S_IMODE(os.stat(tl).st_mode) == 0o600, (r.returncode, r.stderr[-300:]))
    r = sh(cmd("--timeline", tl, "--", prog, "leak", "1"), env=e, preexec_fn=pre)
    check("--timeline FILE that exists, %s: refused" % who, r.returncode == 2 and "exists" in r.stderr and valid_json(tl), r.stderr)
    if pre:
        theirs = tempfile.mkdtemp(dir=top)
        os.chmod(theirs, 0o755)
        r = sh(cmd("-o", theirs, "--force-overwrite", "--", prog, "leak", "1"), env=e, preexec_fn=pre)
        check("-o DIR of another user (root's), as nobody: refused even with --force-overwrite", r.returncode == 2 and "another user" in r.stderr, r.stderr)
    shutil.rmtree(top, ignore_errors=True)

d = fresh()[0]
weird = os.path.join(d, "a\nb")
os.mkdir(weird)
open(os.path.join(weird, "x"), "w").close()
r = kit.run("-o", weird, "--", procs, "leak", "1")
check("a refusal names a path with a newline escaped, on one line", r.returncode == 2 and "a\\nb is not empty" in r.stderr and r.stderr.count("\n") == 1, r.stderr)
r = kit.run("--timeline", "--", procs, "leak", "1")
check("--timeline -- is an error, not a file named --", r.returncode == 2 and "--timeline needs a name" in r.stderr and not os.path.exists("--"), r.stderr)

r = subprocess.run("%s doctor --lib %s | head -n 1" % (opt.cli, opt.libdir), shell=True, capture_output=True, text=True, env=env(), timeout=120)
check("cudart-rs doctor | head -1: the first line, no panic on the closed pipe", r.stdout.startswith("cudart-rs ") and "panicked" not in r.stderr, r.stderr)
r = sh([opt.cli, "doctor", "--lib", opt.libdir, "./no-such-program"], env=env())
check("cudart-rs doctor ./missing: said on stderr, status 1", r.returncode == 1 and "no-such-program: No such file" in r.stderr, (r.returncode, r.stderr))
d, (tl,) = fresh("t.json")
r = kit.run("--leaks", "--timeline", tl, "--", procs, "leak", "1")
check("one process, one allocation: said in the singular", "(1 process, 3 calls)" in r.stderr and "leaked in 1 allocation;" in r.stderr, r.stderr[-600:])

# The variables refuse what is not their report.
for content in ('{"a": 1}\n', "[1,2,3]\n"):
    d, (tl, s) = fresh("t.json", "s.txt")
    with open(tl, "w") as f:
        f.write(content)
    with open(s, "w") as f:
        f.write("my notes\n")
    r = sh([procs, "leak", "1"], env=env(LD_PRELOAD=lib, CUDART_RS_TIMELINE=tl, CUDART_RS_SUMMARY=s))
    pid = next(iter(leaked(r.stdout)), 0)
    own = tl + ".%d.json" % pid
    check("CUDART_RS_TIMELINE naming a file holding %s and CUDART_RS_SUMMARY a file of notes: both left as they were, said once each, "
          "the timeline in a file of the process's own, the summary on stderr" % content.strip(),
          read(tl) == content and read(s) == "my notes\n" and valid_json(own) and r.stderr.count("is not written to") == 2
          and summary_pids(r.stderr) == [pid], (read(tl), r.stderr[-500:]))
d, (s,) = fresh("s.txt")
r = sh([procs, "leak", "1"], env=env(LD_PRELOAD=lib, CUDART_RS_SUMMARY=s, CUDART_RS_TIMELINE=os.path.join(d, "t.json"), CUDART_RS_TRACE="1",
                                     CUDART_RS_TRACE_FILE=os.path.join(d, "tr.txt"), CUDART_RS_LEAKS="1," + os.path.join(d, "l.txt")))
modes = {f: oct(stat.S_IMODE(os.stat(os.path.join(d, f)).st_mode)) for f in sorted(os.listdir(d))}
check("report files the variables make are 0600", r.returncode == 0 and len(modes) == 4 and set(modes.values()) == {"0o600"}, modes)
# Paths are resolved at start: a program that changes its folder keeps its reports in one place.
d = fresh()[0]
os.mkdir(os.path.join(d, "elsewhere"))
r = sh([procs, "chdir", "elsewhere", "1"], cwd=d, env=env(LD_PRELOAD=lib, CUDART_RS_SUMMARY="s.txt", CUDART_RS_LEAKS="1,l.txt", CUDART_RS_TIMELINE="t.json"))
check("relative report paths are resolved at start: a program that changes its folder writes them where it started",
      r.returncode == 0 and sorted(os.listdir(d)) == ["elsewhere", "l.txt", "s.txt", "t.json"] and os.listdir(os.path.join(d, "elsewhere")) == []
      and valid_json(os.path.join(d, "t.json")), (os.listdir(d), os.listdir(os.path.join(d, "elsewhere")), r.stderr))


# A full disk: a tmpfs of 256 KiB, filled.
def full_disk():
    if os.geteuid() != 0:
        return skip("a full disk", "needs root (to mount a small tmpfs)")
    mnt = fresh()[0]
    m = sh(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mnt])
    if m.returncode != 0:
        return skip("a full disk", "cannot mount a tmpfs here: " + m.stderr.strip())
    try:
        fd = os.open(os.path.join(mnt, "filler"), os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while os.write(fd, b"x" * 4096) > 0:
                pass
        except OSError:
            pass
        os.close(fd)
        names = dict(CUDART_RS_SUMMARY=os.path.join(mnt, "s.txt"), CUDART_RS_LEAKS="1," + os.path.join(mnt, "l.txt"), CUDART_RS_TRACE="1",
                     CUDART_RS_TRACE_FILE=os.path.join(mnt, "tr.txt"), CUDART_RS_TIMELINE=os.path.join(mnt, "t.json"))
        plain = sh([procs, "leak", "1", "50"], env=env(LD_PRELOAD=lib))
        r = sh([procs, "leak", "1", "50"], env=env(LD_PRELOAD=lib, **names))
        said = collections.Counter(re.findall(r"^cudart-rs: the ([\w ]+) is not written", r.stderr, re.M))
        check("a full disk, the variables: the program's output and status unchanged; each report's error said once "
              "(call trace, summary, leak report, timeline), the trace, summary and leak report on stderr instead",
              r.returncode == plain.returncode == 0 and r.stdout.replace(str(r.stdout.split()[1]), "P") == plain.stdout.replace(str(plain.stdout.split()[1]), "P")
              and all(said[k] == 1 for k in ("call trace", "summary", "leak report", "timeline")) and "No space left" in r.stderr
              and len(summary_pids(r.stderr)) == 1 and "LEAK SUMMARY" in r.stderr and re.search(r"^cudart-rs\[\d+\] ", r.stderr, re.M)
              and all(valid_json(os.path.join(mnt, f)) for f in os.listdir(mnt) if f.endswith(".json")), (dict(said), r.stderr[:1200]))
        r = kit.run("--summary", "--leaks", "-o", os.path.join(mnt, "out"), "--", procs, "leak", "1", "50")
        said = re.findall(r"^cudart-rs(?: run)?: .*", r.stderr, re.M)
        check("a full disk under cudart-rs run -o: the status unchanged, each error said once, the process's reports on stderr instead",
              r.returncode == 0 and len(summary_pids(r.stderr)) == 1 and "LEAK SUMMARY" in r.stderr and said and len(said) == len(set(said)),
              r.stderr[-1500:])
    finally:
        sh(["umount", mnt])


full_disk()

# ==== a run inside a run; two nodes ==========================================================
r = sh(run_cmd("--summary", "--", *run_cmd("--summary", "--", procs, "leak", "1")), env=env())
pid = next(iter(leaked(r.stdout)), 0)
check("cudart-rs run inside cudart-rs run: both report the program (the inner hands its records to the outer)",
      r.returncode == 0 and summary_pids(r.stderr) == [pid, pid] and "no process made" not in r.stderr, r.stderr[-1500:])


def node(rank, out, host):
    inner = run_cmd("--summary", "--leaks", "-o", out, "--timeline", out + ".json", "--", "python3", fakerun, "--nnodes", "2", "--node-rank", str(rank), "--nproc-per-node", "2",
                    "--", procs, "leak", str(rank + 1), "100")
    if host:
        return subprocess.Popen(["unshare", "--uts", "sh", "-c", 'hostname "$0" && exec "$@"', host, *inner], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env())
    return subprocess.Popen(inner, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())


d = fresh()[0]
hosts = os.geteuid() == 0 and sh(["unshare", "--uts", "true"]).returncode == 0
outs = [os.path.join(d, "node%d" % i) for i in range(2)]
ps = [node(i, outs[i], "cudart-node%d" % i if hosts else None) for i in range(2)]
res = [p.communicate(timeout=120) + (p.returncode,) for p in ps]
who = {}
for o, _, _ in res:
    who.update(leaked(o))
job = os.path.join(d, "job.json")
rep = sh([opt.cli, "report", outs[0], outs[1], "--timeline", job])
table = dict(listed(rep.stdout))
t = timeline(job)
names = {e["pid"]: e["args"]["name"] for e in t if e.get("name") == "process_name"} if isinstance(t, list) else {}
ranks = sorted(int(x) for x in re.findall(r"rank (\d+)", " ".join(names.values())))
check("two nodes (two commands%s, torchrun-like launchers of 2 ranks each): each runs, status 0" % (", a host name each" if hosts else ""),
      all(x[2] == 0 for x in res) and len(who) == 4, [(x[2], x[1][-300:]) for x in res])
check("cudart-rs report NODE0 NODE1: one summary of the 4 ranks%s" % (" on 2 hosts" if hosts else ""),
      rep.returncode == 0 and "4 processes made runtime calls" in rep.stdout and sorted(table) == sorted(who)
      and (not hosts or ("on 2 hosts" in rep.stdout and "cudart-node0" in rep.stdout and "cudart-node1" in rep.stdout)), rep.stdout[:1500])
check("cudart-rs report --timeline: one valid timeline, a named track per host and process (ranks 0-3), each with its calls",
      isinstance(t, list) and ranks == [0, 1, 2, 3] and len(names) == 4 and (not hosts or all("host cudart-node" in n for n in names.values()))
      and all(sum(1 for e in t if e.get("pid") == p_ and e.get("ph") == "X") == 103 for p_ in names), (names, str(t)[:300]))
if not hosts:
    skip("two nodes with a host name each", "needs root and unshare --uts (both nodes ran on this host's name)")
verdicts.done()
