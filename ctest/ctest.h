/*
 * ctest.h: what every C test of cudart-rs shares.
 *
 * A test prints what it observed, one line per fact, so that the runner can run it under
 * NVIDIA's runtime and under ours and compare the outputs line for line. It also checks
 * what must hold whatever the runtime (bytes read back, values written) with CHECK, and
 * exits non-zero if any check failed.
 *
 * Print only what is the same on every run of the same machine: error names, values read
 * back, sizes and pitches, attribute values, booleans. Never raw pointers, timings or free
 * memory figures.
 *
 * Markers, in a comment at the top of the file, read by scripts/test/ctest.sh:
 *   ctest: gpu      needs a real GPU (kernels, peers, ...): "skipped: no GPU" on the stand-in
 *   ctest: cu       a CUDA source (the .cu files in ctest/): nvcc for 13, clang for 12
 *   ctest: gpu2     needs two devices or more (ct_devices_or_skip); NVIDIA's output is
 *                   recorded per device count, in expected/<abi>/multi<N>/
 *
 * Compiled with gcc against include/cuda_runtime_api.h (ours, -DCUDART_RS_ABI12 for the 12
 * ABI) and with nvcc against NVIDIA's cuda_runtime_api.h. Use `CUDART_VERSION >= 13000` to
 * tell the ABIs apart.
 *
 * The CUDA sources (the .cu tests) are built with nvcc for the 13 ABI and with clang against
 * NVIDIA's CUDA 12.9 headers for the 12 ABI (scripts/gpu/cu12-build.sh). CT_CLANG_CUDA is defined
 * in a clang build: clang has no __managed__ variables, so a test keeps those parts under
 * `#ifndef CT_CLANG_CUDA` (and prints that they are not in this build).
 */
#ifndef CUDART_RS_CTEST_H
#define CUDART_RS_CTEST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime_api.h>
#ifndef CUDART_RS_CUDA_RUNTIME_API_H
/* make_cudaExtent, make_cudaPos and make_cudaPitchedPtr: NVIDIA keeps them in
 * driver_functions.h, which its cuda_runtime.h includes so (our header has them). */
#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#include <driver_functions.h>
#undef __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#endif

#if defined(__clang__) && defined(__CUDA__)
#define CT_CLANG_CUDA 1
#endif

static int ct_failed = 0;

/* Output goes out line by line, so that a run killed by a signal shows its last line. */
__attribute__((constructor)) static void ct_line_buffered(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

/* Whether the n bytes at p are all v. */
static inline int ct_all_bytes(const void *p, size_t n, unsigned char v) {
    for (size_t i = 0; i < n; i++)
        if (((const unsigned char *)p)[i] != v) return 0;
    return 1;
}

/* Whether the n ints at p are all v. */
static inline int ct_all_int(const int *p, size_t n, int v) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != v) return 0;
    return 1;
}

/* A cudaMemoryType's name (cudaPointerAttributes' type), "unknown" for any other value. */
static inline const char *ct_memory_type_name(int t) {
    switch (t) {
    case cudaMemoryTypeUnregistered: return "cudaMemoryTypeUnregistered";
    case cudaMemoryTypeHost: return "cudaMemoryTypeHost";
    case cudaMemoryTypeDevice: return "cudaMemoryTypeDevice";
    case cudaMemoryTypeManaged: return "cudaMemoryTypeManaged";
    default: return "unknown";
    }
}

/* Prints "label: cudaErrorName" for the result of a call and returns it. */
#define SHOW(label, call) ct_show((label), (call))
static cudaError_t ct_show(const char *label, cudaError_t e) {
    printf("%s: %s\n", label, cudaGetErrorName(e));
    return e;
}

/* Prints a named integer value. */
#define SHOWI(label, v) printf("%s = %lld\n", (label), (long long)(v))
#define SHOWU(label, v) printf("%s = %llu\n", (label), (unsigned long long)(v))

/* A condition that must hold on any correct runtime. */
#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                       \
            ct_failed++;                                                                 \
        }                                                                                \
    } while (0)

/* A call that must succeed. */
#define OK(call) ct_ok(__FILE__, __LINE__, #call, (call))
static inline void ct_ok(const char *file, int line, const char *text, cudaError_t e) {
    if (e != cudaSuccess) {
        printf("FAIL %s:%d: %s -> %s\n", file, line, text, cudaGetErrorName(e));
        ct_failed++;
    }
}

/* The end of a test: each of these frees or destroys every handle of its list, in order, and
 * each call must succeed (as OK); a list ends at NULL. */
