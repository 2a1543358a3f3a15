/* Driver entry points through the runtime (cudaGetDriverEntryPoint, ...ByVersion and their
 * _ptsz exports): lookups at several versions and with each flag, calls through the pointers
 * they return (mixed with runtime calls), unknown symbols, bad versions, flags and pointers;
 * cudaProfilerStart/Stop; cudaGetExportTable with bad arguments, an unknown UUID and the runtime's error-naming table. */
#include "ctest.h"
#include <stdint.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;

/* NVIDIA declares these in cuda_profiler_api.h. */
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr, unsigned long long flags,
                                         enum cudaDriverEntryPointQueryResult *driverStatus);
cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                                  unsigned long long flags,
                                                  enum cudaDriverEntryPointQueryResult *driverStatus);

#define NO_STATUS ((enum cudaDriverEntryPointQueryResult)77)

/* The runtime's own CUDA version: what the plain form looks symbols up for. */
#if CUDART_VERSION >= 13000
#define RT_VERSION 13000
#else
#define RT_VERSION 12090
#endif

/* A lookup by version, or with version PLAIN through the plain cudaGetDriverEntryPoint. */
#define PLAIN (-1)
static void *lookup(const char *label, const char *sym, int version, unsigned long long flags) {
    void *p = (void *)0x1;
    enum cudaDriverEntryPointQueryResult st = NO_STATUS;
    char l[200];
    cudaError_t e;
    if (version == PLAIN) {
        snprintf(l, sizeof l, "%s: cudaGetDriverEntryPoint(%s, flags %llu)", label, sym ? sym : "NULL", flags);
        e = cudaGetDriverEntryPoint(sym, &p, flags, &st);
    } else {
        snprintf(l, sizeof l, "%s: ByVersion(%s, %d, flags %llu)", label, sym ? sym : "NULL", version, flags);
        e = cudaGetDriverEntryPointByVersion(sym, &p, (unsigned)version, flags, &st);
    }
    SHOW(l, e);
    printf("  status %d, pointer %s\n", (int)st, p == (void *)0x1 ? "untouched" : p ? "set" : "NULL");
    if (e != cudaSuccess) SHOW_LAST("  ");
    return e == cudaSuccess ? p : NULL;
}

