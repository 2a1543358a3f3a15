/* ctest: gpu */
/* Built as a program built with the per-thread default stream (nvcc's --default-stream
 * per-thread defines CUDA_API_PER_THREAD_DEFAULT_STREAM): the header turns each call that takes
 * the default stream into its _ptds/_ptsz export. Array copies (1D and 2D, to, from and between
 * arrays, synchronous and on the per-thread null stream), the batch copies, CUDA 13's batch
 * prefetch and discard, event record, and the stream queries and waits, each with the data
 * read back and with a bad argument; two threads, each on its own null stream. */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include "ctest.h"
#include <pthread.h>

#define W 64
#define H 8

#if CUDART_VERSION >= 13000
#define BATCH(d, s, z, n, a, ai, na, st)                                                                             \
    cudaMemcpyBatchAsync((void *const *)(d), (const void *const *)(s), (z), (n), (a), (ai), (na), (st))
#define BATCH3D(n, ops, st) cudaMemcpy3DBatchAsync((n), (ops), 0, (st))
#else
static size_t fail_idx;
#define BATCH(d, s, z, n, a, ai, na, st)                                                                             \
    cudaMemcpyBatchAsync((void **)(d), (void **)(s), (z), (n), (a), (ai), (na), &fail_idx, (st))
#define BATCH3D(n, ops, st) cudaMemcpy3DBatchAsync((n), (ops), &fail_idx, 0, (st))
#endif

static void fill(unsigned char *p, size_t n, int seed) {
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 7 + seed);
}

/* The array copies: host -> a (1D), a -> b (1D), b -> host (1D); host -> a (2D), a -> b (2D),
 * b -> host (2D, async), each checked. Returns the number of wrong read-backs. */
