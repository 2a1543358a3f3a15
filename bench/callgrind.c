/*
 * bench/callgrind.c: instruction counts of the hot calls on the stand-in driver, for
 * bench/callgrind.sh (valgrind --tool=callgrind). Each cg_* function makes its call N times;
 * the script divides each function's inclusive instruction count by N. The drv_* functions
 * make the driver call our runtime makes for the same work, straight to the stand-in, so
 * that "ours minus driver" is the runtime's own cost.
 *
 * Built against our header; the driver entry points are looked up in the stand-in with dlsym.
 * Before the measured loops the program dlopens a library with thread-local storage, as the
 * real driver does when it loads its own libraries: that is what makes glibc's
 * __tls_get_addr take its slow path, which the counts must show where a call uses it.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>

#define N 1000
#define NOINLINE __attribute__((noinline))

typedef int CUresult;
typedef void *CUstream;
typedef void *CUevent;
typedef void *CUcontext;
typedef unsigned long long CUdeviceptr;

static CUresult (*cuStreamQuery_)(CUstream);
static CUresult (*cuStreamSynchronize_)(CUstream);
static CUresult (*cuEventRecord_)(CUevent, CUstream);
static CUresult (*cuEventQuery_)(CUevent);
static CUresult (*cuMemsetD8Async_)(CUdeviceptr, unsigned char, size_t, CUstream);
static CUresult (*cuMemcpyDtoDAsync_)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
static CUresult (*cuMemcpyDtoH_)(void *, CUdeviceptr, size_t);
static CUresult (*cuMemcpy_)(CUdeviceptr, CUdeviceptr, size_t);
static CUresult (*cuMemAlloc_)(CUdeviceptr *, size_t);
static CUresult (*cuMemFree_)(CUdeviceptr);
static CUresult (*cuMemGetInfo_)(size_t *, size_t *);
static CUresult (*cuCtxGetCurrent_)(CUcontext *);
static CUresult (*cuCtxGetDevice_)(int *);
static CUresult (*cuDeviceGetAttribute_)(int *, int, int);
static CUresult (*cuMemHostAlloc_)(void **, size_t, unsigned);
static CUresult (*cuMemFreeHost_)(void *);
static CUresult (*cuStreamGetPriority_)(CUstream, int *);
static CUresult (*cuMemAllocPitch_)(CUdeviceptr *, size_t *, size_t, size_t, unsigned);

static cudaStream_t s;
static cudaEvent_t ev;
static void *d, *h;
static volatile int sink;

/* cg_NAME makes the call N times (measured); warm_NAME the same, before (not measured). */
#define ROW(name, ...)                                                                   \
    NOINLINE void cg_##name(void) {                                                      \
        for (int i = 0; i < N; i++) { __VA_ARGS__; }                                          \
    }                                                                                    \
    NOINLINE void warm_##name(void) {                                                    \
        for (int i = 0; i < 10; i++) { __VA_ARGS__; }                                          \
    }
ROW(GetLastError, sink = cudaGetLastError())
ROW(PeekAtLastError, sink = cudaPeekAtLastError())
ROW(StreamQuery, cudaStreamQuery(s))
ROW(StreamSynchronize, cudaStreamSynchronize(s))
ROW(EventRecordQuery, cudaEventRecord(ev, s); cudaEventQuery(ev))
ROW(MemsetAsync4, cudaMemsetAsync(d, 0, 4, s))
ROW(MemcpyAsyncD2D4, cudaMemcpyAsync(d, (char *)d + 64, 4, cudaMemcpyDeviceToDevice, s))
ROW(MemcpyD2H4, cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost))
ROW(MemcpyDefault4, cudaMemcpy(h, d, 4, cudaMemcpyDefault))
ROW(Memcpy2DAsync, cudaMemcpy2DAsync(d, 64, (char *)d + 4096, 64, 64, 4, cudaMemcpyDeviceToDevice, s))
ROW(Memset2DAsync, cudaMemset2DAsync(d, 64, 0, 64, 4, s))
ROW(MallocFree, void *p; cudaMalloc(&p, 1 << 20); cudaFree(p))
ROW(MemGetInfo, size_t a, b; cudaMemGetInfo(&a, &b))
ROW(PointerGetAttributes, struct cudaPointerAttributes at; cudaPointerGetAttributes(&at, d))
ROW(ErrorCall, sink = cudaMemsetAsync(NULL, 0, 4, s))
static struct cudaDeviceProp props;
ROW(GetDeviceProperties, cudaGetDeviceProperties(&props, 0))
ROW(GetDevice, int dv; cudaGetDevice(&dv))
ROW(DeviceGetAttribute, int v; cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0))
ROW(MallocHostFree, void *p; cudaMallocHost(&p, 4096); cudaFreeHost(p))
ROW(MallocPitchFree, void *p; size_t pitch; cudaMallocPitch(&p, &pitch, 1000, 100); cudaFree(p))
ROW(PointerGetAttributesHost, struct cudaPointerAttributes at; cudaPointerGetAttributes(&at, h))
ROW(StreamGetPriority, int pr; cudaStreamGetPriority(s, &pr))

