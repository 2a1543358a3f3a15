"""PyTorch on several GPUs, for comparing runtimes: run by scripts/torch2-check.sh.

    python3 ddp.py spawn [--world N] [--steps S]   DDP training (SGD, Adam), collectives and a
                                                  captured graph on each rank, processes
                                                  started by torch.multiprocessing.spawn
    torchrun --nproc-per-node N ddp.py train [--steps S]   the training, started by torchrun
    python3 ddp.py peer | ipc                     tensors between devices; CUDA IPC

Prints only what must be the same under any correct runtime: losses, checksums and values,
rounded, never addresses or times (times go to stderr as `time: ...`). Each rank's lines are
printed by rank 0 in rank order (gathered), so the output does not depend on scheduling.
NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1 and NVSHMEM_DISABLE_NVLS=1 must be set
(the caller sets them; checked here): NVLink multicast is never used.
"""
import os
import sys
import time

for _v in ("NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST", "NVSHMEM_DISABLE_NVLS"):
    if os.environ.get(_v) != ("0" if _v == "NCCL_NVLS_ENABLE" else "1"):
        sys.exit("ddp.py: %s must be set (NVLink multicast stays off)" % _v)
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402
import torch.nn as nn  # noqa: E402


def arg(name, default):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def setup(rank, world, port):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(port))
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))


def gathered_print(lines, rank, world):
    """Rank 0 prints every rank's lines, rank by rank."""
    out = [None] * world
    dist.all_gather_object(out, lines)
    if rank == 0:
        for r, ls in enumerate(out):
            for line in ls:
                print("rank %d: %s" % (r, line), flush=True)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 8 * 8, 10)

    def forward(self, x):
        x = torch.relu(self.c1(x))
        x = torch.max_pool2d(torch.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


def checksum(model):
    with torch.no_grad():
        return sum(float(p.double().abs().sum()) for p in model.parameters())


def train(rank, world, steps, opt_name):
    """DDP training, fixed seeds, deterministic algorithms: the loss of each step and the
    weights' checksum (the same on every rank)."""
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.benchmark = False
    dev = torch.device("cuda", rank)
    model = nn.parallel.DistributedDataParallel(Net().to(dev), device_ids=[rank])
    opt = (torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9) if opt_name == "sgd"
           else torch.optim.Adam(model.parameters(), lr=1e-3))
    g = torch.Generator().manual_seed(1234 + rank)
    data = torch.randn(steps, 16, 3, 16, 16, generator=g)
    labels = torch.randint(0, 10, (steps, 16), generator=g)
    lines = []
    t0 = time.perf_counter()
    for s in range(steps):
        x, y = data[s].to(dev, non_blocking=True), labels[s].to(dev, non_blocking=True)
        opt.zero_grad(set_to_none=True)
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        lines.append("%s step %d loss %.6f" % (opt_name, s, loss.item()))
    torch.cuda.synchronize(dev)
    dt = time.perf_counter() - t0
    lines.append("%s weights checksum %.6f" % (opt_name, checksum(model.module)))
    sums = [None] * world
    dist.all_gather_object(sums, round(checksum(model.module), 6))
    lines.append("%s checksums equal on all ranks: %s" % (opt_name, len(set(sums)) == 1))
    print("time: rank %d %s training %.3f s" % (rank, opt_name, dt), file=sys.stderr, flush=True)
    return lines


def collectives(rank, world):
    dev = torch.device("cuda", rank)
    lines = []
    t = torch.arange(8, dtype=torch.float32, device=dev) + 10 * rank
    dist.all_reduce(t)
    lines.append("all_reduce %s" % t.tolist())
    parts = [torch.empty(4, device=dev) for _ in range(world)]
    dist.all_gather(parts, torch.full((4,), float(rank + 1), device=dev))
    lines.append("all_gather %s" % [p.tolist() for p in parts])
    b = torch.full((3,), float(rank), device=dev) if rank else torch.tensor([7.0, 8.0, 9.0], device=dev)
    dist.broadcast(b, 0)
    lines.append("broadcast %s" % b.tolist())
    inp = torch.arange(4 * world, dtype=torch.float32, device=dev) * (rank + 1)
    outp = torch.empty(4, device=dev)
    dist.reduce_scatter_tensor(outp, inp)
    lines.append("reduce_scatter %s" % outp.tolist())
    dist.barrier()
    torch.cuda.synchronize(dev)
    lines.append("barrier and synchronize done")
    return lines


