/* ctest: gpu cu nvcc-extra-sources=ctest/multi_tu/b.cu */
/* Two translation units, two fat binaries: the runner builds this file together with the
 * sources the nvcc-extra-sources marker names (paths from the repository root, comma
 * separated), in one nvcc command:
 *   nvcc -cudart shared -arch=sm_90 -I ctest ctest/cu_multi_tu.cu ctest/multi_tu/b.cu
 * Kernels and variables of both units, and a static variable of the same device name in
 * each, resolve to their own unit. */
#include "ctest.h"

void b_launch(int *out, int n);
int *b_value_symbol(void);
const void *b_kernel_stub(void);
const void *b_shared_name_symbol(void);
#ifndef CT_CLANG_CUDA
int b_managed_read(void);
#endif

static __device__ int shared_name = 1;
__device__ int a_value[4];
#ifndef CT_CLANG_CUDA
__managed__ int a_managed = 10;
#else
__device__ int a_managed = 10; /* clang has no __managed__: the kernels read the same values */
#endif

__global__ void a_kernel(int *out) { out[threadIdx.x] = a_value[threadIdx.x] + shared_name + a_managed; }

int main(void) {
    int *d = NULL;
    OK(cudaMalloc((void **)&d, 4 * sizeof(int)));
    int av[4] = {100, 200, 300, 400};
    int bv[4] = {1, 2, 3, 4};
    SHOW("to a_value", cudaMemcpyToSymbol(a_value, av, sizeof av));
    SHOW("to b_value", cudaMemcpyToSymbol((const void *)b_value_symbol(), bv, sizeof bv));
    int h[4];

    a_kernel<<<1, 4>>>(d);
    SHOW("a_kernel", cudaGetLastError());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("a h[0]", h[0]);
    SHOWI("a h[3]", h[3]);

    b_launch(d, 4);
    SHOW("b_kernel", cudaGetLastError());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("b h[0]", h[0]);
    SHOWI("b h[3]", h[3]);

    int x = -1;
    SHOW("from a shared_name", cudaMemcpyFromSymbol(&x, shared_name, sizeof x));
    SHOWI("a shared_name", x);
    SHOW("from b shared_name", cudaMemcpyFromSymbol(&x, b_shared_name_symbol(), sizeof x));
    SHOWI("b shared_name", x);
    void *pa = NULL, *pb = NULL;
    OK(cudaGetSymbolAddress(&pa, shared_name));
    OK(cudaGetSymbolAddress(&pb, b_shared_name_symbol()));
    CHECK(pa != pb);

    void *args[] = {&d};
    SHOW("cudaLaunchKernel b stub", cudaLaunchKernel(b_kernel_stub(), dim3(1), dim3(4), args, 0, 0));
#ifndef CT_CLANG_CUDA
    SHOWI("a_managed", a_managed);
    SHOWI("b_managed", b_managed_read());
#else
    printf("__managed__ variables: not in this build (clang)\n");
#endif
    struct cudaFuncAttributes fa;
    SHOW("attributes of b", cudaFuncGetAttributes(&fa, b_kernel_stub()));
    OK(cudaDeviceSynchronize());
    OK(cudaFree(d));
    DONE();
}
