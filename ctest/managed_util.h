/*
 * managed_util.h: what the managed-memory tests share: cudaMemAdvise and cudaMemPrefetchAsync
 * given a device ordinal (or cudaCpuDeviceId) under either ABI (CUDA 13's take a location),
 * and the integer range attributes printed.
 */
#ifndef CUDART_RS_MANAGED_UTIL_H
#define CUDART_RS_MANAGED_UTIL_H

#include "ctest.h"

#if CUDART_VERSION >= 13000
/* A device ordinal as a location: the host for cudaCpuDeviceId, else that device. */
static inline struct cudaMemLocation mu_where(int id) {
    struct cudaMemLocation l;
    l.type = id == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    l.id = id == cudaCpuDeviceId ? 0 : id;
    return l;
}
static inline cudaError_t mu_advise(const void *p, size_t n, enum cudaMemoryAdvise a, int device) {
    return cudaMemAdvise(p, n, a, mu_where(device));
}
static inline cudaError_t mu_prefetch(const void *p, size_t n, int device, cudaStream_t s) {
    return cudaMemPrefetchAsync(p, n, mu_where(device), 0, s);
}
#else
static inline cudaError_t mu_advise(const void *p, size_t n, enum cudaMemoryAdvise a, int device) {
    return cudaMemAdvise(p, n, a, device);
}
static inline cudaError_t mu_prefetch(const void *p, size_t n, int device, cudaStream_t s) {
    return cudaMemPrefetchAsync(p, n, device, s);
}
#endif

/* "label: error" and " = value" when it succeeded: an integer range attribute of [p, p + n). */
static inline void mu_range_int(const char *label, const void *p, size_t n, enum cudaMemRangeAttribute a) {
    int v = 12345;
    cudaError_t e = cudaMemRangeGetAttribute(&v, sizeof v, a, p, n);
    printf("%s: %s", label, cudaGetErrorName(e));
    if (e == cudaSuccess) printf(" = %d", v);
    printf("\n");
}

/* "[when]", then each integer range attribute of [p, p + n), indented. */
static inline void mu_ranges(const char *when, const void *p, size_t n) {
    printf("[%s]\n", when);
    mu_range_int("  ReadMostly", p, n, cudaMemRangeAttributeReadMostly);
    mu_range_int("  PreferredLocation", p, n, cudaMemRangeAttributePreferredLocation);
    mu_range_int("  LastPrefetchLocation", p, n, cudaMemRangeAttributeLastPrefetchLocation);
    mu_range_int("  PreferredLocationType", p, n, cudaMemRangeAttributePreferredLocationType);
    mu_range_int("  PreferredLocationId", p, n, cudaMemRangeAttributePreferredLocationId);
    mu_range_int("  LastPrefetchLocationType", p, n, cudaMemRangeAttributeLastPrefetchLocationType);
    mu_range_int("  LastPrefetchLocationId", p, n, cudaMemRangeAttributeLastPrefetchLocationId);
}

#endif
