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

/* The driver entry points the driver rows call, looked up in the stand-in by name. */
#define DRIVER(X)                                                                        \
    X(cuStreamQuery, CUresult (*)(CUstream))                                             \
    X(cuStreamSynchronize, CUresult (*)(CUstream))                                       \
    X(cuEventRecord, CUresult (*)(CUevent, CUstream))                                    \
    X(cuEventQuery, CUresult (*)(CUevent))                                               \
    X(cuMemsetD8Async, CUresult (*)(CUdeviceptr, unsigned char, size_t, CUstream))       \
    X(cuMemcpyDtoDAsync, CUresult (*)(CUdeviceptr, CUdeviceptr, size_t, CUstream))       \
    X(cuMemcpyDtoH, CUresult (*)(void *, CUdeviceptr, size_t))                           \
    X(cuMemcpy, CUresult (*)(CUdeviceptr, CUdeviceptr, size_t))                          \
    X(cuMemAlloc, CUresult (*)(CUdeviceptr *, size_t))                                   \
    X(cuMemFree, CUresult (*)(CUdeviceptr))                                              \
    X(cuMemGetInfo, CUresult (*)(size_t *, size_t *))                                    \
    X(cuCtxGetCurrent, CUresult (*)(CUcontext *))                                        \
    X(cuCtxGetDevice, CUresult (*)(int *))                                               \
    X(cuDeviceGetAttribute, CUresult (*)(int *, int, int))                               \
    X(cuMemHostAlloc, CUresult (*)(void **, size_t, unsigned))                           \
    X(cuMemFreeHost, CUresult (*)(void *))                                               \
    X(cuStreamGetPriority, CUresult (*)(CUstream, int *))                                \
    X(cuMemAllocPitch, CUresult (*)(CUdeviceptr *, size_t *, size_t, size_t, unsigned))  \
    X(cuStreamCreate, CUresult (*)(CUstream *, unsigned))                                \
    X(cuStreamDestroy, CUresult (*)(CUstream))                                           \
    X(cuEventCreate, CUresult (*)(CUevent *, unsigned))                                  \
    X(cuEventDestroy, CUresult (*)(CUevent))                                             \
    X(cuMemAllocAsync, CUresult (*)(CUdeviceptr *, size_t, CUstream))                    \
    X(cuMemFreeAsync, CUresult (*)(CUdeviceptr, CUstream))                               \
    X(cuStreamGetCaptureInfo, CUresult (*)(CUstream, int *, unsigned long long *, void *, void *, void *, size_t *))
#define DECLARE(name, type) static __typeof__(type) name##_;
DRIVER(DECLARE)

static cudaStream_t s;
static cudaEvent_t ev;
static void *d, *h;
static volatile int sink;

/* extern for nvcc's launch stubs: push and pop of the configuration around the launch. */
extern unsigned __cudaPushCallConfiguration(dim3, dim3, size_t, cudaStream_t);
extern cudaError_t __cudaPopCallConfiguration(dim3 *, dim3 *, size_t *, void *);
static struct cudaDeviceProp props;

/* Every row: its name and the work it repeats. A runtime row NAME with a twin drv_NAME that
 * makes, straight to the stand-in, the driver calls our runtime makes for it: "ours minus
 * driver" is the runtime's own cost (the number bench/callgrind-baseline.txt holds). */
