/*
 * demo.c: a plain CUDA runtime program (no kernels), built against cudart-rs's header and
 * run on cudart-rs. It allocates device, pitched and pinned memory, copies a pattern
 * through them, sets memory, queries pointer attributes and shows an error code.
 */
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>

#define TRY(call)                                                                        \
    do {                                                                                 \
        cudaError_t e = (call);                                                          \
        if (e != cudaSuccess) {                                                          \
            fprintf(stderr, "%s failed: %s (%s)\n", #call, cudaGetErrorName(e),          \
                    cudaGetErrorString(e));                                              \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

int main(void) {
    int runtime = 0, driver = 0, devices = 0, cc = 0, sms = 0;
    TRY(cudaRuntimeGetVersion(&runtime));
    TRY(cudaDriverGetVersion(&driver));
    TRY(cudaGetDeviceCount(&devices));
    TRY(cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, 0));
    TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    printf("runtime %d, driver %d, %d device(s), device 0: compute capability %d.x, %d SMs\n",
           runtime, driver, devices, cc, sms);

    enum { W = 1000, H = 64 };
    static unsigned char host[H][W], back[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) host[y][x] = (unsigned char)(x * 7 + y);

    void *pitched = NULL, *linear = NULL, *pinned = NULL;
    size_t pitch = 0;
    TRY(cudaMallocPitch(&pitched, &pitch, W, H));
    TRY(cudaMalloc(&linear, sizeof host));
    TRY(cudaMallocHost(&pinned, sizeof host));
    printf("cudaMallocPitch(%d x %d) -> pitch %zu\n", W, H, pitch);

    TRY(cudaMemcpy2D(pitched, pitch, host, W, W, H, cudaMemcpyHostToDevice));
    TRY(cudaMemcpy2D(linear, W, pitched, pitch, W, H, cudaMemcpyDeviceToDevice));
    TRY(cudaMemset(linear, 0xab, W));  /* first row */
    TRY(cudaMemcpy(pinned, linear, sizeof host, cudaMemcpyDefault));
    memcpy(back, pinned, sizeof back);
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) bad += back[y][x] != (y == 0 ? 0xab : host[y][x]);
    printf("host -> pitched -> linear -> memset -> pinned -> host: %s\n",
           bad ? "MISMATCH" : "all bytes right");

    struct cudaPointerAttributes a;
    TRY(cudaPointerGetAttributes(&a, linear));
    printf("cudaPointerGetAttributes(device pointer): type %d, device %d\n", (int)a.type, a.device);
    TRY(cudaPointerGetAttributes(&a, pinned));
    printf("cudaPointerGetAttributes(pinned pointer): type %d\n", (int)a.type);

    cudaError_t e = cudaMemcpy(linear, host, sizeof host, (enum cudaMemcpyKind)42);
    printf("cudaMemcpy with kind 42 -> %s (\"%s\")\n", cudaGetErrorName(e), cudaGetErrorString(e));
    printf("cudaGetLastError -> %s\n", cudaGetErrorName(cudaGetLastError()));

    TRY(cudaFreeHost(pinned));
    TRY(cudaFree(linear));
    TRY(cudaFree(pitched));
    return bad ? 1 : 0;
}
