/* No CUDA driver: what each call returns and what the last error says. Run by
 * scripts/test/nodriver-check.sh on a machine without a driver, under NVIDIA's runtime and ours,
 * whose outputs must be identical. */
#include "../ctest.h"

int main(void) {
    int v = -1;
    SHOW("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&v));
    SHOWI("runtime version", v);
    SHOW("cudaRuntimeGetVersion(NULL)", cudaRuntimeGetVersion(NULL));
    SHOW_LAST("after cudaRuntimeGetVersion(NULL)");
    SHOW_LAST("again");
    v = -1;
    SHOW("cudaDriverGetVersion", cudaDriverGetVersion(&v));
    SHOWI("driver version", v);
    SHOW("cudaDriverGetVersion(NULL)", cudaDriverGetVersion(NULL));
    int n = -1;
    SHOW("cudaGetDeviceCount", cudaGetDeviceCount(&n));
    SHOWI("count", n);
    SHOW("cudaGetDeviceCount(NULL)", cudaGetDeviceCount(NULL));
    SHOW("cudaSetDevice(0)", cudaSetDevice(0));
    SHOW("cudaSetDevice(-1)", cudaSetDevice(-1));
    int d = -1;
    SHOW("cudaGetDevice", cudaGetDevice(&d));
    SHOWI("device", d);
    void *p = (void *)0x1;
    SHOW("cudaMalloc", cudaMalloc(&p, 16));
    printf("pointer untouched: %d\n", p == (void *)0x1);
    SHOW("cudaMalloc(NULL)", cudaMalloc(NULL, 16));
    SHOW("cudaMalloc(0 bytes)", cudaMalloc(&p, 0));
    SHOW("cudaFree(NULL)", cudaFree(NULL));
    SHOW("cudaMemcpy(kind 42)", cudaMemcpy(&v, &n, 4, (enum cudaMemcpyKind)42));
    SHOW("cudaMemcpy host to host", cudaMemcpy(&v, &n, 4, cudaMemcpyHostToHost));
    cudaStream_t s = NULL;
    SHOW("cudaStreamCreate", cudaStreamCreate(&s));
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    SHOW("cudaPeekAtLastError", cudaPeekAtLastError());
    SHOW("cudaGetLastError", cudaGetLastError());
    SHOW("cudaGetLastError again", cudaGetLastError());
    printf("name: %s\n", cudaGetErrorName(cudaErrorInsufficientDriver));
    printf("string: %s\n", cudaGetErrorString(cudaErrorInsufficientDriver));
    DONE();
}
