/* ctest: gpu */
/* Batched memory operations. cudaMemcpyBatchAsync with copies of several kinds in one call
 * (pageable and pinned host to device, device to device, device to pageable host) under two
 * attribute entries; each source access order with each copy flag; the attribute-index rules
 * (first index 0, increasing, below the count, no more entries than copies), invalid access
 * orders, flags and sizes, the legacy and per-thread streams, counts of 0 and NULL arrays.
 * cudaMemcpy3DBatchAsync with pointer and array operands. The 12 ABI reports the index of a
 * failing copy through failIdx (printed: a number, SIZE_MAX, or untouched); 13 has no failIdx.
 * CUDA 13's cudaMemPrefetchBatchAsync, cudaMemDiscardBatchAsync and
 * cudaMemDiscardAndPrefetchBatchAsync on managed memory, with the last prefetch locations
 * read back, and their argument errors. The last error after each failure. */
#include "pool_util.h"

#define SZ 4096
#define FAIL_SENTINEL ((size_t)777)

#if CUDART_VERSION >= 13000
#define BATCH(d, s, z, n, a, ai, na, fi, st)                                                                         \
    ((void)(fi), cudaMemcpyBatchAsync((void *const *)(d), (const void *const *)(s), (z), (n), (a), (ai), (na), (st)))
#define BATCH3D(n, ops, fi, fl, st) ((void)(fi), cudaMemcpy3DBatchAsync((n), (ops), (fl), (st)))
#else
#define BATCH(d, s, z, n, a, ai, na, fi, st)                                                                         \
    cudaMemcpyBatchAsync((void **)(d), (void **)(s), (z), (n), (a), (ai), (na), (fi), (st))
#define BATCH3D(n, ops, fi, fl, st) cudaMemcpy3DBatchAsync((n), (ops), (fi), (fl), (st))
#endif

/* Prints a batch call's result, failIdx in the 12 ABI, and the last error after a failure. */
static cudaError_t show_batch(const char *label, cudaError_t e, size_t fail) {
    printf("%s: %s", label, cudaGetErrorName(e));
#if CUDART_VERSION < 13000
    if (fail == FAIL_SENTINEL)
        printf(", failIdx untouched");
    else if (fail == SIZE_MAX)
        printf(", failIdx SIZE_MAX");
    else
        printf(", failIdx %zu", fail);
#else
    (void)fail;
#endif
    printf("\n");
    if (e != cudaSuccess) SHOW_LAST(label);
    return e;
}

static struct cudaMemcpyAttributes attr(int order, unsigned flags) {
    struct cudaMemcpyAttributes a;
    memset(&a, 0, sizeof a);
    a.srcAccessOrder = (enum cudaMemcpySrcAccessOrder)order;
    a.flags = flags;
    return a;
}

static void fill(unsigned char *p, size_t n, int seed) {
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 13 + seed);
}

static int same(const void *d, const void *want, size_t n) {
    unsigned char h[SZ];
    if (cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost) != cudaSuccess) return 0;
    return memcmp(h, want, n) == 0;
}

static struct cudaMemcpy3DOperand ptr_operand(void *p, size_t row, size_t layer) {
    struct cudaMemcpy3DOperand o;
    memset(&o, 0, sizeof o);
    o.type = cudaMemcpyOperandTypePointer;
    o.op.ptr.ptr = p;
    o.op.ptr.rowLength = row;
    o.op.ptr.layerHeight = layer;
    return o;
}

static struct cudaMemcpy3DOperand array_operand(cudaArray_t a) {
    struct cudaMemcpy3DOperand o;
    memset(&o, 0, sizeof o);
    o.type = cudaMemcpyOperandTypeArray;
    o.op.array.array = a;
    return o;
}