static int arrays(int seed, int print) {
    int bad = 0;
    struct cudaChannelFormatDesc fd = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a = NULL, b = NULL;
    if (cudaMallocArray(&a, &fd, W, H, 0) != cudaSuccess || cudaMallocArray(&b, &fd, W, H, 0) != cudaSuccess)
        return 100;
    unsigned char src[W * H], back[W * H];
    fill(src, sizeof src, seed);

    cudaError_t e1 = cudaMemcpyToArray(a, 0, 0, src, W * H, cudaMemcpyHostToDevice);
    cudaError_t e2 = cudaMemcpyArrayToArray(b, 0, 0, a, 0, 0, W * H, cudaMemcpyDeviceToDevice);
    memset(back, 0, sizeof back);
    cudaError_t e3 = cudaMemcpyFromArray(back, b, 0, 0, W * H, cudaMemcpyDeviceToHost);
    int ok1 = !e1 && !e2 && !e3 && !memcmp(src, back, sizeof src);
    bad += !ok1;

    fill(src, sizeof src, seed + 1);
    cudaError_t e4 = cudaMemcpyToArrayAsync(a, 0, 0, src, W * H, cudaMemcpyHostToDevice, 0);
    memset(back, 0, sizeof back);
    cudaError_t e5 = cudaMemcpyFromArrayAsync(back, a, 0, 0, W * H, cudaMemcpyDeviceToHost, 0);
    cudaError_t e6 = cudaStreamSynchronize(0);
    int ok2 = !e4 && !e5 && !e6 && !memcmp(src, back, sizeof src);
    bad += !ok2;

    fill(src, sizeof src, seed + 2);
    cudaError_t e7 = cudaMemcpy2DToArray(a, 0, 0, src, W, W, H, cudaMemcpyHostToDevice);
    cudaError_t e8 = cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, W, H, cudaMemcpyDeviceToDevice);
    memset(back, 0, sizeof back);
    cudaError_t e9 = cudaMemcpy2DFromArray(back, W, b, 0, 0, W, H, cudaMemcpyDeviceToHost);
    int ok3 = !e7 && !e8 && !e9 && !memcmp(src, back, sizeof src);
    bad += !ok3;

    fill(src, sizeof src, seed + 3);
    cudaError_t e10 = cudaMemcpy2DToArrayAsync(b, 0, 0, src, W, W, H, cudaMemcpyHostToDevice, 0);
    memset(back, 0, sizeof back);
    cudaError_t e11 = cudaMemcpy2DFromArrayAsync(back, W, b, 0, 0, W, H, cudaMemcpyDeviceToHost, 0);
    cudaError_t e12 = cudaStreamSynchronize(0);
    int ok4 = !e10 && !e11 && !e12 && !memcmp(src, back, sizeof src);
    bad += !ok4;

    if (print) {
        printf("1D to/between/from array: %s %s %s, data %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2),
               cudaGetErrorName(e3), ok1 ? "ok" : "wrong");
        printf("1D async to/from array: %s %s %s, data %s\n", cudaGetErrorName(e4), cudaGetErrorName(e5),
               cudaGetErrorName(e6), ok2 ? "ok" : "wrong");
        printf("2D to/between/from array: %s %s %s, data %s\n", cudaGetErrorName(e7), cudaGetErrorName(e8),
               cudaGetErrorName(e9), ok3 ? "ok" : "wrong");
        printf("2D async to/from array: %s %s %s, data %s\n", cudaGetErrorName(e10), cudaGetErrorName(e11),
               cudaGetErrorName(e12), ok4 ? "ok" : "wrong");
        /* Bad arguments: past the array's end, a wrong kind, a NULL array. */
        SHOW("1D to array past the end", cudaMemcpyToArray(a, W - 1, H - 1, src, 2, cudaMemcpyHostToDevice));
        SHOW_LAST("1D to array past the end");
        SHOW("1D from array, kind HostToDevice", cudaMemcpyFromArray(back, a, 0, 0, 4, cudaMemcpyHostToDevice));
        SHOW_LAST("1D from array, kind HostToDevice");
        SHOW("1D between arrays past the end", cudaMemcpyArrayToArray(b, 0, 0, a, 1, 0, W * H, cudaMemcpyDeviceToDevice));
        SHOW_LAST("1D between arrays past the end");
        SHOW("1D async to NULL array", cudaMemcpyToArrayAsync(NULL, 0, 0, src, 4, cudaMemcpyHostToDevice, 0));
        SHOW_LAST("1D async to NULL array");
        SHOW("1D async from array, width past the end",
             cudaMemcpyFromArrayAsync(back, a, W, 0, 1, cudaMemcpyDeviceToHost, 0));
        SHOW_LAST("1D async from array, width past the end");
        SHOW("2D to array, spitch < width", cudaMemcpy2DToArray(a, 0, 0, src, W - 1, W, 2, cudaMemcpyHostToDevice));
        SHOW_LAST("2D to array, spitch < width");
        SHOW("2D between arrays, too tall",
             cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, W, H + 1, cudaMemcpyDeviceToDevice));
        SHOW_LAST("2D between arrays, too tall");
        SHOW("2D from array, dpitch < width", cudaMemcpy2DFromArray(back, W - 1, a, 0, 0, W, 2, cudaMemcpyDeviceToHost));
        SHOW_LAST("2D from array, dpitch < width");
        SHOW("2D async to array, bad kind",
             cudaMemcpy2DToArrayAsync(a, 0, 0, src, W, W, 1, (enum cudaMemcpyKind)9, 0));
        SHOW_LAST("2D async to array, bad kind");
        SHOW("2D async from NULL array", cudaMemcpy2DFromArrayAsync(back, W, NULL, 0, 0, W, 1, cudaMemcpyDeviceToHost, 0));
        SHOW_LAST("2D async from NULL array");
    }
    cudaFreeArray(a);
    cudaFreeArray(b);
    return bad;
}

/* The batch copies on the per-thread null stream: two host -> device copies and a 3D pointer
 * copy device -> host. Returns the number of wrong read-backs. */
