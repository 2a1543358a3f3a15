// Built by ctest/cmake/CMakeLists.txt against CUDA::cudart: the header's version, the
// runtime's, and a copy through the device with cuda_runtime.h's typed cudaMalloc.
#include <cuda_runtime.h>
#include <cstdio>

int main()
{
    int v = 0;
    cudaError_t r = cudaRuntimeGetVersion(&v);
    std::printf("CUDART_VERSION %d\nruntime %s %d\n", CUDART_VERSION, cudaGetErrorName(r), v);
    float *d = nullptr;
    float in[64], out[64];
    for (int i = 0; i < 64; i++) {
        in[i] = i * 0.5f;
    }
    r = cudaMalloc(&d, sizeof in);
    if (r == cudaSuccess) r = cudaMemcpy(d, in, sizeof in, cudaMemcpyHostToDevice);
    if (r == cudaSuccess) r = cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
    bool same = r == cudaSuccess;
    for (int i = 0; same && i < 64; i++) {
        same = out[i] == in[i];
    }
    std::printf("round trip: %s (%s)\n", same ? "ok" : "FAIL", cudaGetErrorName(r));
    cudaFree(d);
    return same ? 0 : 1;
}
