#!/usr/bin/env python3
"""`cudart-rs run` on a PyTorch DDP training started by torchrun on two GPUs:

  cudart-rs run --summary --timeline T --gpu-spans --lib LIB -o DIR -- torchrun --standalone \\
      --nproc-per-node 2 scripts/gpu/torch/ddp.py rank --steps S

and checks that both ranks are in the one summary (and its records), that the timeline is one
valid trace-event file with a named track per rank, and that the training printed its losses.

  ddp.py --cli CUDART_RS --lib DIR --work DIR --timeline T [--steps S] [--label L]

Prints PASS/FAIL/SKIP lines; exit status 1 if any failed. Needs two GPUs (SKIP otherwise).
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

from verdicts import Verdicts

ap = argparse.ArgumentParser()
ap.add_argument("--cli", required=True)
ap.add_argument("--lib", required=True)
ap.add_argument("--work", required=True)
ap.add_argument("--timeline", required=True)
ap.add_argument("--steps", type=int, default=20)
ap.add_argument("--label", default="")
opt = ap.parse_args()
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
verdicts = Verdicts("ddp", opt.label)
check, done = verdicts.check, verdicts.done


gpus = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.count("GPU ")
if gpus < 2:
    verdicts.skip("cudart-rs run -- torchrun --nproc-per-node 2", "needs two GPUs, this machine has %d" % gpus)
    done()

os.makedirs(opt.work, exist_ok=True)
out = os.path.join(opt.work, "ddp-reports")
env = dict(os.environ, NCCL_NVLS_ENABLE="0", TORCH_SYMM_MEM_DISABLE_MULTICAST="1", NVSHMEM_DISABLE_NVLS="1",
           PYTHONUNBUFFERED="1", CUBLAS_WORKSPACE_CONFIG=":4096:8")
torchrun = shutil.which("torchrun")
launcher = [torchrun] if torchrun else [sys.executable, "-m", "torch.distributed.run"]
cmd = [opt.cli, "run", "--lib", opt.lib, "--summary", "--timeline", opt.timeline, "--gpu-spans", "-o", out, "--",
       *launcher, "--standalone", "--nproc-per-node", "2", os.path.join(root, "scripts/gpu/torch/ddp.py"), "rank", "--steps", str(opt.steps)]
print("  $ " + " ".join(cmd))
p = subprocess.run(cmd, capture_output=True, text=True, timeout=400, env=env)
with open(os.path.join(opt.work, "ddp.out"), "w") as f:
    f.write(p.stdout)
with open(os.path.join(opt.work, "ddp.err"), "w") as f:
    f.write(p.stderr)
check("torchrun under cudart-rs run: the training runs to the end, status 0",
      p.returncode == 0 and re.search(r"^rank 1: ", p.stdout, re.M), "exit %d; %s" % (p.returncode, p.stderr[-1500:]))
m = re.search(r"==== cudart-rs summary: (\d+) processes made runtime calls", p.stderr)
ranks = re.findall(r"^\s+(\d+)\s+(\d+|-)\s+[\d,]+\s+\d", p.stderr, re.M)
check("one summary with both ranks, each with its calls", m and {r for _, r in ranks} >= {"0", "1"},
      p.stderr[p.stderr.find("==== cudart-rs summary"):][:1500])
total = p.stderr.split("All processes:", 1)[-1]
check("the summed tables: launches and copies of both ranks", "cudaLaunchKernel" in total and "Kernel launches:" in total, total[:800])
recs = open(os.path.join(out, "summary.tsv")).read() if os.path.exists(os.path.join(out, "summary.tsv")) else ""
blocks = [b for b in recs.split("\nend\n") if b.strip()]
rec_ranks, others = [], []
for b in blocks:
    head = b.strip().splitlines()[0].split("\t")
    calls = [ln.split("\t")[1] for ln in b.splitlines() if ln.startswith("call\t")]
    if len(head) > 3 and head[3]:
        rec_ranks.append(head[3])
    else:
        others.append((head[1] if len(head) > 1 else "?", [c for c in calls if not c.startswith(("__cudaRegister", "__cudaUnregister"))]))
check("the summary's records: a block per rank", sorted(rec_ranks) == ["0", "1"], rec_ranks)
# torchrun imports PyTorch (thousands of fat-binary registrations, which do not count) and
# asks for the device count: a process without a rank is there only for calls of its own.
check("a process without a rank (torchrun) is in the summary only for calls it made itself (not registrations)",
      all(c for _, c in others), others)
try:
    tl = json.load(open(opt.timeline))
except Exception as e:  # noqa: BLE001
    tl = "not JSON: %s" % e
ok = isinstance(tl, list)
check("the timeline is one valid trace-event JSON array", ok, tl if not ok else "")
if ok:
    names = {e["pid"]: e["args"]["name"] for e in tl if e.get("name") == "process_name"}
    calls = collections.Counter(e["pid"] for e in tl if e.get("ph") == "X" and not str(e.get("cat", "")).startswith("gpu"))
    rank_tracks = {re.search(r"rank (\d+)", n).group(1) for n in names.values() if re.search(r"rank (\d+)", n)}
    check("the timeline: a named track per rank, each with its calls", rank_tracks >= {"0", "1"}
          and all(calls[pid] > 0 for pid, n in names.items() if "rank" in n), (names, dict(calls)))
    print("  timeline: %d events, processes %s" % (len(tl), names))
done()
