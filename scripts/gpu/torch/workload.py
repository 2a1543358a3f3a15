"""A PyTorch workload whose output is the same on every run of one GPU, whatever CUDA runtime
the process loads: scripts/gpu/torch-check.sh runs it under NVIDIA's runtime and under ours and
compares what each printed, step by step.

    python3 workload.py [SECTION ...]      (default: every section)

Sections: device tensors train amp graphs allocator ipc compile profiler. Numbers are printed
exactly (float.hex of float32/float64 values, integers whole); deterministic algorithms, fixed
seeds and CUBLAS_WORKSPACE_CONFIG make them reproducible. Nothing that differs between runs
(free memory, addresses, times) is printed on stdout; timings go to stderr.
"""
import os
import sys
import time

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

DEV = torch.device("cuda", 0)


def out(*a):
    print(*a, flush=True)


def h(x):
    """An exact, printable digest of a tensor: shape, dtype and the hex of its float64 sum and
    of a position-weighted sum (so a permutation shows)."""
    x = x.detach()
    if x.is_complex():
        x = torch.view_as_real(x)
    f = x.to("cpu", torch.float64).flatten()
    w = torch.arange(1, f.numel() + 1, dtype=torch.float64)
    return f"{tuple(x.shape)} {str(x.dtype)[6:]} sum={float(f.sum()).hex()} wsum={float((f * w).sum()).hex()}"


def seed(n=0):
    torch.manual_seed(n)
    torch.cuda.manual_seed_all(n)


# ------------------------------------------------------------------------------------------


def section_device():
    out("== device")
    out("is_available", torch.cuda.is_available())
    out("device_count", torch.cuda.device_count())
    out("current_device", torch.cuda.current_device())
    out("capability", torch.cuda.get_device_capability(0))
    out("name", torch.cuda.get_device_name(0))
    p = torch.cuda.get_device_properties(0)
    for k in sorted(dir(p)):
        if k.startswith("_"):
            continue
        v = getattr(p, k)
        if callable(v):
            continue
        out(f"prop {k} = {v}")
    free, total = torch.cuda.mem_get_info(0)
    out("mem_get_info total", total, "free<=total", free <= total)
    out("arch_list has sm_90", "sm_90" in torch.cuda.get_arch_list())


def section_tensors():
    out("== tensors")
    seed(1)
    a = torch.randn(1000, 257)
    d = a.to(DEV)
    out("h2d pageable", h(d))
    pinned = a.pin_memory()
    out("pinned is_pinned", pinned.is_pinned())
    d2 = pinned.to(DEV, non_blocking=True)
    torch.cuda.synchronize()
    out("h2d pinned non_blocking", h(d2))
    back = torch.empty_like(a).pin_memory()
    back.copy_(d2, non_blocking=True)
    torch.cuda.current_stream().synchronize()
    out("d2h pinned non_blocking equal", torch.equal(back, a))
    out("d2h pageable equal", torch.equal(d.cpu(), a))

    # Side streams ordered with events.
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream(priority=-1)
    e = torch.cuda.Event()
    with torch.cuda.stream(s1):
        x = torch.arange(1 << 20, device=DEV, dtype=torch.float32)
        x.mul_(3).add_(1)
        e.record(s1)
    with torch.cuda.stream(s2):
        s2.wait_event(e)
        y = x * 2
    s2.synchronize()
    out("side streams", h(y), "query", s1.query(), s2.query(), e.query())
    t0, t1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t0.record()
    torch.cuda._sleep(1000)
    t1.record()
    t1.synchronize()
    out("elapsed_time positive", t0.elapsed_time(t1) > 0)

    # Elementwise, reductions, matmul, convolution, indexing, sorting, random numbers.
    seed(2)
    m = torch.randn(256, 512, device=DEV)
    n = torch.randn(512, 128, device=DEV)
    out("exp/tanh/where", h(torch.where(m > 0, m.exp(), m.tanh())))
    out("sum/mean/max", float(m.sum()).hex(), float(m.mean()).hex(), float(m.max()).hex())
    out("argmax", int(m.argmax()), "norm", float(m.norm()).hex())
    out("cumsum", h(m.cumsum(1)))
    out("matmul fp32", h(m @ n))
    out("matmul fp16", h(m.half() @ n.half()))
    out("matmul bf16", h(m.bfloat16() @ n.bfloat16()))
    out("bmm", h(torch.bmm(m.view(4, 64, 512), n.expand(4, 512, 128))))
    img = torch.randn(8, 3, 32, 32, device=DEV)
    w = torch.randn(16, 3, 3, 3, device=DEV)
    out("conv2d", h(F.conv2d(img, w, padding=1)))
    out("max_pool2d", h(F.max_pool2d(img, 2)))
    idx = torch.randperm(256, device=DEV)
    out("randperm", h(idx))
    out("index_select", h(m.index_select(0, idx)))
    out("gather", h(m.gather(1, torch.randint(0, 512, (256, 8), device=DEV))))
    vals, ind = torch.sort(m[0])
    out("sort", h(vals), h(ind))
    out("topk", h(torch.topk(m.flatten(), 10).values))
    out("unique", h(torch.unique(torch.randint(0, 50, (1000,), device=DEV))))
    out("rand", h(torch.rand(1000, device=DEV)), "normal", h(torch.randn(1000, device=DEV, dtype=torch.float64)))
    out("multinomial", h(torch.multinomial(torch.rand(10, device=DEV), 5)))
    out("nonzero", h(torch.nonzero(m > 1.5)))
    out("fft", h(torch.fft.rfft(m[:4])))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.b1 = nn.BatchNorm2d(16)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 8 * 8, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.b1(self.c1(x))), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


