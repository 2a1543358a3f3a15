/* ctest: gpu cu */
/* Kernels launched with <<<>>> and cudaLaunchKernel write through device, pitched, managed,
 * mapped-host and __managed__ memory; __constant__ read by a kernel; dynamic shared memory;
 * launches on streams; launch errors reaching cudaGetLastError; function attributes. */
#include "ctest.h"

__constant__ int c_add[4];
#ifndef CT_CLANG_CUDA
__managed__ int m_counter = 7;
#endif

__global__ void fill(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}

__global__ void fill_pitched(char *base, size_t pitch, int w, int h) {
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h) ((int *)(base + y * pitch))[x] = y * 100 + x;
}

__global__ void add_const(int *p, int n) {
    int i = threadIdx.x;
    if (i < n) p[i] += c_add[i % 4];
}

#ifndef CT_CLANG_CUDA
__global__ void bump_managed(int by) { atomicAdd(&m_counter, by); }
#endif

__global__ void reverse_shared(int *p, int n) {
    extern __shared__ int s[];
    int i = threadIdx.x;
    s[i] = p[i];
    __syncthreads();
    p[i] = s[n - 1 - i];
}

__global__ void noop(void) {}

int main(void) {
    const int n = 256;
    int h[256];

    /* cudaMalloc'd memory. */
    int *d = NULL;
    OK(cudaMalloc((void **)&d, n * sizeof(int)));
    fill<<<(n + 63) / 64, 64>>>(d, n, 1000);
    SHOW("fill launch", cudaGetLastError());
    SHOW("fill sync", cudaDeviceSynchronize());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int good = 1;
    for (int i = 0; i < n; i++) good &= h[i] == 1000 + i;
    CHECK(good);
    SHOWI("fill h[255]", h[255]);

    /* cudaLaunchKernel with an argument array. */
    int v = 5, cnt = n;
    void *args[] = {&d, &cnt, &v};
    SHOW("cudaLaunchKernel", cudaLaunchKernel((const void *)fill, dim3(4), dim3(64), args, 0, 0));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("cudaLaunchKernel h[10]", h[10]);
    SHOW("cudaLaunchKernel unregistered", cudaLaunchKernel((const void *)main, dim3(1), dim3(1), NULL, 0, 0));
    SHOW_LAST("unregistered");

    /* __constant__ read by a kernel. */
    int cv[4] = {1, 2, 3, 4};
    OK(cudaMemcpyToSymbol(c_add, cv, sizeof cv));
    add_const<<<1, n>>>(d, n);
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("const h[0]", h[0]);
    SHOWI("const h[7]", h[7]);

    /* Dynamic shared memory. */
    reverse_shared<<<1, n, n * sizeof(int)>>>(d, n);
    SHOW("reverse_shared", cudaGetLastError());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("reversed h[0]", h[0]);
    SHOWI("reversed h[255]", h[255]);

    /* Pitched memory. */
    char *pd = NULL;
    size_t pitch = 0;
    OK(cudaMallocPitch((void **)&pd, &pitch, 10 * sizeof(int), 5));
    fill_pitched<<<5, 10>>>(pd, pitch, 10, 5);
    int ph[5][10];
    OK(cudaMemcpy2D(ph, 10 * sizeof(int), pd, pitch, 10 * sizeof(int), 5, cudaMemcpyDeviceToHost));
    SHOWI("pitched [4][9]", ph[4][9]);
    SHOWI("pitched [2][3]", ph[2][3]);

    /* Managed memory from cudaMallocManaged. */
    int *m = NULL;
    OK(cudaMallocManaged((void **)&m, 64 * sizeof(int), cudaMemAttachGlobal));
    fill<<<1, 64>>>(m, 64, 20);
    OK(cudaDeviceSynchronize());
    SHOWI("managed m[63]", m[63]);

    /* Mapped host memory. */
    int *hm = NULL, *hmd = NULL;
    OK(cudaHostAlloc((void **)&hm, 32 * sizeof(int), cudaHostAllocMapped));
    OK(cudaHostGetDevicePointer((void **)&hmd, hm, 0));
    fill<<<1, 32>>>(hmd, 32, 300);
    OK(cudaDeviceSynchronize());
    SHOWI("mapped hm[31]", hm[31]);

    /* __managed__ variable: host access before and after a kernel. */
#ifndef CT_CLANG_CUDA
    SHOWI("m_counter initial", m_counter);
    bump_managed<<<2, 32>>>(1);
    OK(cudaDeviceSynchronize());
    SHOWI("m_counter after kernel", m_counter);
    m_counter = 100;
    bump_managed<<<1, 1>>>(5);
    OK(cudaDeviceSynchronize());
    SHOWI("m_counter after host write", m_counter);
#else
    printf("__managed__ variable: not in this build (clang)\n");
#endif

    /* Launches on streams. */
    cudaStream_t s1, s2;
    OK(cudaStreamCreate(&s1));
    OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    fill<<<1, 64, 0, s1>>>(d, 64, 1);
    fill<<<1, 64, 0, s2>>>(d + 64, 64, 2);
    fill<<<1, 64, 0, cudaStreamPerThread>>>(d + 128, 64, 3);
    fill<<<1, 64, 0, cudaStreamLegacy>>>(d + 192, 64, 4);
    SHOW("stream launches", cudaGetLastError());
    OK(cudaStreamSynchronize(s1));
    OK(cudaStreamSynchronize(s2));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("streams h[0]", h[0]);
    SHOWI("streams h[64]", h[64]);
    SHOWI("streams h[128]", h[128]);
    SHOWI("streams h[255]", h[255]);

    /* Launch errors. */
    noop<<<1, 2048>>>();
    SHOW("too many threads", cudaPeekAtLastError());
    SHOW_LAST("too many threads");
    SHOW_LAST("after clearing");
    noop<<<1, dim3(1, 1, 65)>>>();
    SHOW_LAST("block z 65");
    noop<<<0, 1>>>();
    SHOW_LAST("zero grid");
    noop<<<dim3(1, 65536), 1>>>();
    SHOW_LAST("grid y 65536");
    noop<<<1, 1, 1 << 20>>>();
    SHOW_LAST("1 MiB dynamic shared");
    SHOW("cudaLaunchKernel 2048 threads", cudaLaunchKernel((const void *)noop, dim3(1), dim3(2048), NULL, 0, 0));
    SHOW_LAST("cudaLaunchKernel 2048 threads");
    SHOW("cooperative 2 blocks", cudaLaunchCooperativeKernel((const void *)fill, dim3(2), dim3(64), args, 0, 0));
    SHOW("cooperative too large", cudaLaunchCooperativeKernel((const void *)noop, dim3(1 << 20), dim3(1024), NULL, 0, 0));
    SHOW_LAST("cooperative too large");
    SHOW("cooperative unregistered", cudaLaunchCooperativeKernel((const void *)main, dim3(1), dim3(1), NULL, 0, 0));
    noop<<<1, 1>>>();
    SHOW("noop after errors", cudaGetLastError());
    SHOW("sync after errors", cudaDeviceSynchronize());

    /* Function attributes. */
    struct cudaFuncAttributes fa;
    memset(&fa, 0, sizeof fa);
    SHOW("cudaFuncGetAttributes", cudaFuncGetAttributes(&fa, (const void *)reverse_shared));
    SHOWI("maxThreadsPerBlock", fa.maxThreadsPerBlock);
    SHOWI("binaryVersion", fa.binaryVersion);
    SHOWI("sharedSizeBytes", fa.sharedSizeBytes);
    const char *fname = NULL;
    SHOW("cudaFuncGetName", cudaFuncGetName(&fname, (const void *)reverse_shared));
    printf("name: %s\n", fname ? fname : "(null)");
    SHOW("cudaFuncGetName unregistered", cudaFuncGetName(&fname, (const void *)main));
    cudaKernel_t kh = NULL;
    SHOW("cudaGetKernel", cudaGetKernel(&kh, (const void *)fill));
    SHOW("cudaLaunchKernel by cudaKernel_t", cudaLaunchKernel((const void *)kh, dim3(4), dim3(64), args, 0, 0));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("by cudaKernel_t h[3]", h[3]);
    SHOW("cudaFuncGetAttributes unregistered", cudaFuncGetAttributes(&fa, (const void *)main));
    SHOW("cudaFuncSetAttribute max dyn shared",
         cudaFuncSetAttribute((const void *)reverse_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    OK(cudaFuncGetAttributes(&fa, (const void *)reverse_shared));
    SHOWI("maxDynamicSharedSizeBytes", fa.maxDynamicSharedSizeBytes);
    reverse_shared<<<1, n, 64 * 1024>>>(d, n);
    SHOW("launch with 64 KiB dynamic shared", cudaGetLastError());
    OK(cudaDeviceSynchronize());

    ct_destroy_streams(s1, s2, NULL);
    OK(cudaFreeHost(hm));
    ct_free_device(m, pd, d, NULL);
    DONE();
}
