/* ctest: gpu cu nvcc-flags=--default-stream per-thread */
/* Built with `nvcc --default-stream per-thread`: launches go through __cudaLaunchKernel_ptsz
 * and the symbol copies through their _ptds/_ptsz exports; the null stream is each
 * thread's own stream. */
#include "ctest.h"
#include <pthread.h>

__device__ int g_slot[8];

__global__ void put(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }
__global__ void put_slot(int i, int v) { g_slot[i] = v; }

static void *worker(void *arg) {
    int i = (int)(long)arg;
    put_slot<<<1, 1>>>(i, 1000 + i);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return (void *)1;
    if (cudaStreamSynchronize(0) != cudaSuccess) return (void *)1;
    int v = 0;
    if (cudaMemcpyFromSymbol(&v, g_slot, sizeof v, i * sizeof(int)) != cudaSuccess) return (void *)1;
    return v == 1000 + i ? NULL : (void *)1;
}

int main(void) {
#ifdef __CUDART_API_PER_THREAD_DEFAULT_STREAM
    printf("per-thread default stream: yes\n");
#else
    printf("per-thread default stream: no\n");
#endif
    int *d = NULL;
    OK(cudaMalloc((void **)&d, 32 * sizeof(int)));
    put<<<1, 32>>>(d, 7);
    SHOW("launch on null stream", cudaGetLastError());
    SHOW("cudaStreamSynchronize(0)", cudaStreamSynchronize(0));
    int h[32];
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("h[31]", h[31]);

    int v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    SHOW("to symbol", cudaMemcpyToSymbol(g_slot, v, sizeof v));
    SHOW("to symbol async", cudaMemcpyToSymbolAsync(g_slot, v, 4, 4, cudaMemcpyHostToDevice, 0));
    OK(cudaStreamSynchronize(0));
    int b[8];
    SHOW("from symbol async", cudaMemcpyFromSymbolAsync(b, g_slot, sizeof b, 0, cudaMemcpyDeviceToHost, 0));
    OK(cudaStreamSynchronize(0));
    SHOWI("b[1]", b[1]);

    pthread_t t[8];
    for (long i = 0; i < 8; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    int bad = 0;
    for (int i = 0; i < 8; i++) {
        void *r;
        pthread_join(t[i], &r);
        bad += r != NULL;
    }
    SHOWI("threads failed", bad);
    CHECK(bad == 0);

    void *args[] = {&d, &v[0]};
    SHOW("cudaLaunchKernel", cudaLaunchKernel((const void *)put, dim3(1), dim3(32), args, 0, 0));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("h[5]", h[5]);
    /* A cooperative launch on the per-thread null stream (cudaLaunchCooperativeKernel_ptsz). */
    int v2 = 50;
    void *args2[] = {&d, &v2};
    SHOW("cudaLaunchCooperativeKernel",
         cudaLaunchCooperativeKernel((const void *)put, dim3(1), dim3(32), args2, 0, 0));
    OK(cudaStreamSynchronize(0));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("h[5]", h[5]);
    CHECK(h[5] == 55);
    SHOW("cudaLaunchCooperativeKernel(block of 2048)",
         cudaLaunchCooperativeKernel((const void *)put, dim3(1), dim3(2048), args2, 0, 0));
    SHOW_LAST("cudaLaunchCooperativeKernel(block of 2048)");
    OK(cudaFree(d));
    DONE();
}
