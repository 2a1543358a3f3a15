#!/usr/bin/env python3
"""Jobs of several processes under `cudart-rs run`, as on two GPUs (run by
scripts/gpu/observe-gpu.sh; rehearsed on the stand-in driver with --rehearse):

(a) A DDP training of two ranks started by torchrun (scripts/gpu/torch/interrupted.py), sent
    SIGINT midway: without cudart-rs (torchrun's pid), then under `cudart-rs run --summary
    --leaks --timeline` (the command's pid). Both ranks' KeyboardInterrupt and `finally` run,
    and print, the same both ways (the checkpoint's digest included); the exit statuses are
    the same; the one summary has both ranks, the timeline is valid JSON with a track per rank.
(b) A job of two nodes on one machine: two commands, `cudart-rs run -o DIR` each, each running
    `torchrun --nnodes 2 --node-rank R --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint
    127.0.0.1:PORT` (a GPU each); then `cudart-rs report DIR0 DIR1 --timeline FILE`: one
    summary of both ranks, one valid timeline with a track per host and process.

  gpu_jobs.py --cli CUDART_RS --lib DIR --work DIR --out DIR [--rehearse --driver STAND_IN]

On a machine of one GPU the ranks share it and their collectives go over gloo in place of NCCL
(interrupted.py --gloo), the jobs being otherwise the same.

--rehearse: no PyTorch, no GPU: scripts/test/observe/fakerun.py stands for torchrun and the
ranks make their runtime calls through ctypes (interrupted.py --ctypes).
Prints PASS/FAIL/SKIP lines and `gpu-jobs: N passed, N failed, N skipped`.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

from common import ROOT, listed
from verdicts import Verdicts

ap = argparse.ArgumentParser()
ap.add_argument("--cli", required=True)
ap.add_argument("--lib", required=True, help="the folder of our libcudart.so.13")
ap.add_argument("--work", required=True)
ap.add_argument("--out", required=True, help="where the timelines are left")
ap.add_argument("--rehearse", action="store_true")
ap.add_argument("--driver")
opt = ap.parse_args()
for k in ("cli", "lib", "work", "out", "driver"):
    if getattr(opt, k):
        setattr(opt, k, os.path.abspath(getattr(opt, k)))
os.makedirs(opt.work, exist_ok=True)
verdicts = Verdicts("gpu-jobs")
check, skip = verdicts.check, verdicts.skip
signal.signal(signal.SIGINT, signal.SIG_DFL)

env = {k: v for k, v in os.environ.items() if not k.startswith("CUDART_RS_") and k not in ("LD_PRELOAD", "RANK", "LOCAL_RANK")}
env.update(NCCL_NVLS_ENABLE="0", TORCH_SYMM_MEM_DISABLE_MULTICAST="1", NVSHMEM_DISABLE_NVLS="1", PYTHONUNBUFFERED="1")
script = os.path.join(ROOT, "scripts/gpu/torch/interrupted.py")
worker = [script]
gpus = 2
if opt.rehearse:
    env["CUDART_RS_DRIVER"] = opt.driver
    launcher = [sys.executable, os.path.join(ROOT, "scripts/test/observe/fakerun.py")]
    worker += ["--ctypes", os.path.join(opt.lib, "libcudart.so.13")]
    # The rehearsal's ranks load our library themselves (ctypes); under NVIDIA's runtime
    # they would need NVIDIA's: "without cudart-rs" is without its observation here.
else:
    gpus = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.count("GPU ")
    if gpus < 1:
        skip("the jobs on GPUs", "skipped: no GPU")
        verdicts.done()
    if gpus < 2:
        worker.append("--gloo")
        # gloo finds its address from the host name, which the nodes' UTS namespaces change.
        env["GLOO_SOCKET_IFNAME"] = "lo"
        print("NOTE one GPU: the ranks share it, their collectives over gloo (NCCL allows no two ranks on one GPU)", flush=True)
    launcher = [shutil.which("torchrun")] if shutil.which("torchrun") else [sys.executable, "-m", "torch.distributed.run"]


def run_cmd(*args):
    return [opt.cli, "run", "--lib", opt.lib, "--abi", "13", *args]


def log(name, text):
    with open(os.path.join(opt.work, name), "w") as f:
        f.write(text)


def rank_lines(out):
    """rank -> its lines (`rank R: ...`), in order."""
    by = {}
    for m in re.finditer(r"^rank (\d+): (.*)$", out, re.M):
        by.setdefault(int(m.group(1)), []).append(m.group(2))
    return by


def valid(path):
    try:
        with open(path) as f:
            t = json.load(f)
        return t if isinstance(t, list) else None
    except Exception:  # noqa: BLE001
        return None


# ==== (a) SIGINT midway ======================================================================
def interrupted(way):
    ck = os.path.join(opt.work, "checkpoint-" + way)
    os.makedirs(ck, exist_ok=True)
    cmd = [*launcher, "--standalone", "--nproc-per-node", "2", *worker, "--checkpoint", ck]
    tl = os.path.join(opt.out, "ddp-interrupted.json")
    if way == "cudart-rs":
        cmd = run_cmd("--summary", "--leaks", "--timeline", tl, "--force-overwrite", "-o", os.path.join(opt.work, "ddp-reports"), "--", *cmd)
    print("  $ " + " ".join(cmd), flush=True)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    seen, lines, until = set(), [], time.time() + 150
    while time.time() < until and len(seen) < 2:
        line = p.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.match(r"^rank (\d+): waiting between epochs", line)
        if m:
            seen.add(m.group(1))
    sent = len(seen) == 2
    if sent:
        os.kill(p.pid, signal.SIGINT)
    try:
        out, err = p.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        err += "\n(killed: still running 90 s after SIGINT)"
    out = "".join(lines) + out
    log("ddp-%s.out" % way, out)
    log("ddp-%s.err" % way, err)
    return sent, p.returncode, out, err, tl


plain = interrupted("plain")
ours = interrupted("cudart-rs")
want = ["caught KeyboardInterrupt: saving checkpoint", "checkpoint", "finally"]


def story(out):
    """rank -> what it did after the interrupt (the checkpoint's digest left out)."""
    return {r: [re.sub(r"^checkpoint .*", "checkpoint", l) for l in ls if not l.startswith(("trained", "waiting"))]
            for r, ls in rank_lines(out).items()}


check("DDP, 2 ranks, SIGINT to torchrun midway, without cudart-rs: both ranks catch KeyboardInterrupt, save, run finally",
      plain[0] and story(plain[2]) == {0: want, 1: want}, (plain[1], plain[2][-800:], plain[3][-1500:]))
check("the same under cudart-rs run (SIGINT to the command): each rank prints what it printed without cudart-rs (the checkpoint's digest too)",
      ours[0] and rank_lines(ours[2]) == rank_lines(plain[2]), (ours[1], ours[2][-800:], ours[3][-1500:]))
check("the same exit status both ways (%s, %s)" % (plain[1], ours[1]), plain[1] == ours[1], (plain[1], ours[1]))
ranks = {r for _, r in re.findall(r"^\s+(\d+)\s+(\d+|-)\s+[\d,]+\s+\d", ours[3], re.M)}
check("under cudart-rs run: one summary with both ranks, a leak report each",
      "processes made runtime calls" in ours[3] and {"0", "1"} <= ranks and len(re.findall(r"rank \d+: [\d,]+ bytes leaked", ours[3])) >= 2,
      ours[3][ours[3].find("==== cudart-rs summary"):][:2000])
t = valid(ours[4])
names = {e["pid"]: e["args"]["name"] for e in t or [] if e.get("name") == "process_name"}
check("under cudart-rs run: the timeline is valid JSON, a named track per rank with its calls",
      t is not None and {re.search(r"rank (\d+)", n).group(1) for n in names.values() if re.search(r"rank (\d+)", n)} >= {"0", "1"}
      and all(any(e.get("pid") == p and e.get("ph") == "X" for e in t) for p, n in names.items() if "rank" in n), names)


# ==== (b) two nodes ==========================================================================
def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


port = free_port()
hosts = os.geteuid() == 0 and subprocess.run(["unshare", "--uts", "true"], capture_output=True).returncode == 0
nodes = []
for r in range(2):
    d = os.path.join(opt.work, "node%d" % r)
    shutil.rmtree(d, ignore_errors=True)
    cmd = run_cmd("--summary", "--leaks", "-o", d, "--timeline", d + ".json", "--force-overwrite", "--", *launcher, "--nnodes", "2",
                  "--node-rank", str(r), "--nproc-per-node", "1",
                  "--rdzv-backend", "c10d", "--rdzv-endpoint", "127.0.0.1:%d" % port, "--local-addr", "127.0.0.1", *worker, "--checkpoint", d + "-ck", "--no-wait")
    os.makedirs(d + "-ck", exist_ok=True)
    if hosts:
        cmd = ["unshare", "--uts", "sh", "-c", 'hostname "$0" && exec "$@"', "cudart-rs-node%d" % r, *cmd]
    print("  $ " + " ".join(cmd), flush=True)
    # --local-addr: the address the other node reaches this one at (torchrun would look up the
    # host name, which the UTS namespace made up). A GPU each; NCCL_HOSTID: NCCL tells hosts
    # apart by their name, which the UTS namespaces change: the two "nodes" are one machine to
    # it (shared memory between them, no network).
    e = dict(env, CUDA_VISIBLE_DEVICES=str(r % gpus), NCCL_HOSTID="cudart-rs-observe-gpu")
    nodes.append((d, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)))