#define ROWS(X)                                                                                                  \
    X(GetLastError, sink = cudaGetLastError())                                                                   \
    X(PeekAtLastError, sink = cudaPeekAtLastError())                                                             \
    X(StreamQuery, cudaStreamQuery(s))                                                                           \
    X(drv_StreamQuery, cuStreamQuery_(s))                                                                        \
    X(StreamSynchronize, cudaStreamSynchronize(s))                                                               \
    X(drv_StreamSynchronize, cuStreamSynchronize_(s))                                                            \
    X(EventRecordQuery, cudaEventRecord(ev, s); cudaEventQuery(ev))                                              \
    X(drv_EventRecordQuery, cuEventRecord_(ev, s); cuEventQuery_(ev))                                            \
    X(MemsetAsync4, cudaMemsetAsync(d, 0, 4, s))                                                                 \
    X(drv_MemsetAsync4, cuMemsetD8Async_((CUdeviceptr)d, 0, 4, s))                                               \
    X(MemcpyAsyncD2D4, cudaMemcpyAsync(d, (char *)d + 64, 4, cudaMemcpyDeviceToDevice, s))                       \
    X(drv_MemcpyAsyncD2D4, cuMemcpyDtoDAsync_((CUdeviceptr)d, (CUdeviceptr)d + 64, 4, s))                        \
    X(MemcpyD2H4, cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost))                                                   \
    X(drv_MemcpyD2H4, cuMemcpyDtoH_(h, (CUdeviceptr)d, 4))                                                       \
    X(MemcpyDefault4, cudaMemcpy(h, d, 4, cudaMemcpyDefault))                                                    \
    X(drv_MemcpyDefault4, cuMemcpy_((CUdeviceptr)h, (CUdeviceptr)d, 4))                                          \
    X(Memcpy2DAsync, cudaMemcpy2DAsync(d, 64, (char *)d + 4096, 64, 64, 4, cudaMemcpyDeviceToDevice, s))         \
    X(Memset2DAsync, cudaMemset2DAsync(d, 64, 0, 64, 4, s))                                                      \
    X(MallocFree, void *p; cudaMalloc(&p, 1 << 20); cudaFree(p))                                                 \
    X(drv_MallocFree, CUdeviceptr p; cuMemAlloc_(&p, 1 << 20); cuMemFree_(p))                                   \
    X(MemGetInfo, size_t a, b; cudaMemGetInfo(&a, &b))                                                           \
    X(drv_MemGetInfo, size_t a, b; cuMemGetInfo_(&a, &b))                                                        \
    X(PointerGetAttributes, struct cudaPointerAttributes at; cudaPointerGetAttributes(&at, d))                   \
    X(PointerGetAttributesHost, struct cudaPointerAttributes at; cudaPointerGetAttributes(&at, h))               \
    X(ErrorCall, sink = cudaMemsetAsync(NULL, 0, 4, s))                                                          \
    X(PushPopConfiguration, dim3 g = {1, 1, 1}; dim3 b = {32, 1, 1}; __cudaPushCallConfiguration(g, b, 0, s);   \
      dim3 g2, b2; size_t sh; cudaStream_t st; __cudaPopCallConfiguration(&g2, &b2, &sh, &st))                   \
    X(GetDeviceProperties, cudaGetDeviceProperties(&props, 0))                                                   \
    X(GetDevice, int dv; cudaGetDevice(&dv))                                                                     \
    X(DriverGetVersion, int v; cudaDriverGetVersion(&v))                                                         \
    X(drv_GetDevice, int dv; cuCtxGetDevice_(&dv))                                                               \
    X(DeviceGetAttribute, int v; cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0))                  \
    X(drv_DeviceGetAttribute, int v; cuDeviceGetAttribute_(&v, 16, 0))                                           \
    X(MallocHostFree, void *p; cudaMallocHost(&p, 4096); cudaFreeHost(p))                                        \
    X(drv_MallocHostFree, void *p; cuMemHostAlloc_(&p, 4096, 0); cuMemFreeHost_(p))                              \
    X(MallocPitchFree, void *p; size_t pitch; cudaMallocPitch(&p, &pitch, 1000, 100); cudaFree(p))               \
    X(drv_MallocPitchFree, CUdeviceptr p; size_t pitch; cuMemAllocPitch_(&p, &pitch, 1000, 100, 4); cuMemFree_(p)) \
    X(StreamGetPriority, int pr; cudaStreamGetPriority(s, &pr))                                                  \
    X(drv_StreamGetPriority, int pr; cuStreamGetPriority_(s, &pr))                                               \
    X(StreamCreateDestroy, cudaStream_t x; cudaStreamCreate(&x); cudaStreamDestroy(x))                           \
    X(drv_StreamCreateDestroy, CUstream x; cuStreamCreate_(&x, 0); cuStreamDestroy_(x))                          \
    X(EventCreateDestroy, cudaEvent_t x; cudaEventCreate(&x); cudaEventDestroy(x))                               \
    X(drv_EventCreateDestroy, CUevent x; cuEventCreate_(&x, 0); cuEventDestroy_(x))                              \
    X(MallocAsyncFreeAsync, void *p; cudaMallocAsync(&p, 1 << 20, s); cudaFreeAsync(p, s))                       \
    X(drv_MallocAsyncFreeAsync, CUdeviceptr p = 0; cuMemAllocAsync_(&p, 1 << 20, s); cuMemFreeAsync_(p, s))      \
    X(StreamGetCaptureInfo, enum cudaStreamCaptureStatus cs; unsigned long long id;                              \
      cudaStreamGetCaptureInfo(s, &cs, &id, NULL, NULL, NULL, NULL))                                             \
    X(drv_StreamGetCaptureInfo, int cs; unsigned long long id; cuStreamGetCaptureInfo_(s, &cs, &id, NULL, NULL, NULL, NULL)) \
    X(drv_CtxGetCurrent, CUcontext c; cuCtxGetCurrent_(&c))

/* cg_NAME makes the call N times (measured); warm_NAME the same, before (not measured). */
#define DEFINE(name, ...)                                                                \
    NOINLINE void cg_##name(void) {                                                      \
        for (int i = 0; i < N; i++) { __VA_ARGS__; }                                     \
    }                                                                                    \
    NOINLINE void warm_##name(void) {                                                    \
        for (int i = 0; i < 10; i++) { __VA_ARGS__; }                                    \
    }
ROWS(DEFINE)

/* What a driver row calls for an entry point the driver lacks: CUDA_ERROR_NOT_SUPPORTED,
 * what our runtime answers then too. */
static CUresult missing(void) { return 801; }

static void *sym(void *lib, const char *name) {
    void *p = dlsym(lib, name);
    if (!p) {
        printf("callgrind: the driver has no %s\n", name);
        p = (void *)missing;
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
#define RESOLVE(name, type) name##_ = (type)sym(lib, #name);
    DRIVER(RESOLVE)

    if (cudaMalloc(&d, 1 << 20) || cudaMallocHost(&h, 4096) || cudaStreamCreate(&s) || cudaEventCreate(&ev)) {
        fprintf(stderr, "callgrind: setup failed\n");
        return 1;
    }
    /* A library with thread-local storage loaded after the runtime, as the real driver's own
     * libraries are (argv[1], else libstdc++). */
    dlopen(argc > 1 ? argv[1] : "libstdc++.so.6", RTLD_NOW);

    /* Each row a few times first (first-call work is not what is measured), then measured. */
#define WARM(name, ...) warm_##name();
#define MEASURED(name, ...) cg_##name();
    ROWS(WARM)
    ROWS(MEASURED)
    cudaGetLastError();
    printf("callgrind: done (%d calls per row)\n", N);
    return 0;
}
