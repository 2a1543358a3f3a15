"""A DDP training interrupted midway, as a user's Ctrl-C interrupts one: run by
scripts/gpu/observe-gpu.sh under torchrun, with and without `cudart-rs run`, and compared.

    torchrun --nproc-per-node 2 interrupted.py --checkpoint DIR [--steps S] [--no-wait]
    fakerun.py --nproc-per-node 2 interrupted.py --checkpoint DIR --ctypes LIBCUDART

Each rank trains S steps (DDP over NCCL, fixed seeds, deterministic), prints `rank R: waiting
between epochs` and waits there (at most 600 s) for SIGINT, which torchrun passes to every rank
when it gets one. Python raises KeyboardInterrupt: the rank prints `rank R: caught
KeyboardInterrupt: saving checkpoint`, saves its weights to DIR/rank-R.pt (copies from the
GPU), prints their digest, and its `finally` block prints `rank R: finally` and leaves the
process group. The ranks wait where no collective is pending, so the interrupt is the same
every time: what they print is the same under any correct runtime (never an address or a
time). `--no-wait`: no wait, no interrupt (a job of several nodes: the ranks train and
leave).

`--gloo`: the ranks share the GPUs there are (rank R on GPU R modulo their number) and their
collectives go over gloo, which allows that; NCCL does not (a machine of one GPU).

`--ctypes LIBCUDART`: the rehearsal without PyTorch or a GPU (the stand-in driver): the same
steps and lines, the work being runtime calls made through ctypes (allocations, copies) and
the checkpoint a digest of what is copied back.
"""
import os
import sys
import time

for _v, _want in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"), ("NVSHMEM_DISABLE_NVLS", "1")):
    if os.environ.get(_v) != _want:
        sys.exit("interrupted.py: %s=%s must be set (NVLink multicast stays off)" % (_v, _want))


def arg(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


rank = int(os.environ.get("RANK", "0"))
local = int(os.environ.get("LOCAL_RANK", "0"))
steps = int(arg("--steps", "30"))
out = arg("--checkpoint", ".")
lib = arg("--ctypes")


def say(text):
    # One write(2) a line: the ranks share the pipe, and a line written in two parts (print's
    # text, then its newline) can be cut by another rank's.
    sys.stdout.flush()
    os.write(1, ("rank %d: %s\n" % (rank, text)).encode())


if lib:
    import ctypes
    import hashlib
    import struct

    rt = ctypes.CDLL(lib)
    buf = ctypes.c_void_p()
    n = 1 << 16
    host = (ctypes.c_float * (n // 4))(*[float((i * (rank + 1)) % 97) for i in range(n // 4)])

    def train():
        if rt.cudaSetDevice(0) or rt.cudaMalloc(ctypes.byref(buf), n):
            raise RuntimeError("cudaMalloc failed")
        for _ in range(steps):
            rt.cudaMemcpy(buf, host, n, 1)
            rt.cudaMemcpy(host, buf, n, 2)

    def checkpoint():
        back = (ctypes.c_char * n)()
        rt.cudaMemcpy(back, buf, n, 2)
        with open(os.path.join(out, "rank-%d.bin" % rank), "wb") as f:
            f.write(bytes(back))
        return hashlib.sha256(bytes(back) + struct.pack("i", steps)).hexdigest()[:16]

    def leave():
        rt.cudaFree(buf)
else:
    import torch  # noqa: E402
    import torch.distributed as dist  # noqa: E402
    import torch.nn as nn  # noqa: E402

    torch.use_deterministic_algorithms(True)
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    gloo = "--gloo" in sys.argv
    dev = torch.device("cuda", local % torch.cuda.device_count() if gloo else local)
    torch.cuda.set_device(dev)
    if gloo:
        dist.init_process_group("gloo")
    else:
        dist.init_process_group("nccl", device_id=dev)
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(
        nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10)).to(dev), device_ids=[dev.index])
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    g = torch.Generator().manual_seed(1234 + rank)

    def train():
        for _ in range(steps):
            x = torch.randn(32, 64, generator=g).to(dev)
            y = torch.randint(0, 10, (32,), generator=g).to(dev)
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        torch.cuda.synchronize(dev)

    def checkpoint():
        state = {k: v.detach().cpu() for k, v in model.module.state_dict().items()}
        torch.save(state, os.path.join(out, "rank-%d.pt" % rank))
        flat = torch.cat([v.flatten().double() for v in state.values()])
        return "sum=%s wsum=%s" % (float(flat.sum()).hex(), float((flat * torch.arange(1, flat.numel() + 1, dtype=torch.float64)).sum()).hex())

    def leave():
        dist.destroy_process_group()

try:
    train()
    say("trained %d steps" % steps)
    if "--no-wait" in sys.argv:
        say("checkpoint %s" % checkpoint())
        sys.exit(0)
    say("waiting between epochs")
    until = time.time() + 600
    while time.time() < until:
        time.sleep(0.05)
    say("not interrupted")
except KeyboardInterrupt:
    say("caught KeyboardInterrupt: saving checkpoint")
    say("checkpoint %s" % checkpoint())
finally:
    say("finally")
    leave()
