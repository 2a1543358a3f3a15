// Two streams, each copying a buffer in, running a kernel on it and copying it back, with
// pinned host memory so that one stream's copies overlap the other's kernel: a program to
// look at with CUDART_RS_TIMELINE=trace.json,gpu (scripts/gpu/gpu-check.sh makes the README's
// picture of it).
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void spin(float *x, int n, int rounds) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    for (int r = 0; r < rounds; r++) v = v * 0.999f + 1.0f;
    x[i] = v;
}

int main(void) {
    const int n = 4 << 20, streams = 2, rounds = 2000;
    float *host[streams], *dev[streams];
    cudaStream_t s[streams];
    for (int k = 0; k < streams; k++) {
        cudaMallocHost((void **)&host[k], n * sizeof(float));
        cudaMalloc((void **)&dev[k], n * sizeof(float));
        cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking);
        for (int i = 0; i < n; i++) host[k][i] = (float)k;
    }
    for (int it = 0; it < 3; it++)
        for (int k = 0; k < streams; k++) {
            cudaMemcpyAsync(dev[k], host[k], n * sizeof(float), cudaMemcpyHostToDevice, s[k]);
            spin<<<(n + 255) / 256, 256, 0, s[k]>>>(dev[k], n, rounds);
            cudaMemcpyAsync(host[k], dev[k], n * sizeof(float), cudaMemcpyDeviceToHost, s[k]);
        }
    cudaDeviceSynchronize();
    printf("result %s, host[1][0] = %g\n", cudaGetErrorName(cudaGetLastError()), host[1][0]);
    for (int k = 0; k < streams; k++) {
        cudaFreeHost(host[k]);
        cudaFree(dev[k]);
        cudaStreamDestroy(s[k]);
    }
    return 0;
}
