/* The argument checks the runtime makes itself in the memory pool calls, before the driver
 * sees them (so they hold on the stand-in too): a NULL out-pointer of the stream-ordered
 * allocations, the device of cudaDeviceGetDefaultMemPool, an access list too long to copy.
 * The last error after each. */
#include "ctest.h"
#include <stdint.h>

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream);
cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);

int main(void) {
    SHOW_AND_LAST("cudaMallocAsync(NULL)", cudaMallocAsync(NULL, 16, 0), "cudaMallocAsync(NULL)");
    SHOW_AND_LAST("cudaMallocAsync(NULL, 0 bytes)", cudaMallocAsync(NULL, 0, 0), "cudaMallocAsync(NULL, 0 bytes)");
    SHOW_AND_LAST("cudaMallocAsync_ptsz(NULL)", cudaMallocAsync_ptsz(NULL, 16, 0), "cudaMallocAsync_ptsz(NULL)");
    SHOW_AND_LAST("cudaMallocFromPoolAsync(NULL, NULL pool)", cudaMallocFromPoolAsync(NULL, 16, NULL, 0), "cudaMallocFromPoolAsync(NULL)");
    SHOW_AND_LAST("cudaMallocFromPoolAsync_ptsz(NULL, NULL pool)", cudaMallocFromPoolAsync_ptsz(NULL, 16, NULL, 0), "cudaMallocFromPoolAsync_ptsz(NULL)");

    cudaMemPool_t p = (cudaMemPool_t)0x1;
    SHOW_AND_LAST("cudaDeviceGetDefaultMemPool(device -1)", cudaDeviceGetDefaultMemPool(&p, -1), "device -1");
    SHOW_AND_LAST("cudaDeviceGetDefaultMemPool(device 1000)", cudaDeviceGetDefaultMemPool(&p, 1000), "device 1000");
    SHOW_AND_LAST("cudaDeviceGetDefaultMemPool(NULL, device -1)", cudaDeviceGetDefaultMemPool(NULL, -1), "NULL, device -1");
    printf("out-pointer untouched: %d\n", p == (cudaMemPool_t)0x1);

    struct cudaMemAccessDesc d;
    memset(&d, 0, sizeof d);
    SHOW_AND_LAST("cudaMemPoolSetAccess(count SIZE_MAX)", cudaMemPoolSetAccess(NULL, &d, SIZE_MAX), "count SIZE_MAX");
    SHOW_AND_LAST("cudaMemPoolSetAccess(count SIZE_MAX / 2)", cudaMemPoolSetAccess(NULL, &d, SIZE_MAX / 2), "count SIZE_MAX / 2");
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
