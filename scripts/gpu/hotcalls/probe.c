/* The calls bench/run.sh's slow rows make, one of each between labelled marks, for a driver
 * trace (scripts/gpu/drvtrace, DRVTRACE_TIME=1): which driver calls a runtime makes for each, with
 * which arguments and flags, and how long each took in the driver. Run under NVIDIA's runtime
 * and under ours by scripts/gpu/hotcalls-check.sh; the runtime is whichever libcudart.so.13 the
 * dynamic linker finds. The kernels are PTX loaded with cudaLibraryLoadData (no nvcc needed).
 * Prints each call's result and its time in microseconds (the median of a few, with the
 * first apart where that differs: a first call may fill a cache). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cuda_runtime_api.h>

static void (*mark_fn)(const char *);

static void mark(const char *label) {
    if (mark_fn) mark_fn(label);
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Runs BODY (an int expression) once between marks (traced), then REPS more times untraced in
 * time but still logged by the trace; prints the first call's time and the median of the
 * others. */
#define PROBE(label, reps, body)                                                           \
    do {                                                                                   \
        mark(label);                                                                       \
        double t0_ = now_us();                                                             \
        int e_ = (int)(body);                                                              \
        double first_ = now_us() - t0_;                                                    \
        mark("end");                                                                       \
        double v_[64];                                                                     \
        int n_ = (reps) > 64 ? 64 : (reps);                                                \
        for (int i_ = 0; i_ < n_; i_++) {                                                  \
            double t1_ = now_us();                                                         \
            (void)(body);                                                                  \
            v_[i_] = now_us() - t1_;                                                       \
        }                                                                                  \
        qsort(v_, n_, sizeof v_[0], cmp_d);                                                \
        printf("%-55s %-28s first %9.2f us, then median %9.2f us of %d\n", label, cudaGetErrorName((cudaError_t)e_), \
               first_, n_ ? v_[n_ / 2] : 0.0, n_);                                         \
    } while (0)

static const char ptx[] =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".visible .entry probe_k(.param .u64 out)\n{\n"
    "  .reg .u64 %rd<3>;\n  .reg .u32 %r<2>;\n  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd1, %rd1, %rd2;\n"
    "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";

