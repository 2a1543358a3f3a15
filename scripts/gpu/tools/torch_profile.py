# The runtime API rows PyTorch's profiler shows (names and counts) for a few matmuls and copies.
import os, sys, torch
from torch.profiler import profile, ProfilerActivity
a = torch.randn(256, 256, device="cuda")
b = torch.randn(256, 256, device="cuda")
torch.cuda.synchronize()
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
    for _ in range(3):
        c = a @ b
    h = c.cpu()
    d = h.cuda()
    torch.cuda.synchronize()
rows = sorted((e.key, e.count) for e in prof.key_averages() if e.key.startswith("cuda"))
kern = sum(e.count for e in prof.key_averages() if e.device_type.name == "CUDA")
print("runtime:", sorted({m for m in open("/proc/self/maps").read().split() if "libcudart" in m}))
for k, n in rows:
    print(f"{n:4d} {k}")
print(f"device rows (kernels/copies): {kern}")