static int batches(int seed, int print) {
    int bad = 0;
    enum { SZ = 4096 };
    unsigned char *d0 = NULL, *d1 = NULL;
    if (cudaMalloc((void **)&d0, SZ) || cudaMalloc((void **)&d1, SZ)) return 100;
    if (cudaMemset(d0, 0, SZ) || cudaMemset(d1, 0, SZ)) return 100;
    static __thread unsigned char h0[SZ], h1[SZ], back[SZ];
    fill(h0, SZ, seed);
    fill(h1, SZ, seed + 5);
    void *dsts[2] = {d0, d1};
    const void *srcs[2] = {h0, h1};
    size_t sizes[2] = {SZ, SZ};
    struct cudaMemcpyAttributes at;
    memset(&at, 0, sizeof at);
    at.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    size_t idx = 0;
    cudaError_t e1 = BATCH(dsts, srcs, sizes, 2, &at, &idx, 1, 0);

    struct cudaMemcpy3DBatchOp op;
    memset(&op, 0, sizeof op);
    op.src.type = cudaMemcpyOperandTypePointer;
    op.src.op.ptr.ptr = d1;
    op.dst.type = cudaMemcpyOperandTypePointer;
    op.dst.op.ptr.ptr = back;
    op.extent = make_cudaExtent(SZ, 1, 1);
    op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    memset(back, 0, SZ);
    cudaError_t e2 = BATCH3D(1, &op, 0);
    cudaError_t e3 = cudaStreamSynchronize(0);
    unsigned char b0[SZ];
    cudaError_t e4 = cudaMemcpy(b0, d0, SZ, cudaMemcpyDeviceToHost);
#if CUDART_VERSION >= 13000
    /* CUDA 13's batch copies refuse the null stream, the per-thread one too (NVIDIA's 13.0.96
       runtime: cudaErrorInvalidValue for both, nothing copied). */
    int ok = e1 == cudaErrorInvalidValue && e2 == cudaErrorInvalidValue && !e3 && !e4;
#else
    int ok = !e1 && !e2 && !e3 && !e4 && !memcmp(b0, h0, SZ) && !memcmp(back, h1, SZ);
#endif
    bad += !ok;
    if (print) {
        printf("batch copy + 3D batch copy: %s %s %s, data %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2),
               cudaGetErrorName(e3), !memcmp(b0, h0, SZ) && !memcmp(back, h1, SZ) ? "copied" : "not copied");
        SHOW("batch copy, count 0", BATCH(dsts, srcs, sizes, 0, &at, &idx, 1, 0));
        SHOW_LAST("batch copy, count 0");
        SHOW("3D batch copy, NULL list", BATCH3D(1, NULL, 0));
        SHOW_LAST("3D batch copy, NULL list");
    }
    cudaFree(d0);
    cudaFree(d1);
    return bad;
}

/* Events and stream queries on the per-thread null stream. */
static int streams(int print) {
    int bad = 0;
    cudaEvent_t ev;
    if (cudaEventCreate(&ev)) return 100;
    cudaError_t e1 = cudaEventRecord(ev, 0);
    cudaError_t e2 = cudaStreamWaitEvent(0, ev, 0);
    cudaError_t e3 = cudaEventSynchronize(ev);
    cudaError_t e4 = cudaStreamQuery(0);
    unsigned int flags = 77;
    int prio = 77;
    cudaError_t e5 = cudaStreamGetFlags(0, &flags);
    cudaError_t e6 = cudaStreamGetPriority(0, &prio);
    bad += e1 || e2 || e3 || e4 || e5 || e6;
    if (print) {
        printf("event record, stream wait, sync, query: %s %s %s %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2),
               cudaGetErrorName(e3), cudaGetErrorName(e4));
        printf("null stream flags %s %u, priority %s %d\n", cudaGetErrorName(e5), flags, cudaGetErrorName(e6), prio);
        SHOW("stream wait, flags 2", cudaStreamWaitEvent(0, ev, 2));
        SHOW_LAST("stream wait, flags 2");
        SHOW("stream get flags, NULL out", cudaStreamGetFlags(0, NULL));
        SHOW_LAST("stream get flags, NULL out");
        SHOW("stream get priority, NULL out", cudaStreamGetPriority(0, NULL));
        SHOW_LAST("stream get priority, NULL out");
        SHOW("event record, NULL event", cudaEventRecord(NULL, 0));
        SHOW_LAST("event record, NULL event");
    }
    cudaEventDestroy(ev);
    return bad;
}

