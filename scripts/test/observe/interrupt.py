"""A training loop in miniature, interrupted: it makes runtime calls (through ctypes) until
SIGINT, then says it caught KeyboardInterrupt and saves a checkpoint, and its `finally`
block runs. ends.py runs it with and without cudart-rs's observation and compares.

  python3 interrupt.py LIBCUDART
"""
import ctypes
import signal
import sys
import time

lib = ctypes.CDLL(sys.argv[1])
n = ctypes.c_int()
lib.cudaGetDeviceCount(ctypes.byref(n))
print("SIGINT handler is Python's default_int_handler:", signal.getsignal(signal.SIGINT) is signal.default_int_handler, flush=True)
try:
    print("ready", flush=True)
    for _ in range(6000):
        lib.cudaGetDeviceCount(ctypes.byref(n))
        time.sleep(0.005)
    print("not interrupted", flush=True)
except KeyboardInterrupt:
    print("caught KeyboardInterrupt: saving checkpoint", flush=True)
finally:
    print("finally: done", flush=True)