static size_t sz;
static dim3 dim3_1(void) { dim3 d = {1, 1, 1}; return d; }
static dim3 dim3_32(void) { dim3 d = {32, 1, 1}; return d; }
static int host_alloc(unsigned flags) { void *p; int e = cudaHostAlloc(&p, sz, flags); return e ? e : (int)cudaFreeHost(p); }
static int malloc_host(void) { void *p; int e = cudaMallocHost(&p, sz); return e ? e : (int)cudaFreeHost(p); }
static int malloc_dev(void) { void *p; int e = cudaMalloc(&p, sz); return e ? e : (int)cudaFree(p); }
static int malloc_pitch(size_t w, size_t h) {
    void *p;
    size_t pitch;
    int e = cudaMallocPitch(&p, &pitch, w, h);
    return e ? e : (int)cudaFree(p);
}
static int malloc_3d(size_t w, size_t h, size_t d) {
    struct cudaPitchedPtr p;
    struct cudaExtent x = {w, h, d};
    int e = cudaMalloc3D(&p, x);
    return e ? e : (int)cudaFree(p.ptr);
}
static int props(void) { static struct cudaDeviceProp p; return cudaGetDeviceProperties(&p, 0); }
static int dev_attr(void) { int v; return cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0); }
static int get_device(void) { int d; return cudaGetDevice(&d); }
static int set_device(void) { return cudaSetDevice(0); }
static int device_count(void) { int n; return cudaGetDeviceCount(&n); }
static int limit(void) { size_t v; return cudaDeviceGetLimit(&v, cudaLimitStackSize); }
static int device_flags(void) { unsigned f; return cudaGetDeviceFlags(&f); }
static int entry_point(void) {
    void *f;
    enum cudaDriverEntryPointQueryResult q;
    return cudaGetDriverEntryPointByVersion("cuLaunchKernel", &f, 12000, cudaEnableDefault, &q);
}
static void *pinned, *managed;
static int pointer_attrs(void *p) { struct cudaPointerAttributes a; return cudaPointerGetAttributes(&a, p); }
static cudaStream_t stream;
static int capture_info(void) {
    enum cudaStreamCaptureStatus st;
    unsigned long long id;
    return cudaStreamGetCaptureInfo(stream, &st, &id, NULL, NULL, NULL, NULL);
}
static int stream_priority(void) { int p; return cudaStreamGetPriority(stream, &p); }
static cudaEvent_t e0, e1;
static int elapsed(void) { float ms; return cudaEventElapsedTime(&ms, e0, e1); }
static cudaKernel_t k;
static int func_attrs(void) { struct cudaFuncAttributes a; return cudaFuncGetAttributes(&a, (const void *)k); }
static int func_set(void) { return cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, 0); }
static int occupancy(void) { int n; return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)k, 128, 0); }
static int func_name(void) { const char *n; return cudaFuncGetName(&n, (const void *)k); }
static int stream_create(void) { cudaStream_t s; int e = cudaStreamCreate(&s); return e ? e : (int)cudaStreamDestroy(s); }
static int event_create(void) { cudaEvent_t v; int e = cudaEventCreate(&v); return e ? e : (int)cudaEventDestroy(v); }
static int malloc_async(void) {
    void *p;
    int e = cudaMallocAsync(&p, 1 << 20, stream);
    return e ? e : (int)cudaFreeAsync(p, stream);
}
/* A graph of 20 kernel nodes in a chain (probe_k on 32 threads), captured from a stream. */
static void *kout;
static void *kargs[1] = {&kout};
static int capture20(cudaGraph_t *g) {
    int e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    for (int i = 0; !e && i < 20; i++) e = cudaLaunchKernel((const void *)k, dim3_1(), dim3_32(), kargs, 0, stream);
    int e2 = cudaStreamEndCapture(stream, g);
    return e ? e : e2;
}
static int capture_end(void) { cudaGraph_t g; int e = capture20(&g); return e ? e : (int)cudaGraphDestroy(g); }
static cudaGraph_t graph;
static cudaGraphExec_t graph_exec;
static int instantiate(void) {
    cudaGraphExec_t x;
    int e = cudaGraphInstantiate(&x, graph, 0);
    return e ? e : (int)cudaGraphExecDestroy(x);
}
static int graph_launch(void) { return cudaGraphLaunch(graph_exec, stream); }

