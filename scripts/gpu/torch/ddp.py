"""PyTorch on every GPU of the machine, for comparing runtimes: run by scripts/gpu/torch2-check.sh.

    python3 ddp.py spawn [--steps S] [--port P]
        one process per GPU started by torch.multiprocessing.spawn: DistributedDataParallel
        training over NCCL with SGD, then Adam (S steps each, default 50), the collectives
        (all_reduce, all_gather, broadcast, reduce_scatter, barrier), torch.cuda.graph capture
        and replay on each rank
    python3 -m torch.distributed.run --standalone --nproc-per-node N ddp.py rank [--steps S]
        the same, each process started by torchrun
    python3 ddp.py local
        in one process: tensors between every ordered pair of devices (.to, copy_, non-blocking
        copies on side streams ordered by events across devices, to pinned memory,
        can_device_access_peer); then a CUDA tensor made on each device handed through
        torch.multiprocessing queues to a process working on the next device, which writes it
        (CUDA IPC) and reads it onto its own device

Prints only what must be the same under any correct runtime on the same machine: losses and
weight checksums as float.hex, values read back, never addresses or times. Each rank's lines
are printed by rank 0 in rank order (gathered), so the output does not depend on scheduling.
On stderr: `time: training S` per rank (the two optimisers' loops, after a warm-up), and
`maps: PATH` for each libcudart the process has mapped (which runtime it really has).
NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1 and NVSHMEM_DISABLE_NVLS=1 must be set
(the caller sets them, every process inherits them; checked here): NVLink multicast is never
used.
"""
import os
import sys
import time

for _v, _want in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"), ("NVSHMEM_DISABLE_NVLS", "1")):
    if os.environ.get(_v) != _want:
        sys.exit("ddp.py: %s=%s must be set (NVLink multicast stays off)" % (_v, _want))
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def arg(name, default):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def deterministic():
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.benchmark = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False


def h(x):
    """An exact digest of a tensor: shape, and the hex of its float64 sum and of a
    position-weighted sum (so a permutation shows)."""
    f = x.detach().to("cpu", torch.float64).flatten()
    w = torch.arange(1, f.numel() + 1, dtype=torch.float64)
    return "%s sum=%s wsum=%s" % (tuple(x.shape), float(f.sum()).hex(), float((f * w).sum()).hex())


def maps(label):
    """Which libcudart files this process maps, to stderr."""
    try:
        with open("/proc/self/maps") as m:
            libs = sorted({l.split()[-1] for l in m if "libcudart" in l})
    except OSError:
        libs = []
    for lib in libs or ["none"]:
        print("maps: %s %s" % (label, lib), file=sys.stderr, flush=True)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 8 * 8, 10)

    def forward(self, x):
        x = F.relu(self.c1(x))
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


def weights(model):
    return h(torch.cat([p.detach().flatten().double() for p in model.parameters()]))


# --------------------------------------------------------------------------- one rank's work


def warm_up(dev):
    """The libraries' first calls (cuDNN, cuBLAS), outside what is timed."""
    x = torch.randn(16, 3, 16, 16, device=dev)
    Net().to(dev)(x).sum().backward()
    torch.cuda.synchronize(dev)


def train(rank, world, steps, opt_name):
    """DDP training, fixed seeds, deterministic algorithms: each step's loss, the weights'
    digest, whether every rank has the same weights. Returns (lines, seconds)."""
    torch.manual_seed(0)
    dev = torch.device("cuda", rank)
    model = nn.parallel.DistributedDataParallel(Net().to(dev), device_ids=[rank])
    opt = (torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9) if opt_name == "sgd"
           else torch.optim.Adam(model.parameters(), lr=1e-3))
    g = torch.Generator().manual_seed(1234 + rank)
    data = torch.randn(steps, 16, 3, 16, 16, generator=g).pin_memory()
    labels = torch.randint(0, 10, (steps, 16), generator=g).pin_memory()
    losses = torch.empty(steps, device=dev)
    torch.cuda.synchronize(dev)
    t0 = time.perf_counter()
    for s in range(steps):
        x, y = data[s].to(dev, non_blocking=True), labels[s].to(dev, non_blocking=True)
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses[s] = loss.detach()
    torch.cuda.synchronize(dev)
    dt = time.perf_counter() - t0
    lines = ["%s step %d loss %s" % (opt_name, s, v.hex()) for s, v in enumerate(losses.tolist())]
    lines.append("%s weights %s" % (opt_name, weights(model.module)))
    digests = [None] * world
    dist.all_gather_object(digests, weights(model.module))
    lines.append("%s weights equal on all ranks: %s" % (opt_name, len(set(digests)) == 1))
    return lines, dt


