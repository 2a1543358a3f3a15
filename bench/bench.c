/*
 * bench/bench.c: the side-by-side benchmark of the CUDA runtime (NVIDIA's or ours, whichever
 * libcudart.so.13 the dynamic linker finds) and the raw driver API.
 *
 *   bench runtime [--quick] [--only latency|queries|allocations|bandwidth|threads]
 *                             every row through the runtime API
 *   bench driver  [--quick]   the driver-API twin of each row that has one (libcuda.so.1,
 *                             loaded with dlopen; the runtime only sets up buffers and streams)
 *   bench report NV1 NV2 .. -- OURS1 .. -- DRV1 ..
 *                             the markdown table of several runs' outputs (medians over runs,
 *                             ours/NVIDIA, ours minus the driver, spread of the runs)
 *
 * Sections: latency (errors, streams, events, copies, memsets, pointer attributes,
 * launches), queries (device, function and occupancy queries, attribute getters and setters,
 * stream and event queries, versions and entry points), allocations (every kind at 4 KiB,
 * 4 MiB and 256 MiB), bandwidth, threads. A run prints one line per row,
 * "name<TAB>unit<TAB>value": ns per call (median of batches), GB/s, or Mcalls/s. bench/run.sh builds it (nvcc -cudart shared, with bench/kern.cu) and
 * alternates the three kinds of run. CUDART_RS_DRIVER names another driver library (the
 * stand-in, for a smoke test without a GPU).
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <cuda_runtime_api.h>
/* make_cudaExtent and friends: NVIDIA keeps them in driver_functions.h. */
#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#include <driver_functions.h>
#undef __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- kernels and symbol (bench/kern.cu) ---- */
void bench_chevron(cudaStream_t s, int a, float *p, size_t n);
const void *bench_kernel_k3(void);
const void *bench_kernel_coop(void);
const void *bench_symbol_addr(void);
int bench_max_potential_block_size(int *min_grid, int *block);

/* ---- driver entry points ---- */
#define DRV_LIST(X)                                                                          \
    X(cuCtxGetCurrent) X(cuCtxSetCurrent) X(cuCtxSynchronize) X(cuMemsetD8Async)              \
    X(cuMemsetD2D8Async) X(cuMemcpyDtoDAsync) X(cuMemcpyHtoDAsync) X(cuMemcpyDtoHAsync)       \
    X(cuMemcpy2DAsync) X(cuMemcpy3DAsync) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoD)     \
    X(cuMemcpy) X(cuMemcpy2D) X(cuMemcpy3D) X(cuMemsetD8) X(cuMemAlloc) X(cuMemFree)          \
    X(cuMemAllocHost) X(cuMemFreeHost) X(cuMemAllocPitch) X(cuMemAllocManaged)                \
    X(cuMemHostRegister) X(cuMemHostUnregister) X(cuPointerGetAttributes) X(cuMemGetInfo)     \
    X(cuStreamQuery) X(cuStreamSynchronize) X(cuEventRecord) X(cuEventQuery) X(cuLaunchKernel) \
    X(cuLaunchCooperativeKernel) X(cuCtxGetDevice) X(cuDeviceGetCount) X(cuDeviceGetAttribute)   \
    X(cuCtxGetLimit) X(cuCtxGetStreamPriorityRange) X(cuCtxGetCacheConfig) X(cuDriverGetVersion) \
    X(cuFuncGetAttribute) X(cuFuncSetAttribute) X(cuOccupancyMaxActiveBlocksPerMultiprocessor)    \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags) X(cuOccupancyMaxPotentialBlockSize)   \
    X(cuOccupancyAvailableDynamicSMemPerBlock) X(cuStreamIsCapturing) X(cuStreamGetPriority)      \
    X(cuStreamGetFlags) X(cuStreamGetDevice) X(cuStreamGetId) X(cuEventElapsedTime)              \
    X(cuMemHostAlloc) X(cuMemAllocAsync) X(cuMemFreeAsync) X(cuArrayCreate) X(cuArrayDestroy)  \
    X(cuStreamCreate) X(cuStreamDestroy) X(cuEventCreate) X(cuEventDestroy) X(cuStreamBeginCapture) \
    X(cuStreamEndCapture) X(cuGraphDestroy) X(cuGraphInstantiateWithFlags) X(cuGraphExecDestroy) X(cuGraphLaunch)
#define DECLARE(n) static __typeof__(n) *p_##n;
DRV_LIST(DECLARE)

static int driver_mode;
static int quick;
static __typeof__(cuGetProcAddress) *p_cuGetProcAddress;