res = []
for r, (d, p) in enumerate(nodes):
    try:
        out, err = p.communicate(timeout=150)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    log("node%d.out" % r, out)
    log("node%d.err" % r, err)
    res.append((p.returncode, out, err))
check("two nodes (two cudart-rs run -o DIR, torchrun --nnodes 2 --rdzv-backend c10d%s): both run to the end" % (", a host name each" if hosts else ""),
      all(x[0] == 0 for x in res) and all(len(rank_lines(x[1])) == 1 for x in res), [(x[0], x[1][-300:], x[2][-800:]) for x in res])
job = os.path.join(opt.out, "job-timeline.json")
rep = subprocess.run([opt.cli, "report", nodes[0][0], nodes[1][0], "--timeline", job, "--force-overwrite"], capture_output=True, text=True, timeout=120)
log("report.out", rep.stdout + rep.stderr)
table = listed(rep.stdout)
ranks = set(re.findall(r"^\s+(?:\S+\s+)?\d+\s+(\d+)\s+[\d,]+\s+\d", rep.stdout, re.M))
check("cudart-rs report DIR0 DIR1: one summary of both nodes' ranks%s" % (" on 2 hosts" if hosts else ""),
      rep.returncode == 0 and ranks >= {"0", "1"} and (not hosts or "on 2 hosts" in rep.stdout), rep.stdout[:2000] + rep.stderr)
t = valid(job)
names = {e["pid"]: e["args"]["name"] for e in t or [] if e.get("name") == "process_name"}
check("cudart-rs report --timeline: valid JSON, a named track per host and process, each with its calls",
      t is not None and len(names) == len(table) >= 2 and len(set(names)) == len(names)
      and all(any(e.get("pid") == p and e.get("ph") == "X" for e in t) for p in names)
      and (not hosts or all("host cudart-rs-node" in n for n in names.values())), names)
if not hosts:
    skip("two nodes with a host name each", "needs root and unshare --uts; both nodes ran under this host's name")
verdicts.done()