def collectives(rank, world):
    dev = torch.device("cuda", rank)
    lines = []
    t = torch.arange(8, dtype=torch.float32, device=dev) + 10 * rank
    dist.all_reduce(t)
    lines.append("all_reduce %s" % t.tolist())
    m = torch.full((4,), float(rank + 1), device=dev)
    dist.all_reduce(m, op=dist.ReduceOp.MAX)
    lines.append("all_reduce max %s" % m.tolist())
    parts = [torch.empty(4, device=dev) for _ in range(world)]
    dist.all_gather(parts, torch.full((4,), float(rank + 1), device=dev))
    lines.append("all_gather %s" % [p.tolist() for p in parts])
    flat = torch.empty(2 * world, device=dev)
    dist.all_gather_into_tensor(flat, torch.tensor([rank, -rank], dtype=torch.float32, device=dev))
    lines.append("all_gather_into_tensor %s" % flat.tolist())
    b = torch.full((3,), float(rank), device=dev) if rank else torch.tensor([7.0, 8.0, 9.0], device=dev)
    dist.broadcast(b, 0)
    lines.append("broadcast from 0 %s" % b.tolist())
    last = world - 1
    b = torch.full((2,), float(rank), device=dev)
    dist.broadcast(b, last)
    lines.append("broadcast from %d %s" % (last, b.tolist()))
    inp = torch.arange(4 * world, dtype=torch.float32, device=dev) * (rank + 1)
    outp = torch.empty(4, device=dev)
    dist.reduce_scatter_tensor(outp, inp)
    lines.append("reduce_scatter_tensor %s" % outp.tolist())
    outs = torch.empty(3, device=dev)
    dist.reduce_scatter(outs, [torch.full((3,), float(rank * world + i), device=dev) for i in range(world)])
    lines.append("reduce_scatter %s" % outs.tolist())
    a2a = torch.empty(world, device=dev)
    dist.all_to_all_single(a2a, torch.arange(world, dtype=torch.float32, device=dev) + 100 * rank)
    lines.append("all_to_all_single %s" % a2a.tolist())
    dist.barrier()
    torch.cuda.synchronize(dev)
    lines.append("barrier done")
    return lines


def graph(rank):
    """torch.cuda.graph capture and replay of a forward and backward pass on this rank's GPU."""
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
            F.cross_entropy(model(x), y).backward()
    torch.cuda.current_stream(dev).wait_stream(s)
    g = torch.cuda.CUDAGraph()
    model.zero_grad(set_to_none=False)
    with torch.cuda.graph(g):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
    lines = []
    for i in range(3):
        x.copy_(torch.randn(16, 3, 16, 16, generator=torch.Generator().manual_seed(i)).to(dev))
        g.replay()
        torch.cuda.synchronize(dev)
        lines.append("graph replay %d loss %s grad %s" % (i, loss.item().hex(), h(model.fc.weight.grad)))
    return lines


def rank_main(rank, world, steps):
    """One rank's whole work; rank 0 prints every rank's lines."""
    deterministic()
    dev = torch.device("cuda", rank)
    torch.cuda.set_device(dev)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=dev)
    if rank == 0:
        maps("rank 0")
    warm_up(dev)
    lines, seconds = [], 0.0
    for opt_name in ("sgd", "adam"):
        try:
            ls, dt = train(rank, world, steps, opt_name)
            lines += ls
            seconds += dt
        except Exception as e:  # noqa: BLE001 - printed, compared
            lines.append("%s training FAILED: %s: %s" % (opt_name, type(e).__name__, e))
    print("time: training %.4f" % seconds, file=sys.stderr, flush=True)
    for part in (collectives, graph):
        try:
            lines += part(rank, world) if part is collectives else part(rank)
        except Exception as e:  # noqa: BLE001
            lines.append("%s FAILED: %s: %s" % (part.__name__, type(e).__name__, e))
    gathered = [None] * world
    dist.all_gather_object(gathered, lines)
    if rank == 0:
        print("world %d" % world, flush=True)
        for r, ls in enumerate(gathered):
            for line in ls:
                print("rank %d: %s" % (r, line), flush=True)
    dist.barrier()
    dist.destroy_process_group()


