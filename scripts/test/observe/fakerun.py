"""A launcher of ranks, as torchrun is (its command line, for the rehearsals without PyTorch):
starts NPROC copies of COMMAND (a `.py` is run by this Python) with RANK, LOCAL_RANK,
WORLD_SIZE and GROUP_RANK set (RANK = NODE_RANK * NPROC + LOCAL_RANK), waits for them, and
exits with the first failure's status. It imports nothing of CUDA and makes no runtime call
itself. SIGINT and SIGTERM are passed to the ranks, as torchrun passes them. torchrun's
rendezvous options are taken and ignored.

  python3 fakerun.py [--standalone] [--nnodes N] [--node-rank R] [--nproc-per-node P]
                     [--rdzv-backend B --rdzv-endpoint E] [--] COMMAND ARGS...
"""
import argparse
import os
import signal
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--nnodes", type=int, default=1)
ap.add_argument("--node-rank", type=int, default=0)
ap.add_argument("--nproc-per-node", type=int, default=1)
ap.add_argument("--standalone", action="store_true")
ap.add_argument("--rdzv-backend")
ap.add_argument("--rdzv-endpoint")
ap.add_argument("--local-addr")
ap.add_argument("command", nargs=argparse.REMAINDER)
opt = ap.parse_args()
cmd = opt.command[1:] if opt.command[:1] == ["--"] else opt.command
if cmd and cmd[0].endswith(".py"):
    cmd = [sys.executable, *cmd]
world = opt.nnodes * opt.nproc_per_node
ranks = []
for local in range(opt.nproc_per_node):
    env = dict(os.environ, RANK=str(opt.node_rank * opt.nproc_per_node + local), LOCAL_RANK=str(local),
               WORLD_SIZE=str(world), GROUP_RANK=str(opt.node_rank))
    ranks.append(subprocess.Popen(cmd, env=env))


def forward(sig, _frame):
    for r in ranks:
        if r.poll() is None:
            r.send_signal(sig)


signal.signal(signal.SIGINT, forward)
signal.signal(signal.SIGTERM, forward)
codes = [r.wait() for r in ranks]
bad = [c for c in codes if c != 0]
sys.exit(bad[0] if bad and bad[0] > 0 else (1 if bad else 0))