static void die(const char *what, int code) {
    fprintf(stderr, "bench: %s failed (%d)\n", what, code);
    exit(2);
}
#define CK(call)                                                                             \
    do {                                                                                     \
        int e_ = (int)(call);                                                                \
        if (e_) die(#call, e_);                                                              \
    } while (0)

static CUresult missing_entry(void) { return CUDA_ERROR_NOT_FOUND; }

static void load_driver(void) {
    const char *path = getenv("CUDART_RS_DRIVER");
    void *h = dlopen(path ? path : "libcuda.so.1", RTLD_NOW);
    if (!h) die("dlopen libcuda.so.1", 0);
    __typeof__(cuGetProcAddress) *gpa = (__typeof__(cuGetProcAddress) *)dlsym(h, "cuGetProcAddress_v2");
    if (!gpa) die("cuGetProcAddress_v2", 0);
    p_cuGetProcAddress = gpa;
/* An entry point the driver lacks (the stand-in has not all) answers CUDA_ERROR_NOT_FOUND:
 * its rows show an error instead of the run stopping. */
#define RESOLVE(n)                                                                           \
    if (gpa(#n, (void **)&p_##n, 13000, CU_GET_PROC_ADDRESS_LEGACY_STREAM, NULL) || !p_##n) { \
        printf("# the driver has no %s\n", #n);                                               \
        p_##n = (__typeof__(p_##n))(void *)missing_entry;                                    \
    }
    DRV_LIST(RESOLVE)
}

/* ---- timing ---- */
static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int n) {
    qsort(v, n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define MAXB 64
static int batches = 15;

/* --rows A|B|...: only the rows whose names contain one of these (all rows without it). */
static const char *rows_wanted;
static int wanted(const char *name) {
    if (!rows_wanted) return 1;
    for (const char *p = rows_wanted; *p;) {
        size_t n = strcspn(p, "|");
        for (const char *q = name; *q; q++)
            if (n && !strncmp(q, p, n)) return 1;
        p += n + (p[n] == '|');
    }
    return 0;
}

/* --only A,B,...: the sections to run (all without it). */
static const char *only;
static int section(const char *name) {
    if (!only) return 1;
    size_t n = strlen(name);
    for (const char *p = only; *p;) {
        size_t m = strcspn(p, ",");
        if (m == n && !strncmp(p, name, n)) return 1;
        p += m + (p[m] == ',');
    }
    return 0;
}

static void emit(const char *name, const char *unit, double v, int err) {
    if (err)
        printf("%s\t%s\tERR %d\n", name, unit, err);
    else
        printf("%s\t%s\t%.4g\n", name, unit, v);
    fflush(stdout);
}

/* ns per call of `body` (an int expression: 0 or an accepted status), K calls a batch, the
 * median of the batches; `after` runs between batches, untimed (a stream sync for work that
 * only enqueues). Two batches first, unmeasured. */
#define MEASURE(name, K, after, body)                                                        \
    do {                                                                                     \
        double v_[MAXB];                                                                     \
        int err_ = 0;                                                                        \
        if (!wanted(name)) break;                                                            \
        for (int w_ = 0; w_ < 2; w_++) {                                                     \
            for (int i_ = 0; i_ < (K); i_++) {                                               \
                int e_ = (int)(body);                                                        \
                if (e_ && e_ != 600 && !err_) err_ = e_;                                     \
            }                                                                                \
            after;                                                                           \
        }                                                                                    \
        for (int b_ = 0; b_ < batches && !err_; b_++) {                                      \
            double t0_ = now_ns();                                                           \
            for (int i_ = 0; i_ < (K); i_++) (void)(body);                                   \
            v_[b_] = (now_ns() - t0_) / (K);                                                 \
            after;                                                                           \
        }                                                                                    \
        emit(name, "ns", err_ ? 0 : median(v_, batches), err_);                              \
    } while (0)

/* A row with a driver twin; RT1 for a runtime-only row; DRV1 for a driver-only one. */
#define ROW(name, K, rt_after, rt, drv_after, drv)                                           \
    do {                                                                                     \
        if (driver_mode)                                                                     \
            MEASURE(name, K, drv_after, drv);                                                \
        else                                                                                 \
            MEASURE(name, K, rt_after, rt);                                                  \
    } while (0)
#define RT1(name, K, after, rt)                                                              \
    do {                                                                                     \
        if (!driver_mode) MEASURE(name, K, after, rt);                                       \
    } while (0)
#define DRV1(name, K, after, drv)                                                            \
    do {                                                                                     \
        if (driver_mode) MEASURE(name, K, after, drv);                                       \
    } while (0)

/* ---- state ---- */
static cudaStream_t s;
static cudaEvent_t ev;
static void *d_small, *h_pinned, *h_pageable, *h_reg, *d_sym, *m_small;
static cudaEvent_t ev_t0, ev_t1;
static CUcontext ctx;
static CUfunction f_k3, f_coop;
static int k_a = 1;
static float *k_p;
static size_t k_n = 0;
static void *k_args[3] = {&k_a, &k_p, &k_n};
static dim3 dim3_1 = {1, 1, 1}, dim3_32 = {32, 1, 1};

static void rt_sync(void) { CK(cudaStreamSynchronize(s)); }
static void drv_sync(void) { CK(p_cuStreamSynchronize((CUstream)s)); }
#define RS rt_sync()
#define DS drv_sync()
#define NOP (void)0

/* Two-call bodies. */
static int rt_event(void) { int e = cudaEventRecord(ev, s); return e ? e : (int)cudaEventQuery(ev); }
static int drv_event(void) { int e = p_cuEventRecord((CUevent)ev, (CUstream)s); return e ? e : (int)p_cuEventQuery((CUevent)ev); }
static int drv_pointer_attrs(void *ptr) {
    CUcontext c;
    unsigned ty, managed;
    CUdeviceptr dp;
    void *hp;
    int ord;
    CUpointer_attribute a[6] = {CU_POINTER_ATTRIBUTE_CONTEXT, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
                                CU_POINTER_ATTRIBUTE_HOST_POINTER, CU_POINTER_ATTRIBUTE_IS_MANAGED, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    void *d[6] = {&c, &ty, &dp, &hp, &managed, &ord};
    return p_cuPointerGetAttributes(6, a, d, (CUdeviceptr)(uintptr_t)ptr);
}
static int rt_pointer_attrs(void *ptr) {
    struct cudaPointerAttributes a;
    return cudaPointerGetAttributes(&a, ptr);
}
static int rt_mem_info(void) { size_t f, t; return cudaMemGetInfo(&f, &t); }
static int drv_mem_info(void) { size_t f, t; return p_cuMemGetInfo(&f, &t); }
static int drv_ctx(void) { CUcontext c; return p_cuCtxGetCurrent(&c); }

/* Small pitched copies and memsets: 64 bytes x 4 rows (x 2 slices), pitch 128 (rows apart). */
#define PW 64
#define PH 4
#define PD 2
#define PP 128
static CUDA_MEMCPY2D c2d_small;
static CUDA_MEMCPY3D c3d_small;
static struct cudaMemcpy3DParms r3d_small;

static int rt_memset3d(void) {
    return cudaMemset3DAsync(make_cudaPitchedPtr(d_small, PP, PW, PH), 0, make_cudaExtent(PW, PH, PD), s);
}

static void setup_small_pitched(void) {
    char *src = (char *)d_small + 4096, *dst = (char *)d_small;
    memset(&c2d_small, 0, sizeof c2d_small);
    c2d_small.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c2d_small.srcDevice = (CUdeviceptr)(uintptr_t)src;
    c2d_small.srcPitch = PP;
    c2d_small.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c2d_small.dstDevice = (CUdeviceptr)(uintptr_t)dst;
    c2d_small.dstPitch = PP;
    c2d_small.WidthInBytes = PW;
    c2d_small.Height = PH;
    memset(&c3d_small, 0, sizeof c3d_small);
    c3d_small.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c3d_small.srcDevice = (CUdeviceptr)(uintptr_t)src;
    c3d_small.srcPitch = PP;
    c3d_small.srcHeight = PH;
    c3d_small.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c3d_small.dstDevice = (CUdeviceptr)(uintptr_t)dst;
    c3d_small.dstPitch = PP;
    c3d_small.dstHeight = PH;
    c3d_small.WidthInBytes = PW;
    c3d_small.Height = PH;
    c3d_small.Depth = PD;
    memset(&r3d_small, 0, sizeof r3d_small);
    r3d_small.srcPtr = make_cudaPitchedPtr(src, PP, PW, PH);
    r3d_small.dstPtr = make_cudaPitchedPtr(dst, PP, PW, PH);
    r3d_small.extent = make_cudaExtent(PW, PH, PD);
    r3d_small.kind = cudaMemcpyDeviceToDevice;
}

static void latency_rows(void) {
    char *d = (char *)d_small;
    CUdeviceptr dd = (CUdeviceptr)(uintptr_t)d_small;
    CUstream cs = (CUstream)s;
    int K = quick ? 200 : 1000, KQ = quick ? 50 : 100;

    RT1("cudaGetLastError", 20 * K, NOP, cudaGetLastError());
    RT1("cudaPeekAtLastError", 20 * K, NOP, cudaPeekAtLastError());
    DRV1("cuCtxGetCurrent (the runtime's context check)", 20 * K, NOP, drv_ctx());
    ROW("cudaStreamQuery idle", K, NOP, cudaStreamQuery(s), NOP, p_cuStreamQuery(cs));
    ROW("cudaEventRecord+cudaEventQuery", KQ, RS, rt_event(), DS, drv_event());
    ROW("cudaStreamSynchronize idle", K, NOP, cudaStreamSynchronize(s), NOP, p_cuStreamSynchronize(cs));

    /* Enqueue rows: a batch of calls, then an untimed stream sync. */
    ROW("cudaMemsetAsync 4 B enqueue", KQ, RS, cudaMemsetAsync(d, 0, 4, s), DS, p_cuMemsetD8Async(dd, 0, 4, cs));
    ROW("cudaMemset2DAsync 64x4 enqueue", KQ, RS, cudaMemset2DAsync(d, PP, 0, PW, PH, s), DS, p_cuMemsetD2D8Async(dd, PP, 0, PW, PH, cs));
    ROW("cudaMemset3DAsync 64x4x2 enqueue", KQ, RS, rt_memset3d(), DS, p_cuMemsetD2D8Async(dd, PP, 0, PW, PH * PD, cs));
    ROW("cudaMemcpyAsync D2D 4 B enqueue", KQ, RS, cudaMemcpyAsync(d, d + 64, 4, cudaMemcpyDeviceToDevice, s), DS,
        p_cuMemcpyDtoDAsync(dd, dd + 64, 4, cs));
    ROW("cudaMemcpyAsync H2D 4 B pinned enqueue", KQ, RS, cudaMemcpyAsync(d, h_pinned, 4, cudaMemcpyHostToDevice, s), DS,
        p_cuMemcpyHtoDAsync(dd, h_pinned, 4, cs));
    ROW("cudaMemcpyAsync D2H 4 B pinned", KQ, RS, cudaMemcpyAsync(h_pinned, d, 4, cudaMemcpyDeviceToHost, s), DS,
        p_cuMemcpyDtoHAsync(h_pinned, dd, 4, cs));
    ROW("cudaMemcpy2DAsync D2D 64x4 enqueue", KQ, RS, cudaMemcpy2DAsync(d, PP, d + 4096, PP, PW, PH, cudaMemcpyDeviceToDevice, s), DS,
        p_cuMemcpy2DAsync(&c2d_small, cs));
    ROW("cudaMemcpy3DAsync D2D 64x4x2 enqueue", KQ, RS, cudaMemcpy3DAsync(&r3d_small, s), DS, p_cuMemcpy3DAsync(&c3d_small, cs));

    /* Small synchronous copies, every direction, explicit kind and cudaMemcpyDefault. */
    CUdeviceptr hp = (CUdeviceptr)(uintptr_t)h_pinned, hg = (CUdeviceptr)(uintptr_t)h_pageable;
    ROW("cudaMemcpy H2D 4 B pinned", KQ, NOP, cudaMemcpy(d, h_pinned, 4, cudaMemcpyHostToDevice), NOP, p_cuMemcpyHtoD(dd, h_pinned, 4));
    ROW("cudaMemcpy H2D 4 B pinned (Default)", KQ, NOP, cudaMemcpy(d, h_pinned, 4, cudaMemcpyDefault), NOP, p_cuMemcpy(dd, hp, 4));
    ROW("cudaMemcpy D2H 4 B pinned", KQ, NOP, cudaMemcpy(h_pinned, d, 4, cudaMemcpyDeviceToHost), NOP, p_cuMemcpyDtoH(h_pinned, dd, 4));
    ROW("cudaMemcpy D2H 4 B pinned (Default)", KQ, NOP, cudaMemcpy(h_pinned, d, 4, cudaMemcpyDefault), NOP, p_cuMemcpy(hp, dd, 4));
    ROW("cudaMemcpy H2D 4 B pageable", KQ, NOP, cudaMemcpy(d, h_pageable, 4, cudaMemcpyHostToDevice), NOP, p_cuMemcpyHtoD(dd, h_pageable, 4));
    ROW("cudaMemcpy H2D 4 B pageable (Default)", KQ, NOP, cudaMemcpy(d, h_pageable, 4, cudaMemcpyDefault), NOP, p_cuMemcpy(dd, hg, 4));
    ROW("cudaMemcpy D2H 4 B pageable", KQ, NOP, cudaMemcpy(h_pageable, d, 4, cudaMemcpyDeviceToHost), NOP, p_cuMemcpyDtoH(h_pageable, dd, 4));
    ROW("cudaMemcpy D2H 4 B pageable (Default)", KQ, NOP, cudaMemcpy(h_pageable, d, 4, cudaMemcpyDefault), NOP, p_cuMemcpy(hg, dd, 4));
    ROW("cudaMemcpy D2D 4 B", KQ, RS, cudaMemcpy(d, d + 64, 4, cudaMemcpyDeviceToDevice), DS, p_cuMemcpyDtoD(dd, dd + 64, 4));
    ROW("cudaMemcpy D2D 4 B (Default)", KQ, RS, cudaMemcpy(d, d + 64, 4, cudaMemcpyDefault), DS, p_cuMemcpy(dd, dd + 64, 4));
    ROW("cudaMemcpy H2H 4 B pinned", KQ, NOP, cudaMemcpy(h_pinned, (char *)h_pinned + 64, 4, cudaMemcpyHostToHost), NOP, p_cuMemcpy(hp, hp + 64, 4));
    ROW("cudaMemcpy H2H 4 B pinned (Default)", KQ, NOP, cudaMemcpy(h_pinned, (char *)h_pinned + 64, 4, cudaMemcpyDefault), NOP,
        p_cuMemcpy(hp, hp + 64, 4));

    ROW("cudaPointerGetAttributes (device)", K, NOP, rt_pointer_attrs(d_small), NOP, drv_pointer_attrs(d_small));
    ROW("cudaPointerGetAttributes (pinned host)", K, NOP, rt_pointer_attrs(h_pinned), NOP, drv_pointer_attrs(h_pinned));
    ROW("cudaPointerGetAttributes (pageable host)", K, NOP, rt_pointer_attrs(h_pageable), NOP, drv_pointer_attrs(h_pageable));
    ROW("cudaPointerGetAttributes (managed)", K, NOP, rt_pointer_attrs(m_small), NOP, drv_pointer_attrs(m_small));
    ROW("cudaMemGetInfo", KQ, NOP, rt_mem_info(), NOP, drv_mem_info());

    /* Launches: a batch of launches, then an untimed sync. */
    ROW("<<<>>> launch, 3 args", KQ, RS, (bench_chevron(s, k_a, k_p, k_n), (int)cudaGetLastError()), DS,
        p_cuLaunchKernel(f_k3, 1, 1, 1, 32, 1, 1, 0, cs, k_args, NULL));
    ROW("cudaLaunchKernel, 3 args", KQ, RS, cudaLaunchKernel(bench_kernel_k3(), dim3_1, dim3_32, k_args, 0, s), DS,
        p_cuLaunchKernel(f_k3, 1, 1, 1, 32, 1, 1, 0, cs, k_args, NULL));
    ROW("cudaLaunchCooperativeKernel, 3 args", KQ, RS, cudaLaunchCooperativeKernel(bench_kernel_coop(), dim3_1, dim3_32, k_args, 0, s), DS,
        p_cuLaunchCooperativeKernel(f_coop, 1, 1, 1, 32, 1, 1, 0, cs, k_args));
    int v = 7;
    CUdeviceptr sym = (CUdeviceptr)(uintptr_t)d_sym;
    ROW("cudaMemcpyToSymbol 4 B", KQ, NOP, cudaMemcpyToSymbol(bench_symbol_addr(), &v, 4, 0, cudaMemcpyHostToDevice), NOP,
        p_cuMemcpyHtoD(sym, &v, 4));
    ROW("cudaMemcpyToSymbolAsync 4 B pinned enqueue", KQ, RS,
        cudaMemcpyToSymbolAsync(bench_symbol_addr(), h_pinned, 4, 0, cudaMemcpyHostToDevice, s), DS, p_cuMemcpyHtoDAsync(sym, h_pinned, 4, cs));
}

/* ---- device, function and occupancy queries ---- */
static int rt_props(void) { static struct cudaDeviceProp p; return cudaGetDeviceProperties(&p, 0); }
static int rt_get_device(void) { int d; return cudaGetDevice(&d); }
static int drv_get_device(void) { CUdevice d; return p_cuCtxGetDevice(&d); }
static int rt_device_count(void) { int n; return cudaGetDeviceCount(&n); }
static int drv_device_count(void) { int n; return p_cuDeviceGetCount(&n); }
static int rt_dev_attr(void) { int v; return cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0); }
static int drv_dev_attr(void) { int v; return p_cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0); }
static int rt_limit(void) { size_t v; return cudaDeviceGetLimit(&v, cudaLimitStackSize); }
static int drv_limit(void) { size_t v; return p_cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE); }
static int rt_prio_range(void) { int lo, hi; return cudaDeviceGetStreamPriorityRange(&lo, &hi); }
static int drv_prio_range(void) { int lo, hi; return p_cuCtxGetStreamPriorityRange(&lo, &hi); }
static int rt_cache_config(void) { enum cudaFuncCache c; return cudaDeviceGetCacheConfig(&c); }
static int drv_cache_config(void) { CUfunc_cache c; return p_cuCtxGetCacheConfig(&c); }
static int rt_device_flags(void) { unsigned f; return cudaGetDeviceFlags(&f); }
static int rt_driver_version(void) { int v; return cudaDriverGetVersion(&v); }
static int drv_driver_version(void) { int v; return p_cuDriverGetVersion(&v); }
static int rt_runtime_version(void) { int v; return cudaRuntimeGetVersion(&v); }
static int rt_entry_point(void) {
    void *f;
    enum cudaDriverEntryPointQueryResult q;
    return cudaGetDriverEntryPointByVersion("cuLaunchKernel", &f, 12000, cudaEnableDefault, &q);
}
static int drv_entry_point(void) {
    void *f;
    CUdriverProcAddressQueryResult q;
    return p_cuGetProcAddress("cuLaunchKernel", &f, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &q);
}
static int rt_func_attrs(void) { struct cudaFuncAttributes a; return cudaFuncGetAttributes(&a, bench_kernel_k3()); }
/* The driver's work for the same answer: each attribute asked of the function. */
static int drv_func_attrs(void) {
    int v, e = 0;
    for (int a = 0; a < 16 && !e; a++) e = p_cuFuncGetAttribute(&v, (CUfunction_attribute)a, f_k3);
    return e;
}
static int rt_func_set(void) { return cudaFuncSetAttribute(bench_kernel_k3(), cudaFuncAttributeMaxDynamicSharedMemorySize, 0); }
static int drv_func_set(void) { return p_cuFuncSetAttribute(f_k3, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 0); }
static int rt_func_set_get(void) { int e = rt_func_set(); return e ? e : rt_func_attrs(); }
static int drv_func_set_get(void) { int e = drv_func_set(); return e ? e : drv_func_attrs(); }
static int rt_func_name(void) { const char *n; return cudaFuncGetName(&n, bench_kernel_k3()); }
static int rt_func_cache(void) { return cudaFuncSetCacheConfig(bench_kernel_k3(), cudaFuncCachePreferNone); }
static int rt_occupancy(void) { int n; return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, bench_kernel_k3(), 128, 0); }
static int drv_occupancy(void) { int n; return p_cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f_k3, 128, 0); }
static int rt_occupancy_flags(void) {
    int n;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, bench_kernel_k3(), 128, 0, cudaOccupancyDisableCachingOverride);
}
static int drv_occupancy_flags(void) {
    int n;
    return p_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, f_k3, 128, 0, CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE);
}
static int rt_potential(void) { int g, b; return bench_max_potential_block_size(&g, &b); }
static int drv_potential(void) { int g, b; return p_cuOccupancyMaxPotentialBlockSize(&g, &b, f_k3, NULL, 0, 0); }
static int rt_avail_smem(void) { size_t v; return cudaOccupancyAvailableDynamicSMemPerBlock(&v, bench_kernel_k3(), 2, 128); }
static int drv_avail_smem(void) { size_t v; return p_cuOccupancyAvailableDynamicSMemPerBlock(&v, f_k3, 2, 128); }
static cudaLaunchConfig_t cluster_cfg;
static cudaLaunchAttribute cluster_attr;
static int rt_cluster_size(void) { int n; return cudaOccupancyMaxPotentialClusterSize(&n, bench_kernel_k3(), &cluster_cfg); }
static int rt_active_clusters(void) { int n; return cudaOccupancyMaxActiveClusters(&n, bench_kernel_k3(), &cluster_cfg); }
static int rt_capture_info(void) {
    enum cudaStreamCaptureStatus st;
    unsigned long long id;
    return cudaStreamGetCaptureInfo(s, &st, &id, NULL, NULL, NULL, NULL);
}
static int rt_is_capturing(void) { enum cudaStreamCaptureStatus st; return cudaStreamIsCapturing(s, &st); }
static int drv_is_capturing(void) { CUstreamCaptureStatus st; return p_cuStreamIsCapturing((CUstream)s, &st); }
static int rt_stream_priority(void) { int p; return cudaStreamGetPriority(s, &p); }
static int drv_stream_priority(void) { int p; return p_cuStreamGetPriority((CUstream)s, &p); }
static int rt_stream_flags(void) { unsigned f; return cudaStreamGetFlags(s, &f); }
static int drv_stream_flags(void) { unsigned f; return p_cuStreamGetFlags((CUstream)s, &f); }
static int rt_stream_device(void) { int d; return cudaStreamGetDevice(s, &d); }
static int drv_stream_device(void) { CUdevice d; return p_cuStreamGetDevice((CUstream)s, &d); }
static int rt_stream_id(void) { unsigned long long id; return cudaStreamGetId(s, &id); }
static int drv_stream_id(void) { unsigned long long id; return p_cuStreamGetId((CUstream)s, &id); }
static int rt_elapsed(void) { float ms; return cudaEventElapsedTime(&ms, ev_t0, ev_t1); }
static int drv_elapsed(void) { float ms; return p_cuEventElapsedTime(&ms, (CUevent)ev_t0, (CUevent)ev_t1); }

