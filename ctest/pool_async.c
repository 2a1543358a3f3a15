/* Stream-ordered allocation: cudaMallocAsync and cudaFreeAsync from the current (default) pool
 * of device 0 on a created stream, the legacy stream (0 and cudaStreamLegacy), the per-thread
 * stream (cudaStreamPerThread, and the _ptsz exports whose null stream it is, from several
 * threads); cudaMallocFromPoolAsync from a created pool and the default pool; data written and
 * read back with memsets and copies in stream order; an allocation filled on one stream,
 * read and freed on another after an event; sizes (0, 1, over the pool's maximum, huge) and
 * bad arguments, with the last error after each failure. */
#include <pthread.h>
#include "pool_util.h"

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream);
cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream);
cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);

#define N (1 << 20)
#define THREADS 3
/* A value no allocation returns: shows whether a failing call wrote the pointer. */
#define SENTINEL ((void *)(uintptr_t)0x5e5e5e5e)

static const char *written(void *p) { return p == SENTINEL ? "untouched" : p == NULL ? "NULL" : "set"; }

struct job {
    int id;
    cudaMemPool_t pool;
    cudaError_t alloc, alloc_pool, memset, copy, sync, free, free_pool, sync2;
    int bytes_ok, distinct;
};

/* A thread allocates from the default pool and from a created pool through the _ptsz exports
 * (null stream: the thread's own stream), fills and reads both back, frees both. */
static void *work(void *arg) {
    struct job *j = arg;
    void *a = NULL, *b = NULL;
    unsigned char h[4096];
    j->alloc = cudaMallocAsync_ptsz(&a, sizeof h, 0);
    j->alloc_pool = cudaMallocFromPoolAsync_ptsz(&b, sizeof h, j->pool, 0);
    j->distinct = a != NULL && b != NULL && a != b;
    j->memset = cudaMemsetAsync(a, 0x10 + j->id, sizeof h, cudaStreamPerThread);
    if (j->memset == cudaSuccess) j->memset = cudaMemcpyAsync(b, a, sizeof h, cudaMemcpyDeviceToDevice, cudaStreamPerThread);
    memset(h, 0, sizeof h);
    j->copy = cudaMemcpyAsync(h, b, sizeof h, cudaMemcpyDeviceToHost, cudaStreamPerThread);
    j->sync = cudaStreamSynchronize(cudaStreamPerThread);
    j->bytes_ok = 1;
    for (size_t i = 0; i < sizeof h; i++) j->bytes_ok &= h[i] == 0x10 + j->id;
    j->free = cudaFreeAsync_ptsz(a, 0);
    j->free_pool = cudaFreeAsync_ptsz(b, 0);
    j->sync2 = cudaStreamSynchronize(cudaStreamPerThread);
    return NULL;
}

