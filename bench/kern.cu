// bench/kern.cu: the kernels and the device symbol bench/bench.c needs, and a <<<...>>> launch
// as nvcc compiles one (built with nvcc -cudart shared by bench/run.sh).
#include <cuda_runtime.h>

// Three arguments, no work: the launch is what is measured.
__global__ void bench_k3(int a, float *p, size_t n) {
    if (a == -1 && threadIdx.x == 0) p[n] = 0.0f;
}

__global__ void bench_coop(int a, float *p, size_t n) {
    if (a == -1 && threadIdx.x == 0) p[n] = 1.0f;
}

__device__ int bench_symbol[64];

extern "C" {
// One <<<...>>> launch: push of the configuration, the stub, the launch.
__attribute__((noinline)) void bench_chevron(cudaStream_t s, int a, float *p, size_t n) {
    bench_k3<<<1, 32, 0, s>>>(a, p, n);
}
const void *bench_kernel_k3(void) { return (const void *)bench_k3; }
const void *bench_kernel_coop(void) { return (const void *)bench_coop; }
const void *bench_symbol_addr(void) { return (const void *)&bench_symbol; }
// NVIDIA's occupancy calculator (a template of cuda_runtime.h, so C++): cudaGetDevice, four
// cudaDeviceGetAttribute, cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags
// for each candidate block size until one fills the multiprocessor.
int bench_max_potential_block_size(int *min_grid, int *block) {
    return (int)cudaOccupancyMaxPotentialBlockSize(min_grid, block, bench_k3, 0, 0);
}
}