int main(void) {
    /* Before any context exists: stopping the profiler has nothing to stop. */
    SHOW("cudaProfilerStop before any context", cudaProfilerStop());

    /* Lookups that succeed, and calls through what they return. */
    CUresult (*getCount)(int *) = (CUresult(*)(int *))lookup("plain", "cuDeviceGetCount", PLAIN, cudaEnableDefault);
    int n = -1;
    if (getCount) {
        SHOWI("cuDeviceGetCount", getCount(&n));
        SHOWI("count", n);
        int rn = -2;
        OK(cudaGetDeviceCount(&rn));
        CHECK(rn == n);
    }
    CUresult (*drvVersion)(int *) = (CUresult(*)(int *))lookup("2.2", "cuDriverGetVersion", 2020, cudaEnableLegacyStream);
    if (drvVersion) {
        int v = -1, rv = -2;
        SHOWI("cuDriverGetVersion", drvVersion(&v));
        OK(cudaDriverGetVersion(&rv));
        CHECK(v == rv);
    }
    lookup("no status", "cuInit", 2000, cudaEnableDefault);
    void *p = NULL;
    SHOW("ByVersion(cuInit) without a status", cudaGetDriverEntryPointByVersion("cuInit", &p, 2000, 0, NULL));
    CHECK(p != NULL);

    /* cuMemAlloc with the 3.2 (_v2) semantics: 64-bit pointer, size_t size; the memory is
     * the runtime's too. */
    CUresult (*memAlloc)(CUdeviceptr *, size_t) =
        (CUresult(*)(CUdeviceptr *, size_t))lookup("3.2", "cuMemAlloc", 3020, cudaEnableDefault);
    CUresult (*memFree)(CUdeviceptr) = (CUresult(*)(CUdeviceptr))lookup("3.2", "cuMemFree", 3020, cudaEnableDefault);
    void *plainAlloc = lookup("plain", "cuMemAlloc", PLAIN, cudaEnableDefault);
    void *rtAlloc = lookup("runtime version", "cuMemAlloc", RT_VERSION, cudaEnableDefault);
    printf("plain cuMemAlloc == ByVersion(runtime version): %d\n", plainAlloc != NULL && plainAlloc == rtAlloc);
    printf("cuMemAlloc at 3.2 == at the runtime version: %d\n", (void *)memAlloc == rtAlloc);
    if (memAlloc && memFree) {
        CUdeviceptr d = 0;
        /* No runtime call so far has made a context current. */
        SHOWI("cuMemAlloc before any context", memAlloc(&d, 1 << 20));
        OK(cudaFree(NULL));
        SHOWI("cuMemAlloc(1 MiB)", memAlloc(&d, 1 << 20));
        CHECK(d != 0);
        unsigned char h[64];
        OK(cudaMemset((void *)(uintptr_t)d, 0x5a, 1 << 20));
        OK(cudaMemcpy(h, (char *)(uintptr_t)d + 1000, sizeof h, cudaMemcpyDeviceToHost));
        int good = 1;
        for (int i = 0; i < 64; i++) good &= h[i] == 0x5a;
        CHECK(good);
        struct cudaPointerAttributes a;
        OK(cudaPointerGetAttributes(&a, (void *)(uintptr_t)d));
        SHOWI("runtime sees a device allocation", a.type == cudaMemoryTypeDevice);
        SHOWI("cuMemFree", memFree(d));
    }
    lookup("2.0", "cuMemAlloc", 2000, cudaEnableDefault);

    /* The runtime's context is the driver's current context. */
    CUresult (*ctxGetCurrent)(CUcontext *) = (CUresult(*)(CUcontext *))lookup("plain", "cuCtxGetCurrent", PLAIN, 0);
    if (ctxGetCurrent) {
        CUcontext c = NULL;
        SHOWI("cuCtxGetCurrent", ctxGetCurrent(&c));
        SHOWI("a context is current", c != NULL);
    }

    /* Legacy and per-thread variants. cuMemcpyAsync and cuStreamQuery have per-thread
     * forms; cuMemAlloc has none. */
    void *legacy = lookup("legacy", "cuMemcpyAsync", RT_VERSION, cudaEnableLegacyStream);
    void *perThread = lookup("per-thread", "cuMemcpyAsync", RT_VERSION, cudaEnablePerThreadDefaultStream);
    void *dflt = lookup("default", "cuMemcpyAsync", RT_VERSION, cudaEnableDefault);
    void *plainDflt = lookup("plain default", "cuMemcpyAsync", PLAIN, cudaEnableDefault);
    enum cudaDriverEntryPointQueryResult st = NO_STATUS;
    void *ptszDflt = NULL, *ptszLegacy = NULL, *ptszVerDflt = NULL;
    SHOW("_ptsz(cuMemcpyAsync, default)", cudaGetDriverEntryPoint_ptsz("cuMemcpyAsync", &ptszDflt, cudaEnableDefault, &st));
    SHOWI("  status", st);
    SHOW("_ptsz(cuMemcpyAsync, legacy)", cudaGetDriverEntryPoint_ptsz("cuMemcpyAsync", &ptszLegacy, cudaEnableLegacyStream, &st));
    SHOW("ByVersion_ptsz(cuMemcpyAsync, default)",
         cudaGetDriverEntryPointByVersion_ptsz("cuMemcpyAsync", &ptszVerDflt, RT_VERSION, cudaEnableDefault, &st));
    printf("legacy != per-thread: %d\n", legacy != NULL && perThread != NULL && legacy != perThread);
    printf("default == legacy: %d\n", dflt == legacy);
    printf("plain default == legacy: %d\n", plainDflt == legacy);
    printf("_ptsz default == per-thread: %d\n", ptszDflt == perThread);
    printf("_ptsz legacy == legacy: %d\n", ptszLegacy == legacy);
    printf("ByVersion_ptsz default == per-thread: %d\n", ptszVerDflt == perThread);
    void *allocPt = lookup("per-thread", "cuMemAlloc", RT_VERSION, cudaEnablePerThreadDefaultStream);
    printf("cuMemAlloc per-thread == legacy: %d\n", allocPt == rtAlloc);
    CUresult (*queryPt)(void *) = (CUresult(*)(void *))lookup("per-thread", "cuStreamQuery", RT_VERSION,
                                                              cudaEnablePerThreadDefaultStream);
    if (queryPt) SHOWI("per-thread cuStreamQuery(0)", queryPt(NULL));

    /* Symbols the driver does not have, or not under that name. */
    lookup("unknown", "cuNoSuchFunction", PLAIN, cudaEnableDefault);
    lookup("unknown", "cuNoSuchFunction", RT_VERSION, cudaEnableDefault);
    lookup("versioned name", "cuMemAlloc_v2", RT_VERSION, cudaEnableDefault);
    lookup("runtime name", "cudaMalloc", RT_VERSION, cudaEnableDefault);
    lookup("empty name", "", RT_VERSION, cudaEnableDefault);

    /* Versions: 0, older than the symbol, newer than any driver. */
    lookup("version 0", "cuMemAlloc", 0, cudaEnableDefault);
    lookup("version 0", "cuNoSuchFunction", 0, cudaEnableDefault);
    lookup("older than the symbol", "cuStreamGetAttribute", 10020, cudaEnableDefault);
    lookup("as old as the symbol", "cuStreamGetAttribute", 11000, cudaEnableDefault);
    lookup("far future", "cuMemAlloc", 99000, cudaEnableDefault);
    lookup("far future", "cuNoSuchFunction", 99000, cudaEnableDefault);
    st = NO_STATUS;
    p = (void *)0x1;
    SHOW("ByVersion(cuMemAlloc, 0xfffffffb)", cudaGetDriverEntryPointByVersion("cuMemAlloc", &p, 0xfffffffbu, 0, &st));
    printf("  status %d, pointer %s\n", (int)st, p == (void *)0x1 ? "untouched" : p ? "set" : "NULL");
    SHOW_LAST("  ");

    /* Flags. */
    lookup("flags 3", "cuMemAlloc", RT_VERSION, 3);
    lookup("flags 4", "cuMemAlloc", RT_VERSION, 4);
    lookup("flags 1<<40", "cuMemAlloc", RT_VERSION, 1ULL << 40);
    lookup("plain, flags 3", "cuMemAlloc", PLAIN, 3);
    st = NO_STATUS;
    SHOW("_ptsz flags 4", cudaGetDriverEntryPoint_ptsz("cuMemAlloc", &p, 4, &st));
    SHOWI("  status", st);
    SHOW_LAST("_ptsz flags 4");

    /* (No NULL symbol or NULL funcPtr, plain or by version: NVIDIA's runtime crashes on
     * them. Ours returns cudaErrorInvalidValue.) */

    /* A success after the failures: the last error is not cleared. */
    p = NULL;
    OK(SHOW("ByVersion(cuMemAlloc) again", cudaGetDriverEntryPointByVersion("cuMemAlloc", &p, RT_VERSION, 0, NULL)));
    SHOW_LAST("after a success");

    /* The profiler: with a context, twice each way. */
    SHOW("cudaProfilerStart", cudaProfilerStart());
    SHOW("cudaProfilerStart again", cudaProfilerStart());
    SHOW("cudaProfilerStop", cudaProfilerStop());
    SHOW("cudaProfilerStop again", cudaProfilerStop());
    SHOW_LAST("profiler");

    /* Export tables. */
    cudaUUID_t bogus;
    memset(&bogus, 0x42, sizeof bogus);
    const void *table = (const void *)0x1;
    SHOW("cudaGetExportTable(NULL, NULL)", cudaGetExportTable(NULL, NULL));
    SHOW_LAST("export table NULL, NULL");
    SHOW("cudaGetExportTable(NULL, uuid)", cudaGetExportTable(NULL, &bogus));
    SHOW("cudaGetExportTable(&t, NULL)", cudaGetExportTable(&table, NULL));
    printf("  table %s\n", table == (const void *)0x1 ? "untouched" : table ? "set" : "NULL");
    SHOW_LAST("export table NULL uuid");
    SHOW("cudaGetExportTable(&t, unknown uuid)", cudaGetExportTable(&table, &bogus));
    printf("  table %s\n", table == (const void *)0x1 ? "untouched" : table ? "set" : "NULL");
    SHOW_LAST("export table unknown uuid");
    memset(&bogus, 0, sizeof bogus);
    table = (const void *)0x1;
    SHOW("cudaGetExportTable(&t, zero uuid)", cudaGetExportTable(&table, &bogus));
    printf("  table %s\n", table == (const void *)0x1 ? "untouched" : table ? "set" : "NULL");
    SHOW_LAST("export table zero uuid");
    /* The runtime's error-naming table, which compute-sanitizer asks the runtime for:
     * {b646c6a2-110b-294a-890a-2e89ad00abd0}: size, runtime version, interface version,
     * (error, &name, &description). */
    static const unsigned char errors_id[16] = {0xb6, 0x46, 0xc6, 0xa2, 0x11, 0x0b, 0x29, 0x4a,
                                                0x89, 0x0a, 0x2e, 0x89, 0xad, 0x00, 0xab, 0xd0};
    memcpy(&bogus, errors_id, sizeof bogus);
    table = (const void *)0x1;
    SHOW("cudaGetExportTable(&t, errors uuid)", cudaGetExportTable(&table, &bogus));
    printf("  table %s\n", table == (const void *)0x1 ? "untouched" : table ? "set" : "NULL");
    if (table && table != (const void *)0x1) {
        const size_t *w = (const size_t *)table;
        printf("  size %zu\n", w[0]);
        unsigned int v = 0;
        int r = ((int (*)(unsigned int *))w[1])(&v);
        printf("  slot 1: %d, %u\n", r, v);
        printf("  slot 1 NULL: %d\n", ((int (*)(unsigned int *))w[1])(NULL));
        v = 0;
        r = ((int (*)(unsigned int *))w[2])(&v);
        printf("  slot 2: %d, %u\n", r, v);
        int codes[] = {0, 2, 101, 719, 999, 12345};
        for (int i = 0; i < 6; i++) {
            const char *n = NULL, *d = NULL;
            r = ((int (*)(int, const char **, const char **))w[3])(codes[i], &n, &d);
            printf("  slot 3 (%d): %d, %s, \"%s\"\n", codes[i], r, n ? n : "NULL", d ? d : "NULL");
        }
        printf("  slot 3 NULL outs: %d\n", ((int (*)(int, const char **, const char **))w[3])(2, NULL, NULL));
    }
    SHOW_LAST("export table errors uuid");
    DONE();
}
