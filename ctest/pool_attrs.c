/* Every attribute of a memory pool, read and written: the defaults of a created pool and of
 * the default pool; the reuse policies (int) and the release threshold (cuuint64_t) set and
 * read back; the read-only counters and the high-water marks (only 0 may be written);
 * invalid attributes and a NULL pool. Then the counters over a known allocation pattern:
 * reserved and used memory, current and high, after allocations, frees, synchronisation,
 * trimming and resets of the high-water marks. Used memory is printed as it is; reserved
 * memory depends on the driver's granularity, so relations are checked, and the figures
 * printed too (they are the same for both runtimes on one machine). Last, what each reuse
 * policy allows: whether an allocation takes the address of a freed one. */
#include "pool_util.h"

#define MiB (1ull << 20)

static const char *names[] = {
    "?",
    "cudaMemPoolReuseFollowEventDependencies",
    "cudaMemPoolReuseAllowOpportunistic",
    "cudaMemPoolReuseAllowInternalDependencies",
    "cudaMemPoolAttrReleaseThreshold",
    "cudaMemPoolAttrReservedMemCurrent",
    "cudaMemPoolAttrReservedMemHigh",
    "cudaMemPoolAttrUsedMemCurrent",
    "cudaMemPoolAttrUsedMemHigh",
};

/* Prints every attribute of a pool, each read with its documented value type. */
static void show_all(const char *label, cudaMemPool_t pool) {
    printf("%s:\n", label);
    for (int a = 1; a <= 3; a++) printf("  %s = %d\n", names[a], pool_int(pool, (enum cudaMemPoolAttr)a));
    for (int a = 4; a <= 8; a++) printf("  %s = %llu\n", names[a], pool_u64(pool, (enum cudaMemPoolAttr)a));
}

struct counters {
    unsigned long long rc, rh, uc, uh;
};

/* Prints the four counters and checks what holds on any driver. */
static struct counters show_counters(const char *label, cudaMemPool_t pool) {
    struct counters c;
    c.rc = pool_u64(pool, cudaMemPoolAttrReservedMemCurrent);
    c.rh = pool_u64(pool, cudaMemPoolAttrReservedMemHigh);
    c.uc = pool_u64(pool, cudaMemPoolAttrUsedMemCurrent);
    c.uh = pool_u64(pool, cudaMemPoolAttrUsedMemHigh);
    printf("%s: used %llu (high %llu), reserved %llu (high %llu)\n", label, c.uc, c.uh, c.rc, c.rh);
    CHECK(c.rc >= c.uc);
    CHECK(c.rh >= c.rc);
    CHECK(c.uh >= c.uc);
    return c;
}

static cudaError_t set_u64(cudaMemPool_t pool, enum cudaMemPoolAttr a, unsigned long long v) {
    return cudaMemPoolSetAttribute(pool, a, &v);
}

static cudaError_t set_int(cudaMemPool_t pool, enum cudaMemPoolAttr a, int v) {
    return cudaMemPoolSetAttribute(pool, a, &v);
}

static void set_policies(cudaMemPool_t pool, int follow, int opportunistic, int internal) {
    OK(set_int(pool, cudaMemPoolReuseFollowEventDependencies, follow));
    OK(set_int(pool, cudaMemPoolReuseAllowOpportunistic, opportunistic));
    OK(set_int(pool, cudaMemPoolReuseAllowInternalDependencies, internal));
}