#define CT_RELEASE_EACH(name, type, call)                                                \
    __attribute__((sentinel)) static inline void name(type first, ...) {                 \
        va_list ap;                                                                      \
        va_start(ap, first);                                                             \
        for (type h = first; h; h = va_arg(ap, type)) {                                  \
            cudaError_t ct_e = call(h);                                                  \
            if (ct_e != cudaSuccess) {                                                   \
                printf("FAIL %s -> %s\n", #call, cudaGetErrorName(ct_e));               \
                ct_failed++;                                                             \
            }                                                                            \
        }                                                                                \
        va_end(ap);                                                                      \
    }
CT_RELEASE_EACH(ct_free_device, void *, cudaFree)
CT_RELEASE_EACH(ct_free_host, void *, cudaFreeHost)
CT_RELEASE_EACH(ct_free_arrays, cudaArray_t, cudaFreeArray)
CT_RELEASE_EACH(ct_destroy_streams, cudaStream_t, cudaStreamDestroy)
CT_RELEASE_EACH(ct_destroy_events, cudaEvent_t, cudaEventDestroy)
CT_RELEASE_EACH(ct_destroy_graphs, cudaGraph_t, cudaGraphDestroy)
CT_RELEASE_EACH(ct_destroy_graph_execs, cudaGraphExec_t, cudaGraphExecDestroy)
#undef CT_RELEASE_EACH

/* Prints the thread's last error (and clears it), so tests pin NVIDIA's recording rules. */
#define SHOW_LAST(label) printf("%s last: %s\n", (label), cudaGetErrorName(cudaGetLastError()))

/* SHOW, then SHOW_LAST: "label: result", then "last_label last: <the last error>" (cleared). */
#define SHOW_AND_LAST(label, call, last_label) ct_show_and_last((label), (call), (last_label))
static inline cudaError_t ct_show_and_last(const char *label, cudaError_t e, const char *last_label) {
    ct_show(label, e);
    SHOW_LAST(last_label);
    return e;
}

/* cudaPointerGetAttributes of p into *a (first filled with 0x7f bytes), printed as
 * "label: error" and, when it failed, the thread's last error; whether it succeeded. */
static inline int ct_pointer_attributes(const char *label, const void *p, struct cudaPointerAttributes *a) {
    memset(a, 0x7f, sizeof *a);
    cudaError_t e = cudaPointerGetAttributes(a, p);
    printf("%s: %s\n", label, cudaGetErrorName(e));
    if (e != cudaSuccess) SHOW_LAST(label);
    return e == cudaSuccess;
}

/* "  label: result" and, where it failed, ", last <the last error>" (which that clears), on
 * one line; the result. */
#define SHOW_CALL(label, call) ct_show_call((label), (call))
static inline cudaError_t ct_show_call(const char *label, cudaError_t r) {
    printf("  %s: %s", label, cudaGetErrorName(r));
    if (r != cudaSuccess) printf(", last %s", cudaGetErrorName(cudaGetLastError()));
    printf("\n");
    return r;
}

/* A call's result and the last error after it (cleared), on one line. */
#define SHOW_CLEARED(label, call) ct_show_cleared((label), (call))
static inline void ct_show_cleared(const char *label, cudaError_t r) {
    printf("%s: %s, last %s\n", label, cudaGetErrorName(r), cudaGetErrorName(cudaGetLastError()));
}

/* Runs a scenario in a process of its own (after a fault the device may stay unusable in the
 * process that faulted); the parent makes no CUDA call. Returns 1 if the scenario failed. */
static inline int ct_in_child(void (*scenario)(void)) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        scenario();
        fflush(stdout);
        _exit(ct_failed ? 1 : 0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        printf("FAIL scenario exited with status %d\n", st);
        return 1;
    }
    return 0;
}

/* Runs this test program again, as `/proc/self/exe ARG`, in a process of its own: for a
 * scenario that must start CUDA afresh (a forked child of a process that has used CUDA
 * cannot use it); the program's main runs the scenario ARG names. Returns 1 if it failed. */
static inline int ct_in_fresh_process(const char *arg) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", "ctest-scenario", arg, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        printf("FAIL scenario %s exited with status %d\n", arg, st);
        return 1;
    }
    return 0;
}

/* Tests of several devices (marker gpu2): the number of devices, printed; with fewer than two
 * (or none), the line the runner counts as a skip, and the process ends there. The tests go
 * over every ordered pair of the machine's devices, so their output depends on the count:
 * NVIDIA's is recorded per count (ctest/expected/<abi>/multi<N>/). */
static inline int ct_devices_or_skip(void) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 2) {
        printf("skipped: needs two GPUs\n");
        fflush(stdout);
        exit(0);
    }
    printf("devices = %d\n", n);
    return n;
}

/* Whether devices a and b can access each other's memory, both ways (peer access can be
 * enabled, a pool's memory can be mapped): without it, a kernel or copy of one device touching
 * the other's memory would fault, so the tests leave those parts out (and say so). */
static inline int ct_peers(int a, int b) {
    int x = 0, y = 0;
    return cudaDeviceCanAccessPeer(&x, a, b) == cudaSuccess && cudaDeviceCanAccessPeer(&y, b, a) == cudaSuccess && x && y;
}

/* Bytes to hex and back, for handles handed to a scenario process on its command line. */
static inline void ct_hex(char *out, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", b[i]);
    out[2 * n] = 0;
}
static inline int ct_unhex(void *p, size_t n, const char *in) {
    unsigned char *b = (unsigned char *)p;
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        if (sscanf(in + 2 * i, "%2x", &v) != 1) return -1;
        b[i] = (unsigned char)v;
    }
    return 0;
}

/* The end of main. */
#define DONE()                                                                           \
    do {                                                                                 \
        printf("%s\n", ct_failed ? "RESULT: FAIL" : "RESULT: ok");                       \
        return ct_failed ? 1 : 0;                                                        \
    } while (0)

#endif
