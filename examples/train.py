"""A few steps of training a small convolutional network on PyTorch, on one GPU, printing what
is the same on every run whatever CUDA runtime the process loads: each step's loss and the
final weights' digest, exactly (float.hex), and the runtime version.

    python3 examples/train.py [--steps N]
    cudart-rs run --summary -- python3 examples/train.py

Deterministic algorithms, fixed seeds and CUBLAS_WORKSPACE_CONFIG make the numbers
reproducible; nothing that differs between runs (times, addresses, free memory) is printed on
stdout; the libcudart files the process mapped go to stderr. scripts/gpu/wheel-gpu.sh runs it
with and without cudart-rs and compares.
"""

import argparse
import os
import sys

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=8)
steps = p.parse_args().steps

torch.manual_seed(0)
torch.cuda.manual_seed_all(0)
torch.use_deterministic_algorithms(True)
torch.backends.cudnn.benchmark = False
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
dev = torch.device("cuda", 0)

model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1),
    nn.BatchNorm2d(16),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Flatten(),
    nn.Linear(32 * 8 * 8, 10),
).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
g = torch.Generator().manual_seed(1)
x = torch.randn(steps, 64, 3, 32, 32, generator=g)
y = torch.randint(0, 10, (steps, 64), generator=g)

print("torch", torch.__version__, "CUDA", torch.version.cuda, flush=True)
for i in range(steps):
    xb, yb = x[i].to(dev, non_blocking=True), y[i].to(dev, non_blocking=True)
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(xb), yb)
    loss.backward()
    opt.step()
    print(f"step {i} loss {float(loss.item()).hex()}", flush=True)
torch.cuda.synchronize()
w = torch.cat([q.detach().double().flatten().cpu() for q in model.parameters()])
print(f"weights {w.numel()} sum {float(w.sum()).hex()} abs {float(w.abs().sum()).hex()}")
maps = sorted({line.split()[-1] for line in open("/proc/self/maps") if "libcudart.so" in line})
print(f"libcudart mapped: {' '.join(maps)}", file=sys.stderr)
