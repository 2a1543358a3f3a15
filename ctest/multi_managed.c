/* ctest: gpu2
 * Managed memory on several devices: cudaMemAdvise (preferred location, accessed-by, read
 * mostly) naming each device, cudaMemPrefetchAsync to each device on a stream of that device
 * and of another, and back to the host; the range attributes after each step; the pointer
 * attributes of managed memory made with each device current; copies from managed memory to
 * each device's memory; devices that do not exist. */
#include "managed_util.h"

#define MAXD 16
#define SZ (1 << 20)


static int ndev;

static void ranges(const char *when, const void *p, size_t n) {
    mu_ranges(when, p, n);
    int by[MAXD + 1];
    for (int i = 0; i <= MAXD; i++) by[i] = 77;
    cudaError_t e = cudaMemRangeGetAttribute(by, sizeof(int) * (size_t)(ndev + 1), cudaMemRangeAttributeAccessedBy, p, n);
    printf("  AccessedBy[%d]: %s = {", ndev + 1, cudaGetErrorName(e));
    for (int i = 0; i <= ndev; i++) printf("%s%d", i ? ", " : "", by[i]);
    printf("}\n");
}

static int host_ok(const unsigned char *m) {
    int ok = 1;
    for (size_t i = 0; i < SZ; i++) ok &= m[i] == (unsigned char)(i * 7 + 3);
    return ok;
}

int main(void) {
    int n = ct_devices_or_skip();
    if (n > MAXD) n = MAXD;
    ndev = n;
    for (int d = 0; d < n; d++) {
        int v = -1;
        OK(cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, d));
        printf("device %d ManagedMemory = %d", d, v);
        OK(cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess, d));
        printf(", ConcurrentManagedAccess = %d\n", v);
    }
    cudaStream_t st[MAXD];
    unsigned char *dev[MAXD];
    for (int d = 0; d < n; d++) {
        OK(cudaSetDevice(d));
        OK(cudaStreamCreateWithFlags(&st[d], cudaStreamNonBlocking));
        OK(cudaMalloc((void **)&dev[d], SZ));
    }

    /* Made with each device current: what the pointer attributes say. */
    for (int d = 0; d < n; d++) {
        OK(cudaSetDevice(d));
        void *q = NULL;
        OK(cudaMallocManaged(&q, 4096, cudaMemAttachGlobal));
        struct cudaPointerAttributes a;
        memset(&a, 0, sizeof a);
        SHOW("cudaPointerGetAttributes(managed)", cudaPointerGetAttributes(&a, q));
        printf("  made on device %d: type %d, device %d, host pointer same: %d\n", d, (int)a.type, a.device,
               (int)(a.hostPointer == q));
        OK(cudaFree(q));
    }

    OK(cudaSetDevice(0));
    unsigned char *m = NULL;
    OK(cudaMallocManaged((void **)&m, SZ, cudaMemAttachGlobal));
    if (!m) DONE();
    for (size_t i = 0; i < SZ; i++) m[i] = (unsigned char)(i * 7 + 3);
    ranges("fresh", m, SZ);

    for (int d = 0; d < n; d++) {
        char l[128];
        printf("device %d:\n", d);
        SHOW("  SetPreferredLocation", mu_advise(m, SZ, cudaMemAdviseSetPreferredLocation, d));
        SHOW("  SetAccessedBy", mu_advise(m, SZ, cudaMemAdviseSetAccessedBy, d));
        SHOW("  prefetch on its own stream", mu_prefetch(m, SZ, d, st[d]));
        OK(cudaStreamSynchronize(st[d]));
        snprintf(l, sizeof l, "preferred %d, accessed by 0..%d, prefetched to %d", d, d, d);
        ranges(l, m, SZ);
        /* The copy to the device's memory, with the current device another one. */
        OK(cudaSetDevice((d + 1) % n));
        SHOW("  cudaMemcpy Default to its memory", cudaMemcpy(dev[d], m, SZ, cudaMemcpyDefault));
        OK(cudaSetDevice(d));
        unsigned char *back = malloc(SZ);
        OK(cudaMemcpy(back, dev[d], SZ, cudaMemcpyDeviceToHost));
        int ok = host_ok(back);
        CHECK(ok);
        printf("  bytes on device %d: %s\n", d, ok ? "ok" : "WRONG");
        free(back);
        OK(cudaSetDevice(0));
        int e = (d + 1) % n;
        SHOW("  prefetch on another device's stream", mu_prefetch(m, SZ / 2, d, st[e]));
        OK(cudaStreamSynchronize(st[e]));
        snprintf(l, sizeof l, "first half prefetched to %d on device %d's stream", d, e);
        ranges(l, m, SZ / 2);
        ok = host_ok(m);
        CHECK(ok);
        printf("  host reads: %s\n", ok ? "ok" : "WRONG");
    }
    for (int d = 0; d < n; d++) {
        char l[64];
        snprintf(l, sizeof l, "UnsetAccessedBy(%d)", d);
        SHOW(l, mu_advise(m, SZ, cudaMemAdviseUnsetAccessedBy, d));
    }
    SHOW("UnsetPreferredLocation", mu_advise(m, SZ, cudaMemAdviseUnsetPreferredLocation, 0));
    SHOW("prefetch to the host", mu_prefetch(m, SZ, cudaCpuDeviceId, st[0]));
    OK(cudaStreamSynchronize(st[0]));
    ranges("advice unset, prefetched to the host", m, SZ);

    /* Read mostly: a copy on every device. */
    SHOW("SetReadMostly", mu_advise(m, SZ, cudaMemAdviseSetReadMostly, 0));
    for (int d = 0; d < n; d++) {
        char l[64];
        snprintf(l, sizeof l, "read mostly, prefetch to %d", d);
        SHOW(l, mu_prefetch(m, SZ, d, st[d]));
        OK(cudaStreamSynchronize(st[d]));
    }
    ranges("read mostly, prefetched to every device", m, SZ);
    {
        int ok = host_ok(m);
        CHECK(ok);
        printf("host reads: %s\n", ok ? "ok" : "WRONG");
    }
    SHOW("UnsetReadMostly", mu_advise(m, SZ, cudaMemAdviseUnsetReadMostly, 0));

    /* Halves preferring different devices. */
    SHOW("first half prefers 0", mu_advise(m, SZ / 2, cudaMemAdviseSetPreferredLocation, 0));
    SHOW("second half prefers last", mu_advise(m + SZ / 2, SZ / 2, cudaMemAdviseSetPreferredLocation, n - 1));
    ranges("whole, halves preferring 0 and last", m, SZ);
    ranges("second half", m + SZ / 2, SZ / 2);

    /* Devices that are not there. */
    SHOW("SetPreferredLocation(n)", mu_advise(m, SZ, cudaMemAdviseSetPreferredLocation, n));
    SHOW_LAST("SetPreferredLocation(n)");
    SHOW("SetAccessedBy(n)", mu_advise(m, SZ, cudaMemAdviseSetAccessedBy, n));
    SHOW_LAST("SetAccessedBy(n)");
    SHOW("prefetch to n", mu_prefetch(m, SZ, n, st[0]));
    SHOW_LAST("prefetch to n");
    SHOW("prefetch to -2", mu_prefetch(m, SZ, -2, st[0]));
    SHOW_LAST("prefetch to -2");

    OK(cudaFree(m));
    for (int d = 0; d < n; d++) {
        OK(cudaSetDevice(d));
        OK(cudaStreamDestroy(st[d]));
        OK(cudaFree(dev[d]));
    }
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
