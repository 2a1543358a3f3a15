/* Unified memory: cudaMallocManaged, cudaMemAdvise, cudaMemPrefetchAsync,
 * cudaMemRangeGetAttribute(s). */
#include "managed_util.h"

#define SZ (1 << 20)

static void all_ranges(const char *when, const void *p, size_t n) {
    mu_ranges(when, p, n);
    int by[3] = {7, 7, 7};
    cudaError_t e = cudaMemRangeGetAttribute(by, sizeof by, cudaMemRangeAttributeAccessedBy, p, n);
    printf("  AccessedBy[3]: %s = {%d, %d, %d}\n", cudaGetErrorName(e), by[0], by[1], by[2]);
}

int main(void) {
    int managed = 0, concurrent = 0;
    OK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
    OK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, 0));
    SHOWI("cudaDevAttrManagedMemory", managed);
    SHOWI("cudaDevAttrConcurrentManagedAccess", concurrent);

    /* Allocation and host access. */
    unsigned char *m = NULL;
    OK(SHOW("cudaMallocManaged(Global)", cudaMallocManaged((void **)&m, SZ, cudaMemAttachGlobal)));
    CHECK(m != NULL);
    if (!m) DONE();
    for (int i = 0; i < SZ; i++) m[i] = (unsigned char)(i * 7);
    int good = 1;
    for (int i = 0; i < SZ; i++) good &= m[i] == (unsigned char)(i * 7);
    CHECK(good);
    printf("host read back: %d\n", good);
    unsigned char *mh = NULL;
    OK(SHOW("cudaMallocManaged(Host)", cudaMallocManaged((void **)&mh, 4096, cudaMemAttachHost)));
    if (mh) {
        mh[0] = 1;
        mh[4095] = 2;
        CHECK(mh[0] + mh[4095] == 3);
    }
    void *x = (void *)1;
    SHOW("cudaMallocManaged(size 0)", cudaMallocManaged(&x, 0, cudaMemAttachGlobal));
    SHOW_LAST("size 0");
    printf("size 0 pointer untouched: %d\n", (int)(x == (void *)1));
    SHOW("cudaMallocManaged(Single)", cudaMallocManaged(&x, 4096, cudaMemAttachSingle));
    SHOW_LAST("flags Single");
    SHOW("cudaMallocManaged(flags 0)", cudaMallocManaged(&x, 4096, 0));
    SHOW_LAST("flags 0");
    SHOW("cudaMallocManaged(Global|Host)", cudaMallocManaged(&x, 4096, cudaMemAttachGlobal | cudaMemAttachHost));
    SHOW_LAST("flags Global|Host");
    SHOW("cudaMallocManaged(flags 8)", cudaMallocManaged(&x, 4096, 8));
    SHOW_LAST("flags 8");
    SHOW("cudaMallocManaged(NULL)", cudaMallocManaged(NULL, 4096, cudaMemAttachGlobal));
    SHOW_LAST("NULL");
    SHOW("cudaMallocManaged(1<<62)", cudaMallocManaged(&x, (size_t)1 << 62, cudaMemAttachGlobal));
    SHOW_LAST("huge");

    all_ranges("fresh", m, SZ);

    /* Advice. */
    OK(SHOW("SetReadMostly", mu_advise(m, SZ, cudaMemAdviseSetReadMostly, 0)));
    all_ranges("after SetReadMostly", m, SZ);
    OK(SHOW("UnsetReadMostly", mu_advise(m, SZ, cudaMemAdviseUnsetReadMostly, 0)));
    OK(SHOW("SetPreferredLocation(0)", mu_advise(m, SZ, cudaMemAdviseSetPreferredLocation, 0)));
    OK(SHOW("SetAccessedBy(0)", mu_advise(m, SZ, cudaMemAdviseSetAccessedBy, 0)));
    all_ranges("after SetPreferredLocation(0), SetAccessedBy(0)", m, SZ);
    all_ranges("first half", m, SZ / 2);
    OK(SHOW("SetPreferredLocation(cpu) on first half", mu_advise(m, SZ / 2, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId)));
    all_ranges("first half after cpu preference", m, SZ / 2);
    all_ranges("whole after cpu preference on half", m, SZ);
    OK(SHOW("UnsetPreferredLocation", mu_advise(m, SZ, cudaMemAdviseUnsetPreferredLocation, 0)));
    OK(SHOW("UnsetAccessedBy(0)", mu_advise(m, SZ, cudaMemAdviseUnsetAccessedBy, 0)));
    OK(SHOW("SetAccessedBy(cpu)", mu_advise(m, SZ, cudaMemAdviseSetAccessedBy, cudaCpuDeviceId)));
    all_ranges("after unsets, SetAccessedBy(cpu)", m, SZ);
    OK(SHOW("UnsetAccessedBy(cpu)", mu_advise(m, SZ, cudaMemAdviseUnsetAccessedBy, cudaCpuDeviceId)));

    /* Advice failures. */
    SHOW("advice 0", mu_advise(m, SZ, (enum cudaMemoryAdvise)0, 0));
    SHOW_LAST("advice 0");
    SHOW("advice 7", mu_advise(m, SZ, (enum cudaMemoryAdvise)7, 0));
    SHOW_LAST("advice 7");
    SHOW("SetPreferredLocation(99)", mu_advise(m, SZ, cudaMemAdviseSetPreferredLocation, 99));
    SHOW_LAST("device 99");
    SHOW("SetAccessedBy(-2)", mu_advise(m, SZ, cudaMemAdviseSetAccessedBy, cudaInvalidDeviceId));
    SHOW_LAST("device -2");
    SHOW("SetReadMostly(device 99)", mu_advise(m, SZ, cudaMemAdviseSetReadMostly, 99));
    SHOW_LAST("read mostly, device 99");
    OK(mu_advise(m, SZ, cudaMemAdviseUnsetReadMostly, 0));
    SHOW("advise(NULL)", mu_advise(NULL, SZ, cudaMemAdviseSetReadMostly, 0));
    SHOW_LAST("advise NULL");
    SHOW("advise(count 0)", mu_advise(m, 0, cudaMemAdviseSetReadMostly, 0));
    SHOW_LAST("advise count 0");
    OK(mu_advise(m, SZ, cudaMemAdviseUnsetReadMostly, 0));
    void *d = NULL;
    OK(cudaMalloc(&d, 4096));
    SHOW("advise(cudaMalloc memory)", mu_advise(d, 4096, cudaMemAdviseSetReadMostly, 0));
    SHOW_LAST("advise device memory");