def data(n=64):
    g = torch.Generator().manual_seed(123)
    x = torch.randn(n, 3, 32, 32, generator=g)
    y = torch.randint(0, 10, (n,), generator=g)
    return x.to(DEV), y.to(DEV)


def weights_digest(model):
    return h(torch.cat([p.detach().flatten().double() for p in model.parameters()]))


def train(opt_name, steps=50):
    seed(7)
    model = Net().to(DEV)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9) if opt_name == "sgd" \
        else torch.optim.Adam(model.parameters(), lr=1e-3)
    x, y = data()
    for step in range(steps):
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        out(f"{opt_name} step {step} loss {loss.item().hex()}")
    out(f"{opt_name} weights", weights_digest(model))


def section_train():
    out("== train")
    t = time.perf_counter()
    train("sgd")
    train("adam")
    torch.cuda.synchronize()
    print(f"time train {time.perf_counter() - t:.4f}", file=sys.stderr)


def section_amp():
    out("== amp")
    seed(8)
    model = Net().to(DEV)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    scaler = torch.amp.GradScaler("cuda")
    x, y = data()
    for step in range(20):
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.float16):
            loss = F.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        out(f"amp step {step} loss {loss.float().item().hex()} scale {scaler.get_scale()}")
    out("amp weights", weights_digest(model))


def section_graphs():
    out("== graphs")
    seed(9)
    model = Net().to(DEV)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x, y = data()
    sx, sy = x.clone(), y.clone()
    # Warm up on a side stream, as PyTorch's documentation asks before capture.
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            opt.zero_grad(set_to_none=True)
            F.cross_entropy(model(sx), sy).backward()
            opt.step()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)
    out("is_current_stream_capturing before", torch.cuda.is_current_stream_capturing())
    with torch.cuda.graph(g):
        static_loss = F.cross_entropy(model(sx), sy)
        static_loss.backward()
        opt.step()
    out("captured")
    for i in range(20):
        sx.copy_(x + 0.01 * i)
        g.replay()
        out(f"graph replay {i} loss {static_loss.item().hex()}")
    graph_weights = weights_digest(model)
    out("graph weights", graph_weights)

    # The same steps eagerly, from the same start, must give the same numbers.
    seed(9)
    model2 = Net().to(DEV)
    opt2 = torch.optim.SGD(model2.parameters(), lr=0.05)
    for _ in range(3):
        opt2.zero_grad(set_to_none=True)
        F.cross_entropy(model2(x), y).backward()
        opt2.step()
    for i in range(20):
        opt2.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model2(x + 0.01 * i), y)
        loss.backward()
        opt2.step()
    eager_weights = weights_digest(model2)
    out("eager weights after the same 20 steps", eager_weights, "same as the graph's", eager_weights == graph_weights)
    g.reset()


