/* ctest: gpu cu */
/* Kernels and device symbols across cudaDeviceReset: the code is loaded again into the new
 * context, so __device__ variables start again from their initializers. Also a second
 * device when there is one. */
#include "ctest.h"

__device__ int g_val = 42;
__constant__ int c_val = 7;

__global__ void read_vals(int *out) {
    out[0] = g_val;
    out[1] = c_val;
}
__global__ void bump(void) { g_val += 1; }

static void show_vals(const char *label) {
    int *d = NULL;
    int h[2] = {-1, -1};
    if (cudaMalloc((void **)&d, sizeof h) != cudaSuccess) {
        printf("%s: cudaMalloc failed\n", label);
        return;
    }
    read_vals<<<1, 1>>>(d);
    OK(cudaGetLastError());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("%s: g_val = %d, c_val = %d\n", label, h[0], h[1]);
    OK(cudaFree(d));
}

int main(void) {
    show_vals("start");
    bump<<<1, 1>>>();
    OK(cudaDeviceSynchronize());
    int seven = 70;
    OK(cudaMemcpyToSymbol(c_val, &seven, sizeof seven));
    show_vals("after bump");

    SHOW("cudaDeviceReset", cudaDeviceReset());
    show_vals("after reset");
    int v = -1;
    SHOW("from g_val after reset", cudaMemcpyFromSymbol(&v, g_val, sizeof v));
    SHOWI("g_val", v);
    void *p = NULL;
    SHOW("cudaGetSymbolAddress after reset", cudaGetSymbolAddress(&p, g_val));
    bump<<<1, 1>>>();
    SHOW("bump after reset", cudaGetLastError());
    OK(cudaDeviceSynchronize());
    show_vals("after reset and bump");

    int n = 0;
    OK(cudaGetDeviceCount(&n));
    if (n > 1) {
        OK(cudaSetDevice(1));
        show_vals("device 1");
        void *p1 = NULL;
        OK(cudaGetSymbolAddress(&p1, g_val));
        OK(cudaSetDevice(0));
        void *p0 = NULL;
        OK(cudaGetSymbolAddress(&p0, g_val));
        CHECK(p0 != p1);
        show_vals("device 0 again");
    }
    DONE();
}