#if CUDART_VERSION >= 13000
    {
        struct cudaMemLocation bad;
        bad.type = (enum cudaMemLocationType)99;
        bad.id = 0;
        SHOW("SetPreferredLocation(type 99)", cudaMemAdvise(m, SZ, cudaMemAdviseSetPreferredLocation, bad));
        SHOW_LAST("location type 99");
        bad.type = cudaMemLocationTypeInvalid;
        SHOW("SetPreferredLocation(type Invalid)", cudaMemAdvise(m, SZ, cudaMemAdviseSetPreferredLocation, bad));
        SHOW_LAST("location type Invalid");
    }
#else
    {
        struct cudaMemLocation l;
        l.type = cudaMemLocationTypeDevice;
        l.id = 0;
        OK(SHOW("cudaMemAdvise_v2 SetPreferredLocation(device 0)", cudaMemAdvise_v2(m, SZ, cudaMemAdviseSetPreferredLocation, l)));
        mu_range_int("  PreferredLocation", m, SZ, cudaMemRangeAttributePreferredLocation);
        l.type = cudaMemLocationTypeHost;
        OK(SHOW("cudaMemAdvise_v2 SetPreferredLocation(host)", cudaMemAdvise_v2(m, SZ, cudaMemAdviseSetPreferredLocation, l)));
        mu_range_int("  PreferredLocation", m, SZ, cudaMemRangeAttributePreferredLocation);
        OK(cudaMemAdvise(m, SZ, cudaMemAdviseUnsetPreferredLocation, 0));
    }
#endif

    /* Prefetch. */
    OK(SHOW("prefetch to 0", mu_prefetch(m, SZ, 0, 0)));
    OK(SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize()));
    all_ranges("after prefetch to 0", m, SZ);
    OK(SHOW("prefetch to cpu", mu_prefetch(m, SZ, cudaCpuDeviceId, 0)));
    OK(cudaDeviceSynchronize());
    all_ranges("after prefetch to cpu", m, SZ);
    OK(SHOW("prefetch half to 0 on cudaStreamPerThread", mu_prefetch(m, SZ / 2, 0, cudaStreamPerThread)));
    OK(cudaStreamSynchronize(cudaStreamPerThread));
    all_ranges("after prefetch of half to 0", m, SZ);
    cudaStream_t s = NULL;
    OK(cudaStreamCreate(&s));
    OK(SHOW("prefetch to 0 on a stream", mu_prefetch(m, SZ, 0, s)));
    OK(cudaStreamSynchronize(s));
    mu_range_int("LastPrefetchLocation", m, SZ, cudaMemRangeAttributeLastPrefetchLocation);
    good = 1;
    for (int i = 0; i < SZ; i++) good &= m[i] == (unsigned char)(i * 7);
    CHECK(good);
    printf("host read back after prefetches: %d\n", good);

    SHOW("prefetch to 99", mu_prefetch(m, SZ, 99, 0));
    SHOW_LAST("prefetch device 99");
    SHOW("prefetch to -2", mu_prefetch(m, SZ, cudaInvalidDeviceId, 0));
    SHOW_LAST("prefetch device -2");
    SHOW("prefetch cudaMalloc memory", mu_prefetch(d, 4096, 0, 0));
    SHOW_LAST("prefetch device memory");
    SHOW("prefetch NULL", mu_prefetch(NULL, 4096, 0, 0));
    SHOW_LAST("prefetch NULL");
    SHOW("prefetch count 0", mu_prefetch(m, 0, 0, 0));
    SHOW_LAST("prefetch count 0");
#if CUDART_VERSION >= 13000
    SHOW("prefetch flags 1", cudaMemPrefetchAsync(m, SZ, mu_where(0), 1, 0));
    SHOW_LAST("prefetch flags 1");
