/* ctest: gpu cu abi13 */
/* cudaFuncGetParamCount (CUDA 13.5) on kernels of 0, 1, 3 and 5 parameters (a struct among
 * them), through the host stub and through the cudaKernel_t of cudaGetKernel, checked against
 * cudaFuncGetParamInfo; a host function, NULL pointers. */
#include "ctest.h"

struct big {
    int v[9];
};

__global__ void k0(void) {}
__global__ void k1(int *p) { *p = 1; }
__global__ void k3(int *p, float f, char c) { *p = (int)f + c; }
__global__ void k5(int *p, struct big b, double d, short s, void *q) { *p = b.v[0] + (int)d + s + (q != 0); }

static void host_only(void) {}

static void count(const char *label, const void *f) {
    size_t n = 12345;
    cudaError_t e = cudaFuncGetParamCount(f, &n);
    printf("%s: %s, count %zu\n", label, cudaGetErrorName(e), e == cudaSuccess ? n : 0);
    if (e != cudaSuccess) return;
    /* The parameter past the last one must be refused, the last one must be there. */
    size_t off = 0, size = 0;
    if (n) CHECK(cudaFuncGetParamInfo(f, n - 1, &off, &size) == cudaSuccess);
    cudaError_t past = cudaFuncGetParamInfo(f, n, &off, &size);
    printf("%s: param info past the last: %s\n", label, cudaGetErrorName(past));
    cudaGetLastError();
}

int main(void) {
    count("k0", (const void *)k0);
    count("k1", (const void *)k1);
    count("k3", (const void *)k3);
    count("k5", (const void *)k5);
    cudaKernel_t kern = NULL;
    OK(cudaGetKernel(&kern, (const void *)k3));
    count("k3 as cudaKernel_t", (const void *)kern);
    count("host function", (const void *)host_only);
    SHOW_LAST("host function");
    count("NULL function", NULL);
    SHOW_LAST("NULL function");
    SHOW("NULL count", cudaFuncGetParamCount((const void *)k1, NULL));
    SHOW_LAST("NULL count");
    int *d = NULL;
    OK(cudaMalloc((void **)&d, sizeof(int)));
    k3<<<1, 1>>>(d, 2.0f, 3);
    OK(cudaDeviceSynchronize());
    int h = 0;
    OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(h == 5);
    OK(cudaFree(d));
    DONE();
}