/* nvcc's launch stubs: push and pop of the configuration around the launch. */
extern unsigned __cudaPushCallConfiguration(dim3, dim3, size_t, cudaStream_t);
extern cudaError_t __cudaPopCallConfiguration(dim3 *, dim3 *, size_t *, void *);
ROW(PushPopConfiguration, dim3 g = {1, 1, 1}; dim3 b = {32, 1, 1}; __cudaPushCallConfiguration(g, b, 0, s);
    dim3 g2, b2; size_t sh; cudaStream_t st; __cudaPopCallConfiguration(&g2, &b2, &sh, &st))

ROW(drv_CtxGetCurrent, CUcontext c; cuCtxGetCurrent_(&c))
ROW(drv_StreamQuery, cuStreamQuery_(s))
ROW(drv_StreamSynchronize, cuStreamSynchronize_(s))
ROW(drv_EventRecordQuery, cuEventRecord_(ev, s); cuEventQuery_(ev))
ROW(drv_MemsetAsync4, cuMemsetD8Async_((CUdeviceptr)d, 0, 4, s))
ROW(drv_MemcpyAsyncD2D4, cuMemcpyDtoDAsync_((CUdeviceptr)d, (CUdeviceptr)d + 64, 4, s))
ROW(drv_MemcpyD2H4, cuMemcpyDtoH_(h, (CUdeviceptr)d, 4))
ROW(drv_MemcpyDefault4, cuMemcpy_((CUdeviceptr)h, (CUdeviceptr)d, 4))
ROW(drv_MallocFree, CUdeviceptr p; cuMemAlloc_(&p, 1 << 20); cuMemFree_(p))
ROW(drv_MemGetInfo, size_t a, b; cuMemGetInfo_(&a, &b))
ROW(drv_GetDevice, int dv; cuCtxGetDevice_(&dv))
ROW(drv_DeviceGetAttribute, int v; cuDeviceGetAttribute_(&v, 16, 0))
ROW(drv_MallocHostFree, void *p; cuMemHostAlloc_(&p, 4096, 0); cuMemFreeHost_(p))
ROW(drv_StreamGetPriority, int pr; cuStreamGetPriority_(s, &pr))
ROW(drv_MallocPitchFree, CUdeviceptr p; size_t pitch; cuMemAllocPitch_(&p, &pitch, 1000, 100, 4); cuMemFree_(p))

static void *sym(void *lib, const char *name) {
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "callgrind: no %s in the driver\n", name);
        exit(1);
    }
    return p;
}

