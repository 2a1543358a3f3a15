/* ctest: gpu cu */
/* Occupancy: cudaOccupancyMaxActiveBlocksPerMultiprocessor(+WithFlags),
 * cudaOccupancyAvailableDynamicSMemPerBlock, cudaOccupancyMaxPotentialClusterSize and
 * cudaOccupancyMaxActiveClusters for kernels with different register and shared memory
 * needs, and the templates of cuda_runtime.h built on them (cudaOccupancyMaxPotentialBlockSize,
 * ...VariableSMem, ...WithFlags, the C++ overloads). The numbers are the device's: both
 * runtimes on one GPU must print the same. Errors: null pointers and functions, a function
 * that is not a kernel, block sizes, flags, cluster configurations. */
#include "ctest.h"

__global__ void light(int *p) { p[threadIdx.x] = threadIdx.x; }

/* Many live values: many registers per thread. */
__global__ void __launch_bounds__(256) heavy(float *p, int n) {
    float a[48];
#pragma unroll
    for (int i = 0; i < 48; i++) a[i] = p[(threadIdx.x + i * 37) % n] * (i + 1);
    float s = 0;
#pragma unroll
    for (int i = 0; i < 48; i++)
#pragma unroll
        for (int j = i; j < 48; j += 5) s += a[i] * a[j];
    p[threadIdx.x] = s;
}

