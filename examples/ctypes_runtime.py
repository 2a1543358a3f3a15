"""A Python program that loads the CUDA runtime itself, with ctypes, as Python libraries that
find libcudart on their own do: by its SONAME (``libcudart.so.13``), which under
``cudart-rs run`` (or ``LD_PRELOAD``) is the runtime already loaded, else by the path given.

    cudart-rs run --summary -- python3 examples/ctypes_runtime.py
    python3 examples/ctypes_runtime.py /path/to/libcudart.so.13

It allocates device memory, copies a pattern there and back, sets memory and checks what came
back; prints the same lines on any runtime and device (on the stand-in driver too), and the
libcudart files the process mapped on stderr. Exit status 0 when every check held.
"""

import ctypes
import sys

name = sys.argv[1] if len(sys.argv) > 1 else "libcudart.so.13"
rt = ctypes.CDLL(name)
H2D, D2H = 1, 2
N = 1 << 20


def check(call, *args):
    err = getattr(rt, call)(*args)
    if err != 0:
        rt.cudaGetErrorName.restype = ctypes.c_char_p
        sys.exit(f"{call} failed: {rt.cudaGetErrorName(err).decode()} ({err})")


version, devices = ctypes.c_int(), ctypes.c_int()
check("cudaRuntimeGetVersion", ctypes.byref(version))
check("cudaGetDeviceCount", ctypes.byref(devices))
print(f"runtime ABI {version.value // 1000}, devices: {'yes' if devices.value > 0 else 'none'}")

host = (ctypes.c_ubyte * N)(*bytes(i * 7 % 251 for i in range(N)))
back = (ctypes.c_ubyte * N)()
dev = ctypes.c_void_p()
check("cudaMalloc", ctypes.byref(dev), ctypes.c_size_t(N))
check("cudaMemcpy", dev, host, ctypes.c_size_t(N), H2D)
check("cudaMemcpy", back, dev, ctypes.c_size_t(N), D2H)
print(f"copied {N} bytes there and back: {'same' if bytes(back) == bytes(host) else 'DIFFERENT'}")
check("cudaMemset", dev, 0x5A, ctypes.c_size_t(N // 2))
check("cudaDeviceSynchronize")
check("cudaMemcpy", back, dev, ctypes.c_size_t(N), D2H)
ok = bytes(back[: N // 2]) == b"\x5a" * (N // 2) and bytes(back[N // 2 :]) == bytes(host[N // 2 :])
print(f"memset half: {'as set' if ok else 'WRONG'}")
check("cudaFree", dev)
bad = rt.cudaFree(ctypes.c_void_p(16))
print(f"cudaFree of a pointer never allocated: error {bad}")

maps = sorted({line.split()[-1] for line in open("/proc/self/maps") if "libcudart.so" in line})
print(f"libcudart mapped: {' '.join(maps)}", file=sys.stderr)
sys.exit(0 if ok and bytes(back[N // 2 :]) == bytes(host[N // 2 :]) else 1)
