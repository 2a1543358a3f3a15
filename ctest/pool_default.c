/* The default and the current memory pool of a device: cudaDeviceGetDefaultMemPool,
 * cudaDeviceGetMemPool, cudaDeviceSetMemPool (which pool cudaMallocAsync then takes from, as
 * the pools' used memory shows), destroying the current pool, the default pool that cannot
 * be destroyed, invalid devices and pools; CUDA 13's cudaMemGetDefaultMemPool,
 * cudaMemGetMemPool and cudaMemSetMemPool for device, host, host NUMA and managed locations
 * with each allocation type; pools created for the host and for managed memory, allocations
 * from them and what cudaPointerGetAttributes says of those. */
#include "pool_util.h"

/* Prints what cudaPointerGetAttributes says of p (pointers only compared with p and NULL). */
static void attrs(const char *label, const void *p) {
    struct cudaPointerAttributes a;
    if (!ct_pointer_attributes(label, p, &a)) return;
    printf("  type = %s, device = %d, devicePointer == p: %d, hostPointer == p: %d, hostPointer NULL: %d\n",
           ct_memory_type_name((int)a.type), a.device, (int)(a.devicePointer == p), (int)(a.hostPointer == p),
           (int)(a.hostPointer == NULL));
}

/* Which of the known pools q is. */
static const char *which(cudaMemPool_t q, cudaMemPool_t dflt, cudaMemPool_t mine) {
    if (q == NULL) return "NULL";
    if (q == dflt) return "the default pool";
    if (q == mine) return "the created pool";
    return "another pool";
}

/* Allocates 4 KiB with cudaMallocAsync, fills it and reads it back, frees it. */
static void alloc_from_current(const char *label, cudaStream_t s) {
    void *p = NULL;
    char l[128];
    snprintf(l, sizeof l, "%s: cudaMallocAsync", label);
    if (SHOW(l, cudaMallocAsync(&p, 4096, s)) == cudaSuccess) {
        round_trip("  round trip", p, 4096, 0x3c, s);
        OK(cudaFreeAsync(p, s));
        OK(cudaStreamSynchronize(s));
    } else {
        SHOW_LAST(l);
    }
}

/* Creates a pool that should not be created; destroys it if it is. */
static void try_create(const char *label, const struct cudaMemPoolProps *props) {
    cudaMemPool_t p = NULL;
    cudaError_t e = SHOW(label, cudaMemPoolCreate(&p, props));
    if (e == cudaSuccess) {
        OK(cudaMemPoolDestroy(p));
    } else {
        SHOW_LAST(label);
    }
}

#if CUDART_VERSION >= 13000
static const char *loc_name(struct cudaMemLocation l) {
    static char buf[64];
    switch ((int)l.type) {
    case cudaMemLocationTypeInvalid: snprintf(buf, sizeof buf, "none/invalid %d", l.id); break;
    case cudaMemLocationTypeDevice: snprintf(buf, sizeof buf, "device %d", l.id); break;
    case cudaMemLocationTypeHost: snprintf(buf, sizeof buf, "host %d", l.id); break;
    case cudaMemLocationTypeHostNuma: snprintf(buf, sizeof buf, "host NUMA %d", l.id); break;
    case cudaMemLocationTypeHostNumaCurrent: snprintf(buf, sizeof buf, "host NUMA current %d", l.id); break;
    default: snprintf(buf, sizeof buf, "type %d id %d", (int)l.type, l.id); break;
    }
    return buf;
}

static const char *alloc_name(int t) {
    switch (t) {
    case cudaMemAllocationTypeInvalid: return "invalid";
    case cudaMemAllocationTypePinned: return "pinned";
    case cudaMemAllocationTypeManaged: return "managed";
    default: return "other";
    }
}
#endif