/* The calls frameworks make around each launch (CUB and Thrust ask for function attributes
 * and occupancy on every dispatch; many libraries read device properties per call). */
static void query_rows(void) {
    int K = quick ? 200 : 1000, KQ = quick ? 50 : 100;
    RT1("cudaGetDeviceProperties", KQ, NOP, rt_props());
    ROW("cudaGetDevice", K, NOP, rt_get_device(), NOP, drv_get_device());
    ROW("cudaSetDevice (the current one)", K, NOP, cudaSetDevice(0), NOP, p_cuCtxSetCurrent(ctx));
    ROW("cudaGetDeviceCount", K, NOP, rt_device_count(), NOP, drv_device_count());
    ROW("cudaDeviceGetAttribute (SM count)", K, NOP, rt_dev_attr(), NOP, drv_dev_attr());
    ROW("cudaDeviceGetLimit (stack size)", K, NOP, rt_limit(), NOP, drv_limit());
    ROW("cudaDeviceGetStreamPriorityRange", K, NOP, rt_prio_range(), NOP, drv_prio_range());
    ROW("cudaDeviceGetCacheConfig", K, NOP, rt_cache_config(), NOP, drv_cache_config());
    RT1("cudaGetDeviceFlags", K, NOP, rt_device_flags());
    ROW("cudaDriverGetVersion", K, NOP, rt_driver_version(), NOP, drv_driver_version());
    RT1("cudaRuntimeGetVersion", K, NOP, rt_runtime_version());
    ROW("cudaGetDriverEntryPointByVersion (cuLaunchKernel)", KQ, NOP, rt_entry_point(), NOP, drv_entry_point());
    ROW("cudaFuncGetAttributes (a kernel already launched)", KQ, NOP, rt_func_attrs(), NOP, drv_func_attrs());
    ROW("cudaFuncSetAttribute (max dynamic shared memory)", KQ, NOP, rt_func_set(), NOP, drv_func_set());
    ROW("cudaFuncSetAttribute+cudaFuncGetAttributes", KQ, NOP, rt_func_set_get(), NOP, drv_func_set_get());
    RT1("cudaFuncGetName", K, NOP, rt_func_name());
    RT1("cudaFuncSetCacheConfig", KQ, NOP, rt_func_cache());
    ROW("cudaOccupancyMaxActiveBlocksPerMultiprocessor", KQ, NOP, rt_occupancy(), NOP, drv_occupancy());
    ROW("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", KQ, NOP, rt_occupancy_flags(), NOP, drv_occupancy_flags());
    ROW("cudaOccupancyMaxPotentialBlockSize", KQ, NOP, rt_potential(), NOP, drv_potential());
    ROW("cudaOccupancyAvailableDynamicSMemPerBlock", KQ, NOP, rt_avail_smem(), NOP, drv_avail_smem());
    RT1("cudaOccupancyMaxPotentialClusterSize", KQ, NOP, rt_cluster_size());
    RT1("cudaOccupancyMaxActiveClusters", KQ, NOP, rt_active_clusters());
    RT1("cudaStreamGetCaptureInfo", K, NOP, rt_capture_info());
    ROW("cudaStreamIsCapturing", K, NOP, rt_is_capturing(), NOP, drv_is_capturing());
    ROW("cudaStreamGetPriority", K, NOP, rt_stream_priority(), NOP, drv_stream_priority());
    ROW("cudaStreamGetFlags", K, NOP, rt_stream_flags(), NOP, drv_stream_flags());
    ROW("cudaStreamGetDevice", K, NOP, rt_stream_device(), NOP, drv_stream_device());
    ROW("cudaStreamGetId", K, NOP, rt_stream_id(), NOP, drv_stream_id());
    ROW("cudaEventElapsedTime", K, NOP, rt_elapsed(), NOP, drv_elapsed());
}

