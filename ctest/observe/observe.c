/*
 * observe.c: a program for the observation modes of cudart-rs (CUDART_RS_TRACE, _SUMMARY,
 * _LEAKS, _TIMELINE, _CHECKED), run by scripts/test/observe-check.sh, which reads what it prints
 * and what the runtime wrote and checks that they agree.
 *
 * It allocates memory and handles of every kind, copies in every direction between
 * pageable, pinned, managed and device memory and arrays, sets memory, launches a kernel
 * (registered as nvcc's code does, from PTX: it runs on a GPU, and fails to load on the
 * stand-in driver), frees some of what it made and leaks the rest, frees one pointer twice
 * and one it never had, and prints:
 *   - `SHOW`-style lines: each call's result, as the ctest programs do;
 *   - `EXPECT key value` lines: what the reports must say (bytes copied by direction and by
 *     memory kind, memory held at exit and at its peak, leaks, launches), counted by the
 *     program itself as it goes (pitches are the runtime's, so they are printed, not assumed);
 *   - `LEAK kind size` lines: exactly what it leaks.
 * With OBSERVE_CHECKED=1 (set with CUDART_RS_CHECKED=1) it also passes bogus, destroyed and
 * freed handles and pointers that would crash a runtime without checks, and a stream made
 * through the driver API, which must stay usable. With OBSERVE_SIGNAL=1 it ends by raising
 * SIGTERM instead of returning.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "../nvcc_registration.h"

static int failed = 0;

static cudaError_t show(const char *label, cudaError_t e) {
    printf("%s: %s\n", label, cudaGetErrorName(e));
    return e;
}

#define OK(call)                                                                      \
    do {                                                                              \
        cudaError_t e_ = (call);                                                      \
        if (e_ != cudaSuccess) {                                                      \
            printf("FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call,               \
                   cudaGetErrorName(e_));                                             \
            failed++;                                                                 \
        }                                                                             \
    } while (0)

/* What the reports must say, counted as the program goes. */
static unsigned long long held_device, peak_device, held_managed, peak_managed, held_pinned,
    peak_pinned, held_registered, peak_registered;
static unsigned long long dir_bytes[5], dir_copies[5]; /* HtoD DtoH DtoD HtoH peer */
enum { HTOD, DTOH, DTOD, HTOH, PEER };
static const char *dir_name[5] = {"HtoD", "DtoH", "DtoD", "HtoH", "peer"};

static void hold(unsigned long long *held, unsigned long long *peak, long long delta) {
    *held += delta;
    if (*held > *peak) *peak = *held;
}

static void copied(int dir, const char *kinds, unsigned long long bytes) {
    dir_bytes[dir] += bytes;
    dir_copies[dir]++;
    printf("EXPECT copy %s %llu\n", kinds, bytes);
}

