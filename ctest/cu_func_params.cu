/* ctest: gpu cu */
/* cudaFuncGetParamInfo over kernels with various parameter lists (none, scalars of every
 * size, pointers, structs by value, many parameters), by host stub and by cudaKernel_t;
 * cudaFuncSetCacheConfig and cudaFuncSetSharedMemConfig with every value and invalid ones,
 * and cudaFuncGetAttributes read back after each; errors: null and non-kernel functions, an
 * index past the last parameter, null out pointers. */
#include "ctest.h"

struct Small {
    char c;
    short s;
};
struct Big {
    int a[5];
    double d;
};
struct __align__(16) Aligned {
    float x, y, z, w;
};

__global__ void none() {}
__global__ void one_int(int a) { (void)a; }
__global__ void mixed(char c, double d, int *p, float f, short s, long long l) {
    if (p) *p = c + (int)d + (int)f + s + (int)l;
}
__global__ void structs(struct Small a, struct Big b, struct Aligned c, char tail) {
    (void)a;
    (void)b;
    (void)c;
    (void)tail;
}
__global__ void many(int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7, int a8, int a9, int a10, int a11,
                     double d0, double d1, double d2, double d3, char e0, char e1, char e2, void *p0, void *p1) {
    (void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7, (void)a8, (void)a9, (void)a10;
    (void)a11, (void)d0, (void)d1, (void)d2, (void)d3, (void)e0, (void)e1, (void)e2, (void)p0, (void)p1;
}
__global__ void arr_param(int *out) { out[threadIdx.x] = threadIdx.x; }

static void params(const char *name, const void *f) {
    char label[160];
    for (size_t i = 0; i < 32; i++) {
        size_t off = 777, size = 777;
        snprintf(label, sizeof label, "%s param %zu", name, i);
        cudaError_t e = SHOW(label, cudaFuncGetParamInfo(f, i, &off, &size));
        if (e != cudaSuccess) {
            printf("  offset %s, size %s\n", off == 777 ? "untouched" : "changed", size == 777 ? "untouched" : "changed");
            SHOW_LAST(label);
            break;
        }
        printf("  offset %zu, size %zu\n", off, size);
    }
}

static void attrs(const char *when, const void *f) {
    struct cudaFuncAttributes a;
    memset(&a, 0, sizeof a);
    char label[160];
    snprintf(label, sizeof label, "cudaFuncGetAttributes %s", when);
    if (SHOW(label, cudaFuncGetAttributes(&a, f)) == cudaSuccess)
        printf("  maxThreads %d, regs %d, static smem %zu, maxDynamicSmem %d, carveout %d, cacheModeCA %d\n",
               a.maxThreadsPerBlock, a.numRegs, a.sharedSizeBytes, a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout,
               a.cacheModeCA);
}

int main(void) {
    params("none", (const void *)none);
    params("one_int", (const void *)one_int);
    params("mixed", (const void *)mixed);
    params("structs", (const void *)structs);
    params("many", (const void *)many);

    cudaKernel_t k = NULL;
    OK(cudaGetKernel(&k, (const void *)mixed));
    params("mixed as a cudaKernel_t", (const void *)k);

    /* Null pointers and bad functions. */
    size_t off = 777, size = 777;
    SHOW("NULL offset", cudaFuncGetParamInfo((const void *)mixed, 1, NULL, &size));
    SHOWU("  size", size);
    SHOW_LAST("NULL offset");
    size = 777;
    SHOW("NULL size", cudaFuncGetParamInfo((const void *)mixed, 1, &off, NULL));
    SHOWU("  offset", off);
    SHOW_LAST("NULL size");
    SHOW("NULL both", cudaFuncGetParamInfo((const void *)mixed, 0, NULL, NULL));
    SHOW_LAST("NULL both");
    SHOW("NULL function", cudaFuncGetParamInfo(NULL, 0, &off, &size));
    SHOW_LAST("NULL function");
    SHOW("not a kernel", cudaFuncGetParamInfo((const void *)main, 0, &off, &size));
    SHOW_LAST("not a kernel");
    SHOW("index (size_t)-1", cudaFuncGetParamInfo((const void *)mixed, (size_t)-1, &off, &size));
    SHOW_LAST("index -1");

    /* Cache configurations, read back through the function's attributes. */
    attrs("before", (const void *)arr_param);
    const char *cache[] = {"PreferNone", "PreferShared", "PreferL1", "PreferEqual"};
    char label[160];
    for (int c = 0; c < 4; c++) {
        snprintf(label, sizeof label, "cudaFuncSetCacheConfig(%s)", cache[c]);
        SHOW(label, cudaFuncSetCacheConfig((const void *)arr_param, (enum cudaFuncCache)c));
        attrs(cache[c], (const void *)arr_param);
    }
    SHOW("cudaFuncSetCacheConfig(4)", cudaFuncSetCacheConfig((const void *)arr_param, (enum cudaFuncCache)4));
    SHOW_LAST("cache config 4");
    SHOW("cudaFuncSetCacheConfig(-1)", cudaFuncSetCacheConfig((const void *)arr_param, (enum cudaFuncCache)-1));
    SHOW_LAST("cache config -1");
    SHOW("cudaFuncSetCacheConfig(NULL)", cudaFuncSetCacheConfig(NULL, cudaFuncCachePreferL1));
    SHOW_LAST("cache config NULL");
    SHOW("cudaFuncSetCacheConfig(not a kernel)", cudaFuncSetCacheConfig((const void *)main, cudaFuncCachePreferL1));
    SHOW_LAST("cache config not a kernel");
    SHOW("cudaFuncSetCacheConfig(cudaKernel_t)", cudaFuncSetCacheConfig((const void *)k, cudaFuncCachePreferShared));
    SHOW("cudaFuncSetCacheConfig template", cudaFuncSetCacheConfig(arr_param, cudaFuncCachePreferEqual));

    /* Shared memory bank configurations (deprecated). */
    const char *banks[] = {"Default", "FourByte", "EightByte"};
    for (int c = 0; c < 3; c++) {
        snprintf(label, sizeof label, "cudaFuncSetSharedMemConfig(%s)", banks[c]);
        SHOW(label, cudaFuncSetSharedMemConfig((const void *)arr_param, (enum cudaSharedMemConfig)c));
        attrs(banks[c], (const void *)arr_param);
    }
    SHOW("cudaFuncSetSharedMemConfig(3)", cudaFuncSetSharedMemConfig((const void *)arr_param, (enum cudaSharedMemConfig)3));
    SHOW_LAST("bank config 3");
    SHOW("cudaFuncSetSharedMemConfig(NULL)", cudaFuncSetSharedMemConfig(NULL, cudaSharedMemBankSizeDefault));
    SHOW_LAST("bank config NULL");
    SHOW("cudaFuncSetSharedMemConfig(not a kernel)",
         cudaFuncSetSharedMemConfig((const void *)main, cudaSharedMemBankSizeDefault));
    SHOW_LAST("bank config not a kernel");
    SHOW("cudaFuncSetSharedMemConfig(cudaKernel_t)",
         cudaFuncSetSharedMemConfig((const void *)k, cudaSharedMemBankSizeFourByte));

    /* The kernel still runs. */
    int *d = NULL, h[64];
    OK(cudaMalloc((void **)&d, sizeof h));
    arr_param<<<1, 64>>>(d);
    SHOW("launch after configuration", cudaGetLastError());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(h[63] == 63);
    OK(cudaFree(d));
    SHOW_LAST("end");
    DONE();
}