/* ---- objects and graphs: what frameworks create per step, capture and replay ---- */
#define GRAPH_NODES 20
static int rt_stream_create(void) { cudaStream_t x; int e = cudaStreamCreate(&x); return e ? e : (int)cudaStreamDestroy(x); }
static int drv_stream_create(void) { CUstream x; int e = p_cuStreamCreate(&x, 0); return e ? e : (int)p_cuStreamDestroy(x); }
static int rt_event_create(void) { cudaEvent_t x; int e = cudaEventCreate(&x); return e ? e : (int)cudaEventDestroy(x); }
static int drv_event_create(void) { CUevent x; int e = p_cuEventCreate(&x, 0); return e ? e : (int)p_cuEventDestroy(x); }
static int rt_malloc_async_1m(void) { void *p; int e = cudaMallocAsync(&p, 1 << 20, s); return e ? e : (int)cudaFreeAsync(p, s); }
static int drv_malloc_async_1m(void) {
    CUdeviceptr p;
    int e = p_cuMemAllocAsync(&p, 1 << 20, (CUstream)s);
    return e ? e : (int)p_cuMemFreeAsync(p, (CUstream)s);
}
/* GRAPH_NODES kernel launches on s captured into a graph (a chain of kernel nodes). */
static int rt_capture(cudaGraph_t *g) {
    int e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    for (int i = 0; i < GRAPH_NODES && !e; i++) e = cudaLaunchKernel(bench_kernel_k3(), dim3_1, dim3_32, k_args, 0, s);
    int e2 = cudaStreamEndCapture(s, g);
    return e ? e : e2;
}
static int drv_capture(CUgraph *g) {
    int e = p_cuStreamBeginCapture((CUstream)s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    for (int i = 0; i < GRAPH_NODES && !e; i++) e = p_cuLaunchKernel(f_k3, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, k_args, NULL);
    int e2 = p_cuStreamEndCapture((CUstream)s, g);
    return e ? e : e2;
}
static int rt_capture_destroy(void) { cudaGraph_t g; int e = rt_capture(&g); return e ? e : (int)cudaGraphDestroy(g); }
static int drv_capture_destroy(void) { CUgraph g; int e = drv_capture(&g); return e ? e : (int)p_cuGraphDestroy(g); }
static cudaGraph_t graph;
static cudaGraphExec_t graph_exec;
static int rt_instantiate(void) {
    cudaGraphExec_t x;
    int e = cudaGraphInstantiate(&x, graph, 0);
    return e ? e : (int)cudaGraphExecDestroy(x);
}
static int drv_instantiate(void) {
    CUgraphExec x;
    int e = p_cuGraphInstantiateWithFlags(&x, (CUgraph)graph, 0);
    return e ? e : (int)p_cuGraphExecDestroy(x);
}

static void graph_rows(void) {
    int K = quick ? 200 : 1000, KQ = quick ? 50 : 100, KG = quick ? 10 : 30;
    ROW("cudaStreamCreate+cudaStreamDestroy", KQ, NOP, rt_stream_create(), NOP, drv_stream_create());
    ROW("cudaEventCreate+cudaEventDestroy", K, NOP, rt_event_create(), NOP, drv_event_create());
    ROW("cudaMallocAsync+cudaFreeAsync 1 MiB", K, RS, rt_malloc_async_1m(), DS, drv_malloc_async_1m());
    ROW("capture of 20 launches + cudaStreamEndCapture (+cudaGraphDestroy)", KG, NOP, rt_capture_destroy(), NOP,
        drv_capture_destroy());
    if (rt_capture(&graph) || cudaGraphInstantiate(&graph_exec, graph, 0)) {
        printf("# no graph: %s\n", cudaGetErrorName(cudaGetLastError()));
        return;
    }
    ROW("cudaGraphInstantiate, 20 nodes (+cudaGraphExecDestroy)", KG, NOP, rt_instantiate(), NOP, drv_instantiate());
    ROW("cudaGraphLaunch, 20 nodes", KG, RS, cudaGraphLaunch(graph_exec, s), DS, p_cuGraphLaunch((CUgraphExec)graph_exec, (CUstream)s));
    cudaGraphExecDestroy(graph_exec);
    cudaGraphDestroy(graph);
}

/* ---- allocations: every kind at 4 KiB, 4 MiB and 256 MiB ---- */
static const struct {
    size_t bytes;
    const char *label;
    size_t pw, ph;      /* cudaMallocPitch: pw x ph bytes */
    size_t xw, xh, xd;  /* cudaMalloc3D: xw x xh x xd */
    size_t aw, ah;      /* cudaMallocArray of float: aw x ah */
} alloc_sizes[] = {
    {4 << 10, "4 KiB", 64, 64, 64, 16, 4, 32, 32},
    {4 << 20, "4 MiB", 4096, 1024, 1024, 1024, 4, 1024, 1024},
    {256 << 20, "256 MiB", 16384, 16384, 4096, 4096, 4, 8192, 8192},
};
static size_t az; /* the index of the size being measured */

static int rt_malloc(void) { void *p; int e = cudaMalloc(&p, alloc_sizes[az].bytes); return e ? e : (int)cudaFree(p); }
static int drv_malloc(void) { CUdeviceptr p; int e = p_cuMemAlloc(&p, alloc_sizes[az].bytes); return e ? e : (int)p_cuMemFree(p); }
static int rt_malloc_host(void) { void *p; int e = cudaMallocHost(&p, alloc_sizes[az].bytes); return e ? e : (int)cudaFreeHost(p); }
static int rt_host_alloc(void) { void *p; int e = cudaHostAlloc(&p, alloc_sizes[az].bytes, cudaHostAllocDefault); return e ? e : (int)cudaFreeHost(p); }
static int rt_host_alloc_mapped(void) {
    void *p;
    int e = cudaHostAlloc(&p, alloc_sizes[az].bytes, cudaHostAllocPortable | cudaHostAllocMapped);
    return e ? e : (int)cudaFreeHost(p);
}
/* NVIDIA's runtime's cudaMallocHost is cuMemHostAlloc with no flags (its disassembly). */
static int drv_host_alloc(void) { void *p; int e = p_cuMemHostAlloc(&p, alloc_sizes[az].bytes, 0); return e ? e : (int)p_cuMemFreeHost(p); }
static int drv_host_alloc_mapped(void) {
    void *p;
    int e = p_cuMemHostAlloc(&p, alloc_sizes[az].bytes, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
    return e ? e : (int)p_cuMemFreeHost(p);
}
static int drv_alloc_host(void) { void *p; int e = p_cuMemAllocHost(&p, alloc_sizes[az].bytes); return e ? e : (int)p_cuMemFreeHost(p); }
static int rt_malloc_pitch(void) {
    void *p;
    size_t pitch;
    int e = cudaMallocPitch(&p, &pitch, alloc_sizes[az].pw, alloc_sizes[az].ph);
    return e ? e : (int)cudaFree(p);
}
/* Element size 4: what NVIDIA's runtime passes (its disassembly). */
static int drv_malloc_pitch(void) {
    CUdeviceptr p;
    size_t pitch;
    int e = p_cuMemAllocPitch(&p, &pitch, alloc_sizes[az].pw, alloc_sizes[az].ph, 4);
    return e ? e : (int)p_cuMemFree(p);
}
static int rt_malloc_3d(void) {
    struct cudaPitchedPtr p;
    int e = cudaMalloc3D(&p, make_cudaExtent(alloc_sizes[az].xw, alloc_sizes[az].xh, alloc_sizes[az].xd));
    return e ? e : (int)cudaFree(p.ptr);
}
static int drv_malloc_3d(void) {
    CUdeviceptr p;
    size_t pitch;
    int e = p_cuMemAllocPitch(&p, &pitch, alloc_sizes[az].xw, alloc_sizes[az].xh * alloc_sizes[az].xd, 4);
    return e ? e : (int)p_cuMemFree(p);
}
static int rt_managed(void) {
    void *p;
    int e = cudaMallocManaged(&p, alloc_sizes[az].bytes, cudaMemAttachGlobal);
    return e ? e : (int)cudaFree(p);
}
static int drv_managed(void) {
    CUdeviceptr p;
    int e = p_cuMemAllocManaged(&p, alloc_sizes[az].bytes, CU_MEM_ATTACH_GLOBAL);
    return e ? e : (int)p_cuMemFree(p);
}
static int rt_register(void) {
    int e = cudaHostRegister(h_reg, alloc_sizes[az].bytes, cudaHostRegisterDefault);
    return e ? e : (int)cudaHostUnregister(h_reg);
}
static int drv_register(void) { int e = p_cuMemHostRegister(h_reg, alloc_sizes[az].bytes, 0); return e ? e : (int)p_cuMemHostUnregister(h_reg); }
static int rt_malloc_async(void) {
    void *p;
    int e = cudaMallocAsync(&p, alloc_sizes[az].bytes, s);
    return e ? e : (int)cudaFreeAsync(p, s);
}
static int drv_malloc_async(void) {
    CUdeviceptr p;
    int e = p_cuMemAllocAsync(&p, alloc_sizes[az].bytes, (CUstream)s);
    return e ? e : (int)p_cuMemFreeAsync(p, (CUstream)s);
}
static int rt_malloc_array(void) {
    cudaArray_t a;
    struct cudaChannelFormatDesc d = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    int e = cudaMallocArray(&a, &d, alloc_sizes[az].aw, alloc_sizes[az].ah, 0);
    return e ? e : (int)cudaFreeArray(a);
}
static int drv_malloc_array(void) {
    CUarray a;
    CUDA_ARRAY_DESCRIPTOR d = {alloc_sizes[az].aw, alloc_sizes[az].ah, CU_AD_FORMAT_FLOAT, 1};
    int e = p_cuArrayCreate(&a, &d);
    return e ? e : (int)p_cuArrayDestroy(a);
}

static void alloc_rows(void) {
    char name[128];
    int saved = batches;
    for (az = 0; az < sizeof alloc_sizes / sizeof alloc_sizes[0]; az++) {
        size_t n = alloc_sizes[az].bytes;
        const char *l = alloc_sizes[az].label;
        /* Calls per batch: many small ones; pinning and registration take about 0.35 ms per
         * MiB, so few of those; the 256 MiB rows one call a batch and fewer batches. */
        int K = n <= (4 << 10) ? (quick ? 20 : 50) : n <= (4 << 20) ? (quick ? 5 : 10) : 1;
        int KP = n <= (4 << 10) ? K : n <= (4 << 20) ? (quick ? 3 : 5) : 1;
        batches = n > (4 << 20) ? (quick ? 3 : 5) : saved;
#define AROW(fmt, k, rt, drv)                                                                \
    do {                                                                                     \
        snprintf(name, sizeof name, fmt, l);                                                 \
        ROW(name, k, NOP, rt, NOP, drv);                                                     \
    } while (0)
        AROW("cudaMalloc+cudaFree %s", K, rt_malloc(), drv_malloc());
        AROW("cudaMallocHost+cudaFreeHost %s", KP, rt_malloc_host(), drv_host_alloc());
        AROW("cudaHostAlloc(Default)+cudaFreeHost %s", KP, rt_host_alloc(), drv_host_alloc());
        AROW("cudaHostAlloc(Portable|Mapped)+cudaFreeHost %s", KP, rt_host_alloc_mapped(), drv_host_alloc_mapped());
        snprintf(name, sizeof name, "cuMemAllocHost+cuMemFreeHost %s (driver only)", l);
        DRV1(name, KP, NOP, drv_alloc_host());
        snprintf(name, sizeof name, "cudaMallocPitch+cudaFree %s (%zux%zu)", l, alloc_sizes[az].pw, alloc_sizes[az].ph);
        ROW(name, K, NOP, rt_malloc_pitch(), NOP, drv_malloc_pitch());
        snprintf(name, sizeof name, "cudaMalloc3D+cudaFree %s (%zux%zux%zu)", l, alloc_sizes[az].xw, alloc_sizes[az].xh,
                 alloc_sizes[az].xd);
        ROW(name, K, NOP, rt_malloc_3d(), NOP, drv_malloc_3d());
        AROW("cudaMallocManaged+cudaFree %s", K, rt_managed(), drv_managed());
        AROW("cudaHostRegister+cudaHostUnregister %s", KP, rt_register(), drv_register());
        AROW("cudaMallocAsync+cudaFreeAsync %s", K, rt_malloc_async(), drv_malloc_async());
        snprintf(name, sizeof name, "cudaMallocArray+cudaFreeArray %s (float %zux%zu)", l, alloc_sizes[az].aw, alloc_sizes[az].ah);
        ROW(name, K, NOP, rt_malloc_array(), NOP, drv_malloc_array());
#undef AROW
    }
    batches = saved;
    if (driver_mode)
        CK(p_cuStreamSynchronize((CUstream)s));
    else
        CK(cudaStreamSynchronize(s));
}

/* ---- bandwidth ---- */
static void *d_a, *d_b, *h_big_pinned, *h_big_pageable;
static const size_t big = (size_t)1 << 30;

static void all_sync(void) {
    if (driver_mode)
        CK(p_cuCtxSynchronize());
    else
        CK(cudaDeviceSynchronize());
}

/* GB/s of `body` moving `bytes`: `reps` calls then a device sync, timed; the median of
 * `samples` such runs. */
#define BW(name, bytes, body)                                                                \
    do {                                                                                     \
        size_t by_ = (bytes);                                                                \
        int reps_ = by_ <= (64 << 10) ? 100 : by_ <= (4 << 20) ? 20 : 1;                     \
        int samples_ = by_ >= big ? 3 : 5;                                                   \
        double v_[MAXB];                                                                     \
        int err_ = (int)(body);                                                              \
        all_sync();                                                                          \
        for (int s_ = 0; s_ < samples_ && !err_; s_++) {                                     \
            double t0_ = now_ns();                                                           \
            for (int r_ = 0; r_ < reps_; r_++) (void)(body);                                 \
            all_sync();                                                                      \
            v_[s_] = (double)by_ * reps_ / (now_ns() - t0_);                                 \
        }                                                                                    \
        emit(name, "GB/s", err_ ? 0 : median(v_, samples_), err_);                           \
    } while (0)

static const struct {
    size_t bytes;
    const char *label;
    size_t w, h, d; /* 2D: w x h; 3D: w x (h/4) x 4 */
} sizes[] = {
    {4 << 10, "4 KiB", 64, 64, 4},
    {1 << 20, "1 MiB", 1024, 1024, 4},
    {64 << 20, "64 MiB", 8192, 8192, 4},
    {(size_t)1 << 30, "1 GiB", 32768, 32768, 4},
};

static int rt_2d(size_t w, size_t h) { return cudaMemcpy2D(d_b, w, d_a, w, w, h, cudaMemcpyDeviceToDevice); }
static int drv_2d(size_t w, size_t h) {
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = (CUdeviceptr)(uintptr_t)d_a;
    c.dstDevice = (CUdeviceptr)(uintptr_t)d_b;
    c.srcPitch = c.dstPitch = c.WidthInBytes = w;
    c.Height = h;
    return p_cuMemcpy2D(&c);
}
static int rt_3d(size_t w, size_t h, size_t dep) {
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(d_a, w, w, h);
    p.dstPtr = make_cudaPitchedPtr(d_b, w, w, h);
    p.extent = make_cudaExtent(w, h, dep);
    p.kind = cudaMemcpyDeviceToDevice;
    return cudaMemcpy3D(&p);
}
static int drv_3d(size_t w, size_t h, size_t dep) {
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = (CUdeviceptr)(uintptr_t)d_a;
    c.dstDevice = (CUdeviceptr)(uintptr_t)d_b;
    c.srcPitch = c.dstPitch = c.WidthInBytes = w;
    c.srcHeight = c.dstHeight = c.Height = h;
    c.Depth = dep;
    return p_cuMemcpy3D(&c);
}

static void bandwidth_rows(size_t max) {
    CUdeviceptr a = (CUdeviceptr)(uintptr_t)d_a, b = (CUdeviceptr)(uintptr_t)d_b;
    char name[128];
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0] && sizes[i].bytes <= max; i++) {
        size_t n = sizes[i].bytes, w = sizes[i].w, h = sizes[i].h;
        const char *l = sizes[i].label;
#define BWROW(fmt, rt, drv)                                                                  \
    do {                                                                                     \
        snprintf(name, sizeof name, fmt, l);                                                 \
        if (driver_mode)                                                                     \
            BW(name, n, drv);                                                                \
        else                                                                                 \
            BW(name, n, rt);                                                                 \
    } while (0)
        BWROW("H2D pinned %s", cudaMemcpy(d_a, h_big_pinned, n, cudaMemcpyHostToDevice), p_cuMemcpyHtoD(a, h_big_pinned, n));
        BWROW("D2H pinned %s", cudaMemcpy(h_big_pinned, d_a, n, cudaMemcpyDeviceToHost), p_cuMemcpyDtoH(h_big_pinned, a, n));
        BWROW("H2D pageable %s", cudaMemcpy(d_a, h_big_pageable, n, cudaMemcpyHostToDevice), p_cuMemcpyHtoD(a, h_big_pageable, n));
        BWROW("D2H pageable %s", cudaMemcpy(h_big_pageable, d_a, n, cudaMemcpyDeviceToHost), p_cuMemcpyDtoH(h_big_pageable, a, n));
        BWROW("D2D %s", cudaMemcpy(d_b, d_a, n, cudaMemcpyDeviceToDevice), p_cuMemcpyDtoD(b, a, n));
        BWROW("memset %s", cudaMemset(d_a, 1, n), p_cuMemsetD8(a, 1, n));
        BWROW("2D D2D pitch = width %s", rt_2d(w, h), drv_2d(w, h));
        BWROW("3D D2D whole slices %s", rt_3d(w, h / 4, 4), drv_3d(w, h / 4, 4));
    }
}