/* 16 KiB of static shared memory. */
__global__ void static_shared(int *p) {
    __shared__ int s[4096];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    p[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

__global__ void dynamic_shared(int *p) {
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    p[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

/* A kernel compiled for clusters of 2 (clang 19 has no __cluster_dims__: in a clang build,
 * for the 12 ABI, the same requirement is set at run time, cudaFuncAttributeRequiredCluster*). */
#ifndef CT_CLANG_CUDA
__global__ void __cluster_dims__(2, 1, 1) clustered(int *p) { p[blockIdx.x] = blockIdx.x; }
#else
__global__ void clustered(int *p) { p[blockIdx.x] = blockIdx.x; }
#endif

/* Dynamic shared memory as a function of the block size (for the VariableSMem template). */
struct SmemPerBlock {
    __host__ __device__ size_t operator()(int blockSize) const { return (size_t)blockSize * 16; }
};

static void max_blocks(const char *name, const void *f, int block, size_t smem) {
    int n = -1;
    char label[160];
    snprintf(label, sizeof label, "%s block %d smem %zu", name, block, smem);
    cudaError_t e = SHOW(label, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, block, smem));
    if (e == cudaSuccess) {
        SHOWI("  blocks per SM", n);
    } else {
        SHOW_LAST(label);
    }
}

static void with_flags(const char *name, const void *f, int block, size_t smem, unsigned flags) {
    int n = -1;
    char label[160];
    snprintf(label, sizeof label, "%s block %d smem %zu flags %u", name, block, smem, flags);
    cudaError_t e = SHOW(label, cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, f, block, smem, flags));
    if (e == cudaSuccess) {
        SHOWI("  blocks per SM", n);
    } else {
        SHOW_LAST(label);
    }
}

static void avail(const char *name, const void *f, int blocks, int block) {
    size_t s = 12345;
    char label[160];
    snprintf(label, sizeof label, "%s %d blocks of %d", name, blocks, block);
    cudaError_t e = SHOW(label, cudaOccupancyAvailableDynamicSMemPerBlock(&s, f, blocks, block));
    if (e == cudaSuccess) {
        SHOWU("  dynamic smem per block", s);
    } else {
        SHOW_LAST(label);
    }
}

static cudaLaunchConfig_t config(unsigned grid, unsigned block, size_t smem, cudaLaunchAttribute *a, unsigned n) {
    cudaLaunchConfig_t c;
    memset(&c, 0, sizeof c);
    c.gridDim = dim3(grid);
    c.blockDim = dim3(block);
    c.dynamicSmemBytes = smem;
    c.attrs = a;
    c.numAttrs = n;
    return c;
}

static void clusters(const char *name, const void *f, unsigned grid, unsigned block, unsigned cluster) {
    cudaLaunchAttribute a;
    memset(&a, 0, sizeof a);
    a.id = cudaLaunchAttributeClusterDimension;
    a.val.clusterDim.x = cluster;
    a.val.clusterDim.y = a.val.clusterDim.z = 1;
    cudaLaunchConfig_t c = config(grid, block, 0, &a, cluster ? 1 : 0);
    char label[160];
    int n = -1;
    snprintf(label, sizeof label, "%s grid %u block %u cluster %u: max potential cluster size", name, grid, block, cluster);
    cudaError_t e = SHOW(label, cudaOccupancyMaxPotentialClusterSize(&n, f, &c));
    if (e == cudaSuccess) {
        SHOWI("  cluster size", n);
    } else {
        SHOW_LAST(label);
    }
    n = -1;
    snprintf(label, sizeof label, "%s grid %u block %u cluster %u: max active clusters", name, grid, block, cluster);
    e = SHOW(label, cudaOccupancyMaxActiveClusters(&n, f, &c));
    if (e == cudaSuccess) {
        SHOWI("  clusters", n);
    } else {
        SHOW_LAST(label);
    }
}

int main(void) {
    struct cudaFuncAttributes fa;
    const void *kernels[] = {(const void *)light, (const void *)heavy, (const void *)static_shared,
                             (const void *)dynamic_shared};
    const char *names[] = {"light", "heavy", "static_shared", "dynamic_shared"};
    for (int k = 0; k < 4; k++) {
        OK(cudaFuncGetAttributes(&fa, kernels[k]));
        printf("%s: %d registers, %zu static smem, max %d threads\n", names[k], fa.numRegs, fa.sharedSizeBytes,
               fa.maxThreadsPerBlock);
    }

    int blocks[] = {32, 64, 128, 256, 512, 1024};
    size_t smems[] = {0, 8 << 10, 48 << 10};
    for (int k = 0; k < 4; k++)
        for (int b = 0; b < 6; b++)
            for (int s = 0; s < 3; s++) max_blocks(names[k], kernels[k], blocks[b], smems[s]);

    with_flags("light", (const void *)light, 128, 0, cudaOccupancyDefault);
    with_flags("light", (const void *)light, 128, 0, cudaOccupancyDisableCachingOverride);
    with_flags("heavy", (const void *)heavy, 256, 0, cudaOccupancyDisableCachingOverride);
    with_flags("light", (const void *)light, 128, 0, 2);
    with_flags("light", (const void *)light, 128, 0, 0xff);

    for (int k = 0; k < 4; k++) {
        avail(names[k], kernels[k], 1, 128);
        avail(names[k], kernels[k], 2, 128);
        avail(names[k], kernels[k], 8, 256);
        avail(names[k], kernels[k], 32, 64);
    }
    avail("light", (const void *)light, 0, 128);
    avail("light", (const void *)light, 1, 0);
    avail("light", (const void *)light, 1, 2048);
    avail("light", (const void *)light, 1000, 128);

    /* Raising the dynamic shared memory limit changes what fits. */
    OK(cudaFuncSetAttribute((const void *)dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 << 10));
    max_blocks("dynamic_shared (200 KiB allowed)", (const void *)dynamic_shared, 128, 100 << 10);
    max_blocks("dynamic_shared (200 KiB allowed)", (const void *)dynamic_shared, 128, 200 << 10);
    max_blocks("dynamic_shared (200 KiB allowed)", (const void *)dynamic_shared, 128, 300 << 10);
    avail("dynamic_shared (200 KiB allowed)", (const void *)dynamic_shared, 1, 128);

    /* Clusters. */
#ifdef CT_CLANG_CUDA
    SHOW("clustered: required cluster width 2 (set at run time)",
         cudaFuncSetAttribute((const void *)clustered, cudaFuncAttributeRequiredClusterWidth, 2));
    SHOW("clustered: required cluster height 1", cudaFuncSetAttribute((const void *)clustered, cudaFuncAttributeRequiredClusterHeight, 1));
    SHOW("clustered: required cluster depth 1", cudaFuncSetAttribute((const void *)clustered, cudaFuncAttributeRequiredClusterDepth, 1));
#endif
    clusters("light", (const void *)light, 64, 128, 2);
    clusters("light", (const void *)light, 64, 128, 4);
    clusters("light", (const void *)light, 64, 128, 8);
    clusters("light", (const void *)light, 64, 128, 16);
    clusters("light", (const void *)light, 64, 128, 0);
    clusters("light", (const void *)light, 64, 1024, 8);
    clusters("heavy", (const void *)heavy, 64, 256, 4);
    clusters("clustered", (const void *)clustered, 64, 128, 0);
    clusters("clustered", (const void *)clustered, 64, 128, 2);
    clusters("clustered", (const void *)clustered, 64, 128, 4);
    OK(cudaFuncSetAttribute((const void *)light, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    clusters("light (non-portable allowed)", (const void *)light, 64, 128, 16);
    clusters("light (non-portable allowed)", (const void *)light, 64, 128, 0);
    clusters("light", (const void *)light, 63, 128, 2);

    /* The templates of cuda_runtime.h. */
    int minGrid = -1, block = -1;
    SHOW("cudaOccupancyMaxPotentialBlockSize(light)", cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, light));
    printf("  min grid %d, block %d\n", minGrid, block);
    SHOW("cudaOccupancyMaxPotentialBlockSize(heavy)", cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, heavy));
    printf("  min grid %d, block %d\n", minGrid, block);
    SHOW("cudaOccupancyMaxPotentialBlockSize(static_shared, 0, 256)",
         cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, static_shared, 0, 256));
    printf("  min grid %d, block %d\n", minGrid, block);
    SHOW("cudaOccupancyMaxPotentialBlockSize(dynamic_shared, 64 KiB)",
         cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, dynamic_shared, 64 << 10));
    printf("  min grid %d, block %d\n", minGrid, block);
    SHOW("cudaOccupancyMaxPotentialBlockSizeVariableSMem(dynamic_shared, 16 B per thread)",
         cudaOccupancyMaxPotentialBlockSizeVariableSMem(&minGrid, &block, dynamic_shared, SmemPerBlock()));
    printf("  min grid %d, block %d\n", minGrid, block);
    SHOW("cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(dynamic_shared, limit 512)",
         cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(&minGrid, &block, dynamic_shared, SmemPerBlock(), 512,
                                                                 cudaOccupancyDisableCachingOverride));
    printf("  min grid %d, block %d\n", minGrid, block);
    SHOW("cudaOccupancyMaxPotentialBlockSizeWithFlags(light)",
         cudaOccupancyMaxPotentialBlockSizeWithFlags(&minGrid, &block, light, 0, 0, cudaOccupancyDisableCachingOverride));
    printf("  min grid %d, block %d\n", minGrid, block);
    SHOW("cudaOccupancyMaxPotentialBlockSize(NULL grid)", cudaOccupancyMaxPotentialBlockSize((int *)NULL, &block, light));
    SHOW_LAST("template NULL grid");
    int n = -1;
    SHOW("cudaOccupancyMaxActiveBlocksPerMultiprocessor template",
         cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, heavy, 256, 0));
    SHOWI("  blocks per SM", n);
    SHOW("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags template",
         cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, light, 1024, 0, cudaOccupancyDefault));
    SHOWI("  blocks per SM", n);
    size_t dyn = 0;
    SHOW("cudaOccupancyAvailableDynamicSMemPerBlock template", cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, light, 4, 256));
    SHOWU("  dynamic smem per block", dyn);
    cudaLaunchConfig_t c = config(64, 128, 0, NULL, 0);
    SHOW("cudaOccupancyMaxPotentialClusterSize template", cudaOccupancyMaxPotentialClusterSize(&n, clustered, &c));
    SHOWI("  cluster size", n);
    SHOW("cudaOccupancyMaxActiveClusters template", cudaOccupancyMaxActiveClusters(&n, clustered, &c));
    SHOWI("  clusters", n);

    /* A cudaKernel_t. */
    cudaKernel_t kh = NULL;
    OK(cudaGetKernel(&kh, (const void *)heavy));
    max_blocks("heavy as a cudaKernel_t", (const void *)kh, 256, 0);
    avail("heavy as a cudaKernel_t", (const void *)kh, 2, 256);

    /* Errors. */
    SHOW("NULL numBlocks", cudaOccupancyMaxActiveBlocksPerMultiprocessor(NULL, (const void *)light, 128, 0));
    SHOW_LAST("NULL numBlocks");
    max_blocks("NULL function", NULL, 128, 0);
    max_blocks("not a kernel", (const void *)main, 128, 0);
    max_blocks("light", (const void *)light, 0, 0);
    max_blocks("light", (const void *)light, -1, 0);
    max_blocks("light", (const void *)light, 2048, 0);
    max_blocks("heavy", (const void *)heavy, 512, 0);
    max_blocks("light", (const void *)light, 128, (size_t)1 << 40);
    /* (No NULL dynamicSmemSize: NVIDIA's runtime crashes on it.) */
    avail("NULL function", NULL, 1, 128);
    c = config(64, 128, 0, NULL, 0);
    SHOW("cluster size: NULL out", cudaOccupancyMaxPotentialClusterSize(NULL, (const void *)light, &c));
    SHOW_LAST("cluster size NULL out");
    SHOW("active clusters: NULL out", cudaOccupancyMaxActiveClusters(NULL, (const void *)light, &c));
    SHOW_LAST("active clusters NULL out");
    SHOW("cluster size: NULL function", cudaOccupancyMaxPotentialClusterSize(&n, NULL, &c));
    SHOW_LAST("cluster size NULL function");
    c = config(64, 2048, 0, NULL, 0);
    SHOW("cluster size: 2048 threads", cudaOccupancyMaxPotentialClusterSize(&n, (const void *)light, &c));
    SHOW_LAST("cluster size 2048 threads");
    SHOW("active clusters: 2048 threads", cudaOccupancyMaxActiveClusters(&n, (const void *)light, &c));
    SHOW_LAST("active clusters 2048 threads");
    SHOW("after errors", cudaDeviceSynchronize());
    DONE();
}
