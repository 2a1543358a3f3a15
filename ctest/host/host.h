/* Helpers of the host programs (ctest/host/README.md): print one fact per line. */
#ifndef CUDART_RS_HOST_H
#define CUDART_RS_HOST_H
#include <stdio.h>

/* Built against our headers (CUDART_RS_CUDA_RUNTIME_H) or NVIDIA's. */
#if defined(CUDART_RS_CUDA_RUNTIME_H)
#define HOST_OURS 1
#else
#define HOST_OURS 0
#endif

#define SHOW(what, call) printf("%s: %s\n", (what), cudaGetErrorName(call))
#define SHOWI(what, v) printf("%s: %lld\n", (what), (long long)(v))
#define SHOWU(what, v) printf("%s: %llu\n", (what), (unsigned long long)(v))
#define CHECK(what, cond) printf("%s: %s\n", (what), (cond) ? "ok" : "FAIL")

#endif