/* ---- threads ---- */
static pthread_barrier_t start_line;
static double thread_secs;

struct worker {
    pthread_t t;
    double rate; /* calls per second */
    int err;
};

static void *worker_main(void *arg) {
    struct worker *w = arg;
    cudaStream_t ws;
    void *buf;
    CK(cudaSetDevice(0));
    CK(cudaStreamCreateWithFlags(&ws, cudaStreamNonBlocking));
    CK(cudaMalloc(&buf, 256));
    if (driver_mode) CK(p_cuCtxSetCurrent(ctx));
    CUdeviceptr db = (CUdeviceptr)(uintptr_t)buf;
    pthread_barrier_wait(&start_line);
    double busy = 0, calls = 0, end = now_ns() + thread_secs * 1e9;
    while (now_ns() < end) {
        double t0 = now_ns();
        for (int i = 0; i < 64; i++) {
            int e;
            if (driver_mode) {
                e = p_cuLaunchKernel(f_k3, 1, 1, 1, 32, 1, 1, 0, (CUstream)ws, k_args, NULL);
                e = e ? e : (int)p_cuMemcpyDtoDAsync(db, db + 128, 4, (CUstream)ws);
            } else {
                bench_chevron(ws, k_a, k_p, k_n);
                e = cudaMemcpyAsync(buf, (char *)buf + 128, 4, cudaMemcpyDeviceToDevice, ws);
            }
            if (e && !w->err) w->err = e;
        }
        busy += now_ns() - t0;
        calls += 128;
        if (!driver_mode && !w->err) w->err = cudaGetLastError(); /* the launches' errors */
        if (driver_mode)
            p_cuStreamSynchronize((CUstream)ws);
        else
            cudaStreamSynchronize(ws);
    }
    w->rate = calls / busy * 1e9;
    cudaFree(buf);
    cudaStreamDestroy(ws);
    return NULL;
}