def spawned(rank, world, steps, port):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    rank_main(rank, world, steps)


# --------------------------------------------------------------------------- one process


def pair(i, j):
    """Tensors from device i to device j."""
    di, dj = torch.device("cuda", i), torch.device("cuda", j)
    print("can_device_access_peer(%d, %d) %s" % (i, j, torch.cuda.can_device_access_peer(i, j)))
    a = torch.arange(1 << 20, dtype=torch.float32, device=di) * (i + 1)
    b = a.to(dj)
    print("  .to: %s, on %s" % (h(b), b.device))
    c = torch.zeros(1 << 20, device=dj)
    c.copy_(a)
    print("  copy_: equal %s" % bool(torch.equal(c.cpu(), a.cpu())))
    si, sj = torch.cuda.Stream(di), torch.cuda.Stream(dj)
    # A copy between devices runs on the source device's current stream, with barriers to the
    # destination's current stream both ways: each device's side stream is made current.
    si.wait_stream(torch.cuda.current_stream(di))  # a was made on the default stream
    with torch.cuda.stream(si):
        x = a * 2
        ev = torch.cuda.Event()
        ev.record(si)
        with torch.cuda.stream(sj):
            sj.wait_event(ev)
            y = torch.empty(x.shape, device=dj)
            y.copy_(x, non_blocking=True)
            z = y + 1
            ev2 = torch.cuda.Event()
            ev2.record(sj)
    with torch.cuda.stream(sj):
        with torch.cuda.stream(si):
            si.wait_event(ev2)
            back = z.to(di, non_blocking=True)
            w = back - 1
    si.synchronize()
    print("  side streams, events both ways: %s" % h(w))
    p = torch.empty(1 << 20, pin_memory=True)
    with torch.cuda.stream(sj):
        p.copy_(z, non_blocking=True)
    sj.synchronize()
    print("  to pinned memory, non-blocking: first %s last %s" % (float(p[0]).hex(), float(p[-1]).hex()))


def ipc_child(j, q_in, q_out):
    torch.cuda.set_device(j)
    t = q_in.get()
    src = t.device.index
    t.add_(1)  # on the other device's memory, through CUDA IPC
    torch.cuda.synchronize(src)
    local = t.to(torch.device("cuda", j))
    q_out.put("process on cuda:%d got a tensor of cuda:%d, added 1, read it onto its device: %s"
              % (torch.cuda.current_device(), src, h(local)))
    q_in.get()  # held until the parent has read


def local():
    deterministic()
    n = torch.cuda.device_count()
    print("devices %d" % n)
    maps("local")
    for i in range(n):
        for j in range(n):
            if i != j:
                try:
                    pair(i, j)
                except Exception as e:  # noqa: BLE001
                    print("  %d->%d FAILED: %s: %s" % (i, j, type(e).__name__, e))
    # A process per device j, each given device (j - 1)'s tensor through a queue.
    ctx = mp.get_context("spawn")
    procs, tensors = [], []
    for j in range(n):
        i = (j - 1) % n
        q_in, q_out = ctx.Queue(), ctx.Queue()
        p = ctx.Process(target=ipc_child, args=(j, q_in, q_out))
        p.start()
        t = torch.arange(4096, dtype=torch.float32, device=torch.device("cuda", i)) + 1000 * i
        q_in.put(t)
        procs.append((p, q_in, q_out))
        tensors.append(t)
    for j, (p, q_in, q_out) in enumerate(procs):
        print(q_out.get(timeout=300))
    for j, t in enumerate(tensors):
        torch.cuda.synchronize(t.device)
        print("device %d's tensor after the process on cuda:%d wrote it: %s" % (t.device.index, j, h(t)))
    for p, q_in, _ in procs:
        q_in.put(None)
    for j, (p, _, _) in enumerate(procs):
        p.join(timeout=300)
        print("process on cuda:%d exit code %s" % (j, p.exitcode))


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "spawn"
    steps = arg("--steps", 50)
    if what == "spawn":
        world = torch.cuda.device_count()
        mp.spawn(spawned, args=(world, steps, arg("--port", 29611)), nprocs=world, join=True)
    elif what == "rank":  # under torchrun
        rank_main(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), steps)
    elif what == "local":
        local()
    else:
        sys.exit("ddp.py: unknown section %s" % what)


if __name__ == "__main__":
    main()
