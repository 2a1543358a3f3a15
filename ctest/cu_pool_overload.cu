/* ctest: gpu cu */
/* The C++ overloads of cuda_runtime.h over the stream-ordered allocator: cudaMallocAsync with
 * a pool (void ** and typed: both call cudaMallocFromPoolAsync), cudaMallocAsync typed (calls
 * the C function), cudaMallocFromPoolAsync typed; kernels write the allocations in stream
 * order, the host reads them back; the pools' used memory shows where each came from; an
 * allocation, kernel and free on the null stream. cu_pool_ptsz.cu builds this file with
 * --default-stream per-thread, where the calls go to the _ptsz exports. */
#include "ctest.h"

__global__ void fill(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}

static unsigned long long used(cudaMemPool_t pool) {
    unsigned long long v = 0;
    OK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &v));
    return v;
}

static void check(const char *label, const int *d, int n, int v, cudaStream_t s) {
    int *h = (int *)malloc(n * sizeof(int));
    OK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    OK(cudaStreamSynchronize(s));
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= h[i] == v + i;
    printf("%s: %s\n", label, ok ? "ok" : "wrong");
    CHECK(ok);
    free(h);
}

int main(void) {
    const int n = 1 << 16;
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t pool = NULL, dflt = NULL;
    OK(SHOW("cudaMemPoolCreate", cudaMemPoolCreate(&pool, &props)));
    OK(cudaDeviceGetDefaultMemPool(&dflt, 0));
    unsigned long long base = used(dflt);

    void *v = NULL;
    OK(SHOW("cudaMallocAsync(void **, size, pool, stream)", cudaMallocAsync(&v, n * sizeof(int), pool, s)));
    int *a = (int *)v;
    int *b = NULL, *c = NULL, *d = NULL;
    OK(SHOW("cudaMallocAsync(int **, size, pool, stream)", cudaMallocAsync(&b, n * sizeof(int), pool, s)));
    OK(SHOW("cudaMallocFromPoolAsync(int **, size, pool, stream)", cudaMallocFromPoolAsync(&c, n * sizeof(int), pool, s)));
    OK(SHOW("cudaMallocAsync(int **, size, stream)", cudaMallocAsync(&d, n * sizeof(int), s)));
    fill<<<n / 256, 256, 0, s>>>(a, n, 1);
    fill<<<n / 256, 256, 0, s>>>(b, n, 2);
    fill<<<n / 256, 256, 0, s>>>(c, n, 3);
    fill<<<n / 256, 256, 0, s>>>(d, n, 4);
    OK(SHOW("launches", cudaGetLastError()));
    check("a", a, n, 1, s);
    check("b", b, n, 2, s);
    check("c", c, n, 3, s);
    check("d", d, n, 4, s);
    SHOWU("created pool's used memory (3 x 256 KiB)", used(pool));
    SHOWU("default pool's used memory grew by (1 x 256 KiB)", used(dflt) - base);
    CHECK(used(pool) >= 3ull * n * sizeof(int));

    /* The null stream (legacy, or per-thread in cu_pool_ptsz): allocation, kernel and free in
     * its order. */
    int *e = NULL;
    OK(SHOW("cudaMallocAsync(int **, size, pool, 0)", cudaMallocAsync(&e, n * sizeof(int), pool, 0)));
    fill<<<n / 256, 256>>>(e, n, 5);
    check("e", e, n, 5, 0);
    OK(cudaFreeAsync(e, 0));

    SHOW("cudaMallocAsync(NULL, size, pool, stream)", cudaMallocAsync((void **)NULL, 16, pool, s));
    SHOW_LAST("NULL");
    OK(cudaFreeAsync(a, s));
    OK(cudaFreeAsync(b, s));
    OK(cudaFreeAsync(c, s));
    OK(cudaFreeAsync(d, s));
    OK(cudaStreamSynchronize(s));
    SHOWU("created pool's used memory at the end", used(pool));
    OK(cudaMemPoolDestroy(pool));
    OK(cudaStreamDestroy(s));
    DONE();
}
