/* cudaGetDeviceProperties: every field of this ABI's cudaDeviceProp by name, each checked
 * against the device attribute it mirrors. The machine's own values (name, UUID, memory,
 * PCI location, NUMA ids) are checked here and printed by device_props_gpu.c. CUDA 12: the
 * plain cudaGetDeviceProperties symbol programs built before 12.0 call, which fills the
 * CUDA 11 layout only. Also cudaChooseDevice. */
#define _GNU_SOURCE
#include "ctest.h"
#include <dlfcn.h>
#include <stddef.h>

static int attr(int a) {
    int v = -12345;
    cudaError_t e = cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)a, 0);
    if (e != cudaSuccess) {
        printf("FAIL attribute %d: %s\n", a, cudaGetErrorName(e));
        ct_failed++;
    }
    return v;
}

static void same(const char *field, long long v, int a) {
    long long want = attr(a);
    if (v != want) {
        printf("FAIL %s = %lld, attribute %d = %lld\n", field, v, a, want);
        ct_failed++;
    }
}

/* A field printed and checked against its attribute; CHECKED only checks it (a value of
 * this machine, not of the GPU model). */
#define FIELD(f, a) (SHOWI(#f, p.f), same(#f, (long long)p.f, a))
#define CHECKED(f, a) same(#f, (long long)p.f, a)
#define FIELD2(f, a0, a1) (FIELD(f[0], a0), FIELD(f[1], a1))
#define FIELD3(f, a0, a1, a2) (FIELD(f[0], a0), FIELD(f[1], a1), FIELD(f[2], a2))

/* The index one past the last byte of buf that is not `fill`. */
static size_t extent(const unsigned char *buf, size_t n, unsigned char fill) {
    while (n > 0 && buf[n - 1] == fill) n--;
    return n;
}

