/* The second translation unit of ctest/cu_multi_tu.cu (built together with it; not a test
 * of its own). Its own fat binary, kernels and variables, one of them with the same
 * device name as a static variable of the first unit. */
#include <cuda_runtime.h>

__device__ int b_value[4];
static __device__ int shared_name = 2;
__constant__ int b_scale = 3;
#if defined(__clang__) && defined(__CUDA__)
__device__ int b_managed = 40; /* clang has no __managed__ (ctest.h: CT_CLANG_CUDA) */
#else
__managed__ int b_managed = 40;
#endif

__global__ void b_kernel(int *out) {
    out[threadIdx.x] = b_value[threadIdx.x] * b_scale + shared_name + b_managed;
}

void b_launch(int *out, int n) { b_kernel<<<1, n>>>(out); }
int *b_value_symbol(void) { return b_value; }
const void *b_kernel_stub(void) { return (const void *)b_kernel; }
const void *b_shared_name_symbol(void) { return &shared_name; }
#if !(defined(__clang__) && defined(__CUDA__))
int b_managed_read(void) { return b_managed; }
#endif