/* A dispatch's questions, as CUB asks them, from every thread at once: device properties,
 * function attributes, occupancy (runtime runs only: the runtime's caches are what is
 * measured). */
static void *query_worker_main(void *arg) {
    struct worker *w = arg;
    CK(cudaSetDevice(0));
    pthread_barrier_wait(&start_line);
    double busy = 0, calls = 0, end = now_ns() + thread_secs * 1e9;
    while (now_ns() < end) {
        double t0 = now_ns();
        for (int i = 0; i < 64; i++) {
            int e = rt_props();
            e = e ? e : rt_func_attrs();
            e = e ? e : rt_occupancy();
            if (e && !w->err) w->err = e;
        }
        busy += now_ns() - t0;
        calls += 3 * 64;
    }
    w->rate = calls / busy * 1e9;
    return NULL;
}

static void thread_rows(void) {
    int counts[] = {1, 4, 16};
    thread_secs = quick ? 0.1 : 0.3;
    for (unsigned c = 0; c < 2 * sizeof counts / sizeof counts[0]; c++) {
        int n = counts[c % 3], queries = c >= 3;
        if (queries && driver_mode) break;
        struct worker w[16];
        memset(w, 0, sizeof w);
        pthread_barrier_init(&start_line, NULL, n);
        for (int i = 0; i < n; i++) pthread_create(&w[i].t, NULL, queries ? query_worker_main : worker_main, &w[i]);
        double total = 0;
        int err = 0;
        for (int i = 0; i < n; i++) {
            pthread_join(w[i].t, NULL);
            total += w[i].rate;
            if (w[i].err) err = w[i].err;
        }
        pthread_barrier_destroy(&start_line);
        char name[160];
        snprintf(name, sizeof name, "%d thread%s: %s", n, n > 1 ? "s" : "",
                 queries ? "cudaGetDeviceProperties + cudaFuncGetAttributes + cudaOccupancy..., at once"
                         : "launch + cudaMemcpyAsync, own streams");
        emit(name, "Mcalls/s", total / 1e6, err);
    }
}

