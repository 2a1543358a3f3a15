/* Arguments NVIDIA's runtime leaves to the driver, or checks before making a context current,
 * as the differential tester (ctest/difftest) found: cudaHostGetDevicePointer checks only the
 * host pointer; cudaMallocHost, stream creation and cudaStreamDestroy check nothing; advice
 * values, devices and locations are the driver's (CUDA 12's device ordinals too, after the
 * pointer and size); cudaGetChannelDesc checks its out pointer, cudaArrayGetInfo clears
 * its outputs. */
#include "ctest.h"

#define R(label, call)                                                                        \
    do {                                                                                      \
        cudaError_t r_e = (call);                                                             \
        printf("%s: %s, last %s\n", (label), cudaGetErrorName(r_e),                          \
               cudaGetErrorName(cudaGetLastError()));                                         \
    } while (0)

int main(void) {
    void *pinned = NULL, *managed = NULL, *d = NULL;
    static char pageable[8192];
    OK(cudaMallocHost(&pinned, 4096));
    OK(cudaMallocManaged(&managed, 4096, cudaMemAttachGlobal));

    R("HostGetDevicePointer NULL host", cudaHostGetDevicePointer(&d, NULL, 0));
    R("HostGetDevicePointer NULL out", cudaHostGetDevicePointer(NULL, pinned, 0));
    R("HostGetDevicePointer flags 1", cudaHostGetDevicePointer(&d, pinned, 1));
    R("HostGetDevicePointer pinned", cudaHostGetDevicePointer(&d, pinned, 0));
    R("MallocHost NULL out, 0 bytes", cudaMallocHost(NULL, 0));
    R("MallocHost NULL out, 64 bytes", cudaMallocHost(NULL, 64));

    cudaStream_t s = NULL;
    R("StreamCreateWithFlags 0x2", cudaStreamCreateWithFlags(&s, 0x2));
    R("StreamCreateWithFlags NULL out", cudaStreamCreateWithFlags(NULL, 0));
    R("StreamCreate NULL out", cudaStreamCreate(NULL));
    R("StreamCreateWithPriority NULL out", cudaStreamCreateWithPriority(NULL, 0, 0));
    R("StreamDestroy null stream", cudaStreamDestroy(0));
    R("StreamDestroy legacy", cudaStreamDestroy(cudaStreamLegacy));
    R("StreamDestroy per-thread", cudaStreamDestroy(cudaStreamPerThread));

#if CUDART_VERSION >= 13000
    struct cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
    R("MemAdvise advice 0", cudaMemAdvise(managed, 4096, (enum cudaMemoryAdvise)0, dev0));
    R("MemAdvise advice 7", cudaMemAdvise(managed, 4096, (enum cudaMemoryAdvise)7, dev0));
    R("MemAdvise SetReadMostly", cudaMemAdvise(managed, 4096, cudaMemAdviseSetReadMostly, dev0));
#else
    R("MemAdvise advice 0", cudaMemAdvise(managed, 4096, (enum cudaMemoryAdvise)0, 0));
    R("MemAdvise advice 7", cudaMemAdvise(managed, 4096, (enum cudaMemoryAdvise)7, 0));
    R("MemAdvise 0 bytes, UnsetAccessedBy, device -3", cudaMemAdvise(managed, 0, cudaMemAdviseUnsetAccessedBy, -3));
    R("MemAdvise UnsetAccessedBy, device -2", cudaMemAdvise(managed, 4096, cudaMemAdviseUnsetAccessedBy, -2));
    R("MemAdvise pageable, SetPreferredLocation, CPU", cudaMemAdvise(pageable, 4096, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId));
    R("MemAdvise SetReadMostly, device 1", cudaMemAdvise(managed, 4096, cudaMemAdviseSetReadMostly, 1));
    R("MemPrefetchAsync NULL, device 99", cudaMemPrefetchAsync(NULL, 4109, 99, 0));
    R("MemPrefetchAsync NULL, device -2", cudaMemPrefetchAsync(NULL, 1385, -2, 0));
    R("MemPrefetchAsync managed, device 99", cudaMemPrefetchAsync(managed, 4096, 99, 0));
    R("MemPrefetchAsync managed, device -2", cudaMemPrefetchAsync(managed, 4096, -2, 0));
    R("MemPrefetchAsync managed, CPU", cudaMemPrefetchAsync(managed, 4096, cudaCpuDeviceId, 0));
    R("MemPrefetchAsync managed, device 0", cudaMemPrefetchAsync(managed, 4096, 0, 0));
    R("MemPrefetchAsync pageable, CPU", cudaMemPrefetchAsync(pageable, 4096, cudaCpuDeviceId, 0));
#endif

    struct cudaChannelFormatDesc cd;
    struct cudaExtent e;
    unsigned int fl = 7;
    R("GetChannelDesc NULL out, NULL array", cudaGetChannelDesc(NULL, NULL));
    R("GetChannelDesc NULL array", cudaGetChannelDesc(&cd, NULL));
    memset(&cd, 0x7f, sizeof cd);
    memset(&e, 0x7f, sizeof e);
    R("ArrayGetInfo NULL array", cudaArrayGetInfo(&cd, &e, &fl, NULL));
    printf("outputs: desc (%d %d %d %d %d) extent (%llu %llu %llu) flags %u\n", cd.x, cd.y, cd.z, cd.w, (int)cd.f,
           (unsigned long long)e.width, (unsigned long long)e.height, (unsigned long long)e.depth, fl);

    OK(cudaStreamSynchronize(0));
    cudaFreeHost(pinned);
    cudaFree(managed);
    DONE();
}