def peer(world):
    """Tensors between devices in one process: .to, copy_, non-blocking copies on side
    streams ordered by events across devices; can_device_access_peer."""
    n = torch.cuda.device_count()
    print("devices %d" % n)
    for i in range(n):
        for j in range(n):
            if i != j:
                print("can_device_access_peer(%d, %d) %s" % (i, j, torch.cuda.can_device_access_peer(i, j)))
    if n < 2:
        print("peer copies: one device only")
        return
    a = torch.arange(1 << 20, dtype=torch.float32, device="cuda:0")
    b = a.to("cuda:1")
    print("to: sum %.1f" % float(b.sum()))
    c = torch.empty_like(b)
    c.copy_(a)
    print("copy_: equal %s" % bool(torch.equal(c.cpu(), a.cpu())))
    s0 = torch.cuda.Stream("cuda:0")
    s1 = torch.cuda.Stream("cuda:1")
    with torch.cuda.stream(s0):
        x = a * 2
        ev = torch.cuda.Event()
        ev.record(s0)
    with torch.cuda.stream(s1):
        s1.wait_event(ev)
        y = torch.empty(x.shape, device="cuda:1")
        y.copy_(x, non_blocking=True)
        z = y + 1
    s1.synchronize()
    print("side streams with an event between devices: sum %.1f" % float(z.sum()))
    h = torch.empty(1 << 20, pin_memory=True)
    h.copy_(z, non_blocking=True)
    torch.cuda.synchronize("cuda:1")
    print("device to pinned, non-blocking: first %.1f last %.1f" % (float(h[0]), float(h[-1])))


def ipc_child(q_in, q_out):
    torch.cuda.set_device(1 if torch.cuda.device_count() > 1 else 0)
    t = q_in.get()
    dev = torch.cuda.current_device()
    t.add_(1)  # writes on cuda:0's memory through IPC
    local = t.to("cuda:%d" % dev)
    q_out.put(("child on cuda:%d read sum %.1f" % (dev, float(local.sum())),))
    q_in.get()  # wait until the parent has read


def ipc():
    """A tensor made on cuda:0 handed to a process working on cuda:1 (CUDA IPC)."""
    ctx = mp.get_context("spawn")
    q_in, q_out = ctx.Queue(), ctx.Queue()
    p = ctx.Process(target=ipc_child, args=(q_in, q_out))
    p.start()
    t = torch.arange(1024, dtype=torch.float32, device="cuda:0")
    q_in.put(t)
    (msg,) = q_out.get()
    print(msg)
    torch.cuda.synchronize("cuda:0")
    print("parent reads back after the child's write: sum %.1f" % float(t.sum()))
    q_in.put(None)
    p.join()
    print("child exit code %d" % p.exitcode)


def graph(rank):
    """torch.cuda.graph capture and replay of a forward and backward pass, no collectives."""
    torch.manual_seed(0)
    dev = torch.device("cuda", rank)
    model = Net().to(dev)
    x = torch.randn(16, 3, 16, 16, device=dev)
    y = torch.randint(0, 10, (16,), device=dev)
    s = torch.cuda.Stream(dev)
    s.wait_stream(torch.cuda.current_stream(dev))
    with torch.cuda.stream(s):
        for _ in range(3):
            model.zero_grad(set_to_none=True)
            nn.functional.cross_entropy(model(x), y).backward()
    torch.cuda.current_stream(dev).wait_stream(s)
    g = torch.cuda.CUDAGraph()
    model.zero_grad(set_to_none=False)
    with torch.cuda.graph(g):
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
    lines = []
    for i in range(3):
        x.copy_(torch.randn(16, 3, 16, 16, generator=torch.Generator().manual_seed(i)).to(dev))
        g.replay()
        torch.cuda.synchronize(dev)
        lines.append("graph replay %d loss %.6f grad checksum %.6f" %
                     (i, loss.item(), float(model.fc.weight.grad.double().abs().sum())))
    return lines


def spawn_main(rank, world, steps, port):
    setup(rank, world, port)
    lines = []
    for opt_name in ("sgd", "adam"):
        lines += train(rank, world, steps, opt_name)
    lines += collectives(rank, world)
    lines += graph(rank)
    gathered_print(lines, rank, world)
    dist.destroy_process_group()


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "spawn"
    world = arg("--world", 2)
    steps = arg("--steps", 50)
    if what == "spawn":
        mp.spawn(spawn_main, args=(world, steps, arg("--port", 29611)), nprocs=world, join=True)
    elif what == "train":  # under torchrun
        rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
        setup(rank, world, 0)
        lines = []
        for opt_name in ("sgd", "adam"):
            lines += train(rank, world, steps, opt_name)
        gathered_print(lines, rank, world)
        dist.destroy_process_group()
    elif what == "peer":
        peer(world)
    elif what == "ipc":
        ipc()
    else:
        sys.exit("ddp.py: unknown section %s" % what)


if __name__ == "__main__":
    main()