/* ---- main ---- */
int main(int argc, char **argv) {
    if (argc < 2 || (strcmp(argv[1], "runtime") && strcmp(argv[1], "driver"))) {
        fprintf(stderr, "usage: bench runtime|driver [--quick] [--only SECTION,...] [--rows 'PART|PART...']\n"
                        "  sections: latency, queries, graphs, allocations, bandwidth, threads (bench/report.py makes the table)\n");
        return 2;
    }
    driver_mode = !strcmp(argv[1], "driver");
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        if (!strcmp(argv[i], "--rows") && i + 1 < argc) rows_wanted = argv[++i];
    }
    if (quick) batches = 9;
    double t0 = now_ns();
    load_driver();

    Dl_info info;
    int rtv = 0;
    cudaRuntimeGetVersion(&rtv);
    printf("# mode %s, runtime %d from %s\n", argv[1], rtv, dladdr((void *)cudaGetLastError, &info) && info.dli_fname ? info.dli_fname : "?");

    CK(cudaSetDevice(0));
    CK(cudaFree(0));
    CK(p_cuCtxGetCurrent(&ctx));
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    CK(cudaMalloc(&d_small, 1 << 20));
    CK(cudaMalloc((void **)&k_p, 4096));
    CK(cudaMallocHost(&h_pinned, 4096));
    h_pageable = malloc(4096);
    h_reg = aligned_alloc(4096, 256 << 20);
    if (!h_pageable || !h_reg) die("malloc", 0);
    memset(h_pageable, 0, 4096);
    memset(h_reg, 0, 256 << 20);
    CK(cudaMallocManaged(&m_small, 4096, cudaMemAttachGlobal));
    /* Two timing events, recorded and done, for cudaEventElapsedTime. */
    CK(cudaEventCreate(&ev_t0));
    CK(cudaEventCreate(&ev_t1));
    CK(cudaEventRecord(ev_t0, s));
    CK(cudaEventRecord(ev_t1, s));
    CK(cudaEventSynchronize(ev_t1));
    cluster_attr.id = cudaLaunchAttributeClusterDimension;
    cluster_attr.val.clusterDim.x = 2;
    cluster_attr.val.clusterDim.y = 1;
    cluster_attr.val.clusterDim.z = 1;
    cluster_cfg.gridDim = (dim3){2, 1, 1};
    cluster_cfg.blockDim = (dim3){128, 1, 1};
    cluster_cfg.stream = s;
    cluster_cfg.attrs = &cluster_attr;
    cluster_cfg.numAttrs = 1;
    /* Without loadable kernels (the stand-in driver) the rows that need them show errors. */
    if (cudaGetSymbolAddress(&d_sym, bench_symbol_addr()) || cudaGetFuncBySymbol(&f_k3, bench_kernel_k3()) ||
        cudaGetFuncBySymbol(&f_coop, bench_kernel_coop()))
        printf("# kernels and symbols unavailable: %s\n", cudaGetErrorName(cudaGetLastError()));
    setup_small_pitched();

    if (section("latency")) latency_rows();
    if (section("queries")) query_rows();
    if (section("graphs")) graph_rows();
    if (section("allocations")) alloc_rows();
    if (section("bandwidth")) {
        /* --quick stops at 64 MiB. */
        size_t n = quick ? (64 << 20) : big;
        CK(cudaMalloc(&d_a, n));
        CK(cudaMalloc(&d_b, n));
        CK(cudaMallocHost(&h_big_pinned, n));
        h_big_pageable = malloc(n);
        if (!h_big_pageable) die("malloc", 0);
        memset(h_big_pageable, 3, n);
        memset(h_big_pinned, 3, n);
        CK(cudaMemset(d_a, 5, n));
        bandwidth_rows(n);
        CK(cudaFree(d_a));
        CK(cudaFree(d_b));
        CK(cudaFreeHost(h_big_pinned));
        free(h_big_pageable);
    }
    if (section("threads")) thread_rows();
    printf("# %s run took %.1f s\n", argv[1], (now_ns() - t0) / 1e9);
    return 0;
}