/* Managed memory attached to and prefetched from the per-thread null stream. */
static void managed(void) {
    enum { SZ = 1 << 16 };
    unsigned char *m = NULL;
    if (SHOW("cudaMallocManaged", cudaMallocManaged((void **)&m, SZ, cudaMemAttachGlobal))) return;
    SHOW("attach host", cudaStreamAttachMemAsync(0, m, 0, cudaMemAttachHost));
    SHOW("attach global", cudaStreamAttachMemAsync(0, m, 0, cudaMemAttachGlobal));
    SHOW("attach, bad flags", cudaStreamAttachMemAsync(0, m, 0, 8));
    SHOW_LAST("attach, bad flags");
    SHOW("sync", cudaStreamSynchronize(0));
    memset(m, 0x5a, SZ);
#if CUDART_VERSION >= 13000
    void *ptrs[1] = {m};
    size_t sizes[1] = {SZ};
    struct cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
    size_t li = 0;
    SHOW("prefetch batch to device 0", cudaMemPrefetchBatchAsync(ptrs, sizes, 1, &loc, &li, 1, 0, 0));
    SHOW("sync", cudaStreamSynchronize(0));
    int where = -7;
    SHOW("last prefetch location",
         cudaMemRangeGetAttribute(&where, sizeof where, cudaMemRangeAttributeLastPrefetchLocation, m, SZ));
    printf("last prefetch location = %d\n", where);
    SHOW("discard batch", cudaMemDiscardBatchAsync(ptrs, sizes, 1, 0, 0));
    struct cudaMemLocation host = {cudaMemLocationTypeHost, 0};
    SHOW("discard and prefetch batch to the host", cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 1, &host, &li, 1, 0, 0));
    SHOW("sync", cudaStreamSynchronize(0));
    SHOW("prefetch batch, count 0", cudaMemPrefetchBatchAsync(ptrs, sizes, 0, &loc, &li, 1, 0, 0));
    SHOW_LAST("prefetch batch, count 0");
    SHOW("discard batch, flags 1", cudaMemDiscardBatchAsync(ptrs, sizes, 1, 1, 0));
    SHOW_LAST("discard batch, flags 1");
    SHOW("discard and prefetch batch, NULL locations",
         cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 1, NULL, &li, 1, 0, 0));
    SHOW_LAST("discard and prefetch batch, NULL locations");
#endif
    /* After a discard the contents are undefined: only written values are checked. */
    memset(m, 0x33, SZ);
    int ok = 1;
    for (int i = 0; i < SZ; i++) ok &= m[i] == 0x33;
    printf("managed data written after: %s\n", ok ? "ok" : "wrong");
    CHECK(ok);
    SHOW("cudaFree", cudaFree(m));
}

/* Rounds that went wrong, by part: arrays, batch copies, streams. */
static long wrong[2][3];

static void *worker(void *arg) {
    long t = (long)arg;
    for (int round = 0; round < 5; round++) {
        wrong[t][0] += arrays((int)(t * 10 + round), 0) != 0;
        wrong[t][1] += batches((int)(t * 10 + round), 0) != 0;
        wrong[t][2] += streams(0) != 0;
    }
    return NULL;
}

int main(void) {
    int dev = -1;
    OK(cudaGetDevice(&dev));
    CHECK(arrays(1, 1) == 0);
    CHECK(batches(2, 1) == 0);
    CHECK(streams(1) == 0);
    int managed_ok = 0;
    cudaDeviceGetAttribute(&managed_ok, cudaDevAttrConcurrentManagedAccess, dev);
    if (managed_ok)
        managed();
    else
        printf("managed: no concurrent managed access on this device\n");

    pthread_t th[2];
    for (long t = 0; t < 2; t++) pthread_create(&th[t], NULL, worker, (void *)t);
    long total = 0;
    for (int t = 0; t < 2; t++) {
        pthread_join(th[t], NULL);
        total += wrong[t][0] + wrong[t][1] + wrong[t][2];
    }
    printf("two threads, 5 rounds each on their null streams: %ld wrong (arrays %ld, batch copies %ld, streams %ld)\n",
           total, wrong[0][0] + wrong[1][0], wrong[0][1] + wrong[1][1], wrong[0][2] + wrong[1][2]);
    CHECK(total == 0);
    DONE();
}