int main(void) {
    struct cudaDeviceProp p;
    memset(&p, 0xA5, sizeof p);
    OK(SHOW("cudaGetDeviceProperties(0)", cudaGetDeviceProperties(&p, 0)));

    size_t nlen = strnlen(p.name, sizeof p.name);
    CHECK(nlen > 0 && nlen < sizeof p.name);
    int uuid_zero = 1;
    for (int i = 0; i < 16; i++) uuid_zero &= p.uuid.bytes[i] == 0;
    CHECK(!uuid_zero);
    /* The LUID is only defined on Windows. */
    int luid_zero = 1;
    for (int i = 0; i < 8; i++) luid_zero &= p.luid[i] == 0;
    SHOWI("luid all zero", luid_zero);
    SHOWU("luidDeviceNodeMask", p.luidDeviceNodeMask);
    size_t free_b = 0, total_b = 0;
    OK(cudaMemGetInfo(&free_b, &total_b));
    CHECK(p.totalGlobalMem > 0 && total_b <= p.totalGlobalMem);
    SHOWI("totalGlobalMem equals cudaMemGetInfo total", p.totalGlobalMem == total_b);

    FIELD(sharedMemPerBlock, cudaDevAttrMaxSharedMemoryPerBlock);
    FIELD(regsPerBlock, cudaDevAttrMaxRegistersPerBlock);
    FIELD(warpSize, cudaDevAttrWarpSize);
    FIELD(memPitch, cudaDevAttrMaxPitch);
    FIELD(maxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock);
    FIELD3(maxThreadsDim, cudaDevAttrMaxBlockDimX, cudaDevAttrMaxBlockDimY, cudaDevAttrMaxBlockDimZ);
    FIELD3(maxGridSize, cudaDevAttrMaxGridDimX, cudaDevAttrMaxGridDimY, cudaDevAttrMaxGridDimZ);
#if CUDART_VERSION < 13000
    FIELD(clockRate, cudaDevAttrClockRate);
#endif
    FIELD(totalConstMem, cudaDevAttrTotalConstantMemory);
    FIELD(major, cudaDevAttrComputeCapabilityMajor);
    FIELD(minor, cudaDevAttrComputeCapabilityMinor);
    FIELD(textureAlignment, cudaDevAttrTextureAlignment);
    FIELD(texturePitchAlignment, cudaDevAttrTexturePitchAlignment);
#if CUDART_VERSION < 13000
    FIELD(deviceOverlap, cudaDevAttrGpuOverlap);
#endif
    FIELD(multiProcessorCount, cudaDevAttrMultiProcessorCount);
#if CUDART_VERSION < 13000
    FIELD(kernelExecTimeoutEnabled, cudaDevAttrKernelExecTimeout);
#endif
    FIELD(integrated, cudaDevAttrIntegrated);
    FIELD(canMapHostMemory, cudaDevAttrCanMapHostMemory);
#if CUDART_VERSION < 13000
    FIELD(computeMode, cudaDevAttrComputeMode);
#endif
    FIELD(maxTexture1D, cudaDevAttrMaxTexture1DWidth);
    FIELD(maxTexture1DMipmap, cudaDevAttrMaxTexture1DMipmappedWidth);
#if CUDART_VERSION < 13000
    FIELD(maxTexture1DLinear, cudaDevAttrMaxTexture1DLinearWidth);
#endif
    FIELD2(maxTexture2D, cudaDevAttrMaxTexture2DWidth, cudaDevAttrMaxTexture2DHeight);
    FIELD2(maxTexture2DMipmap, cudaDevAttrMaxTexture2DMipmappedWidth, cudaDevAttrMaxTexture2DMipmappedHeight);
    FIELD3(maxTexture2DLinear, cudaDevAttrMaxTexture2DLinearWidth, cudaDevAttrMaxTexture2DLinearHeight,
           cudaDevAttrMaxTexture2DLinearPitch);
    FIELD2(maxTexture2DGather, cudaDevAttrMaxTexture2DGatherWidth, cudaDevAttrMaxTexture2DGatherHeight);
    FIELD3(maxTexture3D, cudaDevAttrMaxTexture3DWidth, cudaDevAttrMaxTexture3DHeight, cudaDevAttrMaxTexture3DDepth);
    FIELD3(maxTexture3DAlt, cudaDevAttrMaxTexture3DWidthAlt, cudaDevAttrMaxTexture3DHeightAlt,
           cudaDevAttrMaxTexture3DDepthAlt);
    FIELD(maxTextureCubemap, cudaDevAttrMaxTextureCubemapWidth);
    FIELD2(maxTexture1DLayered, cudaDevAttrMaxTexture1DLayeredWidth, cudaDevAttrMaxTexture1DLayeredLayers);
    FIELD3(maxTexture2DLayered, cudaDevAttrMaxTexture2DLayeredWidth, cudaDevAttrMaxTexture2DLayeredHeight,
           cudaDevAttrMaxTexture2DLayeredLayers);
    FIELD2(maxTextureCubemapLayered, cudaDevAttrMaxTextureCubemapLayeredWidth,
           cudaDevAttrMaxTextureCubemapLayeredLayers);
    FIELD(maxSurface1D, cudaDevAttrMaxSurface1DWidth);
    FIELD2(maxSurface2D, cudaDevAttrMaxSurface2DWidth, cudaDevAttrMaxSurface2DHeight);
    FIELD3(maxSurface3D, cudaDevAttrMaxSurface3DWidth, cudaDevAttrMaxSurface3DHeight, cudaDevAttrMaxSurface3DDepth);
    FIELD2(maxSurface1DLayered, cudaDevAttrMaxSurface1DLayeredWidth, cudaDevAttrMaxSurface1DLayeredLayers);
    FIELD3(maxSurface2DLayered, cudaDevAttrMaxSurface2DLayeredWidth, cudaDevAttrMaxSurface2DLayeredHeight,
           cudaDevAttrMaxSurface2DLayeredLayers);
    FIELD(maxSurfaceCubemap, cudaDevAttrMaxSurfaceCubemapWidth);
    FIELD2(maxSurfaceCubemapLayered, cudaDevAttrMaxSurfaceCubemapLayeredWidth,
           cudaDevAttrMaxSurfaceCubemapLayeredLayers);
    FIELD(surfaceAlignment, cudaDevAttrSurfaceAlignment);
    FIELD(concurrentKernels, cudaDevAttrConcurrentKernels);
    FIELD(ECCEnabled, cudaDevAttrEccEnabled);
    CHECKED(pciBusID, cudaDevAttrPciBusId);
    CHECKED(pciDeviceID, cudaDevAttrPciDeviceId);
    CHECKED(pciDomainID, cudaDevAttrPciDomainId);
    FIELD(tccDriver, cudaDevAttrTccDriver);
    FIELD(asyncEngineCount, cudaDevAttrAsyncEngineCount);
    FIELD(unifiedAddressing, cudaDevAttrUnifiedAddressing);
#if CUDART_VERSION < 13000
    FIELD(memoryClockRate, cudaDevAttrMemoryClockRate);
#endif
    FIELD(memoryBusWidth, cudaDevAttrGlobalMemoryBusWidth);
    FIELD(l2CacheSize, cudaDevAttrL2CacheSize);
    FIELD(persistingL2CacheMaxSize, cudaDevAttrMaxPersistingL2CacheSize);
    FIELD(maxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor);
    FIELD(streamPrioritiesSupported, cudaDevAttrStreamPrioritiesSupported);
    FIELD(globalL1CacheSupported, cudaDevAttrGlobalL1CacheSupported);
    FIELD(localL1CacheSupported, cudaDevAttrLocalL1CacheSupported);
    FIELD(sharedMemPerMultiprocessor, cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    FIELD(regsPerMultiprocessor, cudaDevAttrMaxRegistersPerMultiprocessor);
    FIELD(managedMemory, cudaDevAttrManagedMemory);
    FIELD(isMultiGpuBoard, cudaDevAttrIsMultiGpuBoard);
    CHECKED(multiGpuBoardGroupID, cudaDevAttrMultiGpuBoardGroupID);
    FIELD(hostNativeAtomicSupported, cudaDevAttrHostNativeAtomicSupported);
#if CUDART_VERSION < 13000
    FIELD(singleToDoublePrecisionPerfRatio, cudaDevAttrSingleToDoublePrecisionPerfRatio);
#endif
    FIELD(pageableMemoryAccess, cudaDevAttrPageableMemoryAccess);
    FIELD(concurrentManagedAccess, cudaDevAttrConcurrentManagedAccess);
    FIELD(computePreemptionSupported, cudaDevAttrComputePreemptionSupported);
    FIELD(canUseHostPointerForRegisteredMem, cudaDevAttrCanUseHostPointerForRegisteredMem);
    FIELD(cooperativeLaunch, cudaDevAttrCooperativeLaunch);
#if CUDART_VERSION < 13000
    FIELD(cooperativeMultiDeviceLaunch, cudaDevAttrCooperativeMultiDeviceLaunch);
#endif
    FIELD(sharedMemPerBlockOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin);
    FIELD(pageableMemoryAccessUsesHostPageTables, cudaDevAttrPageableMemoryAccessUsesHostPageTables);
    FIELD(directManagedMemAccessFromHost, cudaDevAttrDirectManagedMemAccessFromHost);
    FIELD(maxBlocksPerMultiProcessor, cudaDevAttrMaxBlocksPerMultiprocessor);
    FIELD(accessPolicyMaxWindowSize, cudaDevAttrMaxAccessPolicyWindowSize);
    FIELD(reservedSharedMemPerBlock, cudaDevAttrReservedSharedMemoryPerBlock);
    FIELD(hostRegisterSupported, cudaDevAttrHostRegisterSupported);
    FIELD(sparseCudaArraySupported, cudaDevAttrSparseCudaArraySupported);
    FIELD(hostRegisterReadOnlySupported, cudaDevAttrHostRegisterReadOnlySupported);
    FIELD(timelineSemaphoreInteropSupported, cudaDevAttrTimelineSemaphoreInteropSupported);
    FIELD(memoryPoolsSupported, cudaDevAttrMemoryPoolsSupported);
    FIELD(gpuDirectRDMASupported, cudaDevAttrGPUDirectRDMASupported);
    FIELD(gpuDirectRDMAFlushWritesOptions, cudaDevAttrGPUDirectRDMAFlushWritesOptions);
    FIELD(gpuDirectRDMAWritesOrdering, cudaDevAttrGPUDirectRDMAWritesOrdering);
    FIELD(memoryPoolSupportedHandleTypes, cudaDevAttrMemoryPoolSupportedHandleTypes);
    FIELD(deferredMappingCudaArraySupported, cudaDevAttrDeferredMappingCudaArraySupported);
    FIELD(ipcEventSupported, cudaDevAttrIpcEventSupport);
    FIELD(clusterLaunch, cudaDevAttrClusterLaunch);
    /* The runtime names no attribute for it (the driver's 129, UNIFIED_FUNCTION_POINTERS). */
    SHOWI("unifiedFunctionPointers", p.unifiedFunctionPointers);
#if CUDART_VERSION >= 13000
    FIELD(deviceNumaConfig, cudaDevAttrNumaConfig);
    CHECKED(deviceNumaId, cudaDevAttrNumaId);
    FIELD(mpsEnabled, cudaDevAttrMpsEnabled);
    CHECKED(hostNumaId, cudaDevAttrHostNumaId);
    CHECKED(gpuPciDeviceID, cudaDevAttrGpuPciDeviceId);
    CHECKED(gpuPciSubsystemID, cudaDevAttrGpuPciSubsystemId);
    FIELD(hostNumaMultinodeIpcSupported, cudaDevAttrHostNumaMultinodeIpcSupported);
#endif
    /* `reserved` is not printed: NVIDIA's runtime leaves whatever its own copy held there
     * (it differs from call to call); ours zeroes it. A second call fills every named field
     * the same. */
    struct cudaDeviceProp q;
    memset(&q, 0x5A, sizeof q);
    OK(cudaGetDeviceProperties(&q, 0));
    memcpy(q.reserved, p.reserved, sizeof q.reserved);
    SHOWI("second call identical but for reserved", memcmp(&p, &q, sizeof p) == 0);

    /* Errors; the struct is left alone. */
    memset(&q, 0x5A, sizeof q);
    SHOW("cudaGetDeviceProperties(NULL, 0)", cudaGetDeviceProperties(NULL, 0));
    SHOW("cudaGetDeviceProperties(-1)", cudaGetDeviceProperties(&q, -1));
    SHOW("cudaGetDeviceProperties(1000)", cudaGetDeviceProperties(&q, 1000));
    SHOW("cudaGetDeviceProperties(NULL, 1000)", cudaGetDeviceProperties(NULL, 1000));
    SHOW_LAST("after bad property queries");
    SHOWI("struct untouched by failed calls", extent((unsigned char *)&q, sizeof q, 0x5A) == 0);

    /* Which names the library exports. */
    SHOWI("symbol cudaGetDeviceProperties", dlsym(RTLD_DEFAULT, "cudaGetDeviceProperties") != NULL);
    SHOWI("symbol cudaGetDeviceProperties_v2", dlsym(RTLD_DEFAULT, "cudaGetDeviceProperties_v2") != NULL);

#if CUDART_VERSION < 13000
    /* The plain symbol (the header renames calls to _v2): how many bytes it writes, and
     * that they are the _v2 struct's first bytes. */
    {
        typedef cudaError_t (*getprops_t)(void *, int);
        getprops_t legacy = (getprops_t)dlsym(RTLD_DEFAULT, "cudaGetDeviceProperties");
        CHECK(legacy != NULL);
        if (legacy) {
            static unsigned char a[4096], b[4096];
            memset(a, 0xA5, sizeof a);
            memset(b, 0x5A, sizeof b);
            OK(SHOW("legacy cudaGetDeviceProperties(0)", legacy(a, 0)));
            OK(legacy(b, 0));
            size_t ea = extent(a, sizeof a, 0xA5), eb = extent(b, sizeof b, 0x5A);
            size_t written = ea > eb ? ea : eb;
            SHOWU("legacy bytes written", written);
            SHOWU("offsetof(cudaDeviceProp, hostRegisterSupported)", offsetof(struct cudaDeviceProp, hostRegisterSupported));
            SHOWU("sizeof(cudaDeviceProp)", sizeof(struct cudaDeviceProp));
            SHOWI("legacy bytes equal _v2's", written <= sizeof p && memcmp(a, &p, written) == 0);
            SHOW("legacy cudaGetDeviceProperties(NULL)", legacy(NULL, 0));
            SHOW("legacy cudaGetDeviceProperties(1000)", legacy(a, 1000));
            SHOW_LAST("after bad legacy queries");
        }
    }
#endif

    /* cudaChooseDevice: a single device is always the best match. */
    int dev = -1;
    struct cudaDeviceProp want;
    memset(&want, 0, sizeof want);
    OK(SHOW("cudaChooseDevice(zeroed)", cudaChooseDevice(&dev, &want)));
    SHOWI("chosen (zeroed)", dev);
    want.major = p.major;
    want.minor = p.minor;
    dev = -1;
    OK(SHOW("cudaChooseDevice(this compute capability)", cudaChooseDevice(&dev, &want)));
    SHOWI("chosen (this compute capability)", dev);
    want.major = 100;
    dev = -1;
    SHOW("cudaChooseDevice(compute capability 100.x)", cudaChooseDevice(&dev, &want));
    SHOWI("chosen (compute capability 100.x)", dev);
    dev = -1;
    OK(SHOW("cudaChooseDevice(own properties)", cudaChooseDevice(&dev, &p)));
    SHOWI("chosen (own properties)", dev);
    SHOW("cudaChooseDevice(NULL device)", cudaChooseDevice(NULL, &want));
    SHOW("cudaChooseDevice(NULL prop)", cudaChooseDevice(&dev, NULL));
    SHOW_LAST("after bad cudaChooseDevice");
    DONE();
}
