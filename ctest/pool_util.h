/* What the memory pool tests share: pool properties, attribute reads, a fill-and-read-back
 * round trip in stream order. */
#ifndef CUDART_RS_POOL_UTIL_H
#define CUDART_RS_POOL_UTIL_H

#include <stdint.h>
#include "ctest.h"

/* Pinned-allocation pool properties for a location, no IPC handle types. */
static struct cudaMemPoolProps pool_props(enum cudaMemLocationType type, int id) {
    struct cudaMemPoolProps p;
    memset(&p, 0, sizeof p);
    p.allocType = cudaMemAllocationTypePinned;
    p.handleTypes = cudaMemHandleTypeNone;
    p.location.type = type;
    p.location.id = id;
    return p;
}

/* The short name of a pool access flag ("None", "Read", "ReadWrite"). */
static inline const char *access_flag_name(int f) {
    switch (f) {
    case cudaMemAccessFlagsProtNone: return "None";
    case cudaMemAccessFlagsProtRead: return "Read";
    case cudaMemAccessFlagsProtReadWrite: return "ReadWrite";
    default: return "other";
    }
}

/* A location. */
static struct cudaMemLocation loc(enum cudaMemLocationType type, int id) {
    struct cudaMemLocation l;
    l.type = type;
    l.id = id;
    return l;
}

/* A cuuint64_t attribute of a pool; a failing read prints its error and gives ~0. */
static unsigned long long pool_u64(cudaMemPool_t pool, enum cudaMemPoolAttr a) {
    unsigned long long v = 0;
    cudaError_t e = cudaMemPoolGetAttribute(pool, a, &v);
    if (e != cudaSuccess) {
        printf("cudaMemPoolGetAttribute(%d): %s\n", (int)a, cudaGetErrorName(e));
        return ~0ull;
    }
    return v;
}

/* An int attribute of a pool; a failing read prints its error and gives -99. */
static int pool_int(cudaMemPool_t pool, enum cudaMemPoolAttr a) {
    int v = -1;
    cudaError_t e = cudaMemPoolGetAttribute(pool, a, &v);
    if (e != cudaSuccess) {
        printf("cudaMemPoolGetAttribute(%d): %s\n", (int)a, cudaGetErrorName(e));
        return -99;
    }
    return v;
}

/* Sets n bytes at d to v with cudaMemsetAsync on s, copies them back with cudaMemcpyAsync on
 * s, waits for s and compares every byte; prints one line and returns the number of wrong
 * bytes. */
static size_t show_round_trip(const char *label, void *d, size_t n, int v, cudaStream_t s) {
    unsigned char *h = (unsigned char *)malloc(n);
    if (!h) {
        printf("FAIL no host memory\n");
        exit(1);
    }
    memset(h, ~v, n);
    cudaError_t e1 = cudaMemsetAsync(d, v, n, s);
    cudaError_t e2 = cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
    cudaError_t e3 = cudaStreamSynchronize(s);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += h[i] != (unsigned char)v;
    printf("%s: memset %s, copy %s, sync %s, bytes %s\n", label, cudaGetErrorName(e1), cudaGetErrorName(e2),
           cudaGetErrorName(e3), bad ? "wrong" : "ok");
    free(h);
    return bad;
}

/* show_round_trip, and every byte must be right. */
static void round_trip(const char *label, void *d, size_t n, int v, cudaStream_t s) {
    size_t bad = show_round_trip(label, d, n, v, s);
    CHECK(bad == 0);
}

#endif