#else
    {
        struct cudaMemLocation l;
        l.type = cudaMemLocationTypeHost;
        l.id = 0;
        OK(SHOW("cudaMemPrefetchAsync_v2(host)", cudaMemPrefetchAsync_v2(m, SZ, l, 0, 0)));
        OK(cudaDeviceSynchronize());
        mu_range_int("  LastPrefetchLocation", m, SZ, cudaMemRangeAttributeLastPrefetchLocation);
        SHOW("cudaMemPrefetchAsync_v2(flags 1)", cudaMemPrefetchAsync_v2(m, SZ, l, 1, 0));
        SHOW_LAST("v2 flags 1");
    }
#endif
    OK(cudaDeviceSynchronize());

    /* Range attribute failures. */
    int v = 0;
    SHOW("ReadMostly(dataSize 3)", cudaMemRangeGetAttribute(&v, 3, cudaMemRangeAttributeReadMostly, m, SZ));
    SHOW_LAST("dataSize 3");
    SHOW("ReadMostly(dataSize 8)", cudaMemRangeGetAttribute(&v, 8, cudaMemRangeAttributeReadMostly, m, SZ));
    SHOW_LAST("dataSize 8");
    SHOW("AccessedBy(dataSize 6)", cudaMemRangeGetAttribute(&v, 6, cudaMemRangeAttributeAccessedBy, m, SZ));
    SHOW_LAST("AccessedBy dataSize 6");
    SHOW("attribute 0", cudaMemRangeGetAttribute(&v, 4, (enum cudaMemRangeAttribute)0, m, SZ));
    SHOW_LAST("attribute 0");
    SHOW("attribute 99", cudaMemRangeGetAttribute(&v, 4, (enum cudaMemRangeAttribute)99, m, SZ));
    SHOW_LAST("attribute 99");
    SHOW("data NULL", cudaMemRangeGetAttribute(NULL, 4, cudaMemRangeAttributeReadMostly, m, SZ));
    SHOW_LAST("data NULL");
    SHOW("cudaMalloc memory", cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, d, 4096));
    SHOW_LAST("range of device memory");
    SHOW("count 0", cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m, 0));
    SHOW_LAST("count 0");
    SHOW("past the end", cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m, 2 * SZ));
    SHOW_LAST("past the end");

    /* Several attributes at once. */
    OK(mu_advise(m, SZ, cudaMemAdviseSetReadMostly, 0));
    OK(mu_prefetch(m, SZ, 0, 0));
    OK(cudaDeviceSynchronize());
    {
        int rm = -9, last = -9, by[2] = {-9, -9};
        void *data[3] = {&rm, &last, by};
        size_t sizes[3] = {sizeof rm, sizeof last, sizeof by};
        enum cudaMemRangeAttribute attrs[3] = {cudaMemRangeAttributeReadMostly,
                                               cudaMemRangeAttributeLastPrefetchLocation,
                                               cudaMemRangeAttributeAccessedBy};
        OK(SHOW("cudaMemRangeGetAttributes", cudaMemRangeGetAttributes(data, sizes, attrs, 3, m, SZ)));
        printf("  ReadMostly = %d, LastPrefetchLocation = %d, AccessedBy = {%d, %d}\n", rm, last, by[0], by[1]);
        SHOW("cudaMemRangeGetAttributes(0 attributes)", cudaMemRangeGetAttributes(data, sizes, attrs, 0, m, SZ));
        SHOW_LAST("0 attributes");
        sizes[0] = 2;
        SHOW("cudaMemRangeGetAttributes(bad size)", cudaMemRangeGetAttributes(data, sizes, attrs, 3, m, SZ));
        SHOW_LAST("bad size");
        sizes[0] = sizeof rm;
        SHOW("cudaMemRangeGetAttributes(NULL data)", cudaMemRangeGetAttributes(NULL, sizes, attrs, 3, m, SZ));
        SHOW_LAST("NULL data");
        SHOW("cudaMemRangeGetAttributes(NULL sizes)", cudaMemRangeGetAttributes(data, NULL, attrs, 3, m, SZ));
        SHOW_LAST("NULL sizes");
        SHOW("cudaMemRangeGetAttributes(NULL attributes)", cudaMemRangeGetAttributes(data, sizes, NULL, 3, m, SZ));
        SHOW_LAST("NULL attributes");
        SHOW("cudaMemRangeGetAttributes(device memory)", cudaMemRangeGetAttributes(data, sizes, attrs, 3, d, 4096));
        SHOW_LAST("device memory");
    }

    /* A pointer into the middle of the allocation works like any other. */
    mu_range_int("ReadMostly(middle page)", m + SZ / 2, 4096, cudaMemRangeAttributeReadMostly);

    OK(cudaStreamDestroy(s));
    OK(cudaFree(d));
    OK(SHOW("cudaFree(managed)", cudaFree(m)));
    SHOW("cudaFree(managed) again", cudaFree(m));
    SHOW_LAST("double free managed");
    OK(cudaFree(mh));
    SHOW("range of freed managed memory", cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m, SZ));
    SHOW_LAST("freed");
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