int main(void) {
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    unsigned char *d[4], *ph = NULL;
    for (int i = 0; i < 4; i++) OK(cudaMalloc((void **)&d[i], SZ));
    OK(cudaMallocHost((void **)&ph, SZ));
    static unsigned char h1[SZ], h2[SZ], want0[SZ], want1[SZ], want2[SZ];
    size_t fail;

    /* Four copies of several kinds, two attribute entries: copies 0-1 in stream order, 2-3
     * with the source read during the call. */
    fill(h1, SZ, 1);
    fill(ph, SZ, 2);
    fill(want2, SZ, 3);
    OK(cudaMemcpy(d[3], want2, SZ, cudaMemcpyHostToDevice));
    memcpy(want0, h1, SZ);
    memcpy(want1, ph, SZ);
    memset(h2, 0, SZ);
    {
        void *dsts[4] = {d[0], d[1], d[2], h2};
        const void *srcs[4] = {h1, ph, d[3], d[3]};
        size_t sizes[4] = {SZ, SZ, SZ, SZ};
        struct cudaMemcpyAttributes attrs[2] = {attr(cudaMemcpySrcAccessOrderStream, 0),
                                                attr(cudaMemcpySrcAccessOrderDuringApiCall, 0)};
        size_t idxs[2] = {0, 2};
        fail = FAIL_SENTINEL;
        show_batch("4 copies, 2 attribute entries", BATCH(dsts, srcs, sizes, 4, attrs, idxs, 2, &fail, s), fail);
        OK(cudaStreamSynchronize(s));
        int ok = same(d[0], want0, SZ) && same(d[1], want1, SZ) && same(d[2], want2, SZ) && !memcmp(h2, want2, SZ);
        printf("  data: %s\n", ok ? "ok" : "wrong");
        CHECK(ok);

        /* Each source access order with each flag: a stack source to the device and back. */
        int orders[3] = {cudaMemcpySrcAccessOrderStream, cudaMemcpySrcAccessOrderDuringApiCall,
                         cudaMemcpySrcAccessOrderAny};
        unsigned flags[2] = {cudaMemcpyFlagDefault, cudaMemcpyFlagPreferOverlapWithCompute};
        for (int o = 0; o < 3; o++) {
            for (int f = 0; f < 2; f++) {
                unsigned char stack[SZ];
                fill(stack, SZ, 10 + o * 2 + f);
                memset(h2, 0, SZ);
                void *ds[2] = {d[0], h2};
                const void *ss[2] = {stack, d[3]};
                size_t zs[2] = {SZ, SZ};
                struct cudaMemcpyAttributes a1 = attr(orders[o], flags[f]);
                size_t i0 = 0;
                char label[96];
                snprintf(label, sizeof label, "access order %d, flags %u", orders[o], flags[f]);
                fail = FAIL_SENTINEL;
                show_batch(label, BATCH(ds, ss, zs, 2, &a1, &i0, 1, &fail, s), fail);
                OK(cudaStreamSynchronize(s));
                ok = same(d[0], stack, SZ) && !memcmp(h2, want2, SZ);
                printf("  data: %s\n", ok ? "ok" : "wrong");
                CHECK(ok);
            }
        }

        /* Hints: a location for the source and destination (ignored for these pointers). */
        struct cudaMemcpyAttributes hinted = attr(cudaMemcpySrcAccessOrderStream, 0);
        hinted.srcLocHint = loc(cudaMemLocationTypeHost, 0);
        hinted.dstLocHint = loc(cudaMemLocationTypeDevice, 0);
        size_t i0 = 0;
        fail = FAIL_SENTINEL;
        show_batch("location hints", BATCH(dsts, srcs, sizes, 4, &hinted, &i0, 1, &fail, s), fail);
        hinted.dstLocHint = loc((enum cudaMemLocationType)77, 5);
        fail = FAIL_SENTINEL;
        show_batch("location hint of type 77", BATCH(dsts, srcs, sizes, 4, &hinted, &i0, 1, &fail, s), fail);
        OK(cudaStreamSynchronize(s));

        /* Attribute entries and indices. */
        size_t bad_first[2] = {1, 2}, not_increasing[2] = {0, 0}, past_end[2] = {0, 4}, three[3] = {0, 1, 2};
        struct cudaMemcpyAttributes many[5] = {attrs[0], attrs[0], attrs[0], attrs[0], attrs[0]};
        size_t five[5] = {0, 1, 2, 3, 4};
        fail = FAIL_SENTINEL;
        show_batch("no attribute entries", BATCH(dsts, srcs, sizes, 4, attrs, idxs, 0, &fail, s), fail);
        fail = FAIL_SENTINEL;
        show_batch("first index 1", BATCH(dsts, srcs, sizes, 4, attrs, bad_first, 2, &fail, s), fail);
        fail = FAIL_SENTINEL;
        show_batch("indices 0, 0", BATCH(dsts, srcs, sizes, 4, attrs, not_increasing, 2, &fail, s), fail);
        fail = FAIL_SENTINEL;
        show_batch("indices 0, 4 of 4 copies", BATCH(dsts, srcs, sizes, 4, attrs, past_end, 2, &fail, s), fail);
        fail = FAIL_SENTINEL;
        show_batch("3 entries for 4 copies", BATCH(dsts, srcs, sizes, 4, many, three, 3, &fail, s), fail);
        fail = FAIL_SENTINEL;
        show_batch("5 entries for 4 copies", BATCH(dsts, srcs, sizes, 4, many, five, 5, &fail, s), fail);

        /* A bad entry in the middle: the second attribute entry (copies 2 and 3) invalid. */
        int bad_orders[3] = {cudaMemcpySrcAccessOrderInvalid, 4, cudaMemcpySrcAccessOrderMax};
        for (int b = 0; b < 3; b++) {
            struct cudaMemcpyAttributes two[2] = {attr(cudaMemcpySrcAccessOrderStream, 0), attr(bad_orders[b], 0)};
            char label[96];
            snprintf(label, sizeof label, "copies 2-3 with access order %d", bad_orders[b]);
            fail = FAIL_SENTINEL;
            show_batch(label, BATCH(dsts, srcs, sizes, 4, two, idxs, 2, &fail, s), fail);
        }
        struct cudaMemcpyAttributes fl2[2] = {attr(cudaMemcpySrcAccessOrderStream, 0), attr(cudaMemcpySrcAccessOrderStream, 2)};
        fail = FAIL_SENTINEL;
        show_batch("copies 2-3 with flags 2", BATCH(dsts, srcs, sizes, 4, fl2, idxs, 2, &fail, s), fail);
        size_t zero_mid[4] = {SZ, SZ, 0, SZ};
        fail = FAIL_SENTINEL;
        show_batch("copy 2 of 0 bytes", BATCH(dsts, srcs, zero_mid, 4, attrs, idxs, 2, &fail, s), fail);
        OK(cudaStreamSynchronize(s));

        /* Streams. */
        fail = FAIL_SENTINEL;
        show_batch("legacy stream (0)", BATCH(dsts, srcs, sizes, 4, attrs, idxs, 2, &fail, 0), fail);
        fail = FAIL_SENTINEL;
        show_batch("cudaStreamLegacy", BATCH(dsts, srcs, sizes, 4, attrs, idxs, 2, &fail, cudaStreamLegacy), fail);
        fail = FAIL_SENTINEL;
        show_batch("cudaStreamPerThread", BATCH(dsts, srcs, sizes, 4, attrs, idxs, 2, &fail, cudaStreamPerThread), fail);
        OK(cudaStreamSynchronize(cudaStreamPerThread));

        /* Counts of 0. */
        fail = FAIL_SENTINEL;
        show_batch("count 0", BATCH(dsts, srcs, sizes, 0, attrs, idxs, 1, &fail, s), fail);
        fail = FAIL_SENTINEL;
        show_batch("count 0, no attributes", BATCH(dsts, srcs, sizes, 0, attrs, idxs, 0, &fail, s), fail);
        fail = FAIL_SENTINEL;
        show_batch("count 0, NULL arrays", BATCH(NULL, NULL, NULL, 0, NULL, NULL, 0, &fail, s), fail);
        OK(cudaStreamSynchronize(s));
    }

    /* 3D batch: pointer to pointer (tightly packed), pinned host to an array, array to
     * pageable host (rows of 64). */
    struct cudaChannelFormatDesc cd = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t arr = NULL;
    OK(cudaMallocArray(&arr, &cd, 64, 8, 0));
    fill(ph, SZ, 40);
    fill(want0, SZ, 41);
    OK(cudaMemcpy(d[1], want0, SZ, cudaMemcpyHostToDevice));
    OK(cudaMemset(d[2], 0, SZ));
    memset(h2, 0, SZ);
    struct cudaMemcpy3DBatchOp ops[3];
    memset(ops, 0, sizeof ops);
    ops[0].src = ptr_operand(d[1], 0, 0);
    ops[0].dst = ptr_operand(d[2], 0, 0);
    ops[0].extent = make_cudaExtent(64, 4, 2);
    ops[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    ops[1].src = ptr_operand(ph, 64, 8);
    ops[1].dst = array_operand(arr);
    ops[1].extent = make_cudaExtent(64, 8, 1);
    ops[1].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    fail = FAIL_SENTINEL;
    show_batch("3D: pointer to pointer, host to array", BATCH3D(2, ops, &fail, 0, s), fail);
    OK(cudaStreamSynchronize(s));
    ops[2].src = array_operand(arr);
    ops[2].dst = ptr_operand(h2, 64, 8);
    ops[2].extent = make_cudaExtent(64, 8, 1);
    ops[2].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    ops[2].flags = cudaMemcpyFlagPreferOverlapWithCompute;
    fail = FAIL_SENTINEL;
    show_batch("3D: array to host", BATCH3D(1, &ops[2], &fail, 0, s), fail);
    OK(cudaStreamSynchronize(s));
    int ok3 = same(d[2], want0, 512) && !memcmp(h2, ph, 512);
    printf("  data: %s\n", ok3 ? "ok" : "wrong");
    CHECK(ok3);
    {
        struct cudaMemcpy3DBatchOp b[3];
        memcpy(b, ops, sizeof b);
        fail = FAIL_SENTINEL;
        show_batch("3D: flags 1", BATCH3D(3, b, &fail, 1, s), fail);
        fail = FAIL_SENTINEL;
        show_batch("3D: 0 operations", BATCH3D(0, b, &fail, 0, s), fail);
        fail = FAIL_SENTINEL;
        show_batch("3D: legacy stream", BATCH3D(3, b, &fail, 0, 0), fail);
        b[1].srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
        fail = FAIL_SENTINEL;
        show_batch("3D: operation 1 with access order invalid", BATCH3D(3, b, &fail, 0, s), fail);
        memcpy(b, ops, sizeof b);
        b[2].extent.width = 0;
        fail = FAIL_SENTINEL;
        show_batch("3D: operation 2 of width 0", BATCH3D(3, b, &fail, 0, s), fail);
        memcpy(b, ops, sizeof b);
        b[1].src.op.ptr.rowLength = 32;
        fail = FAIL_SENTINEL;
        show_batch("3D: operation 1 with rows of 32 for a width of 64", BATCH3D(3, b, &fail, 0, s), fail);
        memcpy(b, ops, sizeof b);
        b[0].dst.type = (enum cudaMemcpy3DOperandType)3;
        fail = FAIL_SENTINEL;
        show_batch("3D: operation 0 with operand type 3", BATCH3D(3, b, &fail, 0, s), fail);
        memcpy(b, ops, sizeof b);
        b[2].extent.height = 9;
        fail = FAIL_SENTINEL;
        show_batch("3D: operation 2 taller than the array", BATCH3D(3, b, &fail, 0, s), fail);
        OK(cudaStreamSynchronize(s));
    }
    OK(cudaFreeArray(arr));

#if CUDART_VERSION >= 13000
    /* Prefetches and discards of managed memory. */
    int cma = -1;
    OK(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, 0));
    SHOWI("cudaDevAttrConcurrentManagedAccess", cma);
    void *m[3];
    size_t msz[3] = {65536, 65536, 65536};
    for (int i = 0; i < 3; i++) {
        OK(cudaMallocManaged(&m[i], 65536, cudaMemAttachGlobal));
        memset(m[i], i + 1, 65536);
    }
    struct cudaMemLocation locs[2] = {loc(cudaMemLocationTypeDevice, 0), loc(cudaMemLocationTypeHost, 0)};
    size_t lidx[2] = {0, 2};
    if (SHOW("cudaMemPrefetchBatchAsync(2 to device 0, 1 to host)", cudaMemPrefetchBatchAsync(m, msz, 3, locs, lidx, 2, 0, s)) !=
        cudaSuccess)
        SHOW_LAST("prefetch batch");
    OK(cudaStreamSynchronize(s));
    for (int i = 0; i < 3; i++) {
        int where = -7;
        OK(cudaMemRangeGetAttribute(&where, sizeof where, cudaMemRangeAttributeLastPrefetchLocation, m[i], 65536));
        printf("  last prefetch location of %d: %d\n", i, where);
    }
    size_t one0 = 0, bad_first = 1;
    void *plain = d[0];
    size_t psz = SZ;
    SHOW("prefetch: count 0", cudaMemPrefetchBatchAsync(m, msz, 0, locs, lidx, 1, 0, s));
    SHOW_LAST("prefetch count 0");
    SHOW("prefetch: no locations", cudaMemPrefetchBatchAsync(m, msz, 3, locs, lidx, 0, 0, s));
    SHOW_LAST("prefetch no locations");
    SHOW("prefetch: first index 1", cudaMemPrefetchBatchAsync(m, msz, 3, locs, &bad_first, 1, 0, s));
    SHOW_LAST("prefetch first index 1");
    SHOW("prefetch: flags 1", cudaMemPrefetchBatchAsync(m, msz, 3, locs, &one0, 1, 1, s));
    SHOW_LAST("prefetch flags 1");
    SHOW("prefetch: legacy stream", cudaMemPrefetchBatchAsync(m, msz, 3, locs, &one0, 1, 0, 0));
    SHOW_LAST("prefetch legacy stream");
    struct cudaMemLocation badloc = loc(cudaMemLocationTypeInvalid, 0);
    SHOW("prefetch: invalid location", cudaMemPrefetchBatchAsync(m, msz, 3, &badloc, &one0, 1, 0, s));
    SHOW_LAST("prefetch invalid location");
    badloc = loc(cudaMemLocationTypeDevice, 99);
    SHOW("prefetch: device 99", cudaMemPrefetchBatchAsync(m, msz, 3, &badloc, &one0, 1, 0, s));
    SHOW_LAST("prefetch device 99");
    SHOW("prefetch: cudaMalloc memory", cudaMemPrefetchBatchAsync(&plain, &psz, 1, locs, &one0, 1, 0, s));
    SHOW_LAST("prefetch cudaMalloc memory");
    OK(cudaStreamSynchronize(s));

    if (SHOW("cudaMemDiscardBatchAsync(3 ranges)", cudaMemDiscardBatchAsync(m, msz, 3, 0, s)) != cudaSuccess)
        SHOW_LAST("discard batch");
    OK(cudaStreamSynchronize(s));
    SHOW("discard: count 0", cudaMemDiscardBatchAsync(m, msz, 0, 0, s));
    SHOW_LAST("discard count 0");
    SHOW("discard: flags 1", cudaMemDiscardBatchAsync(m, msz, 3, 1, s));
    SHOW_LAST("discard flags 1");
    SHOW("discard: legacy stream", cudaMemDiscardBatchAsync(m, msz, 3, 0, 0));
    SHOW_LAST("discard legacy stream");
    SHOW("discard: cudaMalloc memory", cudaMemDiscardBatchAsync(&plain, &psz, 1, 0, s));
    SHOW_LAST("discard cudaMalloc memory");
    OK(cudaStreamSynchronize(s));

    struct cudaMemLocation dev0 = loc(cudaMemLocationTypeDevice, 0);
    if (SHOW("cudaMemDiscardAndPrefetchBatchAsync(3 ranges to device 0)",
             cudaMemDiscardAndPrefetchBatchAsync(m, msz, 3, &dev0, &one0, 1, 0, s)) != cudaSuccess)
        SHOW_LAST("discard and prefetch batch");
    OK(cudaStreamSynchronize(s));
    for (int i = 0; i < 3; i++) {
        int where = -7;
        OK(cudaMemRangeGetAttribute(&where, sizeof where, cudaMemRangeAttributeLastPrefetchLocation, m[i], 65536));
        printf("  last prefetch location of %d: %d\n", i, where);
        /* Discarded contents are indeterminate until written: write, then read. */
        OK(cudaMemset(m[i], 0x70 + i, 65536));
        OK(cudaDeviceSynchronize());
        int ok = 1;
        for (int k = 0; k < 65536; k++) ok &= ((unsigned char *)m[i])[k] == 0x70 + i;
        printf("  written after the discard: %s\n", ok ? "ok" : "wrong");
        CHECK(ok);
    }
    SHOW("discard and prefetch: no locations", cudaMemDiscardAndPrefetchBatchAsync(m, msz, 3, &dev0, &one0, 0, 0, s));
    SHOW_LAST("discard and prefetch no locations");
    SHOW("discard and prefetch: flags 1", cudaMemDiscardAndPrefetchBatchAsync(m, msz, 3, &dev0, &one0, 1, 1, s));
    SHOW_LAST("discard and prefetch flags 1");
    SHOW("discard and prefetch: legacy stream", cudaMemDiscardAndPrefetchBatchAsync(m, msz, 3, &dev0, &one0, 1, 0, 0));
    SHOW_LAST("discard and prefetch legacy stream");
    OK(cudaStreamSynchronize(s));
    for (int i = 0; i < 3; i++) OK(cudaFree(m[i]));

    /* Last, as the driver alone judges them: NULL arrays with a count. */
    SHOW("prefetch: NULL arrays", cudaMemPrefetchBatchAsync(NULL, NULL, 3, NULL, NULL, 1, 0, s));
    SHOW_LAST("prefetch NULL arrays");
    SHOW("discard: NULL arrays", cudaMemDiscardBatchAsync(NULL, NULL, 3, 0, s));
    SHOW_LAST("discard NULL arrays");
#endif
    fail = FAIL_SENTINEL;
    show_batch("copy: NULL arrays with count 2", BATCH(NULL, NULL, NULL, 2, NULL, NULL, 1, &fail, s), fail);
    fail = FAIL_SENTINEL;
    show_batch("3D: NULL operations with count 2", BATCH3D(2, NULL, &fail, 0, s), fail);
    OK(cudaStreamSynchronize(s));

    for (int i = 0; i < 4; i++) OK(cudaFree(d[i]));
    OK(cudaFreeHost(ph));
    OK(cudaStreamDestroy(s));
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