int main(void) {
    cudaStream_t s, s2;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaMemPool_t dflt = NULL, pool = NULL;
    OK(cudaDeviceGetDefaultMemPool(&dflt, 0));
    struct cudaMemPoolProps props = pool_props(cudaMemLocationTypeDevice, 0);
    OK(SHOW("cudaMemPoolCreate", cudaMemPoolCreate(&pool, &props)));

    show_all("default pool of device 0", dflt);
    show_all("created pool", pool);

    /* The reuse policies: int values. */
    for (int a = 1; a <= 3; a++) {
        char label[128];
        snprintf(label, sizeof label, "set %s = 0", names[a]);
        SHOW(label, set_int(pool, (enum cudaMemPoolAttr)a, 0));
        printf("  read back %d\n", pool_int(pool, (enum cudaMemPoolAttr)a));
        snprintf(label, sizeof label, "set %s = 2", names[a]);
        if (SHOW(label, set_int(pool, (enum cudaMemPoolAttr)a, 2)) != cudaSuccess) SHOW_LAST(label);
        printf("  read back %d\n", pool_int(pool, (enum cudaMemPoolAttr)a));
        snprintf(label, sizeof label, "set %s = 1", names[a]);
        SHOW(label, set_int(pool, (enum cudaMemPoolAttr)a, 1));
        printf("  read back %d\n", pool_int(pool, (enum cudaMemPoolAttr)a));
    }

    /* The release threshold: a cuuint64_t. */
    SHOW("set cudaMemPoolAttrReleaseThreshold = 1 MiB", set_u64(pool, cudaMemPoolAttrReleaseThreshold, MiB));
    SHOWU("  read back", pool_u64(pool, cudaMemPoolAttrReleaseThreshold));
    SHOW("set cudaMemPoolAttrReleaseThreshold = 2^40 + 3", set_u64(pool, cudaMemPoolAttrReleaseThreshold, (1ull << 40) + 3));
    SHOWU("  read back", pool_u64(pool, cudaMemPoolAttrReleaseThreshold));
    SHOW("set cudaMemPoolAttrReleaseThreshold = UINT64_MAX", set_u64(pool, cudaMemPoolAttrReleaseThreshold, UINT64_MAX));
    SHOWU("  read back", pool_u64(pool, cudaMemPoolAttrReleaseThreshold));
    OK(SHOW("set cudaMemPoolAttrReleaseThreshold = 0", set_u64(pool, cudaMemPoolAttrReleaseThreshold, 0)));

    /* Counters: the current ones cannot be written, the high-water marks only reset to 0. */
    for (int a = 5; a <= 8; a++) {
        char label[128];
        snprintf(label, sizeof label, "set %s = 0", names[a]);
        if (SHOW(label, set_u64(pool, (enum cudaMemPoolAttr)a, 0)) != cudaSuccess) SHOW_LAST(label);
        snprintf(label, sizeof label, "set %s = 4096", names[a]);
        if (SHOW(label, set_u64(pool, (enum cudaMemPoolAttr)a, 4096)) != cudaSuccess) SHOW_LAST(label);
    }

    /* Attributes that do not exist, a NULL pool. */
    int iv = 0;
    unsigned long long uv = 0;
    int bad[] = {0, 9, 100, -1};
    for (int i = 0; i < 4; i++) {
        char label[96];
        snprintf(label, sizeof label, "get attribute %d", bad[i]);
        SHOW(label, cudaMemPoolGetAttribute(pool, (enum cudaMemPoolAttr)bad[i], &uv));
        SHOW_LAST(label);
        snprintf(label, sizeof label, "set attribute %d", bad[i]);
        SHOW(label, cudaMemPoolSetAttribute(pool, (enum cudaMemPoolAttr)bad[i], &uv));
        SHOW_LAST(label);
    }
    SHOW("get from a NULL pool", cudaMemPoolGetAttribute(NULL, cudaMemPoolReuseAllowOpportunistic, &iv));
    SHOW_LAST("get NULL pool");
    SHOW("set on a NULL pool", cudaMemPoolSetAttribute(NULL, cudaMemPoolAttrReleaseThreshold, &uv));
    SHOW_LAST("set NULL pool");
    SHOW("cudaMemPoolTrimTo(NULL pool)", cudaMemPoolTrimTo(NULL, 0));
    SHOW_LAST("trim NULL pool");

    /* The counters over a known pattern, release threshold 0: 1 MiB, 1 MiB, 3 MiB + 100 bytes,
     * 200 bytes. */
    show_counters("start", pool);
    void *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    OK(cudaMallocFromPoolAsync(&a, MiB, pool, s));
    OK(cudaMallocFromPoolAsync(&b, MiB, pool, s));
    OK(cudaMallocFromPoolAsync(&c, 3 * MiB + 100, pool, s));
    OK(cudaMallocFromPoolAsync(&d, 200, pool, s));
    OK(cudaStreamSynchronize(s));
    struct counters k = show_counters("after 4 allocations and a sync", pool);
    CHECK(k.uc >= 5 * MiB + 300);
    OK(cudaFreeAsync(b, s));
    OK(cudaStreamSynchronize(s));
    k = show_counters("after freeing the second 1 MiB and a sync", pool);
    CHECK(k.uh >= 5 * MiB + 300);
    OK(cudaFreeAsync(d, s));
    OK(cudaStreamSynchronize(s));
    show_counters("after freeing the 200 bytes and a sync", pool);

    /* A release threshold keeps freed memory reserved across synchronisation. */
    OK(set_u64(pool, cudaMemPoolAttrReleaseThreshold, 64 * MiB));
    void *big = NULL;
    OK(cudaMallocFromPoolAsync(&big, 8 * MiB, pool, s));
    OK(cudaStreamSynchronize(s));
    show_counters("threshold 64 MiB, after 8 MiB more", pool);
    OK(cudaFreeAsync(big, s));
    OK(cudaStreamSynchronize(s));
    k = show_counters("after freeing the 8 MiB and a sync", pool);
    CHECK(k.rc >= k.uc + 8 * MiB);
    OK(SHOW("cudaMemPoolTrimTo(SIZE_MAX)", cudaMemPoolTrimTo(pool, SIZE_MAX)));
    show_counters("after trimming to SIZE_MAX", pool);
    OK(SHOW("cudaMemPoolTrimTo(4 MiB)", cudaMemPoolTrimTo(pool, 4 * MiB)));
    show_counters("after trimming to 4 MiB", pool);
    OK(SHOW("cudaMemPoolTrimTo(0)", cudaMemPoolTrimTo(pool, 0)));
    show_counters("after trimming to 0", pool);

    /* Resetting the high-water marks makes them the current values. */
    OK(SHOW("reset cudaMemPoolAttrReservedMemHigh", set_u64(pool, cudaMemPoolAttrReservedMemHigh, 0)));
    OK(SHOW("reset cudaMemPoolAttrUsedMemHigh", set_u64(pool, cudaMemPoolAttrUsedMemHigh, 0)));
    k = show_counters("after the resets", pool);
    CHECK(k.rh == k.rc && k.uh == k.uc);
    OK(cudaFreeAsync(a, s));
    OK(cudaFreeAsync(c, s));
    OK(cudaStreamSynchronize(s));
    show_counters("after freeing everything and a sync", pool);
    OK(cudaMemPoolTrimTo(pool, 0));
    k = show_counters("after trimming to 0", pool);
    CHECK(k.uc == 0);

    /* The reuse policies at work (threshold high, so freed memory stays in the pool): does an
     * allocation on s take the address a free on s2 gave back? */
    OK(set_u64(pool, cudaMemPoolAttrReleaseThreshold, UINT64_MAX));
    cudaEvent_t ev;
    OK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    void *x = NULL, *y = NULL;

    set_policies(pool, 0, 0, 0);
    OK(cudaMallocFromPoolAsync(&x, 2 * MiB, pool, s2));
    OK(cudaFreeAsync(x, s2));
    OK(cudaStreamSynchronize(s2));
    OK(cudaMallocFromPoolAsync(&y, 2 * MiB, pool, s));
    printf("no policy, free completed, no dependency: same address %d\n", x == y);
    OK(cudaFreeAsync(y, s));
    OK(cudaStreamSynchronize(s));

    set_policies(pool, 0, 1, 0);
    OK(cudaMallocFromPoolAsync(&x, 2 * MiB, pool, s2));
    OK(cudaFreeAsync(x, s2));
    OK(cudaStreamSynchronize(s2));
    OK(cudaMallocFromPoolAsync(&y, 2 * MiB, pool, s));
    printf("opportunistic, free completed, no dependency: same address %d\n", x == y);
    OK(cudaFreeAsync(y, s));
    OK(cudaStreamSynchronize(s));

    set_policies(pool, 1, 0, 0);
    OK(cudaMallocFromPoolAsync(&x, 2 * MiB, pool, s2));
    OK(cudaFreeAsync(x, s2));
    OK(cudaEventRecord(ev, s2));
    OK(cudaStreamWaitEvent(s, ev, 0));
    OK(cudaMallocFromPoolAsync(&y, 2 * MiB, pool, s));
    printf("event dependencies, s waits for the free: same address %d\n", x == y);
    OK(cudaFreeAsync(y, s));
    OK(cudaStreamSynchronize(s));
    OK(cudaStreamSynchronize(s2));

    set_policies(pool, 0, 0, 0);
    OK(cudaMallocFromPoolAsync(&x, 2 * MiB, pool, s2));
    OK(cudaFreeAsync(x, s2));
    OK(cudaEventRecord(ev, s2));
    OK(cudaStreamWaitEvent(s, ev, 0));
    OK(cudaMallocFromPoolAsync(&y, 2 * MiB, pool, s));
    printf("no policy, s waits for the free: same address %d\n", x == y);
    OK(cudaFreeAsync(y, s));
    OK(cudaStreamSynchronize(s));
    OK(cudaStreamSynchronize(s2));

    show_all("created pool at the end", pool);
    OK(cudaMemPoolTrimTo(pool, 0));
    OK(cudaEventDestroy(ev));
    OK(SHOW("cudaMemPoolDestroy", cudaMemPoolDestroy(pool)));
    show_all("default pool of device 0 at the end", dflt);

    /* Last, as the driver alone judges it: a NULL value pointer. */
    SHOW("get into NULL", cudaMemPoolGetAttribute(dflt, cudaMemPoolAttrReleaseThreshold, NULL));
    SHOW_LAST("get into NULL");
    /* No set from NULL: NVIDIA's runtime crashes on cudaMemPoolSetAttribute(pool, attr, NULL). */
    ct_destroy_streams(s, s2, NULL);
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
