/* Arguments NVIDIA's runtime leaves to the driver, or checks before making a context current,
 * as the differential tester (ctest/difftest) found: cudaHostGetDevicePointer checks only the
 * host pointer; cudaMallocHost, stream creation and cudaStreamDestroy check nothing; advice
 * values, devices and locations are the driver's (CUDA 12's device ordinals too, after the
 * pointer and size); cudaGetChannelDesc checks its out pointer, cudaArrayGetInfo clears
 * its outputs. */
#include "ctest.h"


int main(void) {
    void *pinned = NULL, *managed = NULL, *d = NULL;
    static char pageable[8192];
    OK(cudaMallocHost(&pinned, 4096));
    OK(cudaMallocManaged(&managed, 4096, cudaMemAttachGlobal));

    SHOW_CLEARED("HostGetDevicePointer NULL host", cudaHostGetDevicePointer(&d, NULL, 0));
    SHOW_CLEARED("HostGetDevicePointer NULL out", cudaHostGetDevicePointer(NULL, pinned, 0));
    SHOW_CLEARED("HostGetDevicePointer flags 1", cudaHostGetDevicePointer(&d, pinned, 1));
    SHOW_CLEARED("HostGetDevicePointer pinned", cudaHostGetDevicePointer(&d, pinned, 0));
    SHOW_CLEARED("MallocHost NULL out, 0 bytes", cudaMallocHost(NULL, 0));
    SHOW_CLEARED("MallocHost NULL out, 64 bytes", cudaMallocHost(NULL, 64));

    cudaStream_t s = NULL;
    SHOW_CLEARED("StreamCreateWithFlags 0x2", cudaStreamCreateWithFlags(&s, 0x2));
    SHOW_CLEARED("StreamCreateWithFlags NULL out", cudaStreamCreateWithFlags(NULL, 0));
    SHOW_CLEARED("StreamCreate NULL out", cudaStreamCreate(NULL));
    SHOW_CLEARED("StreamCreateWithPriority NULL out", cudaStreamCreateWithPriority(NULL, 0, 0));
    SHOW_CLEARED("StreamDestroy null stream", cudaStreamDestroy(0));
    SHOW_CLEARED("StreamDestroy legacy", cudaStreamDestroy(cudaStreamLegacy));
    SHOW_CLEARED("StreamDestroy per-thread", cudaStreamDestroy(cudaStreamPerThread));

#if CUDART_VERSION >= 13000
    struct cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
    SHOW_CLEARED("MemAdvise advice 0", cudaMemAdvise(managed, 4096, (enum cudaMemoryAdvise)0, dev0));
    SHOW_CLEARED("MemAdvise advice 7", cudaMemAdvise(managed, 4096, (enum cudaMemoryAdvise)7, dev0));
    SHOW_CLEARED("MemAdvise SetReadMostly", cudaMemAdvise(managed, 4096, cudaMemAdviseSetReadMostly, dev0));
#else
    SHOW_CLEARED("MemAdvise advice 0", cudaMemAdvise(managed, 4096, (enum cudaMemoryAdvise)0, 0));
    SHOW_CLEARED("MemAdvise advice 7", cudaMemAdvise(managed, 4096, (enum cudaMemoryAdvise)7, 0));
    SHOW_CLEARED("MemAdvise 0 bytes, UnsetAccessedBy, device -3", cudaMemAdvise(managed, 0, cudaMemAdviseUnsetAccessedBy, -3));
    SHOW_CLEARED("MemAdvise UnsetAccessedBy, device -2", cudaMemAdvise(managed, 4096, cudaMemAdviseUnsetAccessedBy, -2));
    SHOW_CLEARED("MemAdvise pageable, SetPreferredLocation, CPU", cudaMemAdvise(pageable, 4096, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId));
    SHOW_CLEARED("MemAdvise SetReadMostly, device 1", cudaMemAdvise(managed, 4096, cudaMemAdviseSetReadMostly, 1));
    SHOW_CLEARED("MemPrefetchAsync NULL, device 99", cudaMemPrefetchAsync(NULL, 4109, 99, 0));
    SHOW_CLEARED("MemPrefetchAsync NULL, device -2", cudaMemPrefetchAsync(NULL, 1385, -2, 0));
    SHOW_CLEARED("MemPrefetchAsync managed, device 99", cudaMemPrefetchAsync(managed, 4096, 99, 0));
    SHOW_CLEARED("MemPrefetchAsync managed, device -2", cudaMemPrefetchAsync(managed, 4096, -2, 0));
    SHOW_CLEARED("MemPrefetchAsync managed, CPU", cudaMemPrefetchAsync(managed, 4096, cudaCpuDeviceId, 0));
    SHOW_CLEARED("MemPrefetchAsync managed, device 0", cudaMemPrefetchAsync(managed, 4096, 0, 0));
    SHOW_CLEARED("MemPrefetchAsync pageable, CPU", cudaMemPrefetchAsync(pageable, 4096, cudaCpuDeviceId, 0));
#endif

    struct cudaChannelFormatDesc cd;
    struct cudaExtent e;
    unsigned int fl = 7;
    SHOW_CLEARED("GetChannelDesc NULL out, NULL array", cudaGetChannelDesc(NULL, NULL));
    SHOW_CLEARED("GetChannelDesc NULL array", cudaGetChannelDesc(&cd, NULL));
    memset(&cd, 0x7f, sizeof cd);
    memset(&e, 0x7f, sizeof e);
    SHOW_CLEARED("ArrayGetInfo NULL array", cudaArrayGetInfo(&cd, &e, &fl, NULL));
    printf("outputs: desc (%d %d %d %d %d) extent (%llu %llu %llu) flags %u\n", cd.x, cd.y, cd.z, cd.w, (int)cd.f,
           (unsigned long long)e.width, (unsigned long long)e.height, (unsigned long long)e.depth, fl);

    OK(cudaStreamSynchronize(0));
    cudaFreeHost(pinned);
    cudaFree(managed);
    DONE();
}