int main(void) {
    int count = 0;
    OK(cudaGetDeviceCount(&count));
    cudaStream_t s;
    OK(cudaStreamCreate(&s));

    cudaMemPool_t dflt = NULL, again = NULL, cur = NULL;
    OK(SHOW("cudaDeviceGetDefaultMemPool(device 0)", cudaDeviceGetDefaultMemPool(&dflt, 0)));
    CHECK(dflt != NULL);
    OK(cudaDeviceGetDefaultMemPool(&again, 0));
    printf("  same pool twice: %d\n", again == dflt);
    OK(SHOW("cudaDeviceGetMemPool(device 0)", cudaDeviceGetMemPool(&cur, 0)));
    printf("  current pool is %s\n", which(cur, dflt, NULL));
    CHECK(cur == dflt);

    /* Devices and out-pointers: the runtime checks the device of the default-pool query
     * first; the rest is the driver's. */
    cudaMemPool_t q = (cudaMemPool_t)0x1;
    SHOW_AND_LAST("cudaDeviceGetDefaultMemPool(device -1)", cudaDeviceGetDefaultMemPool(&q, -1), "default, device -1");
    SHOW_AND_LAST("cudaDeviceGetDefaultMemPool(device count)", cudaDeviceGetDefaultMemPool(&q, count), "default, device count");
    SHOW_AND_LAST("cudaDeviceGetDefaultMemPool(NULL, device 0)", cudaDeviceGetDefaultMemPool(NULL, 0), "default, NULL");
    SHOW_AND_LAST("cudaDeviceGetDefaultMemPool(NULL, device -1)", cudaDeviceGetDefaultMemPool(NULL, -1), "default, NULL, device -1");
    printf("  out-pointer untouched: %d\n", q == (cudaMemPool_t)0x1);
    SHOW_AND_LAST("cudaDeviceGetMemPool(device -1)", cudaDeviceGetMemPool(&q, -1), "current, device -1");
    SHOW_AND_LAST("cudaDeviceGetMemPool(device count)", cudaDeviceGetMemPool(&q, count), "current, device count");
    SHOW_AND_LAST("cudaDeviceGetMemPool(NULL, device 0)", cudaDeviceGetMemPool(NULL, 0), "current, NULL");
    printf("  out-pointer untouched: %d\n", q == (cudaMemPool_t)0x1);

    /* A created pool made current: cudaMallocAsync takes from it. */
    struct cudaMemPoolProps props = pool_props(cudaMemLocationTypeDevice, 0);
    cudaMemPool_t mine = NULL;
    OK(cudaMemPoolCreate(&mine, &props));
    OK(SHOW("cudaDeviceSetMemPool(device 0, created pool)", cudaDeviceSetMemPool(0, mine)));
    OK(cudaDeviceGetMemPool(&cur, 0));
    printf("  current pool is %s\n", which(cur, dflt, mine));
    OK(cudaDeviceGetDefaultMemPool(&again, 0));
    printf("  default pool is still %s\n", which(again, dflt, mine));
    void *p = NULL;
    OK(cudaMallocAsync(&p, 1 << 20, s));
    OK(cudaStreamSynchronize(s));
    SHOWU("  created pool's used memory after cudaMallocAsync(1 MiB)", pool_u64(mine, cudaMemPoolAttrUsedMemCurrent));
    SHOWU("  default pool's used memory", pool_u64(dflt, cudaMemPoolAttrUsedMemCurrent));
    round_trip("  round trip", p, 1 << 20, 0x2d, s);
    OK(cudaFreeAsync(p, s));
    OK(cudaStreamSynchronize(s));

    SHOW_AND_LAST("cudaDeviceSetMemPool(device -1, created pool)", cudaDeviceSetMemPool(-1, mine), "set, device -1");
    SHOW_AND_LAST("cudaDeviceSetMemPool(device count, created pool)", cudaDeviceSetMemPool(count, mine), "set, device count");
    SHOW_AND_LAST("cudaDeviceSetMemPool(device 0, NULL)", cudaDeviceSetMemPool(0, NULL), "set NULL");
    OK(cudaDeviceGetMemPool(&cur, 0));
    printf("  current pool is %s\n", which(cur, dflt, mine));
    OK(SHOW("cudaDeviceSetMemPool(device 0, default pool)", cudaDeviceSetMemPool(0, dflt)));
    OK(cudaDeviceGetMemPool(&cur, 0));
    printf("  current pool is %s\n", which(cur, dflt, mine));
    alloc_from_current("default pool current again", s);

    /* Destroying the current pool makes the default pool current again. */
    OK(cudaDeviceSetMemPool(0, mine));
    OK(SHOW("cudaMemPoolDestroy(the current pool)", cudaMemPoolDestroy(mine)));
    OK(cudaDeviceGetMemPool(&cur, 0));
    printf("  current pool is %s\n", which(cur, dflt, NULL));
    alloc_from_current("after destroying the current pool", s);
    SHOW_AND_LAST("cudaMemPoolDestroy(the default pool)", cudaMemPoolDestroy(dflt), "destroy default");
    SHOW_AND_LAST("cudaMemPoolDestroy(NULL)", cudaMemPoolDestroy(NULL), "destroy NULL");
    alloc_from_current("default pool after the failed destroy", s);

    /* Pool creation: locations and allocation types. */
    cudaMemPool_t hostpool = NULL, numapool = NULL;
    struct cudaMemPoolProps hp = pool_props(cudaMemLocationTypeHost, 0);
    if (SHOW("cudaMemPoolCreate(host)", cudaMemPoolCreate(&hostpool, &hp)) != cudaSuccess) {
        SHOW_LAST("create host pool");
        hostpool = NULL;
    }
    int numa = -1;
    cudaError_t ne = cudaDeviceGetAttribute(&numa, cudaDevAttrHostNumaId, 0);
    struct cudaMemPoolProps np = pool_props(cudaMemLocationTypeHostNuma, numa < 0 ? 0 : numa);
    printf("cudaDevAttrHostNumaId: %s\n", cudaGetErrorName(ne));
    if (SHOW("cudaMemPoolCreate(host NUMA node of device 0)", cudaMemPoolCreate(&numapool, &np)) != cudaSuccess) {
        SHOW_LAST("create NUMA pool");
        numapool = NULL;
    }
    struct cudaMemPoolProps bp = pool_props(cudaMemLocationTypeHostNumaCurrent, 0);
    try_create("cudaMemPoolCreate(host NUMA current)", &bp);
    bp = pool_props(cudaMemLocationTypeDevice, count);
    try_create("cudaMemPoolCreate(device count)", &bp);
    bp = pool_props(cudaMemLocationTypeDevice, -1);
    try_create("cudaMemPoolCreate(device -1)", &bp);
    bp = pool_props(cudaMemLocationTypeInvalid, 0);
    try_create("cudaMemPoolCreate(invalid location)", &bp);
    bp = pool_props(cudaMemLocationTypeDevice, 0);
    bp.allocType = cudaMemAllocationTypeInvalid;
    try_create("cudaMemPoolCreate(allocation type invalid)", &bp);
    bp.allocType = (enum cudaMemAllocationType)7;
    try_create("cudaMemPoolCreate(allocation type 7)", &bp);
    bp = pool_props(cudaMemLocationTypeHost, 0);
    bp.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    try_create("cudaMemPoolCreate(host, POSIX fd handles)", &bp);
    bp = pool_props(cudaMemLocationTypeDevice, 0);
    bp.reserved[10] = 1;
    try_create("cudaMemPoolCreate(reserved byte set)", &bp);
    bp = pool_props(cudaMemLocationTypeDevice, 0);
    bp.usage = 0x4;
    try_create("cudaMemPoolCreate(usage 0x4)", &bp);
    try_create("cudaMemPoolCreate(NULL properties)", NULL);
    bp = pool_props(cudaMemLocationTypeDevice, 0);
    SHOW_AND_LAST("cudaMemPoolCreate(NULL out)", cudaMemPoolCreate(NULL, &bp), "create NULL out");

    /* Allocations from the host pools: filled and read back, their pointer attributes. The
     * stream-ordered memset and copy of them fail under NVIDIA's runtime (cudaErrorInvalidValue),
     * so the round trips are shown, not checked. */
    if (hostpool) {
        void *h = NULL;
        if (SHOW("cudaMallocFromPoolAsync(host pool)", cudaMallocFromPoolAsync(&h, 8192, hostpool, s)) == cudaSuccess) {
            show_round_trip("  round trip", h, 8192, 0x4e, s);
            attrs("  cudaPointerGetAttributes", h);
            OK(cudaFreeAsync(h, s));
            OK(cudaStreamSynchronize(s));
        } else {
            SHOW_LAST("host pool allocation");
        }
        SHOW_AND_LAST("cudaDeviceSetMemPool(device 0, host pool)", cudaDeviceSetMemPool(0, hostpool), "device 0 current = host pool");
        OK(cudaDeviceGetMemPool(&cur, 0));
        printf("  current pool is %s\n", which(cur, dflt, hostpool));
        OK(cudaDeviceSetMemPool(0, dflt));
    }
    if (numapool) {
        void *h = NULL;
        if (SHOW("cudaMallocFromPoolAsync(NUMA pool)", cudaMallocFromPoolAsync(&h, 8192, numapool, s)) == cudaSuccess) {
            show_round_trip("  round trip", h, 8192, 0x4f, s);
            attrs("  cudaPointerGetAttributes", h);
            OK(cudaFreeAsync(h, s));
            OK(cudaStreamSynchronize(s));
        } else {
            SHOW_LAST("NUMA pool allocation");
        }
    }
    void *dp = NULL;
    OK(cudaMallocAsync(&dp, 8192, s));
    OK(cudaStreamSynchronize(s));
    attrs("cudaPointerGetAttributes(device pool allocation)", dp);
    attrs("cudaPointerGetAttributes(inside it)", (char *)dp + 100);
    OK(cudaFreeAsync(dp, s));
    OK(cudaStreamSynchronize(s));

#if CUDART_VERSION >= 13000
    /* CUDA 13: pools by location and allocation type. */
    struct {
        struct cudaMemLocation l;
        int type;
    } cases[] = {
        {{cudaMemLocationTypeDevice, 0}, cudaMemAllocationTypePinned},
        {{cudaMemLocationTypeDevice, 0}, cudaMemAllocationTypeManaged},
        {{cudaMemLocationTypeHost, 0}, cudaMemAllocationTypePinned},
        {{cudaMemLocationTypeHost, 0}, cudaMemAllocationTypeManaged},
        {{cudaMemLocationTypeHostNuma, 0}, cudaMemAllocationTypePinned},
        {{cudaMemLocationTypeHostNuma, 0}, cudaMemAllocationTypeManaged},
        {{cudaMemLocationTypeNone, 0}, cudaMemAllocationTypeManaged},
        {{cudaMemLocationTypeNone, 0}, cudaMemAllocationTypePinned},
        {{cudaMemLocationTypeHostNumaCurrent, 0}, cudaMemAllocationTypePinned},
        {{cudaMemLocationTypeDevice, -1}, cudaMemAllocationTypePinned},
        {{cudaMemLocationTypeDevice, 0}, cudaMemAllocationTypeInvalid},
        {{cudaMemLocationTypeDevice, 0}, 3},
        {{(enum cudaMemLocationType)9, 0}, cudaMemAllocationTypePinned},
    };
    cudaMemPool_t managed_default = NULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char label[160];
        struct cudaMemLocation l = cases[i].l;
        cudaMemPool_t d = NULL, c = NULL;
        snprintf(label, sizeof label, "cudaMemGetDefaultMemPool(%s, %s)", loc_name(l), alloc_name(cases[i].type));
        cudaError_t e1 = SHOW(label, cudaMemGetDefaultMemPool(&d, &l, (enum cudaMemAllocationType)cases[i].type));
        if (e1 != cudaSuccess) SHOW_LAST(label);
        snprintf(label, sizeof label, "cudaMemGetMemPool(%s, %s)", loc_name(l), alloc_name(cases[i].type));
        cudaError_t e2 = SHOW(label, cudaMemGetMemPool(&c, &l, (enum cudaMemAllocationType)cases[i].type));
        if (e2 != cudaSuccess) SHOW_LAST(label);
        if (e1 == cudaSuccess) {
            printf("  default is the device's default pool: %d, the host pool created: %d\n", d == dflt, d == hostpool);
            if (e2 == cudaSuccess) printf("  current == default: %d\n", c == d);
            if ((int)l.type == cudaMemLocationTypeNone && cases[i].type == cudaMemAllocationTypeManaged) managed_default = d;
        }
    }

    /* Setting the current pool of a location. */
    struct cudaMemLocation d0 = loc(cudaMemLocationTypeDevice, 0);
    struct cudaMemLocation h0 = loc(cudaMemLocationTypeHost, 0);
    cudaMemPool_t mine2 = NULL;
    props = pool_props(cudaMemLocationTypeDevice, 0);
    OK(cudaMemPoolCreate(&mine2, &props));
    OK(SHOW("cudaMemSetMemPool(device 0, pinned, created pool)", cudaMemSetMemPool(&d0, cudaMemAllocationTypePinned, mine2)));
    OK(cudaDeviceGetMemPool(&cur, 0));
    printf("  cudaDeviceGetMemPool says %s\n", which(cur, dflt, mine2));
    OK(cudaMemGetMemPool(&cur, &d0, cudaMemAllocationTypePinned));
    printf("  cudaMemGetMemPool says %s\n", which(cur, dflt, mine2));
    SHOW_AND_LAST("cudaMemSetMemPool(host, pinned, device pool)", cudaMemSetMemPool(&h0, cudaMemAllocationTypePinned, mine2), "set host = device pool");
    SHOW_AND_LAST("cudaMemSetMemPool(device 0, managed, device pool)", cudaMemSetMemPool(&d0, cudaMemAllocationTypeManaged, mine2), "set managed = pinned pool");
    SHOW_AND_LAST("cudaMemSetMemPool(device 0, invalid type)", cudaMemSetMemPool(&d0, cudaMemAllocationTypeInvalid, mine2), "set invalid type");
    if (hostpool) {
        SHOW("cudaMemSetMemPool(host, pinned, host pool)", cudaMemSetMemPool(&h0, cudaMemAllocationTypePinned, hostpool));
        cudaMemPool_t hc = NULL;
        SHOW("  cudaMemGetMemPool(host, pinned)", cudaMemGetMemPool(&hc, &h0, cudaMemAllocationTypePinned));
        printf("  is the host pool created: %d\n", hc == hostpool);
        SHOW_AND_LAST("cudaMemSetMemPool(device 0, pinned, host pool)", cudaMemSetMemPool(&d0, cudaMemAllocationTypePinned, hostpool), "set device = host pool");
    }
    OK(SHOW("cudaMemSetMemPool(device 0, pinned, default pool)", cudaMemSetMemPool(&d0, cudaMemAllocationTypePinned, dflt)));
    OK(cudaMemPoolDestroy(mine2));

    /* A managed pool: created, allocated from, its pointer attributes. */
    struct cudaMemPoolProps mp;
    memset(&mp, 0, sizeof mp);
    mp.allocType = cudaMemAllocationTypeManaged;
    mp.location.type = cudaMemLocationTypeNone;
    cudaMemPool_t mpool = NULL;
    if (SHOW("cudaMemPoolCreate(managed, no location)", cudaMemPoolCreate(&mpool, &mp)) == cudaSuccess) {
        void *m = NULL;
        if (SHOW("cudaMallocFromPoolAsync(managed pool)", cudaMallocFromPoolAsync(&m, 8192, mpool, s)) == cudaSuccess) {
            round_trip("  round trip", m, 8192, 0x5d, s);
            attrs("  cudaPointerGetAttributes", m);
            OK(cudaFreeAsync(m, s));
            OK(cudaStreamSynchronize(s));
        } else {
            SHOW_LAST("managed pool allocation");
        }
        OK(cudaMemPoolDestroy(mpool));
    } else {
        SHOW_LAST("create managed pool");
    }
    mp.location = d0;
    if (SHOW("cudaMemPoolCreate(managed, device 0)", cudaMemPoolCreate(&mpool, &mp)) == cudaSuccess)
        OK(cudaMemPoolDestroy(mpool));
    else
        SHOW_LAST("create managed device pool");
    if (managed_default) {
        void *m = NULL;
        if (SHOW("cudaMallocFromPoolAsync(default managed pool)", cudaMallocFromPoolAsync(&m, 4096, managed_default, s)) ==
            cudaSuccess) {
            round_trip("  round trip", m, 4096, 0x5e, s);
            attrs("  cudaPointerGetAttributes", m);
            OK(cudaFreeAsync(m, s));
            OK(cudaStreamSynchronize(s));
        } else {
            SHOW_LAST("default managed pool allocation");
        }
    }

    /* Last, as the driver alone judges them: NULL locations and out-pointers. */
    SHOW_AND_LAST("cudaMemGetDefaultMemPool(NULL location)", cudaMemGetDefaultMemPool(&q, NULL, cudaMemAllocationTypePinned), "NULL location");
    SHOW_AND_LAST("cudaMemGetMemPool(NULL location)", cudaMemGetMemPool(&q, NULL, cudaMemAllocationTypePinned), "NULL location");
    SHOW_AND_LAST("cudaMemSetMemPool(NULL location)", cudaMemSetMemPool(NULL, cudaMemAllocationTypePinned, dflt), "NULL location");
    SHOW_AND_LAST("cudaMemGetDefaultMemPool(NULL out)", cudaMemGetDefaultMemPool(NULL, &d0, cudaMemAllocationTypePinned), "NULL out");
    SHOW_AND_LAST("cudaMemGetMemPool(NULL out)", cudaMemGetMemPool(NULL, &d0, cudaMemAllocationTypePinned), "NULL out");
#endif

    OK(cudaDeviceSetMemPool(0, dflt));
    if (hostpool) OK(cudaMemPoolDestroy(hostpool));
    if (numapool) OK(cudaMemPoolDestroy(numapool));
    OK(cudaStreamDestroy(s));
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