/* The kernel, as PTX: out[i] = i for i < n. */
static const char ptx[] =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry observe_fill(.param .u64 out, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p1, %r5, %r1;\n"
    "  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r5, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r5;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

/* The host stub the kernel is registered with (never called). */
static void observe_fill_stub(void) {}

typedef int (*cuStreamCreate_t)(void **, unsigned);
typedef int (*cuStreamDestroy_t)(void *);

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const int checked = getenv("OBSERVE_CHECKED") && atoi(getenv("OBSERVE_CHECKED"));

    /* Kernel registration, as nvcc's static constructors do. */
    void **bin = __cudaRegisterFatBinary((void *)ptx);
    __cudaRegisterFunction(bin, (const char *)observe_fill_stub, (char *)"observe_fill", "observe_fill", -1, NULL,
                           NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(bin);

    /* ---- allocations of every kind ---- */
    void *d1 = NULL, *d2 = NULL, *d3 = NULL, *dp = NULL, *m1 = NULL, *h1 = NULL, *h2 = NULL;
    size_t pitch = 0;
    OK(show("cudaMalloc 4096", cudaMalloc(&d1, 4096)));
    hold(&held_device, &peak_device, 4096);
    OK(show("cudaMalloc 1024", cudaMalloc(&d2, 1024)));
    hold(&held_device, &peak_device, 1024);
    OK(show("cudaMalloc 2048", cudaMalloc(&d3, 2048)));
    hold(&held_device, &peak_device, 2048);
    OK(show("cudaMallocPitch", cudaMallocPitch(&dp, &pitch, 100, 10)));
    printf("pitch = %zu\n", pitch);
    hold(&held_device, &peak_device, (long long)(pitch * 10));
    struct cudaPitchedPtr p3;
    struct cudaExtent e3 = {64, 4, 2};
    OK(show("cudaMalloc3D", cudaMalloc3D(&p3, e3)));
    printf("pitch3d = %zu\n", p3.pitch);
    hold(&held_device, &peak_device, (long long)(p3.pitch * 4 * 2));
    OK(show("cudaMallocManaged", cudaMallocManaged(&m1, 2048, cudaMemAttachGlobal)));
    hold(&held_managed, &peak_managed, 2048);
    OK(show("cudaMallocHost", cudaMallocHost(&h1, 512)));
    hold(&held_pinned, &peak_pinned, 512);
    OK(show("cudaHostAlloc", cudaHostAlloc(&h2, 256, cudaHostAllocPortable | cudaHostAllocMapped)));
    hold(&held_pinned, &peak_pinned, 256);
    char *reg = aligned_alloc(4096, 8192);
    OK(show("cudaHostRegister", cudaHostRegister(reg, 8192, cudaHostRegisterDefault)));
    hold(&held_registered, &peak_registered, 8192);

    cudaStream_t s1, s2;
    cudaEvent_t e1, e2;
    OK(show("cudaStreamCreate", cudaStreamCreate(&s1)));
    OK(show("cudaStreamCreateWithFlags", cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking)));
    OK(show("cudaEventCreate", cudaEventCreate(&e1)));
    OK(show("cudaEventCreateWithFlags", cudaEventCreateWithFlags(&e2, cudaEventDisableTiming)));

    struct cudaChannelFormatDesc fd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t a1, a2;
    cudaMipmappedArray_t mm;
    OK(show("cudaMallocArray", cudaMallocArray(&a1, &fd, 64, 16, 0)));
    OK(show("cudaMalloc3DArray", cudaMalloc3DArray(&a2, &fd, make_cudaExtent(8, 8, 2), 0)));
    OK(show("cudaMallocMipmappedArray", cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(16, 16, 0), 2, 0)));
    /* Graphs, where the driver has them (the stand-in has none). */
    cudaGraph_t g1 = NULL, g2 = NULL;
    const int graphs = show("cudaGraphCreate", cudaGraphCreate(&g1, 0)) == cudaSuccess;
    if (graphs) OK(show("cudaGraphCreate", cudaGraphCreate(&g2, 0)));
    cudaGetLastError();

    /* ---- copies ---- */
    static char host[8192], host2[8192];
    memset(host, 7, sizeof host);
    OK(show("cudaMemcpy HtoD", cudaMemcpy(d1, host, 4096, cudaMemcpyHostToDevice)));
    copied(HTOD, "pageable->device", 4096);
    OK(show("cudaMemcpy DtoH", cudaMemcpy(host2, d1, 4096, cudaMemcpyDeviceToHost)));
    copied(DTOH, "device->pageable", 4096);
    OK(show("cudaMemcpy DtoD default", cudaMemcpy(d2, d1, 1024, cudaMemcpyDefault)));
    copied(DTOD, "device->device", 1024);
    OK(show("cudaMemcpy HtoH", cudaMemcpy(host2, host, 100, cudaMemcpyHostToHost)));
    copied(HTOH, "pageable->pageable", 100);
    OK(show("cudaMemcpyAsync pinned HtoD", cudaMemcpyAsync(d1, h1, 512, cudaMemcpyHostToDevice, s1)));
    copied(HTOD, "pinned->device", 512);
    OK(show("cudaMemcpyAsync DtoH pinned", cudaMemcpyAsync(h2, d1, 256, cudaMemcpyDeviceToHost, s1)));
    copied(DTOH, "device->pinned", 256);
    OK(show("cudaMemcpy registered HtoD", cudaMemcpy(d1, reg + 16, 1000, cudaMemcpyDefault)));
    copied(HTOD, "pinned->device", 1000);
    OK(show("cudaMemcpy managed DtoD", cudaMemcpy(m1, d1, 2048, cudaMemcpyDefault)));
    copied(DTOD, "device->managed", 2048);
    OK(show("cudaMemcpy2D HtoD", cudaMemcpy2D(dp, pitch, host, 100, 100, 10, cudaMemcpyHostToDevice)));
    copied(HTOD, "pageable->device", 1000);
    OK(show("cudaMemcpy2DToArray", cudaMemcpy2DToArray(a1, 0, 0, host, 256, 256, 16, cudaMemcpyHostToDevice)));
    copied(HTOD, "pageable->array", 4096);
    struct cudaMemcpy3DParms cp;
    memset(&cp, 0, sizeof cp);
    cp.srcArray = a1;
    cp.dstPtr = make_cudaPitchedPtr(host2, 256, 64, 16);
    cp.extent = make_cudaExtent(64, 16, 1);
    cp.kind = cudaMemcpyDeviceToHost;
    OK(show("cudaMemcpy3D array to host", cudaMemcpy3D(&cp)));
    copied(DTOH, "array->pageable", 4096);
    OK(show("cudaStreamSynchronize", cudaStreamSynchronize(s1)));

    /* ---- memsets ---- */
    OK(show("cudaMemset", cudaMemset(d1, 0, 4096)));
    OK(show("cudaMemsetAsync", cudaMemsetAsync(d2, 1, 1024, s2)));
    printf("EXPECT memset 2 5120\n");

    /* ---- a failing call, for the trace's warn level ---- */
    show("cudaMemcpy invalid kind", cudaMemcpy(d1, host, 16, (enum cudaMemcpyKind)17));
    show("cudaGetLastError", cudaGetLastError());

    /* ---- the kernel: three launches ---- */
    unsigned n = 1024;
    void *args[] = {&d1, &n};
    dim3 grid = {4, 1, 1}, block = {256, 1, 1};
    int launched = 0;
    for (int i = 0; i < 3; i++) {
        cudaError_t e = cudaLaunchKernel((const void *)observe_fill_stub, grid, block, args, 0, s1);
        if (i == 0) show("cudaLaunchKernel", e);
        launched += e == cudaSuccess;
    }
    cudaGetLastError();
    printf("EXPECT launches observe_fill %d %d\n", launched, 3 - launched);
    if (launched) {
        unsigned out[1024];
        OK(cudaMemcpyAsync(out, d1, sizeof out, cudaMemcpyDeviceToHost, s1));
        copied(DTOH, "device->pageable", sizeof out);
        OK(cudaStreamSynchronize(s1));
        int good = 1;
        for (unsigned i = 0; i < n; i++) good &= out[i] == i;
        printf("kernel wrote: %s\n", good ? "yes" : "no");
        if (!good) failed++;
    }
    OK(show("cudaDeviceSynchronize", cudaDeviceSynchronize()));

    /* ---- frees (and what is left leaked) ---- */
    OK(show("cudaFree d3", cudaFree(d3)));
    hold(&held_device, &peak_device, -2048);
    show("cudaFree d3 again", cudaFree(d3)); /* double free: the driver refuses it */
    show("cudaFree unknown", cudaFree((void *)(uintptr_t)0x10000)); /* never allocated */
    show("cudaGetLastError", cudaGetLastError());
    OK(show("cudaFree pitched", cudaFree(dp)));
    hold(&held_device, &peak_device, -(long long)(pitch * 10));
    OK(show("cudaFree 3D", cudaFree(p3.ptr)));
    hold(&held_device, &peak_device, -(long long)(p3.pitch * 8));
    OK(show("cudaFree managed", cudaFree(m1)));
    hold(&held_managed, &peak_managed, -2048);
    OK(show("cudaFreeHost", cudaFreeHost(h1)));
    hold(&held_pinned, &peak_pinned, -512);
    OK(show("cudaHostUnregister", cudaHostUnregister(reg)));
    hold(&held_registered, &peak_registered, -8192);
    OK(show("cudaStreamDestroy", cudaStreamDestroy(s1)));
    OK(show("cudaEventDestroy", cudaEventDestroy(e1)));
    OK(show("cudaFreeArray", cudaFreeArray(a1)));
    OK(show("cudaFreeMipmappedArray", cudaFreeMipmappedArray(mm)));
    if (graphs) OK(show("cudaGraphDestroy", cudaGraphDestroy(g1)));

    if (checked) {
        /* Each of these would crash a runtime that passed it to the driver unchecked. */
        show("checked: cudaStreamDestroy(0x10)", cudaStreamDestroy((cudaStream_t)(uintptr_t)0x10));
        show("checked: cudaStreamSynchronize(destroyed)", cudaStreamSynchronize(s1));
        show("checked: cudaStreamQuery(0x20)", cudaStreamQuery((cudaStream_t)(uintptr_t)0x20));
        show("checked: cudaEventRecord(destroyed)", cudaEventRecord(e1, 0));
        show("checked: cudaEventSynchronize(0x30)", cudaEventSynchronize((cudaEvent_t)(uintptr_t)0x30));
        show("checked: cudaFreeArray(freed)", cudaFreeArray(a1));
        show("checked: cudaFreeMipmappedArray(0x40)", cudaFreeMipmappedArray((cudaMipmappedArray_t)(uintptr_t)0x40));
        if (graphs) show("checked: cudaGraphDestroy(destroyed)", cudaGraphDestroy(g1));
        show("checked: cudaGraphDestroy(0x60)", cudaGraphDestroy((cudaGraph_t)(uintptr_t)0x60));
        show("checked: cudaMemcpy to freed", cudaMemcpy(d3, host, 64, cudaMemcpyDefault));
        show("checked: cudaFreeHost(freed)", cudaFreeHost(h1));
        show("checked: cudaStreamWaitEvent(s2, 0x50)", cudaStreamWaitEvent(s2, (cudaEvent_t)(uintptr_t)0x50, 0));
        show("checked: last", cudaGetLastError());
        /* A stream the program made through the driver API stays usable. (By version: the plain
           call asks for the runtime's own version, which a 13.0 driver refuses under 13.5.) */
        void *fn = NULL, *fn2 = NULL;
        enum cudaDriverEntryPointQueryResult q;
        OK(cudaGetDriverEntryPointByVersion("cuStreamCreate", &fn, 12000, cudaEnableDefault, &q));
        OK(cudaGetDriverEntryPointByVersion("cuStreamDestroy", &fn2, 12000, cudaEnableDefault, &q));
        if (fn && fn2) {
            void *ds = NULL;
            printf("cuStreamCreate: %d\n", ((cuStreamCreate_t)fn)(&ds, 0));
            OK(show("checked: cudaStreamSynchronize(driver stream)", cudaStreamSynchronize((cudaStream_t)ds)));
            OK(show("checked: cudaMemsetAsync on driver stream", cudaMemsetAsync(d1, 0, 16, (cudaStream_t)ds)));
            printf("EXPECT memset 3 5136\n");
            printf("cuStreamDestroy: %d\n", ((cuStreamDestroy_t)fn2)(ds));
        }
    }

    /* What is left: leaked. */
    printf("LEAK device 1024\n");                    /* d2 */
    printf("LEAK device 4096\n");                    /* d1 */
    printf("LEAK pinned 256\n");                     /* h2 */
    printf("LEAK stream 0\n");                       /* s2 */
    printf("LEAK event 0\n");                        /* e2 */
    printf("LEAK array %d\n", 8 * 8 * 2 * 4);        /* a2 */
    if (graphs) printf("LEAK graph 0\n");           /* g2 */
    printf("EXPECT held arrays %d %d\n", 8 * 8 * 2 * 4, 64 * 16 * 4 + 8 * 8 * 2 * 4 + (16 * 16 + 8 * 8) * 4);
    printf("EXPECT misuse double-free 1\n");
    printf("EXPECT misuse unknown-free 1\n");
    printf("EXPECT held device %llu %llu\n", held_device, peak_device);
    printf("EXPECT held managed %llu %llu\n", held_managed, peak_managed);
    printf("EXPECT held pinned %llu %llu\n", held_pinned, peak_pinned);
    printf("EXPECT held registered %llu %llu\n", held_registered, peak_registered);
    for (int i = 0; i < 5; i++) printf("EXPECT dir %s %llu %llu\n", dir_name[i], dir_copies[i], dir_bytes[i]);

    __cudaUnregisterFatBinary(bin);
    free(reg);
    printf("%s\n", failed ? "RESULT: FAIL" : "RESULT: ok");
    if (getenv("OBSERVE_SIGNAL") && atoi(getenv("OBSERVE_SIGNAL"))) {
        raise(SIGTERM);
    }
    return failed ? 1 : 0;
}