int main(void) {
    const char *lib = getenv("PROBE_MARK_LIB");
    void *h = lib ? dlopen(lib, RTLD_NOW | RTLD_NOLOAD) : NULL;
    if (!h) h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    int rtv = 0, drv = 0;
    cudaRuntimeGetVersion(&rtv);
    cudaDriverGetVersion(&drv);
    cudaFree(0);
    if (!h) h = dlopen(lib ? lib : "libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (h) mark_fn = (void (*)(const char *))dlsym(h, "drvtrace_mark");
    Dl_info info;
    printf("runtime %d from %s, driver %d, marks %s\n", rtv,
           dladdr((void *)cudaGetLastError, &info) && info.dli_fname ? info.dli_fname : "?", drv, mark_fn ? "on" : "off");

    props(); /* the first call may read and keep the properties: traced apart */
    PROBE("cudaGetDeviceProperties (a second call)", 20, props());
    PROBE("cudaDeviceGetAttribute", 20, dev_attr());
    PROBE("cudaGetDevice", 20, get_device());
    PROBE("cudaSetDevice (the current one)", 20, set_device());
    PROBE("cudaGetDeviceCount", 20, device_count());
    PROBE("cudaDeviceGetLimit", 20, limit());
    PROBE("cudaGetDeviceFlags", 20, device_flags());
    PROBE("cudaGetDriverEntryPointByVersion", 20, entry_point());
    if (cudaMallocHost(&pinned, 4096) || cudaMallocManaged(&managed, 4096, cudaMemAttachGlobal) ||
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) || cudaEventCreate(&e0) || cudaEventCreate(&e1) ||
        cudaEventRecord(e0, stream) || cudaEventRecord(e1, stream) || cudaEventSynchronize(e1)) {
        printf("setup: %s\n", cudaGetErrorName(cudaGetLastError()));
        return 1;
    }
    PROBE("cudaPointerGetAttributes (pinned host)", 20, pointer_attrs(pinned));
    PROBE("cudaPointerGetAttributes (managed)", 20, pointer_attrs(managed));
    PROBE("cudaStreamGetCaptureInfo", 20, capture_info());
    PROBE("cudaStreamGetPriority", 20, stream_priority());
    PROBE("cudaEventElapsedTime", 20, elapsed());
    sz = 4 << 10;
    PROBE("cudaMallocHost+cudaFreeHost 4 KiB", 10, malloc_host());
    sz = 4 << 20;
    PROBE("cudaMallocHost+cudaFreeHost 4 MiB", 10, malloc_host());
    PROBE("cudaHostAlloc(Default)+cudaFreeHost 4 MiB", 10, host_alloc(cudaHostAllocDefault));
    PROBE("cudaHostAlloc(Portable|Mapped)+cudaFreeHost 4 MiB", 10, host_alloc(cudaHostAllocPortable | cudaHostAllocMapped));
    PROBE("cudaHostAlloc(WriteCombined)+cudaFreeHost 4 MiB", 10, host_alloc(cudaHostAllocWriteCombined));
    sz = 256 << 20;
    PROBE("cudaMallocHost+cudaFreeHost 256 MiB", 2, malloc_host());
    sz = 4 << 20;
    PROBE("cudaMalloc+cudaFree 4 MiB", 10, malloc_dev());
    PROBE("cudaMallocPitch+cudaFree 4096x1024", 10, malloc_pitch(4096, 1024));
    PROBE("cudaMallocPitch+cudaFree 1000x100", 10, malloc_pitch(1000, 100));
    PROBE("cudaMalloc3D+cudaFree 1024x1024x4", 10, malloc_3d(1024, 1024, 4));
    PROBE("cudaMallocPitch+cudaFree 16384x16384", 2, malloc_pitch(16384, 16384));

    cudaLibrary_t l = NULL;
    if (cudaLibraryLoadData(&l, ptx, NULL, NULL, 0, NULL, NULL, 0) || cudaLibraryGetKernel(&k, l, "probe_k")) {
        printf("library: %s\n", cudaGetErrorName(cudaGetLastError()));
        return 1;
    }
    PROBE("cudaFuncGetAttributes (the first)", 0, func_attrs());
    PROBE("cudaFuncGetAttributes (again)", 20, func_attrs());
    PROBE("cudaFuncSetAttribute", 20, func_set());
    PROBE("cudaFuncGetAttributes after a set", 20, func_attrs());
    PROBE("cudaOccupancyMaxActiveBlocksPerMultiprocessor", 20, occupancy());
    PROBE("cudaFuncGetName", 20, func_name());
    PROBE("cudaStreamCreate+cudaStreamDestroy", 20, stream_create());
    PROBE("cudaEventCreate+cudaEventDestroy", 20, event_create());
    PROBE("cudaMallocAsync+cudaFreeAsync 1 MiB", 20, malloc_async());
    if (cudaMalloc(&kout, 4096) || capture20(&graph) || cudaGraphInstantiate(&graph_exec, graph, 0)) {
        printf("graph: %s\n", cudaGetErrorName(cudaGetLastError()));
        return 1;
    }
    PROBE("capture of 20 launches + cudaStreamEndCapture", 10, capture_end());
    PROBE("cudaGraphInstantiate+cudaGraphExecDestroy, 20 nodes", 10, instantiate());
    PROBE("cudaGraphLaunch, 20 nodes", 20, graph_launch());
    cudaStreamSynchronize(stream);
    mark("cudaLibraryUnload");
    printf("cudaLibraryUnload: %s\n", cudaGetErrorName(cudaLibraryUnload(l)));
    mark("end");
    return 0;
}