int main(int argc, char **argv) {
    const char *drv = getenv("CUDART_RS_DRIVER");
    void *lib = dlopen(drv ? drv : "libcuda.so.1", RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "callgrind: cannot load the driver\n");
        return 1;
    }
    cuStreamQuery_ = sym(lib, "cuStreamQuery");
    cuStreamSynchronize_ = sym(lib, "cuStreamSynchronize");
    cuEventRecord_ = sym(lib, "cuEventRecord");
    cuEventQuery_ = sym(lib, "cuEventQuery");
    cuMemsetD8Async_ = sym(lib, "cuMemsetD8Async");
    cuMemcpyDtoDAsync_ = sym(lib, "cuMemcpyDtoDAsync");
    cuMemcpyDtoH_ = sym(lib, "cuMemcpyDtoH");
    cuMemcpy_ = sym(lib, "cuMemcpy");
    cuMemAlloc_ = sym(lib, "cuMemAlloc");
    cuMemFree_ = sym(lib, "cuMemFree");
    cuMemGetInfo_ = sym(lib, "cuMemGetInfo");
    cuCtxGetCurrent_ = sym(lib, "cuCtxGetCurrent");
    cuCtxGetDevice_ = sym(lib, "cuCtxGetDevice");
    cuDeviceGetAttribute_ = sym(lib, "cuDeviceGetAttribute");
    cuMemHostAlloc_ = sym(lib, "cuMemHostAlloc");
    cuMemFreeHost_ = sym(lib, "cuMemFreeHost");
    cuStreamGetPriority_ = sym(lib, "cuStreamGetPriority");
    cuMemAllocPitch_ = sym(lib, "cuMemAllocPitch");

    if (cudaMalloc(&d, 1 << 20) || cudaMallocHost(&h, 4096) || cudaStreamCreate(&s) || cudaEventCreate(&ev)) {
        fprintf(stderr, "callgrind: setup failed\n");
        return 1;
    }
    /* A library with thread-local storage loaded after the runtime, as the real driver's own
     * libraries are (argv[1], else libstdc++). */
    dlopen(argc > 1 ? argv[1] : "libstdc++.so.6", RTLD_NOW);

    /* Each row a few times first (first-call work is not what is measured), then measured. */
    warm_GetLastError();
    warm_PeekAtLastError();
    warm_StreamQuery();
    warm_StreamSynchronize();
    warm_EventRecordQuery();
    warm_MemsetAsync4();
    warm_MemcpyAsyncD2D4();
    warm_MemcpyD2H4();
    warm_MemcpyDefault4();
    warm_Memcpy2DAsync();
    warm_Memset2DAsync();
    warm_MallocFree();
    warm_MemGetInfo();
    warm_PointerGetAttributes();
    warm_ErrorCall();
    warm_PushPopConfiguration();
    warm_GetDeviceProperties();
    warm_GetDevice();
    warm_DeviceGetAttribute();
    warm_MallocHostFree();
    warm_MallocPitchFree();
    warm_PointerGetAttributesHost();
    warm_StreamGetPriority();
    warm_drv_GetDevice();
    warm_drv_DeviceGetAttribute();
    warm_drv_MallocHostFree();
    warm_drv_StreamGetPriority();
    warm_drv_MallocPitchFree();
    warm_drv_CtxGetCurrent();
    warm_drv_StreamQuery();
    warm_drv_StreamSynchronize();
    warm_drv_EventRecordQuery();
    warm_drv_MemsetAsync4();
    warm_drv_MemcpyAsyncD2D4();
    warm_drv_MemcpyD2H4();
    warm_drv_MemcpyDefault4();
    warm_drv_MallocFree();
    warm_drv_MemGetInfo();
    cg_GetLastError();
    cg_PeekAtLastError();
    cg_StreamQuery();
    cg_StreamSynchronize();
    cg_EventRecordQuery();
    cg_MemsetAsync4();
    cg_MemcpyAsyncD2D4();
    cg_MemcpyD2H4();
    cg_MemcpyDefault4();
    cg_Memcpy2DAsync();
    cg_Memset2DAsync();
    cg_MallocFree();
    cg_MemGetInfo();
    cg_PointerGetAttributes();
    cg_ErrorCall();
    cg_PushPopConfiguration();
    cg_GetDeviceProperties();
    cg_GetDevice();
    cg_DeviceGetAttribute();
    cg_MallocHostFree();
    cg_MallocPitchFree();
    cg_PointerGetAttributesHost();
    cg_StreamGetPriority();
    cg_drv_GetDevice();
    cg_drv_DeviceGetAttribute();
    cg_drv_MallocHostFree();
    cg_drv_StreamGetPriority();
    cg_drv_MallocPitchFree();
    cg_drv_CtxGetCurrent();
    cg_drv_StreamQuery();
    cg_drv_StreamSynchronize();
    cg_drv_EventRecordQuery();
    cg_drv_MemsetAsync4();
    cg_drv_MemcpyAsyncD2D4();
    cg_drv_MemcpyD2H4();
    cg_drv_MemcpyDefault4();
    cg_drv_MallocFree();
    cg_drv_MemGetInfo();
    cudaGetLastError();
    printf("callgrind: done (%d calls per row)\n", N);
    return 0;
}