def section_allocator():
    out("== allocator", torch.cuda.get_allocator_backend())
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    xs = [torch.empty(n, device=DEV, dtype=torch.uint8) for n in (1, 511, 512, 1 << 20, 3 << 20, 20 << 20)]
    out("allocated grew by", torch.cuda.memory_allocated() - before)
    del xs[1::2]
    out("allocated after frees", torch.cuda.memory_allocated() - before)
    st = torch.cuda.memory_stats()
    for k in ("allocation.all.current", "allocation.all.peak", "allocated_bytes.all.current",
              "allocated_bytes.all.peak", "active.all.current", "num_alloc_retries", "num_ooms"):
        out("stat", k, st.get(k))
    del xs
    torch.cuda.empty_cache()
    out("after empty_cache allocated", torch.cuda.memory_allocated() - before,
        "reserved", torch.cuda.memory_reserved() if torch.cuda.get_allocator_backend() == "native" else "n/a")
    # Stream-ordered use across streams.
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        z = torch.ones(1 << 20, device=DEV)
    z.record_stream(torch.cuda.current_stream())
    out("cross-stream tensor", h(z * 2))


def _ipc_child(q_in, q_out):
    t = q_in.get()
    t.mul_(2).add_(1)
    torch.cuda.synchronize()
    q_out.put(("child saw", h(t), torch.cuda.current_device()))


def section_ipc():
    out("== ipc")
    import torch.multiprocessing as mp
    ctx = mp.get_context("spawn")
    q_in, q_out = ctx.Queue(), ctx.Queue()
    t = torch.arange(4096, device=DEV, dtype=torch.float32)
    p = ctx.Process(target=_ipc_child, args=(q_in, q_out))
    p.start()
    q_in.put(t)
    out(*q_out.get(timeout=120))
    p.join(timeout=120)
    torch.cuda.synchronize()
    out("parent reads", h(t), "child exit", p.exitcode)


def section_compile():
    out("== compile")

    def f(a, b):
        return torch.sin(a) * torch.cos(b) + a * b

    cf = torch.compile(f)
    seed(3)
    a = torch.randn(4096, device=DEV)
    b = torch.randn(4096, device=DEV)
    r = cf(a, b)
    out("compiled", h(r), "max diff to eager", float((r - f(a, b)).abs().max()) < 1e-5)


def section_profiler():
    out("== profiler")
    from torch.profiler import ProfilerActivity, profile
    x = torch.randn(512, 512, device=DEV)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(3):
            y = x @ x
            y = torch.relu(y)
        torch.cuda.synchronize()
    names = {}
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            names[e.name] = names.get(e.name, 0) + 1
    out("cuda kernels recorded", len(names) > 0)
    for n in sorted(names):
        if "relu" in n.lower() or "gemm" in n.lower() or "sgemm" in n.lower():
            out("kernel seen", "relu" if "relu" in n.lower() else "gemm", names[n])


SECTIONS = {
    "device": section_device,
    "tensors": section_tensors,
    "train": section_train,
    "amp": section_amp,
    "graphs": section_graphs,
    "allocator": section_allocator,
    "ipc": section_ipc,
    "compile": section_compile,
    "profiler": section_profiler,
}

if __name__ == "__main__":
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.benchmark = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    names = sys.argv[1:] or list(SECTIONS)
    t = time.perf_counter()
    for name in names:
        try:
            SECTIONS[name]()
        except Exception as e:  # a section that fails prints why and the rest still run
            out(f"section {name} FAILED: {type(e).__name__}: {e}")
    torch.cuda.synchronize()
    print(f"time total {time.perf_counter() - t:.4f}", file=sys.stderr)
    out("done")
