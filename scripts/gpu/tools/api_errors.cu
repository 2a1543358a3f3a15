// API errors for compute-sanitizer to report (and one bad kernel write).
#include <cuda_runtime.h>
#include <stdio.h>
__global__ void k_write(int *p) { p[threadIdx.x] = 1; }
int main(void) {
    void *p = 0;
    printf("cudaMalloc huge: %s\n", cudaGetErrorName(cudaMalloc(&p, (size_t)1 << 60)));
    printf("cudaFree bad: %s\n", cudaGetErrorName(cudaFree((void *)0x1234)));
    printf("cudaSetDevice 999: %s\n", cudaGetErrorName(cudaSetDevice(999)));
    int *d = 0;
    cudaMalloc((void **)&d, 16);
    k_write<<<1, 32>>>(d); /* 32 ints into 16 bytes */
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