int main(void) {
    int supported = -1;
    OK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    SHOWI("cudaDevAttrMemoryPoolsSupported", supported);

    cudaStream_t s, s2;
    OK(cudaStreamCreate(&s));
    OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

    /* A created stream. */
    void *p = SENTINEL;
    SHOW("cudaMallocAsync(1 MiB, created stream)", cudaMallocAsync(&p, N, s));
    printf("  pointer %s\n", written(p));
    round_trip("  round trip", p, N, 0x5a, s);
    SHOW("cudaFreeAsync(created stream)", cudaFreeAsync(p, s));
    OK(cudaStreamSynchronize(s));
    void *again = NULL;
    OK(cudaMallocAsync(&again, N, s));
    printf("  same size on the same stream after the free completed: same address %d\n", again == p);
    OK(cudaFreeAsync(again, s));
    OK(cudaStreamSynchronize(s));

    /* The default streams. */
    struct {
        const char *name;
        cudaStream_t s;
    } def[] = {{"0", 0}, {"cudaStreamLegacy", cudaStreamLegacy}, {"cudaStreamPerThread", cudaStreamPerThread}};
    for (int i = 0; i < 3; i++) {
        char label[96];
        void *q = SENTINEL;
        snprintf(label, sizeof label, "cudaMallocAsync(4 KiB, %s)", def[i].name);
        SHOW(label, cudaMallocAsync(&q, 4096, def[i].s));
        printf("  pointer %s\n", written(q));
        round_trip("  round trip", q, 4096, 0x21 + i, def[i].s);
        snprintf(label, sizeof label, "cudaFreeAsync(%s)", def[i].name);
        SHOW(label, cudaFreeAsync(q, def[i].s));
        OK(cudaStreamSynchronize(def[i].s));
    }

    /* A created pool: cudaMallocFromPoolAsync, the pool's used memory, the data. */
    struct cudaMemPoolProps props = pool_props(cudaMemLocationTypeDevice, 0);
    cudaMemPool_t pool = NULL, dflt = NULL;
    OK(SHOW("cudaMemPoolCreate(device 0)", cudaMemPoolCreate(&pool, &props)));
    OK(cudaDeviceGetDefaultMemPool(&dflt, 0));
    CHECK(pool != NULL && pool != dflt);
    void *fp = SENTINEL;
    SHOW("cudaMallocFromPoolAsync(created pool, 1 MiB)", cudaMallocFromPoolAsync(&fp, N, pool, s));
    printf("  pointer %s\n", written(fp));
    OK(cudaStreamSynchronize(s));
    SHOWU("  used memory of the created pool", pool_u64(pool, cudaMemPoolAttrUsedMemCurrent));
    round_trip("  round trip", fp, N, 0x77, s);
    OK(cudaFreeAsync(fp, s));
    OK(cudaStreamSynchronize(s));
    SHOWU("  used memory after the free", pool_u64(pool, cudaMemPoolAttrUsedMemCurrent));

    void *dp = SENTINEL;
    unsigned long long before = pool_u64(dflt, cudaMemPoolAttrUsedMemCurrent);
    SHOW("cudaMallocFromPoolAsync(default pool, 64 KiB)", cudaMallocFromPoolAsync(&dp, 65536, dflt, s));
    OK(cudaStreamSynchronize(s));
    SHOWU("  default pool's used memory grew by", pool_u64(dflt, cudaMemPoolAttrUsedMemCurrent) - before);
    round_trip("  round trip", dp, 65536, 0x78, s);
    OK(cudaFreeAsync(dp, s));
    OK(cudaStreamSynchronize(s));

    /* Allocated and filled on s, read and freed on s2 after an event. */
    cudaEvent_t filled;
    OK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
    unsigned char *x = NULL;
    OK(cudaMallocAsync((void **)&x, N, s));
    OK(cudaMemsetAsync(x, 0x42, N, s));
    OK(cudaMemsetAsync(x + N / 2, 0x43, N / 2, s));
    OK(SHOW("cudaEventRecord(s)", cudaEventRecord(filled, s)));
    OK(SHOW("cudaStreamWaitEvent(s2)", cudaStreamWaitEvent(s2, filled, 0)));
    unsigned char *hx = malloc(N);
    OK(cudaMemcpyAsync(hx, x, N, cudaMemcpyDeviceToHost, s2));
    SHOW("cudaFreeAsync(on the other stream)", cudaFreeAsync(x, s2));
    OK(cudaStreamSynchronize(s2));
    int order_ok = 1;
    for (size_t i = 0; i < N; i++) order_ok &= hx[i] == (i < N / 2 ? 0x42 : 0x43);
    printf("  read on the other stream: %s\n", order_ok ? "ok" : "wrong");
    CHECK(order_ok);
    free(hx);

    /* The _ptsz exports from several threads, each on its own per-thread stream. */
    struct job jobs[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].id = i;
        jobs[i].pool = pool;
        pthread_create(&t[i], NULL, work, &jobs[i]);
    }
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS; i++) {
        struct job *j = &jobs[i];
        printf("thread %d: cudaMallocAsync_ptsz %s, cudaMallocFromPoolAsync_ptsz %s, memset+copy %s, copy back %s, "
               "sync %s, bytes %s, distinct %d, cudaFreeAsync_ptsz %s %s, sync %s\n",
               i, cudaGetErrorName(j->alloc), cudaGetErrorName(j->alloc_pool), cudaGetErrorName(j->memset),
               cudaGetErrorName(j->copy), cudaGetErrorName(j->sync), j->bytes_ok ? "ok" : "wrong", j->distinct,
               cudaGetErrorName(j->free), cudaGetErrorName(j->free_pool), cudaGetErrorName(j->sync2));
        CHECK(j->bytes_ok);
    }
    SHOWU("used memory of the created pool after the threads", pool_u64(pool, cudaMemPoolAttrUsedMemCurrent));

    /* Sizes. */
    void *z = SENTINEL;
    if (SHOW("cudaMallocAsync(0 bytes)", cudaMallocAsync(&z, 0, s)) != cudaSuccess) SHOW_LAST("0 bytes");
    printf("  pointer %s\n", written(z));
    if (z != SENTINEL && z != NULL) SHOW("  cudaFreeAsync(it)", cudaFreeAsync(z, s));
    z = SENTINEL;
    if (SHOW("cudaMallocFromPoolAsync(0 bytes)", cudaMallocFromPoolAsync(&z, 0, pool, s)) != cudaSuccess)
        SHOW_LAST("0 bytes from a pool");
    printf("  pointer %s\n", written(z));
    if (z != SENTINEL && z != NULL) SHOW("  cudaFreeAsync(it)", cudaFreeAsync(z, s));
    void *one = NULL;
    OK(SHOW("cudaMallocAsync(1 byte)", cudaMallocAsync(&one, 1, s)));
    round_trip("  round trip", one, 1, 0x99, s);
    OK(cudaFreeAsync(one, s));
    z = SENTINEL;
    SHOW("cudaMallocAsync(1 PiB)", cudaMallocAsync(&z, (size_t)1 << 50, s));
    SHOW_LAST("1 PiB");
    printf("  pointer %s\n", written(z));
    z = SENTINEL;
    SHOW("cudaMallocAsync(SIZE_MAX)", cudaMallocAsync(&z, SIZE_MAX, s));
    SHOW_LAST("SIZE_MAX");
    printf("  pointer %s\n", written(z));

    struct cudaMemPoolProps small = pool_props(cudaMemLocationTypeDevice, 0);
    small.maxSize = 4 << 20;
    cudaMemPool_t capped = NULL;
    OK(SHOW("cudaMemPoolCreate(maxSize 4 MiB)", cudaMemPoolCreate(&capped, &small)));
    void *c1 = NULL, *c2 = SENTINEL;
    SHOW("  cudaMallocFromPoolAsync(3 MiB)", cudaMallocFromPoolAsync(&c1, 3 << 20, capped, s));
    SHOW("  cudaMallocFromPoolAsync(3 MiB more)", cudaMallocFromPoolAsync(&c2, 3 << 20, capped, s));
    SHOW_LAST("  over the maximum");
    printf("  pointer %s\n", written(c2));
    if (c1) OK(cudaFreeAsync(c1, s));
    if (c2 != SENTINEL && c2 != NULL) OK(cudaFreeAsync(c2, s));
    OK(cudaStreamSynchronize(s));
    OK(cudaMemPoolDestroy(capped));

    /* Bad arguments. */
    SHOW("cudaMallocAsync(NULL)", cudaMallocAsync(NULL, N, s));
    SHOW_LAST("NULL devPtr");
    SHOW("cudaMallocAsync(NULL, 0 bytes)", cudaMallocAsync(NULL, 0, s));
    SHOW_LAST("NULL devPtr, 0 bytes");
    SHOW("cudaMallocFromPoolAsync(NULL)", cudaMallocFromPoolAsync(NULL, N, pool, s));
    SHOW_LAST("NULL ptr");
    z = SENTINEL;
    SHOW("cudaMallocFromPoolAsync(NULL pool)", cudaMallocFromPoolAsync(&z, N, NULL, s));
    SHOW_LAST("NULL pool");
    printf("  pointer %s\n", written(z));
    SHOW("cudaFreeAsync(NULL)", cudaFreeAsync(NULL, s));
    SHOW_LAST("free NULL");
    void *host = malloc(4096);
    SHOW("cudaFreeAsync(malloc'd host memory)", cudaFreeAsync(host, s));
    SHOW_LAST("free host memory");
    free(host);
    void *inner = NULL;
    OK(cudaMallocAsync(&inner, N, s));
    if (SHOW("cudaFreeAsync(inside an allocation)", cudaFreeAsync((char *)inner + 256, s)) != cudaSuccess) {
        SHOW_LAST("free inside");
        OK(cudaFreeAsync(inner, s));
    }
    OK(cudaStreamSynchronize(s));

    /* Frees across the two kinds of allocation. */
    void *plain = NULL;
    OK(cudaMalloc(&plain, 4096));
    cudaError_t e = SHOW("cudaFreeAsync(cudaMalloc memory)", cudaFreeAsync(plain, s));
    if (e != cudaSuccess) SHOW_LAST("free cudaMalloc memory");
    OK(cudaStreamSynchronize(s));
    if (e != cudaSuccess) OK(cudaFree(plain));
    void *ordered = NULL;
    OK(cudaMallocAsync(&ordered, 4096, s));
    OK(cudaStreamSynchronize(s));
    e = SHOW("cudaFree(cudaMallocAsync memory)", cudaFree(ordered));
    if (e != cudaSuccess) {
        SHOW_LAST("cudaFree of pool memory");
        OK(cudaFreeAsync(ordered, s));
    }
    OK(cudaStreamSynchronize(s));
    SHOWU("used memory of the created pool at the end", pool_u64(pool, cudaMemPoolAttrUsedMemCurrent));

    OK(cudaMemPoolDestroy(pool));
    OK(cudaEventDestroy(filled));
    ct_destroy_streams(s, s2, NULL);
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
